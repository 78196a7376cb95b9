/* rap.h — exact solvers of FLEX's Resource Allocation Problem (internal).
 *
 * Wolf et al. (Middleware 2010), Section 3.2; SPEC section 1. Each solver
 * fills s[n] with an optimal allocation and returns SO_OK, or returns
 * SO_INFEASIBLE (sum of max(m_j, 1) > S), SO_EUNSUPPORTED (metric or
 * aggregate outside the method, or over the size limit of the method; why
 * says so) or SO_ENOMEM (an allocation failed). */
#ifndef SO_SOLVERS_RAP_H
#define SO_SOLVERS_RAP_H
#include "formulations/rap.h"

/* Dynamic programming cells (jobs x (S + 1), 8 bytes each) and work (sum
 * over jobs of (S + 1) x the slot counts where F_j drops) the DP accepts. */
#define SO_RAP_DP_MAX_CELLS 20000000.0
#define SO_RAP_DP_MAX_WORK 4000000000.0

typedef int (*so_rap_fn)(const so_flex *f, int64_t *s, char *why, size_t size);

/* Convex minisum: greedy marginal allocation with a heap, O((J + R) log J)
 * for R = S - sum lo_j. */
int so_rap_greedy(const so_flex *f, int64_t *s, char *why, size_t size);
/* SO_EUNSUPPORTED (with why) unless the metric is convex minisum,
 * SO_INFEASIBLE when the minima do not fit, else SO_OK. */
int so_rap_convex_check(const so_flex *f, const char *solver, char *why,
                        size_t size);
/* Gives up to `spare` more slots, one at a time to the job with the largest
 * positive next gain, among jobs whose next gain is >= floor (heap). */
int so_rap_greedy_fill(const so_flex *f, int64_t *s, int64_t spare,
                       double floor);
/* The same until a deadline on so_now()'s clock (0: none; read every 65536
 * slots): SO_TIMELIMIT, with s feasible (the slots given so far), once it
 * has passed. */
int so_rap_greedy_fill_until(const so_flex *f, int64_t *s, int64_t spare,
                             double floor, double deadline);
/* Convex minisum: bisection on the marginal value, then the greedy on the
 * few slots left between the two last thresholds: O(J log(range)). */
int so_rap_bisect(const so_flex *f, int64_t *s, char *why, size_t size);
/* Any metric, sum or max: DP over jobs and slots used, O(J S^2) at most
 * (O(J S K) for step costs with K steps). */
int so_rap_dp(const so_flex *f, int64_t *s, char *why, size_t size);
/* The same with a deadline (so_now() seconds; <= 0: none): SO_TIMELIMIT
 * with an incumbent in s when it passes. Size refusals: SO_EUNSUPPORTED. */
int so_rap_dp_until(const so_flex *f, int64_t *s, double deadline, char *why,
                    size_t size);
/* Minimax (non-increasing F_j): bisection on the threshold. */
int so_rap_minimax(const so_flex *f, int64_t *s, char *why, size_t size);
/* The method FLEX uses: minimax -> bisection on the threshold; convex
 * minisum -> greedy (few spare slots) or bisection; otherwise the DP. */
int so_rap_solve(const so_flex *f, int64_t *s, char *why, size_t size);

/* Marginal gain F_j(s - 1) - F_j(s) of the s-th slot (s > lo_j). */
double so_rap_gain(const so_flex *f, size_t j, int64_t s);
/* Convex F_j: the largest s in [lo_j, M_j] with s == lo_j or
 * gain(s) >= lambda (lambda > 0). */
int64_t so_rap_count(const so_flex *f, size_t j, double lambda);

/* Runs alg as a backend on a "rap" problem: fills r (status, objective,
 * bound, solution) and returns SO_OK or an error. */
int so_rap_backend(const so_problem *p, so_result *r, so_rap_fn alg);

#endif
