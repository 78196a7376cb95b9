/* test_cluster_physics_variability.c — task-time noise and transient node
 * slow-downs (issue 32, item 3; cluster/variability.c): a seeded draw
 * checked by hand, a slow spell integrated by hand, determinism, off means
 * unchanged, bad values. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests/cluster/cluster_test.h"

/* One node of one map slot, one map of `work` seconds at time 0. */
static double one_map(double work, const so_params *prm, uint64_t seed)
{
    char json[1024];
    snprintf(json, sizeof json,
             "{\"problem\": \"cluster\", \"version\": 1, \"cluster\": {"
             "\"nodes\": [{\"count\": 1, \"map_slots\": 1, \"reduce_slots\": 1}],"
             " \"heartbeat_phase\": \"aligned\"},"
             " \"jobs\": [{\"submit\": 0, \"maps\": [%g]}]}", work);
    cl_run r = cl_simulate(json, "fifo", NULL, prm, seed, NULL);
    CU_ASSERT_PTR_NOT_NULL(r.sim);
    double finish = r.sim ? so_cl_sim_job(r.sim, 0)->finish : -1;
    cl_done(&r);
    return finish;
}

/* noise_cv 0.5: the map's duration is 10 x the first lognormal draw of
 * stream 2 of the seed, sigma^2 = ln(1.25), mu = -sigma^2 / 2. */
static void test_seeded_noise_draw(void)
{
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "noise_cv", "0.5");
    so_rng rng;
    so_rng_seed_stream(&rng, 1, 2);
    double sg = sqrt(log(1.25));
    double x = so_rng_lognormal(&rng, -sg * sg / 2, sg);
    /* the draw itself, recorded: a change of the stream or the
     * parameters shows here */
    CU_ASSERT_DOUBLE_EQUAL(x, 1.2271913926428408, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(one_map(10, &prm, 1), 10 / (1 / x), 1e-9);
    /* another seed, another draw; no noise: exactly 10 */
    CU_ASSERT(fabs(one_map(10, &prm, 2) - 10 * x) > 1e-6);
    so_params_set(&prm, "noise_cv", "0");
    CU_ASSERT_DOUBLE_EQUAL(one_map(10, &prm, 1), 10, 0);
}

/* slowdown_gap 50, length 20, speed 0.5 on a map of 100 s: the node's
 * spells come from stream 3 (+ node 0) of the seed, gap then length in
 * turn; the work is integrated over them by hand. */
static void test_transient_slowdown(void)
{
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "slowdown_gap", "50");
    so_params_set(&prm, "slowdown_length", "20");
    so_params_set(&prm, "slowdown_speed", "0.5");
    so_rng rng;
    so_rng_seed_stream(&rng, 1, 3);
    double t = 0, left = 100, speed = 1;
    int slow = 0, spells = 0;
    for (;;) {
        double next = t + so_rng_exponential(&rng, slow ? 20 : 50);
        if (left <= (next - t) * speed) {
            t += left / speed;
            break;
        }
        left -= (next - t) * speed;
        t = next;
        slow = !slow;
        speed = slow ? 0.5 : 1;
        spells += slow;
    }
    CU_ASSERT(spells >= 1); /* the seed gives the map a slow spell */
    CU_ASSERT(t > 100);
    CU_ASSERT_DOUBLE_EQUAL(one_map(100, &prm, 1), t, 1e-9);
}

/* The same seed gives the same report; the options are off by default
 * (no node-slowdown count); bad values name their key. */
static void test_runs_and_errors(void)
{
    const char *fb = cl_fb2009_head(80, "fb80.tsv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fb);
    char args[4096], *a = NULL, *b = NULL, *err = NULL;
    snprintf(args, sizeof args, "sim %s --scheduler fair --opt nodes=4"
             " --opt noise_cv=0.4 --opt slowdown_gap=300 --summary --compact", fb);
    CU_ASSERT_EQUAL(so_test_run(args, &a, NULL), 0);
    CU_ASSERT_EQUAL(so_test_run(args, &b, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL(strstr(a, "\"node-slowdown\":"));
    *strstr(a, "\"seconds\"") = *strstr(b, "\"seconds\"") = '\0';
    CU_ASSERT_STRING_EQUAL(a, b);
    free(a);
    free(b);
    snprintf(args, sizeof args, "sim %s --scheduler fair --opt nodes=4"
             " --summary --compact", fb);
    CU_ASSERT_EQUAL(so_test_run(args, &a, NULL), 0);
    CU_ASSERT_PTR_NULL(a ? strstr(a, "node-slowdown") : "x");
    free(a);
    static const char *const bad[] = {"noise_cv=-1", "slowdown_gap=x",
                                      "slowdown_speed=2", "slowdown_length=0"};
    for (size_t k = 0; k < 4; k++) {
        snprintf(args, sizeof args, "sim %s --scheduler fair --opt %s", fb,
                 bad[k]);
        CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
        char key[64];
        snprintf(key, sizeof key, "'%.*s'", (int)strcspn(bad[k], "="), bad[k]);
        CU_ASSERT_PTR_NOT_NULL(err && strstr(err, key));
        free(err);
    }
}

static CU_TestInfo tests[] = {
    {"a seeded noise draw", test_seeded_noise_draw},
    {"a transient slow-down integrated by hand", test_transient_slowdown},
    {"determinism, off by default, bad values", test_runs_and_errors},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-physics-variability", tests)
