/* pareto_sweep.c — `pareto-sweep`: the exact (makespan, budget) frontier by
 * a threshold sweep (SPEC section 2, the project's exactness note), for the
 * model of Zacheilas and Kalogeraki 2017, section 4.2 (Eq. 1, 5-14).
 *
 * With unlimited VMs, Makespan = max_j jtime_j and Budget = sum_j budget_j of
 * independent per-job choices, so for a makespan threshold T the least
 * budget is B*(T) = sum_j min{budget_j(a) : jtime_j(a) <= T} and the
 * frontier is the set of (T, B*(T)) where B* drops.
 * Candidates per job: jtime is non-increasing in ms and rs (Eq. 5-6 with
 * tavg >= 0), so among allocations on v VMs the one with the most slots,
 * ms = min(mt, v msPerVM), rs = min(rt, v rsPerVM), is no slower and no
 * dearer than any other: only v = 1 .. max(ceil(mt/msPerVM),
 * ceil(rt/rsPerVM)) need be considered. Sorting all candidates by jtime and
 * sweeping T upwards costs O(C log C + D J) for C candidates, D distinct
 * thresholds and J jobs. Deadline and budget_max are closed under dominance
 * and applied as a window; budget_min only cuts the window (docs/pareto.md).
 * A VM cap (execution waves) breaks the separability: refused. The time
 * limit is checked every 4096 candidates (evaluation and sweep): the points
 * found so far are reported, status time limit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "heuristics/pareto_heuristics.h"
#include "solvers/common/deadline.h"
#include "solvers/pareto_exact.h"

const so_option_doc so_pt_sweep_options[] = {
    SO_PT_BUFFER_OPTIONS,
    SO_PT_REFERENCE_OPTION,
    {NULL, NULL, NULL},
};

typedef struct {
    double jtime, budget;
    size_t job;
    int64_t v;
} candidate;

static int by_jtime(const void *x, const void *y)
{
    const candidate *a = x, *b = y;
    if (a->jtime != b->jtime)
        return a->jtime < b->jtime ? -1 : 1;
    if (a->job != b->job)
        return a->job < b->job ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

static void full_alloc(const so_pareto *pr, size_t j, int64_t v, so_pt_alloc *a)
{
    so_pt_alloc_init(pr, j, a);
    int64_t ms = v * pr->map_slots_per_vm, rs = v * pr->reduce_slots_per_vm;
    a->ms = ms < a->mt ? ms : a->mt;
    a->rs = rs < a->rt ? rs : a->rt;
}

int so_pt_sweep(const so_pareto *pr, so_pt_frontier *f, char *msg, size_t len)
{
    return so_pt_sweep_until(pr, 0, f, msg, len);
}

int so_pt_sweep_until(const so_pareto *pr, double deadline, so_pt_frontier *f,
                      char *msg, size_t len)
{
    if (pr->max_vms > 0) {
        snprintf(msg, len, "pareto-sweep needs unlimited VMs: with max_vms the"
                           " makespan follows execution waves and is not"
                           " separable (use pareto-enum or a heuristic)");
        return SO_EUNSUPPORTED;
    }
    size_t nc = 0, nj = pr->n_jobs;
    for (size_t j = 0; j < nj; j++)
        nc += (size_t)so_pt_vms(pr, pr->jobs[j].map_tasks, pr->jobs[j].reduce_tasks);
    candidate *c = malloc(nc * sizeof *c);
    double *cur = malloc(nj * sizeof *cur);     /* chosen budget per job */
    double *cur_t = malloc(nj * sizeof *cur_t); /* its jtime */
    int64_t *cur_v = malloc(nj * sizeof *cur_v);
    so_pt_alloc *plan = malloc(nj * sizeof *plan);
    int rc = c && cur && cur_t && cur_v && plan ? SO_OK : SO_ENOMEM;
    size_t k = 0;
    so_clock clock = SO_CLOCK_INIT(deadline, 12);
    for (size_t j = 0; !rc && j < nj; j++) {
        int64_t vmax = so_pt_vms(pr, pr->jobs[j].map_tasks, pr->jobs[j].reduce_tasks);
        for (int64_t v = 1; v <= vmax; v++) {
            if (so_clock_over(&clock)) {
                rc = SO_TIMELIMIT;
                break;
            }
            so_pt_alloc a;
            so_pt_eval e;
            full_alloc(pr, j, v, &a);
            so_pt_job_eval(pr, &pr->jobs[j], &a, &e);
            c[k++] = (candidate){e.jtime, e.budget, j, v};
        }
        cur_v[j] = 0;
    }
    if (!rc)
        qsort(c, nc, sizeof *c, by_jtime);
    size_t covered = 0;
    double last_budget = INFINITY;
    for (size_t i = 0; !rc && i < nc;) {
        if (so_clock_over(&clock)) {
            rc = SO_TIMELIMIT;
            break;
        }
        double t = c[i].jtime;
        for (; i < nc && c[i].jtime == t; i++) {
            size_t j = c[i].job;
            if (!cur_v[j])
                covered++;
            if (!cur_v[j] || c[i].budget < cur[j]) {
                cur[j] = c[i].budget;
                cur_t[j] = c[i].jtime;
                cur_v[j] = c[i].v;
            }
        }
        if (covered < nj)
            continue;
        if (t > pr->deadline)
            break;
        double total = 0, makespan = 0;
        for (size_t j = 0; j < nj; j++) {
            total += cur[j];
            makespan = fmax(makespan, cur_t[j]);
        }
        if (!(total < last_budget))
            continue;
        last_budget = total;
        if (total > pr->budget_max)
            continue;
        for (size_t j = 0; j < nj; j++)
            full_alloc(pr, j, cur_v[j], &plan[j]);
        rc = so_pt_frontier_append(f, makespan, total, plan);
    }
    if (rc == SO_TIMELIMIT)
        snprintf(msg, len, "pareto-sweep: time limit reached after %zu points",
                 f->n);
    free(c);
    free(cur);
    free(cur_t);
    free(cur_v);
    free(plan);
    return rc;
}

static int core(const so_pareto *pr, const so_params *prm, double limit,
                so_pt_frontier *f, char *msg, size_t len)
{
    (void)limit;
    return so_pt_sweep_until(pr, so_deadline_of(prm), f, msg, len);
}

int so_pt_sweep_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    return so_pt_exact_run(p, prm, r, so_pt_sweep_options, NULL, core);
}
