/*
 * fair_share.c — Hadoop fair scheduler (Zaharia et al.; hfs as described in
 * Wolf et al., "FLEX: A Slot Allocation Scheduling Optimizer for MapReduce
 * Workloads", Middleware 2010, sec. 1):
 *   allocation layer — minimum shares first (normalised if they exceed the
 *   slots, as FLEX sec. 1 says), the slack by the "waterline": every entity
 *   gets max(min share, r * weight) capped at its demand, with one water
 *   level r for all (Hadoop's SchedulingAlgorithms.computeFairShares; solved
 *   here exactly by a sweep over the breakpoints instead of bisection);
 *   assignment layer — "the current slot assignment numbers for jobs are
 *   subtracted from the job allocation goals", and each free slot goes to
 *   the most underallocated job that has a task to run (FLEX sec. 1): kept
 *   incrementally in deficit_index.c.
 * Choice: the deficit is absolute (goal - running), ties in job order.
 * The waterline here sorts its breakpoints on every call (for the pools,
 * the WPBS users, and for allocation layers that solve once per epoch); the
 * fair scheduler and WPBS keep their jobs' level between epochs
 * (level_tree.c) and their deficit order in heaps (deficit_index.c); all
 * with the same shares and the same order.
 */
#include <stdlib.h>
#include "cluster/fair_share.h"

#define SMALL_WATERLINE 16

typedef struct breakpoint {
    double r;
    int enter; /* 1: r * w starts to count (leaves the minimum) */
    int i;
} breakpoint;

static int by_r(const void *a, const void *b)
{
    const breakpoint *x = a, *y = b;
    if (x->r != y->r)
        return x->r < y->r ? -1 : 1;
    if (x->enter != y->enter)
        return y->enter - x->enter;
    return x->i - y->i;
}

/* The waterline's first step: share_i = m_i', *sum_min their sum and *total
 * = min(slots, sum d_i); when the minima fill the total they are scaled to
 * it and 1 is returned (the shares are final), else 0 (the level r is
 * still to find). */
static int waterline_minima(int n, const double *min_share,
                            const double *demand, double slots, double *share,
                            double *sum_min, double *total)
{
    double sum_demand = 0;
    *sum_min = 0;
    for (int i = 0; i < n; i++) {
        share[i] = min_share[i] < demand[i] ? min_share[i] : demand[i];
        *sum_min += share[i];
        sum_demand += demand[i];
    }
    *total = slots < sum_demand ? slots : sum_demand;
    if (*sum_min < *total)
        return 0;
    for (int i = 0; i < n && *sum_min > 0; i++)
        share[i] *= *total / *sum_min;
    return 1;
}

void so_cl_waterline(int n, const double *weight, const double *min_share,
                     const double *demand, double slots, double *share)
{
    double sum_min, total;
    if (waterline_minima(n, min_share, demand, slots, share, &sum_min, &total))
        return;
    /* a few entities (the pools, every epoch): on the stack, insertion
     * sorted; the order is the same total order either way */
    breakpoint small[2 * SMALL_WATERLINE];
    breakpoint *bp = n <= SMALL_WATERLINE ? small
                                          : malloc((size_t)(2 * n) * sizeof *bp);
    if (!bp) { /* keep the minima: still a valid (if unfair) allocation */
        return;
    }
    for (int i = 0; i < n; i++) {
        bp[2 * i] = (breakpoint){share[i] / weight[i], 1, i};
        bp[2 * i + 1] = (breakpoint){demand[i] / weight[i], 0, i};
    }
    if (n <= SMALL_WATERLINE) {
        for (int a = 1; a < 2 * n; a++) {
            breakpoint x = bp[a];
            int b = a;
            for (; b > 0 && by_r(&bp[b - 1], &x) > 0; b--)
                bp[b] = bp[b - 1];
            bp[b] = x;
        }
    } else {
        qsort(bp, (size_t)(2 * n), sizeof *bp, by_r);
    }
    /* f(r) = c + slope * r between breakpoints */
    double c = sum_min, slope = 0, level = 0;
    for (int k = 0; k < 2 * n; k++) {
        double f_here = c + slope * bp[k].r;
        if (f_here >= total) {
            level = slope > 0 ? (total - c) / slope : bp[k].r;
            break;
        }
        int i = bp[k].i;
        if (bp[k].enter) {
            c -= share[i];
            slope += weight[i];
        } else {
            c += demand[i];
            slope -= weight[i];
        }
        level = bp[k].r;
    }
    if (bp != small)
        free(bp);
    for (int i = 0; i < n; i++) {
        double s = level * weight[i];
        if (s < share[i])
            s = share[i];
        share[i] = s < demand[i] ? s : demand[i];
    }
}

double so_cl_pool_cap(const so_cl_workload *w, int pool, int phase,
                      double value)
{
    int max = w->pools[pool].max_share[phase];
    return max >= 0 && max < value ? max : value;
}

int so_cl_demand(const so_cl_jobrt *job, int phase)
{
    return so_cl_pending(job, phase) + job->running_tasks[phase];
}

int so_cl_try_launch(void *ctx, so_cl_sim *sim, int job, int node, int phase)
{
    (void)ctx;
    return so_cl_launch(sim, job, node, phase);
}
