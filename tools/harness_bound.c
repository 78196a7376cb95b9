/* harness_bound.c — the reference bounds of simulation cells by name, and
 * lp-bound's cell (cluster/offline_bound.c): per-job bounds as the cell's
 * responses (their p95 and max bound a run's), the bound on the sum of
 * responses as its mean, and the parts of that bound as extras. */
#include <string.h>
#include "cluster/offline_bound.h"
#include "tools/harness.h"
#include "tools/harness_bound.h"

int so_harness_bound_kind(const char *spec)
{
    if (!strcmp(spec, SO_HARNESS_LOWER_BOUND))
        return SO_HBOUND_ANALYTIC;
    if (!strcmp(spec, SO_HARNESS_LP_BOUND))
        return SO_HBOUND_LP;
    return SO_HBOUND_NONE;
}

int so_harness_lp_bound(const so_cl_workload *w, double *resp, double *sum,
                        double *makespan, json_t *extras)
{
    so_cl_offline_bound b;
    int rc = so_cl_offline_bound_compute(w, &b);
    if (rc)
        return rc;
    memcpy(resp, b.job, (size_t)w->n_jobs * sizeof *resp);
    *sum = b.sum;
    *makespan = b.makespan;
    json_object_set_new(extras, "bound",
                        json_pack("{s:f,s:f,s:f,s:b}", "sum_job", b.sum_job, "sum_map",
                                  b.sum_map, "sum_reduce", b.sum_reduce, "capacity",
                                  b.capacity));
    so_cl_offline_bound_free(&b);
    return SO_OK;
}
