/*
 * sched_priority.c — a fixed job priority order (`--scheduler priority`),
 * the schedules offline-opt searches over (cluster/offline_opt.c,
 * docs/offline.md) and replays: every free slot goes to the first job in
 * the order that has a task to run (a strict priority list, non-idling),
 * as FIFO does with submit order. With delay_reduces=1 a job's reduces wait
 * until all its maps are done (a schedule slow-start allows; it keeps reduce
 * slots free of reduces waiting for their maps).
 *
 * Option `order`: job indices (0-based, workload order: sorted by submit
 * time) separated by commas, highest priority first; jobs not named follow
 * in submit order. Empty or `submit`: submit order (FIFO); `spt`: by total
 * work, smallest first (so_cl_offline_opt's order for a trace, whose list
 * would not fit an option value). Option `tasks`: which of the
 * job's pending tasks a slot gets: `index` (the engine's pick: the
 * workload's order, local maps first), `longest` (the most work first,
 * ties by index: LPT inside the job, so its last tasks are its shortest and
 * its slots free up closer together) or `planned` (maps as a plan made at
 * the first map slot to fill, the first heartbeat with a job in the
 * system, places them, cluster/offline_plan.c: each job's maps
 * packed onto the slots so that its slots finish it together; a node's
 * free map slot takes its next planned map once that map's beat has come,
 * else a map overdue by more than 1.5 beats on any node (its own node busy
 * or without room for its resources), and stays idle otherwise; reduces
 * longest first). Option `open_first` K (with index or longest, reduces
 * not delayed; else it changes nothing): a free map slot goes first to the
 * first of the order's first K jobs (arrived, unfinished) that has
 * launched fewer maps than open its reduces
 * (ceil(slowstart x maps), jobs with reduces), then as above: the second
 * job's reduces may open early, where a strict list would hold its first
 * maps behind the first job's last ones (two jobs of 60 maps on 156 slots:
 * both open at the first wave's end, and their reduces start together). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/offline_bound.h"
#include "cluster/offline_opt.h"
#include "cluster/offline_plan.h"

static const so_option_doc priority_options[] = {
    {"order", "", "job indices (0-based, submit order) highest priority first, comma-separated;"
                  " or submit, or spt (by total work, smallest first)"},
    {"delay_reduces", "0", "1: a job's reduces wait until all its maps are done"},
    {"tasks", "index", "a job's task a slot gets: index (the workload's order), longest, or"
                       " planned (maps placed by a plan, reduces longest)"},
    {"open_first", "0", "K: a map slot goes first to the first of the order's first K jobs"
                        " that has launched fewer maps than open its reduces (tasks index or"
                        " longest, delay_reduces 0; 0: off)"},
    {NULL, NULL, NULL},
};

typedef struct {
    int n;
    int *order; /* job indices, highest priority first */
    /* the arrived, unfinished jobs linked in the order (so an assign skips
     * neither done nor future jobs one by one: a trace has thousands):
     * rank[j] job j's place in order, head the first, next / prev the
     * links (-1: none) */
    int *rank, *next_job, *prev_job, head;
    int delay, open_first;
    /* tasks=longest: every task id, each job's phase longest first, at
     * sim->jobs[j].first_task[p] like the tasks; next[p][j]: the first that
     * may still be pending. NULL: tasks=index */
    int *by_work;
    int *next[SO_CL_PHASES];
    int planned, plan_made; /* tasks=planned; its plan made (at the first map slot) */
    so_cl_map_plan plan;
} prio_state;

static void prio_destroy(void *state)
{
    prio_state *st = state;
    if (st) {
        free(st->order);
        free(st->rank);
        free(st->next_job);
        free(st->prev_job);
        free(st->by_work);
        for (int p = 0; p < SO_CL_PHASES; p++)
            free(st->next[p]);
        so_cl_map_plan_free(&st->plan);
        free(st);
    }
}

static double task_work(const so_cl_job_spec *js, int p, int i)
{
    if (p == SO_CL_MAP)
        return js->map_work[i];
    const so_cl_reduce_work *r = &js->reduce_work[i];
    return r->copy + r->sort + r->reduce;
}

/* tasks=longest: each job's tasks of each phase by work, largest first */
static int longest_first(prio_state *st, const so_cl_sim *sim)
{
    int n = sim->w->n_jobs;
    size_t nn = n > 0 ? (size_t)n : 1;
    st->by_work = malloc((sim->n_tasks ? sim->n_tasks : 1) * sizeof *st->by_work);
    for (int p = 0; p < SO_CL_PHASES; p++)
        st->next[p] = calloc(nn, sizeof *st->next[p]);
    if (!st->by_work || !st->next[0] || !st->next[1])
        return SO_ENOMEM;
    so_cl_keyed *key = NULL;
    for (int j = 0; j < n; j++)
        for (int p = 0; p < SO_CL_PHASES; p++) {
            int k = sim->jobs[j].n[p], first = sim->jobs[j].first_task[p];
            so_cl_keyed *grown = realloc(key, (k > 0 ? (size_t)k : 1) * sizeof *key);
            if (!grown) {
                free(key);
                return SO_ENOMEM;
            }
            key = grown;
            for (int i = 0; i < k; i++)
                key[i] = (so_cl_keyed){-task_work(&sim->w->jobs[j], p, i), i};
            qsort(key, (size_t)k, sizeof *key, so_cl_keyed_cmp);
            for (int i = 0; i < k; i++)
                st->by_work[first + i] = first + key[i].index;
        }
    free(key);
    return SO_OK;
}

/* tasks=longest: launches job j's longest pending task of phase p on node */
static int launch_longest(prio_state *st, so_cl_sim *sim, int j, int node, int p)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    int *next = &st->next[p][j];
    for (; *next < job->n[p]; ++*next) {
        int t = st->by_work[job->first_task[p] + *next];
        if (sim->tasks[t].state == SO_CL_PENDING)
            return so_cl_launch_task(sim, t, node);
    }
    return 0;
}

static void rank_jobs(prio_state *st)
{
    for (int k = 0; k < st->n; k++)
        st->rank[st->order[k]] = k;
}

static int prio_create(so_cl_sim *sim, const so_params *prm, void **state, so_error *err)
{
    *state = NULL;
    const char *text = so_params_str(prm, priority_options, "order", "");
    long long delay = 0, open_first = 0;
    int rc = so_params_int(prm, priority_options, "delay_reduces", 0, &delay, err);
    if (!rc)
        rc = so_params_int(prm, priority_options, "open_first", 0, &open_first, err);
    if (rc)
        return rc;
    if (delay != 0 && delay != 1)
        return so_error_setf(err, NULL, 0, 0, "delay_reduces", "expected 0 or 1");
    if (open_first < 0 || open_first > 1000000)
        return so_error_setf(err, NULL, 0, 0, "open_first", "expected 0 .. 1000000");
    int n = sim->w->n_jobs;
    prio_state *st = calloc(1, sizeof *st);
    char *seen = calloc(n > 0 ? (size_t)n : 1, 1);
    size_t nn = n > 0 ? (size_t)n : 1;
    if (st) {
        st->order = malloc(nn * sizeof *st->order);
        st->rank = malloc(nn * sizeof *st->rank);
        st->next_job = malloc(nn * sizeof *st->next_job);
        st->prev_job = malloc(nn * sizeof *st->prev_job);
        st->head = -1;
    }
    if (!st || !seen || !st->order || !st->rank || !st->next_job || !st->prev_job) {
        free(seen);
        prio_destroy(st);
        return SO_ENOMEM;
    }
    st->delay = (int)delay;
    /* with delayed reduces opening them early is void: a list then */
    st->open_first = delay ? 0 : (int)open_first;
    const char *tasks = so_params_str(prm, priority_options, "tasks", "index");
    if (strcmp(tasks, "index") && strcmp(tasks, "longest") && strcmp(tasks, "planned")) {
        free(seen);
        prio_destroy(st);
        return so_error_setf(err, NULL, 0, 0, "tasks",
                             "expected index, longest or planned, found '%s'", tasks);
    }
    st->planned = !strcmp(tasks, "planned");
    if (strcmp(tasks, "index") && longest_first(st, sim)) {
        free(seen);
        prio_destroy(st);
        return SO_ENOMEM;
    }
    if (!strcmp(text, "spt")) {
        free(seen);
        if (so_cl_spt_order(sim->w, st->order)) {
            prio_destroy(st);
            return SO_ENOMEM;
        }
        st->n = n;
        rank_jobs(st);
        *state = st;
        return SO_OK;
    }
    if (!strcmp(text, "submit"))
        text = "";
    for (const char *p = text; *p;) {
        char *end;
        long j = strtol(p, &end, 10);
        if (end == p || j < 0 || j >= n || seen[j] || (*end && *end != ',')) {
            free(seen);
            prio_destroy(st);
            return so_error_setf(err, NULL, 0, 0, "order",
                                 "expected submit, spt or distinct job indices 0..%d"
                                 " separated by commas, found '%s'", n - 1, text);
        }
        seen[j] = 1;
        st->order[st->n++] = (int)j;
        p = *end ? end + 1 : end;
    }
    for (int j = 0; j < n; j++)
        if (!seen[j])
            st->order[st->n++] = j;
    free(seen);
    rank_jobs(st);
    *state = st;
    return SO_OK;
}

/* A job arrives: linked after the arrived jobs ahead of it in the order. */
static void prio_arrive(void *state, so_cl_sim *sim, int job)
{
    (void)sim;
    prio_state *st = state;
    int before = -1, at = st->head;
    for (; at >= 0 && st->rank[at] < st->rank[job]; at = st->next_job[at])
        before = at;
    st->prev_job[job] = before;
    st->next_job[job] = at;
    if (at >= 0)
        st->prev_job[at] = job;
    if (before >= 0)
        st->next_job[before] = job;
    else
        st->head = job;
}

static void prio_finish(void *state, so_cl_sim *sim, int job)
{
    (void)sim;
    prio_state *st = state;
    int before = st->prev_job[job], after = st->next_job[job];
    if (before >= 0)
        st->next_job[before] = after;
    else
        st->head = after;
    if (after >= 0)
        st->prev_job[after] = before;
}

/* tasks=planned: the plan made at the first map slot, then followed
 * (so_cl_map_plan_launch). */
static int launch_planned(prio_state *st, so_cl_sim *sim, int node)
{
    if (!st->plan_made) {
        if (so_cl_map_plan_build(sim, st->order, st->n, &st->plan)) {
            sim->failed = 1;
            return 0;
        }
        st->plan_made = 1;
        /* a map waits for its planned beat, then 1.5 beats overdue, at most
         * (cluster/stall.c) */
        const so_cl_map_plan *pl = &st->plan;
        for (int e = 0; e < pl->first[pl->n_nodes]; e++)
            so_cl_stall_at_least(sim, pl->start[e] + 2 * sim->interval);
    }
    return so_cl_map_plan_launch(&st->plan, sim, node);
}

/* Job j's next task of the phase on node: its longest pending (tasks=longest)
 * or the engine's pick (a requeued task behind the cursor, a speculative
 * copy). */
static int launch_next(prio_state *st, so_cl_sim *sim, int j, int node, int phase)
{
    return (st->by_work && launch_longest(st, sim, j, node, phase)) ||
           so_cl_launch(sim, j, node, phase);
}

/* open_first: a map of the first of the order's first K jobs (arrived,
 * unfinished) whose launched maps do not yet open its reduces */
static int launch_opening(prio_state *st, so_cl_sim *sim, int node)
{
    for (int k = 0; k < st->open_first && k < st->n; k++) {
        int j = st->order[k];
        const so_cl_jobrt *job = &sim->jobs[j];
        if (!job->arrived || job->finished)
            continue;
        const so_cl_job_spec *js = &sim->w->jobs[j];
        if (js->n_reduces == 0)
            continue;
        double open = ceil(js->slowstart * js->n_maps);
        if (job->n[SO_CL_MAP] - job->n_pending[SO_CL_MAP] < open &&
            launch_next(st, sim, j, node, SO_CL_MAP))
            return 1;
    }
    return 0;
}

static int prio_assign(void *state, so_cl_sim *sim, int node, int phase)
{
    prio_state *st = state;
    if (st->planned && phase == SO_CL_MAP)
        return launch_planned(st, sim, node);
    if (st->open_first && phase == SO_CL_MAP && launch_opening(st, sim, node))
        return 1;
    for (int j = st->head; j >= 0; j = st->next_job[j]) {
        const so_cl_jobrt *job = &sim->jobs[j];
        if (phase == SO_CL_REDUCE && st->delay && job->done[SO_CL_MAP] < job->n[SO_CL_MAP])
            continue;
        if (launch_next(st, sim, j, node, phase))
            return 1;
    }
    return 0;
}

static const so_cl_hooks prio_hooks = {
    .job_arrive = prio_arrive,
    .job_finish = prio_finish,
};

const so_cl_scheduler so_cl_sched_priority = {
    "priority", "a fixed job priority order (offline-opt's schedules; option order)",
    priority_options, prio_create, NULL, prio_assign, prio_destroy, &prio_hooks,
};
