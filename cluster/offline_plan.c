/*
 * offline_plan.c — planned maps: every map placed on a slot and a beat
 * before the run (offline-opt's rule tasks=planned, scheduler priority's
 * option; docs/offline.md, "Planned maps").
 *
 * Why. A job ends with its last map. Handed out at heartbeats, longest
 * first (tasks=longest), a job's last maps start on whichever slots free
 * up, so its slots finish it at scattered times: on flex-cluster about 22
 * s per job after the level its work could reach, nearly all of the gap
 * between the best priority list and lp-bound. A plan can give each slot
 * maps whose lengths add up to the same end.
 *
 * The model, exact for the engine without noise, contention, locality
 * slow-downs or resources: a map slot runs one task at a time; a map of
 * work x launched at a beat b of a node of speed v ends at b + x / v, and
 * its slot takes the next map at the first beat at or after that end,
 * b + k I with k = so_cl_plan_beats(x / v, I), at least 1 (an end on a beat
 * frees the slot for that beat: the end event was queued before the beat's,
 * cluster/engine.c; a map of no work holds its slot until the next beat).
 * Where the engine differs (an end a rounding error after a beat, a job not
 * yet arrived), the replay
 * launches the planned map at the slot's next chance: a later schedule,
 * still the simulator's own.
 *
 * The plan (a heuristic; nothing here is claimed optimal): jobs one after
 * another in the given order, each job's maps on each slot after the
 * earlier jobs' (a job block), from the slot's first beat at or after the
 * job's submit. For a job, the smallest target T (bisection to a
 * thousandth of a beat) for which its maps fit in every slot's room,
 * floor((T - from) / I) beats: worst fit (largest map onto the slot of
 * most room), then repair — while a slot is over its room, move one of its
 * maps to a slot with room for it, or swap it for a shorter map of a slot
 * that has room for the difference, the largest relief first, the tightest
 * fit on ties (each step lowers the total excess, so the repair ends). A
 * slot's maps are kept by length, so the best swap partner on a slot is
 * found by bisection: of the maps whose exchange fits the slot's room, the
 * shortest relieves most and fills the room tightest (a map's beats grow
 * with its work on every slot). On
 * each slot the map with the most slack before its next beat runs last,
 * so the job's last map ends at T less that slack at most. No look-ahead:
 * a job's plan ignores what its slots' ends leave to the next job.
 *
 * The replay (so_cl_map_plan_launch): a free map slot takes its node's
 * next planned map once that map's beat has come, else a map overdue by
 * more than 1.5 beats on any node, each job tried once by its first
 * waiting map. A map waits while its job is unfinished and its task
 * pending (each entry keeps its job: a finished job's task pages are given
 * back and read as pending, cluster/task_store.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/offline_bound.h"
#include "cluster/offline_plan.h"

long long so_cl_plan_beats(double seconds, double interval)
{
    double k = ceil(seconds / interval - 1e-9);
    return k >= (double)SO_CL_PLAN_MAX_BEATS ? SO_CL_PLAN_MAX_BEATS : k > 1 ? (long long)k : 1;
}

typedef struct {
    double start;
    int node, task, job;
} entry;

typedef struct {
    double interval;
    int S;          /* bins: the map slots */
    int *node;      /* bin -> its node */
    double *speed;  /* bin -> its node's speed */
    double fastest; /* the largest speed */
    int *cls, n_cls; /* bin -> its speed class; classes */
    double *cls_speed; /* class -> speed */
    long long *u;    /* item x class -> beats held (the current job); NULL:
                      * computed at each use (UNITS_TABLE_MAX) */
    double *free;   /* bin -> when its slot takes a map (a beat of its node) */
    double *from;   /* bin -> the current job's first beat on it */
    long long *cap, *load; /* bin -> beats of room for the target, held */
    int *heap;
    /* the current job: m maps of work `work`, largest first in by_work
     * (rank: an item's place there); bin -> its maps, by rank from the
     * last (work ascending): on[b][0 .. n_on[b]), room for cap_on[b] */
    int m;
    const double *work;
    int *by_work, *rank, *bin;
    int **on, *n_on, *cap_on;
    int failed; /* out of memory while packing */
    so_cl_keyed *key;
    so_cl_keyed *over; /* bins over their room (S) */
    int scan;          /* where relieve's next scan starts (large clusters) */
    double *phases;    /* the nodes' distinct heartbeat phases */
    int n_phases;
    double *beats;     /* scratch: beats of a window (beats_between) */
    size_t cap_beats;
    long packings;     /* pack() calls */
} packer;

enum { CANDIDATES = 512 }; /* bins a repair step weighs on a large cluster */
/* The most entries (8 bytes each) of the table of beats per map and speed
 * class; above, beats are computed where used (the same numbers: one job
 * of 100,000 maps on 3,000 distinct node speeds would need 2.4 GB) */
#define UNITS_TABLE_MAX ((size_t)1 << 20)

/* Beats map `item` of the job holds a slot of bin b (precomputed per
 * speed class when the table is small enough). */
static long long units(const packer *p, int item, int b)
{
    if (!p->u)
        return so_cl_plan_beats(p->work[item] / p->cls_speed[p->cls[b]], p->interval);
    return p->u[(size_t)item * (size_t)p->n_cls + (size_t)p->cls[b]];
}

static long long room(const packer *p, int b)
{
    return p->cap[b] - p->load[b];
}

/* Where `item` is or would go in bin b's maps (by rank, descending). */
static int position(const packer *p, int b, int item)
{
    int lo = 0, hi = p->n_on[b];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (p->rank[p->on[b][mid]] > p->rank[item])
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Room for one more map on bin b; 0, or -1 (p->failed) out of memory. */
static int grow(packer *p, int b)
{
    if (p->n_on[b] < p->cap_on[b])
        return 0;
    int cap = p->cap_on[b] > 0 ? 2 * p->cap_on[b] : 8;
    int *more = realloc(p->on[b], (size_t)cap * sizeof *more);
    if (!more) {
        p->failed = 1;
        return -1;
    }
    p->on[b] = more;
    p->cap_on[b] = cap;
    return 0;
}

static void put(packer *p, int item, int b)
{
    if (grow(p, b))
        return;
    int k = position(p, b, item);
    memmove(&p->on[b][k + 1], &p->on[b][k], (size_t)(p->n_on[b] - k) * sizeof **p->on);
    p->on[b][k] = item;
    p->n_on[b]++;
    p->bin[item] = b;
    p->load[b] += units(p, item, b);
}

static void take(packer *p, int item)
{
    int b = p->bin[item], k = position(p, b, item);
    p->n_on[b]--;
    memmove(&p->on[b][k], &p->on[b][k + 1], (size_t)(p->n_on[b] - k) * sizeof **p->on);
    p->load[b] -= units(p, item, b);
}

/* The first of bin b's maps that holds at least `beats` on it (its maps'
 * beats ascend), n_on[b] when none does. */
static int first_holding(const packer *p, int b, long long beats)
{
    int lo = 0, hi = p->n_on[b];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (units(p, p->on[b][mid], b) < beats)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The heap of bins by room, most room on top (worst fit). */
static void sift(packer *p, int k)
{
    int n = p->S;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= n)
            return;
        if (c + 1 < n && room(p, p->heap[c + 1]) > room(p, p->heap[c]))
            c++;
        if (room(p, p->heap[c]) <= room(p, p->heap[k]))
            return;
        int t = p->heap[c];
        p->heap[c] = p->heap[k];
        p->heap[k] = t;
        k = c;
    }
}

/* One repair step on bin i, over its room: the move or swap that relieves
 * it most (then the tightest fit). 0 when none does. */
static int relieve(packer *p, int i)
{
    long long over = -room(p, i), gain = 0, slack = 0;
    int a_best = -1, j_best = -1, b_best = -1;
    /* on a large cluster, CANDIDATES bins with room, from where the last
     * step stopped (bounded work a step) */
    int from = p->S > CANDIDATES ? p->scan : 0;
    /* perfect: all of the excess off and a bin filled exactly */
#define PERFECT (gain == over && slack == 0)
    for (int ka = p->n_on[i] - 1; ka >= 0 && !PERFECT; ka--) {
        int a = p->on[i][ka];
        long long ua = units(p, a, i);
        int seen = 0;
        for (int x = 0; x < p->S && seen < CANDIDATES && !PERFECT; x++) {
            int j = (from + x) % p->S;
            long long r = room(p, j);
            if (j == i || r <= 0)
                continue;
            seen++;
            if (p->S > CANDIDATES)
                p->scan = (j + 1) % p->S;
            long long uaj = units(p, a, j);
            long long g = ua < over ? ua : over;
            if (uaj <= r && (g > gain || (g == gain && r - uaj < slack))) {
                gain = g;
                slack = r - uaj;
                a_best = a;
                j_best = j;
                b_best = -1;
            }
            /* the swap: j's shortest map whose exchange fits j's room
             * (inc <= r) relieves i most and leaves j the least slack; if
             * it is not shorter than a on i, no map of j is */
            int kb = first_holding(p, j, uaj - r);
            if (kb < p->n_on[j]) {
                int b = p->on[j][kb];
                long long d = ua - units(p, b, i), inc = uaj - units(p, b, j);
                g = d < over ? d : over;
                if (d > 0 && (g > gain || (g == gain && r - inc < slack))) {
                    gain = g;
                    slack = r - inc;
                    a_best = a;
                    j_best = j;
                    b_best = b;
                }
            }
        }
    }
#undef PERFECT
    if (a_best < 0)
        return 0;
    take(p, a_best);
    if (b_best >= 0) {
        take(p, b_best);
        put(p, b_best, i);
    }
    put(p, a_best, j_best);
    return 1;
}

static double cap_at(const packer *p, int b, double T)
{
    double c = p->from[b] <= T ? floor((T - p->from[b]) / p->interval + 1e-9) : 0;
    return c < 0x1p62 ? c : 0x1p62; /* above any job's beats (SO_CL_PLAN_MAX_BEATS) */
}

/* The beats of room of all bins for target T. */
static double room_sum(const packer *p, double T)
{
    double sum = 0;
    for (int b = 0; b < p->S; b++)
        sum += cap_at(p, b, T);
    return sum;
}

/* Whether the job's maps fit every bin's room for target T. */
static int pack(packer *p, double T)
{
    p->packings++;
    if (p->failed)
        return 1; /* ends the caller's search; plan_job reports it */
    for (int b = 0; b < p->S; b++) {
        p->cap[b] = (long long)cap_at(p, b, T);
        p->load[b] = 0;
        p->n_on[b] = 0;
        p->heap[b] = b;
    }
    for (int k = p->S / 2; k >= 0; k--)
        sift(p, k);
    /* largest first: each bin's maps arrive by rank, so appended, then
     * reversed */
    for (int k = 0; k < p->m; k++) {
        int item = p->by_work[k], b = p->heap[0];
        if (grow(p, b))
            return 1;
        p->on[b][p->n_on[b]++] = item;
        p->bin[item] = b;
        p->load[b] += units(p, item, b);
        sift(p, 0);
    }
    for (int b = 0; b < p->S; b++)
        for (int x = 0, y = p->n_on[b] - 1; x < y; x++, y--) {
            int t = p->on[b][x];
            p->on[b][x] = p->on[b][y];
            p->on[b][y] = t;
        }
    /* the bins over their room, the most over first; a move or swap never
     * puts another bin over */
    int n_over = 0;
    for (int b = 0; b < p->S; b++)
        if (room(p, b) < 0)
            p->over[n_over++] = (so_cl_keyed){room(p, b), b};
    qsort(p->over, (size_t)n_over, sizeof *p->over, so_cl_keyed_cmp);
    for (int k = 0; k < n_over; k++)
        while (room(p, p->over[k].index) < 0 && !p->failed)
            if (!relieve(p, p->over[k].index))
                return 0;
    return 1;
}

static int cmp_entry(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    if (a->node != b->node)
        return a->node - b->node;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->task - b->task;
}

/* The first beat of bin b's node at or after t (within float rounding). */
static double first_beat(const so_cl_sim *sim, int node, double t)
{
    double phase = sim->nodes[node].phase;
    double k = ceil((t - phase) / sim->interval - 1e-9);
    return phase + (k > 0 ? k : 0) * sim->interval;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The beats of the bins' nodes in (lo, hi] (a hair after each, so that a
 * room computed there counts it), sorted, into p->beats; their number, -1
 * when out of memory. */
static int beats_between(packer *p, double lo, double hi)
{
    int per = (int)ceil((hi - lo) / p->interval) + 1, n = 0;
    size_t need = (size_t)p->n_phases * (size_t)per;
    if (need > p->cap_beats) {
        double *grown = realloc(p->beats, need * sizeof *grown);
        if (!grown)
            return -1;
        p->beats = grown;
        p->cap_beats = need;
    }
    for (int f = 0; f < p->n_phases; f++) {
        double ph = p->phases[f];
        for (double k = floor((lo - ph) / p->interval); ; k++) {
            double t = ph + k * p->interval + 1e-6 * p->interval;
            if (t <= lo)
                continue;
            if (t > hi || (size_t)n >= need)
                break;
            p->beats[n++] = t;
        }
    }
    qsort(p->beats, (size_t)n, sizeof *p->beats, cmp_double);
    return n;
}

/* Plans job j's maps into e (from *n_e on) and the bins' free times. */
static int plan_job(packer *p, const so_cl_sim *sim, int j, so_cl_map_plan *plan,
                     entry *e, size_t *n_e)
{
    const so_cl_job_spec *js = &sim->w->jobs[j];
    p->m = js->n_maps;
    p->work = js->map_work;
    if (p->m == 0 || p->S == 0)
        return SO_OK;
    double lo = INFINITY;
    for (int b = 0; b < p->S; b++) {
        p->from[b] = first_beat(sim, p->node[b], fmax(p->free[b], js->submit));
        lo = fmin(lo, p->from[b]);
    }
    for (int k = 0; p->u && k < p->m; k++)
        for (int c = 0; c < p->n_cls; c++)
            p->u[(size_t)k * (size_t)p->n_cls + (size_t)c] =
                so_cl_plan_beats(p->work[k] / p->cls_speed[c], p->interval);
    for (int k = 0; k < p->m; k++)
        p->key[k] = (so_cl_keyed){-p->work[k], k};
    qsort(p->key, (size_t)p->m, sizeof *p->key, so_cl_keyed_cmp);
    for (int k = 0; k < p->m; k++) {
        p->by_work[k] = p->key[k].index;
        p->rank[p->key[k].index] = k;
    }
    /* lo: infeasible; first the rooms' sum alone (no packing) */
    double need = 0;
    for (int k = 0; k < p->m; k++)
        need += so_cl_plan_beats(p->work[k] / p->fastest, p->interval);
    double step = p->interval;
    while (room_sum(p, lo + step) < need)
        step *= 2;
    for (double hi = lo + step; hi - lo > 1e-3 * p->interval;) {
        double mid = 0.5 * (lo + hi);
        if (room_sum(p, mid) < need)
            lo = mid;
        else
            hi = mid;
    }
    /* whether the maps fit changes only where some bin's room grows, at a
     * beat of its node: a target that fits, a step of a beat above lo
     * doubled until the maps fit, bisection down to a beat's width, then
     * the first of the beats there (one or two a phase) that fits, by
     * bisection (a few packings and 3 x phases beats however long the
     * maps) */
    double hi = lo + p->interval;
    for (double step = p->interval; !pack(p, hi); step *= 2) {
        lo = hi;
        hi = lo + 2 * step;
    }
    while (hi - lo > p->interval) {
        double mid = 0.5 * (lo + hi);
        if (pack(p, mid))
            hi = mid;
        else
            lo = mid;
    }
    int n = beats_between(p, lo, hi + p->interval);
    if (n < 0)
        return SO_ENOMEM;
    if (n > 0 && pack(p, p->beats[n - 1])) {
        int a = 0, b = n - 1; /* beats[b] fits */
        while (a < b) {
            int mid = (a + b) / 2;
            if (pack(p, p->beats[mid]))
                b = mid;
            else
                a = mid + 1;
        }
        hi = fmin(hi, p->beats[b]);
    }
    pack(p, hi);
    if (p->failed)
        return SO_ENOMEM;
    int first = sim->jobs[j].first_task[SO_CL_MAP];
    double end = 0;
    for (int b = 0; b < p->S; b++) {
        if (p->n_on[b] == 0)
            continue;
        /* the map with the most slack before its beat runs last */
        int last = p->on[b][0];
        double most = -1;
        for (int k = 0; k < p->n_on[b]; k++) {
            int a = p->on[b][k];
            double run = p->work[a] / p->speed[b];
            double s = units(p, a, b) * p->interval - run;
            if (s > most) {
                most = s;
                last = a;
            }
        }
        double t = p->from[b];
        for (int k = 0; k < p->n_on[b]; k++) {
            int a = p->on[b][k];
            if (a != last) {
                e[(*n_e)++] = (entry){t, p->node[b], first + a, j};
                t += units(p, a, b) * p->interval;
            }
        }
        e[(*n_e)++] = (entry){t, p->node[b], first + last, j};
        end = fmax(end, t + p->work[last] / p->speed[b]);
        p->free[b] = t + units(p, last, b) * p->interval;
    }
    plan->map_end[j] = end;
    return SO_OK;
}

/* The bins' distinct speeds (classes), so a map's beats are computed once
 * per speed. */
static int speed_classes(packer *p)
{
    so_cl_keyed *k = malloc((p->S > 0 ? (size_t)p->S : 1) * sizeof *k);
    if (!k)
        return SO_ENOMEM;
    for (int b = 0; b < p->S; b++)
        k[b] = (so_cl_keyed){p->speed[b], b};
    qsort(k, (size_t)p->S, sizeof *k, so_cl_keyed_cmp);
    for (int i = 0; i < p->S; i++) {
        if (i == 0 || k[i].key != k[i - 1].key)
            p->cls_speed[p->n_cls++] = k[i].key;
        p->cls[k[i].index] = p->n_cls - 1;
    }
    free(k);
    return SO_OK;
}

/* The distinct heartbeat phases of the nodes with map slots. */
static int node_phases(packer *p, const so_cl_sim *sim)
{
    int n = sim->w->n_nodes;
    p->phases = malloc((n > 0 ? (size_t)n : 1) * sizeof *p->phases);
    if (!p->phases)
        return SO_ENOMEM;
    for (int k = 0; k < n; k++)
        if (sim->w->nodes[k].slots[SO_CL_MAP] > 0)
            p->phases[p->n_phases++] = sim->nodes[k].phase;
    qsort(p->phases, (size_t)p->n_phases, sizeof *p->phases, cmp_double);
    int d = 0;
    for (int k = 0; k < p->n_phases; k++)
        if (d == 0 || p->phases[k] != p->phases[d - 1])
            p->phases[d++] = p->phases[k];
    p->n_phases = d;
    return SO_OK;
}

/* The overdue scan's lists: each job's entries by planned start (ties by
 * entry), and the jobs with maps by their first planned start (ties by
 * job). */
static int by_job(so_cl_map_plan *plan, size_t n_e)
{
    int n = plan->n_jobs;
    so_cl_keyed *k = malloc((n_e > (size_t)n ? n_e : (size_t)n + 1) * sizeof *k);
    if (!k)
        return SO_ENOMEM;
    for (size_t i = 0; i < n_e; i++)
        k[i] = (so_cl_keyed){plan->start[i], (int)i};
    qsort(k, n_e, sizeof *k, so_cl_keyed_cmp);
    for (size_t i = 0; i < n_e; i++)
        plan->job_first[plan->job[i] + 1]++;
    for (int j = 0; j < n; j++) {
        plan->job_first[j + 1] += plan->job_first[j];
        plan->job_next[j] = plan->job_first[j];
    }
    for (size_t i = 0; i < n_e; i++) /* in start order: each job's by start */
        plan->of_job[plan->job_next[plan->job[k[i].index]]++] = k[i].index;
    int m = 0;
    for (int j = 0; j < n; j++) {
        plan->job_next[j] = plan->job_first[j];
        if (plan->job_first[j + 1] > plan->job_first[j])
            k[m++] = (so_cl_keyed){plan->start[plan->of_job[plan->job_first[j]]], j};
    }
    qsort(k, (size_t)m, sizeof *k, so_cl_keyed_cmp);
    for (int i = 0, at = n; i < m; i++)
        at = plan->live[at] = k[i].index;
    if (m > 0)
        plan->live[k[m - 1].index] = -1;
    else
        plan->live[n] = -1;
    free(k);
    return SO_OK;
}

/* Whether plan entry e's map still waits for a slot: its job unfinished
 * (a finished job's tasks read as zeros, i.e. pending: cluster/task_store.c)
 * and the task pending. */
static int waiting(const so_cl_map_plan *pl, const so_cl_sim *sim, int e)
{
    return !sim->jobs[pl->job[e]].finished && sim->tasks[pl->task[e]].state == SO_CL_PENDING;
}

/* tasks=planned, a map overdue anywhere: the first waiting map by planned
 * start whose beat is more than 1.5 beats past (its node has let a beat go
 * by without it: busy with a late map, or no room for its resources, e.g.
 * held by a reduce that waits for this very map) that fits on node.
 * Whether a waiting map fits depends on its job only (a free map slot, the
 * job's demand), so each job's first waiting map stands for all its maps:
 * one try a job, however many of its maps are overdue (walking every
 * overdue map, a node without room for a job's maps tried each of them at
 * every free slot). A job leaves the list once finished or with no map
 * waiting (a launched map never waits again: no kills under scheduler
 * priority). */
static int launch_overdue(so_cl_map_plan *pl, so_cl_sim *sim, int node)
{
    double due = sim->now - 1.5 * sim->interval;
    int n = 0, *link = &pl->live[pl->n_jobs];
    while (*link >= 0) {
        int j = *link, *k = &pl->job_next[j];
        if (pl->start[pl->of_job[pl->job_first[j]]] >= due)
            break; /* this job's maps and the later jobs' all lie ahead */
        while (*k < pl->job_first[j + 1] && !waiting(pl, sim, pl->of_job[*k]))
            ++*k;
        if (*k == pl->job_first[j + 1]) {
            *link = pl->live[j]; /* nothing of it waits any more */
            continue;
        }
        int e = pl->of_job[*k];
        if (pl->start[e] < due)
            pl->heads[n++] = (so_cl_keyed){pl->start[e], e};
        link = &pl->live[j];
    }
    qsort(pl->heads, (size_t)n, sizeof *pl->heads, so_cl_keyed_cmp);
    for (int i = 0; i < n; i++) {
        pl->probes++;
        if (so_cl_launch_task(sim, pl->task[pl->heads[i].index], node))
            return 1;
    }
    return 0;
}

int so_cl_map_plan_launch(so_cl_map_plan *pl, so_cl_sim *sim, int node)
{
    int *next = &pl->next[node];
    for (; *next < pl->first[node + 1]; ++*next) {
        if (!waiting(pl, sim, *next))
            continue; /* launched elsewhere as overdue */
        if (pl->start[*next] > sim->now + 0.5 * sim->interval ||
            !so_cl_launch_task(sim, pl->task[*next], node))
            break;
        ++*next;
        return 1;
    }
    return launch_overdue(pl, sim, node);
}

void so_cl_map_plan_free(so_cl_map_plan *plan)
{
    if (plan) {
        free(plan->first);
        free(plan->task);
        free(plan->job);
        free(plan->start);
        free(plan->next);
        free(plan->job_first);
        free(plan->of_job);
        free(plan->job_next);
        free(plan->live);
        free(plan->heads);
        free(plan->map_end);
        memset(plan, 0, sizeof *plan);
    }
}

int so_cl_map_plan_build(const so_cl_sim *sim, const int *order, int n,
                         so_cl_map_plan *plan)
{
    const so_cl_workload *w = sim->w;
    memset(plan, 0, sizeof *plan);
    packer p;
    memset(&p, 0, sizeof p);
    p.interval = sim->interval;
    size_t maps = 0;
    int most = 1;
    for (int j = 0; j < w->n_jobs; j++) {
        maps += (size_t)w->jobs[j].n_maps;
        most = w->jobs[j].n_maps > most ? w->jobs[j].n_maps : most;
    }
    for (int k = 0; k < w->n_nodes; k++)
        p.S += w->nodes[k].slots[SO_CL_MAP];
    size_t S = p.S > 0 ? (size_t)p.S : 1, mm = (size_t)most;
    p.node = malloc(S * sizeof *p.node);
    p.speed = malloc(S * sizeof *p.speed);
    p.free = malloc(S * sizeof *p.free);
    p.from = malloc(S * sizeof *p.from);
    p.cap = malloc(S * sizeof *p.cap);
    p.load = malloc(S * sizeof *p.load);
    p.on = calloc(S, sizeof *p.on);
    p.n_on = calloc(S, sizeof *p.n_on);
    p.cap_on = calloc(S, sizeof *p.cap_on);
    p.heap = malloc(S * sizeof *p.heap);
    p.by_work = malloc(mm * sizeof *p.by_work);
    p.bin = malloc(mm * sizeof *p.bin);
    p.rank = malloc(mm * sizeof *p.rank);
    p.key = malloc(mm * sizeof *p.key);
    p.cls = malloc(S * sizeof *p.cls);
    p.cls_speed = malloc(S * sizeof *p.cls_speed);
    p.over = malloc(S * sizeof *p.over);
    entry *e = malloc((maps > 0 ? maps : 1) * sizeof *e);
    plan->n_nodes = w->n_nodes;
    plan->first = calloc((size_t)w->n_nodes + 1, sizeof *plan->first);
    plan->next = calloc((size_t)w->n_nodes + 1, sizeof *plan->next);
    plan->task = malloc((maps > 0 ? maps : 1) * sizeof *plan->task);
    plan->job = malloc((maps > 0 ? maps : 1) * sizeof *plan->job);
    plan->start = malloc((maps > 0 ? maps : 1) * sizeof *plan->start);
    size_t jobs = (size_t)w->n_jobs + 1;
    plan->n_jobs = w->n_jobs;
    plan->job_first = calloc(jobs, sizeof *plan->job_first);
    plan->of_job = malloc((maps > 0 ? maps : 1) * sizeof *plan->of_job);
    plan->job_next = malloc(jobs * sizeof *plan->job_next);
    plan->live = malloc(jobs * sizeof *plan->live);
    plan->heads = malloc(jobs * sizeof *plan->heads);
    plan->map_end = calloc((size_t)w->n_jobs + 1, sizeof *plan->map_end);
    int rc = p.node && p.speed && p.free && p.from && p.cap && p.load && p.on && p.n_on && p.cap_on && p.heap &&
                     p.by_work && p.bin && p.rank && p.key && p.cls && p.cls_speed && p.over && e && plan->first && plan->next &&
                     plan->task && plan->job && plan->start && plan->job_first && plan->of_job &&
                     plan->job_next && plan->live && plan->heads && plan->map_end
                 ? SO_OK
                 : SO_ENOMEM;
    if (!rc) {
        for (int k = 0, b = 0; k < w->n_nodes; k++)
            for (int s = 0; s < w->nodes[k].slots[SO_CL_MAP]; s++, b++) {
                p.node[b] = k;
                p.speed[b] = w->nodes[k].speed > 0 ? w->nodes[k].speed : 1;
                p.fastest = fmax(p.fastest, p.speed[b]);
                p.free[b] = sim->nodes[k].phase;
            }
        rc = speed_classes(&p);
    }
    if (!rc)
        rc = node_phases(&p, sim);
    if (!rc && mm * (size_t)(p.n_cls > 0 ? p.n_cls : 1) <= UNITS_TABLE_MAX) {
        p.u = malloc(mm * (size_t)(p.n_cls > 0 ? p.n_cls : 1) * sizeof *p.u);
        rc = p.u ? SO_OK : SO_ENOMEM;
    }
    size_t n_e = 0;
    for (int k = 0; k < n && !rc; k++)
        rc = plan_job(&p, sim, order[k], plan, e, &n_e);
    if (!rc) { /* a job's SO_ENOMEM stands: never a plan with maps left out */
        qsort(e, n_e, sizeof *e, cmp_entry);
        for (size_t k = 0; k < n_e; k++) {
            plan->task[k] = e[k].task;
            plan->job[k] = e[k].job;
            plan->start[k] = e[k].start;
            plan->first[e[k].node + 1]++;
        }
        for (int k = 0; k < w->n_nodes; k++) {
            plan->first[k + 1] += plan->first[k];
            plan->next[k] = plan->first[k];
        }
        rc = by_job(plan, n_e);
        plan->packings = p.packings;
        plan->beats_held = p.cap_beats;
    }
    free(p.node);
    free(p.speed);
    free(p.free);
    free(p.from);
    free(p.cap);
    free(p.load);
    for (int b = 0; p.on && b < p.S; b++)
        free(p.on[b]);
    free(p.on);
    free(p.n_on);
    free(p.cap_on);
    free(p.heap);
    free(p.by_work);
    free(p.bin);
    free(p.rank);
    free(p.key);
    free(p.cls);
    free(p.cls_speed);
    free(p.over);
    free(p.phases);
    free(p.beats);
    free(p.u);
    free(e);
    if (rc)
        so_cl_map_plan_free(plan);
    return rc;
}
