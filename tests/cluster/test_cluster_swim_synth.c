/* test_cluster_swim_synth.c — the `swim-synth` family: job count, Poisson
 * arrivals at the chosen rate, tasks derived by SWIM's rules (checked job
 * by job against the rules), the FB-2009 sample's map-only share, the
 * cluster size, same seed same bytes, a replay, and bad --set values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/cluster.h"
#include "tests/test_util.h"

static json_t *synth(const char *const *sets, uint64_t seed, int *rc,
                     so_error *err)
{
    so_params set;
    so_params_init(&set);
    for (; sets && *sets; sets++)
        so_params_set_kv(&set, *sets, err);
    json_t *inst = NULL;
    *rc = so_family_generate(so_family_find("swim-synth"), &set, seed, 0, &inst,
                             err);
    return inst;
}

static void test_shape(void)
{
    const char *sets[] = {"jobs=3000", "rate=0.5", "nodes=37", NULL};
    so_error err;
    int rc;
    json_t *w = synth(sets, 4, &rc, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    json_t *jobs = json_object_get(w, "jobs");
    CU_ASSERT_EQUAL_FATAL(json_array_size(jobs), 3000);
    json_t *g = json_array_get(json_object_get(json_object_get(w, "cluster"), "nodes"), 0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(g, "count")), 37);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(g, "map_slots")), 2);
    double last = 0;
    int with_reduces = 0, bad_rule = 0, unsorted = 0;
    for (size_t k = 0; k < 3000; k++) {
        json_t *j = json_array_get(jobs, k);
        double t = json_number_value(json_object_get(j, "submit"));
        unsorted += t < last;
        last = t;
        json_t *maps = json_object_get(j, "maps");
        json_int_t m = json_integer_value(json_object_get(maps, "count"));
        double d = json_number_value(json_object_get(maps, "duration"));
        json_t *red = json_object_get(j, "reduces");
        if (red) {
            with_reduces++;
            json_int_t r = json_integer_value(json_object_get(red, "count"));
            /* a shuffling job: a multi-map job's maps each read one 64 MiB
             * block at 20 MiB/s after 1 s of overhead: 4.2 s; a one-map
             * job reads at most a block; 1 to 999 reduces */
            if ((m > 1 && fabs(d - 4.2) > 1e-9) || (m == 1 && d > 4.2 + 1e-9) ||
                r < 1 || r > 999 ||
                json_number_value(json_object_get(red, "reduce")) < 1 - 1e-9)
                bad_rule++;
        } else if (m < 1 || m > 100000 || d < 1 - 1e-9) {
            bad_rule++;
        }
    }
    CU_ASSERT_EQUAL(unsorted, 0);
    CU_ASSERT_EQUAL(bad_rule, 0);
    /* Poisson at 0.5 / s: the 3000th arrival near 6000 s (sd 110 s) */
    CU_ASSERT(fabs(last - 6000) < 400);
    /* shuffling jobs: 24.5 % (binomial sd 0.8 %) */
    CU_ASSERT(fabs(with_reduces / 3000.0 - 0.245) < 0.03);
    json_decref(w);
}

static void test_same_seed_same_bytes(void)
{
    const char *sets[] = {"jobs=200", "size_scale=3", NULL};
    so_error err;
    int rc;
    json_t *a = synth(sets, 9, &rc, &err), *b = synth(sets, 9, &rc, &err);
    json_t *c = synth(sets, 10, &rc, &err);
    char *ta = json_dumps(a, 0), *tb = json_dumps(b, 0), *tc = json_dumps(c, 0);
    CU_ASSERT_STRING_EQUAL(ta, tb);
    CU_ASSERT(strcmp(ta, tc) != 0);
    free(ta);
    free(tb);
    free(tc);
    json_decref(a);
    json_decref(b);
    json_decref(c);
}

/* size_scale multiplies the bytes and leaves the draws: job by job, 10x
 * the bytes gives m10 maps with m1 <= m10 <= min(100000, 10 m1) (ceil), and
 * in all several times the maps. */
static void test_size_scale(void)
{
    so_error err;
    int rc;
    const char *one[] = {"jobs=2000", NULL}, *ten[] = {"jobs=2000", "size_scale=10", NULL};
    json_t *a = synth(one, 5, &rc, &err), *b = synth(ten, 5, &rc, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    json_t *ja = json_object_get(a, "jobs"), *jb = json_object_get(b, "jobs");
    double sum[2] = {0, 0};
    int bad = 0;
    for (size_t i = 0; i < 2000; i++) {
        json_int_t m1 = json_integer_value(json_object_get(
            json_object_get(json_array_get(ja, i), "maps"), "count"));
        json_int_t m10 = json_integer_value(json_object_get(
            json_object_get(json_array_get(jb, i), "maps"), "count"));
        json_int_t hi = 10 * m1 < 100000 ? 10 * m1 : 100000;
        bad += m10 < m1 || m10 > hi;
        sum[0] += (double)m1;
        sum[1] += (double)m10;
        bad += json_number_value(json_object_get(json_array_get(ja, i), "submit")) !=
               json_number_value(json_object_get(json_array_get(jb, i), "submit"));
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(sum[1] / sum[0] > 5 && sum[1] / sum[0] <= 10);
    json_decref(a);
    json_decref(b);
}

static void test_replays(void)
{
    const char *sets[] = {"jobs=60", "nodes=10", "size_scale=0.1", NULL};
    so_error err;
    int rc;
    json_t *inst = synth(sets, 2, &rc, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    char *text = json_dumps(inst, 0);
    json_decref(inst);
    so_cl_workload *w = NULL;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse_json(text, strlen(text), "s.json",
                                                    1, &w, &err), SO_OK);
    free(text);
    CU_ASSERT_EQUAL(w->n_jobs, 60);
    CU_ASSERT_EQUAL(w->n_nodes, 10);
    static const char *const scheds[] = {"fifo", "fair"};
    for (int s = 0; s < 2; s++) {
        so_cl_config cfg = {0};
        cfg.scheduler = so_cl_scheduler_find(scheds[s]);
        so_cl_sim *sim = NULL;
        CU_ASSERT_EQUAL_FATAL(so_cl_sim_new(w, &cfg, &sim, &err), SO_OK);
        CU_ASSERT_EQUAL(so_cl_sim_run(sim), SO_OK);
        for (int j = 0; j < 60; j++)
            CU_ASSERT(so_cl_sim_job(sim, j)->finish >= so_cl_sim_job(sim, j)->submit);
        so_cl_sim_free(sim);
    }
    so_cl_workload_free(w);
}

/* replicas=3 on 10 nodes: the cluster carries the locality model, the
 * replay places 3 replicas per map, and delay scheduling keeps more maps
 * local than plain fair (the same jobs otherwise: the bytes of the jobs do
 * not depend on it). */
static void test_replicas(void)
{
    const char *sets[] = {"jobs=80", "nodes=10", "size_scale=0.3", "rate=0.2",
                          "replicas=3", NULL};
    const char *plain[] = {"jobs=80", "nodes=10", "size_scale=0.3", "rate=0.2",
                           NULL};
    so_error err;
    int rc;
    json_t *inst = synth(sets, 4, &rc, &err), *ref = synth(plain, 4, &rc, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(inst);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ref);
    json_t *cl = json_object_get(inst, "cluster");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(cl, "replicas")), 3);
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(cl, "remote_slowdown")),
                           1.5, 0);
    CU_ASSERT_PTR_NULL(json_object_get(json_object_get(ref, "cluster"), "replicas"));
    CU_ASSERT(json_equal(json_object_get(inst, "jobs"), json_object_get(ref, "jobs")));
    char *text = json_dumps(inst, 0);
    json_decref(inst);
    json_decref(ref);
    so_cl_workload *w = NULL;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse_json(text, strlen(text), "s.json",
                                                    1, &w, &err), SO_OK);
    free(text);
    CU_ASSERT_EQUAL(w->replicas, 3);
    long long local[2] = {0, 0}, remote[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        so_params prm;
        so_params_init(&prm);
        if (k == 1)
            so_params_set(&prm, "locality_delay", "4.5");
        so_cl_config cfg = {.scheduler = so_cl_scheduler_find("fair"),
                            .params = &prm, .seed = 1};
        so_cl_sim *sim = NULL;
        CU_ASSERT_EQUAL_FATAL(so_cl_sim_new(w, &cfg, &sim, &err), SO_OK);
        CU_ASSERT_EQUAL(so_cl_sim_run(sim), SO_OK);
        local[k] = so_cl_sim_stats(sim)->local_maps;
        remote[k] = so_cl_sim_stats(sim)->remote_maps;
        so_cl_sim_free(sim);
    }
    CU_ASSERT(remote[0] > 0);
    CU_ASSERT(local[0] + remote[0] == local[1] + remote[1]);
    CU_ASSERT(remote[1] < remote[0]);
    so_cl_workload_free(w);
}

/* map_output_mib: the same bytes (same seed), map-only jobs' maps never
 * write more than the cap: each at most 1 s + (64 MiB + cap) / 20 MiB/s, and
 * the days' task totals grow only by map-only maps. */
static void test_map_output_cap(void)
{
    const char *plain[] = {"jobs=400", "size_scale=5", NULL};
    const char *capped[] = {"jobs=400", "size_scale=5", "map_output_mib=256", NULL};
    so_error err;
    int rc;
    json_t *a = synth(plain, 3, &rc, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    json_t *b = synth(capped, 3, &rc, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    json_t *ja = json_object_get(a, "jobs"), *jb = json_object_get(b, "jobs");
    int over = 0, raised = 0, changed_shuffling = 0;
    double longest_a = 0, longest_b = 0;
    for (size_t k = 0; k < json_array_size(ja); k++) {
        json_t *x = json_array_get(ja, k), *y = json_array_get(jb, k);
        json_t *mx = json_object_get(x, "maps"), *my = json_object_get(y, "maps");
        json_int_t cx = json_integer_value(json_object_get(mx, "count"));
        json_int_t cy = json_integer_value(json_object_get(my, "count"));
        double dx = json_number_value(json_object_get(mx, "duration"));
        double dy = json_number_value(json_object_get(my, "duration"));
        longest_a = fmax(longest_a, dx);
        longest_b = fmax(longest_b, dy);
        if (json_object_get(x, "reduces")) {
            changed_shuffling += cx != cy || dx != dy;
            continue;
        }
        over += dy > 1 + (64.0 + 256.0) / 20.0 + 1e-9;
        raised += cy > cx;
        /* the same bytes: maps x (duration - 1 s) is the job's input +
         * output at 20 MiB/s, whatever the count (up to a one-map job's
         * partial block; durations are written to the millisecond) */
        if (cy > cx && cx > 1)
            CU_ASSERT(fabs(cy * (dy - 1) - cx * (dx - 1)) <= 5e-4 * (cx + cy) + 1e-9);
    }
    CU_ASSERT_EQUAL(over, 0);
    CU_ASSERT_EQUAL(changed_shuffling, 0);
    CU_ASSERT(raised > 0);
    CU_ASSERT(longest_b < longest_a);
    json_decref(a);
    json_decref(b);
}

static void test_bad_sets(void)
{
    const char *bad[][2] = {{"jobs=0", "jobs"}, {"rate=0", "rate"},
                            {"nodes=-1", "nodes"}, {"size_scale=1000", "size_scale"},
                            {"jobs=many", "jobs"}, {"replicas=17", "replicas"},
                            {"remote_slowdown=0.5", "remote_slowdown"},
                            {"map_output_mib=-3", "map_output_mib"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *sets[] = {bad[k][0], NULL};
        so_error err;
        so_error_clear(&err);
        int rc;
        json_t *w = synth(sets, 1, &rc, &err);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        CU_ASSERT_PTR_NULL(w);
        CU_ASSERT_STRING_EQUAL(err.key, bad[k][1]);
    }
}

static CU_TestInfo tests[] = {
    {"job count, arrivals, SWIM rules, map-only share", test_shape},
    {"same seed, same bytes", test_same_seed_same_bytes},
    {"size_scale multiplies the maps", test_size_scale},
    {"replays under fifo and fair", test_replays},
    {"replicas: a locality model, fewer remote maps with delay", test_replicas},
    {"map_output_mib caps a map-only map's output", test_map_output_cap},
    {"bad --set values name the parameter", test_bad_sets},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-swim-synth", tests)
