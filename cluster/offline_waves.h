/*
 * offline_waves.h — slot-wave bounds for lp-bound (cluster/offline_waves.c,
 * docs/offline.md, "The slot waves").
 */
#ifndef SO_CL_OFFLINE_WAVES_H
#define SO_CL_OFFLINE_WAVES_H

/* The largest over q >= 1 with q x slots + 1 <= n of the sum of the q + 1
 * smallest of the q x slots + 1 largest of n ascending holds, given their
 * prefix sums pre[0..n]; 0 when no q fits. */
double so_cl_waves_of(const double *pre, int n, double slots);

/* The prefix waves: P[k - 1] <= the k-th smallest map-phase end (last map
 * done) over m jobs in every schedule, k = 2 .. kmax: the smallest over the
 * k-subsets J of min_J release + so_cl_waves_of(J's holds together) -
 * max_J slack; kmax the largest k whose subsets fit in `budget` merged
 * holds (k = 1 and k > kmax: -inf). holds[i]: job i's n[i] holds,
 * ascending; rel[i] its submit; slack[i] the most a hold of its outlasts
 * its task. Returns 0, or -1 when out of memory (P all -inf). */
int so_cl_prefix_waves(int m, const double *const *holds, const int *n, const double *rel,
                       const double *slack, double slots, double budget, double *P);

#endif
