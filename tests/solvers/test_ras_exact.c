/* test_ras_exact.c — the configuration MILP: hand-solved instances (stage
 * 2, the shuffle level of a reducer), agreement with ras-enum and ras-glpk
 * on random tiny instances, a Gridmix snapshot proved optimal, and the
 * class and pattern enumeration. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/solvers/ras_testing.h"
#include "solvers/ras_patterns.h"

/* Two TaskTrackers of io 10; job A: 4 maps of 2 (s_req 4), one shuffling
 * reducer of 5 + 1 per map placed up to parallel_copies = 3. Everything:
 * 8 + 5 + 3 = 16 <= 20 fits across the two (the reducer with 2 maps on one
 * TaskTracker: 4 + 8 = 12 > 10, so 1 map: 2 + 8 = 10), u = 1. */
static const char *SHUFFLE2 =
    "{\"problem\": \"ras\", \"version\": 1, \"resources\": [\"io\"],\n"
    " \"tasktrackers\": [{\"capacity\": [10], \"count\": 2}],\n"
    " \"jobs\": [{\"name\": \"A\", \"s_pend\": 4, \"r_pend\": 1,\n"
    "            \"parallel_copies\": 3,\n"
    "            \"demand\": {\"map\": [2], \"shuffle\": [1],\n"
    "                       \"shuffle_base\": [5], \"reduce\": [5]}}]}\n";

static void check(const char *text, double min_u, double util)
{
    so_problem *p = ras_parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    const char *const names[] = {"ras-exact", "ras-enum"};
    for (int b = 0; b < 2; b++)
        so_result_free(ras_expect_optimum(p, names[b], min_u, util));
    so_problem_free(p);
}

static void test_hand_solved(void)
{
    check(RAS_STAGE2, -1.0, 0.9);
    check(SHUFFLE2, 1.0, (8 + 5 + 3) / 20.0);
}

static void test_patterns(void)
{
    /* SHUFFLE2: types map, reducer at levels 0..3 (min(pc 3, s_pend 4));
     * one class of 2. Patterns on io 10: k maps alone (k = 0..4: 5), or
     * one reducer at level m (5 + m) with k maps, 2k + 5 + m <= 10:
     * m = 0: k <= 2 (3), m = 1: k <= 2 (3), m = 2: k <= 1 (2),
     * m = 3: k <= 1 (2); two reducers exceed r_pend 1: 15 in all. */
    so_problem *p = ras_parse(SHUFFLE2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    so_ras_patterns pt;
    CU_ASSERT_EQUAL_FATAL(so_ras_patterns_build(so_ras_of(p), 1000, &pt), SO_OK);
    CU_ASSERT_EQUAL(pt.n_types, 5);
    CU_ASSERT_EQUAL(pt.n_classes, 1);
    CU_ASSERT_EQUAL(pt.class_count[0], 2);
    CU_ASSERT_EQUAL(pt.n_patterns, 15);
    so_ras_patterns_free(&pt);
    CU_ASSERT_EQUAL(so_ras_patterns_build(so_ras_of(p), 10, &pt),
                    SO_EUNSUPPORTED);
    so_problem_free(p);
}

static void test_agrees(void)
{
    ras_expect_agree_tiny("ras-exact", "ras-glpk", 1);
}

static void test_gridmix_snapshot(void)
{
    /* the paper's workload at 2,600 s: ras-glpk stops at its limit; the
     * configuration model proves it (0.06 s when measured) */
    so_problem *p;
    int rc;
    so_result *r = ras_solve_file("instances/ras/gridmix-t2600.json",
                                  "ras-exact", 30, &p, &rc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT(rc >= 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(so_result_status(r), SO_OPTIMAL);
    CU_ASSERT_DOUBLE_EQUAL(so_result_bound(r), so_result_objective(r), 1e-6);
    so_result *h = ras_solve(p, "ras-plus", NULL);
    so_result *a = ras_solve(p, "ras", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT(so_result_objective(r) >= so_result_objective(h) - 1e-9);
    CU_ASSERT(so_result_objective(r) >= so_result_objective(a) - 1e-9);
    so_result_free(a);
    so_result_free(h);
    so_result_free(r);
    so_problem_free(p);
}

static CU_TestInfo tests[] = {
    {"hand-solved optima", test_hand_solved},
    {"classes and patterns", test_patterns},
    {"agrees with ras-enum and ras-glpk", test_agrees},
    {"gridmix t2600 proved optimal", test_gridmix_snapshot},
    CU_TEST_INFO_NULL,
};
SO_SUITE("ras-exact", tests)
