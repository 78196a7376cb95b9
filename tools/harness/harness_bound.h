/* harness_bound.h — the references a simulation cell may name instead of a
 * policy: "lower-bound" (each job alone, tools/harness/harness_sim.c), "lp-bound"
 * (cluster/offline_bound.c) and "offline-opt" (cluster/offline_opt.c);
 * docs/offline.md. */
#ifndef SO_HARNESS_BOUND_H
#define SO_HARNESS_BOUND_H

#include <jansson.h>
#include "cluster/cluster.h"
#include "tools/harness/harness.h"

enum { SO_HBOUND_NONE = 0, SO_HBOUND_ANALYTIC = 1, SO_HBOUND_LP = 2, SO_HBOUND_OPT = 3 };
#define SO_HARNESS_LP_BOUND "lp-bound"
#define SO_HARNESS_OFFLINE_OPT "offline-opt"

/* The SO_HBOUND_* kind a policy spec names, 0 for a scheduler spec. */
int so_harness_bound_kind(const char *spec);

/* A scenario's bounds against its policies (harness_bound.c, "When a
 * bound holds"): SO_EINVAL naming the policy and option when a policy has
 * noise_cv > 0 or sets a workload-changing option the bound does not (or
 * to another value). */
int so_harness_bound_check(const so_hconfig *c, so_error *err);

/* A bound cell's options (the bound's and the input's): SO_EINVAL naming
 * the option for noise_cv > 0, contention or a physical-model parameter
 * (the bound reads the workload's model). */
int so_harness_bound_options(const so_params *prm, const char *bound, so_error *err);

/* lp-bound of w on the runs of the cell's seed (their heartbeat phases):
 * per-job bounds into resp (n_jobs), the bound on the sum of responses, on
 * the makespan; as extras "bound" its parts (sum_job, sum_map, sum_reduce,
 * sum_busy, capacity, waves, prefix_waves, beats, beat_positions),
 * weighted_sum, and with goals "goals" {jobs, met_at_most, tardiness}. */
int so_harness_lp_bound(const so_cl_workload *w, uint64_t seed, double *resp, double *sum,
                        double *makespan, json_t *extras);

/* offline-opt of w (cluster/offline_opt.c) with the cell's seed and time
 * limit (seconds, <= 0: none; the search stops at 80 % of it): the
 * incumbent's responses into resp, its status ("optimal" when it meets
 * lp-bound, else "simulated") into *status, and as extras "offline" the
 * bound, the gap, the order, its reduce rule, the schedules replayed and
 * the command that replays it (with the SWIM reader's keys of prm, the
 * cell's options w was read with). */
int so_harness_offline_opt(const so_cl_workload *w, const so_params *prm, uint64_t seed,
                           double time_limit, double *resp, const char **status,
                           json_t *extras, so_error *err);

#endif
