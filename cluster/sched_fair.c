/*
 * sched_fair.c — the Hadoop fair scheduler (Zaharia et al., the hfs of the
 * FLEX paper, Wolf et al., Middleware 2010, sec. 1), per phase:
 *   allocation layer (each epoch, Hadoop's update interval): pools share the
 *   slots by the waterline over (weight, minimum share, demand); inside a
 *   pool, jobs share the pool's share by the waterline over their weights
 *   (mode "fair") or in submit order (mode "fifo");
 *   assignment layer: so_cl_assign_by_deficit (fair_share.c).
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
#include "cluster/waterline_inc.h"

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
    double *job_w, *job_min, *job_demand, *job_share;
    int *members, *scratch, *victims;
    int *pool_first;   /* per pool: its jobs' offset in members (+ 1 end) */
    so_cl_wl *job_wl[SO_CL_PHASES]; /* per pool: its jobs' waterline, kept
                                      * sorted between epochs */
    so_cl_wl_space wl_space[SO_CL_PHASES]; /* a job is in one pool per phase */
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
    }
    free(st->job_w);
    free(st->job_min);
    free(st->job_demand);
    free(st->job_share);
    free(st->members);
    free(st->pool_first);
    for (int k = 0; k < SO_CL_PHASES; k++) {
        for (int p = 0; st->job_wl[k] && p < st->n_pools; p++)
            so_cl_wl_free(&st->job_wl[k][p]);
        free(st->job_wl[k]);
    }
    for (int k = 0; k < SO_CL_PHASES; k++)
        so_cl_wl_space_free(&st->wl_space[k]);
    free(st->scratch);
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
        ok = ok && st->last_at_min[k] && st->last_at_half[k];
        st->job_wl[k] = calloc(np, sizeof(so_cl_wl));
        ok = ok && st->job_wl[k];
    }
    st->pool_first = calloc(np + 1, sizeof(int));
    ok = ok && st->pool_first;
    for (int k = 0; k < SO_CL_PHASES; k++)
        ok = ok && !so_cl_wl_space_init(&st->wl_space[k], (int)nj);
    st->job_w = calloc(nj, sizeof(double));
    st->job_min = calloc(nj, sizeof(double));
    st->job_demand = calloc(nj, sizeof(double));
    st->job_share = calloc(nj, sizeof(double));
    st->members = calloc(nj, sizeof(int));
    st->scratch = calloc(nj, sizeof(int));
    st->skipped = malloc(nj * sizeof(double));
    st->anywhere = calloc(nj, 1);
    ok = ok && st->job_w && st->job_min && st->job_demand && st->job_share &&
         st->members && st->scratch && st->skipped && st->anywhere;
    if (!ok) {
        fair_destroy(st);
        return SO_ENOMEM;
    }
    for (size_t j = 0; j < nj; j++)
        st->skipped[j] = -1;
    st->last_update = -INFINITY;
    *state = st;
    return SO_OK;
}

/* Splits pool `p`'s share among its listed jobs (members from pool_first[p],
 * in job order). */
static void share_in_pool(fair_state *st, so_cl_sim *sim, int phase, int p,
                          int n)
{
    const so_cl_pool_spec *pool = &sim->w->pools[p];
    const int *members = st->members + st->pool_first[p];
    if (pool->fifo) {
        double left = st->pool_share[p];
        for (int k = 0; k < n; k++) {
            so_cl_jobrt *job = &sim->jobs[members[k]];
            double d = so_cl_demand(job, phase);
            job->target[phase] = fmin(d, left);
            left -= job->target[phase];
        }
        return;
    }
    for (int k = 0; k < n; k++) {
        so_cl_jobrt *job = &sim->jobs[members[k]];
        st->job_w[k] = job->spec->weight;
        st->job_min[k] = 0;
        st->job_demand[k] = so_cl_demand(job, phase);
    }
    /* on allocation failure the shares stay at the minima, as with
     * so_cl_waterline */
    (void)so_cl_wl_solve(&st->job_wl[phase][p], &st->wl_space[phase], n, members,
                         st->job_w, st->job_min, st->job_demand,
                         st->pool_share[p], st->job_share);
    for (int k = 0; k < n; k++)
        sim->jobs[members[k]].target[phase] = st->job_share[k];
}

static void allocate_phase(fair_state *st, so_cl_sim *sim, int phase)
{
    int np = st->n_pools;
    for (int p = 0; p < np; p++) {
        st->pool_w[p] = sim->w->pools[p].weight;
        st->pool_min[p] = sim->w->pools[p].min_share[phase];
        st->pool_demand[p] = 0;
        st->pool_running[p] = 0;
    }
    for (int p = 0; p <= np; p++)
        st->pool_first[p] = 0;
    for (int j = sim->head[phase]; j >= 0; j = sim->jobs[j].next[phase]) {
        const so_cl_jobrt *job = &sim->jobs[j];
        st->pool_demand[job->spec->pool] += so_cl_demand(job, phase);
        st->pool_running[job->spec->pool] += job->n_running[phase];
        st->pool_first[job->spec->pool + 1]++;
    }
    for (int p = 0; p < np; p++) /* Hadoop: a pool's demand stops at its max */
        st->pool_demand[p] = so_cl_pool_cap(sim->w, p, phase, st->pool_demand[p]);
    so_cl_waterline(np, st->pool_w, st->pool_min, st->pool_demand,
                    sim->total_slots[phase], st->pool_share);
    /* members grouped by pool, in job order inside a pool (counting sort) */
    for (int p = 0; p < np; p++)
        st->pool_first[p + 1] += st->pool_first[p];
    for (int j = sim->head[phase]; j >= 0; j = sim->jobs[j].next[phase])
        st->members[st->pool_first[sim->jobs[j].spec->pool]++] = j;
    for (int p = np; p > 0; p--) /* back to the starts */
        st->pool_first[p] = st->pool_first[p - 1];
    st->pool_first[0] = 0;
    for (int p = 0; p < np; p++) {
        int n = st->pool_first[p + 1] - st->pool_first[p];
        if (n > 0)
            share_in_pool(st, sim, phase, p, n);
    }
}

/* ---- preemption ---------------------------------------------------------- */

static const so_cl_sim *victim_sim;

static int latest_first(const void *a, const void *b)
{
    const so_cl_attempt *x = &victim_sim->attempts[*(const int *)a];
    const so_cl_attempt *y = &victim_sim->attempts[*(const int *)b];
    if (x->start != y->start)
        return x->start > y->start ? -1 : 1;
    return *(const int *)b - *(const int *)a;
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
    for (int phase = 0; phase < SO_CL_PHASES; phase++) {
        allocate_phase(st, sim, phase);
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
    if (phase == SO_CL_MAP && st->delay > 0 && sim->replicas > 0)
        return so_cl_assign_by_deficit_pending(sim, node, phase, st->scratch,
                                               try_delayed, st);
    return so_cl_assign_by_deficit(sim, node, phase, st->scratch);
}

const so_cl_scheduler so_cl_sched_fair = {
    "fair",
    "Hadoop fair scheduler: pools, minimum shares, weights, waterline fair"
    " share, FIFO or fair inside a pool, optional preemption",
    fair_options, fair_create, fair_allocate, fair_assign, fair_destroy, NULL,
};
