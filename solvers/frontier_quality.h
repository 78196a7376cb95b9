/* frontier_quality.h — quality of an approximate 2-D Pareto frontier against
 * a reference (exact) one; both objectives minimised. Plain functions on
 * point arrays, for backends, `slotopt solve` and benchmark harnesses. */
#ifndef SO_FRONTIER_QUALITY_H
#define SO_FRONTIER_QUALITY_H
#include <stddef.h>

typedef struct so_front_point {
    double makespan; /* first objective (seconds) */
    double budget;   /* second objective (dollars) */
} so_front_point;

/* Area dominated by pts and bounded by ref: the union of the boxes
 * [p.makespan, ref.makespan] x [p.budget, ref.budget]. Points not strictly
 * better than ref in both objectives add nothing; order and dominated
 * points do not matter. 0 for n = 0; NAN when out of memory. */
double so_frontier_hypervolume(const so_front_point *pts, size_t n,
                               so_front_point ref);

/* hypervolume(approx) / hypervolume(exact) with the same ref; 1 when both
 * are 0, NAN when only the exact one is 0. <= 1 when every approx point is
 * weakly dominated by an exact point. */
double so_frontier_hypervolume_ratio(const so_front_point *approx, size_t na,
                                     const so_front_point *exact, size_t ne,
                                     so_front_point ref);

/* Additive epsilon indicator I(approx, exact): the least eps such that every
 * exact point e has an approx point a with (a.makespan - e.makespan) /
 * scale.makespan <= eps and (a.budget - e.budget) / scale.budget <= eps.
 * 0 is perfect; scale = {1, 1} gives the raw indicator. 0 when ne = 0,
 * INFINITY when na = 0 < ne. */
double so_frontier_epsilon(const so_front_point *approx, size_t na,
                           const so_front_point *exact, size_t ne,
                           so_front_point scale);

/* Makespan gap at each exact point's budget: gaps[i] = (m - e.makespan) /
 * e.makespan where m is the least makespan of an approx point with budget
 * <= exact[i].budget (+ a relative 1e-9), INFINITY when there is none.
 * Negative gaps mean approx beats exact there. */
void so_frontier_makespan_gaps(const so_front_point *approx, size_t na,
                               const so_front_point *exact, size_t ne,
                               double *gaps);

#endif
