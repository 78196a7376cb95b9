/* test_rap.c — the RAP solvers: a hand-computed example, then every solver
 * against brute force and rap-glpk on random small instances for every
 * metric and aggregate, and bisection against the greedy for large S. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/flex_test_util.h"
#include "solvers/rap.h"

/* S = 10; C = (20, 30, 8), m = (2, 2, 1), M = (6, 10, 4). */
static so_flex *three_jobs(int metric, int aggregate)
{
    so_flex *f = so_flex_new(3, 0);
    f->slots = 10;
    f->metric = metric;
    f->aggregate = aggregate;
    double c[3] = {20, 30, 8};
    int64_t m[3] = {2, 2, 1}, M[3] = {6, 10, 4};
    for (int j = 0; j < 3; j++) {
        f->work[j] = c[j];
        f->min[j] = m[j];
        f->max[j] = M[j];
    }
    return f;
}

static void test_by_hand(void)
{
    /* sum C_j / s_j: gains 5 (job 1), 4 (job 2), 3.33 (job 0), 2.5 (job 1),
     * 1.67 (job 0): (4, 4, 2), 5 + 7.5 + 4 = 16.5 */
    so_flex *f = three_jobs(SO_FLEX_RESPONSE, SO_FLEX_SUM);
    int64_t s[3];
    char why[256];
    so_rap_fn sum_fns[] = {so_rap_greedy, so_rap_bisect, so_rap_dp, so_rap_solve};
    for (size_t k = 0; k < 4; k++) {
        memset(s, 0, sizeof s);
        CU_ASSERT_EQUAL_FATAL(sum_fns[k](f, s, why, sizeof why), SO_OK);
        CU_ASSERT_EQUAL(s[0], 4);
        CU_ASSERT_EQUAL(s[1], 4);
        CU_ASSERT_EQUAL(s[2], 2);
        CU_ASSERT_DOUBLE_EQUAL(so_rap_value(f, s), 16.5, 1e-12);
    }
    CU_ASSERT_EQUAL(so_rap_minimax(f, s, why, sizeof why), SO_EUNSUPPORTED);
    /* makespan: tau = 20/3 needs (3, 5, 2) = 10 slots; below it job 0
     * needs 4 and the total 11 */
    f->aggregate = SO_FLEX_MAX;
    so_rap_fn max_fns[] = {so_rap_minimax, so_rap_dp, so_rap_solve};
    for (size_t k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL_FATAL(max_fns[k](f, s, why, sizeof why), SO_OK);
        CU_ASSERT_DOUBLE_EQUAL(so_rap_value(f, s), 20.0 / 3, 1e-12);
        CU_ASSERT_EQUAL(s[0], 3);
    }
    CU_ASSERT_EQUAL(so_rap_greedy(f, s, why, sizeof why), SO_EUNSUPPORTED);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "convex minisum"));
    /* more jobs than slots once each needs one */
    f->slots = 2;
    f->min[0] = f->min[1] = f->min[2] = 0;
    CU_ASSERT_EQUAL(so_rap_dp(f, s, why, sizeof why), SO_INFEASIBLE);
    CU_ASSERT_EQUAL(so_rap_minimax(f, s, why, sizeof why), SO_INFEASIBLE);
    f->aggregate = SO_FLEX_SUM;
    CU_ASSERT_EQUAL(so_rap_greedy(f, s, why, sizeof why), SO_INFEASIBLE);
    so_flex_free(f);
}

/* Best value over every allocation in [lo_j, M_j] with sum <= S. */
static double brute(const so_flex *f, size_t j, int64_t left, int64_t *s)
{
    if (j == f->n)
        return so_rap_value(f, s);
    double best = INFINITY;
    for (int64_t v = so_rap_lo(f, j); v <= f->max[j] && v <= left; v++) {
        s[j] = v;
        best = fmin(best, brute(f, j + 1, left - v, s));
    }
    return best;
}

/* rap-glpk's value, NAN when it reports the instance infeasible. */
static double glpk(so_flex *f, int feasible)
{
    so_flex *copy = so_flex_copy(f);
    so_problem *p = NULL;
    CU_ASSERT_EQUAL_FATAL(so_rap_problem(copy, "random", &p), SO_OK);
    so_result *r = NULL;
    so_error err;
    so_error_clear(&err);
    int st = so_solve(so_backend_find("rap-glpk"), p, NULL, &r, &err);
    CU_ASSERT_EQUAL(st, feasible ? SO_OPTIMAL : SO_INFEASIBLE);
    double v = r && so_result_has_objective(r) ? so_result_objective(r) : NAN;
    so_result_free(r);
    so_problem_free(p);
    return v;
}

static void test_random_all_metrics(void)
{
    so_rng rng;
    so_rng_seed(&rng, 2026);
    so_rap_fn fns[] = {so_rap_greedy, so_rap_bisect, so_rap_dp, so_rap_minimax, so_rap_solve};
    int checked[5] = {0};
    for (int metric = 0; metric < SO_FLEX_NMETRICS; metric++)
        for (int agg = SO_FLEX_SUM; agg <= SO_FLEX_MAX; agg++)
            for (int it = 0; it < 12; it++) {
                if (metric == SO_FLEX_MAKESPAN && agg == SO_FLEX_SUM)
                    continue;
                size_t n = (size_t)so_rng_int(&rng, 1, 4);
                int64_t S = so_rng_int(&rng, (int64_t)n, 12);
                so_flex *f = so_test_flex_random(&rng, n, S, 2, metric, agg);
                int64_t s[4], t[4];
                double want = brute(f, 0, S, t);
                int feasible = isfinite(want);
                CU_ASSERT_EQUAL(so_rap_feasible(f), feasible);
                double g = glpk(f, feasible);
                if (feasible)
                    CU_ASSERT_DOUBLE_EQUAL(g, want, 1e-6 * (1 + fabs(want)));
                for (size_t k = 0; k < 5; k++) {
                    char why[256] = "";
                    int rc = fns[k](f, s, why, sizeof why);
                    int applies = k == 2 || k == 4 ||
                                  (k == 3 ? agg == SO_FLEX_MAX : so_rap_convex(f));
                    if (!applies) {
                        CU_ASSERT_EQUAL(rc, SO_EUNSUPPORTED);
                        continue;
                    }
                    if (!feasible) {
                        CU_ASSERT_EQUAL(rc, SO_INFEASIBLE);
                        continue;
                    }
                    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
                    int64_t used = 0;
                    for (size_t j = 0; j < n; j++) {
                        CU_ASSERT(s[j] >= so_rap_lo(f, j) && s[j] <= f->max[j]);
                        used += s[j];
                    }
                    CU_ASSERT(used <= S);
                    CU_ASSERT_DOUBLE_EQUAL(so_rap_value(f, s), want,
                                           1e-9 * (1 + fabs(want)));
                    checked[k]++;
                }
                so_flex_free(f);
            }
    for (size_t k = 0; k < 5; k++)
        CU_ASSERT(checked[k] >= 48);
}

static void test_bisect_large(void)
{
    so_rng rng;
    so_rng_seed(&rng, 99);
    int metrics[] = {SO_FLEX_RESPONSE, SO_FLEX_WRESPONSE, SO_FLEX_STRETCH,
                     SO_FLEX_WLATENESS, SO_FLEX_WTARDINESS};
    for (size_t k = 0; k < 5; k++)
        for (int it = 0; it < 3; it++) {
            size_t n = 300;
            so_flex *f = so_test_flex_random(&rng, n, 200000, 50, metrics[k], SO_FLEX_SUM);
            for (size_t j = 0; j < n; j++) {
                f->work[j] *= 1000; /* deadlines matter at this scale */
                f->deadline[j] *= 2;
            }
            int64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
            char why[256];
            CU_ASSERT_EQUAL_FATAL(so_rap_greedy(f, a, why, sizeof why), SO_OK);
            CU_ASSERT_EQUAL_FATAL(so_rap_bisect(f, b, why, sizeof why), SO_OK);
            double va = so_rap_value(f, a), vb = so_rap_value(f, b);
            CU_ASSERT_DOUBLE_EQUAL(va, vb, 1e-9 * (1 + fabs(va)));
            int64_t used = 0;
            for (size_t j = 0; j < n; j++)
                used += b[j];
            CU_ASSERT(used <= f->slots);
            free(a);
            free(b);
            so_flex_free(f);
        }
}

static void test_backends(void)
{
    const char *text = "{\"problem\": \"rap\", \"version\": 1, \"slots\": 10,"
                       " \"metric\": \"response\", \"jobs\": ["
                       " {\"work\": 20, \"min\": 2, \"max\": 6},"
                       " {\"work\": 30, \"min\": 2, \"max\": 10},"
                       " {\"work\": 8, \"min\": 1, \"max\": 4}]}";
    const char *path = so_test_write("rap3.json", text);
    const char *names[] = {"rap", "rap-greedy", "rap-bisect", "rap-dp", "rap-glpk"};
    for (size_t k = 0; k < 5; k++) {
        char cmd[512], *out = NULL;
        snprintf(cmd, sizeof cmd, "solve -b %s %s", names[k], path);
        CU_ASSERT_EQUAL(so_test_run(cmd, &out, NULL), 0);
        json_error_t je;
        json_t *j = json_loads(out ? out : "", 0, &je);
        CU_ASSERT_PTR_NOT_NULL_FATAL(j);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "status")), "optimal");
        CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "objective")), 16.5, 1e-6);
        json_t *s = json_object_get(json_object_get(j, "solution"), "slots");
        CU_ASSERT_EQUAL(json_integer_value(json_array_get(s, 1)), 4);
        json_decref(j);
        free(out);
    }
    char *err = NULL;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "solve -b rap-minimax %s", path);
    CU_ASSERT_EQUAL(so_test_run(cmd, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "max aggregate"));
    free(err);
    /* the RAP's MILP, written by GLPK: 6 + 9 + 4 binaries */
    char lp[512], *model;
    snprintf(lp, sizeof lp, "%s/rap3.lp", so_test_tmpdir());
    snprintf(cmd, sizeof cmd, "export --format lp -o %s %s", lp, path);
    CU_ASSERT_EQUAL(so_test_run(cmd, NULL, NULL), 0);
    model = so_test_slurp(lp);
    CU_ASSERT_PTR_NOT_NULL_FATAL(model);
    CU_ASSERT_PTR_NOT_NULL(strstr(model, "x_1_10"));
    CU_ASSERT_PTR_NOT_NULL(strstr(model, "one_2"));
    CU_ASSERT_PTR_NULL(strstr(model, "x_2_5"));
    free(model);
}

/* The DP refuses an instance over its cell limit at once, with the
 * reason, before it allocates or scans anything of size S (here S = 1e12:
 * one row alone would take 8 TB); FLEX then goes without the RAP order. */
static void test_dp_limit(void)
{
    so_flex *f = so_flex_new(2, 0);
    f->slots = 1000000000000;
    f->metric = SO_FLEX_TARDY;
    for (size_t j = 0; j < 2; j++) {
        f->work[j] = 5;
        f->deadline[j] = 1;
        f->max[j] = f->slots;
    }
    int64_t s[2];
    char why[256] = "";
    CU_ASSERT_EQUAL(so_rap_dp(f, s, why, sizeof why), SO_EUNSUPPORTED);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "exceed the limits"));
    why[0] = '\0';
    CU_ASSERT_EQUAL(so_rap_solve(f, s, why, sizeof why), SO_EUNSUPPORTED);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "exceed the limits"));
    so_flex_free(f);
}

static CU_TestInfo tests[] = {
    {"hand-computed minisum and minimax RAPs", test_by_hand},
    {"every solver = brute force = rap-glpk, every metric", test_random_all_metrics},
    {"bisection = greedy with 200000 slots", test_bisect_large},
    {"rap backends from the command line", test_backends},
    {"rap-dp refuses a huge S at once", test_dp_limit},
    CU_TEST_INFO_NULL,
};
SO_SUITE("rap", tests)
