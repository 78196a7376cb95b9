/* kp_testing.h — what the knapsack test suites share: the optimum of a
 * small instance by enumerating every subset (n <= 25 or so), the check
 * of a result's items, and an instance of a family. */
#ifndef SO_TEST_KP_TESTING_H
#define SO_TEST_KP_TESTING_H
#include <math.h>
#include <stdint.h>
#include "slotopt.h"
#include "formulations/knapsack.h"

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
