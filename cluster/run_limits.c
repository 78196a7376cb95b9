/*
 * run_limits.c — estimates of what a replay costs, checked before anything
 * large is allocated or simulated (issue 26; docs/cluster.md, "Limits that
 * keep a run finite").
 *
 * Memory: bytes per task, per slot, per node and per job, measured on this
 * engine (one job of 10^7 reduces on 10 nodes, every task active at once,
 * peaks at 515 MiB: 54 bytes per task, the workload's work (24 bytes per
 * reduce, 8 per map), the engine's task (24) and completion order (4);
 * attempts are pooled, so only running ones count (issue 33); 10^7 maps
 * peak at 362 MiB; 10^6 nodes of 1,002 slots at 4.13 GB: 4 bytes per slot,
 * about 230 per node). The estimate charges 56 bytes per task, as if every
 * task were active at once: a replay whose jobs come and go takes less
 * (tasks are held only while their job is active). The readers check the estimate as they go, before each
 * allocation that a count in the input asks for.
 *
 * Events: a replay's events are mostly heartbeats, nodes / interval per
 * second of busy time (a node skips its beats while no job is in the
 * system), plus epochs (1 / --opt epoch: 2 per second by default, up to
 * 100). The busy time is
 * estimated as the longest one attempt may take (the longest task on the
 * slowest node with a slot of its phase, at the worst contention share
 * there) and the time to drain the tasks' work at the whole cluster's
 * speed x slots, summed over busy periods: the jobs swept in submit order,
 * each adding its work to the current period, which lasts at least to its
 * submit + work + its longest map and longest reduce chained. A node of speed 1e-6 running a 1e9 s map, or a demand of
 * 4.29e9 on a capacity of 1 under "share", gives 10^15 s and more.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/run_limits.h"

#define MIB 1048576.0
#define BYTES_PER_TASK 56.0
#define BYTES_PER_SLOT 4.0
#define BYTES_PER_NODE 232.0
#define BYTES_PER_JOB 1024.0
#define BYTES_PER_REPLICA 8.0 /* the engine's placement, the locality lists */
/* A speed or share at most this slows the longest term enough to be named
 * as the cause. */
#define SLOW_FACTOR 0.1

/* SLOTOPT_MAX_MEMORY_MB into *mb (unset or empty: the default); a value
 * that is not MiB in [1, 2^30] is refused by name. */
static int env_memory_mb(double *mb, so_error *err)
{
    const char *env = getenv("SLOTOPT_MAX_MEMORY_MB");
    *mb = SO_CL_DEFAULT_MEMORY_MB;
    if (!env || !*env)
        return SO_OK;
    char *end;
    errno = 0;
    double v = strtod(env, &end);
    if (*end || errno || !(v >= 1 && v <= 1073741824.0))
        return so_error_setf(err, NULL, 0, 0, "SLOTOPT_MAX_MEMORY_MB",
                             "expected MiB in [1, 1073741824], found '%.40s'",
                             env);
    *mb = v;
    return SO_OK;
}

int so_cl_limits_read(const so_params *prm, so_cl_limits *lim, so_error *err)
{
    double mb, events = SO_CL_DEFAULT_MAX_EVENTS;
    so_params none;
    so_params_init(&none);
    int rc = env_memory_mb(&mb, err);
    if (!rc)
        rc = so_params_double(prm ? prm : &none, NULL, "max_memory_mb", mb,
                              &mb, err);
    if (!rc)
        rc = so_params_double(prm ? prm : &none, NULL, "max_events", events,
                              &events, err);
    if (rc)
        return rc;
    if (!(mb >= 1 && mb <= 1073741824.0))
        return so_error_setf(err, NULL, 0, 0, "max_memory_mb",
                             "expected MiB in [1, 1073741824], found %g", mb);
    if (!(events >= 1e3 && events <= 1e15))
        return so_error_setf(err, NULL, 0, 0, "max_events",
                             "expected a number of events in [1e3, 1e15],"
                             " found %g", events);
    lim->max_bytes = mb * MIB;
    lim->max_events = events;
    /* the engine checks the epoch (with its message); here a value it
     * would refuse reads as its default */
    so_error ignored;
    double epoch = 0.5;
    if (so_params_double(prm ? prm : &none, NULL, "epoch", 0.5, &epoch, &ignored) ||
        !(epoch >= 0.01 && epoch <= 1e6))
        epoch = 0.5;
    lim->epoch = epoch;
    return SO_OK;
}

double so_cl_memory_estimate(double nodes, double slots, double jobs,
                             double tasks, double replica_cells)
{
    return nodes * BYTES_PER_NODE + slots * BYTES_PER_SLOT +
           jobs * BYTES_PER_JOB + tasks * BYTES_PER_TASK +
           replica_cells * BYTES_PER_REPLICA;
}

int so_cl_memory_over(const so_cl_limits *lim, double bytes, const char *what,
                      char *msg, size_t size)
{
    if (bytes <= lim->max_bytes)
        return 0;
    snprintf(msg, size,
             "%s: an estimated %.1f MiB to read and replay, above the memory"
             " limit of %.1f MiB (raise it with --opt max_memory_mb=N or"
             " SLOTOPT_MAX_MEMORY_MB)",
             what, bytes / MIB, lim->max_bytes / MIB);
    return 1;
}

/* ---- events -------------------------------------------------------------- */

static double task_work(const so_cl_job_spec *js, int p, int i)
{
    if (p == SO_CL_MAP)
        return js->map_work[i];
    const so_cl_reduce_work *r = &js->reduce_work[i];
    return r->copy + r->sort + r->reduce;
}

/* The largest demand of each shared resource over every job and phase
 * (phase 2: a reduce's shuffle demand), and where it is. */
typedef struct demand_max {
    double d[SO_CL_MAX_RESOURCES];
    int job[SO_CL_MAX_RESOURCES], phase[SO_CL_MAX_RESOURCES];
} demand_max;

static void max_demands(const so_cl_workload *w, demand_max *m)
{
    memset(m, 0, sizeof *m);
    for (int j = 0; j < w->n_jobs; j++)
        for (int r = 0; r < w->n_resources; r++) {
            const so_cl_job_spec *js = &w->jobs[j];
            double d[3] = {js->demand[0][r], js->demand[1][r],
                           js->shuffle_demand[r]};
            for (int p = 0; p < 3; p++)
                if (d[p] > m->d[r]) {
                    m->d[r] = d[p];
                    m->job[r] = j;
                    m->phase[r] = p;
                }
        }
}

/* Contention share of resource r on node n with its slots full of the
 * largest demand; 1 for a hard resource or without contention. */
static double worst_share(const so_cl_workload *w, const demand_max *m, int n,
                          int r)
{
    if (w->contention != SO_CL_CONTENTION_SHARE || w->hard[r] || !(m->d[r] > 0))
        return 1;
    const so_cl_node_spec *nd = &w->nodes[n];
    double total = m->d[r] * (nd->slots[0] + nd->slots[1]);
    return total > nd->capacity[r] ? nd->capacity[r] / total : 1;
}

/* Per phase: the largest slowdown 1 / (speed x share) over the nodes with a
 * slot of it, without contention (slot R) and under each shared resource. */
typedef struct slowdown {
    double f[SO_CL_PHASES][SO_CL_MAX_RESOURCES + 1];
    int node[SO_CL_PHASES][SO_CL_MAX_RESOURCES + 1];
    double speed[SO_CL_PHASES][SO_CL_MAX_RESOURCES + 1];
    double share[SO_CL_PHASES][SO_CL_MAX_RESOURCES + 1];
} slowdown;

static void slowdowns(const so_cl_workload *w, const demand_max *m, slowdown *s)
{
    const int R = w->n_resources;
    memset(s, 0, sizeof *s);
    for (int n = 0; n < w->n_nodes; n++)
        for (int p = 0; p < SO_CL_PHASES; p++) {
            if (w->nodes[n].slots[p] <= 0)
                continue;
            double speed = w->nodes[n].speed;
            for (int r = 0; r <= R; r++) {
                double share = r < R ? worst_share(w, m, n, r) : 1;
                double f = 1 / (speed * share);
                if (f > s->f[p][r]) {
                    s->f[p][r] = f;
                    s->node[p][r] = n;
                    s->speed[p][r] = speed;
                    s->share[p][r] = share;
                }
            }
        }
}

/* Whether the job's tasks of phase p demand shared resource r. */
static int demands(const so_cl_job_spec *js, int p, int r)
{
    return js->demand[p][r] > 0 || (p == SO_CL_REDUCE && js->shuffle_demand[r] > 0);
}

typedef struct busy_job {
    double submit, chain, work[SO_CL_PHASES];
} busy_job;

static int by_submit(const void *a, const void *b)
{
    double x = ((const busy_job *)a)->submit, y = ((const busy_job *)b)->submit;
    return (x > y) - (x < y);
}

/* The busy time: the jobs swept in submit order, each adding its work at
 * the cluster's capacity (the slower phase) to the current busy period,
 * which ends no earlier than the job's submit + its work + its chained
 * longest attempts; a job submitted after the period ends opens a new one.
 * The sum of the periods. Sorts bj. */
static double busy_time(busy_job *bj, int n, const double *cap)
{
    qsort(bj, (size_t)n, sizeof *bj, by_submit);
    double busy = 0, start = 0, end = -INFINITY;
    for (int j = 0; j < n; j++) {
        double d = 0;
        for (int p = 0; p < SO_CL_PHASES; p++)
            if (bj[j].work[p] > 0)
                d = fmax(d, cap[p] > 0 ? bj[j].work[p] / cap[p] : INFINITY);
        double own = bj[j].submit + d + bj[j].chain;
        if (bj[j].submit > end) {
            if (end > -INFINITY)
                busy += end - start;
            start = bj[j].submit;
            end = own;
        } else {
            end = fmax(end + d, own);
        }
    }
    return busy + (end - start);
}

void so_cl_events_estimate(const so_cl_workload *w, const so_cl_limits *lim,
                           so_cl_event_estimate *e)
{
    double max_events = lim->max_events;
    memset(e, 0, sizeof *e);
    e->cause = SO_CL_CAUSE_NONE;
    e->job = e->task = e->node = e->resource = e->demand_job = -1;
    e->speed = e->share = 1;
    if (w->n_jobs == 0 || w->n_nodes == 0)
        return;
    demand_max m;
    slowdown s;
    max_demands(w, &m);
    slowdowns(w, &m, &s);
    const int R = w->n_resources;
    double remote = w->replicas > 0 ? w->remote_slowdown : 1;
    double work[SO_CL_PHASES] = {0, 0}, cap[SO_CL_PHASES] = {0, 0};
    double biggest = -1;
    int biggest_job = 0;
    /* per job, for the busy periods: its submit, its work per phase and its
     * longest map and longest reduce attempts chained */
    busy_job *bj = malloc((size_t)w->n_jobs * sizeof *bj);
    for (int j = 0; j < w->n_jobs; j++) {
        const so_cl_job_spec *js = &w->jobs[j];
        int n[SO_CL_PHASES] = {js->n_maps, js->n_reduces};
        double job_work = 0, chain = 0, phase_work[SO_CL_PHASES] = {0, 0};
        for (int p = 0; p < SO_CL_PHASES; p++) {
            double wmax = 0;
            int imax = 0;
            for (int i = 0; i < n[p]; i++) {
                double x = task_work(js, p, i);
                work[p] += x;
                phase_work[p] += x;
                job_work += x;
                if (x > wmax) {
                    wmax = x;
                    imax = i;
                }
            }
            if (n[p] == 0)
                continue;
            int rr = R; /* the worst slowdown this job's tasks meet */
            for (int r = 0; r < R; r++)
                if (demands(js, p, r) && s.f[p][r] > s.f[p][rr])
                    rr = r;
            double d = wmax * (p == SO_CL_MAP ? remote : 1) * s.f[p][rr];
            chain += d;
            if (d > e->longest) {
                e->longest = d;
                e->job = j;
                e->phase = p;
                e->task = imax;
                e->work = wmax * (p == SO_CL_MAP ? remote : 1);
                e->node = s.node[p][rr];
                e->speed = s.speed[p][rr];
                e->share = s.share[p][rr];
                e->resource = rr < R ? rr : -1;
            }
        }
        if (bj) {
            bj[j].submit = js->submit;
            bj[j].chain = chain;
            bj[j].work[SO_CL_MAP] = phase_work[SO_CL_MAP];
            bj[j].work[SO_CL_REDUCE] = phase_work[SO_CL_REDUCE];
        }
        if (job_work > biggest) {
            biggest = job_work;
            biggest_job = j;
        }
    }
    double slowest = INFINITY;
    for (int n = 0; n < w->n_nodes; n++) {
        for (int p = 0; p < SO_CL_PHASES; p++)
            cap[p] += w->nodes[n].speed * w->nodes[n].slots[p];
        if (w->nodes[n].speed < slowest) {
            slowest = w->nodes[n].speed;
            e->slow_node = n;
        }
    }
    for (int p = 0; p < SO_CL_PHASES; p++)
        if (work[p] > 0)
            e->drain = fmax(e->drain, cap[p] > 0 ? work[p] / cap[p] : INFINITY);
    double interval = so_cl_heartbeat_interval(w);
    e->horizon = bj ? busy_time(bj, w->n_jobs, cap)
                    : e->longest + e->drain; /* no memory: one period */
    free(bj);
    e->beats = w->n_nodes / interval;
    e->epochs = 1 / (lim->epoch > 0 ? lim->epoch : 0.5);
    e->events = e->horizon * (e->beats + e->epochs);
    if (!(e->events > max_events))
        return;
    if (e->resource >= 0) {
        e->demand_job = m.job[e->resource];
        e->demand_phase = m.phase[e->resource];
    }
    double rule = w->n_nodes / fmax(3.0, ceil(w->n_nodes / 100.0));
    if (w->heartbeat > 0 && e->horizon * (rule + e->epochs) <= max_events)
        e->cause = SO_CL_CAUSE_BEATS;
    else if (e->longest >= e->drain && e->share <= SLOW_FACTOR &&
             e->share <= e->speed)
        e->cause = SO_CL_CAUSE_SHARE;
    else if (e->longest >= e->drain && e->speed <= SLOW_FACTOR)
        e->cause = SO_CL_CAUSE_SPEED;
    else if (e->longest < e->drain && slowest <= SLOW_FACTOR) {
        e->cause = SO_CL_CAUSE_SPEED;
        e->node = e->slow_node;
        e->speed = slowest;
    } else {
        e->cause = SO_CL_CAUSE_WORK;
        if (e->longest < e->drain) {
            e->job = biggest_job; /* the most work, no one task */
            e->task = -1;
        }
    }
}

void so_cl_events_message(const so_cl_event_estimate *e, double max_events,
                          char *msg, size_t size)
{
    snprintf(msg, size,
             "the replay needs an estimated %.3g events, above max_events ="
             " %.3g (raise it with --opt max_events=N): %.3g s of busy time"
             " (periods of the jobs' work and chained longest attempts; the"
             " longest attempt %.3g s: %.3g s of work on a node of speed"
             " %g at contention share %.3g; all work drained in %.3g s) x (%.3g"
             " heartbeats + %.3g epochs per second)",
             e->events, max_events, e->horizon, e->longest, e->work, e->speed,
             e->share, e->drain, e->beats, e->epochs);
}

int so_cl_events_over(const so_cl_workload *w, const so_cl_limits *lim,
                      so_cl_event_estimate *e, char *msg, size_t size)
{
    so_cl_events_estimate(w, lim, e);
    if (!(e->events > lim->max_events))
        return 0;
    so_cl_events_message(e, lim->max_events, msg, size);
    return 1;
}

int so_cl_events_check_trace(const so_cl_workload *w, const so_cl_limits *lim,
                             const char *file, const int *job_line,
                             const int *job_col, so_error *err)
{
    so_cl_event_estimate e;
    char msg[700];
    if (!so_cl_events_over(w, lim, &e, msg, sizeof msg))
        return SO_OK;
    const char *key = "max_events";
    if (e.cause == SO_CL_CAUSE_BEATS)
        key = "heartbeat";
    else if (e.cause == SO_CL_CAUSE_SPEED)
        key = "slow_speed";
    if (e.cause == SO_CL_CAUSE_WORK && e.job >= 0)
        return so_error_setf(err, file, job_line ? job_line[e.job] : 0,
                             job_col ? job_col[e.job] : 0, "max_events",
                             "job %s: %s", w->jobs[e.job].name, msg);
    return so_error_setf(err, file, 0, 0, key, "%s", msg);
}
