/* bench_cluster_scale.c — the cluster model at scale (issue 16), side by
 * side in one run: every scheduler on the FB-2009 sample on 20 nodes
 * (overloaded), 100 and 3,000 nodes; an overloaded swim-synth workload on
 * 100 nodes; a scaling series of swim-synth at constant load (same arrival
 * rate, job sizes and cluster; 10 k, 100 k, 1 M jobs) under fifo and fair,
 * with the time per event and the peak memory per job.
 *
 *     make bench BENCHES=cluster-scale
 *
 * Long (tens of minutes on the shared machine): never part of `make test`.
 * Set SO_BENCH_SCALE_QUICK=1 to stop the series at 100 k jobs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "tests/bench/bench.h"
#include "cluster/cluster.h"

#define TRACE "instances/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"

typedef struct variant {
    const char *label, *sched;
    const char *opts[4]; /* "key=value" */
} variant;

static const variant variants[] = {
    {"fifo", "fifo", {NULL}},
    {"fair", "fair", {NULL}},
    {"fair + delay (4.5 s)", "fair", {"locality_delay=4.5", NULL}},
    {"fair + preemption", "fair",
     {"min_share_timeout=30", "fair_share_timeout=60", NULL}},
    {"flex", "flex", {NULL}},
};
#define N_VARIANTS (int)(sizeof variants / sizeof variants[0])

/* CPU seconds of this process (user + system): on the shared machine wall
 * time measures the neighbours as much as the simulator. */
static double cpu_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static long peak_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

typedef struct run {
    double seconds;
    uint64_t events;
    double mean_response;
    int failed;
} run;

static run replay(const so_cl_workload *w, const variant *v)
{
    run r = {0};
    so_params prm;
    so_params_init(&prm);
    for (int k = 0; v->opts[k]; k++) {
        so_error e;
        so_params_set_kv(&prm, v->opts[k], &e);
    }
    so_cl_config cfg = {0};
    cfg.scheduler = so_cl_scheduler_find(v->sched);
    cfg.params = &prm;
    cfg.seed = 1;
    so_cl_sim *sim = NULL;
    so_error err;
    double t0 = cpu_now();
    if (so_cl_sim_new(w, &cfg, &sim, &err) || so_cl_sim_run(sim)) {
        r.failed = 1;
        so_cl_sim_free(sim);
        return r;
    }
    r.seconds = cpu_now() - t0;
    r.events = so_cl_sim_stats(sim)->events;
    double sum = 0;
    for (int j = 0; j < w->n_jobs; j++)
        sum += so_cl_sim_job(sim, j)->finish - so_cl_sim_job(sim, j)->submit;
    r.mean_response = sum / w->n_jobs;
    so_cl_sim_free(sim);
    return r;
}

static void table(FILE *out, const char *title, const so_cl_workload *w,
                  int n_variants)
{
    fprintf(out, "\n%s\n\n| scheduler | events | seconds | events/s |"
                 " time vs fifo | mean response (s) |\n"
                 "|---|---:|---:|---:|---:|---:|\n", title);
    double base = 0;
    for (int k = 0; k < n_variants; k++) {
        run r = replay(w, &variants[k]);
        if (r.failed) {
            fprintf(out, "| %s | failed |||||\n", variants[k].label);
            continue;
        }
        if (k == 0)
            base = r.seconds;
        fprintf(out, "| %s | %llu | %.2f | %.2f M | %.2f | %.0f |\n",
                variants[k].label, (unsigned long long)r.events, r.seconds,
                r.events / r.seconds / 1e6, r.seconds / base, r.mean_response);
        fflush(out);
    }
}

static so_cl_workload *swim(int nodes, int replicas)
{
    so_params prm;
    so_params_init(&prm);
    char buf[32];
    snprintf(buf, sizeof buf, "%d", nodes);
    so_params_set(&prm, "nodes", buf);
    if (replicas) {
        so_params_set(&prm, "replicas", "3");
        so_params_set(&prm, "remote_slowdown", "1.5");
    }
    so_cl_workload *w = NULL;
    so_error err;
    return so_cl_workload_read(TRACE, &prm, 1, &w, &err) ? NULL : w;
}

static so_cl_workload *synth(int jobs, double rate, double scale, int nodes)
{
    so_params set;
    so_params_init(&set);
    char buf[64];
    snprintf(buf, sizeof buf, "%d", jobs);
    so_params_set(&set, "jobs", buf);
    snprintf(buf, sizeof buf, "%g", rate);
    so_params_set(&set, "rate", buf);
    snprintf(buf, sizeof buf, "%g", scale);
    so_params_set(&set, "size_scale", buf);
    snprintf(buf, sizeof buf, "%d", nodes);
    so_params_set(&set, "nodes", buf);
    json_t *inst = NULL;
    so_error err;
    if (so_family_generate(so_family_find("swim-synth"), &set, 1, 0, &inst, &err))
        return NULL;
    char *text = json_dumps(inst, JSON_COMPACT);
    json_decref(inst);
    so_cl_workload *w = NULL;
    int rc = text ? so_cl_workload_parse_json(text, strlen(text), "synth.json",
                                              1, &w, &err)
                  : SO_ENOMEM;
    free(text);
    return rc ? NULL : w;
}

static long long tasks_of(const so_cl_workload *w)
{
    long long n = 0;
    for (int j = 0; j < w->n_jobs; j++)
        n += w->jobs[j].n_maps + w->jobs[j].n_reduces;
    return n;
}

static void bench_cluster_scale(FILE *out)
{
    fprintf(out, "## Cluster model at scale\n\n"
                 "CPU time (user + system) of the simulation alone (the"
                 " workload is read beforehand), one run per row, all rows in"
                 " the same run on the shared 2-core machine: compare the"
                 " ratios. Delay"
                 " scheduling runs with 3 replicas per block and remote maps"
                 " 1.5x slower (`--opt replicas=3 --opt remote_slowdown=1.5"
                 " --opt locality_delay=4.5`), the other rows without a"
                 " locality model.\n\n"
                 "    make bench BENCHES=cluster-scale\n");
    static const int nodes[] = {20, 100, 3000};
    for (int k = 0; k < 3; k++) {
        so_cl_workload *w = swim(nodes[k], 0), *wl = swim(nodes[k], 1);
        if (!w || !wl) {
            fprintf(out, "\ncannot read %s\n", TRACE);
            so_cl_workload_free(w);
            so_cl_workload_free(wl);
            return;
        }
        char title[160];
        snprintf(title, sizeof title,
                 "FB-2009 sample (5,894 jobs, 421,589 tasks) on %d nodes:",
                 nodes[k]);
        fprintf(out, "\n%s\n\n| scheduler | events | seconds | events/s |"
                     " time vs fifo | mean response (s) |\n"
                     "|---|---:|---:|---:|---:|---:|\n", title);
        double base = 0;
        for (int v = 0; v < N_VARIANTS; v++) {
            run r = replay(v == 2 ? wl : w, &variants[v]);
            if (v == 0)
                base = r.seconds;
            fprintf(out, "| %s | %llu | %.2f | %.2f M | %.2f | %.0f |\n",
                    variants[v].label, (unsigned long long)r.events, r.seconds,
                    r.events / r.seconds / 1e6, r.seconds / base,
                    r.mean_response);
            fflush(out);
        }
        so_cl_workload_free(w);
        so_cl_workload_free(wl);
    }
    /* overloaded: 2,500 jobs of FB-2010-like size (size_scale 13) at the
     * FB-2010 day's rate (0.289 jobs/s) on 100 nodes */
    so_cl_workload *o = synth(2500, 0.289, 13, 100);
    if (o) {
        char title[200];
        snprintf(title, sizeof title,
                 "Overloaded swim-synth (`--set jobs=2500 --set rate=0.289"
                 " --set size_scale=13`, seed 1: %lld tasks) on 100 nodes"
                 " (flex left out: its epoch solves an instance over every"
                 " queued job):", tasks_of(o));
        table(out, title, o, N_VARIANTS - 1);
        so_cl_workload_free(o);
    }
    /* scaling series at constant load: same rate, sizes and cluster */
    const char *quick = getenv("SO_BENCH_SCALE_QUICK");
    int max_jobs = quick && *quick == '1' ? 100000 : 1000000;
    fprintf(out, "\nScaling series: swim-synth `--set rate=1 --set size_scale=0.1"
                 " --set nodes=100`, seed 1 (constant load: the same arrival"
                 " rate, job sizes and cluster; more jobs make a longer"
                 " replay). Peak memory: the process's maximum resident size"
                 " after the replay (workload, simulator and the generator's"
                 " text; rows in increasing size) per job.\n\n"
                 "| jobs | tasks | scheduler | events | seconds |"
                 " ns per event | peak MiB | KiB per job |\n"
                 "|---:|---:|---|---:|---:|---:|---:|---:|\n");
    for (int jobs = 10000; jobs <= max_jobs; jobs *= 10) {
        so_cl_workload *w = synth(jobs, 1, 0.1, 100);
        if (!w) {
            fprintf(out, "| %d | cannot generate |||||||\n", jobs);
            continue;
        }
        for (int v = 0; v < 2; v++) {
            run r = replay(w, &variants[v]);
            long kib = peak_kib();
            fprintf(out, "| %d | %lld | %s | %llu | %.2f | %.0f | %.0f | %.2f |\n",
                    jobs, tasks_of(w), variants[v].label,
                    (unsigned long long)r.events, r.seconds,
                    r.seconds / (double)r.events * 1e9, kib / 1024.0,
                    (double)kib / jobs);
            fflush(out);
        }
        so_cl_workload_free(w);
    }
}

SO_BENCH("cluster-scale", bench_cluster_scale)
