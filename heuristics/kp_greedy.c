/* kp_greedy.c — the ratio greedy for the 0-1 knapsack (Dantzig 1957; the
 * 1/2-approximation form in Martello and Toth, "Knapsack Problems", 1990,
 * section 2.4): take items in non-increasing p/w order whenever they fit,
 * then return the better of that and the most profitable single item.
 * Its value is at least half the optimum. The LP (Dantzig) bound is reported
 * as the bound, so a greedy answer that meets it is reported optimal. */
#include <stdlib.h>
#include <string.h>
#include "formulations/knapsack.h"

int so_kp_greedy_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)prm;
    const so_kp *kp = so_kp_of(p);
    size_t *order = so_kp_order(kp);
    unsigned char *x = calloc(kp->n ? kp->n : 1, 1);
    if (!order || !x) {
        free(order);
        free(x);
        return SO_ENOMEM;
    }
    int64_t room = kp->capacity, value = 0;
    size_t best_single = kp->n;
    for (size_t k = 0; k < kp->n; k++) {
        size_t i = order[k];
        if (kp->weight[i] > kp->capacity)
            continue;
        if (best_single == kp->n || kp->profit[i] > kp->profit[best_single])
            best_single = i;
        if (kp->weight[i] <= room) {
            room -= kp->weight[i];
            value += kp->profit[i];
            x[i] = 1;
        }
    }
    if (best_single < kp->n && kp->profit[best_single] > value) {
        memset(x, 0, kp->n);
        x[best_single] = 1;
        value = kp->profit[best_single];
    }
    int64_t bound = so_kp_dantzig_bound(kp, order);
    so_kp_report(kp, r, value >= bound ? SO_OPTIMAL : SO_FEASIBLE, x, 1, bound);
    free(order);
    free(x);
    return SO_OK;
}
