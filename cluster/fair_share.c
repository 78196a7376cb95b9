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
 *   the most underallocated job that has a task to run (FLEX sec. 1).
 * Choice: the deficit is absolute (goal - running), ties in job order.
 */
#include <stdlib.h>
#include "cluster/fair_share.h"

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

void so_cl_waterline(int n, const double *weight, const double *min_share,
                     const double *demand, double slots, double *share)
{
    double sum_min = 0, sum_demand = 0;
    for (int i = 0; i < n; i++) {
        share[i] = min_share[i] < demand[i] ? min_share[i] : demand[i];
        sum_min += share[i];
        sum_demand += demand[i];
    }
    double total = slots < sum_demand ? slots : sum_demand;
    if (sum_min >= total) {
        for (int i = 0; i < n && sum_min > 0; i++)
            share[i] *= total / sum_min;
        return;
    }
    breakpoint *bp = malloc((size_t)(2 * n) * sizeof *bp);
    if (!bp) { /* keep the minima: still a valid (if unfair) allocation */
        return;
    }
    for (int i = 0; i < n; i++) {
        bp[2 * i] = (breakpoint){share[i] / weight[i], 1, i};
        bp[2 * i + 1] = (breakpoint){demand[i] / weight[i], 0, i};
    }
    qsort(bp, (size_t)(2 * n), sizeof *bp, by_r);
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

/* Whether the job's pool runs its maximum of the phase (max_maps /
 * max_reduces of fair-scheduler.xml). */
static int pool_full(const so_cl_sim *sim, int j, int phase)
{
    int pool = sim->jobs[j].spec->pool;
    int max = sim->w->pools[pool].max_share[phase];
    return max >= 0 && sim->pool_running[phase][pool] >= max;
}

int so_cl_assign_by_deficit_with(so_cl_sim *sim, int node, int phase,
                                 int *scratch, so_cl_try_fn try_job, void *ctx)
{
    int n = 0;
    for (int j = sim->head[phase]; j >= 0; j = sim->jobs[j].next[phase])
        if (!pool_full(sim, j, phase))
            scratch[n++] = j;
    while (n > 0) {
        int best = 0;
        double best_gap = -1e300;
        for (int k = 0; k < n; k++) {
            const so_cl_jobrt *job = &sim->jobs[scratch[k]];
            double gap = job->target[phase] - job->n_running[phase];
            if (gap > best_gap || (gap == best_gap && scratch[k] < scratch[best])) {
                best_gap = gap;
                best = k;
            }
        }
        if (try_job(ctx, sim, scratch[best], node, phase))
            return 1;
        scratch[best] = scratch[--n];
    }
    return 0;
}

static int plain_launch(void *ctx, so_cl_sim *sim, int job, int node, int phase)
{
    (void)ctx;
    return so_cl_launch(sim, job, node, phase);
}

int so_cl_assign_by_deficit(so_cl_sim *sim, int node, int phase, int *scratch)
{
    return so_cl_assign_by_deficit_with(sim, node, phase, scratch, plain_launch,
                                        NULL);
}
