/* harness_bound.c — the reference bounds of simulation cells by name, and
 * lp-bound's cell (cluster/offline_bound.c): per-job bounds as the cell's
 * responses (their p95 and max bound a run's), the bound on the sum of
 * responses as its mean, and as extras the parts of that bound, the bound
 * on the weighted sum and, when jobs have goals, the most that can meet
 * theirs and the least total tardiness. */
#include <string.h>
#include "cluster/offline_bound.h"
#include "cluster/offline_opt.h"
#include "tools/harness/harness.h"
#include "tools/harness/harness_bound.h"

int so_harness_bound_kind(const char *spec)
{
    if (!strcmp(spec, SO_HARNESS_LOWER_BOUND))
        return SO_HBOUND_ANALYTIC;
    if (!strcmp(spec, SO_HARNESS_LP_BOUND))
        return SO_HBOUND_LP;
    if (!strcmp(spec, SO_HARNESS_OFFLINE_OPT))
        return SO_HBOUND_OPT;
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
    json_t *parts = json_pack("{s:f,s:f,s:f,s:b,s:f}", "sum_job", b.sum_job, "sum_map",
                              b.sum_map, "sum_reduce", b.sum_reduce, "capacity", b.capacity,
                              "weighted_sum", b.weighted_sum);
    if (parts && b.goals)
        json_object_set_new(parts, "goals",
                            json_pack("{s:i,s:i,s:f}", "jobs", b.goals, "met_at_most",
                                      b.goals - b.goals_missed, "tardiness", b.tardiness));
    json_object_set_new(extras, "bound", parts);
    so_cl_offline_bound_free(&b);
    return SO_OK;
}

int so_harness_offline_opt(const so_cl_workload *w, uint64_t seed, double time_limit,
                           double *resp, const char **status, json_t *extras, so_error *err)
{
    so_cl_offline_opt o;
    int rc = so_cl_offline_opt_solve(w, seed, time_limit > 0 ? 0.8 * time_limit : 0, &o, err);
    if (rc)
        return rc;
    memcpy(resp, o.responses, (size_t)w->n_jobs * sizeof *resp);
    *status = o.proved ? "optimal" : "simulated";
    char order[256], replay[512];
    so_cl_offline_order_text(o.order, o.n_jobs, order, sizeof order);
    snprintf(replay, sizeof replay,
             "slotopt sim WORKLOAD --scheduler priority --opt order=%s --opt delay_reduces=%d"
             " --opt tasks=%s --opt padding=0 --seed %llu", order, o.delay_reduces,
             o.longest ? "longest" : "index", (unsigned long long)seed);
    int n = w->n_jobs > 0 ? w->n_jobs : 1;
    json_object_set_new(extras, "offline",
                        json_pack("{s:f,s:f,s:f,s:b,s:b,s:b,s:s,s:i,s:s,s:I,s:s}", "sum", o.sum,
                                  "bound_sum", o.bound, "bound_mean", o.bound / n, "proved",
                                  o.proved, "exhaustive", o.exhaustive, "timed_out",
                                  o.timed_out, "order", order, "delay_reduces",
                                  o.delay_reduces, "tasks", o.longest ? "longest" : "index",
                                  "evaluations", (json_int_t)o.evaluations, "replay", replay));
    so_cl_offline_opt_free(&o);
    return SO_OK;
}
