/* export_plan.h — per-pool shares (tools/export/hadoop_conf.h) from a Pareto plan
 * or a FLEX allocation, and the choice of a plan on a frontier
 * (docs/hadoop-export.md). */
#ifndef SO_EXPORT_PLAN_H
#define SO_EXPORT_PLAN_H
#include <jansson.h>
#include "tools/export/hadoop_conf.h"

/* Picks a point of a Pareto result's "points" (ascending makespan): with
 * budget >= 0 the fastest point costing at most budget; else the cheapest
 * point finishing within deadline (INFINITY: the cheapest point). Both
 * compare with a relative 1e-9 slack. -1 when no point qualifies. */
long so_plan_select(const json_t *points, double budget, double deadline);

typedef struct so_plan_choice {
    double budget;      /* < 0: choose by deadline */
    double deadline;    /* INFINITY: the instance's, if any */
    int64_t container_mb;
    int64_t am_mb;      /* YARN: an ApplicationMaster per pool (one job); 0: none */
    int64_t alloc_mb;   /* YARN's allocation step (so_hc_shares.alloc_mb) */
} so_plan_choice;

/* Shares from a result JSON of `slotopt solve` (problem "pareto": the chosen
 * point, one pool per job, minMaps = maxMaps = map_slots, minReduces =
 * maxReduces = reduce_slots, weight = map + reduce slots, cluster = the
 * plan's slots; problem "flex": solution.allocation, minima = maxima = the
 * job's slots for maps and for reduces, weight 1, cluster = twice the
 * instance's S or the allocation's sum); every pool runs one job, so
 * one ApplicationMaster of c->am_mb. p (may be NULL) is the instance:
 * pool names from its job names ("job<i>" otherwise) and the default
 * deadline. *chosen (may be NULL) gets the plan's index (-1 for flex).
 * Free out->pools with free(). */
int so_export_shares(const json_t *result, const so_problem *p,
                     const so_plan_choice *c, so_hc_shares *out, long *chosen,
                     so_error *err);

#endif
