/* test_ras_plus.c — ras-plus: a hand-solved instance where Algorithm 1's
 * reducers-first order starves a job, never above the exact optimum and a
 * small mean gap on random instances, the local search, determinism and
 * option errors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/solvers/ras_testing.h"

/* One TaskTracker, memory 100. Job A: 1 map (50), 2 reducers of 60 in
 * reduce phase; job B: 1 map (50). Reducers first (ras) leaves 40: no map
 * of A or B fits, minimum -infinity (-3). The optimum places both maps:
 * u_A = uM(1 of 1) + uR(0 of 2) = 1 - 1 = 0, u_B = 1; a reducer of A
 * instead of a map would starve B. Utilisation 100 / 100 = 1. */
static const char *REDUCERS_FIRST =
    "{\"problem\": \"ras\", \"version\": 1, \"resources\": [\"memory\"],\n"
    " \"tasktrackers\": [{\"capacity\": [100]}],\n"
    " \"jobs\": [{\"name\": \"A\", \"s_pend\": 1, \"r_pend\": 2,\n"
    "            \"phase\": \"reduce\",\n"
    "            \"demand\": {\"map\": [50], \"reduce\": [60]}},\n"
    "           {\"name\": \"B\", \"s_pend\": 1, \"r_pend\": 0,\n"
    "            \"demand\": {\"map\": [50]}}]}\n";

static void test_reducers_first_loss(void)
{
    so_problem *p = ras_parse(REDUCERS_FIRST);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    so_result *a = ras_solve(p, "ras", NULL);
    so_result *b = ras_solve(p, "ras-plus", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(a), SO_RAS_STARVED, 1e-12);
    CU_ASSERT_EQUAL(so_result_status(b), SO_FEASIBLE);
    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(b), 0.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ras_utilisation(b), 1.0, 1e-12);
    so_result_free(a);
    so_result_free(b);
    so_problem_free(p);
}

/* Random instances: feasible (so_ras_report checks it), never above the
 * exact optimum, mean gap at most 0.05 utility units. */
static void test_gap_to_enum(void)
{
    int n = 0, reached = 0;
    double gap = 0;
    for (int s = 0; s < 3; s++)
        for (uint64_t i = 0; i < 12; i++) {
            so_problem *p = ras_random_problem(11, i, ras_tiny_settings[s]);
            CU_ASSERT_PTR_NOT_NULL_FATAL(p);
            so_result *e = ras_solve(p, "ras-enum", NULL);
            so_result *h = ras_solve(p, "ras-plus", NULL);
            CU_ASSERT_PTR_NOT_NULL_FATAL(e);
            CU_ASSERT_PTR_NOT_NULL_FATAL(h);
            double d = so_result_objective(e) - so_result_objective(h);
            CU_ASSERT(d >= -1e-9);
            so_ras_eval he = {1, so_result_objective(h), ras_utilisation(h), 0};
            so_ras_eval ee = {1, so_result_objective(e), ras_utilisation(e), 0};
            CU_ASSERT_FALSE(so_ras_better(&he, &ee)); /* lexicographically */
            gap += d;
            reached += d < 1e-9;
            n++;
            so_result_free(e);
            so_result_free(h);
            so_problem_free(p);
        }
    CU_ASSERT_EQUAL(n, 36);
    CU_ASSERT(gap / n <= 0.05);
    CU_ASSERT(reached >= 30);
}

/* A larger instance: the same result twice; moves=0 (no local search)
 * never beats the default. */
static void test_deterministic(void)
{
    const char *const settings[] = {"tasktrackers=8", "jobs=5", "max_maps=8",
                                    "max_reduces=2", NULL};
    so_problem *p = ras_random_problem(2026, 7, settings);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    so_result *a = ras_solve(p, "ras-plus", NULL);
    so_result *b = ras_solve(p, "ras-plus", NULL);
    const char *const none[] = {"moves=0", NULL};
    so_result *c = ras_solve(p, "ras-plus", none);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_TRUE(json_equal(so_result_solution(a), so_result_solution(b)));
    CU_ASSERT(so_result_objective(c) <= so_result_objective(a) + 1e-12);
    CU_ASSERT_EQUAL(json_integer_value(so_result_extra(c, "moves_used")), 0);
    so_result_free(a);
    so_result_free(b);
    so_result_free(c);
    so_problem_free(p);
}

static void test_bad_option(void)
{
    so_problem *p = ras_parse(REDUCERS_FIRST);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    const char *const bad[] = {"moves=-1", NULL};
    CU_ASSERT_PTR_NULL(ras_solve(p, "ras-plus", bad));
    so_problem_free(p);
}

static CU_TestInfo tests[] = {
    {"reducers first starves a job, ras-plus does not", test_reducers_first_loss},
    {"never above ras-enum, mean gap <= 0.05", test_gap_to_enum},
    {"deterministic; local search never hurts", test_deterministic},
    {"option errors", test_bad_option},
    CU_TEST_INFO_NULL,
};
SO_SUITE("ras-plus", tests)
