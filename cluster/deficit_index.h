/* deficit_index.h — the fair scheduler's assignment layer (FLEX sec. 1:
 * each free slot to the most underallocated job) kept incrementally: jobs ordered by deficit
 * (target - running attempts, ties by job index) in binary heaps, so that a
 * free slot finds its job in O(G + log J) instead of scanning every job.
 *
 * A job's target of a phase is either explicit (set_target) or a water
 * level times its weight (set_level_member; the level set per level id by
 * set_level; the fair scheduler's level ids are its pools, WPBS's its
 * users). Jobs of the second kind live in one heap per (level id, pool,
 * weight) keyed by -running: their order does not depend on the level, so
 * a new level costs O(1), not a pass over the jobs. Jobs with explicit
 * targets live in one heap per pool keyed by target - running.
 *
 * The engine's state changes (launches, ends, kills, jobs joining or leaving
 * a phase list) reach the index through so_cl_dx_touch, which the
 * scheduler calls from its hooks; the heaps are repaired lazily, at the next
 * assignment. A job is offered a slot iff it is in the phase list and has a
 * pending task (or may take a speculative copy: so_cl_may_copy, whose
 * answer changes only with the job's attempts, which touch it), and its
 * pool does not run
 * its maximum of the phase — the rules of the scan over the phase list
 * that this replaced (6f6c0ef's so_cl_assign_by_deficit; suite
 * cluster-fair-old), in the same order, so the same job launches. */
#ifndef SO_CL_DEFICIT_INDEX_H
#define SO_CL_DEFICIT_INDEX_H

#include "cluster/fair_share.h"

typedef struct so_cl_dx so_cl_dx;

/* An index whose level ids are the pools (the fair scheduler's levels). */
so_cl_dx *so_cl_dx_new(const so_cl_sim *sim);
/* An index with level ids 0..n_levels-1 (e.g. WPBS: one level per user). */
so_cl_dx *so_cl_dx_new_levels(const so_cl_sim *sim, int n_levels);
void so_cl_dx_free(so_cl_dx *dx);

/* Job j's target of the phase is `target` (until set again). A job never
 * set has target 0. */
void so_cl_dx_set_target(so_cl_dx *dx, int phase, int j, double target);
/* Job j's target of the phase is the level of level id `lid` times
 * `weight` (> 0). Returns 0, or -1 when out of memory (a new class). */
int so_cl_dx_set_level_member(so_cl_dx *dx, int phase, int j, int lid,
                              double weight);
/* The water level of level id lid of the phase. */
void so_cl_dx_set_level(so_cl_dx *dx, int phase, int lid, double level);
/* Job j's target of the phase as it stands. */
double so_cl_dx_target(const so_cl_dx *dx, int phase, int j);

/* Job j's engine state changed (attempts, pending tasks, phase lists). */
void so_cl_dx_touch(so_cl_dx *dx, int j);
/* The jobs touched since the last call (each once); *n their count. The
 * array is the index's and valid until the next touch. */
const int *so_cl_dx_take_changed(so_cl_dx *dx, int *n);

/* Offers the free slot of `phase` on `node` to the jobs by decreasing
 * deficit (ties: job index) through try_job. Returns 1 if a task was launched, 0 if none, -1 when out of memory. */
int so_cl_dx_assign(so_cl_dx *dx, so_cl_sim *sim, int node, int phase,
                    so_cl_try_fn try_job, void *ctx);

#endif
