/* kp_testing.h — what the knapsack test suites share: the optimum of a
 * small instance by enumerating every subset (n <= 25 or so) or by the
 * textbook DP over capacities (c up to a few million), kp-dp's exact run
 * against a reference optimum, the check of a result's items, and an
 * instance of a family. */
#ifndef SO_TEST_KP_TESTING_H
#define SO_TEST_KP_TESTING_H
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "slotopt.h"
#include "formulations/knapsack.h"
#include "solvers/kp_exact_internal.h"

static inline int64_t so_test_kp_brute_force(const so_kp *kp)
{
    int64_t best = 0;
    for (uint32_t mask = 0; mask < (1u << kp->n); mask++) {
        int64_t w = 0, p = 0;
        for (size_t i = 0; i < kp->n; i++)
            if (mask >> i & 1) {
                w += kp->weight[i];
                p += kp->profit[i];
            }
        if (w <= kp->capacity && p > best)
            best = p;
    }
    return best;
}

/* The optimum by the DP over capacities, O(n c) time and O(c) memory:
 * independent of kp-dp's states, bounds and records; -1 when out of
 * memory. */
static inline int64_t so_test_kp_by_capacity(const so_kp *kp)
{
    size_t c = (size_t)kp->capacity;
    int64_t *best = calloc(c + 1, sizeof *best);
    if (!best)
        return -1;
    for (size_t i = 0; i < kp->n; i++) {
        size_t w = (size_t)kp->weight[i];
        if (kp->profit[i] <= 0 || w > c)
            continue;
        for (size_t r = c; r >= w; r--) {
            if (best[r - w] + kp->profit[i] > best[r])
                best[r] = best[r - w] + kp->profit[i];
            if (r == 0)
                break;
        }
    }
    int64_t z = best[c];
    free(best);
    return z;
}

/* kp-dp's exact run on kp (relaxations on, no limit) proves, its vector
 * fits and is worth z, the reference optimum (CUnit assertions: include
 * after tests/test_util.h). */
static inline void so_test_kp_dp_equals(const so_kp *kp, int64_t z)
{
    unsigned char *x = malloc(kp->n + 1);
    int proved = 0;
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_EQUAL(so_kp_dp_exact(kp, 0, 8000000, 1, x, &proved), SO_OK);
    CU_ASSERT_TRUE(proved);
    int64_t w = 0;
    CU_ASSERT_EQUAL(so_kp_value(kp, x, &w), z);
    CU_ASSERT_TRUE(w <= kp->capacity);
    free(x);
}

/* The result's items (solution.items) are valid indices, fit, and are
 * worth the reported objective (CUnit assertions: include after
 * tests/test_util.h). */
static inline void so_test_kp_check_solution(const so_kp *kp, const so_result *r)
{
    json_t *items = json_object_get(so_result_solution(r), "items");
    CU_ASSERT_TRUE_FATAL(json_is_array(items));
    int64_t w = 0, p = 0;
    size_t k;
    json_t *v;
    json_array_foreach(items, k, v) {
        json_int_t i = json_integer_value(v);
        CU_ASSERT_TRUE_FATAL(i >= 0 && (size_t)i < kp->n);
        w += kp->weight[i];
        p += kp->profit[i];
    }
    CU_ASSERT_TRUE(w <= kp->capacity);
    CU_ASSERT_DOUBLE_EQUAL((double)p / so_kp_scale(kp), so_result_objective(r),
                           1e-9 * (1 + fabs((double)p)));
}

/* Instance `index` of family (seed) with the settings kv = {key, value,
 * ..., NULL}, as a problem (CUnit assertions, as above). */
static inline so_problem *so_test_kp_generate(const char *family,
                                              const char *const kv[],
                                              uint64_t seed, uint64_t index)
{
    so_params set;
    so_params_init(&set);
    for (int k = 0; kv[k]; k += 2)
        so_params_set(&set, kv[k], kv[k + 1]);
    json_t *j = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_family_generate(so_family_find(family), &set,
                                             seed, index, &j, &err), SO_OK);
    so_problem *p = NULL;
    CU_ASSERT_EQUAL_FATAL(so_problem_from_json(j, "t", &p, &err), SO_OK);
    json_decref(j);
    return p;
}

#endif
