/* pareto_frontier.h — a (makespan, budget) frontier of plans, and how every
 * pareto backend reports one (internal). */
#ifndef SO_PARETO_FRONTIER_H
#define SO_PARETO_FRONTIER_H
#include "formulations/pareto.h"
#include "solvers/frontier_quality.h"

typedef struct so_pt_point {
    double makespan, budget;
    so_pt_alloc *plan; /* n_jobs allocations, owned */
} so_pt_point;

typedef struct so_pt_frontier {
    size_t n, cap, n_jobs;
    so_pt_point *pts;
} so_pt_frontier;

void so_pt_frontier_init(so_pt_frontier *f, size_t n_jobs);
void so_pt_frontier_free(so_pt_frontier *f);
/* Adds (makespan, budget, copy of plan) unless a point already in weakly
 * dominates it; drops the points it dominates. 1 added, 0 not, or
 * SO_ENOMEM. */
int so_pt_frontier_offer(so_pt_frontier *f, double makespan, double budget,
                         const so_pt_alloc *plan);
/* Appends without a dominance check (the caller knows it is non-dominated). */
int so_pt_frontier_append(so_pt_frontier *f, double makespan, double budget,
                          const so_pt_alloc *plan);
/* Relative tolerance of "equal" makespans and budgets on a frontier. */
#define SO_PT_REL_TOL 1e-9
/* a <= b up to SO_PT_REL_TOL (relative to 1 + |b|). */
int so_pt_near_le(double a, double b);
/* Drops points over the deadline, over budget_max or under budget_min,
 * sorts by makespan (ascending) and drops the points another one dominates
 * up to SO_PT_REL_TOL in both objectives (of near-equal points, the first
 * in makespan order stays). */
void so_pt_frontier_window(so_pt_frontier *f, const so_pareto *pr);

/* The hypervolume reference point of an instance: (deadline, budget_max)
 * when finite; otherwise the largest makespan of any plan (one slot per
 * phase; the sum of the job times under a VM cap) and the sum over jobs of
 * the largest budget of a job with a full complement of slots per VM. */
so_front_point so_pt_reference_point(const so_pareto *pr);

/* Options every pareto backend takes. */
#define SO_PT_REFERENCE_OPTION                                                \
    {"reference", "none",                                                     \
     "exact backend (pareto-sweep, pareto-enum, pareto-glpk) to compare the"  \
     " frontier with: extras hypervolume_ratio, epsilon, makespan gaps"}

/* Fills the result from a frontier (taken through the window): status
 * (SO_OPTIMAL for exact backends, SO_FEASIBLE for heuristics; SO_INFEASIBLE
 * when empty), objective = hypervolume w.r.t. the reference point,
 * solution = {"reference_point", "points": [{makespan, budget, vms, jobs}]},
 * extras frontier_size and, with --opt reference=NAME, the quality extras. */
int so_pt_report(const so_problem *p, const so_params *prm, so_result *r,
                 so_pt_frontier *f, int exact);

/* Points of a pareto result's solution (caller frees). */
int so_pt_result_points(const so_result *r, so_front_point **pts, size_t *n);
/* The exact frontier for quality comparisons: backend `name` on p with
 * budget_min lifted to 0, then every point's budget raised to budget_min
 * (the frontier clipped to the budget window; docs/pareto.md). */
int so_pt_reference_frontier(const so_problem *p, const char *name,
                             const so_params *prm, so_front_point **pts,
                             size_t *n, so_error *err);
/* The epsilon indicator's scale: per objective, the span from the exact
 * frontier's ideal point to the reference point. */
so_front_point so_pt_epsilon_scale(const so_pareto *pr, const so_front_point *exact,
                                   size_t ne);
/* Quality extras of approx against exact for instance pr into r. */
void so_pt_quality_extras(const so_pareto *pr, const so_front_point *approx,
                          size_t na, const so_front_point *exact, size_t ne,
                          so_result *r);

#endif
