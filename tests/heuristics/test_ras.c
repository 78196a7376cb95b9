/* test_ras.c (heuristics) — Algorithm 1 of the RAS paper: reducers spread
 * first, the shuffle growth check, the profile switch, the rounds option,
 * feasibility and never beating the exact optimum on random instances. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/solvers/ras_testing.h"

static int cell(const so_result *r, size_t job, size_t tt, const char *what)
{
    json_t *cells = json_object_get(so_result_solution(r), "placement");
    size_t i;
    json_t *c;
    json_array_foreach(cells, i, c) {
        if ((size_t)json_integer_value(json_object_get(c, "job")) == job &&
            (size_t)json_integer_value(json_object_get(c, "tt")) == tt)
            return (int)json_integer_value(json_object_get(c, what));
    }
    return 0;
}

static void test_reducers_spread(void)
{
    /* 4 TaskTrackers; job 0: 6 reducers, job 1: 2 reducers (reduce phase).
     * Job 0: one per TaskTracker, then TaskTrackers 0 and 1 again (ties by
     * index); job 1: the TaskTrackers with fewest reducers, 2 and 3. */
    so_problem *p = ras_parse(
        "{\"problem\": \"ras\", \"version\": 1, \"resources\": [\"memory\"],\n"
        " \"tasktrackers\": [{\"capacity\": [100], \"count\": 4}],\n"
        " \"jobs\": [{\"s_pend\": 0, \"r_pend\": 6, \"phase\": \"reduce\",\n"
        "            \"demand\": {\"map\": [1], \"reduce\": [10]}},\n"
        "           {\"s_pend\": 0, \"r_pend\": 2, \"phase\": \"reduce\",\n"
        "            \"demand\": {\"map\": [1], \"reduce\": [10]}}]}\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    so_result *r = ras_solve(p, "ras", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const int job0[4] = {2, 2, 1, 1}, job1[4] = {0, 0, 1, 1};
    for (size_t tt = 0; tt < 4; tt++) {
        CU_ASSERT_EQUAL(cell(r, 0, tt, "reduces"), job0[tt]);
        CU_ASSERT_EQUAL(cell(r, 1, tt, "reduces"), job1[tt]);
    }
    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), 1.0, 0);
    so_result_free(r);
    so_problem_free(p);
}

static void test_min_utility_fill(void)
{
    /* one TaskTracker of 10; A: 3 maps of 2 (s_req 3), B: 2 maps of 3
     * (s_req 1). The fill gives each slot to the lowest utility:
     * A (-inf, index 0), B (-inf), A (-1 < 0), A (-0.37 < 0): 6 + 3 = 9,
     * the optimum (3, 1) of test_ras_enum. */
    so_problem *p = ras_parse(
        "{\"problem\": \"ras\", \"version\": 1, \"resources\": [\"slots\"],\n"
        " \"tasktrackers\": [{\"capacity\": [10]}],\n"
        " \"jobs\": [{\"s_pend\": 3, \"r_pend\": 0, \"demand\": {\"map\": [2]}},\n"
        "  {\"s_pend\": 2, \"s_req\": 1, \"r_pend\": 0, \"demand\": {\"map\": [3]}}]}\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    so_result *r = ras_solve(p, "ras", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(so_result_status(r), SO_FEASIBLE);
    CU_ASSERT_EQUAL(cell(r, 0, 0, "maps"), 3);
    CU_ASSERT_EQUAL(cell(r, 1, 0, "maps"), 1);
    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), 0.0, 1e-12);
    so_result_free(r);
    so_problem_free(p);
}

static so_problem *shuffle_job(int pc, double reduce)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"problem\": \"ras\", \"version\": 1, \"resources\": [\"io\"],\n"
             " \"tasktrackers\": [{\"capacity\": [10]}],\n"
             " \"jobs\": [{\"s_pend\": 4, \"r_pend\": 1, \"parallel_copies\": %d,\n"
             "   \"demand\": {\"map\": [2], \"shuffle\": [1], \"reduce\": [%g]}}]}\n",
             pc, reduce);
    return ras_parse(text);
}

static void test_shuffle_growth(void)
{
    /* the reducer goes first (shuffle demand 0), then maps while
     * 2 a + min(a, pc) <= 10: pc 2 -> a = 4 (u = 1); pc 3 -> a = 3, since
     * the fourth map would raise the reducer to 4 (11 > 10) */
    so_problem *p = shuffle_job(2, 1);
    so_result *r = ras_solve(p, "ras", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(cell(r, 0, 0, "maps"), 4);
    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), 1.0, 1e-12);
    so_result_free(r);
    so_problem_free(p);
    p = shuffle_job(3, 1);
    r = ras_solve(p, "ras", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(cell(r, 0, 0, "maps"), 3);
    CU_ASSERT_EQUAL(cell(r, 0, 0, "reduces"), 1);
    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), log(3) / log(4) - 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ras_utilisation(r), 0.9, 1e-12);
    so_result_free(r);
    so_problem_free(p);
}

static void test_profile_switch(void)
{
    /* pc 2: all 4 maps placed, so the map phase ends this cycle: the
     * reducer switches to its reduce profile; 8 + 5 > 10 overloads */
    so_problem *p = shuffle_job(2, 5);
    so_result *r = ras_solve(p, "ras", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    json_t *sw = so_result_extra(r, "profile_switch");
    CU_ASSERT_EQUAL(json_array_size(sw), 1);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(sw, 0)), "job0");
    CU_ASSERT_EQUAL(json_integer_value(so_result_extra(r, "overloaded_after_switch")), 1);
    so_result_free(r);
    so_problem_free(p);
    /* reduce profile 2 fits: 8 + 2 <= 10 */
    p = shuffle_job(2, 2);
    r = ras_solve(p, "ras", NULL);
    CU_ASSERT_EQUAL(json_array_size(so_result_extra(r, "profile_switch")), 1);
    CU_ASSERT_EQUAL(json_integer_value(so_result_extra(r, "overloaded_after_switch")), 0);
    so_result_free(r);
    so_problem_free(p);
    /* pc 3: maps left over, no switch */
    p = shuffle_job(3, 5);
    r = ras_solve(p, "ras", NULL);
    CU_ASSERT_EQUAL(json_array_size(so_result_extra(r, "profile_switch")), 0);
    so_result_free(r);
    so_problem_free(p);
}

static void test_rounds_option(void)
{
    so_problem *p = shuffle_job(2, 1);
    const char *const bad[] = {"rounds=0", "rounds=x", "rounds=-3", "round=2"};
    for (int k = 0; k < 4; k++) {
        so_params prm;
        so_params_init(&prm);
        so_error err;
        so_error_clear(&err);
        CU_ASSERT_EQUAL(so_params_set_kv(&prm, bad[k], &err), SO_OK);
        so_result *r = NULL;
        CU_ASSERT_EQUAL(so_solve(so_backend_find("ras"), p, &prm, &r, &err),
                        SO_EINVAL);
        CU_ASSERT_PTR_NULL(r);
        CU_ASSERT(strstr(err.message, "round") != NULL);
    }
    so_problem_free(p);
}

/* Lexicographic (minimum utility, utilisation) of a result. */
static so_ras_eval eval_of(const so_result *r)
{
    so_ras_eval ev = {1, so_result_objective(r), ras_utilisation(r), 0};
    return ev;
}

static void test_never_beats_exact(void)
{
    const char *const settings[] = {"tasktrackers=3", "jobs=3", "max_maps=4",
                                    "max_reduces=2", "parallel_copies=2",
                                    "tightness=0.8", NULL};
    int reached = 0;
    for (uint64_t i = 0; i < 40; i++) {
        so_problem *p = ras_random_problem(21, i, settings);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        so_result *h = ras_solve(p, "ras", NULL); /* NULL = infeasible */
        so_result *e = ras_solve(p, "ras-glpk", NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(h);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        so_ras_eval a = eval_of(h), b = eval_of(e);
        CU_ASSERT_FALSE(so_ras_better(&a, &b));
        reached += a.min_utility >= b.min_utility - 1e-9;
        so_result_free(h);
        so_result_free(e);
        so_problem_free(p);
    }
    CU_ASSERT(reached > 5);  /* it often finds the optimal minimum ... */
    CU_ASSERT(reached < 40); /* ... but not always */
}

static void test_rounds_monotone(void)
{
    /* more rounds never hurt (a round that does not improve ends the loop
     * with the best placement) and sometimes help */
    const char *const settings[] = {"tasktrackers=8", "jobs=5", "max_maps=12",
                                    "max_reduces=2", "tightness=1", NULL};
    const char *const one[] = {"rounds=1", NULL}, *const two[] = {"rounds=2", NULL};
    int helped = 0;
    for (uint64_t i = 0; i < 40; i++) {
        so_problem *p = ras_random_problem(8, i, settings);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        so_result *r1 = ras_solve(p, "ras", one);
        so_result *r2 = ras_solve(p, "ras", two);
        so_result *r10 = ras_solve(p, "ras", NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r2);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r10);
        CU_ASSERT_EQUAL(json_integer_value(so_result_extra(r1, "rounds_run")), 1);
        json_int_t ran = json_integer_value(so_result_extra(r10, "rounds_run"));
        CU_ASSERT(ran >= 2 && ran <= 10);
        so_ras_eval a = eval_of(r1), b = eval_of(r2), c = eval_of(r10);
        CU_ASSERT_FALSE(so_ras_better(&a, &b));
        CU_ASSERT_FALSE(so_ras_better(&b, &c));
        helped += so_ras_better(&c, &a);
        so_result_free(r1);
        so_result_free(r2);
        so_result_free(r10);
        so_problem_free(p);
    }
    CU_ASSERT(helped > 0);
}

static CU_TestInfo tests[] = {
    {"reducers spread evenly, fewest first", test_reducers_spread},
    {"slots go to the lowest utility", test_min_utility_fill},
    {"room checks the shuffle growth", test_shuffle_growth},
    {"shuffle-to-reduce profile switch", test_profile_switch},
    {"rounds option errors", test_rounds_option},
    {"feasible, never above ras-glpk", test_never_beats_exact},
    {"more rounds never hurt", test_rounds_monotone},
    CU_TEST_INFO_NULL,
};
SO_SUITE("ras-heuristic", tests)
