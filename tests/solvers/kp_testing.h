/* kp_testing.h — what the knapsack test suites share: the optimum of a
 * small instance by enumerating every subset (n <= 25 or so). */
#ifndef SO_TEST_KP_TESTING_H
#define SO_TEST_KP_TESTING_H
#include <stdint.h>
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

#endif
