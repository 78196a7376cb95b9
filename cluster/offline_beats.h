/*
 * offline_beats.h — lp-bound's heartbeat-phase terms (cluster/offline_beats.c,
 * docs/offline.md, "The nodes' beats").
 */
#ifndef SO_CL_OFFLINE_BEATS_H
#define SO_CL_OFFLINE_BEATS_H

/* The nodes' heartbeats in a run of a given seed (so_cl_heartbeat_phases):
 * node i beats at phase[i] + k x interval and has slots[i] slots of the
 * phase (nodes without any are left out). */
typedef struct so_cl_beats {
    int n;
    double interval;
    double *phase;
    double *slots;
} so_cl_beats;

/* Scratch for so_cl_beats_count_time: room for b->n nodes. */
typedef struct so_cl_beat_heap {
    double *key;
    int *node, *done;
    int size;
} so_cl_beat_heap;

int so_cl_beat_heap_init(so_cl_beat_heap *h, int nodes);
void so_cl_beat_heap_free(so_cl_beat_heap *h);

/* The earliest time `need` of n tasks (holds ascending, prefix sums
 * pre[0..n]), none launched before `from`, can all have ended: the need-th
 * smallest of b_i + pre[k] - slack over nodes i (slots[i] times each) and
 * k = 1..n, b_i node i's first beat at or after `from`. A slot that ends k
 * of them ran them one after the other from a beat of its node at or after
 * `from`, each holding it for at least its hold; their holds add up to at
 * least the k smallest, and the k-th ends at most `slack` before its hold.
 * need <= n. */
double so_cl_beats_count_time(const so_cl_beats *b, double from, const double *pre, int n,
                              int need, double slack, so_cl_beat_heap *h);

/* C[k - 1] <= the k-th smallest map-phase end (last map done) over m jobs
 * in every schedule: the smallest, over the submit times rho of the jobs,
 * of the count time from rho of the k jobs of fewest maps among those
 * submitted at or after rho (all their holds pooled): the k jobs whose maps
 * end first are submitted at or after the earliest of them. holds[i]: job
 * i's n[i] holds, ascending; rel[i] its submit; slack[i] the most a hold of
 * its outlasts its task. -INFINITY everywhere when the work would pass
 * `budget`: the pool as each job's holds merge into it, plus the pool
 * again at each submit time (jobs submitted together merge one by one).
 * Returns 0, or -1 when out of memory (C all -INFINITY). */
int so_cl_beats_positions(const so_cl_beats *b, int m, const double *const *holds, const int *n,
                          const double *rel, const double *slack, double budget, double *C);

#endif
