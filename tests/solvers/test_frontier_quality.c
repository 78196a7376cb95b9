/* test_frontier_quality.c — hypervolume, additive epsilon and makespan
 * gaps on hand-computed frontiers. */
#include <math.h>
#include "tests/test_util.h"
#include "solvers/frontier_quality.h"

/* exact: (1, 4), (2, 2), (4, 1); reference point (5, 5).
 * Staircase slabs: (5-1)*(5-4) + (5-2)*(4-2) + (5-4)*(2-1) = 4 + 6 + 1 = 11 */
static const so_front_point exact[3] = {{1, 4}, {2, 2}, {4, 1}};
static const so_front_point ref = {5, 5};

static void test_hypervolume(void)
{
    CU_ASSERT_DOUBLE_EQUAL(so_frontier_hypervolume(exact, 3, ref), 11, 1e-12);
    /* order and dominated points do not matter */
    so_front_point mixed[5] = {{4, 1}, {3, 3}, {1, 4}, {2, 2}, {6, 0}};
    CU_ASSERT_DOUBLE_EQUAL(so_frontier_hypervolume(mixed, 5, ref), 11, 1e-12);
    CU_ASSERT_EQUAL(so_frontier_hypervolume(exact, 0, ref), 0);
    so_front_point outside[1] = {{5, 1}};
    CU_ASSERT_EQUAL(so_frontier_hypervolume(outside, 1, ref), 0);
}

static void test_ratio(void)
{
    /* approx (2, 3), (4, 2): 3*2 + 1*1 = 7 -> 7/11 */
    so_front_point approx[2] = {{2, 3}, {4, 2}};
    CU_ASSERT_DOUBLE_EQUAL(so_frontier_hypervolume_ratio(approx, 2, exact, 3, ref),
                           7.0 / 11, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(so_frontier_hypervolume_ratio(exact, 3, exact, 3, ref), 1,
                           1e-12);
    CU_ASSERT_EQUAL(so_frontier_hypervolume_ratio(NULL, 0, NULL, 0, ref), 1);
    CU_ASSERT(isnan(so_frontier_hypervolume_ratio(approx, 2, NULL, 0, ref)));
}

static void test_epsilon(void)
{
    so_front_point approx[2] = {{2, 3}, {4, 2}};
    so_front_point one = {1, 1};
    /* e(1,4): min(max(1,-1), max(3,-2)) = 1; e(2,2): min(max(0,1),
     * max(2,0)) = 1; e(4,1): min(max(-2,2), max(0,1)) = 1 -> 1 */
    CU_ASSERT_DOUBLE_EQUAL(so_frontier_epsilon(approx, 2, exact, 3, one), 1, 1e-12);
    /* scaled: makespan / 2, budget / 4: e(1,4): min(max(.5,-.25),
     * max(1.5,-.5)) = .5; e(2,2): min(max(0,.25), max(1,0)) = .25;
     * e(4,1): min(max(-1,.5), max(0,.25)) = .25 -> .5 */
    so_front_point scale = {2, 4};
    CU_ASSERT_DOUBLE_EQUAL(so_frontier_epsilon(approx, 2, exact, 3, scale), 0.5, 1e-12);
    CU_ASSERT_EQUAL(so_frontier_epsilon(exact, 3, exact, 3, one), 0);
    CU_ASSERT(isinf(so_frontier_epsilon(NULL, 0, exact, 3, one)));
    /* approx better than exact: negative */
    so_front_point better[1] = {{0, 0}};
    CU_ASSERT_DOUBLE_EQUAL(so_frontier_epsilon(better, 1, exact, 3, one), -1, 1e-12);
}

static void test_gaps(void)
{
    so_front_point approx[2] = {{2, 3}, {4, 2}};
    double g[3];
    so_frontier_makespan_gaps(approx, 2, exact, 3, g);
    /* budget 4: best makespan 2 vs 1 -> 1; budget 2: 4 vs 2 -> 1;
     * budget 1: none */
    CU_ASSERT_DOUBLE_EQUAL(g[0], 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(g[1], 1, 1e-12);
    CU_ASSERT(isinf(g[2]));
    so_frontier_makespan_gaps(exact, 3, exact, 3, g);
    CU_ASSERT_EQUAL(g[0], 0);
    CU_ASSERT_EQUAL(g[1], 0);
    CU_ASSERT_EQUAL(g[2], 0);
}

static CU_TestInfo tests[] = {
    {"hypervolume of a staircase", test_hypervolume},
    {"hypervolume ratio", test_ratio},
    {"additive epsilon, raw and scaled", test_epsilon},
    {"makespan gap at each budget", test_gaps},
    CU_TEST_INFO_NULL,
};
SO_SUITE("frontier_quality", tests)
