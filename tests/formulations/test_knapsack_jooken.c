/* test_knapsack_jooken.c — Jooken's text format (detected by content,
 * equal to the same instance in Pisinger's format and in JSON) and the
 * knapsack-jooken family: its group layout by hand, reproducibility,
 * parameter errors, and kp-dp / kp-bnb / brute force agreeing on it;
 * kp-dp's optimum on a point of the benchmark grid (n = 400) equal to the
 * capacity-indexed DP's; and
 * the knapsack family's similar-weights class honouring R.
 * The located errors are in tests/corpus/knapsack/jooken-*. */
#include <stdio.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/solvers/kp_testing.h"
#include "formulations/knapsack.h"

static so_problem *parse(const char *text)
{
    so_problem *p = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_problem_parse(text, "t", &p, &err), SO_OK);
    return p;
}

static void test_format(void)
{
    so_problem *j = parse("3\n0 5 4\n1 6 5\n2 3 2\n10\n");
    so_problem *q = parse("3 10\n5 4\n6 5\n3 2\n");
    so_problem *o = parse("3\r\n1 5 4\r\n2 6 5\r\n3 3 2\r\n10\r\n"); /* ids from 1 */
    const so_kp *a = so_kp_of(j), *b = so_kp_of(q), *c = so_kp_of(o);
    CU_ASSERT_EQUAL_FATAL(a->n, 3);
    CU_ASSERT_EQUAL(c->n, 3);
    CU_ASSERT_EQUAL(a->capacity, 10);
    CU_ASSERT_EQUAL(c->capacity, 10);
    for (size_t i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(a->profit[i], b->profit[i]);
        CU_ASSERT_EQUAL(a->weight[i], b->weight[i]);
        CU_ASSERT_EQUAL(c->profit[i], b->profit[i]);
        CU_ASSERT_EQUAL(c->weight[i], b->weight[i]);
    }
    CU_ASSERT_EQUAL(a->profit[1], 6);
    CU_ASSERT_EQUAL(a->weight[2], 2);
    so_problem_free(j);
    so_problem_free(q);
    so_problem_free(o);
    /* capacities of 1e10 as in the published set */
    j = parse("1\n0 5100000036 5100000014\n10000000000\n");
    CU_ASSERT_EQUAL(so_kp_of(j)->capacity, 10000000000LL);
    CU_ASSERT_EQUAL(so_kp_of(j)->profit[0], 5100000036LL);
    so_problem_free(j);
    so_error err;
    so_problem *p = NULL;
    CU_ASSERT_EQUAL(so_problem_parse("2\n0 5 4\n1 6 5\n", "t", &p, &err), SO_EINVAL);
    CU_ASSERT_EQUAL(err.line, 4);
    CU_ASSERT_STRING_EQUAL(err.key, "capacity");
}

static json_t *gen(const char *kv[], uint64_t index)
{
    so_params set;
    so_params_init(&set);
    for (int k = 0; kv[k]; k += 2)
        so_params_set(&set, kv[k], kv[k + 1]);
    json_t *j = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_family_generate(so_family_find("knapsack-jooken"),
                                             &set, 18, index, &j, &err), SO_OK);
    return j;
}

/* n = 20, g = 3, f = 0.2, c = 1000, eps = 0.01, s = 5: items 0-7 near
 * 1000/2 + 10, 8-15 near 1000/4 + 10, 16-19 small, capacity 1000. */
static void test_family_layout(void)
{
    const char *kv[] = {"n", "20", "g", "3", "f", "0.2", "c", "1000",
                        "eps", "0.01", "s", "5", NULL};
    json_t *j = gen(kv, 0), *again = gen(kv, 0);
    CU_ASSERT_TRUE(json_equal(j, again));
    so_problem *p = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_problem_from_json(j, "t", &p, &err), SO_OK);
    const so_kp *kp = so_kp_of(p);
    CU_ASSERT_EQUAL_FATAL(kp->n, 20);
    CU_ASSERT_EQUAL(kp->capacity, 1000);
    for (size_t i = 0; i < 20; i++) {
        int64_t lo = i < 8 ? 511 : i < 16 ? 261 : 1, hi = lo + 4;
        CU_ASSERT_TRUE(kp->profit[i] >= lo && kp->profit[i] <= hi);
        CU_ASSERT_TRUE(kp->weight[i] >= lo && kp->weight[i] <= hi);
    }
    so_problem_free(p);
    json_decref(j);
    json_decref(again);
    const char *bad[] = {"g", "0", NULL};
    so_params set;
    so_params_init(&set);
    so_params_set(&set, bad[0], bad[1]);
    json_t *out = NULL;
    CU_ASSERT_EQUAL(so_family_generate(so_family_find("knapsack-jooken"), &set,
                                       1, 0, &out, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "g");
    so_params_set(&set, "g", "2"); /* 1e6 items near 5e14: sums past 2^61 */
    so_params_set(&set, "n", "1000000");
    so_params_set(&set, "c", "1000000000000000");
    CU_ASSERT_EQUAL(so_family_generate(so_family_find("knapsack-jooken"), &set,
                                       1, 0, &out, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "c");
}

static double solve(const char *backend, const so_problem *p)
{
    so_params prm;
    so_params_init(&prm);
    prm.time_limit = 20;
    so_result *r = NULL;
    so_error err;
    CU_ASSERT_TRUE_FATAL(so_solve(so_backend_find(backend), p, &prm, &r, &err) > 0);
    CU_ASSERT_EQUAL(so_result_status(r), SO_OPTIMAL);
    double z = so_result_objective(r);
    so_result_free(r);
    return z;
}

/* brute force at n = 16; kp-dp and kp-bnb at n = 16 and 60 */
static void test_family_agreement(void)
{
    const char *gs[] = {"1", "2", "4", "6"};
    const char *cs[] = {"1000", "1000000", "10000000000"};
    for (int gi = 0; gi < 4; gi++)
        for (int ci = 0; ci < 3; ci++)
            for (int n = 16; n <= 60; n += 44) {
                char nb[16];
                snprintf(nb, sizeof nb, "%d", n);
                const char *kv[] = {"n", nb, "g", gs[gi], "c", cs[ci], NULL};
                json_t *j = gen(kv, (uint64_t)(gi * 3 + ci));
                so_problem *p = NULL;
                so_error err;
                CU_ASSERT_EQUAL_FATAL(so_problem_from_json(j, "t", &p, &err), SO_OK);
                double dp = solve("kp-dp", p);
                if (n == 16)
                    CU_ASSERT_DOUBLE_EQUAL(dp, (double)so_test_kp_brute_force(so_kp_of(p)), 0.5);
                if (n == 16 || gi < 2)
                    CU_ASSERT_DOUBLE_EQUAL(dp, solve("kp-bnb", p), 0.5);
                so_problem_free(p);
                json_decref(j);
            }
}

/* A point of the benchmark's Jooken grid (docs/BENCHMARKS.md, `slotopt
 * gen knapsack-jooken --seed 2030 --set n=400 --set c=1000000 --set g=6
 * --set f=0.2 --set eps=0.00001 --set s=300`): kp-dp merges about 15 M
 * states and compacts its deviation records many times; its optimum must
 * be the capacity DP's (987,986, also combo's), its items worth it. */
static void test_grid_point_optimum(void)
{
    const char *const kv[] = {"n", "400", "c", "1000000", "g", "6", "f", "0.2",
                              "eps", "0.00001", "s", "300", NULL};
    so_problem *p = so_test_kp_generate("knapsack-jooken", kv, 2030, 0);
    const so_kp *kp = so_kp_of(p);
    int64_t z = so_test_kp_by_capacity(kp);
    CU_ASSERT_EQUAL(z, 987986);
    so_params prm;
    so_params_init(&prm);
    prm.time_limit = 60;
    so_result *r = NULL;
    so_error err;
    CU_ASSERT_TRUE_FATAL(so_solve(so_backend_find("kp-dp"), p, &prm, &r, &err) > 0);
    CU_ASSERT_EQUAL(so_result_status(r), SO_OPTIMAL);
    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), (double)z, 0.5);
    so_test_kp_check_solution(kp, r);
    so_result_free(r);
    so_problem_free(p);
}

/* the knapsack family's similar-weights class honours R: weights in
 * [100 R, 100 R + R/10], profits in [1, R] (R = 1000: Pisinger's
 * [100000, 100100] and [1, 1000]); too large a total is refused */
static void test_similar_weights_range(void)
{
    const long long Rs[] = {1000, 1000000};
    for (int k = 0; k < 2; k++) {
        char r[32];
        snprintf(r, sizeof r, "%lld", Rs[k]);
        const char *const kv[] = {"n", "500", "R", r, "class", "similar-weights",
                                  NULL};
        so_problem *p = so_test_kp_generate("knapsack", kv, 5, 0);
        const so_kp *kp = so_kp_of(p);
        int64_t wmin = INT64_MAX, wmax = 0, pmax = 0;
        for (size_t i = 0; i < kp->n; i++) {
            wmin = kp->weight[i] < wmin ? kp->weight[i] : wmin;
            wmax = kp->weight[i] > wmax ? kp->weight[i] : wmax;
            pmax = kp->profit[i] > pmax ? kp->profit[i] : pmax;
            CU_ASSERT_TRUE(kp->profit[i] >= 1);
        }
        CU_ASSERT_TRUE(wmin >= 100 * Rs[k] && wmax <= 100 * Rs[k] + Rs[k] / 10);
        CU_ASSERT_TRUE(wmax - wmin > Rs[k] / 20); /* spread over the range */
        CU_ASSERT_TRUE(pmax <= Rs[k] && pmax > Rs[k] / 2);
        so_problem_free(p);
    }
    so_params set;
    so_params_init(&set);
    so_params_set(&set, "n", "100000000");
    so_params_set(&set, "R", "1000000000");
    so_params_set(&set, "class", "similar-weights");
    json_t *j = NULL;
    so_error err;
    CU_ASSERT_EQUAL(so_family_generate(so_family_find("knapsack"), &set, 5, 0,
                                       &j, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "R");
}

static CU_TestInfo tests[] = {
    {"knapsack similar-weights honours R", test_similar_weights_range},
    {"Jooken's format equals Pisinger's; ids from 0 or 1; 1e10", test_format},
    {"knapsack-jooken: group layout, reproducible, parameter errors",
     test_family_layout},
    {"knapsack-jooken: kp-dp = kp-bnb = brute force", test_family_agreement},
    {"knapsack-jooken: a grid point, kp-dp = capacity DP", test_grid_point_optimum},
    CU_TEST_INFO_NULL,
};
SO_SUITE("knapsack-jooken", tests)
