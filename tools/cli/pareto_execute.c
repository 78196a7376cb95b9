/* pareto_execute.c — executing a Pareto plan on the cluster model.
 *
 * Zacheilas and Kalogeraki 2017, section 6.3 (Fig. 10, estimation error):
 * the model's job time (Eq. 5-9) beside the time the plan takes when run,
 * and section 4.2.1 (execution waves under a VM cap, Eq. 10).
 * Two deployments of a plan (so_pt_exec_opts.dedicated):
 *   - shared (default): the jobs' VMs form one cluster under the fair
 *     scheduler, every job a pool whose minimum and maximum are its map and
 *     reduce slots (cluster/sched_fair.c enforces both), so a job holds
 *     exactly its allocation ("shared under Fair with pool maxima");
 *   - dedicated: every job runs alone on its own VMs (Eq. 1), which carry
 *     exactly the plan's slots (msPerVM per VM, the last VM the rest; the
 *     same for reduce slots).
 * Choices where the paper is silent:
 *   - task times at the plan's task count n, from tavg(n) and tmax(n): one
 *     task takes tmax; deterministic (default): the n - 1 others share the
 *     rest of n tavg equally (mean and longest exactly as the profile
 *     says); random (seeded, job j on stream j): the longest task's index
 *     is drawn and the others are uniform on rest +- min(rest, tmax - rest),
 *     so their mean is the profile's in expectation and none exceeds tmax.
 *     One task alone takes tmax. A reduce task's copy phase is its shuffle
 *     time, sort 0;
 *   - reduces start when every map is done (slowstart 1: Eq. 7-9 add the
 *     phases), heartbeats 0.1 s and out-of-band, aligned at 0, no load
 *     padding: the model has no heartbeat delay;
 *   - waves (max_vms > 0): the model sums the waves' longest times; the
 *     execution is the paper's "jobs wait for VMs": jobs are taken in
 *     Eq. 10's order (predicted time ascending, ties by index), a job
 *     starts as soon as its VMs fit beside the running jobs' and all jobs
 *     before it have started (no overtaking), and releases its VMs when it
 *     finishes. Shared: the cluster has max_vms VMs; the started jobs are
 *     re-simulated (a later submission cannot change earlier events) to
 *     learn when VMs free up. Dedicated: the jobs do not interact, so each
 *     is simulated once and the waits are computed from those times. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli/pareto_execute.h"
#include "cluster/cluster.h"

typedef struct job_tasks {
    int nm, nr;
    double *map;
    so_cl_reduce_work *red;
} job_tasks;

typedef struct exec_ctx {
    const so_pareto *pr;
    const so_pt_alloc *plan;
    int dedicated;
    job_tasks *t;
    int64_t *vms;
    double *dur; /* dedicated: each job's simulated time alone */
} exec_ctx;

/* n task times of mean avg and longest max (see the choices above). */
static void split(double *w, int n, double avg, double max, so_rng *rng)
{
    double rest = n > 1 ? (n * avg - max) / (n - 1) : avg;
    if (rest <= 0 || max < avg) { /* inconsistent: all at the mean */
        rest = avg;
        max = avg;
    }
    int longest = rng && n > 1 ? (int)so_rng_int(rng, 0, n - 1) : 0;
    double h = fmin(rest, max - rest);
    for (int i = 0; i < n; i++) {
        w[i] = i == longest ? max : rng ? rest + h * (2 * so_rng_uniform(rng) - 1) : rest;
        if (!(w[i] > 0))
            w[i] = 1e-9; /* the engine needs work > 0 */
    }
}

static int draw_tasks(const so_pareto *pr, const so_pt_alloc *a, size_t j,
                      const so_pt_exec_opts *o, job_tasks *t)
{
    const so_pt_job *jb = &pr->jobs[j];
    so_rng rng;
    so_rng *r = NULL;
    if (o && o->random) {
        so_rng_seed_stream(&rng, o->seed, (uint64_t)j);
        r = &rng;
    }
    t->nm = (int)a->mt;
    t->nr = (int)a->rt;
    double n = (double)a->mt, m = (double)a->rt;
    t->map = malloc((size_t)t->nm * sizeof *t->map);
    double *sh = malloc((size_t)t->nr * sizeof *sh);
    double *rd = malloc((size_t)t->nr * sizeof *rd);
    t->red = calloc((size_t)t->nr, sizeof *t->red);
    int ok = t->map && sh && rd && t->red;
    if (ok) {
        split(t->map, t->nm, so_pt_curve_at(jb->phase[SO_PT_MAP].avg, n),
              so_pt_curve_at(jb->phase[SO_PT_MAP].max, n), r);
        split(sh, t->nr, so_pt_curve_at(jb->phase[SO_PT_SHUFFLE].avg, m),
              so_pt_curve_at(jb->phase[SO_PT_SHUFFLE].max, m), r);
        split(rd, t->nr, so_pt_curve_at(jb->phase[SO_PT_REDUCE].avg, m),
              so_pt_curve_at(jb->phase[SO_PT_REDUCE].max, m), r);
        for (int i = 0; i < t->nr; i++) {
            t->red[i].copy = sh[i];
            t->red[i].reduce = rd[i];
        }
    }
    free(sh);
    free(rd);
    return ok ? SO_OK : SO_ENOMEM;
}

static so_cl_workload *new_workload(int nodes, int jobs)
{
    so_cl_workload *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    snprintf(w->name, sizeof w->name, "pareto plan");
    w->n_nodes = nodes;
    w->heartbeat = 0.1;
    w->outofband = 1;
    w->aligned = 1;
    w->nodes = calloc((size_t)nodes, sizeof *w->nodes);
    w->n_pools = w->n_jobs = jobs;
    w->pools = calloc((size_t)jobs, sizeof *w->pools);
    w->jobs = calloc((size_t)jobs, sizeof *w->jobs);
    if (!w->nodes || !w->pools || !w->jobs) {
        so_cl_workload_free(w);
        return NULL;
    }
    return w;
}

/* Workload job (and pool) i is plan job j, submitted at submit. */
static int add_job(const exec_ctx *c, so_cl_workload *w, int i, size_t j, double submit)
{
    const so_pt_alloc *a = &c->plan[j];
    const so_pt_job *jb = &c->pr->jobs[j];
    const job_tasks *t = &c->t[j];
    so_cl_pool_spec *pl = &w->pools[i];
    snprintf(pl->name, sizeof pl->name, "p%zu", j);
    pl->weight = 1;
    pl->min_share[SO_CL_MAP] = pl->max_share[SO_CL_MAP] = (int)a->ms;
    pl->min_share[SO_CL_REDUCE] = pl->max_share[SO_CL_REDUCE] = (int)a->rs;
    so_cl_job_spec *js = &w->jobs[i];
    snprintf(js->name, sizeof js->name, "%s", jb->name[0] ? jb->name : "job");
    snprintf(js->user, sizeof js->user, "u%zu", j);
    js->pool = i;
    js->weight = 1;
    js->slowstart = 1;
    js->submit = submit;
    js->n_maps = t->nm;
    js->n_reduces = t->nr;
    js->map_work = malloc((size_t)t->nm * sizeof *js->map_work);
    js->reduce_work = malloc((size_t)t->nr * sizeof *js->reduce_work);
    if (!js->map_work || !js->reduce_work)
        return SO_ENOMEM;
    memcpy(js->map_work, t->map, (size_t)t->nm * sizeof *t->map);
    memcpy(js->reduce_work, t->red, (size_t)t->nr * sizeof *t->red);
    return SO_OK;
}

/* Simulates w; finish[i] gets workload job i's finish. Frees w. */
static int run(so_cl_workload *w, double *finish, so_error *err)
{
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "padding", "0");
    so_cl_config cfg = {.scheduler = so_cl_scheduler_find("fair"), .params = &prm, .seed = 1};
    so_cl_sim *sim = NULL;
    int rc = so_cl_sim_new(w, &cfg, &sim, err);
    if (!rc)
        rc = so_cl_sim_failure(sim, so_cl_sim_run(sim), err);
    for (int i = 0; !rc && i < w->n_jobs; i++)
        finish[i] = so_cl_sim_job(sim, i)->finish;
    so_cl_sim_free(sim);
    so_cl_workload_free(w);
    return rc;
}

/* Dedicated: job j alone on its VMs_j nodes carrying the plan's slots. */
static int run_dedicated(const exec_ctx *c, size_t j, double *time, so_error *err)
{
    const so_pt_alloc *a = &c->plan[j];
    int nodes = (int)c->vms[j];
    so_cl_workload *w = new_workload(nodes, 1);
    if (!w)
        return SO_ENOMEM;
    int64_t left[2] = {a->ms, a->rs};
    int64_t per[2] = {c->pr->map_slots_per_vm, c->pr->reduce_slots_per_vm};
    for (int i = 0; i < nodes; i++) {
        for (int ph = 0; ph < 2; ph++) {
            int64_t s = left[ph] < per[ph] ? left[ph] : per[ph];
            w->nodes[i].slots[ph == 0 ? SO_CL_MAP : SO_CL_REDUCE] = (int)s;
            left[ph] -= s;
        }
        w->nodes[i].speed = 1;
    }
    int rc = add_job(c, w, 0, j, 0);
    if (rc) {
        so_cl_workload_free(w);
        return rc;
    }
    return run(w, time, err);
}

/* finish[order[i]] for the first k jobs of order, started at start[]. */
static int finishes(const exec_ctx *c, size_t k, const size_t *order,
                    const double *start, double *finish, so_error *err)
{
    if (c->dedicated) {
        for (size_t i = 0; i < k; i++)
            finish[order[i]] = start[order[i]] + c->dur[order[i]];
        return SO_OK;
    }
    int64_t nodes = c->pr->max_vms;
    if (nodes <= 0)
        for (size_t j = 0; j < c->pr->n_jobs; j++)
            nodes += c->vms[j];
    so_cl_workload *w = new_workload((int)nodes, (int)k);
    double *f = calloc(k ? k : 1, sizeof *f);
    if (!w || !f) {
        so_cl_workload_free(w);
        free(f);
        return SO_ENOMEM;
    }
    for (int i = 0; i < w->n_nodes; i++) {
        w->nodes[i].slots[SO_CL_MAP] = (int)c->pr->map_slots_per_vm;
        w->nodes[i].slots[SO_CL_REDUCE] = (int)c->pr->reduce_slots_per_vm;
        w->nodes[i].speed = 1;
    }
    int rc = SO_OK;
    for (size_t i = 0; !rc && i < k; i++)
        rc = add_job(c, w, (int)i, order[i], start[order[i]]);
    if (rc)
        so_cl_workload_free(w);
    else
        rc = run(w, f, err);
    for (size_t i = 0; !rc && i < k; i++)
        finish[order[i]] = f[i];
    free(f);
    return rc;
}

static const double *sort_key;
static int by_key(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (sort_key[i] != sort_key[j])
        return sort_key[i] < sort_key[j] ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* start[] of every job: all at 0, or waiting for VMs under max_vms. */
static int schedule(const exec_ctx *c, size_t *order, double *start, double *finish,
                    so_error *err)
{
    size_t n = c->pr->n_jobs;
    int64_t cap = c->pr->max_vms, used = 0;
    char *running = calloc(n, 1);
    if (!running)
        return SO_ENOMEM;
    double t = 0;
    int rc = SO_OK;
    for (size_t i = 0; !rc && i < n; i++) {
        size_t j = order[i];
        int known = 0; /* finish[] of the i started jobs is up to date */
        while (!rc && cap > 0 && used + c->vms[j] > cap) {
            if (!known && (rc = finishes(c, i, order, start, finish, err)))
                break;
            known = 1;
            double next = INFINITY;
            for (size_t q = 0; q < n; q++)
                if (running[q])
                    next = fmin(next, finish[q]);
            t = fmax(t, next);
            for (size_t q = 0; q < n; q++)
                if (running[q] && finish[q] <= t) {
                    running[q] = 0;
                    used -= c->vms[q];
                }
        }
        start[j] = t;
        running[j] = 1;
        used += c->vms[j];
    }
    free(running);
    return rc ? rc : finishes(c, n, order, start, finish, err);
}

int so_pt_execute_with(const so_pareto *pr, const so_pt_alloc *plan,
                       const so_pt_exec_opts *o, so_pt_exec_job *jobs,
                       double *pred_makespan, double *sim_makespan, so_error *err)
{
    if (!so_pt_plan_valid(pr, plan))
        return so_error_setf(err, NULL, 0, 0, "plan", "slots outside [1, tasks]");
    size_t n = pr->n_jobs;
    exec_ctx c = {pr, plan, o && o->dedicated, calloc(n, sizeof *c.t),
                  calloc(n, sizeof *c.vms), calloc(n, sizeof *c.dur)};
    so_pt_eval *ev = calloc(n, sizeof *ev);
    double *key = calloc(n, sizeof *key), *start = calloc(n, sizeof *start);
    double *finish = calloc(n, sizeof *finish);
    size_t *order = calloc(n, sizeof *order);
    double pm = 0, pb = 0;
    int rc = c.t && c.vms && c.dur && ev && key && start && finish && order ? SO_OK : SO_ENOMEM;
    if (!rc)
        rc = so_pt_plan_eval(pr, plan, ev, &pm, &pb);
    for (size_t j = 0; !rc && j < n; j++) {
        c.vms[j] = ev[j].vms;
        key[j] = ev[j].jtime;
        order[j] = j;
        if (pr->max_vms > 0 && c.vms[j] > pr->max_vms)
            rc = so_error_setf(err, NULL, 0, 0, "max_vms",
                               "job %zu needs %lld VMs, more than max_vms = %lld", j,
                               (long long)c.vms[j], (long long)pr->max_vms);
        if (!rc)
            rc = draw_tasks(pr, &plan[j], j, o, &c.t[j]);
        if (!rc && c.dedicated)
            rc = run_dedicated(&c, j, &c.dur[j], err);
    }
    if (!rc) {
        sort_key = key;
        qsort(order, n, sizeof *order, by_key);
        rc = schedule(&c, order, start, finish, err);
    }
    double sm = 0;
    for (size_t j = 0; !rc && j < n; j++) {
        so_pt_exec_job *x = &jobs[j];
        x->predicted = ev[j].jtime;
        x->start = start[j];
        x->finish = finish[j];
        x->simulated = finish[j] - start[j];
        x->up = ev[j].up[0] + ev[j].up[1] + ev[j].up[2];
        x->low = 0;
        for (int ph = 0; ph < SO_PT_PHASES; ph++) {
            int64_t tn = ph == SO_PT_MAP ? plan[j].mt : plan[j].rt;
            int64_t k = ph == SO_PT_MAP ? plan[j].ms : plan[j].rs;
            x->low += (double)tn * so_pt_curve_at(pr->jobs[j].phase[ph].avg, (double)tn) /
                      (double)k;
        }
        x->predicted_budget = ev[j].budget;
        x->simulated_budget = (double)ev[j].vms * pr->vm_cost_per_hour *
                                  so_pt_billed_hours(pr, x->simulated) + ev[j].io_cost;
        sm = fmax(sm, finish[j]);
    }
    if (!rc && pred_makespan)
        *pred_makespan = pm;
    if (!rc && sim_makespan)
        *sim_makespan = sm;
    for (size_t j = 0; c.t && j < n; j++) {
        free(c.t[j].map);
        free(c.t[j].red);
    }
    free(c.t);
    free(c.vms);
    free(c.dur);
    free(ev);
    free(key);
    free(start);
    free(finish);
    free(order);
    return rc;
}

int so_pt_execute(const so_pareto *pr, const so_pt_alloc *plan,
                  so_pt_exec_job *jobs, so_error *err)
{
    return so_pt_execute_with(pr, plan, NULL, jobs, NULL, NULL, err);
}
