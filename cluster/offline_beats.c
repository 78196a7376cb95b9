/*
 * offline_beats.c — lp-bound's heartbeat-phase terms (docs/offline.md, "The
 * nodes' beats").
 *
 * Without out-of-band heartbeats every launch happens at a beat of the
 * task's node, and node i beats at phase_i + k x interval, the phases drawn
 * from the run's seed (so_cl_heartbeat_phases); a task whose rate cannot
 * change (Amdahl fraction 0) holds its slot from its launch to the first
 * beat at or after its end, at least its hold (cluster/offline_bound.c).
 * So of n tasks none of which launches before `from`, a slot of node i has
 * ended at most k by time t when b_i + (the k smallest holds) - slack > t,
 * b_i its node's first beat at or after `from`: the earliest time `need`
 * of them can have ended is the need-th smallest of b_i + H_k - slack over
 * the slots and k (so_cl_beats_count_time). Where the fluid level spreads
 * a job's last maps over every slot, this keeps them whole and on their
 * nodes' beats: equal maps of 60 s on 156 slots of 26 phases end in waves
 * at phase_i + 60 k, and a job's last wave on the slots of the earliest
 * phases.
 *
 * Several jobs (so_cl_beats_positions): the k jobs whose maps end first in
 * a schedule are submitted at or after the earliest of them, rho, and hold
 * at least as many maps as the k of fewest maps submitted at or after rho;
 * pooling all those jobs' holds (the smallest count first) the count time
 * from rho bounds the k-th smallest map-phase end. The smallest over rho.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/offline_beats.h"

int so_cl_beat_heap_init(so_cl_beat_heap *h, int nodes)
{
    size_t n = nodes > 0 ? (size_t)nodes : 1;
    h->key = malloc(n * sizeof *h->key);
    h->node = malloc(n * sizeof *h->node);
    h->done = malloc(n * sizeof *h->done);
    h->size = 0;
    if (h->key && h->node && h->done)
        return 0;
    so_cl_beat_heap_free(h);
    return -1;
}

void so_cl_beat_heap_free(so_cl_beat_heap *h)
{
    free(h->key);
    free(h->node);
    free(h->done);
    h->key = NULL;
    h->node = NULL;
    h->done = NULL;
}

static double first_beat(const so_cl_beats *b, int i, double t)
{
    double k = ceil((t - b->phase[i]) / b->interval - 1e-9);
    return b->phase[i] + (k > 0 ? k : 0) * b->interval;
}

/* heap of nodes by key; done[i]: the tasks node i's slots have ended */
static void sift_down(so_cl_beat_heap *h, int at)
{
    for (;;) {
        int l = 2 * at + 1, r = l + 1, m = at;
        if (l < h->size && h->key[l] < h->key[m])
            m = l;
        if (r < h->size && h->key[r] < h->key[m])
            m = r;
        if (m == at)
            return;
        double k = h->key[at];
        int n = h->node[at];
        h->key[at] = h->key[m];
        h->node[at] = h->node[m];
        h->key[m] = k;
        h->node[m] = n;
        at = m;
    }
}

/* out[q] = the count time of need[q] (ascending, each <= n), q < k */
static void count_times(const so_cl_beats *b, double from, const double *pre, int n,
                        const int *need, int k, double slack, so_cl_beat_heap *h,
                        double *out)
{
    h->size = 0;
    for (int i = 0; i < b->n; i++) {
        h->done[i] = 0;
        h->key[h->size] = first_beat(b, i, from) + pre[1];
        h->node[h->size++] = i;
    }
    for (int at = h->size / 2 - 1; at >= 0; at--)
        sift_down(h, at);
    double ended = 0;
    int q = 0;
    while (q < k && h->size > 0) {
        double t = h->key[0];
        int i = h->node[0];
        ended += b->slots[i];
        while (q < k && ended >= need[q])
            out[q++] = t - slack;
        if (++h->done[i] < n) {
            h->key[0] = first_beat(b, i, from) + pre[h->done[i] + 1];
        } else {
            h->key[0] = h->key[--h->size];
            h->node[0] = h->node[h->size];
        }
        sift_down(h, 0);
    }
    for (; q < k; q++) /* no slots: never */
        out[q] = INFINITY;
}

double so_cl_beats_count_time(const so_cl_beats *b, double from, const double *pre, int n,
                              int need, double slack, so_cl_beat_heap *h)
{
    if (need <= 0 || n <= 0)
        return -INFINITY;
    double t;
    count_times(b, from, pre, n, &need, 1, slack, h, &t);
    return t;
}

static int by_release_desc(const void *a, const void *b, void *rel)
{
    double x = ((const double *)rel)[*(const int *)a], y = ((const double *)rel)[*(const int *)b];
    return x > y ? -1 : x < y;
}

int so_cl_beats_positions(const so_cl_beats *b, int m, const double *const *holds, const int *n,
                          const double *rel, const double *slack, double budget, double *C)
{
    for (int k = 0; k < m; k++)
        C[k] = -INFINITY;
    if (m <= 0 || b->n <= 0)
        return 0;
    int *order = malloc((size_t)m * sizeof *order);
    if (!order)
        return -1;
    for (int i = 0; i < m; i++)
        order[i] = i;
    qsort_r(order, (size_t)m, sizeof *order, by_release_desc, (void *)rel);
    /* the work below: each job's holds merged into the pool and its count
     * inserted (the pool and the counts so far), and a count over the pool
     * at each release time */
    double cost = 0, pooled = 0;
    for (int i = 0; i < m; i++) {
        pooled += n[order[i]];
        cost += pooled + i;
        if (i + 1 == m || rel[order[i + 1]] != rel[order[i]])
            cost += pooled;
    }
    if (cost > budget) {
        free(order);
        return 0;
    }
    size_t total = (size_t)pooled;
    double *all = malloc((total + 1) * sizeof *all), *tmp = malloc((total + 1) * sizeof *tmp);
    double *pre = malloc((total + 1) * sizeof *pre), *T = malloc((size_t)m * sizeof *T);
    int *counts = malloc((size_t)m * sizeof *counts), *need = malloc((size_t)m * sizeof *need);
    so_cl_beat_heap h = {0};
    int rc = all && tmp && pre && T && counts && need && !so_cl_beat_heap_init(&h, b->n) ? 0 : -1;
    int size = 0, jobs = 0;
    double smax = 0;
    for (int i = 0; !rc && i < m; i++) {
        int j = order[i];
        /* pool job j's holds (ascending) into all[0..size) */
        int a = 0, c = 0, o = 0;
        while (a < size || c < n[j])
            tmp[o++] = c >= n[j] || (a < size && all[a] <= holds[j][c]) ? all[a++] : holds[j][c++];
        double *swap = all;
        all = tmp;
        tmp = swap;
        size = o;
        int at = jobs++; /* insert n[j] into the ascending counts */
        while (at > 0 && counts[at - 1] > n[j]) {
            counts[at] = counts[at - 1];
            at--;
        }
        counts[at] = n[j];
        smax = fmax(smax, slack[j]);
        if (i + 1 < m && rel[order[i + 1]] == rel[j])
            continue;
        pre[0] = 0;
        for (int k = 0; k < size; k++)
            pre[k + 1] = pre[k] + all[k];
        for (int k = 0, sum = 0; k < jobs; k++)
            need[k] = sum += counts[k];
        count_times(b, rel[j], pre, size, need, jobs, smax, &h, T);
        for (int k = 0; k < jobs; k++)
            C[k] = C[k] == -INFINITY ? T[k] : fmin(C[k], T[k]);
    }
    if (rc)
        for (int k = 0; k < m; k++)
            C[k] = -INFINITY;
    so_cl_beat_heap_free(&h);
    free(order);
    free(all);
    free(tmp);
    free(pre);
    free(T);
    free(counts);
    free(need);
    return rc;
}
