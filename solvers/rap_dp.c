/* rap_dp.c — the RAP by dynamic programming (Wolf et al., Middleware 2010,
 * Section 3.2: "a simple dynamic programming algorithm ... O(J S^2)", used
 * for the non-convex tardy-jobs and SLA costs). V_j(k) = best aggregate of
 * jobs 0..j-1 using at most k slots; V_j(k) = min over s in [lo_j, M_j],
 * s <= k, of V_{j-1}(k - s) (+ or max) F_j(s). The same recursion with max
 * in place of + solves the minimax RAP, so this backend takes every metric.
 * Limits: SO_RAP_DP_MAX_CELLS choices stored, SO_RAP_DP_MAX_WORK steps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "solvers/rap.h"

int so_rap_dp(const so_flex *f, int64_t *s, char *why, size_t size)
{
    if (!so_rap_feasible(f))
        return SO_INFEASIBLE;
    int64_t S = f->slots;
    double cells = (double)f->n * (double)(S + 1), work = 0;
    for (size_t j = 0; j < f->n; j++)
        work += (double)(S + 1) * (double)(f->max[j] - so_rap_lo(f, j) + 1);
    if (cells > SO_RAP_DP_MAX_CELLS || work > SO_RAP_DP_MAX_WORK) {
        snprintf(why, size, "rap-dp: %.3g cells and %.3g steps exceed the limits"
                 " (%.3g, %.3g)", cells, work, SO_RAP_DP_MAX_CELLS,
                 SO_RAP_DP_MAX_WORK);
        return SO_ENOMEM;
    }
    int maxagg = f->aggregate == SO_FLEX_MAX;
    double *prev = malloc((size_t)(S + 1) * sizeof *prev);
    double *cur = malloc((size_t)(S + 1) * sizeof *cur);
    int64_t width = 1;
    for (size_t j = 0; j < f->n; j++)
        width = f->max[j] - so_rap_lo(f, j) + 1 > width
                    ? f->max[j] - so_rap_lo(f, j) + 1 : width;
    double *cost = malloc((size_t)width * sizeof *cost);
    int32_t *pick = malloc((f->n ? f->n : 1) * (size_t)(S + 1) * sizeof *pick);
    if (!prev || !cur || !cost || !pick) {
        free(prev);
        free(cur);
        free(cost);
        free(pick);
        return SO_ENOMEM;
    }
    for (int64_t k = 0; k <= S; k++)
        prev[k] = maxagg ? -INFINITY : 0.0;
    for (size_t j = 0; j < f->n; j++) {
        int64_t lo = so_rap_lo(f, j), hi = f->max[j];
        for (int64_t v = lo; v <= hi; v++)
            cost[v - lo] = so_rap_cost(f, j, v);
        int32_t *row = pick + j * (size_t)(S + 1);
        for (int64_t k = 0; k <= S; k++) {
            double best = INFINITY;
            int32_t arg = -1;
            for (int64_t v = lo; v <= hi && v <= k; v++) {
                double x = maxagg ? fmax(prev[k - v], cost[v - lo])
                                  : prev[k - v] + cost[v - lo];
                if (x < best) {
                    best = x;
                    arg = (int32_t)(v - lo);
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
        s[j] = so_rap_lo(f, j) + pick[j * (size_t)(S + 1) + k];
        k -= s[j];
    }
    free(prev);
    free(cur);
    free(cost);
    free(pick);
    return SO_OK;
}

int so_rap_dp_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)prm;
    return so_rap_backend(p, r, so_rap_dp);
}
