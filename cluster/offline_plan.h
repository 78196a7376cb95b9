/*
 * offline_plan.h — a planned placement of every map on a slot and a beat
 * (offline-opt's rule tasks=planned; cluster/offline_plan.c,
 * docs/offline.md, "Planned maps").
 */
#ifndef SO_CL_OFFLINE_PLAN_H
#define SO_CL_OFFLINE_PLAN_H

#include "cluster/offline_bound.h"
#include "cluster/sim_internal.h"

typedef struct so_cl_map_plan {
    int n_nodes;
    int *first;     /* n_nodes + 1: node n's entries are [first[n], first[n + 1]) */
    int *task;      /* map task ids, each node's by planned start */
    int *job;       /* their jobs (a finished job's tasks read as zeros:
                     * cluster/task_store.c) */
    double *start;  /* their planned starts (beats of the node) */
    int *next;      /* per node: its first entry not launched yet */
    int n_jobs;
    int *job_first; /* n_jobs + 1: job j's entries are of_job[job_first[j] ..
                     * job_first[j + 1]) */
    int *of_job;    /* entries, each job's by planned start (ties by entry) */
    int *job_next;  /* per job: its first entry in of_job that may still wait */
    int *live;      /* the jobs that may still have maps waiting, a list by
                     * their first planned start (ties by job): live[n_jobs]
                     * the first, live[j] the one after j, -1 the end */
    so_cl_keyed *heads; /* scratch: the overdue jobs' first waiting maps */
    double *map_end; /* per job: the planned end of its last map (0: no maps) */
    long probes;     /* statistics: launches of overdue maps tried, */
    long packings;   /* packings tried, */
    size_t beats_held; /* and the most beats listed at once */
} so_cl_map_plan;

/* Plans every map of sim's workload: jobs in `order` (n job indices, each
 * once), each job's maps packed onto the map slots after the slots' earlier
 * jobs so that its last map ends as early as the packing finds (the slots'
 * heartbeat phases and the hold of a slot until the first beat after its
 * task's end included). Needs the nodes' heartbeat phases (set once the run
 * has started). Returns SO_OK or SO_ENOMEM. */
int so_cl_map_plan_build(const so_cl_sim *sim, const int *order, int n,
                         so_cl_map_plan *plan);
void so_cl_map_plan_free(so_cl_map_plan *plan);

/* Follows the plan on a free map slot of `node` (scheduler priority's
 * tasks=planned): the node's next planned map once its beat has come (half
 * a beat early or late is the same beat) and its job has arrived; else a
 * map of any node whose beat is more than 1.5 beats past. Returns 1 when a
 * map was launched. */
int so_cl_map_plan_launch(so_cl_map_plan *plan, so_cl_sim *sim, int node);

/* Beats a task of x seconds holds its slot when launched at a beat: the
 * slot is free again at the first beat at or after its end (within 1e-9 of
 * a beat counts as on it), at least the next, at most SO_CL_PLAN_MAX_BEATS
 * (2^36: a job's 10^7 maps add up within 64 bits; a map that long, 2 years
 * at the 10 ms heartbeat, is planned as if it held its slot that long). */
#define SO_CL_PLAN_MAX_BEATS 68719476736LL
long long so_cl_plan_beats(double seconds, double interval);

#endif
