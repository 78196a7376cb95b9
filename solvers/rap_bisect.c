/* rap_bisect.c — convex minisum RAP by bisection on the marginal value
 * (Wolf et al., Middleware 2010, Section 3.2 uses Frederickson-Johnson for
 * large S; this is the simpler bisection of the same marginal-value
 * characterisation, Ibaraki and Katoh 1988, Section 4.6): an optimum takes
 * exactly the R = S - sum lo_j largest marginal gains, so find lambda with
 * count(lambda) <= R < count(lambda') for nearby lambda' < lambda, take
 * every slot with gain >= lambda and the best of the rest by the greedy.
 * Bisection runs on a geometric scale while the bracket spans more than a
 * factor 4, then arithmetically; it stops once at most max(1024, J / 16)
 * slots separate the two counts, so the final greedy is short. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "solvers/rap.h"

static int64_t total(const so_flex *f, double lambda)
{
    int64_t c = 0;
    for (size_t j = 0; j < f->n; j++)
        c += so_rap_count(f, j, lambda) - so_rap_lo(f, j);
    return c;
}

int so_rap_bisect(const so_flex *f, int64_t *s, char *why, size_t size)
{
    int rc = so_rap_convex_check(f, "rap-bisect", why, size);
    if (rc)
        return rc;
    int64_t spare = f->slots;
    double gmax = 0;
    for (size_t j = 0; j < f->n; j++) {
        spare -= so_rap_lo(f, j);
        if (so_rap_lo(f, j) < f->max[j])
            gmax = fmax(gmax, so_rap_gain(f, j, so_rap_lo(f, j) + 1));
    }
    double lo = DBL_MIN, hi = gmax * 2.0 + DBL_MIN;
    int64_t c_lo = total(f, lo), c_hi = 0;
    if (c_lo <= spare) {
        hi = lo;
        c_hi = c_lo;
    }
    int64_t close = f->n / 16 > 1024 ? (int64_t)(f->n / 16) : 1024;
    while (c_hi < spare && c_lo - c_hi > close) {
        double mid = hi / lo > 4.0 ? sqrt(lo) * sqrt(hi) : lo + (hi - lo) / 2;
        if (!(mid > lo && mid < hi))
            break;
        int64_t c = total(f, mid);
        if (c <= spare) {
            hi = mid;
            c_hi = c;
        } else {
            lo = mid;
            c_lo = c;
        }
    }
    for (size_t j = 0; j < f->n; j++)
        s[j] = so_rap_count(f, j, hi);
    return so_rap_greedy_fill(f, s, spare - c_hi, lo);
}

int so_rap_bisect_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)prm;
    return so_rap_backend(p, r, so_rap_bisect);
}
