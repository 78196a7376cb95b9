/*
 * stealing.c — resource stealing (Zhenhua Guo, Geoffrey Fox, Mo Zhou, Yang
 * Ruan, "Improving Resource Utilization in MapReduce", IEEE Cluster 2012,
 * sec. III.A-B, Table I, eq. (1), sec. III.D), as a node policy on the
 * engine's hooks (node_change, node_beat) and rate service
 * (so_cl_set_rate_factor). docs/stealing.md describes it.
 *
 * Model. On each node and for each phase separately (map tasks steal idle
 * map slots, reduces idle reduce slots, sec. III.A: "steal residual
 * resources if corresponding map/reduce slots are idle"), the residue is the
 * node's idle slots of the phase; every running attempt runs 1 thread plus
 * the extra threads the policy gives it (sec. III.D: one thread per stolen
 * slot). A task of a job with Amdahl parallel fraction f for the phase
 * (workload keys map_parallel / reduce_parallel; 0 by default: no gain)
 * running k threads progresses 1 / ((1 - f) + f / k) times as fast.
 *
 * When. The split is recomputed on every launch and every end (completion
 * or kill) on the node (node_change: a new task takes its slot's share back
 * at once, sec. III.A) and at each of the node's heartbeats (node_beat:
 * the paper's periodic task manager; the period is the heartbeat interval,
 * 3 s with Hadoop's rule on the paper's 32 nodes), so that the time-left
 * and fastness estimates of STLM, LTLM and LTM follow the tasks' progress.
 *
 * Policies (Table I) and the choices where the paper is silent:
 *   even  residue split evenly; threads are whole, so each task gets
 *         floor(R / n) and the R mod n earliest-launched one more;
 *   fcm   all to the earliest-launched task;
 *   stlm  all to the task with the shortest estimated time left, LATE's
 *         estimate (1 - progress) / (progress / seconds run) (sec. III.B:
 *         "the same mechanism used in [9]"); a task without progress yet
 *         has no estimate (infinite time left);
 *   ltlm  all to the longest time left (a task without estimate counts as
 *         the longest);
 *   stm   evenly among the speculative copies on the node; none: even
 *         (sec. III.B: "falls back to the regular case and any other
 *         policy can be applied");
 *   ltm   fastness(T) = N_l / N_r (eq. 1) over the running attempts of T's
 *         job and phase cluster-wide (regular and speculative), N_l those
 *         expected to end strictly later than T; laggards (fastness below
 *         SlowTaskThreshold = 0.25, chosen like LATE's 25th-percentile
 *         slow-task rule: the slowest quarter of a job's running tasks)
 *         share the residue evenly; no laggard on the node: even.
 * Ties everywhere go to the earlier launch, then the lower attempt number.
 * The factor changes only when a task's thread count changes, so an
 * unchanged split reschedules nothing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/sim_internal.h"
#include "cluster/speculation.h"
#include "cluster/stealing.h"

static const char *const names[SO_CL_STEAL_POLICIES] = {
    "none", "even", "fcm", "stlm", "ltlm", "stm", "ltm"};

const char *so_cl_steal_name(int policy)
{
    return policy >= 0 && policy < SO_CL_STEAL_POLICIES ? names[policy] : NULL;
}

int so_cl_steal_find(const char *name)
{
    for (int k = 0; k < SO_CL_STEAL_POLICIES; k++)
        if (!strcmp(names[k], name))
            return k;
    return -1;
}

double so_cl_steal_speedup(double f, int k)
{
    return 1.0 / ((1.0 - f) + f / (k < 1 ? 1 : k));
}

/* Whether task a was launched before task b (then lower id). */
static int earlier(const so_cl_steal_task *a, const so_cl_steal_task *b)
{
    return a->start < b->start || (a->start == b->start && a->id < b->id);
}

/* Index of the task preferred by `better` (ties: earlier launch). */
static int best_by(const so_cl_steal_task *t, int n,
                   int (*better)(const so_cl_steal_task *,
                                 const so_cl_steal_task *))
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (better(&t[i], &t[best]) ||
            (!better(&t[best], &t[i]) && earlier(&t[i], &t[best])))
            best = i;
    return best;
}

static int shorter_left(const so_cl_steal_task *a, const so_cl_steal_task *b)
{
    return a->left < b->left;
}

static int longer_left(const so_cl_steal_task *a, const so_cl_steal_task *b)
{
    return a->left > b->left;
}

static int first_come(const so_cl_steal_task *a, const so_cl_steal_task *b)
{
    return earlier(a, b);
}

/* Even split of residue among the tasks flagged in pick (m of them): the
 * remainder goes one by one in launch order. */
static void split_even(const so_cl_steal_task *t, int n, const int *pick,
                       int m, int residue, int *extra)
{
    int each = residue / m, rest = residue % m;
    for (int i = 0; i < n; i++)
        extra[i] = pick[i] ? each : 0;
    while (rest > 0) {
        int first = -1;
        for (int i = 0; i < n; i++)
            if (pick[i] && extra[i] == each &&
                (first < 0 || earlier(&t[i], &t[first])))
                first = i;
        extra[first]++;
        rest--;
    }
}

void so_cl_steal_distribute(int policy, const so_cl_steal_task *t, int n,
                            int residue, int *extra)
{
    if (n <= 0)
        return;
    for (int i = 0; i < n; i++)
        extra[i] = 0;
    if (residue <= 0 || policy == SO_CL_STEAL_NONE)
        return;
    int one = -1;
    switch (policy) {
    case SO_CL_STEAL_FCM: one = best_by(t, n, first_come); break;
    case SO_CL_STEAL_STLM: one = best_by(t, n, shorter_left); break;
    case SO_CL_STEAL_LTLM: one = best_by(t, n, longer_left); break;
    default: break;
    }
    if (one >= 0) {
        extra[one] = residue;
        return;
    }
    int pick[n > 0 ? n : 1], m = 0;
    for (int i = 0; i < n; i++) {
        pick[i] = policy == SO_CL_STEAL_STM   ? t[i].speculative
                  : policy == SO_CL_STEAL_LTM ? t[i].fastness <
                                                    SO_CL_STEAL_SLOW_TASK_THRESHOLD
                                              : 1;
        m += pick[i];
    }
    if (m == 0) { /* no speculative copy / laggard here: Even */
        for (int i = 0; i < n; i++)
            pick[i] = 1;
        m = n;
    }
    split_even(t, n, pick, m, residue, extra);
}

/* ---- the node policy ----------------------------------------------------- */

struct so_cl_stealing {
    int policy;
    int cap;               /* capacity of the scratch arrays */
    so_cl_steal_task *task;
    int *extra;
    unsigned char *settled; /* per node: rebalanced since its last change */
    int n_settled;
};

int so_cl_stealing_new(int policy, so_cl_stealing **out)
{
    *out = NULL;
    if (policy < 0 || policy >= SO_CL_STEAL_POLICIES)
        return SO_EINVAL;
    so_cl_stealing *st = calloc(1, sizeof *st);
    if (!st)
        return SO_ENOMEM;
    st->policy = policy;
    *out = st;
    return SO_OK;
}

void so_cl_stealing_free(so_cl_stealing *st)
{
    if (!st)
        return;
    free(st->task);
    free(st->extra);
    free(st->settled);
    free(st);
}

static int reserve(so_cl_stealing *st, int n)
{
    if (n <= st->cap)
        return 0;
    int cap = n < 16 ? 16 : 2 * n;
    so_cl_steal_task *t = realloc(st->task, (size_t)cap * sizeof *t);
    if (!t)
        return -1;
    st->task = t;
    int *e = realloc(st->extra, (size_t)cap * sizeof *e);
    if (!e)
        return -1;
    st->extra = e;
    st->cap = cap;
    return 0;
}

/* LATE's estimate of an attempt's time left (infinite without progress). */
static double time_left(const so_cl_sim *sim, const so_cl_attempt *a)
{
    return so_cl_time_left(sim, a, so_cl_progress_rate(sim, a));
}

/* Eq. (1): the share of a's job's running attempts of its phase expected
 * to end strictly later than a. */
static double fastness(const so_cl_sim *sim, const so_cl_attempt *a,
                       double left)
{
    const so_cl_jobrt *job = &sim->jobs[a->job];
    int n = job->n_running[a->phase], later = 0;
    for (int k = 0; k < n; k++) {
        const so_cl_attempt *b = &sim->attempts[job->running[a->phase][k]];
        later += time_left(sim, b) > left;
    }
    return n > 0 ? (double)later / n : 0;
}

/* Returns 0 when the node's split was made (all factors set), -1 when out
 * of memory (the tasks keep their threads). */
static int rebalance(so_cl_stealing *st, so_cl_sim *sim, int node)
{
    if (st->policy == SO_CL_STEAL_NONE)
        return 0;
    const so_cl_nodert *nd = &sim->nodes[node];
    if (reserve(st, nd->n_running))
        return -1;
    int need_left = st->policy == SO_CL_STEAL_STLM ||
                    st->policy == SO_CL_STEAL_LTLM ||
                    st->policy == SO_CL_STEAL_LTM;
    for (int p = 0; p < SO_CL_PHASES; p++) {
        int residue = nd->free[p] > 0 ? nd->free[p] : 0;
        int n = 0;
        for (int k = 0; k < nd->n_running; k++)
            n += sim->attempts[nd->running[k]].phase == p;
        if (n == 0)
            continue;
        /* the estimates matter only when there is a residue to split
         * among several tasks */
        int estimate = need_left && residue > 0 && n > 1;
        n = 0;
        for (int k = 0; k < nd->n_running; k++) {
            const so_cl_attempt *a = &sim->attempts[nd->running[k]];
            if (a->phase != p)
                continue;
            so_cl_steal_task *t = &st->task[n++];
            t->id = a->serial;
            t->start = a->start;
            t->speculative = a->speculative;
            t->left = estimate ? time_left(sim, a) : INFINITY;
            t->fastness = estimate && st->policy == SO_CL_STEAL_LTM
                              ? fastness(sim, a, t->left)
                              : 0;
        }
        so_cl_steal_distribute(st->policy, st->task, n, residue, st->extra);
        /* the same walk as above: task[i] is the i-th attempt of phase p
         * on the node (a rate change leaves the running list as it is) */
        for (int k = 0, i = 0; k < nd->n_running; k++) {
            int id = nd->running[k];
            const so_cl_attempt *a = &sim->attempts[id];
            if (a->phase != p)
                continue;
            double f = sim->jobs[a->job].spec->parallel[p];
            double factor = so_cl_steal_speedup(f, 1 + st->extra[i++]);
            if (factor != a->factor)
                so_cl_set_rate_factor(sim, id, factor);
        }
    }
    return 0;
}

/* Whether the policy's split depends on time (the estimated time left);
 * Even, FCM and STM split by the running set alone (count, start times,
 * speculative flags) and the node's free slots. */
static int timed(const so_cl_stealing *st)
{
    return st->policy == SO_CL_STEAL_STLM || st->policy == SO_CL_STEAL_LTLM ||
           st->policy == SO_CL_STEAL_LTM;
}

/* The node's settled flag (the array grown to the workload's nodes on
 * first use; NULL when out of memory: then never settled). A flag left from
 * an earlier simulation is harmless: a node runs nothing until its first
 * launch, which is a change. */
static unsigned char *settled(so_cl_stealing *st, const so_cl_sim *sim,
                              int node)
{
    int n = sim->w->n_nodes;
    if (n > st->n_settled) {
        unsigned char *f = realloc(st->settled, (size_t)n);
        if (!f)
            return NULL;
        memset(f + st->n_settled, 0, (size_t)(n - st->n_settled));
        st->settled = f;
        st->n_settled = n;
    }
    return &st->settled[node];
}

/* A launch or an end on the node: its split afresh. */
static void on_node_change(void *state, so_cl_sim *sim, int node)
{
    so_cl_stealing *st = state;
    unsigned char *f = settled(st, sim, node);
    int rc = rebalance(st, sim, node);
    if (f)
        *f = rc == 0;
}

/* A heartbeat: the split again, unless it is a function of what has not
 * changed since it was last made (its running attempts and free slots
 * change only at launches and ends, which are node changes; their factors
 * only there too): the same factors, nothing to do. */
static void on_node_beat(void *state, so_cl_sim *sim, int node)
{
    so_cl_stealing *st = state;
    unsigned char *f = settled(st, sim, node);
    if (!timed(st) && f && *f)
        return;
    int rc = rebalance(st, sim, node);
    if (f)
        *f = rc == 0;
}

const so_cl_hooks so_cl_stealing_hooks = {
    .node_change = on_node_change,
    .node_beat = on_node_beat,
};
