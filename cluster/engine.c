/*
 * engine.c — the discrete-event core of the cluster model.
 *
 * Events (time-ordered, ties first-in first-out, see event_heap.h):
 *   arrive       a job is submitted; its maps become pending
 *   heartbeat    a TaskTracker reports: the scheduler fills its free slots
 *                (one assignment call per free slot, Hadoop's assignmultiple)
 *   oob          out-of-band heartbeat right after an attempt ends (option)
 *   copy-end     a reduce attempt's copy work is done; the copy phase ends
 *                when the job's last map has also finished
 *   attempt-end  an attempt finishes: its task completes, any other attempt
 *                of the task is killed, the slot is free
 *   epoch        the scheduler's allocation layer runs
 * The engine knows no policy: schedulers and speculation plug in through
 * so_cl_scheduler / so_cl_speculation (cluster.h). A launch needs a free
 * slot of the phase and, when the cluster names resources, room for the
 * task's demand; maps prefer node-local input (locality.c). Modelling
 * choices (slot release at the exact end time, reduce copy phase,
 * slow-start, same-time arrivals) are listed in docs/cluster.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/physics.h"

static const char *const event_names[] = {
    "arrive", "heartbeat", "oob-heartbeat", "copy-end", "attempt-end", "epoch",
    "node-slowdown"};

const char *so_cl_event_name(int kind)
{
    return kind >= 0 && kind < SO_CL_EV_KINDS ? event_names[kind] : "?";
}

/* Below 10 ms an epoch is no model of Hadoop (its update interval is
 * 500 ms) and a long replay would run hundreds of millions of epochs. */
#define SO_CL_MIN_EPOCH 0.01

const so_option_doc so_cl_sim_options[] = {
    {"epoch", "0.5",
     "seconds between allocation-layer calls (Hadoop fair scheduler's update"
     " interval, 500 ms)"},
    {"stall_limit", "3600",
     "simulated seconds without an arrival or a task done, every running"
     " attempt a reduce whose job's maps are not done, after which the run"
     " fails as stalled; raised to a scheduler's longest wait"
     " (cluster/stall.c)"},
    {"padding", "1",
     "1: Hadoop 1.x load-factor padding, a TaskTracker runs at most"
     " ceil(load x its slots) tasks of a phase, load = runnable tasks /"
     " cluster slots (JobQueueTaskScheduler, fair scheduler's load"
     " manager); 0: every free slot is offered"},
    {"contention", "workload's",
     "resource contention model: none, share or physical (docs/cluster.md,"
     " \"Resource contention\")"},
    {"cpu_cores", "2", "physical: cores per node (a task thread uses one)"},
    {"cpu_latency_ms", "12", "physical: CFS scheduling latency, ms"},
    {"cpu_granularity_ms", "1.5", "physical: CFS minimum slice, ms"},
    {"cpu_switch_us", "100", "physical: context switch with cache refill, us"},
    {"disk_seek_ms", "12", "physical: seek + rotation between streams, ms"},
    {"disk_slice_ms", "100", "physical: CFQ slice of a stream, ms"},
    {"disk_target_ms", "300", "physical: CFQ target latency, ms (0: off)"},
    {"swap_penalty", "10",
     "physical: slow-down per unit of memory over-commitment fraction"},
    {"profile_headroom", "1.5",
     "physical: largest speed-up over the task profile on a free node"},
    {"noise_cv", "0",
     "task-time noise: each attempt's duration x a lognormal of mean 1 and"
     " this coefficient of variation (0: off)"},
    {"slowdown_gap", "0",
     "transient node slow-downs: mean seconds between a node's slow spells,"
     " exponential (0: off)"},
    {"slowdown_length", "60", "mean seconds of a slow spell, exponential"},
    {"slowdown_speed", "0.5", "a node's speed factor during a slow spell"},
    {"max_memory_mb", "4096",
     "refuse a workload whose estimated memory (read and replayed) is above"
     " this many MiB; default SLOTOPT_MAX_MEMORY_MB, else 4096"},
    {"max_events", "1e9",
     "refuse a workload whose replay needs an estimated number of events"
     " above this (busy time x heartbeats per second; docs/cluster.md)"},
    {NULL, NULL, NULL},
};

/* ---- small helpers ------------------------------------------------------- */

/* attempt: a slot id or -1; the log shows its launch serial (the attempt
 * number of the run, as before the pool). */
static void logf_event(so_cl_sim *s, const char *what, int job, int task,
                       int attempt, int node)
{
    if (s->cfg.event_log)
        fprintf(s->cfg.event_log, "%.6f %s job=%d task=%d attempt=%d node=%d\n",
                s->now, what, job, task,
                attempt >= 0 ? s->attempts[attempt].serial : -1, node);
}

static void push(so_cl_sim *s, double t, int kind, int id)
{
    (void)so_cl_push(s, t, kind, id);
}

/* Policy callbacks: the scheduler's, then the node policy's. */
#define CALL_HOOKS(s, fn, ...)                                               \
    do {                                                                     \
        const so_cl_hooks *h_ = (s)->cfg.scheduler->hooks;                   \
        if (h_ && h_->fn)                                                    \
            h_->fn((s)->sched_state, (s), __VA_ARGS__);                      \
        h_ = (s)->cfg.hooks;                                                 \
        if (h_ && h_->fn)                                                    \
            h_->fn((s)->cfg.hooks_state, (s), __VA_ARGS__);                  \
    } while (0)

static int grow_ints(int **v, int *cap, int need)
{
    if (need <= *cap)
        return 0;
    int c = *cap ? 2 * *cap : 8;
    while (c < need)
        c *= 2;
    int *n = realloc(*v, (size_t)c * sizeof *n);
    if (!n)
        return -1;
    *v = n;
    *cap = c;
    return 0;
}

/* Integrates busy slots into the utilisation series up to now. */
static void series_advance(so_cl_sim *s)
{
    double step = s->cfg.series_step;
    if (step <= 0)
        return;
    while (s->series_t < s->now) {
        size_t k = (size_t)(s->series_t / step);
        if ((double)(k + 1) * step <= s->series_t)
            k++;
        double t1 = fmin((double)(k + 1) * step, s->now);
        if (k >= s->series_len) {
            if (k >= s->series_cap) {
                size_t cap = s->series_cap ? 2 * s->series_cap : 256;
                while (cap <= k)
                    cap *= 2;
                for (int p = 0; p < SO_CL_PHASES; p++) {
                    double *n = realloc(s->series[p], cap * sizeof *n);
                    if (!n) {
                        s->failed = 1;
                        return;
                    }
                    s->series[p] = n;
                }
                s->series_cap = cap;
            }
            for (size_t i = s->series_len; i <= k; i++)
                s->series[0][i] = s->series[1][i] = 0;
            s->series_len = k + 1;
        }
        for (int p = 0; p < SO_CL_PHASES; p++)
            s->series[p][k] += s->busy_now[p] * (t1 - s->series_t);
        s->series_t = t1;
    }
}

static void busy_change(so_cl_sim *s, int phase, int delta)
{
    series_advance(s);
    s->busy_now[phase] += delta;
}

/* ---- phase lists: jobs wanting slots, in job order ---------------------- */

static void list_add(so_cl_sim *s, int j, int p)
{
    so_cl_jobrt *job = &s->jobs[j];
    if (job->in_list[p])
        return;
    int after = s->tail[p];
    while (after >= 0 && after > j)
        after = s->jobs[after].prev[p];
    int before = after >= 0 ? s->jobs[after].next[p] : s->head[p];
    job->prev[p] = after;
    job->next[p] = before;
    if (after >= 0)
        s->jobs[after].next[p] = j;
    else
        s->head[p] = j;
    if (before >= 0)
        s->jobs[before].prev[p] = j;
    else
        s->tail[p] = j;
    job->in_list[p] = 1;
    s->list_len[p]++;
}

static void list_remove(so_cl_sim *s, int j, int p)
{
    so_cl_jobrt *job = &s->jobs[j];
    if (!job->in_list[p])
        return;
    if (job->prev[p] >= 0)
        s->jobs[job->prev[p]].next[p] = job->next[p];
    else
        s->head[p] = job->next[p];
    if (job->next[p] >= 0)
        s->jobs[job->next[p]].prev[p] = job->prev[p];
    else
        s->tail[p] = job->prev[p];
    job->in_list[p] = 0;
    job->prev[p] = job->next[p] = -1;
    s->list_len[p]--;
}

/* ---- job state ----------------------------------------------------------- */

static int maps_complete(const so_cl_jobrt *job)
{
    return job->done[SO_CL_MAP] == job->n[SO_CL_MAP];
}

static void check_finished(so_cl_sim *s, int j)
{
    so_cl_jobrt *job = &s->jobs[j];
    if (job->finished || !maps_complete(job) ||
        job->done[SO_CL_REDUCE] < job->n[SO_CL_REDUCE])
        return;
    job->finished = 1;
    job->finish = s->now;
    if (job->start < 0)
        job->start = s->now;
    s->results[j].start = job->start;
    s->results[j].finish = s->now;
    s->jobs_done++;
    so_cl_observe_job(s, j);
    logf_event(s, "job-finish", j, -1, -1, -1);
    CALL_HOOKS(s, job_finish, j);
    /* its tasks and completion order are not read again: given back */
    size_t first = (size_t)job->first_task[SO_CL_MAP];
    size_t n = (size_t)job->n[SO_CL_MAP] + (size_t)job->n[SO_CL_REDUCE];
    so_cl_store_release(s->tasks, sizeof *s->tasks, first, n, s->tasks_mapped);
    so_cl_store_release(s->done_order, sizeof *s->done_order, first, n,
                        s->done_mapped);
}

/* Hadoop's completedMapsForReduceSlowstart = ceil(slowstart * maps). */
static void check_reduces_open(so_cl_sim *s, int j)
{
    so_cl_jobrt *job = &s->jobs[j];
    if (job->reduces_open)
        return;
    double need = ceil(job->spec->slowstart * job->n[SO_CL_MAP]);
    if (job->done[SO_CL_MAP] >= need) {
        job->reduces_open = 1;
        s->runnable[SO_CL_REDUCE] += job->n[SO_CL_REDUCE];
        if (job->n[SO_CL_REDUCE] > 0)
            list_add(s, j, SO_CL_REDUCE);
    }
}

/* The copy phase of every reduce attempt waiting for the last map ends. */
static void release_waiting_reduces(so_cl_sim *s, so_cl_jobrt *job)
{
    for (int k = 0; k < job->n_running[SO_CL_REDUCE]; k++) {
        so_cl_attempt *a = &s->attempts[job->running[SO_CL_REDUCE][k]];
        if (a->waiting)
            so_cl_rate_second_segment(s, job->running[SO_CL_REDUCE][k]);
    }
}

/* ---- attempts ------------------------------------------------------------ */

static int start_attempt(so_cl_sim *s, int t, int node, int speculative)
{
    so_cl_task *task = &s->tasks[t];
    so_cl_jobrt *job = &s->jobs[task->job];
    int p = task->phase;
    so_cl_nodert *nd = &s->nodes[node];
    if (grow_ints(&job->running[p], &job->cap_running[p],
                  job->n_running[p] + 1) ||
        grow_ints(&job->launched[p], &job->cap_launched[p],
                  job->n_launched[p] + 1))
        return -1;
    int id = so_cl_attempt_alloc(s);
    if (id < 0)
        return -1;
    so_cl_attempt *a = &s->attempts[id];
    a->serial = s->n_serial++;
    a->pins = 2; /* its run, its job's launch window (attempt_pool.c) */
    a->task = t;
    a->job = task->job;
    a->node = node;
    a->phase = p;
    a->speculative = speculative;
    a->state = SO_CL_RUNNING;
    a->start = s->now;
    a->copy_end = -1;
    a->waiting = 0;
    a->scale = 1;
    int i = t - job->first_task[p];
    if (p == SO_CL_MAP && so_cl_is_local(s, t, node)) {
        s->stats.local_maps++;
    } else if (p == SO_CL_MAP) {
        a->scale = s->w->remote_slowdown; /* reads its input remotely */
        s->stats.remote_maps++;
    }
    job->launched[p][job->n_launched[p]++] = id;
    a->run_index = job->n_running[p];
    job->running[p][job->n_running[p]++] = id;
    a->node_index = nd->n_running;
    nd->running[nd->n_running++] = id;
    nd->free[p]--;
    s->pool_running[p][job->spec->pool]++;
    for (int r = 0; r < s->w->n_resources; r++)
        nd->used[r] += so_cl_held_demand(job->spec, p, r);
    task->attempt[task->n_running++] = id;
    if (task->state == SO_CL_PENDING) {
        task->state = SO_CL_RUNNING;
        job->running_tasks[p]++;
        job->n_pending[p]--;
    }
    if (job->start < 0)
        job->start = s->now;
    s->stats.attempts++;
    if (speculative) {
        s->stats.spec_launched++;
        s->spec_running[p]++;
        job->spec_running[p]++;
    }
    busy_change(s, p, +1);
    logf_event(s, speculative ? "launch-speculative" : "launch", task->job, t,
               id, node);

    a->vary = so_cl_noise_rate(s);
    if (p == SO_CL_MAP) {
        so_cl_rate_init(s, a, job->spec->map_work[i] * a->scale);
    } else {
        so_cl_rate_init(s, a, job->spec->reduce_work[i].copy);
        /* with contention the copy end changes the demand: an event */
        a->chained = maps_complete(job) && s->contention == SO_CL_CONTENTION_NONE;
    }
    so_cl_rate_refresh_node(s, node);
    if (a->live == SO_CL_NO_EVENT)
        so_cl_rate_schedule(s, id);
    CALL_HOOKS(s, attempt_launch, id);
    CALL_HOOKS(s, node_change, node);
    return 0;
}

/* Moves the job's oldest running attempt of phase p past the ended ones;
 * once the ended prefix is half of the launch list, drops it (each ended
 * attempt is skipped once: O(1) amortised; attempts that ended after a
 * still-running older one stay in the list until that one ends). */
static void drop_ended_oldest(so_cl_sim *s, so_cl_jobrt *job, int p)
{
    int *l = job->launched[p];
    int k = job->oldest[p], n = job->n_launched[p];
    while (k < n && s->attempts[l[k]].state != SO_CL_RUNNING)
        so_cl_attempt_release(s, l[k++]); /* leaves the window */
    if (k >= 64 && 2 * k >= n) {
        memmove(l, l + k, (size_t)(n - k) * sizeof *l);
        job->n_launched[p] = n - k;
        k = 0;
    }
    job->oldest[p] = k;
}

/* Ends a running attempt (done or killed): frees its slot, drops it from the
 * running lists, accounts its slot-seconds. */
static void stop_attempt(so_cl_sim *s, int id, int state)
{
    so_cl_attempt *a = &s->attempts[id];
    so_cl_jobrt *job = &s->jobs[a->job];
    so_cl_task *task = &s->tasks[a->task];
    so_cl_nodert *nd = &s->nodes[a->node];
    int p = a->phase;
    so_cl_rate_advance(s, a);
    a->state = state;
    a->live = SO_CL_NO_EVENT;
    if (state == SO_CL_DONE)
        s->stats.work_done += a->worked;
    else
        s->stats.work_wasted += a->worked;
    s->stats.busy[p] += s->now - a->start;
    busy_change(s, p, -1);
    nd->free[p]++;
    s->pool_running[p][job->spec->pool]--;
    for (int r = 0; r < s->w->n_resources; r++) {
        double held = so_cl_held_demand(job->spec, p, r);
        nd->used[r] -= held;
        s->stats.resource_busy[r] += held * (s->now - a->start);
    }
    int last = nd->running[--nd->n_running];
    nd->running[a->node_index] = last;
    s->attempts[last].node_index = a->node_index;
    last = job->running[p][--job->n_running[p]];
    job->running[p][a->run_index] = last;
    s->attempts[last].run_index = a->run_index;
    drop_ended_oldest(s, job, p);
    for (int k = 0; k < task->n_running; k++)
        if (task->attempt[k] == id) {
            task->attempt[k] = task->attempt[--task->n_running];
            break;
        }
    if (a->speculative) {
        s->spec_running[p]--;
        job->spec_running[p]--;
    }
    so_cl_rate_refresh_node(s, a->node);
}

/* The callbacks for a stopped attempt, once the engine's state is final. */
static void stopped_hooks(so_cl_sim *s, int id)
{
    const so_cl_attempt *a = &s->attempts[id];
    CALL_HOOKS(s, attempt_end, id, a->node, s->now - a->start);
    CALL_HOOKS(s, node_change, a->node);
}

/* A pending task of the job's phase for node: a local map first (Hadoop's
 * obtainNewMapTask tries node-local maps first), then a killed task put
 * back, then the lowest-numbered pending task. -1 if none. */
static int take_pending(so_cl_sim *s, int j, int node, int p)
{
    so_cl_jobrt *job = &s->jobs[j];
    if (job->n_pending[p] == 0)
        return -1;
    if (p == SO_CL_MAP) {
        int t = so_cl_local_pending(s, j, node);
        if (t >= 0)
            return t;
    }
    while (job->n_requeued[p] > 0) {
        int t = job->requeued[p][--job->n_requeued[p]];
        if (s->tasks[t].state == SO_CL_PENDING)
            return t;
    }
    for (; job->next_pending[p] < job->n[p]; job->next_pending[p]++) {
        int t = job->first_task[p] + job->next_pending[p];
        if (s->tasks[t].state == SO_CL_PENDING)
            return t;
    }
    return -1;
}

static int offered_slots(const so_cl_sim *s, int node, int p);

/* A free slot of the phase, and room for the task's resources. */
static int can_launch(const so_cl_sim *s, int j, int node, int p)
{
    const so_cl_jobrt *job = &s->jobs[j];
    const so_cl_nodert *nd = &s->nodes[node];
    if (nd->free[p] <= 0 || job->finished || !job->arrived ||
        (p == SO_CL_REDUCE && !job->reduces_open))
        return 0;
    for (int r = 0; r < s->w->n_resources; r++)
        if (s->hard[r] &&
            nd->used[r] + so_cl_held_demand(job->spec, p, r) >
                s->w->nodes[node].capacity[r] * (1 + 1e-12))
            return 0;
    return 1;
}

int so_cl_could_launch(const so_cl_sim *s, int j, int node, int p)
{
    return offered_slots(s, node, p) > 0 && can_launch(s, j, node, p);
}

static int launch_task(so_cl_sim *s, int t, int node, int speculative)
{
    if (start_attempt(s, t, node, speculative)) {
        s->failed = 1;
        return 0;
    }
    return 1;
}

int so_cl_launch(so_cl_sim *s, int j, int node, int p)
{
    if (!can_launch(s, j, node, p))
        return 0;
    int t = take_pending(s, j, node, p);
    if (t >= 0)
        return launch_task(s, t, node, 0);
    if (!so_cl_may_copy(s, j, p))
        return 0;
    t = s->cfg.speculation->pick(s, j, node, p);
    return t >= 0 ? launch_task(s, t, node, 1) : 0;
}

int so_cl_set_slots(so_cl_sim *s, int node, int p, int slots)
{
    if (node < 0 || node >= s->w->n_nodes || p < 0 || p >= SO_CL_PHASES ||
        slots < 0 || slots > 1000000)
        return -1;
    so_cl_nodert *nd = &s->nodes[node];
    if (nd->n_running > 0)
        return -1; /* before the run only */
    int other = 0;
    for (int q = 0; q < SO_CL_PHASES; q++)
        if (q != p)
            other += nd->free[q];
    int *run = realloc(nd->running, ((size_t)slots + other + 1) * sizeof(int));
    if (!run)
        return SO_ENOMEM;
    nd->running = run;
    s->total_slots[p] += slots - nd->free[p];
    nd->free[p] = slots;
    s->padding = 0;
    return 0;
}

int so_cl_launch_local(so_cl_sim *s, int j, int node)
{
    if (!can_launch(s, j, node, SO_CL_MAP))
        return 0;
    int t = s->replicas > 0 ? so_cl_local_pending(s, j, node)
                            : take_pending(s, j, node, SO_CL_MAP);
    return t >= 0 ? launch_task(s, t, node, 0) : 0;
}

/* A task of an unarrived or finished job reads as zeros (task_store.c):
 * job 0, pending; its index is then outside job 0's tasks, or job 0 has
 * finished, and can_launch refuses it. */
static int task_of_job(const so_cl_sim *s, int t)
{
    const so_cl_jobrt *job = &s->jobs[s->tasks[t].job];
    int first = job->first_task[SO_CL_MAP];
    return t >= first && t < first + job->n[SO_CL_MAP] + job->n[SO_CL_REDUCE];
}

int so_cl_launch_task(so_cl_sim *s, int t, int node)
{
    if (t < 0 || (size_t)t >= s->n_tasks || !task_of_job(s, t) ||
        s->tasks[t].state != SO_CL_PENDING ||
        !can_launch(s, s->tasks[t].job, node, s->tasks[t].phase))
        return 0;
    return launch_task(s, t, node, 0);
}

int so_cl_kill(so_cl_sim *s, int id)
{
    so_cl_attempt *a = &s->attempts[id];
    so_cl_task *task = &s->tasks[a->task];
    so_cl_jobrt *job = &s->jobs[a->job];
    int p = a->phase;
    s->stats.preempted++;
    if (a->speculative)
        s->stats.spec_killed++;
    stop_attempt(s, id, SO_CL_KILLED);
    logf_event(s, "kill", a->job, a->task, id, a->node);
    stopped_hooks(s, id);
    if (task->n_running == 0) {
        if (grow_ints(&job->requeued[p], &job->cap_requeued[p],
                      job->n_requeued[p] + 1)) {
            so_cl_attempt_release(s, id);
            return -1;
        }
        task->state = SO_CL_PENDING;
        job->running_tasks[p]--;
        job->n_pending[p]++;
        job->requeued[p][job->n_requeued[p]++] = a->task;
        so_cl_locality_requeue(s, a->task);
    }
    if (s->w->outofband)
        push(s, s->now, SO_CL_EV_OOB, a->node);
    so_cl_attempt_release(s, id);
    return 0;
}

/* ---- event handlers ------------------------------------------------------ */

static void arrive_job(so_cl_sim *s, int j)
{
    so_cl_jobrt *job = &s->jobs[j];
    job->arrived = 1;
    for (int p = 0; p < SO_CL_PHASES; p++) /* pending, zeros otherwise */
        for (int i = 0; i < job->n[p]; i++) {
            s->tasks[job->first_task[p] + i].job = j;
            s->tasks[job->first_task[p] + i].phase = (unsigned char)p;
        }
    s->runnable[SO_CL_MAP] += job->n[SO_CL_MAP];
    logf_event(s, "arrive", j, -1, -1, -1);
    if (so_cl_locality_open(s, j))
        s->failed = 1;
    if (job->n[SO_CL_MAP] > 0)
        list_add(s, j, SO_CL_MAP);
    check_reduces_open(s, j);
    CALL_HOOKS(s, job_arrive, j);
    check_finished(s, j);
}

/* Jobs submitted at the same time arrive together, before any other event
 * at that time is handled (each still counts as one arrival event). */
static void on_arrive(so_cl_sim *s, int j)
{
    s->last_progress = s->now;
    arrive_job(s, j);
    while (++s->next_arrival < s->w->n_jobs &&
           s->w->jobs[s->next_arrival].submit == s->now) {
        arrive_job(s, s->next_arrival);
        s->stats.events++;
        s->stats.events_by_kind[SO_CL_EV_ARRIVE]++;
    }
    if (s->next_arrival < s->w->n_jobs)
        push(s, s->w->jobs[s->next_arrival].submit, SO_CL_EV_ARRIVE, s->next_arrival);
    if (s->cfg.scheduler->allocate && !s->epoch_armed) {
        s->epoch_armed = 1;
        push(s, ceil(s->now / s->epoch) * s->epoch, SO_CL_EV_EPOCH, 0);
    }
}

/* Slots of the phase the node may fill now: its free slots, and with
 * padding at most min(slots, ceil(load x slots)) running tasks, load =
 * runnable tasks (not yet done, of arrived jobs, reduces once open) /
 * cluster slots (Hadoop 1.x JobQueueTaskScheduler.assignTasks and the fair
 * scheduler's CapBasedLoadManager with load.max.diff 0). */
static int offered_slots(const so_cl_sim *s, int node, int p)
{
    const so_cl_nodert *nd = &s->nodes[node];
    if (!s->padding || nd->free[p] <= 0)
        return nd->free[p];
    int slots = s->w->nodes[node].slots[p];
    double load = (double)s->runnable[p] / s->total_slots[p];
    double cap = fmin(slots, ceil(load * slots));
    int room = (int)cap - (slots - nd->free[p]);
    return room < nd->free[p] ? room : nd->free[p];
}

static void fill_slots(so_cl_sim *s, int node)
{
    const so_cl_scheduler *sc = s->cfg.scheduler;
    for (int p = 0; p < SO_CL_PHASES; p++)
        for (int k = offered_slots(s, node, p); k > 0; k = offered_slots(s, node, p))
            if (!sc->assign(s->sched_state, s, node, p))
                break;
}

/* The next heartbeat of a node. While no submitted job is unfinished its
 * beats change nothing, so the node skips to its first beat at or after the
 * next submission (same beat grid, fewer no-op events). */
static void next_heartbeat(so_cl_sim *s, int node)
{
    so_cl_nodert *nd = &s->nodes[node];
    nd->beat++;
    if (s->next_arrival == s->jobs_done) {
        double submit = s->w->jobs[s->next_arrival].submit;
        double k = ceil((submit - nd->phase) / s->interval);
        if (k > (double)nd->beat)
            nd->beat = (long long)k;
    }
    push(s, nd->phase + (double)nd->beat * s->interval, SO_CL_EV_HEARTBEAT, node);
}

static void on_heartbeat(so_cl_sim *s, int node)
{
    fill_slots(s, node);
    CALL_HOOKS(s, node_beat, node);
    if (s->jobs_done < s->w->n_jobs)
        next_heartbeat(s, node);
}

/* Whether an end or copy-end event is the attempt's live one: not killed
 * since, nor superseded by a rate change (then it is stale). */
static int live_event(so_cl_sim *s, const so_cl_event *e)
{
    so_cl_attempt *a = &s->attempts[e->id];
    if (a->state != SO_CL_RUNNING || a->live != e->seq)
        return 0;
    a->live = SO_CL_NO_EVENT;
    return 1;
}

static int on_copy_end(so_cl_sim *s, const so_cl_event *e)
{
    if (!live_event(s, e))
        return 0;
    int id = e->id;
    so_cl_attempt *a = &s->attempts[id];
    so_cl_jobrt *job = &s->jobs[a->job];
    so_cl_rate_advance(s, a);
    a->done = a->work; /* the segment ended: no rounding left over */
    if (maps_complete(job))
        so_cl_rate_second_segment(s, id);
    else
        a->waiting = 1;
    return 1;
}

static int on_end(so_cl_sim *s, const so_cl_event *e)
{
    if (!live_event(s, e))
        return 0;
    int id = e->id;
    so_cl_attempt *a = &s->attempts[id];
    int t = a->task, j = a->job, p = a->phase, node = a->node;
    so_cl_task *task = &s->tasks[t];
    so_cl_jobrt *job = &s->jobs[j];
    double ran = s->now - a->start;
    s->last_progress = s->now; /* a task done (stall.c) */
    stop_attempt(s, id, SO_CL_DONE);
    logf_event(s, "task-done", j, t, id, node);
    task->state = SO_CL_DONE;
    if (s->completions[t] < 255)
        s->completions[t]++;
    s->stats.tasks_done++;
    s->nodes[node].completed++;
    if (a->speculative)
        s->stats.spec_useful++;
    int killed[2], n_killed = 0;
    while (task->n_running > 0) {
        int other = task->attempt[0];
        int other_node = s->attempts[other].node;
        if (s->attempts[other].speculative)
            s->stats.spec_nonbeneficial++;
        stop_attempt(s, other, SO_CL_KILLED);
        logf_event(s, "kill-redundant", j, t, other, other_node);
        if (s->w->outofband)
            push(s, s->now, SO_CL_EV_OOB, other_node);
        killed[n_killed++] = other;
    }
    task->winner_node = node; /* attempt[] is empty now (a union) */
    so_cl_observe_task(s, a, ran);
    if (ran > 0) {
        task->rate = 1.0 / ran;
        job->rate_sum[p] += 1.0 / ran;
        job->rate_sumsq[p] += 1.0 / (ran * ran);
    }
    job->running_tasks[p]--;
    s->runnable[p]--;
    s->done_order[job->first_task[p] + job->done[p]] = t;
    if (++job->done[p] == job->n[p]) {
        list_remove(s, j, p);
        if (p == SO_CL_MAP) {
            release_waiting_reduces(s, job);
            so_cl_locality_close(s, j);
        }
    }
    if (p == SO_CL_MAP)
        check_reduces_open(s, j);
    stopped_hooks(s, id);
    for (int k = 0; k < n_killed; k++)
        stopped_hooks(s, killed[k]);
    so_cl_attempt_release(s, id);
    for (int k = 0; k < n_killed; k++)
        so_cl_attempt_release(s, killed[k]);
    check_finished(s, j);
    if (s->w->outofband)
        push(s, s->now, SO_CL_EV_OOB, node);
    return 1;
}

static void on_epoch(so_cl_sim *s)
{
    s->cfg.scheduler->allocate(s->sched_state, s);
    if (s->next_arrival > s->jobs_done) /* some arrived job is unfinished */
        push(s, s->now + s->epoch, SO_CL_EV_EPOCH, 0);
    else
        s->epoch_armed = 0;
}

/* ---- life cycle ---------------------------------------------------------- */

int so_cl_sim_new(const so_cl_workload *w, const so_cl_config *cfg,
                  so_cl_sim **out, so_error *err)
{
    *out = NULL;
    if (!cfg->scheduler)
        return so_error_setf(err, NULL, 0, 0, NULL, "no scheduler given");
    double epoch = 0.5;
    int rc = so_params_double(cfg->params, so_cl_sim_options, "epoch", 0.5,
                              &epoch, err);
    if (rc)
        return rc;
    if (!(epoch >= SO_CL_MIN_EPOCH) || epoch > 1e6)
        return so_error_setf(err, NULL, 0, 0, "epoch",
                             "expected seconds in [%g, 1e6], found %g",
                             SO_CL_MIN_EPOCH, epoch);
    long long padding = 1;
    rc = so_params_int(cfg->params, so_cl_sim_options, "padding", 1, &padding,
                       err);
    if (rc)
        return rc;
    if (padding != 0 && padding != 1)
        return so_error_setf(err, NULL, 0, 0, "padding",
                             "expected 0 or 1, found %lld", padding);
    double stall_limit = 3600;
    rc = so_params_double(cfg->params, so_cl_sim_options, "stall_limit", 3600, &stall_limit,
                          err);
    if (rc)
        return rc;
    if (!(stall_limit >= 1) || stall_limit > 1e9)
        return so_error_setf(err, NULL, 0, 0, "stall_limit",
                             "expected seconds in [1, 1e9], found %g", stall_limit);
    so_cl_sim *s = calloc(1, sizeof *s);
    if (!s)
        return SO_ENOMEM;
    s->w = w;
    s->cfg = *cfg;
    s->epoch = epoch;
    s->stall_limit = stall_limit;
    s->padding = (int)padding;
    s->interval = so_cl_heartbeat_interval(w);
    if ((rc = so_cl_physics_setup(s, cfg->params, err)) ||
        (rc = so_cl_variability_setup(s, cfg->params, err))) {
        free(s);
        return rc;
    }
    so_cl_heap_init(&s->heap);
    for (int p = 0; p < SO_CL_PHASES; p++)
        s->head[p] = s->tail[p] = -1;
    size_t n_tasks = 0;
    for (int j = 0; j < w->n_jobs; j++)
        n_tasks += (size_t)w->jobs[j].n_maps + (size_t)w->jobs[j].n_reduces;
    s->n_tasks = n_tasks;
    s->jobs = calloc((size_t)w->n_jobs + 1, sizeof *s->jobs);
    s->results = calloc((size_t)w->n_jobs + 1, sizeof *s->results);
    s->tasks = so_cl_store_alloc((n_tasks + 1) * sizeof *s->tasks,
                                 &s->tasks_mapped);
    s->done_order = so_cl_store_alloc((n_tasks + 1) * sizeof *s->done_order,
                                      &s->done_mapped);
    s->completions = calloc(n_tasks + 1, 1);
    s->nodes = calloc((size_t)w->n_nodes + 1, sizeof *s->nodes);
    for (int p = 0; p < SO_CL_PHASES; p++)
        s->pool_running[p] = calloc((size_t)w->n_pools + 1, sizeof(int));
    if (!s->jobs || !s->results || !s->tasks || !s->done_order ||
        !s->completions || !s->nodes ||
        !s->pool_running[SO_CL_MAP] || !s->pool_running[SO_CL_REDUCE]) {
        so_cl_sim_free(s);
        return SO_ENOMEM;
    }
    size_t t = 0;
    for (int j = 0; j < w->n_jobs; j++) {
        so_cl_jobrt *job = &s->jobs[j];
        job->spec = &w->jobs[j];
        job->start = job->finish = -1;
        job->n[SO_CL_MAP] = w->jobs[j].n_maps;
        job->n[SO_CL_REDUCE] = w->jobs[j].n_reduces;
        job->n_pending[SO_CL_MAP] = job->n[SO_CL_MAP];
        job->n_pending[SO_CL_REDUCE] = job->n[SO_CL_REDUCE];
        for (int p = 0; p < SO_CL_PHASES; p++) {
            job->prev[p] = job->next[p] = -1;
            job->first_task[p] = (int)t; /* tasks written at arrival */
            t += (size_t)job->n[p];
        }
        s->results[j].submit = w->jobs[j].submit;
        s->results[j].start = s->results[j].finish = -1;
    }
    for (int n = 0; n < w->n_nodes; n++) {
        int slots = 0;
        for (int p = 0; p < SO_CL_PHASES; p++) {
            s->nodes[n].free[p] = w->nodes[n].slots[p];
            s->total_slots[p] += w->nodes[n].slots[p];
            slots += w->nodes[n].slots[p];
        }
        for (int r = 0; r < w->n_resources; r++)
            s->total_capacity[r] += w->nodes[n].capacity[r];
        s->nodes[n].slow = 1;
        s->nodes[n].running = malloc(((size_t)slots + 1) * sizeof(int));
        if (!s->nodes[n].running) {
            so_cl_sim_free(s);
            return SO_ENOMEM;
        }
    }
    if (so_cl_users_init(s)) {
        so_cl_sim_free(s);
        return SO_ENOMEM;
    }
    so_rng placement;
    so_rng_seed_stream(&placement, cfg->seed, 1);
    if (so_cl_locality_init(s, &placement)) {
        so_cl_sim_free(s);
        return SO_ENOMEM;
    }
    rc = cfg->scheduler->create(s, cfg->params, &s->sched_state, err);
    if (rc) {
        so_cl_sim_free(s);
        return rc;
    }
    if (w->n_jobs > 0) {
        push(s, w->jobs[0].submit, SO_CL_EV_ARRIVE, 0);
        double *phase = malloc(((size_t)w->n_nodes + 1) * sizeof *phase);
        if (!phase) {
            so_cl_sim_free(s);
            return SO_ENOMEM;
        }
        so_cl_heartbeat_phases(w, cfg->seed, phase);
        for (int n = 0; n < w->n_nodes; n++) {
            s->nodes[n].phase = phase[n];
            push(s, s->nodes[n].phase, SO_CL_EV_HEARTBEAT, n);
        }
        free(phase);
        so_cl_variability_start(s);
    }
    if (s->failed) {
        so_cl_sim_free(s);
        return SO_ENOMEM;
    }
    *out = s;
    return SO_OK;
}

/* Whether the wall-clock limit has passed (looked at every
 * SO_CL_CLOCK_EVENTS events: a clock read costs about a tenth of an
 * event). */
static int out_of_time(double deadline, unsigned *tick)
{
    if (++*tick < SO_CL_CLOCK_EVENTS)
        return 0;
    *tick = 0;
    return so_now() >= deadline;
}

int so_cl_sim_run(so_cl_sim *s)
{
    so_cl_event e;
    double deadline = s->cfg.deadline > 0     ? s->cfg.deadline
                      : s->cfg.time_limit > 0 ? so_now() + s->cfg.time_limit
                                              : INFINITY;
    unsigned tick = 0;
    while (!s->failed) {
        /* once every job is done the queued heartbeats drain: the run
         * has ended, whatever the clock says */
        if (deadline < INFINITY && s->jobs_done < s->w->n_jobs &&
            out_of_time(deadline, &tick)) {
            s->stats.stopped = 1;
            s->stats.stopped_at = s->now;
            break;
        }
        if (!so_cl_heap_pop(&s->heap, &e))
            break;
        s->now = e.time;
        int live = 1;
        switch (e.kind) {
        case SO_CL_EV_ARRIVE: on_arrive(s, e.id); break;
        case SO_CL_EV_HEARTBEAT: on_heartbeat(s, e.id); break;
        case SO_CL_EV_OOB: fill_slots(s, e.id); break;
        case SO_CL_EV_COPY_END: live = on_copy_end(s, &e); break;
        case SO_CL_EV_END: live = on_end(s, &e); break;
        case SO_CL_EV_SLOW: so_cl_slowdown_event(s, e.id); break;
        default: on_epoch(s); break;
        }
        if (e.kind == SO_CL_EV_HEARTBEAT && s->now - s->last_progress > s->stall_limit &&
            so_cl_stall_check(s))
            break;
        if (live && (e.kind == SO_CL_EV_HEARTBEAT || e.kind == SO_CL_EV_OOB))
            logf_event(s, event_names[e.kind], -1, -1, -1, e.id);
        else if (e.kind == SO_CL_EV_SLOW)
            logf_event(s, s->nodes[e.id].slowed ? "node-slow" : "node-normal",
                       -1, -1, -1, e.id);
        else if (live && (e.kind == SO_CL_EV_COPY_END || e.kind == SO_CL_EV_EPOCH))
            logf_event(s, event_names[e.kind], -1, -1,
                       e.kind == SO_CL_EV_COPY_END ? e.id : -1, -1);
        if (live) {
            s->stats.events++;
            s->stats.events_by_kind[e.kind]++;
        }
        if (s->cfg.progress && ++s->since_progress == SO_CL_PROGRESS_EVENTS) {
            s->since_progress = 0;
            s->cfg.progress(s->cfg.progress_ctx, s->now, s->jobs_done,
                            s->w->n_jobs, s->stats.events);
        }
    }
    if (s->cfg.progress && !s->failed)
        s->cfg.progress(s->cfg.progress_ctx, s->now, s->jobs_done, s->w->n_jobs,
                        s->stats.events);
    if (s->failed)
        return SO_ENOMEM;
    if (s->failure[0])
        return SO_EBACKEND;
    series_advance(s);
    for (size_t k = 0; k < s->series_len; k++)
        for (int p = 0; p < SO_CL_PHASES; p++)
            s->series[p][k] /= s->cfg.series_step;
    double first = INFINITY, last = -INFINITY;
    for (int j = 0; j < s->w->n_jobs; j++) {
        first = fmin(first, s->results[j].submit);
        last = fmax(last, s->results[j].finish);
    }
    if (s->stats.stopped)
        last = s->now;
    s->stats.makespan = s->w->n_jobs ? fmax(0, last - first) : 0;
    s->stats.jobs_done = s->jobs_done;
    for (int p = 0; p < SO_CL_PHASES; p++)
        s->stats.utilisation[p] =
            s->stats.makespan > 0 && s->total_slots[p] > 0
                ? s->stats.busy[p] / (s->total_slots[p] * s->stats.makespan)
                : 0;
    return s->failed ? SO_ENOMEM : SO_OK;
}

void so_cl_sim_free(so_cl_sim *s)
{
    if (!s)
        return;
    if (s->cfg.scheduler && s->cfg.scheduler->destroy && s->sched_state)
        s->cfg.scheduler->destroy(s->sched_state);
    if (s->jobs)
        for (int j = 0; j < s->w->n_jobs; j++) {
            for (int p = 0; p < SO_CL_PHASES; p++) {
                free(s->jobs[j].running[p]);
                free(s->jobs[j].requeued[p]);
                free(s->jobs[j].launched[p]);
            }
            so_cl_locality_close(s, j);
        }
    if (s->nodes)
        for (int n = 0; n < s->w->n_nodes; n++)
            free(s->nodes[n].running);
    for (int p = 0; p < SO_CL_PHASES; p++) {
        free(s->series[p]);
        free(s->pool_running[p]);
    }
    so_cl_heap_free(&s->heap);
    so_cl_users_free(s);
    free(s->rep_scratch);
    free(s->jobs);
    free(s->results);
    so_cl_store_free(s->tasks, (s->n_tasks + 1) * sizeof *s->tasks,
                     s->tasks_mapped);
    so_cl_store_free(s->done_order, (s->n_tasks + 1) * sizeof *s->done_order,
                     s->done_mapped);
    free(s->completions);
    free(s->nodes);
    free(s->attempts);
    free(s->free_ids);
    free(s);
}

const so_cl_stats *so_cl_sim_stats(const so_cl_sim *s) { return &s->stats; }

const so_cl_job_result *so_cl_sim_job(const so_cl_sim *s, int j)
{
    return &s->results[j];
}

size_t so_cl_sim_series(const so_cl_sim *s, int phase, const double **busy)
{
    *busy = s->series[phase];
    return s->series_len;
}

int so_cl_sim_task_completions(const so_cl_sim *s, size_t t)
{
    return s->completions[t];
}

size_t so_cl_sim_task_count(const so_cl_sim *s) { return s->n_tasks; }
