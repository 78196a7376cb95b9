/* harness_bound.h — the reference bounds a simulation cell may name instead
 * of a policy: "lower-bound" (each job alone, tools/harness_sim.c) and
 * "lp-bound" (cluster/offline_bound.c, docs/offline.md). */
#ifndef SO_HARNESS_BOUND_H
#define SO_HARNESS_BOUND_H

#include <jansson.h>
#include "cluster/cluster.h"

enum { SO_HBOUND_NONE = 0, SO_HBOUND_ANALYTIC = 1, SO_HBOUND_LP = 2 };
#define SO_HARNESS_LP_BOUND "lp-bound"

/* The SO_HBOUND_* kind a policy spec names, 0 for a scheduler spec. */
int so_harness_bound_kind(const char *spec);

/* lp-bound of w: per-job bounds into resp (n_jobs), the bound on the sum of
 * responses, on the makespan; its parts as extras "bound". */
int so_harness_lp_bound(const so_cl_workload *w, double *resp, double *sum,
                        double *makespan, json_t *extras);

#endif
