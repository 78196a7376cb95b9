/*
 * cluster.h — the lightweight cluster model (internal API of libslotopt).
 *
 * A discrete-event MapReduce simulator: nodes with map and reduce slots and a
 * speed factor, jobs of map and reduce tasks, task attempts, TaskTracker
 * heartbeats, and two plug-in points that the engine knows nothing about:
 *   - a scheduler (so_cl_scheduler): an allocation layer called once per
 *     epoch and an assignment call for each free slot at a heartbeat;
 *   - a speculation policy (so_cl_speculation): asked for a running task to
 *     copy when a job the scheduler chose has no pending task left.
 * Time in seconds; task work in seconds on a node of speed 1; indices 0-based.
 * docs/cluster.md describes the model, the formats and every constant.
 */
#ifndef SO_CLUSTER_H
#define SO_CLUSTER_H

#include <stdio.h>
#include "slotopt.h"

enum { SO_CL_MAP = 0, SO_CL_REDUCE = 1, SO_CL_PHASES = 2 };
#define SO_CL_MAX_RESOURCES 4 /* named resources (cpu, memory, ...) */

/* ---- workload ------------------------------------------------------------ */
/* Resource contention models (docs/cluster.md, "Resource contention"). */
enum { SO_CL_CONTENTION_NONE = 0, SO_CL_CONTENTION_SHARE = 1,
       SO_CL_CONTENTION_PHYSICAL = 2 };
/* Kinds of resource of the "physical" model (cluster/physics.h); -1: from
 * the resource's name. */
enum { SO_CL_KIND_AUTO = -1, SO_CL_KIND_OTHER = 0, SO_CL_KIND_CPU = 1,
       SO_CL_KIND_DISK = 2, SO_CL_KIND_MEMORY = 3 };

/* Parameters of the "physical" contention model (docs/cluster.md,
 * "Resource contention"; every one also an --opt key of the same name). */
typedef struct so_cl_physics {
    int kind[SO_CL_MAX_RESOURCES];
    double cpu_cores;          /* cores per node: one task thread uses <= 1 */
    double cpu_latency_ms;     /* CFS sched_latency (all runnable tasks once) */
    double cpu_granularity_ms; /* CFS min_granularity (shortest slice) */
    double cpu_switch_us;      /* cost of a context switch, cache refill included */
    double disk_seek_ms;       /* seek + rotation when the disk switches stream */
    double disk_slice_ms;      /* CFQ slice_sync: a stream's turn */
    double disk_target_ms;     /* CFQ target_latency (0: slices not scaled) */
    double swap_penalty;       /* slow-down per unit of swapped-out fraction */
    double profile_headroom;   /* largest speed-up over the profile (>= 1) */
} so_cl_physics;

/* NULL-terminated names of the parameters (JSON keys of
 * cluster.contention under "physical", and --opt keys; cluster/physics.c). */
extern const char *const so_cl_physics_params[];

typedef struct so_cl_node_spec {
    int slots[SO_CL_PHASES]; /* map and reduce slots */
    double speed;            /* work per second; 1 = reference node */
    double capacity[SO_CL_MAX_RESOURCES]; /* of each workload resource */
} so_cl_node_spec;

typedef struct so_cl_pool_spec {
    char name[64];
    double weight;                /* > 0 */
    int min_share[SO_CL_PHASES];  /* minimum map / reduce slots */
    int fifo;                     /* 1: FIFO among its jobs, 0: fair */
    int max_share[SO_CL_PHASES];  /* maximum map / reduce slots; -1: none */
} so_cl_pool_spec;

/* A reduce task's work in its three phases (Hadoop's copy / sort / reduce,
 * each one third of the progress score). */
typedef struct so_cl_reduce_work {
    double copy, sort, reduce;
} so_cl_reduce_work;

typedef struct so_cl_job_spec {
    char name[64];
    char user[64];
    int pool;          /* index into workload pools */
    double submit;     /* seconds */
    double weight;     /* fair-share weight inside its pool */
    double slowstart;  /* fraction of maps done before reduces may start */
    int n_maps, n_reduces;
    double demand[SO_CL_PHASES][SO_CL_MAX_RESOURCES]; /* per task */
    /* per reduce task while it copies (shuffles); = reduce demand unless
     * the workload says otherwise */
    double shuffle_demand[SO_CL_MAX_RESOURCES];
    double goal;       /* completion-time goal, seconds after submit; 0: none */
    /* Amdahl parallel fraction of a task's work per phase, in [0, 1]: with
     * k threads a task runs 1 / ((1 - f) + f / k) times faster (resource
     * stealing's extra threads); 0: extra threads do not help */
    double parallel[SO_CL_PHASES];
    double *map_work;                /* n_maps, each > 0 */
    int *map_replicas; /* NULL, or n_maps x workload replicas node indices
                        * (-1: placed at random) */
    so_cl_reduce_work *reduce_work;  /* n_reduces, each sums to > 0 */
} so_cl_job_spec;

typedef struct so_cl_workload {
    char name[256];
    int n_nodes;
    so_cl_node_spec *nodes;
    double heartbeat;  /* seconds; 0 = Hadoop's rule max(3, ceil(nodes / 100)) */
    int outofband;     /* a node also heartbeats when one of its attempts ends */
    int aligned;       /* 1: every node beats at k * interval; 0: seeded phase */
    int n_resources;   /* 0: slots only; else tasks also need resources */
    char resource[SO_CL_MAX_RESOURCES][32];
    int contention;    /* SO_CL_CONTENTION_NONE, _SHARE or _PHYSICAL */
    so_cl_physics physics; /* the physical model's parameters */
    /* per resource: 1 = checked at launch (never over-committed: a task
     * starts only where it fits), 0 = shared (may be over-committed; the
     * attempts using it slow down). Without contention every resource is
     * hard. */
    int hard[SO_CL_MAX_RESOURCES];
    int replicas;      /* copies of each map's input block; 0: no locality */
    double remote_slowdown; /* work factor of a map away from its data (>= 1) */
    int n_pools;
    so_cl_pool_spec *pools;
    int n_jobs;
    so_cl_job_spec *jobs; /* sorted by submit time (stable) */
} so_cl_workload;

/* SWIM derivation settings (all --opt keys, docs in so_cl_swim_options). */
extern const so_option_doc so_cl_swim_options[];

/* Reads a workload: native JSON (first non-blank character '{') or a SWIM
 * trace (tab-separated). seed drives duration distributions of JSON jobs;
 * prm holds the SWIM settings (may be NULL: defaults). Errors carry file,
 * line and column. */
int so_cl_workload_read(const char *path, const so_params *prm, uint64_t seed,
                        so_cl_workload **out, so_error *err);
int so_cl_workload_parse(const char *text, size_t len, const char *file,
                         const so_params *prm, uint64_t seed,
                         so_cl_workload **out, so_error *err);
int so_cl_workload_parse_json(const char *text, size_t len, const char *file,
                              uint64_t seed, so_cl_workload **out,
                              so_error *err);
int so_cl_workload_parse_swim(const char *text, size_t len, const char *file,
                              const so_params *prm, so_cl_workload **out,
                              so_error *err);
/* Hadoop Rumen job traces (concatenated JSON job objects; workload_rumen.c):
 * recorded task durations; the cluster from prm (SWIM's nodes, map_slots,
 * reduce_slots, heartbeat, outofband, slowstart keys). is_rumen: the first
 * 64 KiB name "jobID" and no "problem". */
int so_cl_workload_is_rumen(const char *text, size_t len);
int so_cl_workload_parse_rumen(const char *text, size_t len, const char *file,
                               const so_params *prm, so_cl_workload **out,
                               so_error *err);
void so_cl_workload_free(so_cl_workload *w);
/* The interval rule: w->heartbeat, or Hadoop 1.x's max(3 s, nodes / 100 s). */
double so_cl_heartbeat_interval(const so_cl_workload *w);
/* Each node's first heartbeat (its phase, in [0, interval)) in a run with
 * this seed: 0 when the workload's beats are aligned, else drawn from the
 * seed in node order. Node n then beats at phase[n] + k x interval (and,
 * with out-of-band heartbeats, when an attempt ends). phase: w->n_nodes
 * entries. */
void so_cl_heartbeat_phases(const so_cl_workload *w, uint64_t seed, double *phase);
/* An attempt's end at most SO_CL_BEAT_SNAP intervals after a beat of its
 * node is put on that beat (cluster/rates.c): the rounding of now + left
 * does not make its slot miss the beat. In intervals, not seconds, and half
 * the grid tolerance of lp-bound's holds (cluster/offline_bound.c, hold()),
 * so that every end the engine moves back onto a beat is one the bound
 * already counts there, whatever the interval (an absolute 1e-9 s is 2e-9
 * intervals on a 0.5 s grid: a map 1.6e-9 intervals past its second beat
 * then freed its slot for that beat where the bound holds it three). */
#define SO_CL_BEAT_SNAP 0.5e-9

/* ---- policies ------------------------------------------------------------ */
typedef struct so_cl_sim so_cl_sim;

/* Callbacks a scheduler or a node policy may implement (any may be NULL),
 * called after the engine has updated its state for the event:
 *   job_arrive     a job was submitted;
 *   attempt_launch an attempt started;
 *   attempt_end    an attempt stopped on `node` after `duration` seconds:
 *                  done (the winner) or killed (preempted or redundant),
 *                  as sim->attempts[attempt].state tells (the record
 *                  is valid during the call; afterwards the id may name
 *                  another attempt: attempt ids are pooled slots, so a
 *                  policy keeps no id of an attempt that has ended);
 *   job_finish     a job's last task completed;
 *   node_change    the set of attempts running on `node` changed (a node
 *                  policy may then call so_cl_set_rate_factor).
 * cluster/observe.h lists what a policy may read: what a JobTracker
 * observes, never the workload's true task work. */
typedef struct so_cl_hooks {
    void (*job_arrive)(void *state, so_cl_sim *sim, int job);
    void (*attempt_launch)(void *state, so_cl_sim *sim, int attempt);
    void (*attempt_end)(void *state, so_cl_sim *sim, int attempt, int node,
                        double duration);
    void (*job_finish)(void *state, so_cl_sim *sim, int job);
    void (*node_change)(void *state, so_cl_sim *sim, int node);
    /* node_beat: `node` heartbeats (periodic, after its free slots were
     * offered): a node policy's periodic re-evaluation. */
    void (*node_beat)(void *state, so_cl_sim *sim, int node);
} so_cl_hooks;

typedef struct so_cl_scheduler {
    const char *name;
    const char *description;
    const so_option_doc *options; /* NULL or {NULL}-terminated */
    /* Builds the policy state (may set *state to NULL). */
    int (*create)(so_cl_sim *sim, const so_params *prm, void **state,
                  so_error *err);
    /* Allocation layer, once per epoch; NULL: no epochs. */
    void (*allocate)(void *state, so_cl_sim *sim);
    /* Assignment: fill one free slot of `phase` on `node` through
     * so_cl_launch(); returns 1 if a task was launched, else 0. */
    int (*assign)(void *state, so_cl_sim *sim, int node, int phase);
    void (*destroy)(void *state);
    const so_cl_hooks *hooks; /* NULL, or called with the scheduler's state */
} so_cl_scheduler;

typedef struct so_cl_speculation {
    const char *name;
    const char *description;
    /* A running task of `job` in `phase` to copy on `node`, or -1. */
    int (*pick)(const so_cl_sim *sim, int job, int node, int phase);
    /* A test of the job's own state (NULL: none): 0 when pick returns -1
     * for the job's phase on every node and at every time until one of
     * the job's attempts launches or ends, so that a scheduler need not
     * offer it a slot before then (so_cl_may_copy). */
    int (*may_copy)(const so_cl_sim *sim, int job, int phase);
} so_cl_speculation;

const so_cl_scheduler *so_cl_scheduler_find(const char *name);
/* Every scheduler's name, NULL-terminated (static storage). */
const char *const *so_cl_scheduler_names(void);
size_t so_cl_scheduler_count(void);
const so_cl_scheduler *so_cl_scheduler_at(size_t i);
const so_cl_speculation *so_cl_speculation_find(const char *name);
size_t so_cl_speculation_count(void);
const so_cl_speculation *so_cl_speculation_at(size_t i);

/* Engine services for schedulers: launches a pending task of job in phase on
 * node, else (when a speculation policy is set) a speculative copy it picks.
 * Returns 1 if an attempt was launched, 0 if the job had nothing to run. */
int so_cl_launch(so_cl_sim *sim, int job, int node, int phase);
/* Whether a speculative copy of job's phase may be launched somewhere
 * before one of its attempts launches or ends: a speculation policy is
 * set and its may_copy test does not rule the job out. A scheduler's hooks
 * see each such change (attempt_launch, attempt_end). */
int so_cl_may_copy(const so_cl_sim *sim, int job, int phase);
/* Launches a pending map of job whose input has a replica on node; 1 if it
 * did. Without a locality model (replicas 0) every map is local. */
int so_cl_launch_local(so_cl_sim *sim, int job, int node);
/* Sets a running attempt's policy rate factor (> 0, finite; e.g. k threads
 * of a task with parallel fraction f: 1 / ((1 - f) + f / k)). Its rate is
 * node speed x contention share x factor: its work done is brought up to
 * now and its end event rescheduled. Returns 0, or -1 for a bad factor or
 * an attempt that is not running. */
int so_cl_set_rate_factor(so_cl_sim *sim, int attempt, double factor);
/* Sets a node's slot count of a phase, for a policy that bounds each
 * node's concurrency itself (RAS's job slots, sched_ras.c): call it from
 * the scheduler's create(), before the run. Load-factor padding, defined
 * on fixed slot counts, is then off for the whole run. Returns 0, -1 for a
 * bad node, phase or count (< 0), or SO_ENOMEM. */
int so_cl_set_slots(so_cl_sim *sim, int node, int phase, int slots);

/* ---- simulation ---------------------------------------------------------- */
extern const so_option_doc so_cl_sim_options[]; /* epoch */

#define SO_CL_MAX_WARNINGS 4
typedef struct so_cl_config {
    const so_cl_scheduler *scheduler;
    const so_cl_speculation *speculation; /* NULL: none */
    const so_params *params;  /* scheduler and simulator options; may be NULL */
    uint64_t seed;            /* heartbeat phases */
    FILE *event_log;          /* one line per event and action; may be NULL */
    double series_step;       /* > 0: record busy slots per step (plots) */
    const so_cl_hooks *hooks; /* a node policy's callbacks; may be NULL */
    void *hooks_state;        /* passed to them */
    /* NULL, or called every SO_CL_PROGRESS_EVENTS events and once at the
     * end: simulated time, jobs finished of n_jobs, events so far */
    void (*progress)(void *ctx, double now, int jobs_done, int n_jobs,
                     uint64_t events);
    void *progress_ctx;
    /* for the report (so_cl_check_config): the node policy's name (NULL:
     * none) and the warnings about options that cannot act */
    const char *stealing;
    int n_warnings;
    char warnings[SO_CL_MAX_WARNINGS][400];
    /* > 0: wall-clock seconds after which so_cl_sim_run stops (checked
     * every SO_CL_CLOCK_EVENTS events) and the statistics are partial
     * (so_cl_stats.stopped); 0: none. The limit counts from `deadline -
     * time_limit` when deadline (so_now() time) is set, so that reading the
     * workload and building the simulation count too; else from the start
     * of so_cl_sim_run. */
    double time_limit;
    double deadline;
} so_cl_config;
#define SO_CL_CLOCK_EVENTS 64
#define SO_CL_PROGRESS_EVENTS 65536

typedef struct so_cl_job_result {
    double submit, start, finish; /* start: first attempt launched */
} so_cl_job_result;

typedef struct so_cl_stats {
    uint64_t events;          /* events processed (stale ones excluded) */
    uint64_t events_by_kind[7]; /* the 7th: node slow-downs (variability) */
    uint64_t attempts;        /* attempts launched */
    uint64_t tasks_done;
    double makespan;          /* last finish - first submit */
    double busy[SO_CL_PHASES];        /* slot-seconds held by attempts */
    double utilisation[SO_CL_PHASES]; /* busy / (slots * makespan) */
    double resource_busy[SO_CL_MAX_RESOURCES]; /* demand x seconds held */
    uint64_t preempted;       /* attempts killed by the scheduler */
    uint64_t local_maps, remote_maps; /* map attempts by data locality */
    /* speculative copies: launched = useful (won) + non-beneficial (the
     * original won, the copy was killed) + killed (preempted) */
    uint64_t spec_launched, spec_useful, spec_killed, spec_nonbeneficial;
    uint64_t stale_events;    /* end events superseded by a rate change */
    double work_done;         /* work integrated over the winning attempts
                               * (reference seconds, remote maps scaled) */
    double work_wasted;       /* the same over killed attempts */
    /* 1: the run was stopped by cfg.time_limit at simulated time
     * `stopped_at`: unfinished jobs have finish < 0, makespan is the time
     * simulated since the first submit */
    int stopped;
    double stopped_at;
    int jobs_done;            /* jobs finished */
} so_cl_stats;

/* Event kinds, in the order of so_cl_stats.events_by_kind. */
const char *so_cl_event_name(int kind);

int so_cl_sim_new(const so_cl_workload *w, const so_cl_config *cfg,
                  so_cl_sim **out, so_error *err);
/* Runs to the end, or until cfg.time_limit (stats.stopped). Returns SO_OK,
 * SO_ENOMEM, or SO_EBACKEND when the run stalled (cluster/stall.c: nothing
 * can launch and every running attempt is a reduce waiting for maps). */
int so_cl_sim_run(so_cl_sim *sim);
/* err set for so_cl_sim_run's failure rc (a stall's message, or out of
 * memory); returns rc. */
int so_cl_sim_failure(const so_cl_sim *sim, int rc, so_error *err);
void so_cl_sim_free(so_cl_sim *sim);
const so_cl_stats *so_cl_sim_stats(const so_cl_sim *sim);
const so_cl_job_result *so_cl_sim_job(const so_cl_sim *sim, int job);
/* Busy slots averaged over step i of the series (phase); n_steps out. */
size_t so_cl_sim_series(const so_cl_sim *sim, int phase, const double **busy);
/* Per-task completion count (conservation checks): completions of task t
 * (tasks numbered job by job, maps then reduces). */
int so_cl_sim_task_completions(const so_cl_sim *sim, size_t task);
size_t so_cl_sim_task_count(const so_cl_sim *sim);

/* Options that cannot act on this workload (run_checks.c; docs/cluster.md,
 * "Options that cannot act"): an error for locality_delay without a
 * locality model (SO_EINVAL, key named); a warning in cfg->warnings for
 * --stealing (cfg->stealing) when no job has a parallel fraction and for
 * preemption when every job is in one pool. */
int so_cl_check_config(const so_cl_workload *w, so_cl_config *cfg,
                       so_error *err);

/* ---- reports ------------------------------------------------------------- */
/* Nearest-rank percentile q in (0, 100] of x (sorted copy inside). */
double so_cl_percentile(const double *x, size_t n, double q);
/* {"workload","scheduler","speculation","seed","jobs":[...],"makespan",
 *  "response":{mean,p50,p95,p99,max},"utilisation","busy_slot_seconds",
 *  "speculation_counts","events","tasks","attempts"} */
json_t *so_cl_report_json(const so_cl_sim *sim, const so_cl_workload *w,
                          const so_cl_config *cfg);
/* The same as text. */
void so_cl_report_table(FILE *fp, const so_cl_sim *sim,
                        const so_cl_workload *w, const so_cl_config *cfg);
/* The text without the per-job lines (`sim --summary`). */
void so_cl_report_summary_table(FILE *fp, const so_cl_sim *sim,
                                const so_cl_workload *w, const so_cl_config *cfg);
/* Utilisation-over-time plot by gnuplot (PNG, SVG or PDF by the file's
 * extension), written atomically. */
int so_cl_plot_utilisation(const so_cl_sim *sim, const so_cl_workload *w,
                           double step, const char *path, so_error *err);

#endif
