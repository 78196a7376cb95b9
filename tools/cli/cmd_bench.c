/* cmd_bench.c — `slotopt bench`: every backend on every instance, each
 * cell stored in SQLite, gaps to a reference backend, summary per backend
 * (docs/harness.md). */
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/cli/cli_opts.h"
#include "tools/harness/harness.h"
#include "tools/harness/harness_table.h"

static const so_cli_opt opts[] = {
    {"backends", 'b', SO_OPT_SHORT, "LIST", "comma-separated backends ('slotopt backends')"},
    {"reference", 'r', SO_OPT_SHORT, "LIST",
     "the reference backend (one per problem kind); it is run too"},
    {"scenario", 'S', SO_OPT_SHORT, "NAME",
     "instances/scenarios/NAME.json (or a file); 'slotopt scenarios' lists them"},
    {"quick", 'Q', 0, NULL,
     "the scenario's quick form (fewer seeds, smaller sizes; what CI runs)"},
    {"jobs", 'j', SO_OPT_SHORT, "N", "worker processes (default 1)"},
    {"time-limit", 't', SO_OPT_SHORT, "S",
     "seconds per cell (default 60, 0 = none); a worker still busy after S + min(S, 1) "
     "s is killed, and each input file must be read within that time (at least 1 s)"},
    {"repetitions", 'n', SO_OPT_SHORT, "N", "runs per instance and backend (seed = rep + 1)"},
    {"db", 'd', SO_OPT_SHORT, "FILE",
     "results database (default slotopt-bench.db): a file or a new path (a new one is "
     "removed if the run fails)"},
    {"resume", 'R', SO_OPT_SHORT, NULL, "skip the cells already in the database"},
    SO_CLI_OUTPUT_OPTS,
    {"cells", 'c', SO_OPT_SHORT, NULL, "print the per-cell table too"},
    {"group-by", 'g', SO_OPT_SHORT, "KEY", "one summary row per value of family parameter KEY"},
    {"mpi", 'm', SO_OPT_SHORT, NULL,
     "spread the cells over the ranks of an MPI job (mpirun -np N slotopt bench --mpi "
     "...): rank 0 writes the database, the others run cells"},
    {"mpi-timeout", 'T', SO_OPT_SHORT, "S",
     "a rank silent for S s with a cell is lost and its cell recorded as killed "
     "(default 60); --resume runs such cells again; exit 4 while any is left"},
    {"mpirun", 'L', SO_OPT_SHORT, "CMD",
     "start the MPI job itself with CMD (words split at spaces, e.g. 'mpirun "
     "--enable-recovery'), wait for it and exit 0 only when every cell is stored and "
     "rank 0 succeeded, whatever CMD's own status; ends a job that hangs after rank 0 "
     "is done"},
    {"mpi-status", 'Z', SO_OPT_SHORT | SO_OPT_HIDDEN, "FILE",
     "rank 0 writes its state and exit code there (--mpirun sets it)"},
    {"workload", 'W', SO_OPT_SHORT | SO_OPT_REPEAT, "PATH",
     "simulation cells (workload x policy x seed on the cluster model): a workload file "
     "(JSON or SWIM) or folder; repeatable"},
    {"policies", 'P', SO_OPT_SHORT, "LIST",
     "comma-separated SCHED[+SPEC[+STEAL]] (e.g. fair,flex+late, fifo+base+even: BASE "
     "and resource stealing) and lower-bound (each job alone on the cluster) or "
     "lp-bound (preemptive relaxation, docs/offline.md)"},
    {"sim-reference", 'E', SO_OPT_SHORT, "P",
     "the policy the others are compared with (default the first; lower-bound, "
     "lp-bound allowed)"},
    {"metric", 'M', SO_OPT_SHORT, "M",
     "mean_response (default), p95_response, max_response or makespan"},
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

const so_cli_spec so_bench_spec = {
    "bench", "[INPUTS...]",
    "Runs every backend on every instance (INPUTS: instance files, folders,\n"
    "or - for instances on stdin), stores one row per cell in the database,\n"
    "and prints each backend's gap to the reference: instances, cells,\n"
    "solved, % optimal, mean / median / worst ratio (>= 1 is worse), mean and\n"
    "max seconds. Either --backends and --reference with INPUTS, or\n"
    "--scenario NAME, or --policies with --workload (simulation cells).\n",
    opts, SO_OF_TABLE | SO_OF_CSV | SO_OF_JSON | SO_OF_MARKDOWN, SO_OF_TABLE, NULL};

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

static int run_and_print(so_hconfig *c, so_hinsts *s, const char *db, so_cli_out *out,
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
    int incomplete = 0, written = SO_EXIT_OK;
    if (!rc)
        rc = so_harness_select(c, s, st, &rows, &err);
    if (!rc)
        rc = so_hstore_kinds(st, &kinds, &err);
    so_htables t;
    if (!rc && !(rc = so_harness_tables(&rows, &kinds, NULL, &t))) {
        so_harness_print(out->fp, &t, out->format | (out->compact ? SO_HF_COMPACT : 0),
                         cells);
        written = so_cli_out_close(out, SO_EXIT_OK); /* the cells stay stored */
        so_cli_flush_note(); /* main checks stdout at exit */
        so_harness_warn(stderr, "bench", &t, &kinds);
        so_htables_free(&t);
        fprintf(stderr, "slotopt bench: %zu cells run, %zu already stored; results in %s\n",
                ran, rows.n - ran, db);
        size_t lost = 0;
        for (size_t i = 0; i < rows.n; i++)
            lost += so_harness_row_lost(&rows.v[i]);
        if (lost) {
            fprintf(stderr, "slotopt bench: %zu cells lost with their MPI rank (stored as"
                    " killed): the run is incomplete; rerun with --resume to run them\n", lost);
            incomplete = 1;
        }
    }
    so_hrows_free(&rows);
    so_hkinds_free(&kinds);
    if (rc) /* a database this run created is not left half written */
        so_hstore_discard(st);
    else
        so_hstore_close(st);
    so_cli_out_drop(out); /* when nothing was printed */
    if (rc)
        return so_cli_report_error("bench", rc, &err);
    if (written)
        return written;
    return incomplete ? SO_EXIT_INCOMPLETE : SO_EXIT_OK;
}

/* --mpi: rank 0 runs and prints as without MPI, with the cells spread over
 * the other ranks (tools/harness/harness_mpi.c); the others run cells and print
 * nothing but errors. */
static int run_mpi(so_hconfig *c, so_hinsts *s, const char *db, so_cli_out *out,
                   int cells, double timeout, const char *status)
{
    so_hmpi m = {0, 1, timeout};
    so_error err;
    so_error_clear(&err);
    int rc = so_harness_mpi_init(&m, &err);
    char line[400];
    if (rc) {
        int code = so_cli_report_error("bench", rc, &err);
        snprintf(line, sizeof line, "done %d", code);
        if (status && m.rank == 0)
            so_hstatus_write(status, line);
        return code;
    }
    int code;
    if (m.rank == 0) {
        char host[256] = "?";
        gethostname(host, sizeof host);
        host[sizeof host - 1] = '\0';
        snprintf(line, sizeof line, "running %ld %s", (long)getpid(), host);
        if (status && so_hstatus_write(status, line) != 0)
            fprintf(stderr, "slotopt bench: --mpi-status: cannot write %s\n", status);
        code = run_and_print(c, s, db, out, cells, &m);
        fflush(stdout);
        snprintf(line, sizeof line, "done %d", code);
        if (status)
            so_hstatus_write(status, line);
    } else {
        rc = so_harness_mpi_serve(&m, c, s, &err);
        if (rc)
            fprintf(stderr, "slotopt bench: MPI rank %d: %s\n", m.rank, err.message);
        code = rc ? SO_EXIT_BACKEND : SO_EXIT_OK;
    }
    so_harness_mpi_finalize();
    return code;
}

/* The cells of the run as the database has them: stored, lost with their
 * rank, missing. The database unreadable (rank 0 never made it): none. */
static void count_cells(const so_hconfig *c, const so_hinsts *s, const char *db,
                        size_t *n, size_t *stored, size_t *lost)
{
    *n = *stored = *lost = 0;
    so_error err;
    so_error_clear(&err);
    so_hcell *cells = NULL;
    if (so_harness_cells(c, s, &cells, n, &err) == SO_OK)
        free(cells);
    so_hstore *st = NULL;
    so_hrows rows = {0};
    if (access(db, F_OK) == 0 && so_hstore_open(db, 0, &st, &err) == SO_OK &&
        so_harness_select(c, s, st, &rows, &err) == SO_OK) {
        *stored = rows.n;
        for (size_t i = 0; i < rows.n; i++)
            *lost += so_harness_row_lost(&rows.v[i]);
    }
    so_hrows_free(&rows);
    so_hstore_close(st);
}

/* --mpirun CMD: this process starts CMD + this program with --mpi (the
 * original arguments but --mpirun), waits for it (tools/harness/harness_launch.c),
 * then judges the run by rank 0's status and the database. */
static int launch(const so_hconfig *c, const so_hinsts *s, const char *db,
                  const char *cmd, int argc, char **orig)
{
    char *words = strdup(cmd), exe[PATH_MAX], status[PATH_MAX + 64];
    char **av = calloc((size_t)argc + 80, sizeof *av);
    if (!words || !av) {
        free(words);
        free(av);
        return so_cli_report_error("bench", SO_ENOMEM, NULL);
    }
    int k = 0;
    for (char *w = strtok(words, " \t\n"); w && k < 64; w = strtok(NULL, " \t\n"))
        av[k++] = w;
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k == 0 || len <= 0) {
        free(words);
        free(av);
        return so_cli_usage_error("bench", k ? "--mpirun: cannot find this program's path"
                                             : "--mpirun: empty command");
    }
    exe[len] = '\0';
    /* beside the database (rank 0's host sees it: a shared folder on a
     * cluster), or in $TMPDIR when that folder is not there to write to */
    char *dir = strdup(db);
    const char *tmp = getenv("TMPDIR");
    if (dir && access(dirname(dir), W_OK) == 0)
        snprintf(status, sizeof status, "%s.mpi-status.%ld", db, (long)getpid());
    else
        snprintf(status, sizeof status, "%s/slotopt-mpi-status.%ld",
                 tmp && *tmp ? tmp : "/tmp", (long)getpid());
    free(dir);
    av[k++] = exe;
    av[k++] = "bench";
    av[k++] = "--mpi";
    av[k++] = "--mpi-status";
    av[k++] = status;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(orig[i], "--mpirun") || !strcmp(orig[i], "--mpi-status"))
            i++; /* and its value */
        else if (strncmp(orig[i], "--mpirun=", 9) && strncmp(orig[i], "--mpi-status=", 13))
            av[k++] = orig[i];
    }
    av[k] = NULL;
    so_error err;
    so_error_clear(&err);
    so_hlaunch out;
    /* seconds the job has to end after rank 0's "done" */
    double grace = 10;
    const char *g = getenv("SLOTOPT_MPI_GRACE");
    if (g && (so_cli_parse_double(g, &grace) || grace > 3600)) {
        free(words);
        free(av);
        return so_cli_usage_error("bench", "SLOTOPT_MPI_GRACE: expected seconds 0..3600,"
                                  " found '%s'", g);
    }
    int rc = so_harness_launch(av, status, grace, &out, &err);
    free(words);
    free(av);
    if (rc)
        return so_cli_report_error("bench", rc, &err);
    size_t n, stored, lost;
    count_cells(c, s, db, &n, &stored, &lost);
    int code = SO_EXIT_OK;
    if (out.rank0_done && out.rank0_code != 0)
        code = out.rank0_code;
    else if (!out.rank0_done || lost || stored < n)
        code = SO_EXIT_INCOMPLETE;
    char job[64];
    if (WIFEXITED(out.wait_status))
        snprintf(job, sizeof job, "exit %d", WEXITSTATUS(out.wait_status));
    else
        snprintf(job, sizeof job, "signal %d", WTERMSIG(out.wait_status));
    char r0[64];
    if (out.rank0_done)
        snprintf(r0, sizeof r0, "exit %d", out.rank0_code);
    else
        snprintf(r0, sizeof r0, "%s", out.rank0_died ? "died" : "no word (died or never started)");
    fprintf(stderr, "slotopt bench: MPI job %s%s; rank 0 %s; %zu cells: %zu stored, %zu lost"
            " with their rank, %zu missing; exit %d%s\n", job,
            out.ended_by_watchdog ? " (ended by the watchdog)" : "", r0, n, stored - lost, lost,
            n - stored, code, code == SO_EXIT_INCOMPLETE ? " (rerun with --resume)" : "");
    return code;
}

static int bench(int argc, char **argv, char **orig)
{
    const char *backends = NULL, *reference = NULL, *scenario = NULL, *policies = NULL;
    const char *workloads[64];
    int n_workloads = 0;
    const char *db = "slotopt-bench.db", *fmt = "table", *mpirun = NULL, *mpi_status = NULL;
    const char *outpath = NULL;
    cli_overrides o = {-1, 0, 0, NULL, NULL, NULL};
    int resume = 0, cells = 0, compact = 0, use_mpi = 0, quick = 0, c;
    double mpi_timeout = 60;
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_bench_spec)) != -1) {
        switch (c) {
        case 'b': backends = optarg; break;
        case 'r': reference = optarg; break;
        case 'S': scenario = optarg; break;
        case 'Q': quick = 1; break;
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
        case 'o': outpath = optarg; break;
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
        case 'L': mpirun = optarg; break;
        case 'Z': mpi_status = optarg; break;
        case 'h': return so_cli_print_help(&so_bench_spec);
        default: return so_cli_bad_option("bench", argv);
        }
    }
    int format, bad = so_cli_format("bench", fmt, so_bench_spec.formats, &format);
    if (bad) /* checked before anything is read; the output opens below */
        return bad;
    if (scenario && (backends || reference || optind < argc || policies || n_workloads))
        return so_cli_usage_error("bench", "--scenario takes no --backends, --reference,"
                                  " --policies, --workload or INPUTS");
    if (quick && !scenario)
        return so_cli_usage_error("bench", "--quick needs --scenario");
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
    /* inputs are read within the cell's limit: --time-limit, else the
     * scenario's, else the default */
    s.read_limit = o.time_limit >= 0 ? o.time_limit : scenario ? -1 : cfg.time_limit;
    s.read_limit_from = o.time_limit >= 0 ? "--time-limit" : "the default --time-limit";
    so_error err;
    so_error_clear(&err);
    int rc = SO_OK;
    if (scenario) {
        char path[PATH_MAX];
        if (so_scenario_find(scenario, path, sizeof path))
            return so_cli_no_scenario("bench", scenario);
        rc = so_scenario_load(path, quick, &cfg, &s, NULL, &err);
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
    so_cli_out out;
    int code = so_cli_out_open(&out, "bench", fmt, so_bench_spec.formats, outpath, compact);
    if (!code)
        code = apply(&cfg, &o);
    cfg.resume = resume;
    cfg.progress = isatty(STDERR_FILENO);
    if (!code && mpirun)
        code = launch(&cfg, &s, db, mpirun, argc, orig);
    else if (!code && use_mpi)
        code = run_mpi(&cfg, &s, db, &out, cells, mpi_timeout, mpi_status);
    else if (!code)
        code = run_and_print(&cfg, &s, db, &out, cells, NULL);
    so_cli_out_drop(&out); /* the launcher and ranks other than 0 print nothing */
    so_hinsts_free(&s);
    return code;
}

int so_cmd_bench(int argc, char **argv)
{
    /* getopt_long reorders argv: --mpirun passes the arguments as given */
    char **orig = malloc(((size_t)argc + 1) * sizeof *orig);
    if (!orig)
        return so_cli_report_error("bench", SO_ENOMEM, NULL);
    memcpy(orig, argv, (size_t)argc * sizeof *orig);
    orig[argc] = NULL;
    int code = bench(argc, argv, orig);
    free(orig);
    return code;
}
