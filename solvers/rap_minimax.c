/* rap_minimax.c — the minimax RAP by bisection on the threshold (Wolf et
 * al., Middleware 2010, Section 3.2, "Minimax"; SPEC section 1): F_j is
 * non-increasing in s, so for a threshold tau each job needs the least
 * s in [lo_j, M_j] with F_j(s) <= tau (binary search), and tau is feasible
 * when those add up to at most S. Invariant: lo infeasible, hi the value of
 * a feasible allocation; each feasible probe snaps hi down to the value it
 * reaches, and the search ends when no double lies strictly between, so hi
 * is the optimum exactly. Spare slots are left unused (they cannot lower
 * the maximum). */
#include <math.h>
#include <stdio.h>
#include "solvers/rap.h"

/* Least s with F_j(s) <= tau, or -1. */
static int64_t need(const so_flex *f, size_t j, double tau)
{
    int64_t lo = so_rap_lo(f, j), hi = f->max[j];
    if (!(so_rap_cost(f, j, hi) <= tau))
        return -1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (so_rap_cost(f, j, mid) <= tau)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Fills s and returns the value reached, or NAN when tau is infeasible. */
static double probe(const so_flex *f, double tau, int64_t *s)
{
    int64_t used = 0;
    double v = -INFINITY;
    for (size_t j = 0; j < f->n; j++) {
        s[j] = need(f, j, tau);
        if (s[j] < 0)
            return NAN;
        used += s[j];
        if (used > f->slots)
            return NAN;
        v = fmax(v, so_rap_cost(f, j, s[j]));
    }
    return v;
}

int so_rap_minimax(const so_flex *f, int64_t *s, char *why, size_t size)
{
    if (f->aggregate != SO_FLEX_MAX) {
        snprintf(why, size, "rap-minimax needs a max aggregate");
        return SO_EUNSUPPORTED;
    }
    if (!so_rap_feasible(f))
        return SO_INFEASIBLE;
    if (f->n == 0)
        return SO_OK;
    double lo = -INFINITY, hi = -INFINITY;
    for (size_t j = 0; j < f->n; j++) {
        lo = fmax(lo, so_rap_cost(f, j, f->max[j]));
        hi = fmax(hi, so_rap_cost(f, j, so_rap_lo(f, j)));
    }
    if (!isnan(probe(f, lo, s)))
        return SO_OK; /* every job at a level it cannot beat */
    hi = probe(f, hi, s);
    for (;;) {
        double mid = lo + (hi - lo) / 2;
        if (!(mid > lo && mid < hi))
            break;
        double v = probe(f, mid, s);
        if (isnan(v))
            lo = mid;
        else
            hi = v;
    }
    probe(f, hi, s);
    return SO_OK;
}

int so_rap_minimax_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)prm;
    return so_rap_backend(p, r, so_rap_minimax);
}
