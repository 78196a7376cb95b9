/* frontier_quality.c — 2-D hypervolume (Zitzler and Thiele 1998, the
 * S-metric), the additive epsilon indicator (Zitzler et al. 2003, "Performance
 * assessment of multiobjective optimizers", IEEE TEC 7(2), section V) and the
 * makespan gap at a budget, for minimised (makespan, budget) pairs.
 * The hypervolume sorts by makespan and sums horizontal slabs of the
 * staircase: O(n log n). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "solvers/frontier_quality.h"

static int by_makespan(const void *x, const void *y)
{
    const so_front_point *a = x, *b = y;
    if (a->makespan != b->makespan)
        return a->makespan < b->makespan ? -1 : 1;
    return (a->budget > b->budget) - (a->budget < b->budget);
}

double so_frontier_hypervolume(const so_front_point *pts, size_t n,
                               so_front_point ref)
{
    if (n == 0)
        return 0;
    so_front_point *s = malloc(n * sizeof *s);
    if (!s)
        return NAN;
    memcpy(s, pts, n * sizeof *s);
    qsort(s, n, sizeof *s, by_makespan);
    double area = 0, best = ref.budget;
    for (size_t i = 0; i < n; i++)
        if (s[i].makespan < ref.makespan && s[i].budget < best) {
            area += (ref.makespan - s[i].makespan) * (best - s[i].budget);
            best = s[i].budget;
        }
    free(s);
    return area;
}

double so_frontier_hypervolume_ratio(const so_front_point *approx, size_t na,
                                     const so_front_point *exact, size_t ne,
                                     so_front_point ref)
{
    double he = so_frontier_hypervolume(exact, ne, ref);
    double ha = so_frontier_hypervolume(approx, na, ref);
    if (he == 0)
        return ha == 0 ? 1.0 : NAN;
    return ha / he;
}

double so_frontier_epsilon(const so_front_point *approx, size_t na,
                           const so_front_point *exact, size_t ne,
                           so_front_point scale)
{
    double eps = ne ? -INFINITY : 0;
    for (size_t i = 0; i < ne; i++) {
        double best = INFINITY;
        for (size_t k = 0; k < na; k++) {
            double dt = (approx[k].makespan - exact[i].makespan) / scale.makespan;
            double db = (approx[k].budget - exact[i].budget) / scale.budget;
            best = fmin(best, fmax(dt, db));
        }
        eps = fmax(eps, best);
    }
    return eps;
}

void so_frontier_makespan_gaps(const so_front_point *approx, size_t na,
                               const so_front_point *exact, size_t ne,
                               double *gaps)
{
    for (size_t i = 0; i < ne; i++) {
        double limit = exact[i].budget + 1e-9 * fabs(exact[i].budget);
        double m = INFINITY;
        for (size_t k = 0; k < na; k++)
            if (approx[k].budget <= limit)
                m = fmin(m, approx[k].makespan);
        gaps[i] = isinf(m) ? INFINITY
                           : (m - exact[i].makespan) / exact[i].makespan;
    }
}
