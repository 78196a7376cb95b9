/* fair_old.c — the fair scheduler as it was at commit 6f6c0ef (before the
 * incremental level tree and deficit index, issue 16), kept as a test
 * reference: every epoch each pool's jobs by so_cl_waterline from scratch
 * (waterline_inc.c of 6f6c0ef gave the same shares bit for bit), the
 * assignment by a scan of the phase list, preemption and delay scheduling
 * unchanged. The incremental scheduler must give the same event log. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/fair_share.h"
#include "tests/cluster/fair_old.h"

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
    double min_timeout, fair_timeout, interval, last_check;
    double last_update; /* time of the previous allocation call */
    double delay;      /* locality delay, 0 = off */
    double *skipped;   /* per job: when it was first skipped since its last
                        * map launch, < 0 if not */
    char *anywhere;    /* per job: its last map was non-local */
    double *target[SO_CL_PHASES]; /* per job: the allocation's slots */
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
    for (int k = 0; k < SO_CL_PHASES; k++)
        free(st->target[k]);
    free(st->pool_first);
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
    }
    st->pool_first = calloc(np + 1, sizeof(int));
    ok = ok && st->pool_first;
    st->job_w = calloc(nj, sizeof(double));
    st->job_min = calloc(nj, sizeof(double));
    st->job_demand = calloc(nj, sizeof(double));
    st->job_share = calloc(nj, sizeof(double));
    st->members = calloc(nj, sizeof(int));
    for (int k = 0; k < SO_CL_PHASES; k++)
        st->target[k] = calloc(nj, sizeof(double));
    st->scratch = calloc(nj, sizeof(int));
    st->skipped = malloc(nj * sizeof(double));
    st->anywhere = calloc(nj, 1);
    ok = ok && st->job_w && st->job_min && st->job_demand && st->job_share &&
         st->members && st->scratch && st->skipped && st->anywhere &&
         st->target[SO_CL_MAP] && st->target[SO_CL_REDUCE];
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
            double d = so_cl_demand(&sim->jobs[members[k]], phase);
            st->target[phase][members[k]] = fmin(d, left);
            left -= st->target[phase][members[k]];
        }
        return;
    }
    for (int k = 0; k < n; k++) {
        so_cl_jobrt *job = &sim->jobs[members[k]];
        st->job_w[k] = job->spec->weight;
        st->job_min[k] = 0;
        st->job_demand[k] = so_cl_demand(job, phase);
    }
    so_cl_waterline(n, st->job_w, st->job_min, st->job_demand,
                    st->pool_share[p], st->job_share);
    for (int k = 0; k < n; k++)
        st->target[phase][members[k]] = st->job_share[k];
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

/* fair_share.c's assign_ordered of 6f6c0ef (pending_only = 1) */
static int pool_full(const so_cl_sim *sim, int j, int phase)
{
    int pool = sim->jobs[j].spec->pool;
    int max = sim->w->pools[pool].max_share[phase];
    return max >= 0 && sim->pool_running[phase][pool] >= max;
}

static int ranks_before(const so_cl_sim *sim, const double *target, int phase,
                        int j, int k)
{
    double gj = target[j] - sim->jobs[j].n_running[phase];
    double gk = target[k] - sim->jobs[k].n_running[phase];
    return gj > gk || (gj == gk && j < k);
}

static void sift_down(const so_cl_sim *sim, const double *target, int phase,
                      int *h, int n, int at)
{
    for (;;) {
        int best = at, l = 2 * at + 1, r = l + 1;
        if (l < n && ranks_before(sim, target, phase, h[l], h[best]))
            best = l;
        if (r < n && ranks_before(sim, target, phase, h[r], h[best]))
            best = r;
        if (best == at)
            return;
        int t = h[at];
        h[at] = h[best];
        h[best] = t;
        at = best;
    }
}

static int assign_ordered(so_cl_sim *sim, const double *target, int node,
                          int phase, int *scratch,
                          int (*try_job)(void *, so_cl_sim *, int, int, int),
                          void *ctx)
{
    int keep_idle = sim->cfg.speculation != NULL;
    int n = 0, best = -1;
    for (int j = sim->head[phase]; j >= 0; j = sim->jobs[j].next[phase]) {
        if ((!keep_idle && so_cl_pending(&sim->jobs[j], phase) == 0) ||
            pool_full(sim, j, phase))
            continue;
        if (best < 0 || ranks_before(sim, target, phase, j, scratch[best]))
            best = n;
        scratch[n++] = j;
    }
    if (n == 0)
        return 0;
    if (try_job(ctx, sim, scratch[best], node, phase))
        return 1;
    scratch[best] = scratch[--n];
    for (int k = n / 2 - 1; k >= 0; k--)
        sift_down(sim, target, phase, scratch, n, k);
    while (n > 0) {
        int j = scratch[0];
        if (try_job(ctx, sim, j, node, phase))
            return 1;
        scratch[0] = scratch[--n];
        sift_down(sim, target, phase, scratch, n, 0);
    }
    return 0;
}

static int fair_assign(void *state, so_cl_sim *sim, int node, int phase)
{
    fair_state *st = state;
    if (phase == SO_CL_MAP && st->delay > 0 && sim->replicas > 0)
        return assign_ordered(sim, st->target[phase], node, phase, st->scratch,
                              try_delayed, st);
    return assign_ordered(sim, st->target[phase], node, phase, st->scratch,
                          so_cl_try_launch, NULL);
}

const so_cl_scheduler so_test_fair_old = {
    "fair-old",
    "the fair scheduler of commit 6f6c0ef, every epoch from scratch",
    fair_options, fair_create, fair_allocate, fair_assign, fair_destroy, NULL,
};
