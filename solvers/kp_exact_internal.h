/* kp_exact_internal.h — pieces shared by the exact knapsack code of kp-dp:
 * meet-in-the-middle for small n (kp_mitm.c) and the global upper bounds
 * (kp_card_bound.c). Internal to solvers/. */
#ifndef SO_KP_EXACT_INTERNAL_H
#define SO_KP_EXACT_INTERNAL_H
#include <stdint.h>
#include "formulations/knapsack.h"

/* Largest n that kp_mitm_solve takes (two halves of at most 20 items). */
#define SO_KP_MITM_MAX_N 40

/* Why an exact run stopped early (besides SO_OK = finished). */
enum { SO_KP_STOP_TIME = 1, SO_KP_STOP_MEMORY = 2 };

/* Exact 0-1 knapsack for n <= SO_KP_MITM_MAX_N by meet-in-the-middle
 * (Horowitz and Sahni 1974): x gets an optimal vector and SO_OK, or
 * SO_KP_STOP_TIME when so_now() passed deadline (> 0) first (x then holds
 * the best vector found, at least the empty one), or SO_ENOMEM. */
int so_kp_mitm_solve(const so_kp *kp, double deadline, unsigned char *x);

/* The cardinality limits of one instance kept between the bounds of one
 * kp-dp run (kp_card_bound.c; zero-initialised = empty): kmax once (it
 * does not depend on the incumbent), kmin and whether anything beats z
 * for the last z asked; a call with another z computes kmin again. */
typedef struct {
    int has_max, has_min, improvable;
    int64_t kmax, kmin, z;
} so_kp_card_cache;

/* Upper bound on the optimum that is at least as tight as Dantzig's:
 * the minimum of Dantzig's bound and the surrogate relaxations of the
 * cardinality constraints (kp_card_bound.c). z is the incumbent (the
 * minimum-cardinality constraint is only valid for solutions beating it).
 * search 0: one guessed multiplier per constraint (expected O(n): two
 * selections);
 * 1: a ternary search over the multiplier as well (up to 24 LPs each). */
int64_t so_kp_global_bound(const so_kp *kp, const size_t *order, int64_t z,
                           int search);
/* The same, with the limits from (and into) cache (NULL: none); the
 * bound is the one so_kp_global_bound gives. */
int64_t so_kp_global_bound_cached(const so_kp *kp, const size_t *order,
                                  int64_t z, int search,
                                  so_kp_card_cache *cache);

/* kp-dp's exact run on kp (solvers/kp_dp.c) with the internal deadline
 * (so_now() value, 0 = none) and memory limit (live states): x gets the best vector, *proved 1 when it is
 * optimal. relax 0: no surrogate relaxation (the run inside one). */
int so_kp_dp_exact(const so_kp *kp, double deadline, size_t max_states,
                   int relax, unsigned char *x, int *proved);
/* The same with decoding's own deadline (so_now() value, 0 = none; see
 * kp_dp.c: the DP that completes a partial vector), for tests. */
int so_kp_dp_exact_until(const so_kp *kp, double deadline,
                         double decode_deadline, size_t max_states, int relax,
                         unsigned char *x, int *proved);
/* How many times kp-dp has run its DP on the older core items to complete
 * a partial solution vector (solvers/kp_dp.c, decode), for tests. */
size_t so_kp_dp_decode_runs(void);

/* The surrogate relaxation of the cardinality dichotomy sum x <= b1 or
 * >= b1 + 1, each part solved exactly (kp_surrogate.c): SO_OK and *ub, an
 * upper bound on every solution better than z; non-zero when it gives no
 * bound (not worth it, time, memory). Either way, *zx > z tells that x
 * (original indices) holds a feasible solution of profit *zx found on the
 * way (else *zx = -1 and x may hold anything the caller had). */
int so_kp_surrogate_bound(const so_kp *kp, size_t b1, int64_t z,
                          double deadline, size_t max_states, int64_t *ub,
                          unsigned char *x, int64_t *zx);
/* The same, with the cardinality limits from (and into) cache (NULL:
 * none): kp-dp's run can share them with so_kp_global_bound_cached. */
int so_kp_surrogate_bound_cached(const so_kp *kp, size_t b1, int64_t z,
                                 double deadline, size_t max_states,
                                 int64_t *ub, unsigned char *x, int64_t *zx,
                                 so_kp_card_cache *cache);

/* The surrogate LP of kp_surrogate.c, for tests: its value (in double,
 * -1 when the part is empty) at multiplier s and cardinality k, with
 * *count the items it takes (the break item's fraction included); and
 * the multiplier search (least LP bound on [lo, hi]; an LP below settle
 * stops it), *value its LP bound. */
double so_kp_surrogate_lp(const so_kp *kp, int64_t s, int64_t k,
                          double *count);
int64_t so_kp_surrogate_multiplier(const so_kp *kp, int64_t lo, int64_t hi,
                                   int64_t k, double settle, double *value);

/* Sorts and selection without comparison sorting where they can
 * (kp_sort.c). */
/* idx[0..m) sorted stably by key[idx[i]] ascending; SO_ENOMEM leaves it
 * as it was. */
int so_kp_sort_index_by_i64(size_t *idx, size_t m, const int64_t *key);
/* Selection (v is reordered): the k-th smallest of v[0..n) (k < n); and
 * the most of the smallest values whose sum stays <= budget (values >= 0,
 * or the count is of a prefix of the sorted order all the same). */
int64_t so_kp_select_i64(int64_t *v, size_t n, size_t k);
size_t so_kp_count_within(int64_t *v, size_t n, __int128 budget);
/* The same of src[0..n), left as it is (scratch: n values). */
size_t so_kp_count_within_copy(const int64_t *src, size_t n, __int128 budget,
                               int64_t *scratch);
/* From SO_KP_BAND_MIN_N values on, both (and the LPs of kp_card_bound.c)
 * first sort a sample of SO_KP_SAMPLE values, estimate where the answer
 * lies, and keep only the values within SO_KP_BAND sample places of it
 * (one pass); a miss falls back to the partitions. */
#define SO_KP_BAND_MIN_N 4096
#define SO_KP_SAMPLE 1024
#define SO_KP_BAND 64
/* The samples' places: so_kp_sample_index from this seed. */
#define SO_KP_SAMPLE_SEED 0x2545f4914f6cdd1dULL
/* A pseudo-random index below n (the samples); the radix sort of keys
 * (idx, its payload, may be NULL; tk, ti scratch of n). */
size_t so_kp_sample_index(uint64_t *seed, size_t n);
void so_kp_sort_keys(uint64_t *key, size_t *idx, size_t n, uint64_t *tk,
                     size_t *ti);
/* Cardinality limits of the items (kp_card_bound.c): *kmax the most items
 * a feasible solution holds (smallest weights while they fit), *kmin the
 * fewest whose largest profits exceed z; v: scratch of n values. Returns 0
 * when no solution can exceed z. */
/* For tests: the floor of the LP value of kp with profits p + sign * l
 * (sign +-1; items whose profit is then <= 0 or whose weight is above the
 * capacity left out), as the cardinality bounds evaluate it; -1 when out
 * of memory. */
__int128 so_kp_card_lp(const so_kp *kp, int64_t l, int sign);
int so_kp_card_limits(const so_kp *kp, int64_t z, int64_t *v, int64_t *kmax,
                      int64_t *kmin);
/* The same through cache (NULL: none); v may be NULL (then allocated when
 * needed: -1 when out of memory). */
int so_kp_card_limits_cached(const so_kp *kp, int64_t z, int64_t *v,
                             so_kp_card_cache *cache, int64_t *kmax,
                             int64_t *kmin);
size_t *so_kp_efficiency_order(const so_kp *kp);
/* The radix key of item i (order-preserving bits of -p/w), and the exact
 * sort of a slice: a[0..n) (items, with their keys k) into so_kp_order's
 * order; tk, ta scratch of n. */
uint64_t so_kp_eff_key(const so_kp *kp, size_t i);
uint64_t so_kp_ratio_key(int64_t p, int64_t w); /* the key of p / w */
void so_kp_sort_exact(const so_kp *kp, size_t *a, uint64_t *k, size_t n,
                      uint64_t *tk, size_t *ta);

#endif
