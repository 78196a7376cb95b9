/*
 * harness_timeline.h — a simulation cell's timeline (internal to the slotopt
 * program and its tests): running map and reduce tasks per job, per user
 * (application) and over the whole cluster every `step` simulated seconds,
 * and RAS's utility per job and control cycle, read from the run's event
 * log (the RAS paper's Figs. 4-6; docs/harness.md, "Timelines").
 */
#ifndef SO_HARNESS_TIMELINE_H
#define SO_HARNESS_TIMELINE_H
#include <jansson.h>
#include "cluster/cluster.h"

/* A utility below this (RAS's -inf: maps pending and none placed) is
 * stored as this, so that the figure can draw it. */
#define SO_HTIMELINE_UTILITY_FLOOR (-3.0)

/* The timeline of the event log text (len bytes) that a run of workload w
 * wrote, sampled every step seconds (> 0) from 0 to the last event:
 *   {"step": S, "points": N,
 *    "all":   {"maps": [..], "reduces": [..], "tasks": [..], "per_node": [..]},
 *    "users": {USER: {"maps", "reduces", "tasks"}},
 *    "jobs":  {NAME: {"maps", "reduces", "tasks"[, "utility"]}}}
 * Entry i of each array is the value at time i x S, after the events up to
 * it; "utility" (only when the log has RAS control cycles) is the job's
 * utility in the last cycle at or before that time, null when the job was
 * not in it. *out owned by the caller. SO_EINVAL when the log names a job
 * or task the workload does not have. */
int so_htimeline_read(const so_cl_workload *w, const char *log, size_t len, double step,
                      json_t **out);

/* Calls fn(ctx, member, time, value) for each sample of field in a cell's
 * extras "timeline": per user (by "user"), per job (by "job_name") or of
 * the whole cluster (by "": member "all"); nulls skipped. Stops at and
 * returns fn's first non-zero return. */
int so_htimeline_each(json_t *extras, const char *by, const char *field,
                      int (*fn)(void *ctx, const char *member, double time, double value),
                      void *ctx);

#endif
