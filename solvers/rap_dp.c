/* rap_dp.c — the RAP by dynamic programming (Wolf et al., Middleware 2010,
 * Section 3.2: "a simple dynamic programming algorithm ... O(J S^2)", used
 * for the non-convex tardy-jobs and SLA costs). V_j(k) = best aggregate of
 * jobs 0..j-1 using at most k slots; V_j(k) = min over s in [lo_j, M_j],
 * s <= k, of V_{j-1}(k - s) (+ or max) F_j(s). The same recursion with max
 * in place of + solves the minimax RAP, so this backend takes every metric.
 * Only the slot counts where F_j strictly drops (and lo_j) are tried: one
 * more slot that changes nothing is never needed, so for the step costs
 * (tardy jobs, SLA) the work is O(J S K) for K steps per job instead of
 * O(J S^2). Limits: SO_RAP_DP_MAX_CELLS choices stored,
 * SO_RAP_DP_MAX_WORK transitions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "solvers/rap.h"

/* Slot counts where F_j strictly drops, from lo_j, and their costs. */
static size_t candidates(const so_flex *f, size_t j, int64_t *val, double *cost)
{
    size_t k = 0;
    for (int64_t v = so_rap_lo(f, j); v <= f->max[j]; v++) {
        double c = so_rap_cost(f, j, v);
        if (k == 0 || c < cost[k - 1]) {
            val[k] = v;
            cost[k++] = c;
        }
    }
    return k;
}

int so_rap_dp(const so_flex *f, int64_t *s, char *why, size_t size)
{
    if (!so_rap_feasible(f))
        return SO_INFEASIBLE;
    int64_t S = f->slots, width = 1;
    for (size_t j = 0; j < f->n; j++)
        if (f->max[j] - so_rap_lo(f, j) + 1 > width)
            width = f->max[j] - so_rap_lo(f, j) + 1;
    /* the cell limit first: it bounds S, hence the scans and rows below */
    double cells = (double)f->n * (double)(S + 1), work = 0;
    int over = cells > SO_RAP_DP_MAX_CELLS;
    int64_t *val = over ? NULL : malloc((size_t)width * sizeof *val);
    double *cost = over ? NULL : malloc((size_t)width * sizeof *cost);
    for (size_t j = 0; val && cost && j < f->n; j++)
        work += (double)(S + 1) * (double)candidates(f, j, val, cost);
    if (over || (val && cost && work > SO_RAP_DP_MAX_WORK)) {
        snprintf(why, size, "rap-dp: %.3g %s exceed the limits (%.3g cells,"
                 " %.3g steps)", over ? cells : work, over ? "cells" : "steps",
                 SO_RAP_DP_MAX_CELLS, SO_RAP_DP_MAX_WORK);
        free(val);
        free(cost);
        return SO_ENOMEM;
    }
    int maxagg = f->aggregate == SO_FLEX_MAX;
    double *prev = malloc((size_t)(S + 1) * sizeof *prev);
    double *cur = malloc((size_t)(S + 1) * sizeof *cur);
    int64_t *pick = val && cost ? malloc((f->n ? f->n : 1) * (size_t)(S + 1) * sizeof *pick)
                                : NULL;
    if (!prev || !cur || !val || !cost || !pick) {
        free(prev);
        free(cur);
        free(val);
        free(cost);
        free(pick);
        return SO_ENOMEM;
    }
    for (int64_t k = 0; k <= S; k++)
        prev[k] = maxagg ? -INFINITY : 0.0;
    for (size_t j = 0; j < f->n; j++) {
        size_t nc = candidates(f, j, val, cost);
        int64_t *row = pick + j * (size_t)(S + 1);
        for (int64_t k = 0; k <= S; k++) {
            double best = INFINITY;
            int64_t arg = 0;
            for (size_t c = 0; c < nc && val[c] <= k; c++) {
                double x = maxagg ? fmax(prev[k - val[c]], cost[c])
                                  : prev[k - val[c]] + cost[c];
                if (x < best) {
                    best = x;
                    arg = val[c];
                }
            }
            cur[k] = best;
            row[k] = arg;
        }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    int64_t k = S;
    for (size_t j = f->n; j-- > 0;) {
        s[j] = pick[j * (size_t)(S + 1) + k];
        k -= s[j];
    }
    free(prev);
    free(cur);
    free(val);
    free(cost);
    free(pick);
    return SO_OK;
}

int so_rap_dp_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)prm;
    return so_rap_backend(p, r, so_rap_dp);
}
