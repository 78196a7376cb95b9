/* test_ras_enum.c — the brute force: a hand-enumerated instance, a
 * starved optimum, the size limit and the time limit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/solvers/ras_testing.h"

static void test_hand_enumerated(void)
{
    /* one TaskTracker of 10; A: 3 maps of 2 (s_req 3), B: 2 maps of 3
     * (s_req 1). (a, b) feasible iff 2a + 3b <= 10:
     *   (1,1) -1, (2,1) log2/log3 - 1, (3,1) 0, (2,2) log2/log3 - 1,
     *   (1,2) -1: the optimum is (3, 1), minimum utility 0, load 9. */
    so_problem *p = ras_parse(
        "{\"problem\": \"ras\", \"version\": 1, \"resources\": [\"slots\"],\n"
        " \"tasktrackers\": [{\"capacity\": [10]}],\n"
        " \"jobs\": [{\"s_pend\": 3, \"r_pend\": 0, \"demand\": {\"map\": [2]}},\n"
        "  {\"s_pend\": 2, \"s_req\": 1, \"r_pend\": 0, \"demand\": {\"map\": [3]}}]}\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    so_result *r = ras_solve(p, "ras-enum", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(so_result_status(r), SO_OPTIMAL);
    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), 0.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ras_utilisation(r), 0.9, 1e-12);
    json_t *jobs = json_object_get(so_result_solution(r), "jobs");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_array_get(jobs, 0), "maps")), 3);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_array_get(jobs, 1), "maps")), 1);
    so_result_free(r);
    so_problem_free(p);
}

static void test_starved_optimum(void)
{
    /* a map larger than every TaskTracker: the job starves in every
     * placement; the objective is SO_RAS_STARVED and its utility null */
    so_problem *p = ras_parse(
        "{\"problem\": \"ras\", \"version\": 1, \"resources\": [\"slots\"],\n"
        " \"tasktrackers\": [{\"capacity\": [4], \"count\": 2}],\n"
        " \"jobs\": [{\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [5]}},\n"
        "  {\"s_pend\": 3, \"r_pend\": 0, \"demand\": {\"map\": [2]}}]}\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    const char *const names[] = {"ras-enum", "ras-glpk", "ras"};
    for (int b = 0; b < 3; b++) {
        so_result *r = ras_solve(p, names[b], NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), SO_RAS_STARVED, 0);
        /* the other job still gets its 3 maps: utilisation 6 / 8 */
        CU_ASSERT_DOUBLE_EQUAL(ras_utilisation(r), 0.75, 1e-9);
        json_t *jobs = json_object_get(so_result_solution(r), "jobs");
        CU_ASSERT_TRUE(json_is_null(json_object_get(json_array_get(jobs, 0), "utility")));
        so_result_free(r);
    }
    so_problem_free(p);
}

static void test_size_limit(void)
{
    so_problem *p = ras_parse(
        "{\"problem\": \"ras\", \"version\": 1,\n"
        " \"tasktrackers\": [{\"capacity\": [100, 100, 100], \"count\": 20}],\n"
        " \"jobs\": [{\"s_pend\": 50, \"r_pend\": 5,\n"
        "            \"demand\": {\"map\": [1, 1, 1], \"reduce\": [1, 1, 1]}}]}\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    so_params prm;
    so_params_init(&prm);
    so_error err;
    so_error_clear(&err);
    so_result *r = NULL;
    CU_ASSERT_EQUAL(so_solve(so_backend_find("ras-enum"), p, &prm, &r, &err),
                    SO_EUNSUPPORTED);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "use ras-glpk"));
    so_problem_free(p);
}

static void test_time_limit(void)
{
    /* loose capacities: only the utility cuts; a full run takes ~0.3 s */
    const char *const settings[] = {"tasktrackers=4", "jobs=2", "max_maps=8",
                                    "max_reduces=2", "tightness=0.2", NULL};
    so_problem *p = ras_random_problem(3, 0, settings);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    so_params prm;
    so_params_init(&prm);
    prm.time_limit = 1e-3;
    so_error err;
    so_error_clear(&err);
    so_result *r = NULL;
    CU_ASSERT_EQUAL(so_solve(so_backend_find("ras-enum"), p, &prm, &r, &err),
                    SO_TIMELIMIT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_FALSE(so_result_has_bound(r));
    CU_ASSERT_TRUE(so_result_has_objective(r)); /* the best placement so far */
    CU_ASSERT(so_result_objective(r) <= 1.0);
    so_result_free(r);
    so_problem_free(p);
}

static CU_TestInfo tests[] = {
    {"hand-enumerated optimum", test_hand_enumerated},
    {"a job that cannot start: -infinity", test_starved_optimum},
    {"refuses large instances", test_size_limit},
    {"time limit keeps the best placement", test_time_limit},
    CU_TEST_INFO_NULL,
};
SO_SUITE("ras-enum", tests)
