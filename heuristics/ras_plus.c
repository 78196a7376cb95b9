/* ras_plus.c — `ras-plus`, a placement heuristic of this project for the
 * RAS model of Polo et al., "Resource-aware Adaptive Scheduling for
 * MapReduce Clusters" (Middleware 2011), section 3: the same objective as
 * the paper's Algorithm 1 (heuristics/ras.c) — maximise the minimum job
 * utility (eqs. 1-4), then the utilisation (eq. 5) within the capacities
 * of eq. 6 — reached by a different route:
 *
 * 1. Bisection on the utility level z in [-3, 1] (-3 = SO_RAS_STARVED,
 *    always reachable by the empty placement). For a level, every job's
 *    requirement is a set of options (s, r): for each reducer count r (r = 1
 *    is skipped when r_pend > 1: u_R(1) = u_R(0) = -1 at a higher cost), the
 *    fewest maps s with u(s, r) >= z (u is non-decreasing in s). Fewer maps
 *    never cost more, so only that s is tried.
 * 2. Feasibility check of a level: jobs one by one, largest task first
 *    (largest share of the mean capacity over resources, maps or reducers);
 *    a job's options cheapest first (s * map volume + r * reducer volume,
 *    volumes in shares of the mean capacity); an option is packed by first
 *    fit in bulk (reducers, then maps, each TaskTracker taking as many as
 *    fit); a shuffle-phase reducer's demand is that of the option's final
 *    map count. The next option is tried when one does not fit; the level
 *    fails when no option of a job fits. A second job order (largest total
 *    volume first) is tried when the first fails. The paper is silent here:
 *    this check replaces Algorithm 1's reducers-first order, the main loss
 *    of `ras` (docs/ras.md).
 *    A successful check moves the lower end of the bisection to the minimum
 *    utility actually reached; the bisection stops when the interval is
 *    below 1e-7 (1e-4 above SEARCH_CELLS job-TaskTracker pairs, for the
 *    time of a control cycle). Small instances (pending tasks x
 *    TaskTrackers <= SMALL_WORK) also get best fit task by task, shuffled
 *    job orders and, for a level that no greedy order packs and whose
 *    total least demand fits the cluster's capacity per resource, a
 *    bounded backtracking search (SEARCH_NODES nodes per level,
 *    SEARCH_TOTAL per run: jobs in order, options by cost, tasks one by
 *    one, identical TaskTrackers in the same state tried once).
 * 3. Fill: the best level's placement is completed task by task, each time
 *    to the lowest-utility job that can still take one (the kind, map or
 *    reducer, raising its utility more; a map when equal), first fit; a map
 *    that raises the job's shuffling reducers' demand must fit where they
 *    run. Utilities only grow, so the minimum stays that of the level.
 * 4. Local search (option `moves`, default 200; only on instances of at
 *    most SEARCH_CELLS job-TaskTracker pairs): for the lowest-utility job
 *    w (lowest index), look for a TaskTracker where one more task of w
 *    (raising its utility) fits after removing one map or reducer of
 *    another job v whose utility stays above the minimum; apply the first
 *    exchange that raises the minimum utility or leaves fewer jobs at it,
 *    fill again, repeat while one is found.
 * Deterministic: ties go to the lower index. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/ras.h"

const so_option_doc so_ras_plus_options[] = {
    {"moves", "200", "maximum local-search exchanges after the fill"},
    {NULL, NULL, NULL},
};

/* The local search scans every (TaskTracker, job) pair per exchange: it
 * runs only up to this many pairs, so a placement for a control cycle of
 * 2,000 TaskTrackers x 200 jobs stays fast (bisection and fill alone). */
#define SEARCH_CELLS 50000
#define OPT_LIMIT 64
#define RANDOM_ORDERS 48
#define SEARCH_NODES 50000
#define SEARCH_TOTAL 2000000 /* over all levels of one run */
/* Best fit, shuffled orders and the backtracking search run only when
 * pending tasks x TaskTrackers is at most this (the gap instances, not a
 * Gridmix snapshot): they cost a pass over the TaskTrackers per task. */
#define SMALL_WORK 4000.0
/* Bisection stop above SEARCH_CELLS pairs: 1e-4 utility units lost at
 * most, half the checks of 1e-7 (docs/ras.md). */
#define LARGE_TOLERANCE 1e-4 /* reducer counts tried per job (spread when more) */

typedef struct {
    const so_ras *ras;
    size_t J, TT, R;
    int *pm, *pr;      /* J * TT */
    int *s, *r;        /* J: placed maps, reducers */
    double *load;      /* TT * R */
    double *mean_cap;  /* R */
    size_t *order[3];  /* job orders of the feasibility check, scratch */
    int *opt_s, *opt_r;
    double *opt_cost;
    size_t *opt_idx;
    int best_fit;      /* pack task by task, best fit */
    long search_left;  /* backtracking nodes left for the whole run */
    int small;         /* pending tasks x TaskTrackers <= SMALL_WORK */
    size_t leaves;     /* power of two >= TT */
    double *room;      /* 2 * leaves * R: max room per resource in a
                        * subtree over TaskTrackers (first-fit queries) */
    int jitter;        /* perturb option costs (random attempts) */
    uint64_t rng;      /* xorshift state */
} plus;

static void plus_free(plus *p)
{
    free(p->pm);
    free(p->pr);
    free(p->s);
    free(p->r);
    free(p->load);
    free(p->mean_cap);
    free(p->order[0]);
    free(p->order[1]);
    free(p->order[2]);
    free(p->opt_s);
    free(p->opt_r);
    free(p->opt_cost);
    free(p->opt_idx);
    free(p->room);
}

static double map_volume(const plus *p, size_t j)
{
    double v = 0;
    for (size_t r = 0; r < p->R; r++)
        if (p->mean_cap[r] > 0)
            v += p->ras->jobs[j].map[r] / p->mean_cap[r];
    return v;
}

static double red_volume(const plus *p, size_t j, int s)
{
    double v = 0;
    for (size_t r = 0; r < p->R; r++)
        if (p->mean_cap[r] > 0)
            v += so_ras_reducer_demand(&p->ras->jobs[j], s, r) / p->mean_cap[r];
    return v;
}

static double largest_share(const plus *p, size_t j)
{
    const so_ras_job *job = &p->ras->jobs[j];
    double m = 0;
    for (size_t r = 0; r < p->R; r++) {
        if (p->mean_cap[r] <= 0)
            continue;
        if (job->s_pend > 0 && job->map[r] / p->mean_cap[r] > m)
            m = job->map[r] / p->mean_cap[r];
        double d = so_ras_reducer_demand(job, job->s_pend, r) / p->mean_cap[r];
        if (job->r_pend > 0 && d > m)
            m = d;
    }
    return m;
}

static double total_volume(const plus *p, size_t j)
{
    const so_ras_job *job = &p->ras->jobs[j];
    return job->s_pend * map_volume(p, j) +
           job->r_pend * red_volume(p, j, job->s_pend);
}

static const double *sort_key;
static int by_key_desc(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (sort_key[x] != sort_key[y])
        return sort_key[x] > sort_key[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

static int plus_init(plus *p, const so_ras *ras)
{
    memset(p, 0, sizeof *p);
    p->ras = ras;
    p->J = ras->J;
    p->TT = ras->TT;
    p->R = ras->R;
    size_t cells = p->J * p->TT + 1;
    p->pm = calloc(cells, sizeof *p->pm);
    p->pr = calloc(cells, sizeof *p->pr);
    p->s = calloc(p->J + 1, sizeof *p->s);
    p->r = calloc(p->J + 1, sizeof *p->r);
    p->load = calloc(p->TT * p->R + 1, sizeof *p->load);
    p->mean_cap = calloc(p->R + 1, sizeof *p->mean_cap);
    p->order[0] = malloc((p->J + 1) * sizeof(size_t));
    p->order[1] = malloc((p->J + 1) * sizeof(size_t));
    p->order[2] = malloc((p->J + 1) * sizeof(size_t));
    p->opt_s = malloc((OPT_LIMIT + 2) * sizeof *p->opt_s);
    p->opt_r = malloc((OPT_LIMIT + 2) * sizeof *p->opt_r);
    p->opt_cost = malloc((OPT_LIMIT + 2) * sizeof *p->opt_cost);
    p->opt_idx = malloc((OPT_LIMIT + 2) * sizeof *p->opt_idx);
    double work = 0;
    for (size_t j = 0; j < p->J; j++)
        work += (double)ras->jobs[j].s_pend + ras->jobs[j].r_pend;
    p->small = work * (double)p->TT <= SMALL_WORK;
    p->leaves = 1;
    while (p->leaves < p->TT)
        p->leaves *= 2;
    p->room = malloc(2 * p->leaves * (p->R + 1) * sizeof *p->room);
    double *key = malloc((p->J + 1) * sizeof *key);
    if (!p->pm || !p->pr || !p->s || !p->r || !p->load || !p->mean_cap ||
        !p->order[0] || !p->order[1] || !p->order[2] || !p->opt_s || !p->opt_r ||
        !p->opt_cost || !p->opt_idx || !p->room || !key) {
        free(key);
        plus_free(p);
        return SO_ENOMEM;
    }
    for (size_t tt = 0; tt < p->TT; tt++)
        for (size_t r = 0; r < p->R; r++)
            p->mean_cap[r] += ras->capacity[tt * p->R + r] / (double)p->TT;
    sort_key = key;
    for (int o = 0; o < 2; o++) {
        for (size_t j = 0; j < p->J; j++) {
            p->order[o][j] = j;
            key[j] = o ? total_volume(p, j) : largest_share(p, j);
        }
        qsort(p->order[o], p->J, sizeof(size_t), by_key_desc);
    }
    free(key);
    return SO_OK;
}

/* ---- first-fit tree: room per resource, max over subtrees --------------- */

static void tree_leaf(plus *p, size_t tt)
{
    double *n = &p->room[(p->leaves + tt) * p->R];
    for (size_t r = 0; r < p->R; r++) {
        double cap = p->ras->capacity[tt * p->R + r];
        n[r] = cap - p->load[tt * p->R + r] + 1e-9 * (1.0 + fabs(cap));
    }
}

static void tree_pull(plus *p, size_t node)
{
    double *n = &p->room[node * p->R], *a = &p->room[2 * node * p->R],
           *b = &p->room[(2 * node + 1) * p->R];
    for (size_t r = 0; r < p->R; r++)
        n[r] = a[r] > b[r] ? a[r] : b[r];
}

static void tree_build(plus *p)
{
    for (size_t k = 0; k < p->leaves; k++) {
        if (k < p->TT) {
            tree_leaf(p, k);
        } else {
            for (size_t r = 0; r < p->R; r++)
                p->room[(p->leaves + k) * p->R + r] = -INFINITY;
        }
    }
    for (size_t node = p->leaves - 1; node >= 1; node--)
        tree_pull(p, node);
}

static void tree_update(plus *p, size_t tt)
{
    tree_leaf(p, tt);
    for (size_t node = (p->leaves + tt) / 2; node >= 1; node /= 2)
        tree_pull(p, node);
}

/* First TaskTracker >= from in subtree `node` (covering [lo, lo + width))
 * whose room may take demand d (a leaf's room is exact); TT if none. */
static size_t tree_first(const plus *p, size_t node, size_t lo, size_t width,
                         size_t from, const double *d)
{
    if (lo + width <= from || lo >= p->TT)
        return p->TT;
    const double *n = &p->room[node * p->R];
    for (size_t r = 0; r < p->R; r++)
        if (d[r] > 0 && n[r] < d[r])
            return p->TT;
    if (width == 1)
        return lo;
    size_t half = width / 2;
    size_t t = tree_first(p, 2 * node, lo, half, from, d);
    return t < p->TT ? t : tree_first(p, 2 * node + 1, lo + half, half, from, d);
}

static void clear(plus *p)
{
    memset(p->pm, 0, p->J * p->TT * sizeof *p->pm);
    memset(p->pr, 0, p->J * p->TT * sizeof *p->pr);
    memset(p->s, 0, p->J * sizeof *p->s);
    memset(p->r, 0, p->J * sizeof *p->r);
    memset(p->load, 0, p->TT * p->R * sizeof *p->load);
    tree_build(p);
}

static double utility(const plus *p, size_t j, int s, int r)
{
    return so_ras_finite(so_ras_utility(&p->ras->jobs[j], s, r));
}

/* Fewest maps s with u(s, r) >= z, or -1. */
static int fewest_maps(const plus *p, size_t j, int r, double z)
{
    int hi = p->ras->jobs[j].s_pend;
    if (utility(p, j, hi, r) < z - 1e-12)
        return -1;
    int lo = 0;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (utility(p, j, mid, r) >= z - 1e-12)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* How many tasks of demand d fit on tt. */
static long fit_count(const plus *p, size_t tt, const double *d, long want)
{
    long n = want;
    for (size_t r = 0; r < p->R && n > 0; r++) {
        if (d[r] <= 0)
            continue;
        double cap = p->ras->capacity[tt * p->R + r];
        double room = cap - p->load[tt * p->R + r] + 1e-9 * (1.0 + fabs(cap));
        double k = floor(room / d[r]);
        if (k < (double)n)
            n = k < 0 ? 0 : (long)k;
    }
    return n;
}

static void add(plus *p, size_t tt, const double *d, long k)
{
    for (size_t r = 0; r < p->R; r++)
        p->load[tt * p->R + r] += (double)k * d[r];
    tree_update(p, tt);
}

/* Removes job j's tasks (s maps, r reducers of the option) entirely. */
static void undo_job(plus *p, size_t j, const double *dm, const double *dr)
{
    for (size_t tt = 0; tt < p->TT; tt++) {
        int *a = &p->pm[j * p->TT + tt], *b = &p->pr[j * p->TT + tt];
        if (*a)
            add(p, tt, dm, -*a);
        if (*b)
            add(p, tt, dr, -*b);
        *a = *b = 0;
    }
    p->s[j] = p->r[j] = 0;
}

/* Slack left on tt after one more task of demand d: the smallest share
 * of a capacity left over the resources (best fit minimises it). */
static double slack_after(const plus *p, size_t tt, const double *d)
{
    double m = INFINITY;
    for (size_t r = 0; r < p->R; r++) {
        double cap = p->ras->capacity[tt * p->R + r];
        if (cap > 0) {
            double left = (cap - p->load[tt * p->R + r] - d[r]) / cap;
            if (left < m)
                m = left;
        }
    }
    return m;
}

/* First fit in bulk (or best fit task by task when p->best_fit) of `k`
 * tasks of demand d into row cells; 1 if all fit. */
static int pack(plus *p, int *row, const double *d, long k)
{
    while (p->best_fit && k > 0) {
        size_t best = p->TT;
        double bs = 0;
        for (size_t tt = 0; tt < p->TT; tt++) {
            if (fit_count(p, tt, d, 1) < 1)
                continue;
            double sl = slack_after(p, tt, d);
            if (best == p->TT || sl < bs) {
                best = tt;
                bs = sl;
            }
        }
        if (best == p->TT)
            return 0;
        add(p, best, d, 1);
        row[best]++;
        k--;
    }
    size_t tt = tree_first(p, 1, 0, p->leaves, 0, d);
    while (tt < p->TT && k > 0) {
        long n = fit_count(p, tt, d, k);
        if (n > 0) {
            add(p, tt, d, n);
            row[tt] += (int)n;
            k -= n;
        }
        tt = tree_first(p, 1, 0, p->leaves, tt + 1, d);
    }
    return k == 0;
}

static uint64_t next_random(plus *p)
{
    p->rng ^= p->rng << 13;
    p->rng ^= p->rng >> 7;
    p->rng ^= p->rng << 17;
    return p->rng;
}

static int by_cost(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    const double *c = sort_key;
    if (c[x] != c[y])
        return c[x] < c[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Packs job j at level z (options cheapest first); 1 if one fits. */
static int pack_job(plus *p, size_t j, double z)
{
    const so_ras_job *job = &p->ras->jobs[j];
    size_t n = 0;
    int rp = job->r_pend;
    int step = rp > OPT_LIMIT ? (rp + OPT_LIMIT - 1) / OPT_LIMIT : 1;
    for (int r = 0; r <= rp; r = (r + step > rp && r < rp) ? rp : r + step) {
        if (r == 1 && rp > 1)
            continue;
        int s = fewest_maps(p, j, r, z);
        if (s < 0)
            continue;
        p->opt_s[n] = s;
        p->opt_r[n] = r;
        p->opt_cost[n] = s * map_volume(p, j) + r * red_volume(p, j, s);
        if (p->jitter) /* up to twice the cost */
            p->opt_cost[n] *= 1.0 + (double)(next_random(p) % 1024) / 1024.0;
        p->opt_idx[n] = n;
        n++;
        if (n > OPT_LIMIT)
            break;
    }
    sort_key = p->opt_cost;
    qsort(p->opt_idx, n, sizeof *p->opt_idx, by_cost);
    double dr[64], *dred = p->R <= 64 ? dr : malloc(p->R * sizeof *dred);
    if (!dred)
        return 0;
    int ok = 0;
    for (size_t k = 0; k < n && !ok; k++) {
        int s = p->opt_s[p->opt_idx[k]], r = p->opt_r[p->opt_idx[k]];
        for (size_t q = 0; q < p->R; q++)
            dred[q] = so_ras_reducer_demand(job, s, q);
        ok = pack(p, &p->pr[j * p->TT], dred, r) &&
             pack(p, &p->pm[j * p->TT], job->map, s);
        if (ok) {
            p->s[j] = s;
            p->r[j] = r;
        } else {
            undo_job(p, j, job->map, dred);
        }
    }
    if (dred != dr)
        free(dred);
    return ok;
}

static double min_utility(const plus *p)
{
    double m = 1.0;
    for (size_t j = 0; j < p->J; j++) {
        double u = utility(p, j, p->s[j], p->r[j]);
        if (u < m)
            m = u;
    }
    return m;
}

/* ---- bounded backtracking check (small instances) ------------------------ */

typedef struct {
    plus *p;
    double z;
    const size_t *order;
    long budget;
    double dred[64];
} dfs_check;

/* Places `left` tasks of demand d for job j (row: its pm or pr row), task
 * by task, each on a TaskTracker at index >= from (identical tasks in
 * non-decreasing TaskTracker order), skipping a TaskTracker whose capacity
 * and load equal those of an earlier candidate; then continues with `cont`. */
static int place_tasks(dfs_check *c, size_t k, int stage, int *row,
                       const double *d, long left, size_t from);

/* Job order[k]: each option in cost order, its reducers then its maps. */
static int check_job(dfs_check *c, size_t k)
{
    plus *p = c->p;
    if (k == p->J)
        return 1;
    if (--c->budget < 0)
        return 0;
    size_t j = c->order[k];
    const so_ras_job *job = &p->ras->jobs[j];
    int opt_s[OPT_LIMIT + 2], opt_r[OPT_LIMIT + 2];
    double cost[OPT_LIMIT + 2];
    size_t n = 0;
    int rp = job->r_pend;
    for (int r = 0; r <= rp && n <= OPT_LIMIT; r++) {
        if (r == 1 && rp > 1)
            continue;
        int sm = fewest_maps(p, j, r, c->z);
        if (sm < 0)
            continue;
        size_t at = n++;
        double cst = sm * map_volume(p, j) + r * red_volume(p, j, sm);
        while (at > 0 && cost[at - 1] > cst) { /* insertion by cost */
            opt_s[at] = opt_s[at - 1];
            opt_r[at] = opt_r[at - 1];
            cost[at] = cost[at - 1];
            at--;
        }
        opt_s[at] = sm;
        opt_r[at] = r;
        cost[at] = cst;
    }
    for (size_t o = 0; o < n && c->budget >= 0; o++) {
        p->s[j] = opt_s[o];
        p->r[j] = opt_r[o];
        for (size_t q = 0; q < p->R; q++)
            c->dred[q] = so_ras_reducer_demand(job, opt_s[o], q);
        if (place_tasks(c, k, 0, &p->pr[j * p->TT], c->dred, opt_r[o], 0))
            return 1;
        p->s[j] = p->r[j] = 0;
    }
    return 0;
}

static int same_state(const plus *p, size_t a, size_t b)
{
    for (size_t r = 0; r < p->R; r++)
        if (p->ras->capacity[a * p->R + r] != p->ras->capacity[b * p->R + r] ||
            fabs(p->load[a * p->R + r] - p->load[b * p->R + r]) > 1e-9)
            return 0;
    return 1;
}

static int place_tasks(dfs_check *c, size_t k, int stage, int *row,
                       const double *d, long left, size_t from)
{
    plus *p = c->p;
    if (left == 0) {
        if (stage == 0) { /* reducers done: the maps */
            size_t j = c->order[k];
            return place_tasks(c, k, 1, &p->pm[j * p->TT],
                               p->ras->jobs[j].map, p->s[j], 0);
        }
        return check_job(c, k + 1);
    }
    if (--c->budget < 0)
        return 0;
    /* copy: c->dred changes in deeper jobs */
    double dm[64];
    memcpy(dm, d, p->R * sizeof *dm);
    for (size_t tt = from; tt < p->TT; tt++) {
        if (fit_count(p, tt, dm, 1) < 1)
            continue;
        size_t t2 = from;
        while (t2 < tt && !same_state(p, t2, tt))
            t2++;
        if (t2 < tt && fit_count(p, t2, dm, 1) >= 1)
            continue; /* an identical TaskTracker was tried */
        add(p, tt, dm, 1);
        row[tt]++;
        if (place_tasks(c, k, stage, row, dm, left - 1, tt))
            return 1;
        add(p, tt, dm, -1);
        row[tt]--;
        if (c->budget < 0)
            return 0;
    }
    return 0;
}

/* The bounded search of level z (order[0]); 1 if it found a placement. */
/* A necessary condition of level z: per resource, the jobs' least demand
 * over their options fits the cluster's total capacity. */
static int volume_allows(const plus *p, double z)
{
    for (size_t r = 0; r < p->R; r++) {
        double need = 0, cap = 0;
        for (size_t tt = 0; tt < p->TT; tt++)
            cap += p->ras->capacity[tt * p->R + r];
        for (size_t j = 0; j < p->J; j++) {
            const so_ras_job *job = &p->ras->jobs[j];
            double least = INFINITY;
            for (int q = 0; q <= job->r_pend && q <= OPT_LIMIT; q++) {
                int sm = fewest_maps(p, j, q, z);
                if (sm < 0)
                    continue;
                double d = sm * job->map[r] + q * so_ras_reducer_demand(job, sm, r);
                if (d < least)
                    least = d;
            }
            need += least;
        }
        if (!so_ras_fits(need, cap))
            return 0;
    }
    return 1;
}

static int level_fits_search(plus *p, double z)
{
    if (p->R > 64 || !volume_allows(p, z))
        return 0;
    long budget = p->search_left < SEARCH_NODES ? p->search_left : SEARCH_NODES;
    if (budget <= 0)
        return 0;
    dfs_check c = {p, z, p->order[0], budget, {0}};
    clear(p);
    int ok = check_job(&c, 0);
    p->search_left -= budget - (c.budget > 0 ? c.budget : 0);
    return ok;
}

/* Feasibility check of level z; on success the placement is in p. Tries
 * the two job orders by first fit, then (small instances) by best fit,
 * then RANDOM_ORDERS shuffled orders by best fit, the second half with
 * option costs multiplied by random factors in [1, 2) (a fixed xorshift
 * sequence, so the result is deterministic). */
static int level_fits(plus *p, double z)
{
    int small = p->small;
    int tries = small ? 4 + RANDOM_ORDERS : 2;
    p->rng = 0x9e3779b97f4a7c15ULL;
    for (int o = 0; o < tries; o++) {
        p->best_fit = o >= 2;
        p->jitter = o >= 4 + RANDOM_ORDERS / 2;
        const size_t *order = p->order[o % 2];
        if (o >= 4) { /* Fisher-Yates on order[2] */
            for (size_t k = 0; k < p->J; k++)
                p->order[2][k] = p->order[0][k];
            for (size_t k = p->J; k > 1; k--) {
                size_t i = (size_t)(next_random(p) % k), t = p->order[2][k - 1];
                p->order[2][k - 1] = p->order[2][i];
                p->order[2][i] = t;
            }
            order = p->order[2];
        }
        clear(p);
        size_t k = 0;
        while (k < p->J && pack_job(p, order[k], z))
            k++;
        if (k == p->J)
            return 1;
    }
    return small && level_fits_search(p, z);
}

/* ---- fill and local search ---------------------------------------------- */

/* Whether one more map of job j fits on tt, with its shuffling reducers'
 * growth. */
static int map_fits(const plus *p, size_t j, size_t tt)
{
    const so_ras_job *job = &p->ras->jobs[j];
    if (p->s[j] >= job->s_pend || fit_count(p, tt, job->map, 1) < 1)
        return 0;
    if (job->reduce_phase || p->r[j] == 0 || p->s[j] >= job->parallel_copies)
        return 1;
    for (size_t t2 = 0; t2 < p->TT; t2++) {
        int b = p->pr[j * p->TT + t2];
        if (!b)
            continue;
        for (size_t r = 0; r < p->R; r++) {
            double extra = job->shuffle[r] * b + (t2 == tt ? job->map[r] : 0);
            double cap = p->ras->capacity[t2 * p->R + r];
            if (!so_ras_fits(p->load[t2 * p->R + r] + extra, cap))
                return 0;
        }
    }
    return 1;
}

static void put_map(plus *p, size_t j, size_t tt, int sign)
{
    const so_ras_job *job = &p->ras->jobs[j];
    if (sign < 0)
        p->s[j]--;
    int grows = !job->reduce_phase && p->s[j] < job->parallel_copies;
    if (sign > 0)
        p->s[j]++;
    add(p, tt, job->map, sign);
    p->pm[j * p->TT + tt] += sign;
    for (size_t t2 = 0; grows && p->r[j] && t2 < p->TT; t2++) {
        int b = p->pr[j * p->TT + t2];
        for (size_t r = 0; b && r < p->R; r++)
            p->load[t2 * p->R + r] += sign * job->shuffle[r] * b;
    }
}

static int red_fits(const plus *p, size_t j, size_t tt)
{
    const so_ras_job *job = &p->ras->jobs[j];
    if (p->r[j] >= job->r_pend)
        return 0;
    for (size_t r = 0; r < p->R; r++)
        if (!so_ras_fits(p->load[tt * p->R + r] +
                             so_ras_reducer_demand(job, p->s[j], r),
                         p->ras->capacity[tt * p->R + r]))
            return 0;
    return 1;
}

static void put_red(plus *p, size_t j, size_t tt, int sign)
{
    const so_ras_job *job = &p->ras->jobs[j];
    for (size_t r = 0; r < p->R; r++)
        p->load[tt * p->R + r] += sign * so_ras_reducer_demand(job, p->s[j], r);
    p->pr[j * p->TT + tt] += sign;
    p->r[j] += sign;
}

/* Fill (step 3). cursor: 2 * J first-fit positions (loads only grow, so a
 * TaskTracker that refused a task of j keeps refusing it). */
static void fill(plus *p, size_t *cursor, unsigned char *done)
{
    memset(cursor, 0, 2 * p->J * sizeof *cursor);
    memset(done, 0, p->J);
    for (;;) {
        size_t w = p->J;
        double uw = 0;
        for (size_t j = 0; j < p->J; j++) {
            if (done[j])
                continue;
            double u = utility(p, j, p->s[j], p->r[j]);
            if (w == p->J || u < uw) {
                w = j;
                uw = u;
            }
        }
        if (w == p->J)
            return;
        const so_ras_job *job = &p->ras->jobs[w];
        double um = p->s[w] < job->s_pend ?
                        utility(p, w, p->s[w] + 1, p->r[w]) : -INFINITY;
        double ur = p->r[w] < job->r_pend ?
                        utility(p, w, p->s[w], p->r[w] + 1) : -INFINITY;
        int placed = 0;
        for (int pass = 0; pass < 2 && !placed; pass++) {
            int kind = (ur > um) ^ pass; /* 0 map, 1 reducer */
            if ((kind ? ur : um) == -INFINITY)
                continue;
            size_t *c = &cursor[2 * w + (size_t)kind];
            while (*c < p->TT && !(kind ? red_fits(p, w, *c) : map_fits(p, w, *c)))
                ++*c;
            if (*c < p->TT) {
                if (kind)
                    put_red(p, w, *c, 1);
                else
                    put_map(p, w, *c, 1);
                placed = 1;
            }
        }
        if (!placed)
            done[w] = 1;
    }
}

/* Jobs at utility umin (1e-12). */
static size_t at_min(const plus *p, double umin)
{
    size_t n = 0;
    for (size_t j = 0; j < p->J; j++)
        n += utility(p, j, p->s[j], p->r[j]) <= umin + 1e-12;
    return n;
}

/* One exchange of step 4; 1 if the minimum utility rose, or stayed with
 * fewer jobs at it (so (minimum, -jobs at it) rises strictly). */
static int exchange(plus *p)
{
    double umin = min_utility(p);
    size_t ties = at_min(p, umin);
    size_t w = 0;
    while (w < p->J && utility(p, w, p->s[w], p->r[w]) > umin)
        w++;
    const so_ras_job *job = &p->ras->jobs[w];
    for (int kind = 0; kind < 2; kind++) {
        if (kind ? p->r[w] >= job->r_pend : p->s[w] >= job->s_pend)
            continue;
        double gain = kind ? utility(p, w, p->s[w], p->r[w] + 1)
                           : utility(p, w, p->s[w] + 1, p->r[w]);
        if (gain <= umin + 1e-12)
            continue;
        for (size_t tt = 0; tt < p->TT; tt++)
            for (size_t v = 0; v < p->J; v++) {
                if (v == w)
                    continue;
                for (int vk = 0; vk < 2; vk++) {
                    int *cell = (vk ? p->pr : p->pm) + v * p->TT + tt;
                    if (*cell <= 0)
                        continue;
                    double uv = vk ? utility(p, v, p->s[v], p->r[v] - 1)
                                   : utility(p, v, p->s[v] - 1, p->r[v]);
                    if (uv <= umin + 1e-12)
                        continue;
                    if (vk)
                        put_red(p, v, tt, -1);
                    else
                        put_map(p, v, tt, -1);
                    int fits = kind ? red_fits(p, w, tt) : map_fits(p, w, tt);
                    if (fits) {
                        if (kind)
                            put_red(p, w, tt, 1);
                        else
                            put_map(p, w, tt, 1);
                        if (min_utility(p) > umin + 1e-12 ||
                            (min_utility(p) > umin - 1e-12 &&
                             at_min(p, umin) < ties))
                            return 1;
                        if (kind) /* another job at umin: keep looking */
                            put_red(p, w, tt, -1);
                        else
                            put_map(p, w, tt, -1);
                    }
                    if (vk)
                        put_red(p, v, tt, 1);
                    else
                        put_map(p, v, tt, 1);
                }
            }
    }
    return 0;
}

/* Steps 1-4 on p (initialised); the placement is left in p. */
static int run(plus *p, long long moves, long long *used)
{
    size_t cells = p->J * p->TT;
    size_t *cursor = malloc((2 * p->J + 1) * sizeof *cursor);
    unsigned char *done = malloc(p->J + 1);
    int rc = cursor && done ? SO_OK : SO_ENOMEM;
    /* steps 1-2: bisection on the level; the check is deterministic, so
     * the lower end's placement is rebuilt by checking its level again */
    double lo = SO_RAS_STARVED, hi = 1.0 + 1e-9, lo_level = SO_RAS_STARVED;
    p->search_left = SEARCH_TOTAL;
    if (!rc && level_fits(p, 1.0)) {
        lo = hi;
        lo_level = 1.0;
    }
    double tol = p->J * p->TT <= SEARCH_CELLS ? 1e-7 : LARGE_TOLERANCE;
    while (!rc && hi - lo > tol) {
        double mid = 0.5 * (lo + hi);
        if (level_fits(p, mid)) {
            lo = min_utility(p);
            lo_level = mid;
        } else {
            hi = mid;
        }
    }
    if (!rc) {
        if (!level_fits(p, lo_level)) /* the empty placement */
            clear(p);
        rc = so_ras_loads(p->ras, p->pm, p->pr, p->load);
        if (!rc)
            tree_build(p);
    }
    *used = 0;
    if (!rc) {
        fill(p, cursor, done); /* step 3 */
        while (*used < moves && p->J > 0 && cells <= SEARCH_CELLS &&
               exchange(p)) { /* step 4 */
            ++*used;
            fill(p, cursor, done);
        }
    }
    free(cursor);
    free(done);
    return rc;
}

int so_ras_plus_place(const so_ras *ras, long long moves, int *pm, int *pr)
{
    plus p;
    long long used;
    int rc = plus_init(&p, ras);
    if (rc)
        return rc;
    rc = run(&p, moves, &used);
    if (!rc) {
        memcpy(pm, p.pm, p.J * p.TT * sizeof *pm);
        memcpy(pr, p.pr, p.J * p.TT * sizeof *pr);
    }
    plus_free(&p);
    return rc;
}

int so_ras_plus_solve(const so_problem *pb, const so_params *prm,
                      so_result *res)
{
    const so_ras *ras = so_ras_of(pb);
    so_error err;
    long long moves, used = 0;
    if (so_params_int(prm, so_ras_plus_options, "moves", 200, &moves, &err) ||
        moves < 0 || moves > 1000000) {
        so_result_set_message(res, "option moves: expected an integer in"
                                   " [0, 1000000]");
        return SO_EINVAL;
    }
    plus p;
    int rc = plus_init(&p, ras);
    if (rc)
        return rc;
    rc = run(&p, moves, &used);
    if (!rc)
        rc = so_ras_report(ras, res, SO_FEASIBLE, p.pm, p.pr, 0, 0);
    if (!rc)
        so_result_set_extra(res, "moves_used", json_integer(used));
    plus_free(&p);
    return rc;
}
