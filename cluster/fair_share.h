/* fair_share.h — the allocation and assignment layers of Hadoop's fair
 * scheduler, shared by the schedulers that reuse them (fair, and an
 * allocation layer such as FLEX that hands its slot counts to the same
 * assignment layer). */
#ifndef SO_CL_FAIR_SHARE_H
#define SO_CL_FAIR_SHARE_H

#include "cluster/sim_internal.h"

/* The waterline: share_i = min(d_i, max(m_i', r * w_i)) with m_i' =
 * min(m_i, d_i) and r such that sum share_i = min(slots, sum d_i). When the
 * minima m_i' exceed that total they are scaled down to it. weight[i] > 0. */
void so_cl_waterline(int n, const double *weight, const double *min_share,
                     const double *demand, double slots, double *share);
/* A scheduler's way to offer the slot to a job (plain launch, delay
 * scheduling): try(ctx, sim, job, node, phase) returns 1 if it launched.
 * The assignment layer (deficit_index.h) offers through such a function. */
typedef int (*so_cl_try_fn)(void *ctx, so_cl_sim *sim, int job, int node,
                            int phase);
/* The plain way: so_cl_launch (ctx unused). */
int so_cl_try_launch(void *ctx, so_cl_sim *sim, int job, int node, int phase);

/* Runnable tasks of a job in a phase (pending + running): its demand. */
int so_cl_demand(const so_cl_jobrt *job, int phase);
/* A pool's maximum of the phase, or `value` when lower or when it has none. */
double so_cl_pool_cap(const so_cl_workload *w, int pool, int phase,
                      double value);

#endif
