/* spec_common.c — eligibility of an attempt for a speculative copy and the
 * quantile used by LATE's thresholds (see speculation.h). */
#include <stdlib.h>
#include "cluster/speculation.h"

int so_cl_spec_candidate(const so_cl_sim *sim, const so_cl_attempt *a, int node)
{
    return a->state == SO_CL_RUNNING && !a->speculative && a->node != node &&
           sim->tasks[a->task].n_running == 1 &&
           sim->now - a->start >= SO_CL_SPECULATIVE_LAG;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double so_cl_quantile(double *x, int n, double q)
{
    if (n <= 0)
        return 0;
    qsort(x, (size_t)n, sizeof *x, by_value);
    double pos = q * (n - 1);
    int lo = (int)pos;
    if (lo >= n - 1)
        return x[n - 1];
    return x[lo] + (pos - lo) * (x[lo + 1] - x[lo]);
}
