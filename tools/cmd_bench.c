/* cmd_bench.c — `slotopt bench`: every backend on every instance, each
 * cell stored in SQLite, gaps to a reference backend, summary per backend
 * (docs/harness.md). */
#include <getopt.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include "tools/cli.h"
#include "tools/harness.h"

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: slotopt bench --backends LIST --reference BACKEND [OPTIONS] INPUTS...\n"
            "       slotopt bench --scenario NAME [OPTIONS]\n\n"
            "Runs every backend on every instance (INPUTS: instance files,\n"
            "folders, or - for one instance on stdin), stores one row per cell\n"
            "in the database, and prints each backend's gap to the reference:\n"
            "instances, cells, solved, %% optimal,\n"
            "mean / median / worst ratio (>= 1 is worse), mean and max seconds.\n\n"
            "  --backends LIST     comma-separated backends ('slotopt backends')\n"
            "  --reference LIST    the reference backend (one per problem kind);\n"
            "                      it is run too\n"
            "  --scenario NAME     instances/scenarios/NAME.json (or a file)\n"
            "  --jobs N            worker processes (default 1)\n"
            "  --time-limit S      seconds per cell (default 60, 0 = none); a worker\n"
            "                      still busy after S + min(S, 1) s is killed\n"
            "  --repetitions N     runs per instance and backend (seed = rep + 1)\n"
            "  --db FILE           results database (default slotopt-bench.db)\n"
            "  --resume            skip the cells already in the database\n"
            "  --format F          table (default), csv, json or markdown\n"
            "  --compact           JSON on one line\n"
            "  --cells             print the per-cell table too\n"
            "  --group-by KEY      one summary row per value of family parameter KEY\n"
            "  --mpi               spread the cells over the ranks of an MPI job\n"
            "                      (mpirun -np N slotopt bench --mpi ...): rank 0\n"
            "                      writes the database, the others run cells\n"
            "  --mpi-timeout S     a rank silent for S s with a cell is lost and its\n"
            "                      cell recorded as killed (default 60)\n"
            "\nSimulation cells (workload x policy x seed on the cluster model):\n"
            "  --workload PATH     a workload file (JSON or SWIM) or folder; repeatable\n"
            "  --policies LIST     comma-separated SCHED[+SPEC[+STEAL]] (e.g. fair,flex+late,\n"
            "                      fifo+base+even: BASE and resource stealing)\n"
            "                      and lower-bound (each job alone on the cluster)\n"
            "                      or lp-bound (preemptive relaxation, docs/offline.md)\n"
            "  --sim-reference P   the policy the others are compared with\n"
            "                      (default the first; lower-bound, lp-bound allowed)\n"
            "  --metric M          mean_response (default), p95_response,\n"
            "                      max_response or makespan\n");
}

typedef struct cli_overrides {
    double time_limit;
    long jobs, reps;
    const char *group_by;
    const char *sim_reference, *metric;
} cli_overrides;

static int apply(so_hconfig *c, const cli_overrides *o)
{
    if (o->time_limit >= 0)
        c->time_limit = o->time_limit;
    if (o->jobs > 0)
        c->jobs = (int)o->jobs;
    if (o->reps > 0)
        c->reps = (int)o->reps;
    if (o->group_by) {
        if (strlen(o->group_by) >= sizeof c->group_by)
            return so_cli_usage_error("bench", "--group-by: key too long");
        snprintf(c->group_by, sizeof c->group_by, "%s", o->group_by);
    }
    if (o->sim_reference)
        snprintf(c->sim_reference, sizeof c->sim_reference, "%s", o->sim_reference);
    if (o->metric)
        snprintf(c->metric, sizeof c->metric, "%s", o->metric);
    so_error err;
    so_error_clear(&err);
    if (so_hconfig_check_sim(c, &err))
        return so_cli_report_error("bench", SO_EINVAL, &err);
    return 0;
}

static int parse_count(const char *s, long max, long *out)
{
    uint64_t v;
    if (so_cli_parse_u64(s, &v) || v < 1 || v > (uint64_t)max)
        return -1;
    *out = (long)v;
    return 0;
}

static int run_and_print(so_hconfig *c, so_hinsts *s, const char *db, int format,
                         int cells, const so_hmpi *mpi)
{
    so_error err;
    so_error_clear(&err);
    so_hstore *st = NULL;
    int rc = so_hstore_open(db, 1, &st, &err);
    size_t ran = 0;
    if (!rc)
        rc = mpi ? so_harness_mpi_run(mpi, c, s, st, &ran, &err)
                 : so_harness_run(c, s, st, &ran, &err);
    so_hrows rows = {0};
    so_hkinds kinds = {0};
    if (!rc)
        rc = so_harness_select(c, s, st, &rows, &err);
    if (!rc)
        rc = so_hstore_kinds(st, &kinds, &err);
    so_htables t;
    if (!rc && !(rc = so_harness_tables(&rows, &kinds, NULL, &t))) {
        so_harness_print(stdout, &t, format, cells);
        so_cli_flush_note(); /* main checks stdout at exit */
        so_harness_warn(stderr, "bench", &t, &kinds);
        so_htables_free(&t);
        fprintf(stderr, "slotopt bench: %zu cells run, %zu already stored; results in %s\n",
                ran, rows.n - ran, db);
    }
    so_hrows_free(&rows);
    so_hkinds_free(&kinds);
    so_hstore_close(st);
    return rc ? so_cli_report_error("bench", rc, &err) : SO_EXIT_OK;
}

/* --mpi: rank 0 runs and prints as without MPI, with the cells spread over
 * the other ranks (tools/harness_mpi.c); the others run cells and print
 * nothing but errors. */
static int run_mpi(so_hconfig *c, so_hinsts *s, const char *db, int format,
                   int cells, double timeout)
{
    so_hmpi m = {0, 1, timeout};
    so_error err;
    so_error_clear(&err);
    int rc = so_harness_mpi_init(&m, &err);
    if (rc)
        return so_cli_report_error("bench", rc, &err);
    int code;
    if (m.rank == 0) {
        code = run_and_print(c, s, db, format, cells, &m);
    } else {
        rc = so_harness_mpi_serve(&m, c, s, &err);
        if (rc)
            fprintf(stderr, "slotopt bench: MPI rank %d: %s\n", m.rank, err.message);
        code = rc ? SO_EXIT_BACKEND : SO_EXIT_OK;
    }
    so_harness_mpi_finalize();
    return code;
}

int so_cmd_bench(int argc, char **argv)
{
    static const struct option opts[] = {
        {"backends", required_argument, 0, 'b'},
        {"reference", required_argument, 0, 'r'},
        {"scenario", required_argument, 0, 'S'},
        {"jobs", required_argument, 0, 'j'},
        {"time-limit", required_argument, 0, 't'},
        {"repetitions", required_argument, 0, 'n'},
        {"db", required_argument, 0, 'd'},
        {"resume", no_argument, 0, 'R'},
        {"format", required_argument, 0, 'f'},
        {"cells", no_argument, 0, 'c'},
        {"compact", no_argument, 0, 'C'},
        {"group-by", required_argument, 0, 'g'},
        {"workload", required_argument, 0, 'W'},
        {"policies", required_argument, 0, 'P'},
        {"sim-reference", required_argument, 0, 'E'},
        {"metric", required_argument, 0, 'M'},
        {"mpi", no_argument, 0, 'm'},
        {"mpi-timeout", required_argument, 0, 'T'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *backends = NULL, *reference = NULL, *scenario = NULL, *policies = NULL;
    const char *workloads[64];
    int n_workloads = 0;
    const char *db = "slotopt-bench.db", *fmt = "table";
    cli_overrides o = {-1, 0, 0, NULL, NULL, NULL};
    int resume = 0, cells = 0, compact = 0, use_mpi = 0, c;
    double mpi_timeout = 60;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:r:S:j:t:n:d:Rf:cg:W:P:E:M:mT:h", opts, NULL)) != -1) {
        switch (c) {
        case 'b': backends = optarg; break;
        case 'r': reference = optarg; break;
        case 'S': scenario = optarg; break;
        case 'j':
            if (parse_count(optarg, 256, &o.jobs))
                return so_cli_usage_error("bench", "--jobs: expected 1..256, found '%s'", optarg);
            break;
        case 't':
            if (so_cli_parse_double(optarg, &o.time_limit))
                return so_cli_usage_error("bench", "--time-limit: expected seconds >= 0, found '%s'", optarg);
            break;
        case 'n':
            if (parse_count(optarg, 1000, &o.reps))
                return so_cli_usage_error("bench", "--repetitions: expected 1..1000, found '%s'", optarg);
            break;
        case 'd': db = optarg; break;
        case 'R': resume = 1; break;
        case 'f': fmt = optarg; break;
        case 'c': cells = 1; break;
        case 'C': compact = 1; break;
        case 'g': o.group_by = optarg; break;
        case 'W':
            if (n_workloads == 64)
                return so_cli_usage_error("bench", "--workload: at most 64");
            workloads[n_workloads++] = optarg;
            break;
        case 'P': policies = optarg; break;
        case 'E': o.sim_reference = optarg; break;
        case 'M': o.metric = optarg; break;
        case 'm': use_mpi = 1; break;
        case 'T':
            if (so_cli_parse_double(optarg, &mpi_timeout) || !(mpi_timeout > 0))
                return so_cli_usage_error("bench", "--mpi-timeout: expected seconds > 0, found '%s'", optarg);
            break;
        case 'h': help(stdout); return SO_EXIT_OK;
        default: return so_cli_bad_option("bench", argv);
        }
    }
    int format = so_hformat_parse(fmt);
    if (format < 0)
        return so_cli_usage_error("bench", "--format: expected table, csv, json or markdown, found '%s'", fmt);
    if (compact)
        format |= SO_HF_COMPACT;
    if (scenario && (backends || reference || optind < argc || policies || n_workloads))
        return so_cli_usage_error("bench", "--scenario takes no --backends, --reference,"
                                  " --policies, --workload or INPUTS");
    int sims = policies || n_workloads;
    if (sims && (!policies || !n_workloads))
        return so_cli_usage_error("bench", "simulation cells need both --policies and --workload");
    if (!scenario && !sims && (!backends || !reference))
        return so_cli_usage_error("bench", "expected --backends and --reference (or --scenario)");
    if (!scenario && (backends || reference) && (!backends || !reference))
        return so_cli_usage_error("bench", "expected --backends and --reference together");
    if (!scenario && backends && optind == argc)
        return so_cli_usage_error("bench", "expected INPUTS (instance files or folders)");
    if (!scenario && !backends && optind < argc)
        return so_cli_usage_error("bench", "INPUTS need --backends and --reference");
    so_hconfig cfg;
    so_hconfig_init(&cfg);
    so_hinsts s = {0};
    so_error err;
    so_error_clear(&err);
    int rc = SO_OK;
    if (scenario) {
        char path[PATH_MAX];
        if (so_scenario_find(scenario, path, sizeof path))
            return so_cli_usage_error("bench", "no scenario '%s' (looked in $SLOTOPT_SCENARIOS,"
                                      " instances/scenarios/ and beside the program)", scenario);
        rc = so_scenario_read(path, &cfg, &s, &err);
    } else {
        if (backends)
            rc = so_hconfig_add_backend_list(&cfg, backends, 0, &err);
        if (!rc && reference)
            rc = so_hconfig_add_backend_list(&cfg, reference, 1, &err);
        if (!rc && policies)
            rc = so_hconfig_add_policy_list(&cfg, policies, &err);
        for (int i = 0; !rc && i < n_workloads; i++)
            rc = so_hinsts_add_workload_path(&s, workloads[i], &err);
        for (int i = optind; !rc && i < argc; i++)
            rc = so_hinsts_add_path(&s, argv[i], &err);
    }
    if (rc) {
        so_hinsts_free(&s);
        return so_cli_report_error("bench", rc, &err);
    }
    int code = apply(&cfg, &o);
    cfg.resume = resume;
    cfg.progress = isatty(STDERR_FILENO);
    if (!code && use_mpi)
        code = run_mpi(&cfg, &s, db, format, cells, mpi_timeout);
    else if (!code)
        code = run_and_print(&cfg, &s, db, format, cells, NULL);
    so_hinsts_free(&s);
    return code;
}
