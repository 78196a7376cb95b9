/*
 * sched_flex.c — FLEX (Wolf et al., "FLEX: a slot allocation scheduling
 * optimizer for MapReduce workloads", Middleware 2010) as the allocation
 * layer of the Hadoop fair scheduler:
 *   sec. 1: "hfs handing flex the Map phase minimum slots m_1..m_J", flex
 *   handing back s_j >= m_j that replace fair's goals; fair's assignment
 *   layer (the deficit index, deficit_index.h) enforces them;
 *   sec. 2.2: epoch-based, one FLEX instance per phase (map, reduce) each
 *   epoch over the active jobs; only the first interval of FLEX's malleable
 *   schedule is enforced (so_flex_allocate, heuristics/flex.h: MPS over the
 *   generic and metric-specific orders, sec. 3);
 *   sec. 2.5 / 4.2: a job's remaining work is its remaining tasks times
 *   their task time, "re-estimated at the completion of each task".
 * The instance, per phase, over the listed jobs with runnable tasks:
 *   S   = the phase's slots;
 *   C_j = remaining work (slot-seconds), estimated from observed task
 *         times (see Estimation below), or with the oracle: pending tasks x
 *         the mean task work of the job's phase (from the workload) + each
 *         running task's work not yet done (its work less elapsed x node
 *         speed, its most advanced attempt); at least 1 ms;
 *   m_j = the job's part of its pool's minimum share, as fair would give it
 *         (pool minimum capped at the pool's demand, scaled down when the
 *         pools' minima exceed S, split among the pool's jobs by the
 *         waterline over their weights), rounded down; 0 without a minimum
 *         then at least 1 while the job learns its task time;
 *   M_j = the job's runnable tasks (pending + running), at most S and at
 *         most its pool's maximum (max_maps / max_reduces); a pool of
 *         several jobs is held to its maximum in total by fair's
 *         assignment layer (FLEX's model has no group bound);
 *   metric = --opt metric (default response: average response time), with
 *         the workload's job weight as w_j.
 * Estimation (sec. 2.5 / 4.2, the default; docs/cluster.md): a job's
 * task time per phase is the mean duration of its completed tasks of that
 * phase (cluster/observe.h, what the JobTracker sees) — for a reduce, from
 * the later of its launch and its job's last map completion (the time a
 * reduce launched at slow-start spends waiting for maps is the map
 * phase's, not reduce work; Hadoop's job history records each reduce's
 * shuffle end); before its first
 * completion in a phase, the mean of the other listed jobs' estimates of
 * that phase (1 s when no job has one: then only task counts tell jobs
 * apart), and the job gets m_j >= 1 ("at least one slot per new phase to
 * learn it"; in submission order while the minima fit in S). Pending tasks
 * count one task time each; a running task (its most advanced attempt)
 * elapsed x (1 - p) / p with p its progress score (LATE's estimate, what
 * Hadoop reports), or task time - elapsed while p = 0; a running reduce
 * the task time less its time since the later of its launch and the last
 * map's completion (the whole task time while maps still run).
 * Oracle (`--opt oracle=1`): the workload's true work instead (pending
 * tasks at their phase's mean work, running tasks' work not yet done), no
 * learning minimum: no real scheduler knows it; kept for comparison.
 * Re-solve rule (`--opt resolve_epochs=k`, default 8; the paper is silent
 * on what an epoch re-solves): a phase's instance is solved again when the
 * jobs it would list changed since its last solve (a job arrived, has
 * nothing left to run, or runs again after a failure), when the phase's
 * slot count changed, or when k epochs passed since its last solve;
 * otherwise the targets of the last solve stand (a job whose maxima or
 * estimates moved meanwhile keeps its target until then; fair's
 * assignment layer gives a slot no job can use to the next deficit).
 * k = 1 is a solve every epoch (the results before the rule); k = 8 (4 s
 * of 0.5 s epochs) changes the FB-2009 sample's mean response on 20 nodes
 * by +0.7 % and costs 1/9 of the solves (docs/BENCHMARKS.md, issue 16).
 * Cost per epoch (issue 16): whether the listed jobs changed is known in
 * O(1) from the hooks (a job's listable state changes only at its own
 * events: track); a solve is O(n log n) per order (sorts, MPS) plus the
 * estimates over the listed jobs, except on an overloaded phase: without
 * pool minima, when S or more listed jobs are still learning their task
 * time, their learning minima fill every slot and FLEX's first interval is
 * those minima whatever the order (so_flex_allocate), found in O(S log J)
 * from a ranked set of those jobs (solve_overloaded, cluster/id_set.h);
 * on an underloaded phase (the maxima fit in S, most solves of a day on
 * 3,000 nodes) every job gets M_j whatever the order, and so_flex_allocate
 * builds no order (issue 33).
 * A full solve reads no phase list: the listable jobs are a bit set kept
 * by the hooks, each job's pending and running counts and completed task
 * times a view refreshed at each epoch for the jobs the hooks touched
 * (so_cl_dx_take_changed), and the targets to reset the jobs given a
 * non-zero one; only a job with running attempts of the phase reads the
 * engine for its remaining work (estimated_work). Same instance, bit for
 * bit, as one built from the phase list (--opt verify=1 checks it at every
 * solve); FLEX's own solve (so_flex_allocate) cuts the MPS replays of the
 * orders that provably lose (heuristics/flex_search.c).
 * Metrics needing deadlines or SLA steps are refused, since the workload
 * format carries neither; response-time offsets (time already spent) do
 * not change a minisum optimum and are left out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/deficit_index.h"
#include "cluster/id_set.h"
#include "cluster/observe.h"
#include "heuristics/flex.h"

static const so_option_doc flex_options[] = {
    {"metric", "response",
     "FLEX metric: response, weighted-response (job weights), stretch or"
     " makespan"},
    {"local_search", "0",
     "1: FLEX improves its best order by local search each epoch (slower)"},
    {"oracle", "0",
     "1: FLEX reads the workload's true task work (no real scheduler can);"
     " 0: it estimates task times from the tasks completed so far"},
    {"resolve_epochs", "8",
     "FLEX re-solves a phase when its set of listed jobs changed (a job"
     " arrived or has nothing left to run) or after this many epochs;"
     " 1: every epoch"},
    {"verify", "0",
     "1: each solve also builds its instance from the phase list and the"
     " engine's state, and fails the run if it differs from the one kept"
     " incrementally (a self-check for tests; same results)"},
    {NULL, NULL, NULL},
};

/* What a solve reads of a job's phase, refreshed from the engine at each
 * epoch for the jobs touched since the last one (refresh): pending tasks,
 * tasks running, running attempts, completed tasks and their mean time
 * (for a map; a reduce's come from reduce_n and reduce_sum). */
typedef struct job_view {
    int pending, running_tasks, n_running, done;
    double mean;
} job_view;

/* One FLEX instance under construction: the instance, instance job ->
 * simulator job, whether each job still learns its task time, and the
 * estimates. */
typedef struct instance {
    so_flex *f;              /* capacity: every job */
    int *job_of;
    unsigned char *learning;
    double *estimate;
} instance;

typedef struct flex_state {
    so_flex *f;              /* capacity: every job */
    so_flex_options opt;
    int oracle;              /* 1: true work from the workload */
    int resolve_epochs;      /* re-solve at least every this many epochs */
    int since[SO_CL_PHASES]; /* epochs since the phase's last solve */
    size_t listed_n[SO_CL_PHASES]; /* jobs listed at the last solve */
    int64_t listed_slots[SO_CL_PHASES]; /* S at the last solve */
    int blocked_pool[SO_CL_PHASES]; /* some pool has maximum 0 */
    int pool_minimum[SO_CL_PHASES]; /* some pool has a minimum share */
    /* Per phase and job, kept by the hooks (track): listed if solved now,
     * listed at the last solve, no completed task of the phase yet. */
    unsigned char *listable[SO_CL_PHASES], *at_solve[SO_CL_PHASES];
    unsigned char *unlearnt[SO_CL_PHASES];
    size_t n_listable[SO_CL_PHASES];
    long long differ[SO_CL_PHASES]; /* jobs with listable != at_solve */
    int *moved[SO_CL_PHASES];       /* jobs whose listable changed since the
                                     * last solve (each once: mark) */
    size_t n_moved[SO_CL_PHASES];
    unsigned char *mark[SO_CL_PHASES];
    so_cl_id_set learners[SO_CL_PHASES]; /* listable and unlearnt jobs */
    int *given[SO_CL_PHASES];  /* jobs with a target > 0 from the last solve */
    size_t n_given[SO_CL_PHASES];
    /* Jobs whose target may be non-zero (every job given a non-zero target
     * since its last reset to 0, each once: nz_mark). */
    int *nz[SO_CL_PHASES];
    size_t n_nz[SO_CL_PHASES];
    unsigned char *nz_mark[SO_CL_PHASES];
    uint64_t *listable_bits[SO_CL_PHASES]; /* listable, one bit per job */
    size_t n_words;
    job_view *view[SO_CL_PHASES]; /* per job (refresh) */
    int *pool_of;            /* per job: its pool */
    double *weight_of;       /* per job: its weight */
    int verify;              /* 1: check the instance against a rebuild */
    instance check;          /* the rebuild (verify) */
    double *estimate;        /* per instance job: estimated task time */
    double *maps_done_at;    /* per job: when its last map completed, or -1 */
    double *reduce_sum;      /* per job: completed reduces' time after maps */
    int *reduce_n;
    unsigned char *learning; /* per instance job: no completed task yet */
    int64_t *slots;          /* FLEX's allocation, per instance job */
    int *job_of;             /* instance job -> simulator job */
    instance in;             /* f, job_of, learning, estimate */
    double *mean_work[SO_CL_PHASES]; /* per job: mean task work of a phase */
    double *pool_min;        /* per pool: its minimum for this epoch */
    double *job_w, *zero, *demand, *share; /* one pool's jobs (waterline) */
    int *members;
    so_cl_dx *dx;            /* the assignment layer's deficit order */
    so_flex_work *work;      /* so_flex_allocate's memory between solves */
} flex_state;

static void flex_destroy(void *p)
{
    flex_state *st = p;
    if (!st)
        return;
    so_flex_free(st->f);
    free(st->slots);
    free(st->estimate);
    free(st->maps_done_at);
    free(st->reduce_sum);
    free(st->reduce_n);
    free(st->learning);
    free(st->job_of);
    for (int k = 0; k < SO_CL_PHASES; k++) {
        free(st->mean_work[k]);
        free(st->listable[k]);
        free(st->at_solve[k]);
        free(st->unlearnt[k]);
        free(st->moved[k]);
        free(st->mark[k]);
        free(st->given[k]);
        free(st->nz[k]);
        free(st->nz_mark[k]);
        free(st->listable_bits[k]);
        free(st->view[k]);
        so_cl_id_set_free(&st->learners[k]);
    }
    free(st->pool_of);
    free(st->weight_of);
    so_flex_free(st->check.f);
    free(st->check.job_of);
    free(st->check.learning);
    free(st->check.estimate);
    free(st->pool_min);
    free(st->job_w);
    free(st->zero);
    free(st->demand);
    free(st->share);
    free(st->members);
    so_cl_dx_free(st->dx);
    so_flex_work_free(st->work);
    free(st);
}

static double reduce_total(const so_cl_reduce_work *r)
{
    return r->copy + r->sort + r->reduce;
}

static void mean_works(flex_state *st, const so_cl_workload *w)
{
    for (int j = 0; j < w->n_jobs; j++) {
        const so_cl_job_spec *js = &w->jobs[j];
        double m = 0, r = 0;
        for (int i = 0; i < js->n_maps; i++)
            m += js->map_work[i];
        for (int i = 0; i < js->n_reduces; i++)
            r += reduce_total(&js->reduce_work[i]);
        st->mean_work[SO_CL_MAP][j] = js->n_maps ? m / js->n_maps : 0;
        st->mean_work[SO_CL_REDUCE][j] = js->n_reduces ? r / js->n_reduces : 0;
    }
}

static int flex_create(so_cl_sim *sim, const so_params *prm, void **state,
                       so_error *err)
{
    *state = NULL;
    const char *name = so_params_str(prm, flex_options, "metric", "response");
    int metric = so_flex_metric_parse(name);
    if (metric != SO_FLEX_RESPONSE && metric != SO_FLEX_WRESPONSE &&
        metric != SO_FLEX_STRETCH && metric != SO_FLEX_MAKESPAN)
        return so_error_setf(err, NULL, 0, 0, "metric",
                             "expected response, weighted-response, stretch or"
                             " makespan, found \"%s\" (deadline and SLA"
                             " metrics need data the workload does not carry)",
                             name);
    long long ls = 0;
    int rc = so_params_int(prm, flex_options, "local_search", 0, &ls, err);
    if (rc)
        return rc;
    if (ls != 0 && ls != 1)
        return so_error_setf(err, NULL, 0, 0, "local_search",
                             "expected 0 or 1, found %lld", ls);
    long long oracle = 0;
    rc = so_params_int(prm, flex_options, "oracle", 0, &oracle, err);
    if (rc)
        return rc;
    if (oracle != 0 && oracle != 1)
        return so_error_setf(err, NULL, 0, 0, "oracle",
                             "expected 0 or 1, found %lld", oracle);
    long long every = 8;
    rc = so_params_int(prm, flex_options, "resolve_epochs", 8, &every, err);
    if (rc)
        return rc;
    if (every < 1 || every > 1000000)
        return so_error_setf(err, NULL, 0, 0, "resolve_epochs",
                             "expected an integer in [1, 1000000], found %lld",
                             every);
    long long verify = 0;
    rc = so_params_int(prm, flex_options, "verify", 0, &verify, err);
    if (rc)
        return rc;
    if (verify != 0 && verify != 1)
        return so_error_setf(err, NULL, 0, 0, "verify",
                             "expected 0 or 1, found %lld", verify);
    flex_state *st = calloc(1, sizeof *st);
    if (!st)
        return SO_ENOMEM;
    size_t nj = (size_t)sim->w->n_jobs + 1, np = (size_t)sim->w->n_pools + 1;
    st->f = so_flex_new(nj, 0);
    st->slots = calloc(nj, sizeof *st->slots);
    st->estimate = calloc(nj, sizeof *st->estimate);
    st->maps_done_at = malloc(nj * sizeof *st->maps_done_at);
    st->reduce_sum = calloc(nj, sizeof *st->reduce_sum);
    st->reduce_n = calloc(nj, sizeof *st->reduce_n);
    st->learning = calloc(nj, 1);
    st->job_of = calloc(nj, sizeof *st->job_of);
    int ok = st->f && st->slots && st->estimate && st->learning && st->job_of &&
             st->maps_done_at && st->reduce_sum && st->reduce_n;
    for (size_t j = 0; ok && j < nj; j++)
        st->maps_done_at[j] = -1;
    for (int k = 0; k < SO_CL_PHASES; k++) {
        st->mean_work[k] = calloc(nj, sizeof(double));
        st->listable[k] = calloc(nj, 1);
        st->at_solve[k] = calloc(nj, 1);
        st->unlearnt[k] = malloc(nj);
        st->moved[k] = calloc(nj, sizeof(int));
        st->mark[k] = calloc(nj, 1);
        st->given[k] = calloc(nj, sizeof(int));
        st->nz[k] = calloc(nj, sizeof(int));
        st->nz_mark[k] = calloc(nj, 1);
        st->listable_bits[k] = calloc(nj / 64 + 1, sizeof(uint64_t));
        st->view[k] = calloc(nj, sizeof(job_view));
        ok = ok && st->mean_work[k] && st->listable[k] && st->at_solve[k] &&
             st->unlearnt[k] && st->moved[k] && st->mark[k] && st->given[k] &&
             st->nz[k] && st->nz_mark[k] && st->listable_bits[k] &&
             st->view[k] && !so_cl_id_set_init(&st->learners[k], (int)nj);
        if (st->unlearnt[k])
            memset(st->unlearnt[k], 1, nj);
    }
    st->pool_min = calloc(np, sizeof(double));
    st->job_w = calloc(nj, sizeof(double));
    st->zero = calloc(nj, sizeof(double));
    st->demand = calloc(nj, sizeof(double));
    st->share = calloc(nj, sizeof(double));
    st->members = calloc(nj, sizeof(int));
    st->dx = so_cl_dx_new(sim);
    st->n_words = nj / 64 + 1;
    st->pool_of = calloc(nj, sizeof(int));
    st->weight_of = calloc(nj, sizeof(double));
    st->work = so_flex_work_new();
    ok = ok && st->work && st->pool_min && st->job_w && st->zero && st->demand && st->share &&
         st->members && st->dx && st->pool_of && st->weight_of;
    for (int j = 0; ok && j < sim->w->n_jobs; j++) {
        st->pool_of[j] = sim->w->jobs[j].pool;
        st->weight_of[j] = sim->w->jobs[j].weight;
    }
    ok = ok && !so_flex_work_ids(st->work, st->job_of, (int)nj);
    st->verify = (int)verify;
    if (ok && verify) {
        st->check.f = so_flex_new(nj, 0);
        st->check.job_of = calloc(nj, sizeof(int));
        st->check.learning = calloc(nj, 1);
        st->check.estimate = calloc(nj, sizeof(double));
        ok = st->check.f && st->check.job_of && st->check.learning &&
             st->check.estimate;
    }
    if (!ok) {
        flex_destroy(st);
        return SO_ENOMEM;
    }
    st->f->metric = metric;
    st->f->aggregate = metric == SO_FLEX_MAKESPAN ? SO_FLEX_MAX : SO_FLEX_SUM;
    st->in = (instance){st->f, st->job_of, st->learning, st->estimate};
    if (st->check.f) {
        st->check.f->metric = metric;
        st->check.f->aggregate = st->f->aggregate;
    }
    so_flex_options_init(&st->opt);
    st->opt.local_search = (int)ls;
    st->oracle = (int)oracle;
    st->resolve_epochs = (int)every;
    mean_works(st, sim->w);
    for (int p = 0; p < sim->w->n_pools; p++)
        for (int k = 0; k < SO_CL_PHASES; k++) {
            st->blocked_pool[k] |= sim->w->pools[p].max_share[k] == 0;
            st->pool_minimum[k] |= sim->w->pools[p].min_share[k] > 0;
        }
    *state = st;
    return SO_OK;
}

/* Work of a running attempt not yet done, in speed-1 seconds. */
static double attempt_left(const so_cl_sim *sim, const so_cl_attempt *a)
{
    const so_cl_jobrt *job = &sim->jobs[a->job];
    int i = a->task - job->first_task[a->phase];
    double work = a->phase == SO_CL_MAP
                      ? job->spec->map_work[i] * a->scale
                      : reduce_total(&job->spec->reduce_work[i]);
    double done = (sim->now - a->start) * sim->w->nodes[a->node].speed;
    return fmax(0.0, work - done);
}

/* C_j: pending tasks at the phase's mean work plus what running tasks have
 * left (each task counted once, through its most advanced attempt). */
static double remaining_work(const flex_state *st, const so_cl_sim *sim, int j,
                             int phase)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    double c = so_cl_pending(job, phase) * st->mean_work[phase][j];
    for (int k = 0; k < job->n_running[phase]; k++) {
        const so_cl_attempt *a = &sim->attempts[job->running[phase][k]];
        const so_cl_task *t = &sim->tasks[a->task];
        if (t->attempt[0] != job->running[phase][k])
            continue;
        double left = attempt_left(sim, a);
        if (t->n_running == 2)
            left = fmin(left, attempt_left(sim, &sim->attempts[t->attempt[1]]));
        c += left;
    }
    return fmax(c, 1e-3);
}

/* A reduce's time that counts as reduce work: from the later of its launch
 * and its job's last map completion. */
static double reduce_time(const flex_state *st, const so_cl_sim *sim,
                          const so_cl_attempt *a)
{
    double from = st->maps_done_at[a->job];
    if (from < 0)
        return 0;
    return sim->now - fmax(a->start, from);
}

/* Whether job j would be listed in the phase's instance: in the phase list
 * with a capped demand > 0 (runnable tasks, its pool's maximum not 0). */
static int listable(const flex_state *st, const so_cl_sim *sim, int j, int p)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    return job->in_list[p] && job->n_pending[p] + job->running_tasks[p] > 0 &&
           !(st->blocked_pool[p] &&
             sim->w->pools[job->spec->pool].max_share[p] == 0);
}

/* After any event of job j (every hook, after the hook's own records):
 * its listable and learning states. The engine changes a job's lists,
 * demand and completed tasks only in events about the job (arrival,
 * launch, end, kill), each followed by one of these hooks, so the states
 * are current at every epoch: `differ` counts the jobs listable now and
 * not at the last solve or the reverse (same_jobs), `learners` holds the
 * listable jobs with no completed task of the phase yet; the deficit index
 * is told too. */
static void track(flex_state *st, const so_cl_sim *sim, int j)
{
    so_cl_dx_touch(st->dx, j); /* and the deficit index repairs it */
    for (int p = 0; p < SO_CL_PHASES; p++) {
        unsigned char now = (unsigned char)listable(st, sim, j, p);
        if (now != st->listable[p][j]) {
            st->listable[p][j] = now;
            st->listable_bits[p][j / 64] ^= UINT64_C(1) << (j % 64);
            st->n_listable[p] += now ? 1 : (size_t)-1;
            st->differ[p] += now != st->at_solve[p][j] ? 1 : -1;
            if (!st->mark[p][j]) {
                st->mark[p][j] = 1;
                st->moved[p][st->n_moved[p]++] = j;
            }
        }
        int done = p == SO_CL_MAP ? so_cl_job_obs(sim, j, p)->n : st->reduce_n[j];
        st->unlearnt[p][j] = done == 0;
        so_cl_id_set_put(&st->learners[p], j, now && done == 0);
    }
}

/* A solve lists the listable jobs: they are the reference of same_jobs. */
static void solved_listing(flex_state *st, int p)
{
    for (size_t k = 0; k < st->n_moved[p]; k++) {
        int j = st->moved[p][k];
        st->at_solve[p][j] = st->listable[p][j];
        st->mark[p][j] = 0;
    }
    st->n_moved[p] = 0;
    st->differ[p] = 0;
}

static void flex_job_event(void *state, so_cl_sim *sim, int job)
{
    track(state, sim, job);
}

static void flex_attempt_launch(void *state, so_cl_sim *sim, int id)
{
    track(state, sim, sim->attempts[id].job);
}

/* Hook: an attempt ends. Records, for a completed one, the job's last map
 * completion and each completed reduce's time after it. */
static void flex_attempt_end(void *state, so_cl_sim *sim, int id, int node,
                             double duration)
{
    flex_state *st = state;
    const so_cl_attempt *a = &sim->attempts[id];
    const so_cl_jobrt *job = &sim->jobs[a->job];
    (void)node;
    (void)duration;
    if (a->state == SO_CL_DONE && a->phase == SO_CL_MAP) {
        if (job->done[SO_CL_MAP] == job->n[SO_CL_MAP] &&
            st->maps_done_at[a->job] < 0)
            st->maps_done_at[a->job] = sim->now;
    } else if (a->state == SO_CL_DONE) {
        st->reduce_sum[a->job] += reduce_time(st, sim, a);
        st->reduce_n[a->job]++;
    }
    track(st, sim, a->job);
}

static const so_cl_hooks flex_hooks = {
    .job_arrive = flex_job_event,
    .attempt_launch = flex_attempt_launch,
    .attempt_end = flex_attempt_end,
    .job_finish = flex_job_event,
};

/* Estimated time left of a running attempt: for a map, elapsed x
 * (1 - p) / p from its progress score p, or the task time estimate less
 * elapsed while p = 0; for a reduce, the estimate less its time after the
 * maps (reduce_time). */
static double estimated_left(const flex_state *st, const so_cl_sim *sim,
                             const so_cl_attempt *a, double task_time)
{
    if (a->phase == SO_CL_REDUCE)
        return fmax(0.0, task_time - reduce_time(st, sim, a));
    double ran = sim->now - a->start, p = so_cl_progress(sim, a);
    if (p > 0)
        return ran * (1.0 - p) / p;
    return fmax(0.0, task_time - ran);
}

/* C_j without the oracle: pending tasks x the estimated task time plus the
 * estimated time left of each running task (most advanced attempt). */
static double estimated_work(const flex_state *st, const so_cl_sim *sim,
                             int j, int phase, double task_time)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    double c = so_cl_pending(job, phase) * task_time;
    for (int k = 0; k < job->n_running[phase]; k++) {
        const so_cl_attempt *a = &sim->attempts[job->running[phase][k]];
        const so_cl_task *t = &sim->tasks[a->task];
        if (t->attempt[0] != job->running[phase][k])
            continue;
        double left = estimated_left(st, sim, a, task_time);
        if (t->n_running == 2)
            left = fmin(left, estimated_left(st, sim,
                                             &sim->attempts[t->attempt[1]],
                                             task_time));
        c += left;
    }
    return fmax(c, 1e-3);
}

/* Task time estimates of the instance's jobs (see the header), from the
 * engine's state: the reference of estimate_from_views (verify). */
static void estimate_task_times(const flex_state *st, const so_cl_sim *sim,
                                instance *in, int phase)
{
    double sum = 0;
    int known = 0;
    for (size_t k = 0; k < in->f->n; k++) {
        int j = in->job_of[k];
        const so_cl_obs *o = so_cl_job_obs(sim, j, phase);
        int n = phase == SO_CL_MAP ? o->n : st->reduce_n[j];
        in->learning[k] = n == 0;
        in->estimate[k] = phase == SO_CL_MAP ? o->mean
                          : n ? st->reduce_sum[j] / n : 0;
        if (n > 0) {
            sum += in->estimate[k];
            known++;
        }
    }
    double prior = known ? sum / known : 1.0;
    for (size_t k = 0; k < in->f->n; k++) {
        if (in->learning[k])
            in->estimate[k] = prior;
        in->f->work[k] = estimated_work(st, sim, in->job_of[k], phase,
                                        in->estimate[k]);
    }
}

/* The same from the job views: the same sums in the same order; a job
 * with no running attempt of the phase needs no engine state (its work is
 * its pending tasks at the estimate, estimated_work's value). */
static void estimate_from_views(flex_state *st, const so_cl_sim *sim, int phase)
{
    instance *in = &st->in;
    const job_view *view = st->view[phase];
    double sum = 0;
    int known = 0;
    for (size_t k = 0; k < in->f->n; k++) {
        int j = in->job_of[k];
        int n = phase == SO_CL_MAP ? view[j].done : st->reduce_n[j];
        in->learning[k] = n == 0;
        in->estimate[k] = phase == SO_CL_MAP ? view[j].mean
                          : n ? st->reduce_sum[j] / n : 0;
        if (n > 0) {
            sum += in->estimate[k];
            known++;
        }
    }
    double prior = known ? sum / known : 1.0;
    for (size_t k = 0; k < in->f->n; k++) {
        int j = in->job_of[k];
        if (in->learning[k])
            in->estimate[k] = prior;
        in->f->work[k] = view[j].n_running == 0
                             ? fmax(view[j].pending * in->estimate[k], 1e-3)
                             : estimated_work(st, sim, j, phase, in->estimate[k]);
    }
}

/* At least one slot for a job still learning its task time, in submission
 * (list) order while the minima fit in S. */
static void learning_minima(instance *in)
{
    so_flex *f = in->f;
    int64_t used = 0;
    for (size_t k = 0; k < f->n; k++)
        used += f->min[k];
    for (size_t k = 0; k < f->n && used < f->slots; k++)
        if (in->learning[k] && f->min[k] == 0) {
            f->min[k] = 1;
            used++;
        }
}

/* m_j: fair's minimum shares, pool by pool, split among each pool's
 * instance jobs by the waterline over their weights, rounded down. */
static void minima(flex_state *st, const so_cl_sim *sim, instance *in, int phase)
{
    so_flex *f = in->f;
    const so_cl_workload *w = sim->w;
    double sum = 0;
    for (size_t k = 0; k < f->n; k++)
        f->min[k] = 0;
    if (!st->pool_minimum[phase])
        return; /* no pool has a minimum share: every m_j is 0 */
    for (int p = 0; p < w->n_pools; p++)
        st->pool_min[p] = 0;
    for (size_t k = 0; k < f->n; k++)
        st->pool_min[st->pool_of[in->job_of[k]]] += (double)f->max[k];
    for (int p = 0; p < w->n_pools; p++) {
        st->pool_min[p] = fmin(st->pool_min[p], w->pools[p].min_share[phase]);
        sum += st->pool_min[p];
    }
    double scale = sum > (double)f->slots ? (double)f->slots / sum : 1.0;
    for (int p = 0; p < w->n_pools; p++) {
        if (st->pool_min[p] <= 0)
            continue;
        int n = 0;
        for (size_t k = 0; k < f->n; k++)
            if (st->pool_of[in->job_of[k]] == p) {
                st->members[n] = (int)k;
                st->job_w[n] = st->weight_of[in->job_of[k]];
                st->zero[n] = 0;
                st->demand[n++] = (double)f->max[k];
            }
        so_cl_waterline(n, st->job_w, st->zero, st->demand,
                        st->pool_min[p] * scale, st->share);
        for (int i = 0; i < n; i++)
            f->min[st->members[i]] = (int64_t)floor(st->share[i] + 1e-9);
    }
}

/* Adds instance job k for simulator job j of capped demand d. */
static void list_job(const flex_state *st, so_cl_sim *sim, instance *in, int j,
                     int d, int phase)
{
    so_flex *f = in->f;
    size_t k = f->n++;
    in->job_of[k] = j;
    f->work[k] = st->oracle ? remaining_work(st, sim, j, phase) : 0;
    f->max[k] = d < f->slots ? d : f->slots;
    f->weight[k] = st->weight_of[j];
}

/* The rest of an instance once its jobs are listed: estimates, minima. */
static void complete(flex_state *st, so_cl_sim *sim, instance *in, int phase,
                     int from_views)
{
    if (!st->oracle && from_views)
        estimate_from_views(st, sim, phase);
    else if (!st->oracle)
        estimate_task_times(st, sim, in, phase);
    minima(st, sim, in, phase);
    if (!st->oracle)
        learning_minima(in);
}

/* The phase's instance as the phase list gives it: every job of the list
 * with a capped demand > 0, read from the engine (the reference of
 * build_from_views; verify). */
static void build_from_list(flex_state *st, so_cl_sim *sim, instance *in,
                            int phase)
{
    in->f->slots = sim->total_slots[phase];
    in->f->n = 0;
    for (int j = sim->head[phase]; j >= 0 && in->f->slots >= 1;
         j = sim->jobs[j].next[phase]) {
        so_cl_jobrt *job = &sim->jobs[j];
        int d = (int)so_cl_pool_cap(sim->w, job->spec->pool, phase,
                                    so_cl_demand(job, phase));
        if (d > 0)
            list_job(st, sim, in, j, d, phase);
    }
    if (in->f->n > 0)
        complete(st, sim, in, phase, 0);
}

/* The same instance from what the hooks keep: the listable jobs (a job is
 * listable iff it is in the phase list with a capped demand > 0, track) in
 * job order, which is the list's, and their views. O(J / 64) for the bit
 * set plus O(1) per listed job but for its running attempts. */
static void build_from_views(flex_state *st, so_cl_sim *sim, int phase)
{
    instance *in = &st->in;
    in->f->slots = sim->total_slots[phase];
    in->f->n = 0;
    const uint64_t *bits = st->listable_bits[phase];
    for (size_t w = 0; w < st->n_words && in->f->slots >= 1; w++)
        for (uint64_t b = bits[w]; b; b &= b - 1) {
            int j = (int)(w * 64) + __builtin_ctzll(b);
            const job_view *v = &st->view[phase][j];
            int d = (int)so_cl_pool_cap(sim->w, st->pool_of[j], phase,
                                        v->pending + v->running_tasks);
            if (d > 0)
                list_job(st, sim, in, j, d, phase);
        }
    if (in->f->n > 0)
        complete(st, sim, in, phase, 1);
}

/* 1 when the two instances are the same, bit for bit (estimates only
 * without the oracle). */
static int same_instance(const flex_state *st, const instance *a,
                         const instance *b)
{
    const so_flex *f = a->f, *g = b->f;
    size_t n = f->n;
    return f->n == g->n && f->slots == g->slots &&
           !memcmp(a->job_of, b->job_of, n * sizeof *a->job_of) &&
           !memcmp(f->work, g->work, n * sizeof *f->work) &&
           !memcmp(f->min, g->min, n * sizeof *f->min) &&
           !memcmp(f->max, g->max, n * sizeof *f->max) &&
           !memcmp(f->weight, g->weight, n * sizeof *f->weight) &&
           (st->oracle || (!memcmp(a->learning, b->learning, n) &&
                           !memcmp(a->estimate, b->estimate,
                                   n * sizeof *a->estimate)));
}

/* 1 when the phase's instance would list the same jobs as at its last
 * solve (then only remaining work, maxima and estimates have moved): no
 * job is listable now that was not then, or the reverse (track), in O(1).
 * The lists are in job order, so the same jobs are the same sequence. */
static int same_jobs(const flex_state *st, const so_cl_sim *sim, int phase)
{
    if (sim->total_slots[phase] != st->listed_slots[phase])
        return 0;
    if (sim->total_slots[phase] < 1)
        return st->listed_n[phase] == 0;
    return st->differ[phase] == 0;
}

/* A job's target for the assignment layer (the index repairs only the
 * jobs whose target changed); a non-zero one is remembered (nz). */
static void set_target(flex_state *st, int phase, int j, double target)
{
    if (so_cl_dx_target(st->dx, phase, j) != target)
        so_cl_dx_set_target(st->dx, phase, j, target);
    if (target != 0 && !st->nz_mark[phase][j]) {
        st->nz_mark[phase][j] = 1;
        st->nz[phase][st->n_nz[phase]++] = j;
    }
}

/* A full solve gives every job of the phase list its target, 0 for the
 * jobs it does not list: the jobs whose target may be non-zero (nz) are
 * set to 0 first if in the list (each listed job then gets its own); jobs
 * out of the list keep theirs, and leave nz: a job leaves a phase list
 * once, when its last task of the phase completes, and never comes back
 * (engine.c), so no solve sets its target again. The deficit index's
 * offers depend on the targets alone, not on the order they were set in
 * (deficit_index.h: heaps ordered by deficit, ties by job index). */
static void clear_targets(flex_state *st, const so_cl_sim *sim, int phase)
{
    for (size_t k = 0; k < st->n_nz[phase]; k++) {
        int j = st->nz[phase][k];
        if (sim->jobs[j].in_list[phase] &&
            so_cl_dx_target(st->dx, phase, j) != 0)
            so_cl_dx_set_target(st->dx, phase, j, 0);
        st->nz_mark[phase][j] = 0;
    }
    st->n_nz[phase] = 0;
}

/* The job views of the jobs touched since the last epoch (every change of
 * a job's state is followed by a hook in the same event: track), read once
 * the engine's state is final. */
static void refresh_views(flex_state *st, const so_cl_sim *sim)
{
    int n;
    const int *changed = so_cl_dx_take_changed(st->dx, &n);
    for (int i = 0; i < n; i++) {
        int j = changed[i];
        const so_cl_jobrt *job = &sim->jobs[j];
        for (int p = 0; p < SO_CL_PHASES; p++) {
            const so_cl_obs *o = so_cl_job_obs(sim, j, p);
            st->view[p][j] = (job_view){
                .pending = so_cl_pending(job, p),
                .running_tasks = job->running_tasks[p],
                .n_running = job->n_running[p],
                .done = o->n,
                .mean = o->mean,
            };
        }
    }
}

/* The solve of an overloaded phase in O(S log J): without pool minima, when
 * at least S listed jobs are still learning their task time (no completed
 * task of the phase), the minima are one slot for each of the first S of
 * them in list order (learning_minima), they fill every slot, and FLEX's
 * first interval is the minima whatever the order (so_flex_allocate). So
 * the targets are 1 for those S jobs and 0 for every other listed job: the
 * listed jobs with a target from the last solve are reset, those S set.
 * Returns 1 when it applied (else the full solve runs). */
static int solve_overloaded(flex_state *st, so_cl_sim *sim, int phase)
{
    int64_t S = sim->total_slots[phase];
    if (st->oracle || st->pool_minimum[phase] || S < 1 ||
        st->learners[phase].count < S)
        return 0;
    for (size_t k = 0; k < st->n_given[phase]; k++) {
        int j = st->given[phase][k];
        if (sim->jobs[j].in_list[phase]) /* the full solve zeroes the list's jobs */
            set_target(st, phase, j, 0);
    }
    st->n_given[phase] = 0;
    for (int64_t k = 0; k < S; k++) {
        int j = so_cl_id_set_kth(&st->learners[phase], (int)k);
        set_target(st, phase, j, 1.0);
        st->given[phase][st->n_given[phase]++] = j;
    }
    st->listed_n[phase] = st->n_listable[phase];
    st->listed_slots[phase] = S;
    solved_listing(st, phase);
    return 1;
}

static void allocate_phase(flex_state *st, so_cl_sim *sim, int phase)
{
    so_flex *f = st->f;
    if (++st->since[phase] < st->resolve_epochs && same_jobs(st, sim, phase))
        return; /* keep the last solve's targets (see the header) */
    st->since[phase] = 0;
    if (solve_overloaded(st, sim, phase))
        return;
    clear_targets(st, sim, phase);
    build_from_views(st, sim, phase);
    st->listed_n[phase] = f->n;
    st->listed_slots[phase] = sim->total_slots[phase];
    solved_listing(st, phase);
    st->n_given[phase] = 0;
    if (st->verify) {
        build_from_list(st, sim, &st->check, phase);
        if (!same_instance(st, &st->in, &st->check))
            sim->failed = 1;
    }
    if (f->n == 0)
        return;
    int rc = so_flex_allocate_with(st->work, f, &st->opt, st->slots);
    if (rc) {
        sim->failed = 1; /* only SO_ENOMEM: the instance is valid by build */
        return;
    }
    for (size_t k = 0; k < f->n; k++) {
        set_target(st, phase, st->job_of[k], (double)st->slots[k]);
        if (st->slots[k] > 0)
            st->given[phase][st->n_given[phase]++] = st->job_of[k];
    }
}

static void flex_allocate(void *state, so_cl_sim *sim)
{
    refresh_views(state, sim);
    for (int phase = 0; phase < SO_CL_PHASES; phase++)
        allocate_phase(state, sim, phase);
}

static int flex_assign(void *state, so_cl_sim *sim, int node, int phase)
{
    flex_state *st = state;
    int rc = so_cl_dx_assign(st->dx, sim, node, phase, so_cl_try_launch, NULL);
    if (rc < 0)
        sim->failed = 1;
    return rc > 0;
}

const so_cl_scheduler so_cl_sched_flex = {
    "flex",
    "FLEX allocation layer (Wolf et al. 2010) each epoch, per phase, feeding"
    " the fair scheduler's deficit assignment",
    flex_options, flex_create, flex_allocate, flex_assign, flex_destroy,
    &flex_hooks,
};
