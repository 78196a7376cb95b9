/* test_kp_dp_limits.c — kp-dp on the cases issue 18/20 name: subset-sum
 * items near 1e9 (every subset a distinct weight) solved exactly through
 * meet-in-the-middle; the time limit honoured inside long expansions; the
 * max_states memory limit; meet-in-the-middle itself against brute force. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/solvers/kp_testing.h"
#include "solvers/kp_exact_internal.h"
#include "solvers/kp_pair.h"

static so_kp *near_1e9(size_t n, uint64_t seed)
{
    so_rng rng;
    so_rng_seed(&rng, seed);
    so_kp *kp = so_kp_new(n);
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        kp->weight[i] = kp->profit[i] = so_rng_int(&rng, 999000000, 1000000000);
        sum += kp->weight[i];
    }
    kp->capacity = sum / 2 + 123456789; /* no subset fills it exactly */
    return kp;
}

/* The same weights with the capacity inside the range of the n/2-item
 * sums: no cardinality argument settles it (with sum/2 + 123456789 the
 * n/2 largest items are optimal, which the surrogate relaxation of the
 * cardinality constraint proves at once), so the DP must enumerate. */
static so_kp *mid_gap_1e9(size_t n, uint64_t seed)
{
    so_kp *kp = near_1e9(n, seed);
    kp->capacity = (int64_t)(n / 2) * 999500000;
    return kp;
}

static so_result *solve(so_kp *kp, double limit, const char *opt,
                        so_problem **keep)
{
    so_problem *p = NULL;
    CU_ASSERT_EQUAL_FATAL(so_kp_problem(kp, "t", &p), SO_OK);
    so_params prm;
    so_params_init(&prm);
    prm.time_limit = limit;
    if (opt)
        CU_ASSERT_EQUAL_FATAL(so_params_set_kv(&prm, opt, NULL), SO_OK);
    so_result *r = NULL;
    so_error err;
    CU_ASSERT_TRUE_FATAL(so_solve(so_backend_find("kp-dp"), p, &prm, &r, &err) > 0);
    *keep = p;
    return r;
}

/* n = 22: the DP outgrows 2^16 states and hands over to meet-in-the-middle;
 * the optimum equals brute force's. */
static void test_subset_sum_near_1e9_brute(void)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        so_kp *kp = near_1e9(22, seed);
        int64_t opt = so_test_kp_brute_force(kp);
        so_problem *p;
        so_result *r = solve(kp, 0, NULL, &p);
        CU_ASSERT_EQUAL(so_result_status(r), SO_OPTIMAL);
        CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), (double)opt, 0.5);
        so_test_kp_check_solution(so_kp_of(p), r);
        so_result_free(r);
        so_problem_free(p);
    }
}

/* n = 30 and 40 (2^30, 2^40 distinct subset weights): proved optimal, the
 * same optimum as meet-in-the-middle on the halves swapped. */
static void test_subset_sum_near_1e9_40(void)
{
    size_t sizes[] = {30, 40};
    for (int k = 0; k < 2; k++) {
        so_kp *kp = near_1e9(sizes[k], 7);
        so_kp *rev = so_kp_new(sizes[k]);
        for (size_t i = 0; i < sizes[k]; i++) {
            rev->weight[i] = kp->weight[sizes[k] - 1 - i];
            rev->profit[i] = kp->profit[sizes[k] - 1 - i];
        }
        rev->capacity = kp->capacity;
        unsigned char x[40];
        CU_ASSERT_EQUAL_FATAL(so_kp_mitm_solve(rev, 0, x), SO_OK);
        int64_t w, other = so_kp_value(rev, x, &w);
        CU_ASSERT_TRUE(w <= rev->capacity);
        so_kp_free(rev);
        so_problem *p;
        so_result *r = solve(kp, 30, NULL, &p);
        CU_ASSERT_EQUAL(so_result_status(r), SO_OPTIMAL);
        CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), (double)other, 0.5);
        so_test_kp_check_solution(so_kp_of(p), r);
        so_result_free(r);
        so_problem_free(p);
    }
}

/* meet-in-the-middle alone, small random instances of mixed shapes */
static void test_mitm_brute(void)
{
    so_rng rng;
    so_rng_seed(&rng, 18);
    for (int t = 0; t < 300; t++) {
        size_t n = (size_t)so_rng_int(&rng, 0, 14);
        so_kp *kp = so_kp_new(n);
        int64_t R = t % 3 == 0 ? 10 : t % 3 == 1 ? 1000 : 1000000000;
        int64_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            kp->weight[i] = so_rng_int(&rng, 0, R);
            kp->profit[i] = t % 2 ? kp->weight[i] + R / 10 : so_rng_int(&rng, 0, R);
            sum += kp->weight[i];
        }
        kp->capacity = so_rng_int(&rng, 0, sum);
        unsigned char x[16];
        CU_ASSERT_EQUAL_FATAL(so_kp_mitm_solve(kp, 0, x), SO_OK);
        int64_t w, v = so_kp_value(kp, x, &w);
        CU_ASSERT_TRUE(w <= kp->capacity);
        CU_ASSERT_EQUAL(v, so_test_kp_brute_force(kp));
        so_kp_free(kp);
    }
}

/* n = 300 near 1e9: far too many states. The run stops within 10 % or
 * 0.1 s of its limit, with a feasible incumbent and status time limit. On
 * the shared test machine a process may wait for a core for 0.1 s or more,
 * so a late run is retried once: a kp-dp that overshoots fails both. */
static void test_time_limit_honoured(void)
{
    double limits[] = {0.3, 1.0};
    for (int k = 0; k < 2; k++) {
        int on_time = 0;
        for (int attempt = 0; attempt < 2 && !on_time; attempt++) {
            so_problem *p;
            so_result *r = solve(mid_gap_1e9(300, 5), limits[k], NULL, &p);
            CU_ASSERT_EQUAL(so_result_status(r), SO_TIMELIMIT);
            double s = so_result_seconds(r);
            on_time = s <= limits[k] + fmax(0.1 * limits[k], 0.1);
            if (!on_time)
                fprintf(stderr, "kp-dp took %.3f s on a %.1f s limit\n", s,
                        limits[k]);
            CU_ASSERT_TRUE(so_result_objective(r) > 0);
            so_test_kp_check_solution(so_kp_of(p), r);
            so_result_free(r);
            so_problem_free(p);
        }
        CU_ASSERT_TRUE(on_time);
    }
}

/* max_states: stops with the incumbent, status feasible, 'memory limit' */
static void test_memory_limit(void)
{
    so_problem *p;
    so_result *r = solve(mid_gap_1e9(300, 6), 20, "max_states=5000", &p);
    CU_ASSERT_EQUAL(so_result_status(r), SO_FEASIBLE);
    CU_ASSERT_PTR_NOT_NULL(strstr(so_result_message(r), "memory limit"));
    CU_ASSERT_TRUE(so_result_objective(r) > 0);
    so_test_kp_check_solution(so_kp_of(p), r);
    so_result_free(r);
    so_problem_free(p);
    so_params prm;
    so_params_init(&prm);
    CU_ASSERT_EQUAL(so_params_set_kv(&prm, "max_states=1", NULL), SO_OK);
    CU_ASSERT_EQUAL_FATAL(so_kp_problem(near_1e9(10, 1), "t", &p), SO_OK);
    so_error err;
    CU_ASSERT_EQUAL(so_solve(so_backend_find("kp-dp"), p, &prm, &r, &err),
                    SO_EINVAL);
    so_result_free(r);
    so_problem_free(p);
}

/* pairing queries by hand: weights 1..6, profits 10..60, break item 3 */
static void test_pairing_queries(void)
{
    int64_t pw[] = {3, 1, 2, 6, 4, 5}, pp[] = {30, 10, 20, 60, 40, 50};
    kp_pairing *k = so_kp_pair_new(pw, pp, 6, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    int64_t q = 0;
    size_t pos = 99;
    CU_ASSERT_TRUE(so_kp_pair_best_add(k, 5, &q, &pos)); /* weight 5 */
    CU_ASSERT_EQUAL(q, 50);
    CU_ASSERT_EQUAL(pos, 5);
    CU_ASSERT_FALSE(so_kp_pair_best_add(k, 3, &q, &pos));
    CU_ASSERT_TRUE(so_kp_pair_best_remove(k, 2, &q, &pos)); /* weight 2 */
    CU_ASSERT_EQUAL(q, 20);
    CU_ASSERT_EQUAL(pos, 2);
    so_kp_pair_drop(k, 2);
    CU_ASSERT_TRUE(so_kp_pair_best_remove(k, 2, &q, &pos)); /* then 3 */
    CU_ASSERT_EQUAL(q, 30);
    CU_ASSERT_EQUAL(pos, 0);
    CU_ASSERT_FALSE(so_kp_pair_best_remove(k, 4, &q, &pos));
    so_kp_pair_drop(k, 5);
    CU_ASSERT_TRUE(so_kp_pair_best_add(k, 100, &q, &pos));
    CU_ASSERT_EQUAL(q, 60);
    CU_ASSERT_EQUAL(pos, 3);
    so_kp_pair_free(k);
}

/* divisibility: weights all multiples of 3 and profits of 5. With p = w
 * and 50 items in [3, 300] every multiple of 3 up to c is reachable, so the
 * optimum is floor(c / 3) * 3 (the rounded capacity ends the run); and at
 * n = 16 against brute force. */
static void test_divisibility(void)
{
    so_rng rng;
    so_rng_seed(&rng, 3);
    for (int t = 0; t < 20; t++) {
        size_t n = t % 2 ? 50 : 16;
        so_kp *kp = so_kp_new(n);
        int64_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            kp->weight[i] = 3 * so_rng_int(&rng, 1, 100);
            kp->profit[i] = t % 2 ? kp->weight[i] : 5 * so_rng_int(&rng, 1, 100);
            sum += kp->weight[i];
        }
        kp->capacity = sum / 2 - (sum / 2) % 3 + 1;
        int64_t expect = t % 2 ? kp->capacity - 1 : so_test_kp_brute_force(kp);
        so_problem *p;
        so_result *r = solve(kp, 10, NULL, &p);
        CU_ASSERT_EQUAL(so_result_status(r), SO_OPTIMAL);
        CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), (double)expect, 0.5);
        so_test_kp_check_solution(so_kp_of(p), r);
        so_result_free(r);
        so_problem_free(p);
    }
}

static CU_TestInfo tests[] = {
    {"divisibility: gcd of weights and of profits", test_divisibility},
    {"pairing: best single add / remove outside the core", test_pairing_queries},
    {"subset-sum near 1e9, n = 22: optimum of brute force",
     test_subset_sum_near_1e9_brute},
    {"subset-sum near 1e9, n = 30 and 40: proved optimal",
     test_subset_sum_near_1e9_40},
    {"meet-in-the-middle against brute force (300 instances)", test_mitm_brute},
    {"time limit honoured inside long expansions", test_time_limit_honoured},
    {"max_states: memory limit with the incumbent", test_memory_limit},
    CU_TEST_INFO_NULL,
};
SO_SUITE("kp-dp-limits", tests)
