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
 * SO_RAP_DP_MAX_WORK transitions; an instance over them is refused at once
 * as SO_EUNSUPPORTED ("exceed the limits"), not as a memory failure.
 * Time limit (not in the paper): the clock is read every
 * SO_RAP_DP_CLOCK_STEPS transitions inside the row loop; when the limit
 * has passed the DP stops and returns its incumbent, the minima lo_j plus
 * the spare slots given greedily by largest marginal gain (at most 1e6 of
 * them, so the stop stays prompt), status "time limit". */
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

/* The incumbent on a time limit: lo_j, then spare slots by largest gain. */
static int incumbent(const so_flex *f, int64_t *s)
{
    int64_t spare = f->slots;
    for (size_t j = 0; j < f->n; j++) {
        s[j] = so_rap_lo(f, j);
        spare -= s[j];
    }
    if (spare > 1000000)
        spare = 1000000;
    /* F_j does not increase with s: a slot given never hurts, sum or max */
    return spare > 0 ? so_rap_greedy_fill(f, s, spare, -INFINITY) : SO_OK;
}

#define SO_RAP_DP_CLOCK_STEPS 65536.0

int so_rap_dp(const so_flex *f, int64_t *s, char *why, size_t size)
{
    return so_rap_dp_until(f, s, 0, why, size);
}

int so_rap_dp_until(const so_flex *f, int64_t *s, double deadline, char *why,
                    size_t size)
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
        return SO_EUNSUPPORTED;
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
    double steps = 0; /* transitions since the clock was last read */
    int timed_out = 0;
    for (size_t j = 0; j < f->n && !timed_out; j++) {
        size_t nc = candidates(f, j, val, cost);
        int64_t *row = pick + j * (size_t)(S + 1);
        for (int64_t k = 0; k <= S; k++) {
            steps += (double)nc + 1;
            if (deadline > 0 && steps >= SO_RAP_DP_CLOCK_STEPS) {
                steps = 0;
                if (so_now() >= deadline) {
                    timed_out = 1;
                    break;
                }
            }
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
    free(prev);
    free(cur);
    free(val);
    free(cost);
    if (timed_out) {
        free(pick);
        snprintf(why, size, "rap-dp: time limit reached; the minima plus"
                 " greedily given slots returned");
        int rc = incumbent(f, s);
        return rc ? rc : SO_TIMELIMIT;
    }
    int64_t k = S;
    for (size_t j = f->n; j-- > 0;) {
        s[j] = pick[j * (size_t)(S + 1) + k];
        k -= s[j];
    }
    free(pick);
    return SO_OK;
}

int so_rap_dp_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    const so_flex *f = so_flex_of(p);
    double deadline = prm && prm->time_limit > 0 ? so_now() + prm->time_limit : 0;
    int64_t *s = malloc((f->n ? f->n : 1) * sizeof *s);
    if (!s)
        return SO_ENOMEM;
    char why[256] = "";
    int rc = so_rap_dp_until(f, s, deadline, why, sizeof why);
    if (rc == SO_OK || rc == SO_TIMELIMIT)
        rc = so_rap_report(f, r, rc == SO_OK ? SO_OPTIMAL : SO_TIMELIMIT, s);
    else if (rc == SO_INFEASIBLE)
        rc = so_rap_report(f, r, SO_INFEASIBLE, NULL);
    if (why[0])
        so_result_set_message(r, "%s", why);
    free(s);
    return rc;
}
