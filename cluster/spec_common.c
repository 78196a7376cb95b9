/* spec_common.c — eligibility of an attempt for a speculative copy (and
 * whether a job has one, or may get one: so_cl_may_copy, cluster.h) and the
 * quantile used by LATE's thresholds (see speculation.h). */
#include <math.h>
#include <stdlib.h>
#include "cluster/speculation.h"

int so_cl_spec_candidate(const so_cl_sim *sim, const so_cl_attempt *a, int node)
{
    return a->state == SO_CL_RUNNING && !a->speculative && a->node != node &&
           sim->tasks[a->task].n_running == 1 &&
           sim->now - a->start >= SO_CL_SPECULATIVE_LAG;
}

int so_cl_may_copy(const so_cl_sim *sim, int j, int phase)
{
    const so_cl_speculation *sp = sim->cfg.speculation;
    return sp && (!sp->may_copy || sp->may_copy(sim, j, phase));
}

int so_cl_spec_any_candidate(const so_cl_sim *sim, int j, int phase, int node)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    if (job->oldest[phase] >= job->n_launched[phase])
        return 0;
    /* now - start is monotone in start in floating point: if the oldest
     * has not run the lag, no running attempt has */
    int oldest = job->launched[phase][job->oldest[phase]];
    if (!(sim->now - sim->attempts[oldest].start >= SO_CL_SPECULATIVE_LAG))
        return 0;
    for (int k = 0; k < job->n_running[phase]; k++)
        if (so_cl_spec_candidate(sim, &sim->attempts[job->running[phase][k]],
                                 node))
            return 1;
    return 0;
}

double so_cl_time_left(const so_cl_sim *sim, const so_cl_attempt *a,
                       double rate)
{
    return rate > 0 ? (1 - rate * (sim->now - a->start)) / rate : INFINITY;
}

double *so_cl_spec_buf_get(so_cl_spec_buf *b, size_t n)
{
    b->heap = NULL;
    if (n <= SO_CL_SPEC_LOCAL)
        return b->local;
    b->heap = malloc(n * sizeof *b->heap);
    return b->heap;
}

void so_cl_spec_buf_done(so_cl_spec_buf *b)
{
    free(b->heap);
    b->heap = NULL;
}

/* Rearranges x so that x[k] is the (k+1)-th smallest, smaller values before
 * it and larger after (Hoare's selection, median-of-three pivot). */
static void select_kth(double *x, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        double a = x[lo], b = x[mid], c = x[hi];
        double pivot = a < b ? (b < c ? b : (a < c ? c : a))
                             : (a < c ? a : (b < c ? c : b));
        int i = lo, j = hi;
        while (i <= j) {
            while (x[i] < pivot)
                i++;
            while (x[j] > pivot)
                j--;
            if (i <= j) {
                double t = x[i];
                x[i] = x[j];
                x[j] = t;
                i++;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return;
    }
}

double so_cl_quantile(double *x, int n, double q)
{
    if (n <= 0)
        return 0;
    double pos = q * (n - 1);
    int lo = (int)pos;
    if (lo >= n - 1) {
        select_kth(x, n, n - 1);
        return x[n - 1];
    }
    select_kth(x, n, lo);
    double next = x[lo + 1];
    for (int i = lo + 2; i < n; i++)
        if (x[i] < next)
            next = x[i];
    return x[lo] + (pos - lo) * (next - x[lo]);
}
