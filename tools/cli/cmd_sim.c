/* cmd_sim.c — `slotopt sim`: replay a workload (native JSON or a SWIM trace)
 * on the cluster model under a scheduler and a speculation policy; print
 * per-job times and the summary (docs/cluster.md). */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cluster/cluster.h"
#include "cluster/stealing.h"
#include "formulations/common/gnuplot.h"
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/cli/cli_opts.h"
#include "tools/output/table.h"
#include "tools/output/output_format.h"
#include "tools/cli/sim_progress.h"

static const so_cli_opt opts[] = {
    {"scheduler", 'S', SO_OPT_REQUIRED, "NAME", "the scheduler (listed below)"},
    {"speculation", 'P', 0, "NAME",
     "none (default), hadoop, late, base (BASE on LATE's slow tasks) or base-hadoop "
     "(BASE on Hadoop's)"},
    {"stealing", 'R', 0, "POLICY",
     "resource stealing of idle slots: none (default), even, fcm, stlm, ltlm, stm or "
     "ltm (docs/stealing.md)"},
    {"seed", 's', 0, "N", "heartbeat phases and sampled durations (default 1)"},
    SO_CLI_OUTPUT_OPTS,
    {"summary", 'Y', 0, NULL, "the summary only: no per-job lines (no \"jobs\")"},
    {"events-out", 'e', 0, "FILE", "the event log, one line per event (atomically)"},
    {"plot", 'p', 0, "FILE",
     "utilisation over time, drawn by gnuplot; the extension picks the type: .png, "
     ".svg or .pdf (SVG for -, standard output)"},
    {"plot-step", 't', 0, "S", "seconds per plotted point, >= 0.1 (default 60)"},
    {"time-limit", 'T', 0, "S",
     "stop S seconds of wall-clock time (> 0) after the command started (reading "
     "included): the report is then partial (\"status\": \"time_limit\", \"partial\": "
     "true, \"simulated_time\", \"jobs_finished\"; unfinished jobs without finish), a "
     "note goes to standard error, and the exit status is 0"},
    {"opt", 'O', SO_OPT_REPEAT, "KEY=VALUE", "a setting (listed below)"},
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

/* The schedulers and the --opt settings, from their registries. */
static void more(FILE *fp)
{
    fprintf(fp, "\nschedulers: ");
    for (size_t i = 0; i < so_cl_scheduler_count(); i++)
        fprintf(fp, "%s%s", i ? ", " : "", so_cl_scheduler_at(i)->name);
    fprintf(fp, "\n\n--opt settings:\n");
    const so_option_doc *lists[] = {so_cl_sim_options, so_cl_swim_options};
    for (size_t l = 0; l < 2; l++)
        for (const so_option_doc *d = lists[l]; d->key; d++)
            fprintf(fp, "      %-20s %s (default %s)\n", d->key, d->help, d->def);
    for (size_t i = 0; i < so_cl_scheduler_count(); i++)
        for (const so_option_doc *d = so_cl_scheduler_at(i)->options; d && d->key;
             d++)
            fprintf(fp, "      %-20s %s: %s (default %s)\n", d->key,
                    so_cl_scheduler_at(i)->name, d->help, d->def);
    fprintf(fp,
            "\nRefused before anything runs (exit 2, naming the key): a workload whose\n"
            "estimated memory is above max_memory_mb (default SLOTOPT_MAX_MEMORY_MB,\n"
            "else 4096), or whose replay needs an estimated number of events above\n"
            "max_events (default 1e9): busy time (summed over busy periods: each\n"
            "job's work at the cluster's speed, its longest map and reduce on the\n"
            "slowest node chained) x (nodes / heartbeat\n"
            "interval + 1 / epoch); docs/cluster.md, \"Limits that keep a run\n"
            "finite\".\n");
}

const so_cli_spec so_sim_spec = {
    "sim", "WORKLOAD",
    "Replays WORKLOAD (native JSON workload, a SWIM trace or a Rumen job\n"
    "trace) on the discrete-event cluster model and reports per-job submit,\n"
    "start, finish and response times, makespan, mean and percentile response\n"
    "time, slot utilisation and speculation counts. json: the report; table:\n"
    "the summary and a job table; csv and markdown: one row per job (with\n"
    "--summary: one row of the summary).\n",
    opts, SO_OF_JSON | SO_OF_TABLE | SO_OF_CSV | SO_OF_MARKDOWN, SO_OF_JSON, more};

/* Every --opt key must belong to the simulator, the SWIM reader or the
 * chosen scheduler. */
static int check_options(const so_params *prm, const so_cl_scheduler *s,
                         so_error *err)
{
    for (int i = 0; i < prm->n_options; i++) {
        const char *key = prm->options[i].key;
        int ok = 0;
        const so_option_doc *lists[] = {so_cl_sim_options, so_cl_swim_options,
                                        s->options};
        for (size_t l = 0; l < 3 && !ok; l++)
            for (const so_option_doc *d = lists[l]; d && d->key && !ok; d++)
                ok = !strcmp(d->key, key);
        if (!ok)
            return so_error_setf(err, NULL, 0, 0, key,
                                 "unknown --opt key for scheduler '%s' (see"
                                 " 'slotopt sim --help')", s->name);
    }
    return SO_OK;
}

/* The event log of a whole trace runs to hundreds of megabytes, so it is
 * streamed into its output (so_output_open: a temporary file beside a
 * regular target, renamed onto it only when the run succeeded; a device,
 * FIFO or "-" written directly). */
typedef struct log_file {
    so_output *out;
    FILE *fp;
} log_file;

/* A signal that ends the program while the log is open (Ctrl-C, kill, a
 * closed stdout pipe) first removes the temporary file (unlink is
 * async-signal-safe), then ends the program as the signal would have. */
static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define N_FATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static char open_log[4200];
static struct sigaction saved[N_FATAL];

static void drop_log_and_die(int sig)
{
    if (open_log[0])
        unlink(open_log);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void guard_log(int on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = drop_log_and_die;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_FATAL; i++)
        if (on)
            sigaction(fatal_signals[i], &sa, &saved[i]);
        else
            sigaction(fatal_signals[i], &saved[i], NULL);
}

static int log_open(log_file *lf, const char *path)
{
    so_error err;
    so_error_clear(&err);
    int rc = so_output_open(path, &lf->out, &err);
    if (rc)
        return so_cli_report_error("sim", rc, &err);
    lf->fp = so_output_file(lf->out);
    const char *tmp = so_output_temp_path(lf->out);
    snprintf(open_log, sizeof open_log, "%s", tmp ? tmp : "");
    guard_log(1);
    return SO_EXIT_OK;
}

/* Closes the log; keeps it if keep, else removes it. */
static int log_close(log_file *lf, int keep)
{
    so_error err;
    so_error_clear(&err);
    int rc = so_output_close(lf->out, keep, &err);
    guard_log(0);
    open_log[0] = '\0';
    return rc ? so_cli_report_error("sim", rc, &err) : SO_EXIT_OK;
}

static int write_out(const char *path, const char *text, size_t len)
{
    so_error err;
    so_error_clear(&err);
    int rc = so_write_file_atomic(path ? path : "-", text, len, &err);
    return rc ? so_cli_report_error("sim", rc, &err) : SO_EXIT_OK;
}

typedef struct sim_args {
    const char *workload, *scheduler, *speculation, *format, *stealing;
    const char *events_out, *plot, *out;
    double plot_step, time_limit;
    int compact, summary_only;
    uint64_t seed;
    so_params prm;
} sim_args;

static int parse_args(int argc, char **argv, sim_args *a, so_error *err)
{
    int c;
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_sim_spec)) != -1) {
        switch (c) {
        case 'S': a->scheduler = optarg; break;
        case 'P': a->speculation = optarg; break;
        case 'R': a->stealing = optarg; break;
        case 's':
            if (so_cli_parse_u64(optarg, &a->seed))
                return so_cli_usage_error("sim", "--seed: expected an unsigned integer, found '%s'", optarg);
            break;
        case 'f': a->format = optarg; break;
        case 'C': a->compact = 1; break;
        case 'Y': a->summary_only = 1; break;
        case 'e': a->events_out = optarg; break;
        case 'p': a->plot = optarg; break;
        case 't':
            /* at least 0.1 s: a day is then under a million points */
            if (so_cli_parse_double(optarg, &a->plot_step) ||
                !(a->plot_step >= 0.1) || a->plot_step > 1e9)
                return so_cli_usage_error("sim", "--plot-step: expected seconds in [0.1, 1e9], found '%s'", optarg);
            break;
        case 'T':
            if (so_cli_parse_double(optarg, &a->time_limit) ||
                !(a->time_limit > 0) || a->time_limit > 1e9)
                return so_cli_usage_error("sim", "--time-limit: expected seconds in (0, 1e9], found '%s'", optarg);
            break;
        case 'O':
            if (so_params_set_kv(&a->prm, optarg, err))
                return so_cli_report_error("sim", SO_EINVAL, err);
            break;
        case 'o': a->out = optarg; break;
        case 'h': so_cli_help(stdout, &so_sim_spec); return -1;
        default: return so_cli_bad_option("sim", argv);
        }
    }
    if (optind != argc - 1)
        return so_cli_usage_error("sim", "expected one WORKLOAD file");
    a->workload = argv[optind];
    if (!a->scheduler)
        return so_cli_usage_error("sim", "--scheduler is required");
    int fmt, bad = so_cli_format("sim", a->format, so_sim_spec.formats, &fmt);
    if (bad)
        return bad;
    if (a->plot && strcmp(a->plot, "-") && so_gp_check_path(a->plot, err))
        return so_cli_usage_error("sim", "--plot %s: %s", a->plot, err->message);
    return SO_EXIT_OK;
}

static int report(const sim_args *a, so_cl_sim *sim, const so_cl_workload *w,
                  const so_cl_config *cfg, double seconds)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return SO_EXIT_BACKEND;
    int format = so_oformat_parse(a->format, so_sim_spec.formats);
    if (format == SO_OF_JSON || format == SO_OF_CSV || format == SO_OF_MARKDOWN) {
        json_t *j = so_cl_report_json(sim, w, cfg);
        const so_cl_stats *st = so_cl_sim_stats(sim);
        json_object_set_new(j, "seconds", json_real(seconds));
        json_object_set_new(j, "events_per_second",
                            json_real(seconds > 0 ? st->events / seconds : 0));
        if (a->summary_only)
            json_object_del(j, "jobs");
        if (format == SO_OF_JSON) {
            char *s = so_ojson_dumps(j, a->compact);
            fputs(s ? s : "{}\n", mem);
            free(s);
        } else { /* the jobs, or the summary's scalars as one row */
            json_t *rows = a->summary_only ? json_pack("[O]", j)
                                           : json_incref(json_object_get(j, "jobs"));
            so_table *t = so_table_from_json(rows);
            so_table_write(mem, t, format, 0);
            so_table_free(t);
            json_decref(rows);
        }
        json_decref(j);
    } else if (a->summary_only) {
        so_cl_report_summary_table(mem, sim, w, cfg);
    } else {
        so_cl_report_table(mem, sim, w, cfg);
    }
    fclose(mem);
    int code = write_out(a->out, buf, len);
    free(buf);
    return code;
}

int so_cmd_sim(int argc, char **argv)
{
    double started = so_now(); /* --time-limit counts from here */
    sim_args a;
    memset(&a, 0, sizeof a);
    a.speculation = "none";
    a.stealing = "none";
    a.format = "json";
    a.plot_step = 60;
    a.seed = 1;
    so_params_init(&a.prm);
    so_error err;
    so_error_clear(&err);
    int code = parse_args(argc, argv, &a, &err);
    if (code)
        return code < 0 ? SO_EXIT_OK : code;
    so_cl_config cfg = {0};
    cfg.scheduler = so_cl_scheduler_find(a.scheduler);
    if (!cfg.scheduler)
        return so_cli_unknown("sim", "scheduler", a.scheduler, so_cl_scheduler_names());
    if (strcmp(a.speculation, "none")) {
        cfg.speculation = so_cl_speculation_find(a.speculation);
        if (!cfg.speculation)
        {
            static const char *const names[] = {"none", "hadoop", "late", "base",
                                                "base-hadoop", NULL};
            return so_cli_choice_error("sim", "--speculation", a.speculation, names);
        }
    }
    int steal = so_cl_steal_find(a.stealing);
    if (steal < 0)
    {
        static const char *const names[] = {"none", "even", "fcm", "stlm", "ltlm", "stm",
                                            "ltm", NULL};
        return so_cli_choice_error("sim", "--stealing", a.stealing, names);
    }
    int rc = check_options(&a.prm, cfg.scheduler, &err);
    if (rc)
        return so_cli_report_error("sim", rc, &err);
    so_cl_workload *w = NULL;
    rc = so_cl_workload_read(a.workload, &a.prm, a.seed, &w, &err);
    if (rc)
        return so_cli_report_error("sim", rc, &err);
    cfg.params = &a.prm;
    cfg.stealing = a.stealing;
    rc = so_cl_check_config(w, &cfg, &err);
    if (rc) {
        so_cl_workload_free(w);
        return so_cli_report_error("sim", rc, &err);
    }
    for (int i = 0; i < cfg.n_warnings; i++)
        fprintf(stderr, "slotopt sim: warning: %s\n", cfg.warnings[i]);
    log_file lf = {NULL, NULL};
    if (a.events_out && (code = log_open(&lf, a.events_out))) {
        so_cl_workload_free(w);
        return code;
    }
    cfg.seed = a.seed;
    cfg.series_step = a.plot ? a.plot_step : 0;
    cfg.event_log = lf.fp;
    /* reading the workload and building the simulation count too */
    cfg.time_limit = a.time_limit;
    cfg.deadline = a.time_limit > 0 ? started + a.time_limit : 0;
    so_cl_stealing *stealing = NULL;
    if (steal != SO_CL_STEAL_NONE) {
        rc = so_cl_stealing_new(steal, &stealing);
        cfg.hooks = &so_cl_stealing_hooks;
        cfg.hooks_state = stealing;
    }
    so_sim_progress progress;
    so_sim_progress_init(&progress, stderr);
    if (isatty(STDERR_FILENO)) {
        cfg.progress = so_sim_progress_update;
        cfg.progress_ctx = &progress;
    }
    so_cl_sim *sim = NULL;
    if (!rc)
        rc = so_cl_sim_new(w, &cfg, &sim, &err);
    double t0 = so_now();
    if (!rc)
        rc = so_cl_sim_failure(sim, so_cl_sim_run(sim), &err);
    double seconds = so_now() - t0;
    so_sim_progress_end(&progress);
    if (rc) {
        code = so_cli_report_error("sim", rc, &err);
    } else {
        const so_cl_stats *st = so_cl_sim_stats(sim);
        if (st->stopped) {
            fprintf(stderr, "slotopt sim: time limit of %g s reached at simulated"
                            " time %.3f s (%d of %d jobs finished): the report is"
                            " partial\n",
                    a.time_limit, st->stopped_at, st->jobs_done, w->n_jobs);
            fflush(stderr);
        }
        code = report(&a, sim, w, &cfg, seconds);
        if (!code && a.plot) {
            rc = so_cl_plot_utilisation(sim, w, a.plot_step, a.plot, &err);
            if (rc)
                code = so_cli_report_error("sim", rc, &err);
        }
    }
    if (lf.fp) {
        int lc = log_close(&lf, code == SO_EXIT_OK);
        code = code ? code : lc;
    }
    so_cl_sim_free(sim);
    so_cl_stealing_free(stealing);
    so_cl_workload_free(w);
    return code;
}
