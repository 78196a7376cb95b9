/*
 * sim_internal.h — the engine's state, readable by policies (schedulers and
 * speculation plug-ins). Policies read these fields and act only through
 * so_cl_launch(); the engine never looks inside a policy.
 */
#ifndef SO_CL_SIM_INTERNAL_H
#define SO_CL_SIM_INTERNAL_H

#include "cluster/cluster.h"
#include "cluster/event_heap.h"

enum { SO_CL_PENDING = 0, SO_CL_RUNNING = 1, SO_CL_DONE = 2, SO_CL_KILLED = 3 };

typedef struct so_cl_attempt {
    int task, job, node, phase;
    int speculative;
    int state;        /* SO_CL_RUNNING, SO_CL_DONE or SO_CL_KILLED */
    int run_index;    /* position in its job's running list */
    int node_index;   /* position in its node's running list */
    double start;     /* launch time */
    double copy_end;  /* reduce: end of the copy phase; < 0 not yet known */
    int waiting;      /* reduce: copy work done, waiting for the last map */
    double scale;     /* work factor: remote_slowdown for a non-local map */
} so_cl_attempt;

typedef struct so_cl_task {
    int job, phase;
    int state;          /* SO_CL_PENDING, SO_CL_RUNNING or SO_CL_DONE */
    int n_running;      /* running attempts */
    int attempt[2];     /* running attempts (original, speculative copy) */
    int completions;    /* times it completed (must end at 1) */
    double rate;        /* once done: progress rate 1 / duration of the winner */
} so_cl_task;

typedef struct so_cl_jobrt {
    const so_cl_job_spec *spec;
    int arrived, finished;
    int first_task[SO_CL_PHASES];     /* its tasks: first_task[p] + i */
    int n[SO_CL_PHASES];
    int n_pending[SO_CL_PHASES];      /* tasks waiting for a slot */
    int next_pending[SO_CL_PHASES];   /* cursor: first task maybe pending */
    int *requeued[SO_CL_PHASES];      /* killed tasks back to pending (stack) */
    int n_requeued[SO_CL_PHASES], cap_requeued[SO_CL_PHASES];
    int done[SO_CL_PHASES];
    int running_tasks[SO_CL_PHASES];  /* tasks with a running attempt */
    int *running[SO_CL_PHASES];       /* running attempt ids */
    int n_running[SO_CL_PHASES], cap_running[SO_CL_PHASES];
    int spec_running[SO_CL_PHASES];
    /* progress rates (1 / duration) of its completed tasks */
    double rate_sum[SO_CL_PHASES], rate_sumsq[SO_CL_PHASES];
    int reduces_open;                 /* slow-start reached */
    int in_list[SO_CL_PHASES];
    int prev[SO_CL_PHASES], next[SO_CL_PHASES];
    double target[SO_CL_PHASES];      /* allocation layer's slots */
    double start, finish;
    /* locality: per node, a list of entries (map i, replica r) = i * R + r
     * in map order; entries of launched maps are dropped lazily */
    int *local_head, *local_next;
} so_cl_jobrt;

typedef struct so_cl_nodert {
    int free[SO_CL_PHASES];
    int *running; /* running attempt ids */
    int n_running;
    int completed; /* attempts completed on it (LATE's node score) */
    double used[SO_CL_MAX_RESOURCES]; /* resources held by its attempts */
    double phase;  /* heartbeats at phase + k * interval */
    long long beat; /* k of the next heartbeat */
} so_cl_nodert;

struct so_cl_sim {
    const so_cl_workload *w;
    so_cl_config cfg;
    void *sched_state;
    double now;
    double interval, epoch;
    int epoch_armed;
    so_cl_heap heap;
    so_cl_jobrt *jobs;
    so_cl_task *tasks;
    size_t n_tasks;
    so_cl_attempt *attempts;
    size_t n_attempts, cap_attempts;
    so_cl_nodert *nodes;
    int total_slots[SO_CL_PHASES];
    double total_capacity[SO_CL_MAX_RESOURCES];
    int replicas;  /* R: replicas per map (0: no locality model) */
    int *replica;  /* R nodes per task (maps only), task-major */
    int spec_running[SO_CL_PHASES];
    /* jobs that want slots of a phase (arrived, phase open, not finished),
     * linked in job order */
    int head[SO_CL_PHASES], tail[SO_CL_PHASES];
    int list_len[SO_CL_PHASES];
    int next_arrival, jobs_done;
    int failed; /* out of memory inside an event */
    so_cl_stats stats;
    so_cl_job_result *results;
    /* utilisation series */
    int busy_now[SO_CL_PHASES];
    double series_t;
    double *series[SO_CL_PHASES];
    size_t series_len, series_cap;
};

/* Tasks of a job's phase waiting for a slot. */
static inline int so_cl_pending(const so_cl_jobrt *j, int phase)
{
    return j->n_pending[phase];
}

/* Locality (locality.c). Places every map's replicas (explicit ones from the
 * workload, the rest uniformly over distinct nodes from rng). */
int so_cl_locality_init(so_cl_sim *sim, so_rng *rng);
/* Builds / frees a job's per-node lists of pending local maps. */
int so_cl_locality_open(so_cl_sim *sim, int job);
void so_cl_locality_close(so_cl_sim *sim, int job);
/* A pending map of job with a replica on node, or -1. */
int so_cl_local_pending(so_cl_sim *sim, int job, int node);
/* Puts a requeued map back at the front of its replicas' lists. */
void so_cl_locality_requeue(so_cl_sim *sim, int task);
/* Whether map task t has a replica on node (always, without a model). */
int so_cl_is_local(const so_cl_sim *sim, int task, int node);

/* Kills a running attempt (preemption); its task goes back to pending when
 * no other attempt of it runs. Returns 0, or -1 when out of memory. */
int so_cl_kill(so_cl_sim *sim, int attempt);

/* Progress score in [0, 1] (Hadoop's: a reduce's copy, sort and reduce
 * phases count one third each) and progress rate (score / seconds run). */
double so_cl_progress(const so_cl_sim *sim, const so_cl_attempt *a);
double so_cl_progress_rate(const so_cl_sim *sim, const so_cl_attempt *a);

#endif
