/*
 * sched_ras.c — RAS online: the Resource-aware Adaptive Scheduler of Polo et
 * al., "Resource-aware Adaptive Scheduling for MapReduce Clusters"
 * (Middleware 2011), section 3, as a scheduler of the cluster model.
 *
 * Placement control loop (sec. 3.2): every control cycle of period T
 * (option `cycle`, default 10 s; the paper: "of the order of tens of
 * seconds", we take its lower end; docs/ras-online.md measures 3, 10 and
 * 30 s) the scheduler builds one RAS instance (formulations/ras.h) from
 * what the JobTracker knows and runs a registered RAS placement backend on
 * it (option `ras_backend`, default `ras`, Algorithm 1; `ras-glpk`,
 * `ras-enum` or any later RAS backend plug in by name). The instance:
 *   - TaskTrackers: every node with its capacity (eq. 6's Omega);
 *   - jobs: the arrived, unfinished ones, in job order, with their map and
 *     reduce tasks not yet done;
 *   - running tasks (option `running`): "placed" (default) — a running
 *     task is part of its job's allocation: it counts in s_pend / r_pend,
 *     and the placement P[j][tt] is the number of job slots of job j on tt
 *     (running and new tasks, sec. 3.1: "job slots"); or "fixed" — running
 *     tasks are a fixed load outside the instance: capacities less their
 *     load, s_pend / r_pend = pending tasks only, P = new tasks to launch
 *     this cycle. "fixed" is the literal reading of "the placement covers
 *     what can be started"; its utility ignores what a job already runs, so
 *     a job running many tasks is as hungry as a starving one (measured in
 *     docs/ras-online.md);
 *   - s_req (sec. 3.2, the Job Completion Time Estimator, with the
 *     estimator of [6]: concurrency = remaining maps x mean map time / time
 *     left): a job with a goal needs n = so_ras_s_req_from_goal(pending +
 *     running maps, submit + goal, observed mean map duration, now)
 *     concurrent maps (mode fixed: less its running maps, within [1,
 *     s_pend]). The mean is the Job Status Updater's "average task length
 *     observed" (observe.h: completed maps, launch to end, contention
 *     slow-downs included). Before a job's first map completes there is no
 *     estimate: s_req = s_pend (the paper's Fig. 5: a new job's utility
 *     stays low "since no tasks ... have been completed and thus its
 *     resource demand estimation is not yet accurate"). A job without a
 *     goal has Experiment 1's "highly relaxed" goal: s_req = 1 (any placed
 *     map gives a utility >= 0, as Fig. 5 describes);
 *   - demands per phase (Table 2's profiles, the workload's map_demand,
 *     shuffle_demand, reduce_demand): the cluster model's shuffling reducer
 *     demands a fixed shuffle_demand (not one per map placed), so the
 *     instance has shuffle = 0 and the reducer's current profile in
 *     shuffle_base and reduce; on a hard resource (checked at launch by
 *     the engine) a reducer counts with its larger profile, as the engine
 *     holds it. A demand above every node's capacity is capped at the
 *     largest capacity (else such a task could never be placed);
 *   - shuffle-to-reduce switch (Algorithm 1, lines 26-28): a job with no
 *     pending map left ends its map phase in this cycle (its last maps
 *     run): its reducers, running and new, count with the reduce profile
 *     (instance phase "reduce"); before, with the shuffle profile;
 *   - when reducers enter (option `reduces`): "switch" (default) — a job's
 *     reducers join the instance at the switch; "slowstart" — as soon as
 *     Hadoop's slow-start opens them; "first" — Algorithm 1 as written:
 *     from slow-start on, and at a heartbeat the Task Scheduler starts a
 *     node's placed reducers before its maps (the engine offers map slots
 *     first, so maps would otherwise take the room the placement gave the
 *     reducers). Algorithm 1 places reducers first
 *     (lines 1-8) and a reducer holds its memory from launch (Table 2:
 *     60 % of a TaskTracker for Sort); from slow-start on, the nine jobs'
 *     reducers then take most of the memory through the whole map phases
 *     (Experiment 1: 9,183 s against 5,871 s, docs/ras-online.md).
 *
 * Task Scheduler (sec. 3.5): P holds until the next cycle. At a heartbeat
 * a free resource on a TaskTracker goes to the job whose placement there
 * is not yet met (mode placed: fewer of its tasks run there than P, and
 * fewer run in all than its placed total; mode fixed: fewer launched
 * there this cycle than P), lowest utility of the placement first, ties to
 * the lower job index, and only when the task's demand fits the
 * TaskTracker's current load on every resource (overload protection:
 * "picking jobs ... that do not exceed its current capacity, sorted by
 * lowest utility first"). Transitions: a new cycle replaces P; running
 * tasks are never killed, so a TaskTracker running 2 maps of A with a new
 * placement of 4 maps of B starts B's maps "only as previous tasks
 * complete and enough resources are freed" (sec. 3.5). Slots are not
 * fixed: every node gets as many slots per phase as tasks could ever fit
 * on it (so_cl_set_slots): slots never bind, resources do.
 *
 * Choices where the paper is silent: the cycle runs on the grid k x T from
 * the first epoch (an arrival waits for the next cycle, at most T); the
 * mean map duration includes contention slow-downs (it is what is
 * observed); a backend that fails or returns no placement is replaced for
 * that cycle by `ras` (Algorithm 1), so a time-limited exact backend never
 * stalls the cluster. The event log (--events-out) gets one line per job
 * and cycle: "T ras-cycle job=J utility=U s_req=.. s_pend=.. r_pend=..
 * placed_maps=.. placed_reduces=.. running_maps=.. running_reduces=..".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/sim_internal.h"
#include "heuristics/ras.h"

static const so_option_doc ras_options[] = {
    {"cycle", "10", "RAS control cycle T, seconds (the paper: tens of seconds)"},
    {"ras_backend", "ras",
     "RAS placement backend run every cycle (ras, ras-glpk, ras-enum, ...)"},
    {"ras_time_limit", "5", "seconds per placement for the backend (0: none)"},
    {"running", "placed",
     "running tasks in the placement: placed (they hold job slots of their"
     " job, counted in its allocation) or fixed (a fixed load outside the"
     " instance; the placement covers the free capacity only)"},
    {"reduces", "switch",
     "when a job's reducers join the placement: switch (its map phase ends"
     " in the cycle: no pending map), slowstart (once Hadoop's slow-start"
     " opens them) or first (Algorithm 1 as written: from slow-start on, and"
     " a heartbeat starts a node's placed reducers before its maps)"},
    {NULL, NULL, NULL},
};

typedef struct ras_state {
    const so_backend *backend, *fallback;
    so_params bprm;
    double cycle;
    double next_cycle;
    int early_reduces; /* reducers placed from slow-start on, not at the switch */
    int reducers_first; /* reduces=first: a heartbeat starts reducers first */
    int fixed;         /* running = fixed: running tasks are outside the
                        * instance (capacity less their load, pending tasks
                        * only), P counts this cycle's launches */
    int *launched[SO_CL_PHASES]; /* J * TT, mode fixed */
    int J, TT, R;
    int *target[SO_CL_PHASES];   /* J * TT: tasks placed this cycle */
    int *total[SO_CL_PHASES];    /* J: job slots placed over all nodes */
    double *utility;             /* J: utility in the placement */
    int *order;                  /* jobs of the placement, lowest utility first */
    int n_order;
    /* per phase, the jobs of `order` with a placement > 0 on each node, in
     * that order: node n's are by_node[p][node_start[p][n] ..
     * node_start[p][n + 1]) (the Task Scheduler visits only these) */
    int *node_start[SO_CL_PHASES];
    int *by_node[SO_CL_PHASES];
    size_t cap_by_node[SO_CL_PHASES];
    int *act;                    /* scratch: active jobs */
    double *max_cap;             /* R: largest capacity over nodes */
    long long cycles, fallbacks;
} ras_state;

static void ras_destroy(void *p)
{
    ras_state *st = p;
    if (!st)
        return;
    for (int k = 0; k < SO_CL_PHASES; k++) {
        free(st->target[k]);
        free(st->total[k]);
        free(st->launched[k]);
        free(st->node_start[k]);
        free(st->by_node[k]);
    }
    free(st->utility);
    free(st->order);
    free(st->act);
    free(st->max_cap);
    free(st);
}

/* A job's map phase ends in this cycle: no pending map left. */
static int switching(const so_cl_jobrt *job)
{
    return job->n_pending[SO_CL_MAP] == 0;
}

/* Demand of one task of job j in phase p on resource r, as the placement
 * and the overload protection count it (see the header). */
static double task_demand(const so_cl_sim *sim, const ras_state *st, int j,
                          int p, int r)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    const so_cl_job_spec *spec = job->spec;
    double d;
    if (p == SO_CL_MAP)
        d = spec->demand[SO_CL_MAP][r];
    else if (sim->hard[r])
        d = so_cl_held_demand(spec, p, r);
    else
        d = switching(job) ? spec->demand[SO_CL_REDUCE][r]
                           : spec->shuffle_demand[r];
    return fmin(d, st->max_cap[r]);
}

/* Load of the attempts running on node (resource r). */
static double node_load(const so_cl_sim *sim, const ras_state *st, int node,
                        int r)
{
    const so_cl_nodert *nd = &sim->nodes[node];
    double load = 0;
    for (int k = 0; k < nd->n_running; k++) {
        const so_cl_attempt *a = &sim->attempts[nd->running[k]];
        load += task_demand(sim, st, a->job, a->phase, r);
    }
    return load;
}

/* Slots of a phase on a node that never bind: the sum over jobs of the
 * tasks of that phase each could fit alone on the empty node (a bound on
 * any mix), at most 4096. */
static int node_slots(const so_cl_sim *sim, const ras_state *st, int node,
                      int p)
{
    const so_cl_workload *w = sim->w;
    double total = 0;
    for (int j = 0; j < w->n_jobs; j++) {
        const so_cl_job_spec *spec = &w->jobs[j];
        int n = p == SO_CL_MAP ? spec->n_maps : spec->n_reduces;
        double fit = n;
        for (int r = 0; r < w->n_resources; r++) {
            double d = spec->demand[p][r];
            if (p == SO_CL_REDUCE)
                d = fmin(d, spec->shuffle_demand[r]);
            d = fmin(d, st->max_cap[r]);
            if (d > 0)
                fit = fmin(fit, floor(w->nodes[node].capacity[r] / d + 1e-9));
        }
        total += fit;
    }
    return total < 1 ? 1 : total > 4096 ? 4096 : (int)total;
}

static int ras_create(so_cl_sim *sim, const so_params *prm, void **state,
                      so_error *err)
{
    *state = NULL;
    const so_cl_workload *w = sim->w;
    double cycle = 10, limit = 5;
    int rc = so_params_double(prm, ras_options, "cycle", 10, &cycle, err);
    if (!rc)
        rc = so_params_double(prm, ras_options, "ras_time_limit", 5, &limit, err);
    if (rc)
        return rc;
    if (!(cycle > 0) || cycle > 1e6)
        return so_error_setf(err, NULL, 0, 0, "cycle",
                             "expected seconds in (0, 1e6], found %g", cycle);
    if (!(limit >= 0) || limit > 1e6)
        return so_error_setf(err, NULL, 0, 0, "ras_time_limit",
                             "expected seconds in [0, 1e6], found %g", limit);
    const char *when = so_params_str(prm, ras_options, "reduces", "switch");
    if (strcmp(when, "switch") && strcmp(when, "slowstart") &&
        strcmp(when, "first"))
        return so_error_setf(err, NULL, 0, 0, "reduces",
                             "expected switch, slowstart or first, found '%s'",
                             when);
    const char *running = so_params_str(prm, ras_options, "running", "placed");
    if (strcmp(running, "placed") && strcmp(running, "fixed"))
        return so_error_setf(err, NULL, 0, 0, "running",
                             "expected placed or fixed, found '%s'", running);
    const char *name = so_params_str(prm, ras_options, "ras_backend", "ras");
    const so_backend *b = so_backend_find(name);
    if (!b || strcmp(b->problem, "ras"))
        return so_error_setf(err, NULL, 0, 0, "ras_backend",
                             "expected a RAS placement backend (see 'slotopt"
                             " list'), found '%s'", name);
    if (w->n_resources == 0)
        return so_error_setf(err, NULL, 0, 0, "resources",
                             "the ras scheduler places by resources: the"
                             " workload's cluster must name resources and"
                             " capacities, and its jobs demands");
    ras_state *st = calloc(1, sizeof *st);
    if (!st)
        return SO_ENOMEM;
    st->backend = b;
    st->fallback = so_backend_find("ras");
    so_params_init(&st->bprm);
    st->bprm.time_limit = limit;
    st->cycle = cycle;
    so_cl_stall_at_least(sim, cycle); /* an arrival waits for the next cycle */
    st->reducers_first = !strcmp(when, "first");
    st->early_reduces = st->reducers_first || !strcmp(when, "slowstart");
    st->fixed = !strcmp(running, "fixed");
    st->next_cycle = -INFINITY;
    st->J = w->n_jobs;
    st->TT = w->n_nodes;
    st->R = w->n_resources;
    size_t cells = (size_t)st->J * (size_t)st->TT + 1;
    int ok = 1;
    for (int k = 0; k < SO_CL_PHASES; k++) {
        st->target[k] = calloc(cells, sizeof(int));
        st->total[k] = calloc((size_t)st->J + 1, sizeof(int));
        st->launched[k] = calloc(cells, sizeof(int));
        st->node_start[k] = calloc((size_t)st->TT + 1, sizeof(int));
        ok = ok && st->target[k] && st->total[k] && st->launched[k] &&
             st->node_start[k];
    }
    st->utility = calloc((size_t)st->J + 1, sizeof(double));
    st->order = calloc((size_t)st->J + 1, sizeof(int));
    st->act = calloc((size_t)st->J + 1, sizeof(int));
    st->max_cap = calloc((size_t)st->R + 1, sizeof(double));
    if (!ok || !st->utility || !st->order || !st->act || !st->max_cap ||
        !st->fallback) {
        ras_destroy(st);
        return SO_ENOMEM;
    }
    for (int n = 0; n < st->TT; n++)
        for (int r = 0; r < st->R; r++)
            st->max_cap[r] = fmax(st->max_cap[r], w->nodes[n].capacity[r]);
    for (int n = 0; n < st->TT; n++)
        for (int p = 0; p < SO_CL_PHASES; p++) {
            rc = so_cl_set_slots(sim, n, p, node_slots(sim, st, n, p));
            if (rc) {
                ras_destroy(st);
                return rc == SO_ENOMEM ? rc : so_error_setf(err, NULL, 0, 0, "slots", "cannot set a node's slots");
            }
        }
    *state = st;
    return SO_OK;
}

/* s_req of an active job (see the header). */
static int required_maps(const so_cl_sim *sim, const ras_state *st, int j)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    int pend = job->n_pending[SO_CL_MAP], run = job->running_tasks[SO_CL_MAP];
    int left = pend + run;
    if (left == 0 || (st->fixed && pend == 0))
        return 0;
    if (!(job->spec->goal > 0))
        return 1;
    const so_cl_obs *o = so_cl_job_obs(sim, j, SO_CL_MAP);
    int need = o->n == 0 ? left
                         : so_ras_s_req_from_goal(left,
                                                  job->spec->submit +
                                                      job->spec->goal,
                                                  o->mean, sim->now);
    if (!st->fixed)
        return need;
    need -= run; /* mode fixed: the running maps count against it */
    return need < 1 ? 1 : need > pend ? pend : need;
}

/* Builds the cycle's instance over the n active jobs act[]. */
static so_ras *build_instance(const so_cl_sim *sim, const ras_state *st,
                              const int *act, int n)
{
    const so_cl_workload *w = sim->w;
    so_ras *ras = so_ras_new((size_t)st->R, (size_t)st->TT, (size_t)n);
    if (!ras)
        return NULL;
    for (int r = 0; r < st->R; r++)
        if (!(ras->resources[r] = strdup(w->resource[r])))
            goto fail;
    for (int tt = 0; tt < st->TT; tt++)
        for (int r = 0; r < st->R; r++)
            ras->capacity[(size_t)tt * st->R + r] =
                st->fixed ? fmax(0, w->nodes[tt].capacity[r] -
                                        node_load(sim, st, tt, r))
                          : w->nodes[tt].capacity[r];
    for (int k = 0; k < n; k++) {
        int j = act[k];
        const so_cl_jobrt *job = &sim->jobs[j];
        so_ras_job *rj = &ras->jobs[k];
        if (!(rj->name = strdup(job->spec->name[0] ? job->spec->name : "job")))
            goto fail;
        int run = !st->fixed;
        rj->s_pend = job->n_pending[SO_CL_MAP] + run * job->running_tasks[SO_CL_MAP];
        rj->r_pend = job->reduces_open && (st->early_reduces || switching(job))
                         ? job->n_pending[SO_CL_REDUCE] +
                               run * job->running_tasks[SO_CL_REDUCE]
                         : 0;
        rj->s_req = required_maps(sim, st, j);
        rj->parallel_copies = 5;
        rj->reduce_phase = switching(job);
        for (int r = 0; r < st->R; r++) {
            rj->map[r] = task_demand(sim, st, j, SO_CL_MAP, r);
            double red = task_demand(sim, st, j, SO_CL_REDUCE, r);
            rj->reduce[r] = red;
            rj->shuffle_base[r] = red; /* the profile counted now */
            rj->shuffle[r] = 0;
        }
    }
    return ras;
fail:
    so_ras_free(ras);
    return NULL;
}

/* A result's placement into pm / pr (n x TT) and its jobs' utilities
 * (-infinity where it gives none). */
static void read_result(const ras_state *st, const so_result *res, int n,
                        int *pm, int *pr, double *u)
{
    json_t *sol = so_result_solution(res);
    json_t *jobs = json_object_get(sol, "jobs");
    for (int k = 0; k < n; k++) {
        json_t *x = json_object_get(json_array_get(jobs, (size_t)k), "utility");
        u[k] = json_is_number(x) ? json_number_value(x) : -INFINITY;
    }
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(sol, "placement"), i, c) {
        json_int_t k = json_integer_value(json_object_get(c, "job"));
        json_int_t tt = json_integer_value(json_object_get(c, "tt"));
        if (k < 0 || k >= n || tt < 0 || tt >= st->TT)
            continue;
        size_t idx = (size_t)k * (size_t)st->TT + (size_t)tt;
        pm[idx] = (int)json_integer_value(json_object_get(c, "maps"));
        pr[idx] = (int)json_integer_value(json_object_get(c, "reduces"));
    }
}

/* Algorithm 1 (so_ras_place, the `ras` backend's default 10 rounds) on
 * ras's n jobs, and their utilities as its result would give them. */
static int algorithm1(const ras_state *st, const so_ras *ras, int n, int *pm,
                      int *pr, double *u)
{
    long long rounds_run;
    so_ras_eval ev;
    /* the backend's guard: a placement over a capacity or pending limit is
     * an internal error, not a placement */
    if (so_ras_place(ras, 10, pm, pr, &rounds_run) ||
        so_ras_evaluate(ras, pm, pr, &ev) || !ev.feasible)
        return -1;
    size_t row = (size_t)st->TT;
    for (int k = 0; k < n; k++) {
        int s = 0, q = 0;
        for (size_t tt = 0; tt < row; tt++) {
            s += pm[(size_t)k * row + tt];
            q += pr[(size_t)k * row + tt];
        }
        double x = so_ras_utility(&ras->jobs[k], s, q);
        u[k] = isfinite(x) ? x : -INFINITY; /* null in a result */
    }
    return 0;
}

/* The cycle's placement of ras's n jobs into pm / pr (n x TT, zeroed) and
 * their utilities; ras is freed. Algorithm 1 (the default backend, and the
 * fallback when another backend gives no placement) runs directly: the
 * same placement and utilities as through its result object, without
 * building and parsing one every cycle (issue 16: that cost as much as the
 * algorithm). Returns 0, or -1 when there is no placement. */
static int place(const ras_state *st, so_ras *ras, int n, int *pm, int *pr,
                 double *u, int *fell_back)
{
    *fell_back = 0;
    if (st->backend == st->fallback) {
        int rc = algorithm1(st, ras, n, pm, pr, u);
        so_ras_free(ras);
        *fell_back = rc != 0; /* the fallback (itself) was tried, as before */
        return rc;
    }
    so_problem *prob = NULL;
    if (so_ras_problem(ras, "ras-cycle", &prob))
        return -1; /* ras freed */
    so_result *res = NULL;
    so_error err;
    so_error_clear(&err);
    int rc = so_solve(st->backend, prob, &st->bprm, &res, &err);
    if (rc >= 0 && res && so_result_solution(res)) {
        read_result(st, res, n, pm, pr, u);
        rc = 0;
    } else {
        *fell_back = 1;
        rc = algorithm1(st, so_ras_of(prob), n, pm, pr, u);
    }
    so_result_free(res);
    so_problem_free(prob);
    return rc;
}

static int by_utility(const ras_state *st, int a, int b)
{
    if (st->utility[a] != st->utility[b])
        return st->utility[a] < st->utility[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

static void log_cycle(so_cl_sim *sim, const ras_state *st, int j,
                      const so_ras_job *rj, int maps, int reduces)
{
    FILE *fp = sim->cfg.event_log;
    if (!fp)
        return;
    const so_cl_jobrt *job = &sim->jobs[j];
    char u[32];
    if (isinf(st->utility[j]))
        snprintf(u, sizeof u, "-inf");
    else
        snprintf(u, sizeof u, "%.6f", st->utility[j]);
    fprintf(fp,
            "%.6f ras-cycle job=%d utility=%s s_req=%d s_pend=%d r_pend=%d"
            " placed_maps=%d placed_reduces=%d running_maps=%d"
            " running_reduces=%d\n",
            sim->now, j, u, rj->s_req, rj->s_pend, rj->r_pend, maps, reduces,
            job->running_tasks[SO_CL_MAP], job->running_tasks[SO_CL_REDUCE]);
}

/* Fills node_start / by_node from order and the placement (one pass to
 * count, one to place, both in order). Returns 0, or -1 out of memory. */
static int index_by_node(ras_state *st)
{
    size_t row = (size_t)st->TT;
    for (int p = 0; p < SO_CL_PHASES; p++) {
        int *start = st->node_start[p];
        size_t cells = 0;
        memset(start, 0, (row + 1) * sizeof(int));
        for (int k = 0; k < st->n_order; k++) {
            const int *t = st->target[p] + (size_t)st->order[k] * row;
            for (size_t n = 0; n < row; n++)
                if (t[n] > 0) {
                    start[n + 1]++;
                    cells++;
                }
        }
        if (cells > st->cap_by_node[p]) {
            int *b = realloc(st->by_node[p], cells * sizeof *b);
            if (!b) {
                memset(start, 0, (row + 1) * sizeof(int));
                return -1;
            }
            st->by_node[p] = b;
            st->cap_by_node[p] = cells;
        }
        for (size_t n = 0; n < row; n++)
            start[n + 1] += start[n];
        /* place with start[n] as a cursor, then shift the starts back */
        for (int k = 0; k < st->n_order; k++) {
            const int *t = st->target[p] + (size_t)st->order[k] * row;
            for (size_t n = 0; n < row; n++)
                if (t[n] > 0)
                    st->by_node[p][start[n]++] = st->order[k];
        }
        for (size_t n = row; n > 0; n--)
            start[n] = start[n - 1];
        start[0] = 0;
    }
    return 0;
}

static void control_cycle(ras_state *st, so_cl_sim *sim)
{
    /* only the last cycle's jobs (its order) have placements and launches
     * to clear: O(their rows), not O(every job of the workload x TT) */
    size_t row = (size_t)st->TT;
    for (int o = 0; o < st->n_order; o++) {
        size_t j = (size_t)st->order[o];
        for (int k = 0; k < SO_CL_PHASES; k++) {
            memset(st->target[k] + j * row, 0, row * sizeof(int));
            memset(st->launched[k] + j * row, 0, row * sizeof(int));
            st->total[k][j] = 0;
        }
    }
    st->n_order = 0;
    for (int k = 0; k < SO_CL_PHASES; k++)
        memset(st->node_start[k], 0, ((size_t)st->TT + 1) * sizeof(int));
    int n = 0;
    for (int j = 0; j < st->J; j++)
        if (sim->jobs[j].arrived && !sim->jobs[j].finished)
            st->act[n++] = j;
    if (n == 0)
        return;
    st->cycles++;
    so_ras *ras = build_instance(sim, st, st->act, n);
    if (!ras) {
        sim->failed = 1;
        return;
    }
    /* keep what the log needs: the instance is freed with the problem */
    so_ras_job *copy = calloc((size_t)n, sizeof *copy);
    if (!copy) {
        so_ras_free(ras);
        sim->failed = 1;
        return;
    }
    for (int k = 0; k < n; k++) {
        copy[k].s_req = ras->jobs[k].s_req;
        copy[k].s_pend = ras->jobs[k].s_pend;
        copy[k].r_pend = ras->jobs[k].r_pend;
    }
    size_t cells = (size_t)n * (size_t)st->TT + 1;
    int *pm = calloc(cells, sizeof(int)), *pr = calloc(cells, sizeof(int));
    int *maps = calloc((size_t)n, sizeof(int)), *reds = calloc((size_t)n, sizeof(int));
    double *u = calloc((size_t)n, sizeof(double));
    int fell_back = 0;
    if (!pm || !pr || !maps || !reds || !u) {
        so_ras_free(ras);
        sim->failed = 1;
        n = 0;
    } else if (place(st, ras, n, pm, pr, u, &fell_back)) {
        memset(pm, 0, cells * sizeof(int)); /* no placement this cycle */
        memset(pr, 0, cells * sizeof(int));
        for (int k = 0; k < n; k++)
            u[k] = -INFINITY;
    }
    st->fallbacks += fell_back;
    for (int k = 0; k < n; k++) {
        int j = st->act[k];
        st->utility[j] = u[k];
        for (int tt = 0; tt < st->TT; tt++) {
            size_t from = (size_t)k * (size_t)st->TT + (size_t)tt;
            size_t idx = (size_t)j * (size_t)st->TT + (size_t)tt;
            st->target[SO_CL_MAP][idx] = pm[from];
            st->target[SO_CL_REDUCE][idx] = pr[from];
            maps[k] += pm[from];
            reds[k] += pr[from];
        }
    }
    for (int k = 0; k < n; k++) {
        st->total[SO_CL_MAP][st->act[k]] = maps[k];
        st->total[SO_CL_REDUCE][st->act[k]] = reds[k];
        st->order[st->n_order++] = st->act[k];
        log_cycle(sim, st, st->act[k], &copy[k], maps[k], reds[k]);
    }
    /* insertion sort: a handful of jobs */
    for (int a = 1; a < st->n_order; a++) {
        int x = st->order[a], b = a;
        for (; b > 0 && by_utility(st, x, st->order[b - 1]) < 0; b--)
            st->order[b] = st->order[b - 1];
        st->order[b] = x;
    }
    if (index_by_node(st))
        sim->failed = 1;
    free(pm);
    free(pr);
    free(u);
    free(maps);
    free(reds);
    free(copy);
}

static void ras_allocate(void *state, so_cl_sim *sim)
{
    ras_state *st = state;
    if (sim->now < st->next_cycle - 1e-9)
        return;
    st->next_cycle = (floor(sim->now / st->cycle + 1e-9) + 1) * st->cycle;
    control_cycle(st, sim);
}

/* Overload protection: the task fits the node's current load. */
static int fits_now(const so_cl_sim *sim, const ras_state *st, int j,
                    int node, int p)
{
    for (int r = 0; r < st->R; r++) {
        double cap = sim->w->nodes[node].capacity[r];
        double load = node_load(sim, st, node, r) + task_demand(sim, st, j, p, r);
        if (load > cap * (1 + 1e-9) + 1e-9)
            return 0;
    }
    return 1;
}

/* Tasks of job j in phase p running on node. */
static int running_on(const so_cl_sim *sim, int node, int j, int p)
{
    const so_cl_nodert *nd = &sim->nodes[node];
    int n = 0;
    for (int k = 0; k < nd->n_running; k++) {
        const so_cl_attempt *a = &sim->attempts[nd->running[k]];
        n += a->job == j && a->phase == p;
    }
    return n;
}

/* The Task Scheduler for one phase: a job placed on node whose placement
 * there is not met, lowest utility first, if its task fits now. */
static int ras_assign_phase(ras_state *st, so_cl_sim *sim, int node, int phase)
{
    /* the jobs placed on node, in order: a job with no placement there
     * would be passed over (P = 0 is met) */
    const int *placed = st->by_node[phase];
    for (int k = st->node_start[phase][node];
         k < st->node_start[phase][node + 1]; k++) {
        int j = placed[k];
        const so_cl_jobrt *job = &sim->jobs[j];
        size_t idx = (size_t)j * st->TT + (size_t)node;
        if (job->finished || so_cl_pending(job, phase) == 0)
            continue;
        if (st->fixed ? st->launched[phase][idx] >= st->target[phase][idx]
                      : job->running_tasks[phase] >= st->total[phase][j] ||
                            running_on(sim, node, j, phase) >=
                                st->target[phase][idx])
            continue;
        if (!fits_now(sim, st, j, node, phase))
            continue;
        if (so_cl_launch(sim, j, node, phase)) {
            st->launched[phase][idx]++;
            return 1;
        }
    }
    return 0;
}

static int ras_assign(void *state, so_cl_sim *sim, int node, int phase)
{
    ras_state *st = state;
    /* reduces=first: Algorithm 1 places reducers before maps (lines 1-8);
     * the Task Scheduler starts them first too, before the node's maps
     * take the room (the engine offers map slots first) */
    if (st->reducers_first && phase == SO_CL_MAP &&
        ras_assign_phase(st, sim, node, SO_CL_REDUCE))
        return 1;
    return ras_assign_phase(st, sim, node, phase);
}

const so_cl_scheduler so_cl_sched_ras = {
    "ras",
    "RAS (Polo et al. 2011): a resource-aware placement every control cycle,"
    " enforced lowest utility first, no fixed slots",
    ras_options,
    ras_create,
    ras_allocate,
    ras_assign,
    ras_destroy,
    NULL,
};
