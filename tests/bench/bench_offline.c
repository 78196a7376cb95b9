/* bench_offline.c — time of lp-bound and of offline-opt as the workload
 * grows (docs/offline.md): lp-bound on swim-synth days of 1,000 to 100,000
 * jobs and on the FB-2009 sample, beside a fair replay of the same
 * workload; lp-bound and offline-opt on flex-cluster workloads of 5 to 40
 * jobs (FLEX's Fig. 6 cluster, all at time 0 and exponential arrivals of
 * mean 1 minute), offline-opt's schedules replayed, its gap to lp-bound.
 * `plan`: a planned replay (tasks=planned) beside a longest-first one as
 * one job's maps grow, and on 20 flex-cluster jobs. `offline-trace`:
 * offline-opt over 60 jobs (the submit order and SPT) beside lp-bound and
 * fair on swim-synth days and the FB-2009 sample at 100 and 20 nodes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/cluster.h"
#include "cluster/offline_bound.h"
#include "cluster/offline_opt.h"
#include "cluster/workload_family.h"
#include "tests/bench/bench.h"

#define TRACE "instances/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"

static so_cl_workload *family(const char *name, const char *const *sets, uint64_t seed)
{
    so_params set;
    so_params_init(&set);
    so_error err;
    for (; *sets; sets++)
        so_params_set_kv(&set, *sets, &err);
    json_t *inst = NULL;
    if (so_family_generate(so_family_find(name), &set, seed, 0, &inst, &err))
        return NULL;
    char *text = json_dumps(inst, JSON_COMPACT);
    json_decref(inst);
    so_cl_workload *w = NULL;
    if (text && so_cl_workload_parse_json(text, strlen(text), name, seed, &w, &err))
        w = NULL;
    free(text);
    return w;
}

/* A swim-synth day of `jobs` jobs at the FB-2009 rate x jobs / 1,000 on
 * 100 nodes a 1,000 jobs (seed 1); its label ("swim-synth, nodes=N"). */
static so_cl_workload *swim_day(int jobs, char *label, size_t size)
{
    char n[32], rate[48], nodes[32];
    snprintf(n, sizeof n, "jobs=%d", jobs);
    snprintf(rate, sizeof rate, "rate=%g", 0.0682 * jobs / 1000);
    snprintf(nodes, sizeof nodes, "nodes=%d", 100 * jobs / 1000);
    snprintf(label, size, "swim-synth, %s", nodes);
    const char *sets[] = {n, rate, nodes, NULL};
    return family("swim-synth", sets, 1);
}

typedef struct {
    const so_cl_workload *w;
    double mean;
} bound_run;

static void run_bound(void *arg)
{
    bound_run *b = arg;
    so_cl_offline_bound r;
    if (so_cl_offline_bound_compute(b->w, 1, &r) == SO_OK) {
        b->mean = b->w->n_jobs ? r.sum / b->w->n_jobs : 0;
        so_cl_offline_bound_free(&r);
    }
}

/* The mean response of one replay of w under `scheduler` (params may be
 * NULL), seed 1; NAN when it fails. */
static double mean_response(const so_cl_workload *w, const char *scheduler,
                            const so_params *params)
{
    so_cl_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.scheduler = so_cl_scheduler_find(scheduler);
    cfg.params = params;
    cfg.seed = 1;
    so_cl_sim *sim = NULL;
    so_error err;
    double mean = NAN;
    if (!so_cl_sim_new(w, &cfg, &sim, &err) && !so_cl_sim_run(sim)) {
        double sum = 0;
        for (int j = 0; j < w->n_jobs; j++)
            sum += so_cl_sim_job(sim, j)->finish - so_cl_sim_job(sim, j)->submit;
        mean = sum / w->n_jobs;
    }
    so_cl_sim_free(sim);
    return mean;
}

static void run_fair(void *arg)
{
    bound_run *b = arg;
    b->mean = mean_response(b->w, "fair", NULL);
}

static void bound_row(FILE *out, const char *label, const so_cl_workload *w, int fair)
{
    long long tasks = 0;
    for (int j = 0; j < w->n_jobs; j++)
        tasks += w->jobs[j].n_maps + w->jobs[j].n_reduces;
    bound_run b = {w, 0}, f = {w, NAN};
    double tb = so_bench_time(run_bound, &b, 3);
    double tf = fair ? so_bench_time(run_fair, &f, 1) : NAN;
    fprintf(out, "| %s | %d | %lld | %.3f | %.1f |", label, w->n_jobs, tasks, tb, b.mean);
    if (fair)
        fprintf(out, " %.2f | %.1f | %.3f |\n", tf, f.mean, b.mean / f.mean);
    else
        fprintf(out, " - | - | - |\n");
}

static void bench_offline(FILE *out)
{
    fprintf(out, "### Offline bound and offline-opt (docs/offline.md)\n\n"
                 "    make bench BENCHES=offline\n\n"
                 "lp-bound as the workload grows (swim-synth at the FB-2009 rate x jobs / "
                 "1,000, 100 nodes; the shipped sample), beside one fair replay:\n\n"
                 "| workload | jobs | tasks | lp-bound s | bound mean (s) | fair s | fair mean (s) |"
                 " bound / fair |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    static const int sizes[] = {1000, 10000, 50000};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        char label[64];
        so_cl_workload *w = swim_day(sizes[i], label, sizeof label);
        if (w)
            bound_row(out, label, w, sizes[i] <= 10000);
        else
            fprintf(out, "| %s | failed |\n", label);
        so_cl_workload_free(w);
    }
    so_cl_workload *w = NULL;
    so_error err;
    if (so_cl_workload_read(TRACE, NULL, 1, &w, &err) == SO_OK) {
        bound_row(out, "FB-2009 sample, 100 nodes", w, 1);
        so_cl_workload_free(w);
    }
    fprintf(out, "\nlp-bound and offline-opt on flex-cluster (FLEX's Sec. 4.2 cluster; all jobs "
                 "at time 0 and, second rows, exponential inter-arrivals of mean 1 minute; "
                 "instance 0 of seed 1), offline-opt with a 60 s limit: every order under "
                 "its six rules up to 6 jobs, local search above (list rules until half the "
                 "limit, then planned maps) until no insertion move improves or the limit; "
                 "the incumbent's task rule and mean response against lp-bound's:\n\n"
                 "| jobs | lambda (min) | lp-bound s | offline-opt s | replays | exhaustive |"
                 " at the limit | proved | tasks | offline-opt mean (s) | lp-bound mean (s) |"
                 " offline-opt / bound |\n"
                 "| ---: | ---: | ---: | ---: | ---: | :---: | :---: | :---: | :---: | ---: | ---: |"
                 " ---: |\n");
    static const int njobs[] = {5, 10, 20, 40};
    for (size_t i = 0; i < 2 * sizeof njobs / sizeof *njobs; i++) {
        char jobs[32];
        snprintf(jobs, sizeof jobs, "jobs=%d", njobs[i / 2]);
        const char *lambda = i % 2 ? "lambda=1" : "lambda=0";
        const char *sets[] = {jobs, lambda, NULL};
        w = family("flex-cluster", sets, 1);
        if (!w)
            continue;
        bound_run b = {w, 0};
        double tb = so_bench_time(run_bound, &b, 3);
        so_cl_offline_opt o;
        double t0 = so_now();
        if (so_cl_offline_opt_solve(w, 1, 60, &o, &err) == SO_OK) {
            int n = w->n_jobs;
            fprintf(out, "| %d | %d | %.4f | %.2f | %ld | %s | %s | %s | %s | %.1f | %.1f |"
                         " %.4f |\n",
                    n, (int)(i % 2), tb, so_now() - t0, o.evaluations,
                    o.exhaustive ? "yes" : "no", o.timed_out ? "yes" : "no",
                    o.proved ? "yes" : "no", o.tasks, o.sum / n, o.bound / n, o.sum / o.bound);
            so_cl_offline_opt_free(&o);
        }
        so_cl_workload_free(w);
    }
    fprintf(out, "\n");
}

SO_BENCH("offline", bench_offline)

typedef struct {
    const so_cl_workload *w;
    const char *tasks;
    double mean;
} priority_run;

static void run_priority(void *arg)
{
    priority_run *b = arg;
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "tasks", b->tasks);
    so_params_set(&prm, "padding", "0");
    b->mean = mean_response(b->w, "priority", &prm);
}

static void plan_row(FILE *out, const char *label, const so_cl_workload *w)
{
    long long maps = 0;
    for (int j = 0; j < w->n_jobs; j++)
        maps += w->jobs[j].n_maps;
    priority_run lo = {w, "longest", 0}, pl = {w, "planned", 0};
    double tl = so_bench_time(run_priority, &lo, 3), tp = so_bench_time(run_priority, &pl, 3);
    fprintf(out, "| %s | %lld | %.3f | %.3f | %.1f | %.1f | %.1f |\n", label, maps, tl, tp,
            tp / tl, lo.mean, pl.mean);
}

static void bench_plan(FILE *out)
{
    fprintf(out, "### Planned maps' cost (docs/offline.md, \"Planned maps\")\n\n"
                 "    make bench BENCHES=plan\n\n"
                 "One replay under scheduler priority with tasks=longest and with "
                 "tasks=planned (the plan built at the first heartbeat, then followed), "
                 "best of 3, on FLEX's Fig. 6 cluster (26 nodes, 156 map slots, 3 s "
                 "beats): one job of n maps of normal(60, 6) s, and 20 flex-cluster "
                 "jobs (instance 0 of seed 1); last row: 3,000 nodes of 6 map slots at "
                 "speeds 1 + k 1e-4; mean response of each:\n\n"
                 "| workload | maps | longest s | planned s | planned / longest |"
                 " longest mean (s) | planned mean (s) |\n"
                 "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    static const int sizes[] = {5000, 10000, 20000, 40000};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        char json[600], label[64];
        snprintf(json, sizeof json,
                 "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":["
                 "{\"count\":13,\"map_slots\":4,\"reduce_slots\":2},"
                 "{\"count\":13,\"map_slots\":8,\"reduce_slots\":4}]},"
                 "\"jobs\":[{\"name\":\"one\",\"submit\":0,\"maps\":{\"count\":%d,"
                 "\"duration\":{\"dist\":\"normal\",\"mean\":60,\"sd\":6}}}]}",
                 sizes[i]);
        so_cl_workload *w = NULL;
        so_error err;
        if (so_cl_workload_parse_json(json, strlen(json), "one-job", 1, &w, &err)) {
            fprintf(out, "| one job of %d maps | failed |\n", sizes[i]);
            continue;
        }
        snprintf(label, sizeof label, "one job of %d maps", sizes[i]);
        plan_row(out, label, w);
        so_cl_workload_free(w);
    }
    const char *sets[] = {"jobs=20", NULL};
    so_cl_workload *w = family("flex-cluster", sets, 1);
    if (w) {
        plan_row(out, "flex-cluster, 20 jobs", w);
        so_cl_workload_free(w);
    }
    /* 3,000 nodes of 6 map slots, each of its own speed (1 + k 1e-4): the
     * beats are computed where used, not tabled per map and speed */
    char *json = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&json, &size);
    if (f) {
        fprintf(f, "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[");
        for (int k = 0; k < 3000; k++)
            fprintf(f, "%s{\"count\":1,\"map_slots\":6,\"reduce_slots\":2,\"speed\":%.6f}",
                    k ? "," : "", 1 + k * 1e-4);
        fprintf(f, "]},\"jobs\":[{\"name\":\"one\",\"submit\":0,\"maps\":{\"count\":100000,"
                   "\"duration\":{\"dist\":\"normal\",\"mean\":60,\"sd\":6}}}]}");
        fclose(f);
        so_error err;
        w = NULL;
        if (!so_cl_workload_parse_json(json, size, "speeds", 1, &w, &err)) {
            plan_row(out, "3,000 nodes of 3,000 speeds, one job of 100000 maps", w);
            so_cl_workload_free(w);
        }
        free(json);
    }
    fprintf(out, "\n");
}

SO_BENCH("plan", bench_plan)

typedef struct {
    const so_cl_workload *w;
    so_cl_offline_opt o;
    int rc;
} opt_run;

static void run_opt(void *arg)
{
    opt_run *b = arg;
    so_error err;
    so_cl_offline_opt_free(&b->o);
    b->rc = so_cl_offline_opt_solve(b->w, 1, 0, &b->o, &err);
}

static void trace_row(FILE *out, const char *label, const so_cl_workload *w)
{
    long long tasks = 0;
    for (int j = 0; j < w->n_jobs; j++)
        tasks += w->jobs[j].n_maps + w->jobs[j].n_reduces;
    bound_run b = {w, 0}, f = {w, NAN};
    opt_run o;
    memset(&o, 0, sizeof o);
    o.w = w;
    double tb = so_bench_time(run_bound, &b, 3), to = so_bench_time(run_opt, &o, 1);
    so_bench_time(run_fair, &f, 1);
    if (o.rc) {
        fprintf(out, "| %s | failed |\n", label);
        return;
    }
    double mean = o.o.sum / w->n_jobs;
    fprintf(out, "| %s | %d | %lld | %.3f | %.2f | %ld | %s, delay %d, %s | %.1f | %.1f | %.1f |"
                 " %.3f |\n", label, w->n_jobs, tasks, tb, to, o.o.evaluations,
            o.o.order_name ? o.o.order_name : "listed", o.o.delay_reduces, o.o.tasks, b.mean,
            mean, f.mean, b.mean / mean);
    so_cl_offline_opt_free(&o.o);
}

/* offline-opt on traces (over 60 jobs: the submit order and SPT under the
 * four list rules) beside lp-bound and a fair replay. */
static void bench_offline_trace(FILE *out)
{
    fprintf(out, "### offline-opt on traces (docs/offline.md)\n\n"
                 "    make bench BENCHES=offline-trace\n\n"
                 "lp-bound (best of 3) and offline-opt (one run, no time limit: 8 "
                 "replays) on swim-synth days (the FB-2009 rate x jobs / 1,000, 100 nodes "
                 "a 1,000 jobs) and the shipped FB-2009 sample at 100 and 20 nodes; the "
                 "incumbent's order and rule; mean responses and the interval's ratio:"
                 "\n\n| workload | jobs | tasks | lp-bound s | offline-opt s | replays |"
                 " incumbent | lp-bound mean (s) | offline-opt mean (s) | fair mean (s) |"
                 " lp-bound / offline-opt |\n"
                 "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |\n");
    static const int sizes[] = {1000, 10000};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        char label[64];
        so_cl_workload *w = swim_day(sizes[i], label, sizeof label);
        if (w)
            trace_row(out, label, w);
        else
            fprintf(out, "| %s | failed |\n", label);
        so_cl_workload_free(w);
    }
    static const char *const trace_nodes[] = {"100", "20"};
    for (size_t i = 0; i < 2; i++) {
        so_params prm;
        so_params_init(&prm);
        so_params_set(&prm, "nodes", trace_nodes[i]);
        so_cl_workload *w = NULL;
        so_error err;
        char label[64];
        snprintf(label, sizeof label, "FB-2009 sample, %s nodes", trace_nodes[i]);
        if (so_cl_workload_read(TRACE, &prm, 1, &w, &err) == SO_OK)
            trace_row(out, label, w);
        else
            fprintf(out, "| %s | failed |\n", label);
        so_cl_workload_free(w);
    }
    fprintf(out, "\n");
}

SO_BENCH("offline-trace", bench_offline_trace)
