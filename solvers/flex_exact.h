/* flex_exact.h — the lower bound of flex-exact's branch-and-bound
 * (internal; exposed for tests). */
#ifndef SO_FLEX_EXACT_H
#define SO_FLEX_EXACT_H
#include "formulations/flex.h"

/* Largest instance flex-exact takes (and the bound's assignment size). */
#define SO_FLEX_EXACT_MAX_JOBS 64

/* Lower bound on the objective of every malleable schedule that continues
 * from time T with remaining work rem[j] for the jobs with active[j] != 0,
 * the completed jobs contributing acc (their sum or max of penalties).
 * scratch: at least 4 n + n * n doubles. */
double so_flex_exact_bound(const so_flex *f, double T, const double *rem,
                           const unsigned char *active, double acc,
                           double *scratch);

/* Minimum-cost perfect assignment of an a x a cost matrix (row-major,
 * a <= SO_FLEX_EXACT_MAX_JOBS): the Hungarian method. */
double so_flex_assignment(const double *c, size_t a);

/* The next permutation of a[n] in lexicographic order (0 after the last;
 * flex_enum.c). */
int so_flex_next_permutation(size_t *a, size_t n);

#endif
