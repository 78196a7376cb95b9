/* pareto_execute.c — executing a Pareto plan on the cluster model.
 *
 * Zacheilas and Kalogeraki 2017, section 6.3 (Fig. 10, estimation error):
 * the model's job time (Eq. 5-9) beside the time the plan takes when run.
 * The plan is run as the paper's system deploys it: every job gets its
 * VMs (Eq. 1) and a fair-scheduler pool whose minimum and maximum are its
 * map and reduce slots (cluster/sched_fair.c enforces both), so a job
 * holds exactly its allocation ("shared under Fair with pool maxima").
 * Choices where the paper is silent:
 *   - task times: at the plan's task count n the profile gives tavg(n) and
 *     tmax(n); one task takes tmax and the n - 1 others share the rest of
 *     n tavg equally (deterministic; mean and longest as the profile says);
 *     a reduce task's copy phase is its shuffle time, sort 0;
 *   - reduces start when every map is done (slowstart 1: Eq. 7-9 add the
 *     phases), heartbeats 0.1 s and out-of-band, aligned at 0, no load
 *     padding: the model has no heartbeat delay;
 *   - unlimited VMs only (every job at time 0); waves are not executed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/pareto_execute.h"
#include "cluster/cluster.h"

static double *task_times(int n, double avg, double max)
{
    double *w = malloc((size_t)n * sizeof *w);
    if (!w)
        return NULL;
    double rest = n > 1 ? (n * avg - max) / (n - 1) : avg;
    if (rest <= 0 || max < avg) { /* inconsistent: all at the mean */
        rest = avg;
        max = avg;
    }
    for (int i = 0; i < n; i++)
        w[i] = i == 0 ? max : rest;
    if (n == 1)
        w[0] = max;
    return w;
}

static int build(const so_pareto *pr, const so_pt_alloc *plan, so_cl_workload **out)
{
    so_cl_workload *w = calloc(1, sizeof *w);
    if (!w)
        return SO_ENOMEM;
    int nodes = 0;
    for (size_t j = 0; j < pr->n_jobs; j++)
        nodes += (int)so_pt_vms(pr, plan[j].ms, plan[j].rs);
    snprintf(w->name, sizeof w->name, "pareto plan");
    w->n_nodes = nodes;
    w->heartbeat = 0.1;
    w->outofband = 1;
    w->aligned = 1;
    w->nodes = calloc((size_t)nodes, sizeof *w->nodes);
    w->n_pools = w->n_jobs = (int)pr->n_jobs;
    w->pools = calloc(pr->n_jobs, sizeof *w->pools);
    w->jobs = calloc(pr->n_jobs, sizeof *w->jobs);
    if (!w->nodes || !w->pools || !w->jobs) {
        so_cl_workload_free(w);
        return SO_ENOMEM;
    }
    for (int i = 0; i < nodes; i++) {
        w->nodes[i].slots[SO_CL_MAP] = (int)pr->map_slots_per_vm;
        w->nodes[i].slots[SO_CL_REDUCE] = (int)pr->reduce_slots_per_vm;
        w->nodes[i].speed = 1;
    }
    for (size_t j = 0; j < pr->n_jobs; j++) {
        const so_pt_job *jb = &pr->jobs[j];
        const so_pt_alloc *a = &plan[j];
        so_cl_pool_spec *pl = &w->pools[j];
        snprintf(pl->name, sizeof pl->name, "p%zu", j);
        pl->weight = 1;
        pl->min_share[SO_CL_MAP] = pl->max_share[SO_CL_MAP] = (int)a->ms;
        pl->min_share[SO_CL_REDUCE] = pl->max_share[SO_CL_REDUCE] = (int)a->rs;
        so_cl_job_spec *js = &w->jobs[j];
        snprintf(js->name, sizeof js->name, "%s", jb->name[0] ? jb->name : "job");
        snprintf(js->user, sizeof js->user, "u%zu", j);
        js->pool = (int)j;
        js->weight = 1;
        js->slowstart = 1;
        js->n_maps = (int)a->mt;
        js->n_reduces = (int)a->rt;
        double n = (double)a->mt, r = (double)a->rt;
        js->map_work = task_times(js->n_maps, so_pt_curve_at(jb->phase[SO_PT_MAP].avg, n),
                                  so_pt_curve_at(jb->phase[SO_PT_MAP].max, n));
        double *sh = task_times(js->n_reduces, so_pt_curve_at(jb->phase[SO_PT_SHUFFLE].avg, r),
                                so_pt_curve_at(jb->phase[SO_PT_SHUFFLE].max, r));
        double *rd = task_times(js->n_reduces, so_pt_curve_at(jb->phase[SO_PT_REDUCE].avg, r),
                                so_pt_curve_at(jb->phase[SO_PT_REDUCE].max, r));
        js->reduce_work = calloc((size_t)js->n_reduces, sizeof *js->reduce_work);
        if (!js->map_work || !sh || !rd || !js->reduce_work) {
            free(sh);
            free(rd);
            so_cl_workload_free(w);
            return SO_ENOMEM;
        }
        for (int i = 0; i < js->n_reduces; i++) {
            js->reduce_work[i].copy = sh[i];
            js->reduce_work[i].reduce = rd[i];
            if (!(sh[i] + rd[i] > 0))
                js->reduce_work[i].reduce = 1e-9; /* the engine needs work > 0 */
        }
        for (int i = 0; i < js->n_maps; i++)
            if (!(js->map_work[i] > 0))
                js->map_work[i] = 1e-9;
        free(sh);
        free(rd);
    }
    *out = w;
    return SO_OK;
}

int so_pt_execute(const so_pareto *pr, const so_pt_alloc *plan,
                  so_pt_exec_job *jobs, so_error *err)
{
    if (pr->max_vms > 0)
        return so_error_setf(err, NULL, 0, 0, "max_vms",
                             "executing plans in waves is not supported");
    if (!so_pt_plan_valid(pr, plan))
        return so_error_setf(err, NULL, 0, 0, "plan", "slots outside [1, tasks]");
    so_cl_workload *w = NULL;
    int rc = build(pr, plan, &w);
    if (rc)
        return rc;
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "padding", "0");
    so_cl_config cfg = {.scheduler = so_cl_scheduler_find("fair"), .params = &prm, .seed = 1};
    so_cl_sim *sim = NULL;
    rc = so_cl_sim_new(w, &cfg, &sim, err);
    if (!rc)
        rc = so_cl_sim_run(sim);
    for (size_t j = 0; !rc && j < pr->n_jobs; j++) {
        so_pt_eval e;
        so_pt_job_eval(pr, &pr->jobs[j], &plan[j], &e);
        const so_cl_job_result *jr = so_cl_sim_job(sim, (int)j);
        so_pt_exec_job *x = &jobs[j];
        x->predicted = e.jtime;
        x->simulated = jr->finish - jr->submit;
        x->up = e.up[0] + e.up[1] + e.up[2];
        x->low = 0;
        for (int ph = 0; ph < SO_PT_PHASES; ph++) {
            int64_t n = ph == SO_PT_MAP ? plan[j].mt : plan[j].rt;
            int64_t k = ph == SO_PT_MAP ? plan[j].ms : plan[j].rs;
            x->low += (double)n * so_pt_curve_at(pr->jobs[j].phase[ph].avg, (double)n) / (double)k;
        }
        x->predicted_budget = e.budget;
        x->simulated_budget = (double)e.vms * pr->vm_cost_per_hour *
                                  so_pt_billed_hours(pr, x->simulated) + e.io_cost;
    }
    so_cl_sim_free(sim);
    so_cl_workload_free(w);
    return rc;
}
