/* test_kp_surrogate.c — the surrogate relaxation of the cardinality
 * dichotomy (solvers/kp_surrogate.c): its bound never cuts off an
 * improving solution (brute force, every dichotomy point b1 and several
 * incumbents), the solutions it hands back are feasible and worth what it
 * says, and kp-dp with and without it agrees on correlated classes where
 * it is used; its LP (selection in place) equals the LP by sorting, and
 * kp-dp equals the DP over capacities on almost strongly correlated
 * instances. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/solvers/kp_testing.h"
#include "formulations/knapsack.h"
#include "solvers/kp_exact_internal.h"

/* random instances of four shapes (uncorrelated, strongly, inverse
 * strongly, similar weights), n = 14 */
static void fill(so_kp *kp, so_rng *rng, int shape)
{
    int64_t sw = 0;
    for (size_t i = 0; i < kp->n; i++) {
        int64_t w = so_rng_int(rng, 1, 100), p;
        switch (shape) {
        case 0: p = so_rng_int(rng, 1, 100); break;
        case 1: p = w + 10; break;
        case 2: p = w; w = p + 10; break;
        default: w = 1000 + so_rng_int(rng, 0, 5); p = so_rng_int(rng, 1, 100);
        }
        kp->weight[i] = w;
        kp->profit[i] = p;
        sw += w;
    }
    kp->capacity = so_rng_int(rng, 0, sw);
}

static void test_bound_against_brute_force(void)
{
    so_rng rng;
    so_rng_seed(&rng, 18);
    int used = 0;
    for (int t = 0; t < 160; t++) {
        so_kp *kp = so_kp_new(14);
        CU_ASSERT_PTR_NOT_NULL_FATAL(kp);
        fill(kp, &rng, t % 4);
        int64_t opt = so_test_kp_brute_force(kp);
        unsigned char x[14];
        const int64_t zs[] = {0, opt / 2, opt - 1, opt};
        for (size_t b1 = 0; b1 <= kp->n; b1++)
            for (int k = 0; k < 4; k++) {
                int64_t z = zs[k], ub = -1, zx = -1;
                int rc = so_kp_surrogate_bound(kp, b1, z, 0, 1000000, &ub, x, &zx);
                if (rc == SO_OK) {
                    used++;
                    CU_ASSERT_TRUE(ub >= z);
                    if (opt > z)
                        CU_ASSERT_TRUE(ub >= opt);
                }
                if (zx > z) {
                    int64_t w = 0;
                    CU_ASSERT_EQUAL(so_kp_value(kp, x, &w), zx);
                    CU_ASSERT_TRUE(w <= kp->capacity);
                    CU_ASSERT_TRUE(zx <= opt);
                }
            }
        so_kp_free(kp);
    }
    CU_ASSERT_TRUE(used > 100); /* the relaxation was really exercised */
}

static so_kp *generated(const char *cls, int n, uint64_t index)
{
    so_params set;
    so_params_init(&set);
    char buf[32];
    snprintf(buf, sizeof buf, "%d", n);
    so_params_set(&set, "n", buf);
    so_params_set(&set, "R", "1000");
    so_params_set(&set, "class", cls);
    json_t *inst = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_family_generate(so_family_find("knapsack"), &set,
                                             18, index, &inst, &err), SO_OK);
    json_t *p = json_object_get(inst, "profits"), *w = json_object_get(inst, "weights");
    so_kp *kp = so_kp_new(json_array_size(p));
    CU_ASSERT_PTR_NOT_NULL_FATAL(kp);
    for (size_t i = 0; i < kp->n; i++) {
        kp->profit[i] = json_integer_value(json_array_get(p, i));
        kp->weight[i] = json_integer_value(json_array_get(w, i));
    }
    kp->capacity = json_integer_value(json_object_get(inst, "capacity"));
    json_decref(inst);
    return kp;
}

/* kp-dp with the relaxation (it starts once 2000 states are live) and
 * without: same optimum, feasible vectors worth it */
static void test_dp_with_and_without(void)
{
    static const char *const cls[] = {"almost-strongly", "strongly",
                                      "inverse-strongly", "similar-weights",
                                      "weakly"};
    for (int c = 0; c < 5; c++)
        for (uint64_t i = 0; i < 2; i++) {
            so_kp *kp = generated(cls[c], 2000, i);
            unsigned char *x = malloc(kp->n), *y = malloc(kp->n);
            int px = 0, py = 0;
            CU_ASSERT_EQUAL(so_kp_dp_exact(kp, 0, 8000000, 1, x, &px), SO_OK);
            CU_ASSERT_EQUAL(so_kp_dp_exact(kp, 0, 8000000, 0, y, &py), SO_OK);
            CU_ASSERT_TRUE(px && py);
            int64_t wx = 0, wy = 0;
            int64_t zx = so_kp_value(kp, x, &wx), zy = so_kp_value(kp, y, &wy);
            CU_ASSERT_EQUAL(zx, zy);
            CU_ASSERT_TRUE(wx <= kp->capacity && wy <= kp->capacity);
            free(x);
            free(y);
            so_kp_free(kp);
        }
}

/* The surrogate LP by a full sort (exact cross products): items with
 * positive profit and weight <= c; those with w + s <= 0 taken outright,
 * the others by p / (w + s) descending, the break item's fraction. */
static double lp_by_sort(const so_kp *kp, int64_t s, int64_t k, double *count)
{
    size_t n = kp->n, m = 0;
    size_t *ix = malloc((n + 1) * sizeof *ix);
    double room = (double)kp->capacity + (double)s * (double)k, acc = 0;
    double taken = 0;
    for (size_t i = 0; i < n; i++) {
        if (kp->profit[i] <= 0 || kp->weight[i] > kp->capacity)
            continue;
        if (kp->weight[i] + s <= 0) {
            acc += (double)kp->profit[i];
            room -= (double)(kp->weight[i] + s);
            taken++;
        } else {
            ix[m++] = i;
        }
    }
    for (size_t a = 1; a < m; a++) /* insertion sort, ratio descending */
        for (size_t b = a; b > 0; b--) {
            size_t u = ix[b - 1], v = ix[b];
            if ((__int128)kp->profit[u] * (kp->weight[v] + s) >=
                (__int128)kp->profit[v] * (kp->weight[u] + s))
                break;
            ix[b - 1] = v;
            ix[b] = u;
        }
    *count = taken;
    double v = acc;
    if (room < 0) {
        v = -1;
    } else {
        size_t j = 0;
        for (; j < m && (double)(kp->weight[ix[j]] + s) <= room; j++) {
            room -= (double)(kp->weight[ix[j]] + s);
            v += (double)kp->profit[ix[j]];
            taken++;
        }
        *count = taken;
        if (j < m) {
            double w = (double)(kp->weight[ix[j]] + s);
            v += room * (double)kp->profit[ix[j]] / w;
            *count = taken + room / w;
        }
    }
    free(ix);
    return v;
}

/* the multiplier search's LP (selection by partitions, in place, its
 * order kept between calls) equals the sorted LP: ties, zero weights and
 * profits, items heavier than c, multipliers of both signs; the count it
 * takes too where the ratios are distinct (wide random coefficients) */
static void test_lp_against_sort(void)
{
    so_rng rng;
    so_rng_seed(&rng, 30);
    for (int t = 0; t < 400; t++) {
        size_t n = (size_t)so_rng_int(&rng, 0, 300);
        int wide = t % 3 == 0;
        int64_t R = wide ? (int64_t)1 << 30 : t % 3 == 1 ? 6 : 200;
        so_kp *kp = so_kp_new(n);
        CU_ASSERT_PTR_NOT_NULL_FATAL(kp);
        int64_t sw = 0, maxw = 1;
        for (size_t i = 0; i < n; i++) {
            kp->weight[i] = so_rng_int(&rng, wide ? 1 : 0, R);
            kp->profit[i] = t % 4 == 1 ? kp->weight[i] + R / 10
                                       : so_rng_int(&rng, wide ? 1 : 0, R);
            sw += kp->weight[i];
            maxw = kp->weight[i] > maxw ? kp->weight[i] : maxw;
        }
        kp->capacity = so_rng_int(&rng, 0, sw + 1);
        for (int q = 0; q < 6; q++) {
            int64_t s = so_rng_int(&rng, -maxw - 1, maxw + 1);
            int64_t k = so_rng_int(&rng, 0, (int64_t)n);
            double c1 = 0, c2 = 0;
            double v1 = so_kp_surrogate_lp(kp, s, k, &c1);
            double v2 = lp_by_sort(kp, s, k, &c2);
            CU_ASSERT_DOUBLE_EQUAL(v1, v2, 1e-9 * (1 + fabs(v2)));
            if (wide)
                CU_ASSERT_DOUBLE_EQUAL(c1, c2, 1e-6);
        }
        so_kp_free(kp);
    }
}

/* kp-dp on almost strongly correlated instances (where the surrogate
 * relaxation and its multiplier search run) equals the DP over
 * capacities: n = 1000, R = 1000 */
static void test_almost_strongly_by_capacity(void)
{
    for (uint64_t i = 0; i < 4; i++) {
        so_kp *kp = generated("almost-strongly", 1000, i);
        so_test_kp_dp_equals(kp, so_test_kp_by_capacity(kp));
        so_kp_free(kp);
    }
}

/* the radix sorts give exactly what the comparison sorts give: ties, zero
 * weights and profits, coefficients near 2^60 (doubles merge them) */
static void test_radix_sorts(void)
{
    so_rng rng;
    so_rng_seed(&rng, 7);
    for (int t = 0; t < 60; t++) {
        size_t n = (size_t)so_rng_int(&rng, 0, 3000);
        so_kp *kp = so_kp_new(n);
        int64_t R = t % 3 == 0 ? 5 : t % 3 == 1 ? 1000 : (int64_t)1 << 50;
        for (size_t i = 0; i < n; i++) {
            kp->weight[i] = so_rng_int(&rng, t % 4 == 0 ? 0 : 1, R);
            kp->profit[i] = t % 5 == 0 ? kp->weight[i] + R / 7
                                       : so_rng_int(&rng, 0, R);
        }
        size_t *a = so_kp_order(kp), *b = so_kp_efficiency_order(kp);
        CU_ASSERT_TRUE_FATAL(a && b);
        CU_ASSERT_EQUAL(memcmp(a, b, n * sizeof *a), 0);
        int64_t *v = malloc((n + 1) * sizeof *v);
        size_t *idx = malloc((n + 1) * sizeof *idx);
        for (size_t i = 0; i < n; i++) {
            v[i] = kp->profit[i] - (t % 2 ? kp->weight[i] : 0) - R / 3;
            idx[i] = i;
        }
        CU_ASSERT_EQUAL(so_kp_sort_index_by_i64(idx, n, v), SO_OK);
        int sorted = 1, stable = 1, perm = 1;
        unsigned char *seen = calloc(n + 1, 1);
        for (size_t i = 0; i < n; i++) {
            sorted &= i == 0 || v[idx[i - 1]] <= v[idx[i]];
            stable &= i == 0 || v[idx[i - 1]] < v[idx[i]] || idx[i - 1] < idx[i];
            perm &= idx[i] < n && !seen[idx[i]];
            if (idx[i] < n)
                seen[idx[i]] = 1;
        }
        CU_ASSERT_TRUE(sorted);
        CU_ASSERT_TRUE(stable);
        CU_ASSERT_TRUE(perm);
        free(seen);
        free(idx);
        free(a);
        free(b);
        free(v);
        so_kp_free(kp);
    }
}

static CU_TestInfo tests[] = {
    {"radix sorts equal the comparison sorts (order, index sort)", test_radix_sorts},
    {"surrogate bound >= brute-force optimum, every b1 and incumbent",
     test_bound_against_brute_force},
    {"kp-dp with and without the surrogate agree (5 classes, n = 2000)",
     test_dp_with_and_without},
    {"surrogate LP by selection = by sorting", test_lp_against_sort},
    {"kp-dp = capacity DP, almost strongly correlated n = 1000",
     test_almost_strongly_by_capacity},
    CU_TEST_INFO_NULL,
};
SO_SUITE("kp-surrogate", tests)
