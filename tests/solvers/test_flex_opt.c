/* test_flex_opt.c — flex-opt, the optimum over every malleable schedule:
 * equal to brute force (the exact programme of every completion order) on
 * random instances of 2-6 jobs for every metric and 7 for response; never above
 * flex-exact (the best MPS schedule); its schedule passes the evaluator
 * with the reported objective; the Lemma 1 counterexample (makespan 8/3
 * where every MPS order gives 3); the prefix bound never exceeds the best
 * completion of that prefix. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/flex_test_util.h"
#include "solvers/flex_exact.h"
#include "solvers/flex_opt.h"

static so_result *solve(const char *backend, so_flex *f)
{
    so_error err;
    int st;
    so_result *r = so_test_flex_solve(backend, f, &err, &st);
    CU_ASSERT(st == SO_OPTIMAL);
    return r;
}


static int close_to(double a, double b) { return fabs(a - b) <= 1e-6 * (1 + fabs(b)); }


/* min over all n! completion orders of the exact programme; also checks
 * that the bound of every prefix (up to 5 jobs; of length n - 2 for 6) is
 * at most the order's value. */
static double brute_force(so_flex *f)
{
    so_flex_opt_lp ctx;
    char why[200];
    CU_ASSERT_EQUAL_FATAL(so_flex_opt_lp_init(&ctx, f, why, sizeof why), SO_OK);
    size_t n = f->n, perm[8];
    for (size_t j = 0; j < n; j++)
        perm[j] = j;
    double best = INFINITY;
    do {
        double v, b;
        CU_ASSERT_EQUAL(so_flex_opt_solve_prefix(&ctx, perm, n, 1, &v, NULL, NULL), SO_OK);
        if (v < best)
            best = v;
        for (size_t k = n <= 5 ? 0 : n - 2; n >= 2 && n <= 6 && k < n; k++) {
            CU_ASSERT_EQUAL(so_flex_opt_solve_prefix(&ctx, perm, k, 0, &b, NULL, NULL),
                            SO_OK);
            CU_ASSERT(b <= v + 1e-7 * (1 + fabs(v)));
        }
    } while (n > 1 && so_flex_next_permutation(perm, n));
    return best;
}

static void test_equals_brute_force(void)
{
    static const so_test_flex_kind kinds[] = {
        {SO_FLEX_RESPONSE, SO_FLEX_SUM},    {SO_FLEX_WRESPONSE, SO_FLEX_SUM},
        {SO_FLEX_STRETCH, SO_FLEX_SUM},     {SO_FLEX_STRETCH, SO_FLEX_MAX},
        {SO_FLEX_MAKESPAN, SO_FLEX_MAX},    {SO_FLEX_TARDY, SO_FLEX_SUM},
        {SO_FLEX_WTARDY, SO_FLEX_SUM},      {SO_FLEX_TARDINESS, SO_FLEX_SUM},
        {SO_FLEX_WTARDINESS, SO_FLEX_MAX},  {SO_FLEX_LATENESS, SO_FLEX_MAX},
        {SO_FLEX_WLATENESS, SO_FLEX_SUM},   {SO_FLEX_SLA, SO_FLEX_SUM},
        {SO_FLEX_SLA, SO_FLEX_MAX},
    };
    so_rng rng;
    so_rng_seed(&rng, 17);
    int checked = 0, better = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (int it = 0; it < 3; it++) {
            size_t n = it == 2 ? (k == 0 ? 7 : 6) : (size_t)so_rng_int(&rng, 2, 4);
            int64_t S = so_rng_int(&rng, (int64_t)n, 12);
            so_flex *f = so_test_flex_random(&rng, n, S, 2, kinds[k].metric,
                                             kinds[k].aggregate);
            so_result *opt = solve("flex-opt", f), *mps = solve("flex-exact", f);
            double v = so_result_objective(opt), bf = brute_force(f);
            CU_ASSERT(close_to(v, bf));
            if (!close_to(v, bf))
                fprintf(stderr, "metric %d agg %d n %zu: flex-opt %.10g brute %.10g\n",
                        kinds[k].metric, kinds[k].aggregate, n, v, bf);
            CU_ASSERT(v <= so_result_objective(mps) + 1e-9 * (1 + fabs(v)));
            better += v < so_result_objective(mps) - 1e-6 * (1 + fabs(v));
            CU_ASSERT(close_to(so_test_evaluate_result(f, opt, 0), v));
            CU_ASSERT_STRING_EQUAL(json_string_value(so_result_extra(opt, "optimal_over")),
                                   "malleable");
            so_result_free(opt);
            so_result_free(mps);
            so_flex_free(f);
            checked++;
        }
    CU_ASSERT_EQUAL(checked, 39);
    /* Lemma 1 fails on some of these: the malleable optimum is strictly
     * better than every MPS schedule somewhere */
    CU_ASSERT(better > 0);
}

/* S = 3, two jobs of work 4 with M = 2: every MPS order gives makespan 3;
 * (2, 1) then (1, 2) finishes both at 8/3. */
static void test_lemma1_counterexample(void)
{
    so_flex *f = so_test_flex_lemma1();
    so_result *opt = solve("flex-opt", f), *mps = solve("flex-exact", f);
    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(opt), 8.0 / 3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(mps), 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(so_test_evaluate_result(f, opt, 0), 8.0 / 3, 1e-9);
    /* the schedule uses all three slots throughout */
    json_t *iv = json_object_get(so_result_solution(opt), "intervals");
    CU_ASSERT(json_array_size(iv) >= 2);
    for (size_t i = 0; i < json_array_size(iv); i++) {
        json_t *sl = json_object_get(json_array_get(iv, i), "slots");
        CU_ASSERT_EQUAL(json_integer_value(json_array_get(sl, 0)) +
                            json_integer_value(json_array_get(sl, 1)), 3);
    }
    so_result_free(opt);
    so_result_free(mps);
    so_flex_free(f);
}

/* Two jobs, S = 2, response time: the LP of the order (0, 1) by hand.
 * Work 2 and 4, maxima 2, minima 0: job 0 alone on both slots until 1,
 * then job 1 until 3: sum 4; the other order gives 2 + 3 = 5. */
static void test_hand_computed(void)
{
    so_flex *f = so_flex_new(2, 0);
    f->slots = 2;
    f->metric = SO_FLEX_RESPONSE;
    f->aggregate = SO_FLEX_SUM;
    f->work[0] = 2;
    f->work[1] = 4;
    f->max[0] = f->max[1] = 2;
    so_flex_opt_lp ctx;
    char why[200];
    CU_ASSERT_EQUAL_FATAL(so_flex_opt_lp_init(&ctx, f, why, sizeof why), SO_OK);
    size_t a[2] = {0, 1}, b[2] = {1, 0};
    double va, vb, T[2];
    CU_ASSERT_EQUAL(so_flex_opt_solve_prefix(&ctx, a, 2, 1, &va, T, NULL), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(va, 4, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(T[0], 1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(T[1], 3, 1e-9);
    CU_ASSERT_EQUAL(so_flex_opt_solve_prefix(&ctx, b, 2, 1, &vb, NULL, NULL), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(vb, 5, 1e-9);
    /* with minimum 1 for job 1, job 0 gets 1 slot until job 1 ... : order
     * (0, 1): job 0 at 1 slot for 2 s while job 1 holds 1 (work 2 done),
     * then job 1 at 2 slots for 1 s: 2 + 3 = 5 */
    f->min[1] = 1;
    CU_ASSERT_EQUAL(so_flex_opt_solve_prefix(&ctx, a, 2, 1, &va, T, NULL), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(va, 5, 1e-9);
    so_flex_free(f);
}

static void test_refusals(void)
{
    so_flex *f = so_flex_new(2, 0);
    f->slots = 2;
    f->work[0] = 1;
    f->work[1] = 1e12;
    f->max[0] = f->max[1] = 1;
    so_problem *p = NULL;
    CU_ASSERT_EQUAL_FATAL(so_flex_problem(f, "t", &p), SO_OK);
    so_result *r = NULL;
    so_error err;
    so_error_clear(&err);
    CU_ASSERT_EQUAL(so_solve(so_backend_find("flex-opt"), p, NULL, &r, &err),
                    SO_EUNSUPPORTED);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "factor 1e9"));
    so_result_free(r);
    so_problem_free(p);
}

static CU_TestInfo tests[] = {
    {"flex-opt equals brute force over completion orders", test_equals_brute_force},
    {"Lemma 1 counterexample: 8/3 where MPS gives 3", test_lemma1_counterexample},
    {"order LPs by hand", test_hand_computed},
    {"work spread beyond 1e9 refused", test_refusals},
    CU_TEST_INFO_NULL,
};

SO_SUITE("flex-opt", tests)
