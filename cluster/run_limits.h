/* run_limits.h — what a replay may cost before it starts (issue 26): an
 * estimate of the memory a workload takes once read and simulated, and of
 * the events its replay needs, each refused above a limit (internal;
 * docs/cluster.md, "Limits that keep a run finite"). */
#ifndef SO_CL_RUN_LIMITS_H
#define SO_CL_RUN_LIMITS_H

#include "cluster/cluster.h"

/* Defaults: --opt max_memory_mb (or SLOTOPT_MAX_MEMORY_MB), --opt
 * max_events. */
#define SO_CL_DEFAULT_MEMORY_MB 4096
#define SO_CL_DEFAULT_MAX_EVENTS 1e9
/* The highest max_events accepted, as text: for readers that replay only
 * part of a workload (a snapshot up to a time) or leave the bound to each
 * run (bench parses every input once up front). */
#define SO_CL_MAX_EVENTS_CEILING "1e15"

typedef struct so_cl_limits {
    double max_bytes;  /* memory estimate bound, bytes */
    double max_events; /* event estimate bound */
    double epoch;      /* the replay's epoch, seconds (--opt epoch; <= 0
                        * reads as the engine's 0.5) */
} so_cl_limits;

/* The limits from prm (may be NULL) and the environment: max_memory_mb
 * (1 .. 2^30, else SLOTOPT_MAX_MEMORY_MB, else 4096) and max_events
 * (1e3 .. 1e15, default 1e9); a bad value is SO_EINVAL naming its key
 * (SLOTOPT_MAX_MEMORY_MB for a malformed variable), and epoch (a value
 * the engine refuses reads as 0.5). */
int so_cl_limits_read(const so_params *prm, so_cl_limits *lim, so_error *err);

/* Bytes a workload of this shape takes, read and replayed (the workload's
 * task arrays, the engine's tasks, attempts, events and per-node state;
 * measured: 208 bytes per task, 4 per slot). replica_cells = maps x
 * replicas. */
double so_cl_memory_estimate(double nodes, double slots, double jobs,
                             double tasks, double replica_cells);
/* Whether bytes exceeds the limit; if so, writes the sentence that says
 * so into msg: the estimate, what it counts (what), the limit and how to
 * raise it. */
int so_cl_memory_over(const so_cl_limits *lim, double bytes, const char *what,
                      char *msg, size_t size);

/* Why a replay would need many events (so_cl_events_estimate). */
enum { SO_CL_CAUSE_NONE, SO_CL_CAUSE_SPEED, SO_CL_CAUSE_SHARE,
       SO_CL_CAUSE_WORK, SO_CL_CAUSE_BEATS };

typedef struct so_cl_event_estimate {
    double events;    /* busy horizon x (nodes / interval + 1 / epoch) */
    double horizon;   /* busy time, the sum of the busy periods, seconds */
    double longest;   /* the longest one attempt may take */
    double drain;     /* every task's work over the cluster's speed x slots */
    double beats;     /* heartbeats per second: nodes / interval */
    double epochs;    /* epochs per second: 1 / epoch */
    int cause;        /* SO_CL_CAUSE_*: what makes events large */
    /* the longest attempt: task `task` (within its phase) of job `job`
     * (workload order), on node `node`, its work, the node's speed and the
     * worst contention share there (resource `resource`, job
     * `demand_job`'s demand in phase `demand_phase`) */
    int job, phase, task, node, resource, demand_job, demand_phase;
    double work, speed, share;
    int slow_node;    /* the slowest node, when the drain dominates */
} so_cl_event_estimate;

/* Estimates the events of a replay of w (docs/cluster.md): the busy
 * horizon is the longest one attempt may take (the longest task on the
 * slowest node with a slot of its phase, at the worst contention share
 * there: the node's slots full of the largest demand) plus the time to
 * drain all work at the cluster's full speed; idle time between jobs costs
 * no events (nodes skip their beats then). The cause: the heartbeat when
 * Hadoop's interval rule would fit; else the speed or share slowing the
 * dominant term down, or the work itself. */
void so_cl_events_estimate(const so_cl_workload *w, const so_cl_limits *lim,
                           so_cl_event_estimate *e);
/* The sentence for a refused estimate (events, horizon, beats, limit). */
void so_cl_events_message(const so_cl_event_estimate *e, double max_events,
                          char *msg, size_t size);
/* Whether w's estimate (into e) is above lim->max_events; if so, writes
 * the sentence (so_cl_events_message) to msg. Each reader then names its
 * own key for e->cause. */
int so_cl_events_over(const so_cl_workload *w, const so_cl_limits *lim,
                      so_cl_event_estimate *e, char *msg, size_t size);
/* For the trace readers (SWIM, Rumen), whose settings are --opt keys:
 * SO_EINVAL naming heartbeat, slow_speed or (a job's work) the job, at
 * job_line[j] and job_col[j] of the file when given (may be NULL), when
 * the estimate is over the limit. Jobs in file order. */
int so_cl_events_check_trace(const so_cl_workload *w, const so_cl_limits *lim,
                             const char *file, const int *job_line,
                             const int *job_col, so_error *err);

#endif
