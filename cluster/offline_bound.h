/*
 * offline_bound.h — lower bounds on the response times of every schedule the
 * cluster model can produce for a workload (`lp-bound`, docs/offline.md).
 *
 * Time in seconds; jobs in the workload's order (index 0-based).
 */
#ifndef SO_CL_OFFLINE_BOUND_H
#define SO_CL_OFFLINE_BOUND_H

#include "cluster/cluster.h"

typedef struct so_cl_offline_bound {
    int n_jobs;
    /* per job: a lower bound on its response time (finish - submit) under
     * every schedule; its order statistics bound p95 and max response */
    double *job;
    double sum_job;    /* sum of job[] */
    /* lower bounds on the sum of responses: from the map and from the
     * reduce aggregate machine (SRPT order statistics combined with job[]) */
    double sum_map, sum_reduce;
    /* a lower bound on the sum from the mean busy times on the aggregate
     * machines (SPT's, the least over every schedule) plus each phase's
     * late-window term (offline_bound.c, late_span()) */
    double sum_busy;
    double sum;        /* the best: max(sum_job, sum_map, sum_reduce, sum_busy) */
    double makespan;   /* last finish - first submit */
    /* a lower bound on the weighted sum of responses sum_j w_j (C_j - r_j),
     * w_j the job's weight: the largest of sum_j w_j LB_j, the smallest
     * weight x sum, and the WSPT mean-busy-time bound of each aggregate
     * machine (offline_srpt.c) */
    double weighted_sum;
    /* completion-time goals (jobs with goal > 0): how many, how many miss
     * theirs in every schedule (LB_j > goal + 1e-6, the harness's rule
     * for "met"), and a bound on the total tardiness sum max(0, resp - goal) */
    int goals, goals_missed;
    double tardiness;
    /* 1 when the capacity terms are used (no workload resources: RAS's job
     * slots can exceed the slot counts, so they are dropped then) */
    int capacity;
    /* > 0: the heartbeat interval whose grid rounds the slot-seconds a task
     * holds (no out-of-band heartbeats); 0: not used */
    double grid;
    /* jobs whose bound the slot waves raised (a phase's n tasks on S
     * slots: one slot runs q + 1 of the q S + 1 longest in a row;
     * docs/offline.md) */
    int waves;
    /* positions of the map machine's sum the prefix waves raised (the k
     * jobs whose maps end first: one slot runs q + 1 of their q S + 1
     * longest maps; cluster/offline_waves.c) */
    int prefix_waves;
    /* jobs whose bound the nodes' beats raised, and positions of the map
     * machine's sum where they are above the prefix waves (a run's
     * heartbeat phases, from its seed: cluster/offline_beats.c) */
    int beats, beat_positions;
} so_cl_offline_bound;

/* Computes the bounds on the runs of the given seed (its heartbeat
 * phases); O(J log J + tasks x log nodes), plus the position terms within
 * a budget. Returns SO_OK or SO_ENOMEM. */
int so_cl_offline_bound_compute(const so_cl_workload *w, uint64_t seed,
                                so_cl_offline_bound *out);
void so_cl_offline_bound_free(so_cl_offline_bound *b);

/* The most an attempt can run faster than its profile on the workload's
 * contention model: max(1, profile_headroom) under "physical", else 1
 * (docs/offline.md, "What the bound assumes"). */
double so_cl_offline_speedup(const so_cl_workload *w);

/* SRPT on one machine of speed 1 with release dates (preemptive; ties by
 * index): completion times of n jobs of processing time p and release r
 * into c. Exposed for tests. Returns SO_OK or SO_ENOMEM. */
int so_cl_srpt(int n, const double *r, const double *p, double *c);

/* Preemptive WSPT on one machine of speed 1 with release dates (largest
 * w / p first, ties by index): each job's mean busy time into mb, which
 * minimises sum w mb over every preemptive schedule (Goemans 1997). Exposed
 * for tests. Returns SO_OK or SO_ENOMEM. */
int so_cl_wspt_busy(int n, const double *r, const double *p, const double *w, double *mb);

/* (key, index) pairs ordered by key, then index: qsort comparator. */
typedef struct so_cl_keyed {
    double key;
    int index;
} so_cl_keyed;
int so_cl_keyed_cmp(const void *a, const void *b);

#endif
