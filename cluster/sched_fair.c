/*
 * sched_fair.c — the Hadoop fair scheduler (Zaharia et al., the hfs of the
 * FLEX paper, Wolf et al., Middleware 2010, sec. 1), per phase:
 *   allocation layer (each epoch, Hadoop's update interval): pools share the
 *   slots by the waterline over (weight, minimum share, demand); inside a
 *   pool, jobs share the pool's share by the waterline over their weights
 *   (mode "fair") or in submit order (mode "fifo");
 *   assignment layer: each free slot to the job with the largest deficit
 *   (deficit_index.c; the allocation kept by level_tree.c).
 * Pool maxima (max_maps / max_reduces, Hadoop 0.21's maxMaps / maxReduces):
 * a pool's demand is capped at its maximum before the waterline, and the
 * assignment layer offers no slot to a job whose pool runs its maximum.
 * Preemption (optional, Hadoop 0.21 fair scheduler): a pool below its minimum
 * share for min_share_timeout seconds, or below half its fair share for
 * fair_share_timeout seconds, gets back the missing slots from pools above
 * their fair share, killing their most recently launched attempts first;
 * checked every preemption_interval (15 s, Hadoop's default).
 * Delay scheduling (optional; Zaharia et al., "Delay Scheduling", EuroSys
 * 2010, Algorithm 2 with one locality level, as in Hadoop's fair scheduler
 * without racks): a job without a node-local map for the offered node is
 * skipped until it has waited locality_delay seconds since it was first
 * skipped; a job whose last map ran remotely, or whose pool is starved past
 * a preemption timeout, may launch remotely at once.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/fair_share.h"
#include "cluster/deficit_index.h"
#include "cluster/level_tree.h"

static const so_option_doc fair_options[] = {
    {"min_share_timeout", "0",
     "seconds below the minimum share before preempting (0 = never)"},
    {"fair_share_timeout", "0",
     "seconds below half the fair share before preempting (0 = never)"},
    {"preemption_interval", "15", "seconds between preemption checks"},
    {"locality_delay", "0",
     "delay scheduling: seconds a job waits for a node-local map before it"
     " may launch a remote one (0 = off; Hadoop: 1.5 x heartbeat)"},
    {NULL, NULL, NULL},
};

typedef struct fair_state {
    int n_pools;
    double *pool_w, *pool_min, *pool_demand, *pool_share;
    int *pool_running;
    double *last_at_min[SO_CL_PHASES], *last_at_half[SO_CL_PHASES];
    /* incremental allocation: the jobs' demands at the last epoch in one
     * level tree per pool, the assignment layer's deficit heaps */
    so_cl_level_forest demand[SO_CL_PHASES];
    so_cl_dx *dx;
    int *changed;      /* the jobs changed since the last epoch */
    int *reclassify, n_reclassify; /* jobs to put on the right side of the
                                    * new level (scratch of an epoch) */
    double *level[SO_CL_PHASES]; /* per pool: its jobs' water level */
    int *fifo_last;    /* per phase x pool (fifo pools): the last job with a
                        * non-zero target, -1 none */
    double *fifo_left; /* per pool: scratch of share_fifo_pools */
    int *fifo_new_last;
    char *fifo_done;
    int any_fifo;
    int *victims;
    double min_timeout, fair_timeout, interval, last_check;
    double last_update; /* time of the previous allocation call */
    double delay;      /* locality delay, 0 = off */
    double *skipped;   /* per job: when it was first skipped since its last
                        * map launch, < 0 if not */
    char *anywhere;    /* per job: its last map was non-local */
} fair_state;

static void fair_destroy(void *p)
{
    fair_state *st = p;
    if (!st)
        return;
    free(st->pool_w);
    free(st->pool_min);
    free(st->pool_demand);
    free(st->pool_share);
    free(st->pool_running);
    for (int k = 0; k < SO_CL_PHASES; k++) {
        free(st->last_at_min[k]);
        free(st->last_at_half[k]);
        so_cl_level_forest_free(&st->demand[k]);
        free(st->level[k]);
    }
    so_cl_dx_free(st->dx);
    free(st->changed);
    free(st->reclassify);
    free(st->fifo_last);
    free(st->fifo_left);
    free(st->fifo_new_last);
    free(st->fifo_done);
    free(st->victims);
    free(st->skipped);
    free(st->anywhere);
    free(st);
}

static int fair_create(so_cl_sim *sim, const so_params *prm, void **state,
                       so_error *err)
{
    *state = NULL;
    double mt = 0, ft = 0, iv = 15, delay = 0;
    int rc = so_params_double(prm, fair_options, "min_share_timeout", 0, &mt, err);
    if (!rc)
        rc = so_params_double(prm, fair_options, "fair_share_timeout", 0, &ft, err);
    if (!rc)
        rc = so_params_double(prm, fair_options, "preemption_interval", 15, &iv, err);
    if (!rc)
        rc = so_params_double(prm, fair_options, "locality_delay", 0, &delay, err);
    if (rc)
        return rc;
    if (!(mt >= 0) || !(ft >= 0) || !(iv > 0))
        return so_error_setf(err, NULL, 0, 0, "preemption",
                             "timeouts must be >= 0 and the interval > 0");
    if (!(delay >= 0) || delay > 1e9)
        return so_error_setf(err, NULL, 0, 0, "locality_delay",
                             "expected seconds >= 0, found %g", delay);
    fair_state *st = calloc(1, sizeof *st);
    if (!st)
        return SO_ENOMEM;
    size_t np = (size_t)sim->w->n_pools + 1, nj = (size_t)sim->w->n_jobs + 1;
    st->n_pools = sim->w->n_pools;
    st->min_timeout = mt;
    st->fair_timeout = ft;
    /* the longest fair waits on purpose (cluster/stall.c): a kill comes at
     * most this long after a pool starves, a remote map after its delay */
    so_cl_stall_at_least(sim, fmax(mt > 0 || ft > 0 ? fmax(mt, ft) + iv : 0, delay));
    st->interval = iv;
    st->delay = delay;
    st->pool_w = calloc(np, sizeof(double));
    st->pool_min = calloc(np, sizeof(double));
    st->pool_demand = calloc(np, sizeof(double));
    st->pool_share = calloc(np, sizeof(double));
    st->pool_running = calloc(np, sizeof(int));
    int ok = st->pool_w && st->pool_min && st->pool_demand && st->pool_share &&
             st->pool_running;
    for (int k = 0; k < SO_CL_PHASES; k++) {
        st->last_at_min[k] = calloc(np, sizeof(double));
        st->last_at_half[k] = calloc(np, sizeof(double));
        st->level[k] = calloc(np, sizeof(double));
        ok = ok && st->last_at_min[k] && st->last_at_half[k] && st->level[k];
        ok = ok && !so_cl_level_forest_init(&st->demand[k], st->n_pools,
                                            sim->w->n_jobs);
    }
    st->dx = so_cl_dx_new(sim);
    st->changed = malloc(nj * sizeof(int));
    st->reclassify = malloc(nj * sizeof(int));
    st->fifo_last = malloc(SO_CL_PHASES * np * sizeof(int));
    st->fifo_left = calloc(np, sizeof(double));
    st->fifo_new_last = calloc(np, sizeof(int));
    st->fifo_done = calloc(np, 1);
    st->skipped = malloc(nj * sizeof(double));
    st->anywhere = calloc(nj, 1);
    ok = ok && st->dx && st->changed && st->reclassify && st->fifo_last && st->fifo_left &&
         st->fifo_new_last && st->fifo_done && st->skipped &&
         st->anywhere;
    if (!ok) {
        fair_destroy(st);
        return SO_ENOMEM;
    }
    for (size_t j = 0; j < nj; j++)
        st->skipped[j] = -1;
    for (size_t k = 0; k < SO_CL_PHASES * np; k++)
        st->fifo_last[k] = -1;
    for (int p = 0; p < st->n_pools; p++)
        st->any_fifo |= sim->w->pools[p].fifo;
    st->last_update = -INFINITY;
    *state = st;
    return SO_OK;
}

/* ---- allocation layer ----------------------------------------------------- */

/* Job j's demand at this epoch into its pool's tree (out of it when it left
 * the phase list); 1 if it changed. */
static int snapshot(fair_state *st, const so_cl_sim *sim, int phase, int j)
{
    so_cl_level_forest *f = &st->demand[phase];
    const so_cl_jobrt *job = &sim->jobs[j];
    if (!job->in_list[phase]) {
        so_cl_level_remove(f, j);
        return 0;
    }
    double d = so_cl_demand(job, phase);
    if (f->t.tree[j] == job->spec->pool && f->d[j] == d)
        return 0;
    so_cl_level_set(f, job->spec->pool, j, d, job->spec->weight);
    return 1;
}

/* A fair pool's job on the side of the level its demand puts it: target
 * level x weight below its demand, else its demand (so_cl_waterline's
 * "s < d ? s : d"). Returns -1 when out of memory. */
static int classify(fair_state *st, int phase, int j)
{
    const so_cl_level_forest *f = &st->demand[phase];
    int p = f->t.tree[j];
    if (p < 0)
        return 0;
    if (st->level[phase][p] * f->w[j] < f->d[j])
        return so_cl_dx_set_level_member(st->dx, phase, j, p, f->w[j]);
    so_cl_dx_set_target(st->dx, phase, j, f->d[j]);
    return 0;
}

static void add_reclassify(void *ctx, int j)
{
    fair_state *st = ctx;
    st->reclassify[st->n_reclassify++] = j;
}

/* Pool p in fair mode: its new level, and the jobs whose side of it may
 * have changed (demand between the old and the new level, with a margin
 * for rounding) put on their side. */
static int share_fair_pool(fair_state *st, int phase, int p)
{
    double old = st->level[phase][p];
    double level = so_cl_level_solve(&st->demand[phase], p, st->pool_share[p]);
    st->level[phase][p] = level;
    so_cl_dx_set_level(st->dx, phase, p, level);
    if (level == old)
        return 0;
    double lo = fmin(old, level), hi = fmax(old, level);
    st->n_reclassify = 0;
    so_cl_level_range(&st->demand[phase], p, lo * (1 - 1e-9), hi * (1 + 1e-9),
                      add_reclassify, st);
    for (int k = 0; k < st->n_reclassify; k++)
        if (classify(st, phase, st->reclassify[k]))
            return -1;
    return 0;
}

/* The pools in fifo mode: their jobs in job order get their demand until
 * the pool's share runs out. One pass over the phase list that stops once
 * every fifo pool's share ran out and the jobs that had a target at the
 * last epoch are behind (the later ones have target 0 already). */
static void share_fifo_pools(fair_state *st, so_cl_sim *sim, int phase)
{
    int np = st->n_pools, *last = st->fifo_last + phase * np, open = 0;
    for (int p = 0; p < np; p++) {
        st->fifo_left[p] = st->pool_share[p];
        st->fifo_new_last[p] = -1;
        st->fifo_done[p] = !sim->w->pools[p].fifo;
        open += !st->fifo_done[p];
    }
    for (int j = sim->head[phase]; j >= 0 && open > 0; j = sim->jobs[j].next[phase]) {
        const so_cl_jobrt *job = &sim->jobs[j];
        int p = job->spec->pool;
        if (st->fifo_done[p])
            continue;
        double t = fmin(so_cl_demand(job, phase), st->fifo_left[p]);
        st->fifo_left[p] -= t;
        if (t != so_cl_dx_target(st->dx, phase, j))
            so_cl_dx_set_target(st->dx, phase, j, t);
        if (t > 0)
            st->fifo_new_last[p] = j;
        if (st->fifo_left[p] <= 0 && j >= last[p]) {
            st->fifo_done[p] = 1;
            open--;
        }
    }
    for (int p = 0; p < np; p++)
        if (sim->w->pools[p].fifo)
            last[p] = st->fifo_new_last[p];
}

static int allocate_phase(fair_state *st, so_cl_sim *sim, int phase,
                          const int *changed, int n_changed)
{
    int np = st->n_pools;
    for (int k = 0; k < n_changed; k++)
        snapshot(st, sim, phase, changed[k]);
    for (int p = 0; p < np; p++) {
        st->pool_w[p] = sim->w->pools[p].weight;
        st->pool_min[p] = sim->w->pools[p].min_share[phase];
        /* Hadoop: a pool's demand stops at its max */
        st->pool_demand[p] = so_cl_pool_cap(
            sim->w, p, phase, so_cl_level_demand(&st->demand[phase], p));
        st->pool_running[p] = sim->pool_running[phase][p];
    }
    so_cl_waterline(np, st->pool_w, st->pool_min, st->pool_demand,
                    sim->total_slots[phase], st->pool_share);
    for (int p = 0; p < np; p++)
        if (!sim->w->pools[p].fifo && share_fair_pool(st, phase, p))
            return -1;
    for (int k = 0; k < n_changed; k++)
        if (!sim->w->pools[sim->jobs[changed[k]].spec->pool].fifo &&
            classify(st, phase, changed[k]))
            return -1;
    if (st->any_fifo)
        share_fifo_pools(st, sim, phase);
    return 0;
}

/* ---- preemption ---------------------------------------------------------- */

static const so_cl_sim *victim_sim;

static int latest_first(const void *a, const void *b)
{
    const so_cl_attempt *x = &victim_sim->attempts[*(const int *)a];
    const so_cl_attempt *y = &victim_sim->attempts[*(const int *)b];
    if (x->start != y->start)
        return x->start > y->start ? -1 : 1;
    return y->serial - x->serial; /* the later launch first */
}

/* Hadoop's lastTimeAtMinShare / lastTimeAtHalfFairShare, every epoch. */
static void track_starvation(fair_state *st, const so_cl_sim *sim, int phase)
{
    for (int p = 0; p < st->n_pools; p++) {
        double d = st->pool_demand[p], run = st->pool_running[p];
        if (run >= fmin(st->pool_min[p], d))
            st->last_at_min[phase][p] = sim->now;
        if (run >= floor(fmin(st->pool_share[p] / 2, d)))
            st->last_at_half[phase][p] = sim->now;
    }
}

static void preempt_phase(fair_state *st, so_cl_sim *sim, int phase)
{
    double want = 0;
    for (int p = 0; p < st->n_pools; p++) {
        double d = st->pool_demand[p], run = st->pool_running[p];
        double min_goal = fmin(st->pool_min[p], d);
        double need = 0;
        if (st->min_timeout > 0 &&
            sim->now - st->last_at_min[phase][p] > st->min_timeout)
            need = fmax(need, min_goal - run);
        if (st->fair_timeout > 0 &&
            sim->now - st->last_at_half[phase][p] > st->fair_timeout)
            need = fmax(need, fmin(st->pool_share[p], d) - run);
        want += floor(need);
    }
    if (want < 1)
        return;
    int n = 0;
    for (int j = sim->head[phase]; j >= 0; j = sim->jobs[j].next[phase]) {
        const so_cl_jobrt *job = &sim->jobs[j];
        if (st->pool_running[job->spec->pool] > st->pool_share[job->spec->pool])
            n += job->n_running[phase];
    }
    if (n == 0)
        return;
    int *v = realloc(st->victims, (size_t)n * sizeof *v);
    if (!v)
        return; /* no preemption this round */
    st->victims = v;
    n = 0;
    for (int j = sim->head[phase]; j >= 0; j = sim->jobs[j].next[phase]) {
        const so_cl_jobrt *job = &sim->jobs[j];
        if (st->pool_running[job->spec->pool] > st->pool_share[job->spec->pool])
            for (int k = 0; k < job->n_running[phase]; k++)
                v[n++] = job->running[phase][k];
    }
    victim_sim = sim;
    qsort(v, (size_t)n, sizeof *v, latest_first);
    for (int k = 0; k < n && want >= 1; k++) {
        int pool = sim->jobs[sim->attempts[v[k]].job].spec->pool;
        if (st->pool_running[pool] - 1 < st->pool_share[pool])
            continue; /* would push the pool below its fair share */
        if (so_cl_kill(sim, v[k]))
            return;
        st->pool_running[pool]--;
        want -= 1;
    }
}

/* The engine pauses epochs while no submitted job is unfinished. Hadoop's
 * update thread runs on: with no demand, every pool is at its shares, so
 * each pool's stamps reach the last update before now. */
static void stamp_idle_spell(fair_state *st, const so_cl_sim *sim)
{
    double last_idle_update = sim->now - sim->epoch;
    /* half an epoch of margin: consecutive epochs differ by rounding only */
    if (last_idle_update > st->last_update + 0.5 * sim->epoch)
        for (int phase = 0; phase < SO_CL_PHASES; phase++)
            for (int p = 0; p < st->n_pools; p++) {
                st->last_at_min[phase][p] = fmax(st->last_at_min[phase][p], last_idle_update);
                st->last_at_half[phase][p] = fmax(st->last_at_half[phase][p], last_idle_update);
            }
    st->last_update = sim->now;
}

static void fair_allocate(void *state, so_cl_sim *sim)
{
    fair_state *st = state;
    stamp_idle_spell(st, sim);
    int check = (st->min_timeout > 0 || st->fair_timeout > 0) &&
                sim->now - st->last_check >= st->interval;
    /* a copy: preemption touches jobs (and reuses the index's list) */
    int n_changed;
    const int *changed = so_cl_dx_take_changed(st->dx, &n_changed);
    memcpy(st->changed, changed, (size_t)n_changed * sizeof *changed);
    for (int phase = 0; phase < SO_CL_PHASES; phase++) {
        if (allocate_phase(st, sim, phase, st->changed, n_changed))
            sim->failed = 1;
        track_starvation(st, sim, phase);
        if (check)
            preempt_phase(st, sim, phase);
    }
    if (check)
        st->last_check = sim->now;
}

/* ---- delay scheduling ---------------------------------------------------- */

/* Hadoop skips the delay for a pool starved past a preemption timeout. */
static int starving(const fair_state *st, const so_cl_sim *sim, int pool)
{
    return (st->min_timeout > 0 &&
            sim->now - st->last_at_min[SO_CL_MAP][pool] > st->min_timeout) ||
           (st->fair_timeout > 0 &&
            sim->now - st->last_at_half[SO_CL_MAP][pool] > st->fair_timeout);
}

/* Offers a map slot to job j: a node-local map if it has one; otherwise a
 * remote map only once the job has waited `delay` since it was first
 * skipped, or if its last map was already remote, or if its pool starves. */
static int try_delayed(void *ctx, so_cl_sim *sim, int j, int node, int phase)
{
    fair_state *st = ctx;
    if (so_cl_launch_local(sim, j, node)) {
        st->skipped[j] = -1;
        st->anywhere[j] = 0;
        return 1;
    }
    if (so_cl_pending(&sim->jobs[j], phase) == 0) /* a speculative copy */
        return so_cl_launch(sim, j, node, phase);
    int allowed = st->anywhere[j] || starving(st, sim, sim->jobs[j].spec->pool) ||
                  (st->skipped[j] >= 0 && sim->now - st->skipped[j] >= st->delay);
    if (!allowed) {
        if (st->skipped[j] < 0)
            st->skipped[j] = sim->now;
        return 0;
    }
    if (!so_cl_launch(sim, j, node, phase))
        return 0;
    st->skipped[j] = -1;
    st->anywhere[j] = 1;
    return 1;
}

static int fair_assign(void *state, so_cl_sim *sim, int node, int phase)
{
    fair_state *st = state;
    int delayed = phase == SO_CL_MAP && st->delay > 0 && sim->replicas > 0;
    int rc = so_cl_dx_assign(st->dx, sim, node, phase,
                             delayed ? try_delayed : so_cl_try_launch, st);
    if (rc < 0)
        sim->failed = 1;
    return rc > 0;
}

/* The engine's changes reach the deficit index (and the next epoch). */
static void touch_job(void *state, so_cl_sim *sim, int job)
{
    (void)sim;
    so_cl_dx_touch(((fair_state *)state)->dx, job);
}

static void touch_attempt(void *state, so_cl_sim *sim, int attempt)
{
    touch_job(state, sim, sim->attempts[attempt].job);
}

static void touch_ended(void *state, so_cl_sim *sim, int attempt, int node,
                        double duration)
{
    (void)node;
    (void)duration;
    touch_attempt(state, sim, attempt);
}

static const so_cl_hooks fair_hooks = {
    .job_arrive = touch_job,
    .attempt_launch = touch_attempt,
    .attempt_end = touch_ended,
    .job_finish = touch_job,
};

const so_cl_scheduler so_cl_sched_fair = {
    "fair",
    "Hadoop fair scheduler: pools, minimum shares, weights, waterline fair"
    " share, FIFO or fair inside a pool, optional preemption",
    fair_options, fair_create, fair_allocate, fair_assign, fair_destroy,
    &fair_hooks,
};
