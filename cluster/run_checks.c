/*
 * run_checks.c — options that cannot act on a workload (issue 32: no option
 * silently does nothing). Decided per case (docs/cluster.md, "Options that
 * cannot act"):
 *   - locality_delay > 0 without a locality model (replicas 0): an error.
 *     Delay scheduling waits for a node-local map, and without replicas
 *     every map is local, so the option could never act; it is always a
 *     mistake in the command, never a property of a sweep's workload.
 *   - --stealing POLICY (not none) when no job has a parallel fraction
 *     (map_parallel and reduce_parallel 0 for every job, the SWIM default):
 *     a warning. Stolen threads then speed no task and the run is native
 *     Hadoop's; a sweep over workloads may legitimately include such a
 *     workload, so the run goes on, and the report says so.
 *   - preemption (min_share_timeout or fair_share_timeout > 0) when every
 *     job is in one pool (all SWIM jobs): a warning. Preemption moves slots
 *     between pools only (Hadoop's fair scheduler), so it cannot act.
 *   - a parameter of the physical contention model (cpu_cores, ...,
 *     swap_penalty, profile_headroom; cluster/physics.c) when the workload
 *     names no resources or the run's model (the workload's, or --opt
 *     contention) is not "physical": a warning. Only that model reads them,
 *     so the run is the same with or without them.
 * Warnings go to cfg->warnings; `slotopt sim` prints them on standard
 * error and the report lists them under "warnings".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/cluster.h"
#include "cluster/physics.h"

static void warn(so_cl_config *cfg, const char *fmt, ...)
{
    if (cfg->n_warnings >= SO_CL_MAX_WARNINGS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cfg->warnings[cfg->n_warnings++], sizeof cfg->warnings[0], fmt,
              ap);
    va_end(ap);
}

/* The option's value as a number, 0 when absent or not a number (the
 * policy reading it reports a malformed value itself). */
static double opt_value(const so_params *prm, const char *key)
{
    const char *v = prm ? so_params_get(prm, key) : NULL;
    if (!v)
        return 0;
    char *end;
    double x = strtod(v, &end);
    return end != v ? x : 0;
}

static int pools_used(const so_cl_workload *w)
{
    int first = -1;
    for (int j = 0; j < w->n_jobs; j++) {
        if (first < 0)
            first = w->jobs[j].pool;
        else if (w->jobs[j].pool != first)
            return 2;
    }
    return first < 0 ? 0 : 1;
}

int so_cl_check_config(const so_cl_workload *w, so_cl_config *cfg,
                       so_error *err)
{
    cfg->n_warnings = 0;
    const so_params *prm = cfg->params;
    if (opt_value(prm, "locality_delay") > 0 && w->replicas == 0)
        return so_error_setf(err, NULL, 0, 0, "locality_delay",
                             "delay scheduling waits for node-local maps, but"
                             " the workload has no locality model (every map"
                             " is local): set cluster.replicas (JSON) or --opt"
                             " replicas=3 (SWIM), or drop locality_delay");
    if (cfg->stealing && *cfg->stealing && strcmp(cfg->stealing, "none")) {
        int any = 0;
        for (int j = 0; j < w->n_jobs && !any; j++)
            any = w->jobs[j].parallel[0] > 0 || w->jobs[j].parallel[1] > 0;
        if (!any)
            warn(cfg, "--stealing %s: no job has a parallel fraction"
                      " (map_parallel and reduce_parallel are 0), so stolen"
                      " slots speed no task and this run is native Hadoop's;"
                      " give one (workload keys map_parallel /"
                      " reduce_parallel; for a trace --opt"
                      " parallel_model=io-bound|compute-bound, per job from"
                      " its bytes, or --opt map_parallel=F)",
                 cfg->stealing);
    }
    double mst = opt_value(prm, "min_share_timeout");
    double fst = opt_value(prm, "fair_share_timeout");
    if ((mst > 0 || fst > 0) && pools_used(w) == 1)
        warn(cfg, "%s: every job is in one pool ('%s'), and preemption only"
                  " moves slots between pools, so it cannot act",
             mst > 0 ? "min_share_timeout" : "fair_share_timeout",
             w->jobs[0].pool < w->n_pools ? w->pools[w->jobs[0].pool].name
                                           : "default");
    const char *model = prm ? so_params_get(prm, "contention") : NULL;
    int physical = w->n_resources > 0 &&
                   (model ? !strcmp(model, "physical")
                          : w->contention == SO_CL_CONTENTION_PHYSICAL);
    for (int k = 0; !physical && so_cl_physics_params[k]; k++)
        if (prm && so_params_get(prm, so_cl_physics_params[k]))
            warn(cfg, "%s: only the physical contention model reads it, and %s,"
                      " so it changes nothing in this run",
                 so_cl_physics_params[k],
                 w->n_resources == 0 ? "the workload names no resources"
                                     : "this run's model is not physical"
                                       " (contention)");
    return SO_OK;
}
