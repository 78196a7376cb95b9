/* test_cluster_fair_old.c — the incremental fair scheduler (issue 16) gives
 * the same event log, byte for byte, as the fair scheduler of commit
 * 6f6c0ef (tests/cluster/fair_old.c: every epoch from scratch) on small
 * random workloads of several shapes: fifo and fair pools with minimum
 * shares and maxima, preemption by both timeouts, delay scheduling with a
 * locality model, speculation, jobs without maps or reduces, slowstart 0
 * and 1, out-of-band heartbeats, simultaneous events, a short epoch; and
 * with non-dyadic job weights, targets within ulps of the from-scratch
 * ones (the documented limit of the level tree). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "cluster/level_tree.h"
#include "tests/cluster/fair_old.h"

typedef struct shape {
    const char *name;
    const double *weights; /* job weights drawn from these */
    int n_weights;
    double pool_b_weight;
    int zero_tasks;  /* some jobs without maps or reduces */
    int locality;    /* replicas and a remote slowdown */
    int outofband;
    int jobs, nodes;
    const char *map_time; /* NULL: uniform 4-40 s */
} shape;

static char *workload(so_rng *rng, const shape *s)
{
    size_t cap = 400000, n = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    n += (size_t)snprintf(out + n, cap - n,
        "{\"cluster\": {\"nodes\": [{\"count\": %d, \"map_slots\": 2,"
        " \"reduce_slots\": 1}], \"heartbeat\": 3, \"outofband\": %s%s},"
        " \"pools\": [{\"name\": \"a\", \"mode\": \"fifo\", \"min_maps\": 3,"
        " \"min_reduces\": 1}, {\"name\": \"b\", \"weight\": %g, \"min_maps\": 2},"
        " {\"name\": \"c\", \"max_maps\": 4, \"max_reduces\": 2},"
        " {\"name\": \"d\", \"mode\": \"fifo\", \"weight\": 0.5, \"max_maps\": 3}],"
        " \"jobs\": [",
        s->nodes, s->outofband ? "true" : "false",
        s->locality ? ", \"replicas\": 2, \"remote_slowdown\": 2" : "",
        s->pool_b_weight);
    static const char *const pools[] = {"a", "b", "c", "d", "default"};
    static const char *const slowstart[] = {"", ", \"slowstart\": 0",
                                            ", \"slowstart\": 1"};
    for (int j = 0; j < s->jobs && n + 1000 < cap; j++) {
        int maps = (int)so_rng_int(rng, s->zero_tasks ? 0 : 1, 20);
        int reduces = (int)so_rng_int(rng, 0, 4);
        if (maps == 0 && reduces == 0 && !s->zero_tasks)
            reduces = 1;
        n += (size_t)snprintf(out + n, cap - n,
            "%s{\"pool\": \"%s\", \"weight\": %.17g, \"submit\": %d%s,"
            " \"maps\": {\"count\": %d, \"duration\": %s}, \"reduces\": {\"count\": %d,"
            " \"copy\": 3, \"sort\": 1, \"reduce\": {\"dist\": \"uniform\","
            " \"lo\": 5, \"hi\": 30}}}",
            j ? ", " : "", pools[so_rng_int(rng, 0, 4)],
            s->weights[so_rng_int(rng, 0, s->n_weights - 1)],
            (int)so_rng_int(rng, 0, 300), slowstart[so_rng_int(rng, 0, 2)],
            maps, s->map_time ? s->map_time
                              : "{\"dist\": \"uniform\", \"lo\": 4, \"hi\": 40}",
            reduces);
    }
    snprintf(out + n, cap - n, "]}");
    return out;
}

/* The event log of one run, or NULL. */
static char *event_log(const so_cl_workload *w, const so_cl_scheduler *sc,
                       const char *spec, const so_params *prm, uint64_t seed)
{
    FILE *log = tmpfile();
    if (!log)
        return NULL;
    so_cl_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.scheduler = sc;
    cfg.speculation = spec ? so_cl_speculation_find(spec) : NULL;
    cfg.params = prm;
    cfg.seed = seed;
    cfg.event_log = log;
    so_cl_sim *sim = NULL;
    so_error err;
    int ok = so_cl_sim_new(w, &cfg, &sim, &err) == SO_OK &&
             so_cl_sim_run(sim) == SO_OK;
    so_cl_sim_free(sim);
    long len = ok ? ftell(log) : -1;
    char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (text) {
        rewind(log);
        text[fread(text, 1, (size_t)len, log)] = '\0';
    }
    fclose(log);
    return text;
}

/* Runs `runs` random workloads of the shape under both schedulers with the
 * given options; returns how many event logs differ (-1: a run failed). */
static int differing_logs(const shape *s, const char *const *opts,
                          const char *spec, int runs, uint64_t seed)
{
    so_rng rng;
    so_rng_seed(&rng, seed);
    int differ = 0;
    for (int r = 0; r < runs; r++) {
        char *json = workload(&rng, s);
        so_params prm;
        so_params_init(&prm);
        for (int k = 0; opts[k]; k += 2)
            so_params_set(&prm, opts[k], opts[k + 1]);
        so_error err;
        so_cl_workload *w = NULL;
        if (!json || so_cl_workload_parse(json, strlen(json), "random.json",
                                          &prm, (uint64_t)r + 1, &w, &err)) {
            free(json);
            return -1;
        }
        char *a = event_log(w, so_cl_scheduler_find("fair"), spec, &prm,
                            (uint64_t)r + 1);
        char *b = event_log(w, &so_test_fair_old, spec, &prm, (uint64_t)r + 1);
        if (!a || !b || !a[0]) {
            differ = -1;
        } else if (strcmp(a, b) != 0) {
            if (differ == 0) {
                size_t k = 0;
                while (a[k] == b[k])
                    k++;
                while (k > 0 && a[k - 1] != '\n')
                    k--;
                fprintf(stderr, "\n%s run %d: new \"%.60s\" old \"%.60s\"\n",
                        s->name, r, a + k, b + k);
            }
            differ++;
        }
        free(a);
        free(b);
        so_cl_workload_free(w);
        free(json);
        if (differ < 0)
            return -1;
    }
    return differ;
}

static const double dyadic[] = {0.5, 1, 2, 3};
static const double non_dyadic[] = {0.1, 0.3, 1, 0.7};

static const char *const no_opts[] = {NULL};
static const char *const preempt[] = {"min_share_timeout", "5",
                                      "fair_share_timeout", "10",
                                      "preemption_interval", "2", NULL};
static const char *const delay[] = {"locality_delay", "4.5", NULL};
static const char *const delay_preempt[] = {"locality_delay", "4.5",
                                            "min_share_timeout", "6",
                                            "fair_share_timeout", "9",
                                            "preemption_interval", "3", NULL};

static void test_pools_dyadic(void)
{
    shape s = {"pools", dyadic, 4, 2, 0, 0, 0, 40, 5, NULL};
    CU_ASSERT_EQUAL(differing_logs(&s, no_opts, NULL, 6, 1), 0);
}

static void test_preemption(void)
{
    shape s = {"preemption", dyadic, 4, 2, 0, 0, 1, 40, 5, NULL};
    CU_ASSERT_EQUAL(differing_logs(&s, preempt, NULL, 6, 2), 0);
}

static void test_zero_tasks_speculation(void)
{
    shape s = {"zero-tasks", dyadic, 4, 2, 1, 0, 0, 40, 5, NULL};
    CU_ASSERT_EQUAL(differing_logs(&s, preempt, "hadoop", 4, 3), 0);
    CU_ASSERT_EQUAL(differing_logs(&s, no_opts, "late", 4, 4), 0);
}

static void test_delay_scheduling(void)
{
    shape s = {"delay", dyadic, 4, 2, 1, 1, 1, 40, 6, NULL};
    CU_ASSERT_EQUAL(differing_logs(&s, delay, NULL, 5, 5), 0);
    CU_ASSERT_EQUAL(differing_logs(&s, delay_preempt, "hadoop", 5, 6), 0);
}

/* Many events at the same times (fixed durations, heartbeats 3 s apart),
 * long tails (speculation), a short epoch. */
static void test_ties_and_tails(void)
{
    shape fixed = {"fixed", dyadic, 4, 2, 1, 0, 1, 40, 4,
                   "{\"dist\": \"fixed\", \"value\": 6}"};
    CU_ASSERT_EQUAL(differing_logs(&fixed, preempt, NULL, 4, 8), 0);
    static const char *const short_epoch[] = {"epoch", "0.25",
                                              "min_share_timeout", "3",
                                              "preemption_interval", "1", NULL};
    CU_ASSERT_EQUAL(differing_logs(&fixed, short_epoch, "hadoop", 4, 9), 0);
    shape tail = {"tail", dyadic, 4, 2, 1, 1, 0, 40, 5,
                  "{\"dist\": \"lognormal\", \"mu\": 2, \"sigma\": 1.2}"};
    CU_ASSERT_EQUAL(differing_logs(&tail, delay_preempt, "hadoop", 4, 10), 0);
    CU_ASSERT_EQUAL(differing_logs(&tail, no_opts, "late", 4, 11), 0);
}

/* Job weights that are not short binary fractions (0.1, 0.3, 0.7): the
 * level tree adds the weights in another order than so_cl_waterline's
 * sweep, so the level, and the targets, can differ in their last bits
 * (level_tree.h, docs/cluster.md); a deficit that ties exactly in one
 * computation then need not tie in the other, and the schedules part:
 * with this file's workload shape and weights {0.1, 0.3, 1, 0.7}, seed 7,
 * the event log of run 2 of 6 differs from 6f6c0ef's at 280.92 s (job 34
 * launched instead of job 31). Checked here: the targets stay within a few
 * ulps of the from-scratch ones. */
static void test_non_dyadic_weights_near(void)
{
    so_rng rng;
    so_rng_seed(&rng, 17);
    so_cl_level_forest f;
    CU_ASSERT_EQUAL_FATAL(so_cl_level_forest_init(&f, 1, 64), 0);
    int differ = 0, far = 0;
    for (int t = 0; t < 2000; t++) {
        int n = (int)so_rng_int(&rng, 2, 60);
        double w[64], m[64] = {0}, d[64], ref[64], sum = 0;
        for (int i = 0; i < n; i++) {
            w[i] = non_dyadic[so_rng_int(&rng, 0, 3)];
            d[i] = (double)so_rng_int(&rng, 1, 50);
            sum += d[i];
            so_cl_level_set(&f, 0, i, d[i], w[i]);
        }
        double slots = (double)so_rng_int(&rng, 1, (int64_t)sum);
        so_cl_waterline(n, w, m, d, slots, ref);
        double level = so_cl_level_solve(&f, 0, slots);
        for (int i = 0; i < n; i++) {
            double s = level * w[i], inc = s < d[i] ? s : d[i];
            differ += inc != ref[i];
            far += fabs(inc - ref[i]) > 1e-12 * d[i];
        }
        for (int i = 0; i < n; i++)
            so_cl_level_remove(&f, i);
    }
    CU_ASSERT(differ > 0); /* the documented difference exists */
    CU_ASSERT_EQUAL(far, 0);
    so_cl_level_forest_free(&f);
}

static CU_TestInfo tests[] = {
    {"fair = 6f6c0ef's: fifo, weighted, capped pools", test_pools_dyadic},
    {"fair = 6f6c0ef's: preemption, out-of-band", test_preemption},
    {"fair = 6f6c0ef's: jobs without maps or reduces, speculation",
     test_zero_tasks_speculation},
    {"fair = 6f6c0ef's: delay scheduling with locality", test_delay_scheduling},
    {"fair = 6f6c0ef's: simultaneous events, long tails, short epoch",
     test_ties_and_tails},
    {"non-dyadic weights: targets within ulps of the from-scratch ones",
     test_non_dyadic_weights_near},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-fair-old", tests)
