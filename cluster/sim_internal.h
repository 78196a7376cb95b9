/*
 * sim_internal.h — the engine's state, readable by policies (schedulers and
 * speculation plug-ins). Policies read these fields and act only through
 * so_cl_launch(); the engine never looks inside a policy.
 */
#ifndef SO_CL_SIM_INTERNAL_H
#define SO_CL_SIM_INTERNAL_H

#include "cluster/cluster.h"
#include "cluster/event_heap.h"
#include "cluster/observe.h"
#include <stdint.h>

enum { SO_CL_PENDING = 0, SO_CL_RUNNING = 1, SO_CL_DONE = 2, SO_CL_KILLED = 3 };

/* An attempt's record lives in a pooled slot of sim->attempts while anything
 * refers to it (engine.c, "attempt pool"): from its launch until it has
 * ended, its end hooks have run and it has left its job's launch window;
 * then the slot is reused. An attempt id is its slot; `serial` is its launch
 * number (0, 1, 2, ... over the run: the event log's attempt= and the
 * tie-breaks by launch order). */
typedef struct so_cl_attempt {
    int task, job, node, phase;
    int serial;       /* launch number, unique over the run */
    int pins;         /* engine references left (slot free at 0) */
    int speculative;
    int state;        /* SO_CL_RUNNING, SO_CL_DONE or SO_CL_KILLED */
    int run_index;    /* position in its job's running list */
    int node_index;   /* position in its node's running list */
    double start;     /* launch time */
    double copy_end;  /* reduce: end of the copy phase; < 0 not yet known */
    int waiting;      /* reduce: copy work done, waiting for the last map */
    double scale;     /* work factor: remote_slowdown for a non-local map */
    /* variable rate (rates.c): a map has one segment (its work x scale), a
     * reduce two (copy, then sort + reduce). Work in reference seconds. */
    int seg;          /* 0: map or reduce copy; 1: reduce sort + reduce */
    int chained;      /* reduce whose maps were all done at launch, without
                       * contention: no copy-end event, the second segment
                       * starts at copy_end (projected) */
    double work;      /* work of the current segment */
    double done;      /* work done of it at time `updated` */
    double worked;    /* work done over all segments at `updated` */
    double updated;   /* time of the last update */
    double rate;      /* work per second: speed x share x factor */
    double share;     /* contention factor > 0; 1 without contention, at
                       * most 1 under share, up to profile_headroom under
                       * physical */
    double factor;    /* policy factor (so_cl_set_rate_factor), 1 default */
    double vary;      /* task-time noise as a rate factor (variability.c),
                       * 1 without noise */
    uint64_t live;    /* sequence number of its pending end or copy-end
                       * event (SO_CL_NO_EVENT: none); others are stale */
} so_cl_attempt;

#define SO_CL_NO_EVENT UINT64_MAX

/* Event kinds (engine.c). */
enum { SO_CL_EV_ARRIVE, SO_CL_EV_HEARTBEAT, SO_CL_EV_OOB, SO_CL_EV_COPY_END,
       SO_CL_EV_END, SO_CL_EV_EPOCH, SO_CL_EV_SLOW, SO_CL_EV_KINDS };

/* 24 bytes: one per task of the arrived, unfinished jobs (task_store.c;
 * docs/cluster.md, "Memory"). */
typedef struct so_cl_task {
    double rate;        /* once done: progress rate 1 / duration of the winner */
    int job;
    union {
        int attempt[2]; /* while running: its running attempts (original,
                         * speculative copy) */
        int winner_node;/* once done: the node its winning attempt ran on */
    };
    unsigned char phase;
    unsigned char state;       /* SO_CL_PENDING, SO_CL_RUNNING or SO_CL_DONE */
    unsigned char n_running;   /* running attempts (at most 2) */
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
    /* its attempts of each phase in launch order, hence by start time, from
     * launched[p][oldest[p]] (running, unless oldest[p] == n_launched[p]);
     * later ones may have ended. Neutral statistics for the speculation
     * rules (the oldest running attempt's start, in O(1)). */
    int *launched[SO_CL_PHASES];
    int n_launched[SO_CL_PHASES], cap_launched[SO_CL_PHASES];
    int oldest[SO_CL_PHASES];
    /* progress rates (1 / duration) of its completed tasks */
    double rate_sum[SO_CL_PHASES], rate_sumsq[SO_CL_PHASES];
    int reduces_open;                 /* slow-start reached */
    int in_list[SO_CL_PHASES];
    int prev[SO_CL_PHASES], next[SO_CL_PHASES];
    so_cl_obs obs[SO_CL_PHASES];      /* its completed tasks' durations */
    double start, finish;
    /* locality: per node, a list of entries (map i, replica r) = i * R + r
     * in map order; entries of launched maps are dropped lazily */
    int *local_head, *local_next;
    /* its maps' replica nodes, R per map (uint16_t when the sim's
     * narrow_replicas, else int), from arrival until its maps are done */
    void *replica;
} so_cl_jobrt;

typedef struct so_cl_nodert {
    int free[SO_CL_PHASES];
    int *running; /* running attempt ids */
    int n_running;
    int completed; /* attempts completed on it (LATE's node score) */
    so_cl_obs obs[SO_CL_PHASES]; /* durations of the tasks completed on it */
    double used[SO_CL_MAX_RESOURCES]; /* resources held by its attempts */
    double phase;  /* heartbeats at phase + k * interval */
    long long beat; /* k of the next heartbeat */
    /* transient slow-downs (variability.c): speed factor now (1 normal),
     * whether in a slow spell, the node's spell draws */
    double slow;
    int slowed;
    so_rng spell_rng;
} so_cl_nodert;

struct so_cl_sim {
    const so_cl_workload *w;
    so_cl_config cfg;
    void *sched_state;
    double now;
    double interval, epoch;
    int padding;   /* Hadoop's load-factor padding (engine.c) */
    /* the run's contention model (physics.c: the workload's, or --opt):
     * SO_CL_CONTENTION_*, resources checked at launch, parameters */
    int contention;
    int hard[SO_CL_MAX_RESOURCES];
    so_cl_physics phys;
    /* variability (variability.c): noise_cv 0 and slow_gap 0 are off */
    double noise_cv, noise_sigma, slow_gap, slow_length, slow_speed;
    so_rng noise_rng;
    int runnable[SO_CL_PHASES]; /* tasks not done of arrived jobs (reduces:
                                 * once open) */
    int epoch_armed;
    so_cl_heap heap;
    so_cl_jobrt *jobs;
    /* tasks and done_order are written from their job's arrival and given
     * back (read as zeros) once it finished (task_store.c) */
    so_cl_task *tasks;
    size_t n_tasks;
    int tasks_mapped, done_mapped;
    unsigned char *completions; /* per task: times it completed (must end
                                 * at 1; conservation checks), all run */
    /* the attempt pool: slots [0, n_attempts) ever used, cap_attempts
     * allocated; free_ids[0 .. n_free) the free ones (reused last freed
     * first); n_serial attempts launched so far */
    so_cl_attempt *attempts;
    size_t n_attempts, cap_attempts;
    int *free_ids;
    size_t n_free;
    int n_serial;
    so_cl_nodert *nodes;
    /* each job's completed tasks of phase p in completion order:
     * done_order[jobs[j].first_task[p] + k], k < jobs[j].done[p] (tasks of
     * a job's phase are consecutive, so one array of n_tasks holds all) */
    int *done_order;
    int total_slots[SO_CL_PHASES];
    double total_capacity[SO_CL_MAX_RESOURCES];
    int replicas;  /* R: replicas per map (0: no locality model) */
    int narrow_replicas; /* replica nodes stored in 16 bits (locality.c) */
    so_rng placement;    /* draws each job's placement at its arrival */
    int *rep_scratch;    /* R nodes of one map while drawn */
    int spec_running[SO_CL_PHASES];
    int *pool_running[SO_CL_PHASES]; /* running attempts per pool */
    /* jobs that want slots of a phase (arrived, phase open, not finished),
     * linked in job order */
    int head[SO_CL_PHASES], tail[SO_CL_PHASES];
    int list_len[SO_CL_PHASES];
    int next_arrival, jobs_done;
    int failed; /* out of memory inside an event */
    /* stall.c: the last arrival, attempt start or stop, the option, and
     * why the run failed (empty: out of memory) */
    double last_progress, stall_limit;
    char failure[400];
    int since_progress; /* events popped since the last progress call */
    so_cl_stats stats;
    so_cl_job_result *results;
    /* users (observe.c): user_jobs holds each user's jobs from
     * user_start[u]; its first user_done[u] are the completed ones, in
     * completion order */
    int n_users;
    int *user_of, *user_jobs, *user_start, *user_done;
    /* utilisation series */
    int busy_now[SO_CL_PHASES];
    double series_t;
    double *series[SO_CL_PHASES];
    size_t series_len, series_cap;
};

/* stall.c: 1 (and sim->failure written) when the run can no longer
 * progress; else 0, the test re-armed. Called on a heartbeat once
 * stall_limit seconds passed without progress. */
int so_cl_stall_check(so_cl_sim *s);
/* engine.c: whether node would take a pending task of job j's phase p now
 * (a slot offered, padding included, and room for its demand), whatever
 * the scheduler decides. */
int so_cl_could_launch(const so_cl_sim *s, int j, int node, int p);
/* stall.c: a scheduler that may wait on purpose up to `seconds` (fair's
 * preemption timeouts and locality delay, RAS's cycle; or up to that
 * simulated time: a planned beat) before it launches or kills raises the
 * stall limit to that plus an epoch and a heartbeat interval. */
void so_cl_stall_at_least(so_cl_sim *s, double seconds);

/* Tasks of a job's phase waiting for a slot. */
static inline int so_cl_pending(const so_cl_jobrt *j, int phase)
{
    return j->n_pending[phase];
}

/* The attempt pool (attempt_pool.c): a free slot of sim->attempts (the
 * array may move), -1 when out of memory; drops one pin of an attempt,
 * freeing its slot at none. */
int so_cl_attempt_alloc(so_cl_sim *s);
void so_cl_attempt_release(so_cl_sim *s, int id);

/* Per-task arrays (task_store.c): `bytes` of zeros taking memory only where
 * written (*mapped: an anonymous mapping), freed by so_cl_store_free; the
 * whole pages of elements [first, first + count) given back (zeros again). */
void *so_cl_store_alloc(size_t bytes, int *mapped);
void so_cl_store_free(void *p, size_t bytes, int mapped);
void so_cl_store_release(void *p, size_t elem, size_t first, size_t count,
                         int mapped);

/* Locality (locality.c). Sets the model up; each job's maps' replicas
 * (explicit ones from the workload, the rest uniformly over distinct nodes
 * from rng's stream, drawn in job order) are placed when the job arrives
 * (so_cl_locality_open). */
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

/* Launches pending task `task` (any of its job's, the scheduler's pick; the
 * engine's own pick is so_cl_launch's) on a free slot of its phase on node,
 * as so_cl_launch would. Returns 1 if launched, 0 if the task is not
 * pending or cannot launch there. */
int so_cl_launch_task(so_cl_sim *sim, int task, int node);

/* Kills a running attempt (preemption); its task goes back to pending when
 * no other attempt of it runs. Returns 0, or -1 when out of memory. */
int so_cl_kill(so_cl_sim *sim, int attempt);

/* Progress score in [0, 1] (Hadoop's: a reduce's copy, sort and reduce
 * phases count one third each) and progress rate (score / seconds run). */
double so_cl_progress(const so_cl_sim *sim, const so_cl_attempt *a);
double so_cl_progress_rate(const so_cl_sim *sim, const so_cl_attempt *a);
/* rate[k] = so_cl_progress_rate of attempt ids[k], k < n, all of `job`. */
void so_cl_progress_rates(const so_cl_sim *sim, int job, const int *ids, int n,
                          double *rate);

/* Observed statistics (observe.c). */
int so_cl_users_init(so_cl_sim *sim);
void so_cl_users_free(so_cl_sim *sim);
void so_cl_observe_task(so_cl_sim *sim, const so_cl_attempt *a,
                        double duration);
void so_cl_observe_job(so_cl_sim *sim, int job);

/* Rates (rates.c). Sets up a launched attempt's first segment (work of the
 * segment, rate from the node's speed, no event yet). */
void so_cl_rate_init(so_cl_sim *sim, so_cl_attempt *a, double work);
/* Brings work done up to now (a chained reduce past its copy end moves to
 * its second segment). */
void so_cl_rate_advance(so_cl_sim *sim, so_cl_attempt *a);
/* Pushes the attempt's next end or copy-end event from its rate and work
 * left; the previous one becomes stale. */
void so_cl_rate_schedule(so_cl_sim *sim, int attempt);
/* Starts a reduce's second segment (sort + reduce) now. */
void so_cl_rate_second_segment(so_cl_sim *sim, int attempt);
/* Recomputes the contention shares of a node's attempts (no-op without a
 * contention model), rescheduling those whose rate changed. */
void so_cl_rate_refresh_node(so_cl_sim *sim, int node);
/* The amount of resource r an attempt of phase p holds against a hard
 * limit (a reduce: the larger of its shuffle and reduce demands). */
double so_cl_held_demand(const so_cl_job_spec *spec, int phase, int r);
/* An attempt's current demand of resource r: a map's map demand; a
 * reduce's shuffle demand while it copies (also while its copy work is
 * done and it waits for the last map), then its reduce demand. */
static inline double so_cl_current_demand(const so_cl_sim *s,
                                          const so_cl_attempt *a, int r)
{
    const so_cl_job_spec *spec = s->jobs[a->job].spec;
    if (a->phase == SO_CL_REDUCE && a->seg == 0)
        return spec->shuffle_demand[r];
    return spec->demand[a->phase][r];
}
/* Variability (variability.c): reads noise_cv, slowdown_gap,
 * slowdown_length, slowdown_speed from the options; the rate factor of a
 * launched attempt's noise draw (1 when off); the first spells' events;
 * a node's spell begins or ends. */
int so_cl_variability_setup(so_cl_sim *sim, const so_params *prm, so_error *err);
double so_cl_noise_rate(so_cl_sim *sim);
void so_cl_variability_start(so_cl_sim *sim);
void so_cl_slowdown_event(so_cl_sim *sim, int node);
/* A node's speed factor changed: its attempts' rates follow. */
void so_cl_rate_node_speed(so_cl_sim *sim, int node);
/* Sets a running attempt's contention factor (> 0), rescheduling its end
 * when its rate changes. */
void so_cl_rate_set_share(so_cl_sim *sim, int attempt, double share);
/* Pushes an event; its sequence number, or SO_CL_NO_EVENT when out of
 * memory (sim->failed set). */
uint64_t so_cl_push(so_cl_sim *sim, double time, int kind, int id);

#endif
