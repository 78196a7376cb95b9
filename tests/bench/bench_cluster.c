/* bench_cluster.c — replay speed of the cluster model on the SWIM FB-2009
 * sample (5,894 jobs) on 100 nodes, every scheduler (fifo, fair, flex) x
 * speculation policy, side by side in one run; and the response-time table of docs/cluster.md
 * (homogeneous nodes, and 10 straggler nodes at speed 0.25). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/bench/bench.h"
#include "cluster/cluster.h"
#include "cluster/stealing.h"

#define TRACE "instances/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"

typedef struct replay {
    const so_cl_workload *w;
    so_cl_config cfg;
    so_cl_stats stats;
    double mean, p95;
    int failed;
} replay;

static void run_once(void *arg)
{
    replay *r = arg;
    so_cl_sim *sim = NULL;
    so_error err;
    if (so_cl_sim_new(r->w, &r->cfg, &sim, &err) || so_cl_sim_run(sim)) {
        r->failed = 1;
        so_cl_sim_free(sim);
        return;
    }
    r->stats = *so_cl_sim_stats(sim);
    int n = r->w->n_jobs;
    double *resp = malloc((size_t)n * sizeof *resp), sum = 0;
    for (int j = 0; j < n && resp; j++) {
        const so_cl_job_result *x = so_cl_sim_job(sim, j);
        resp[j] = x->finish - x->submit;
        sum += resp[j];
    }
    r->mean = sum / n;
    r->p95 = resp ? so_cl_percentile(resp, (size_t)n, 95) : NAN;
    free(resp);
    so_cl_sim_free(sim);
}

static const char *scheds[] = {"fifo", "fair", "flex"};
#define N_SCHEDS (int)(sizeof scheds / sizeof scheds[0])
static const char *specs[] = {"none", "hadoop", "late"};

static void setup(replay *r, const so_cl_workload *w, int s, int p)
{
    memset(r, 0, sizeof *r);
    r->w = w;
    r->cfg.scheduler = so_cl_scheduler_find(scheds[s]);
    r->cfg.speculation = p ? so_cl_speculation_find(specs[p]) : NULL;
    r->cfg.seed = 1;
}

/* Data locality: 3 replicas per block, remote maps 1.5x slower; fair with
 * and without delay scheduling (Hadoop's default delay, 1.5 heartbeats). */
static void locality_table(FILE *out)
{
    so_params prm, opts;
    so_params_init(&prm);
    so_params_set(&prm, "replicas", "3");
    so_params_set(&prm, "remote_slowdown", "1.5");
    so_params_init(&opts);
    so_params_set(&opts, "locality_delay", "4.5");
    so_cl_workload *w = NULL;
    so_error err;
    if (so_cl_workload_read(TRACE, &prm, 1, &w, &err))
        return;
    fprintf(out,
            "\nData locality: each block on 3 of the 100 nodes, a remote map"
            " takes 1.5x as long (`--opt replicas=3 --opt remote_slowdown=1.5`);"
            " delay scheduling with Hadoop's default wait, 1.5 heartbeats"
            " (`--opt locality_delay=4.5`).\n\n"
            "| scheduler | mean | p95 | node-local maps |\n|---|---:|---:|---:|\n");
    const char *names[] = {"fifo", "fair", "fair + delay 4.5 s"};
    for (int k = 0; k < 3; k++) {
        replay r;
        setup(&r, w, k > 0, 0);
        r.cfg.params = k == 2 ? &opts : NULL;
        run_once(&r);
        uint64_t maps = r.stats.local_maps + r.stats.remote_maps;
        fprintf(out, "| %s | %.1f | %.1f | %.1f%% |\n", names[k], r.mean, r.p95,
                maps ? 100.0 * r.stats.local_maps / maps : 0);
    }
    so_cl_workload_free(w);
}

/* Resource stealing (Even) and BASE on the same replay, beside the plain
 * replay of each scheduler: time ratio and response times (docs/stealing.md). */
static void bench_stealing(FILE *out)
{
    so_cl_workload *w = NULL;
    so_error err;
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "map_parallel", "0.8");
    so_params_set(&prm, "reduce_parallel", "0.8");
    if (so_cl_workload_read(TRACE, &prm, 1, &w, &err)) {
        fprintf(out, "## Cluster model: resource stealing\n\ncannot read %s: %s\n",
                TRACE, err.message);
        return;
    }
    fprintf(out,
            "## Cluster model: resource stealing\n\n"
            "Resource stealing and BASE (docs/stealing.md) on the SWIM FB-2009"
            " replay (100 nodes x 2 + 2 slots; every task's parallel fraction"
            " 0.8: `--opt map_parallel=0.8 --opt reduce_parallel=0.8`):"
            " `--stealing even --speculation base` against `--stealing"
            " none --speculation hadoop`, wall time best of 3 in the same run,"
            " response times (seconds; seed 1), copies useful / non-beneficial"
            " / launched.\n\n"
            "    make bench BENCHES=cluster-stealing\n\n"
            "| scheduler | stealing | speculation | seconds | time vs none |"
            " mean | p95 | copies |\n|---|---|---|---:|---:|---:|---:|---:|\n");
    for (int s = 0; s < N_SCHEDS; s++) {
        double plain = 0;
        for (int k = 0; k < 2; k++) {
            replay r;
            setup(&r, w, s, 1);
            so_cl_stealing *st = NULL;
            if (k == 1) {
                r.cfg.speculation = so_cl_speculation_find("base");
                if (so_cl_stealing_new(SO_CL_STEAL_EVEN, &st))
                    return;
                r.cfg.hooks = &so_cl_stealing_hooks;
                r.cfg.hooks_state = st;
            }
            double t = so_bench_time(run_once, &r, 3);
            so_cl_stealing_free(st);
            if (r.failed) {
                fprintf(out, "| %s | failed |||||||\n", scheds[s]);
                continue;
            }
            if (k == 0)
                plain = t;
            fprintf(out, "| %s | %s | %s | %.3f | %.2f | %.1f | %.1f |"
                    " %llu / %llu / %llu |\n", scheds[s], k ? "even" : "none",
                    k ? "base" : "hadoop", t, plain > 0 ? t / plain : 0,
                    r.mean, r.p95, (unsigned long long)r.stats.spec_useful,
                    (unsigned long long)r.stats.spec_nonbeneficial,
                    (unsigned long long)r.stats.spec_launched);
        }
    }
    so_cl_workload_free(w);
}

static void bench_cluster(FILE *out)
{
    so_cl_workload *w = NULL, *slow = NULL;
    so_error err;
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "slow_nodes", "10");
    if (so_cl_workload_read(TRACE, NULL, 1, &w, &err) ||
        so_cl_workload_read(TRACE, &prm, 1, &slow, &err)) {
        fprintf(out, "## Cluster model\n\ncannot read %s: %s\n", TRACE, err.message);
        so_cl_workload_free(w);
        return;
    }
    fprintf(out,
            "## Cluster model\n\n"
            "Replay of the SWIM FB-2009 sample (5,894 jobs, 406,005 maps, 15,584"
            " reduces) on 100 nodes x (2 map + 2 reduce slots), heartbeat every"
            " 3 s (Hadoop's rule). Wall time of the simulation (engine and"
            " policies; the trace is parsed once beforehand), best of 3, all"
            " rows in the same run on the shared 2-core machine: compare the"
            " ratios. \"task events\" excludes the periodic heartbeats.\n\n"
            "    make bench BENCHES=cluster\n\n"
            "| scheduler | speculation | events | task events | seconds |"
            " events/s | task events/s | time vs fifo/none |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|\n");
    double base = 0;
    for (int s = 0; s < N_SCHEDS; s++)
        for (int p = 0; p < 3; p++) {
            replay r;
            setup(&r, w, s, p);
            double t = so_bench_time(run_once, &r, 3);
            if (r.failed) {
                fprintf(out, "| %s | %s | failed |||||\n", scheds[s], specs[p]);
                continue;
            }
            if (s == 0 && p == 0)
                base = t;
            uint64_t ev = r.stats.events;
            uint64_t task_ev = ev - r.stats.events_by_kind[1];
            fprintf(out, "| %s | %s | %llu | %llu | %.3f | %.2f M | %.2f M | %.2f |\n",
                    scheds[s], specs[p], (unsigned long long)ev,
                    (unsigned long long)task_ev, t, ev / t / 1e6,
                    task_ev / t / 1e6, t / base);
        }
    fprintf(out,
            "\nResponse times of the same replays (seconds; seed 1), and with"
            " the first 10 nodes as stragglers at speed 0.25 (`--opt"
            " slow_nodes=10`); speculative copies: useful / non-beneficial /"
            " launched.\n\n"
            "| scheduler | speculation | mean | p95 | copies | mean, 10 slow |"
            " p95, 10 slow | copies, 10 slow |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (int s = 0; s < N_SCHEDS; s++)
        for (int p = 0; p < 3; p++) {
            replay a, b;
            setup(&a, w, s, p);
            setup(&b, slow, s, p);
            run_once(&a);
            run_once(&b);
            fprintf(out,
                    "| %s | %s | %.1f | %.1f | %llu / %llu / %llu | %.1f | %.1f |"
                    " %llu / %llu / %llu |\n",
                    scheds[s], specs[p], a.mean, a.p95,
                    (unsigned long long)a.stats.spec_useful,
                    (unsigned long long)a.stats.spec_nonbeneficial,
                    (unsigned long long)a.stats.spec_launched, b.mean, b.p95,
                    (unsigned long long)b.stats.spec_useful,
                    (unsigned long long)b.stats.spec_nonbeneficial,
                    (unsigned long long)b.stats.spec_launched);
        }
    locality_table(out);
    so_cl_workload_free(w);
    so_cl_workload_free(slow);
}

SO_BENCH("cluster", bench_cluster)

/* ---- cluster-wpbs: WPBS against fair on the FB-2009 sample ---------------- */
#include "cluster/workload_build.h"

/* The SWIM trace names no users. Documented rule (docs/wpbs.md): job i (in
 * submit order) belongs to user "u<i mod 10>", and, as Hadoop's fair
 * scheduler does by default, to the pool of that user; both schedulers
 * replay this same workload. */
static int users_round_robin(so_cl_workload *w)
{
    for (int j = 0; j < w->n_jobs; j++) {
        snprintf(w->jobs[j].user, sizeof w->jobs[j].user, "u%d", j % 10);
        int p = so_cl_workload_pool(w, w->jobs[j].user);
        if (p < 0)
            return -1;
        w->jobs[j].pool = p;
    }
    return 0;
}

static void bench_cluster_wpbs(FILE *out)
{
    so_cl_workload *w = NULL;
    so_error err;
    if (so_cl_workload_read(TRACE, NULL, 1, &w, &err) || users_round_robin(w)) {
        fprintf(out, "## Cluster model: WPBS\n\ncannot read %s\n", TRACE);
        so_cl_workload_free(w);
        return;
    }
    fprintf(out,
            "## Cluster model: WPBS\n\n"
            "Replay of the SWIM FB-2009 sample (5,894 jobs) on 100 nodes x (2"
            " map + 2 reduce slots), jobs dealt round-robin to 10 users (job i"
            " to user and pool u<i mod 10>), under fair (one pool per user)"
            " and wpbs (defaults: alpha 1, window 20, update every epoch). Wall"
            " time of the simulation, best of 3, both rows in the same run:"
            " compare the ratio.\n\n"
            "    make bench BENCHES=cluster-wpbs\n\n"
            "| scheduler | events | seconds | time vs fair | mean response |"
            " p95 response |\n|---|---:|---:|---:|---:|---:|\n");
    static const char *names[] = {"fair", "wpbs"};
    double base = 0;
    for (int k = 0; k < 2; k++) {
        replay r;
        memset(&r, 0, sizeof r);
        r.w = w;
        r.cfg.scheduler = so_cl_scheduler_find(names[k]);
        r.cfg.seed = 1;
        double t = so_bench_time(run_once, &r, 3);
        if (r.failed || !r.cfg.scheduler) {
            fprintf(out, "| %s | failed |||||\n", names[k]);
            continue;
        }
        if (k == 0)
            base = t;
        fprintf(out, "| %s | %llu | %.3f | %.2f | %.1f | %.1f |\n", names[k],
                (unsigned long long)r.stats.events, t, t / base, r.mean, r.p95);
    }
    so_cl_workload_free(w);
}

SO_BENCH("cluster-wpbs", bench_cluster_wpbs)
SO_BENCH("cluster-stealing", bench_stealing)
