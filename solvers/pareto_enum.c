/* pareto_enum.c — `pareto-enum`: the paper's "Optimal" (Zacheilas and
 * Kalogeraki 2017, section 6.4.3): every plan, i.e. every (ms_j, rs_j) with
 * 1 <= ms_j <= mt_j and 1 <= rs_j <= rt_j (constraints 16-17), is evaluated
 * (Eq. 1, 5-14, with execution waves under a VM cap) and the non-dominated
 * plans within the deadline and budget_max are kept; budget_min then cuts
 * the window (docs/pareto.md). Per-job evaluations are tabulated once; the
 * plans are visited in mixed-radix order. Refuses instances with more than
 * max_plans plans. The time limit is checked in both loops (every 4096
 * evaluations): the plans seen so far are reported, status time limit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "heuristics/pareto_heuristics.h"
#include "solvers/common/deadline.h"
#include "solvers/pareto_exact.h"

const so_option_doc so_pt_enum_options[] = {
    {"max_plans", "2000000", "refuse instances with more plans than this"},
    SO_PT_BUFFER_OPTIONS,
    SO_PT_REFERENCE_OPTION,
    {NULL, NULL, NULL},
};

int so_pt_enum(const so_pareto *pr, double max_plans, so_pt_frontier *f,
               char *msg, size_t len)
{
    return so_pt_enum_until(pr, max_plans, 0, f, msg, len);
}

int so_pt_enum_until(const so_pareto *pr, double max_plans, double deadline,
                     so_pt_frontier *f, char *msg, size_t len)
{
    size_t nj = pr->n_jobs;
    double plans = 1;
    for (size_t j = 0; j < nj; j++)
        plans *= (double)pr->jobs[j].map_tasks * (double)pr->jobs[j].reduce_tasks;
    if (plans > max_plans) {
        snprintf(msg, len, "pareto-enum: the instance has %.4g plans, over the"
                           " limit of %.4g (--opt max_plans=N)", plans, max_plans);
        return SO_EUNSUPPORTED;
    }
    so_pt_eval **tab = calloc(nj, sizeof *tab);
    so_pt_alloc *plan = malloc(nj * sizeof *plan);
    double *jt = malloc(nj * sizeof *jt);
    int64_t *vms = malloc(nj * sizeof *vms);
    int rc = tab && plan && jt && vms ? SO_OK : SO_ENOMEM;
    so_clock clock = SO_CLOCK_INIT(deadline, 12);
    for (size_t j = 0; !rc && j < nj; j++) {
        const so_pt_job *job = &pr->jobs[j];
        tab[j] = malloc((size_t)(job->map_tasks * job->reduce_tasks) * sizeof **tab);
        if (!tab[j]) {
            rc = SO_ENOMEM;
            break;
        }
        so_pt_alloc_init(pr, j, &plan[j]);
        for (int64_t ms = 1; ms <= job->map_tasks; ms++)
            for (int64_t rs = 1; rs <= job->reduce_tasks && !rc; rs++) {
                if (so_clock_over(&clock)) {
                    rc = SO_TIMELIMIT;
                    break;
                }
                so_pt_alloc a = plan[j];
                a.ms = ms;
                a.rs = rs;
                so_pt_job_eval(pr, job, &a, &tab[j][(ms - 1) * job->reduce_tasks + rs - 1]);
            }
    }
    while (!rc) {
        if (so_clock_over(&clock)) {
            rc = SO_TIMELIMIT;
            break;
        }
        double budget = 0;
        for (size_t j = 0; j < nj; j++) {
            const so_pt_eval *e = &tab[j][(plan[j].ms - 1) * pr->jobs[j].reduce_tasks +
                                          plan[j].rs - 1];
            jt[j] = e->jtime;
            vms[j] = e->vms;
            budget += e->budget;
        }
        double makespan = so_pt_makespan(pr, jt, vms);
        if (isnan(makespan))
            rc = SO_ENOMEM;
        else if (makespan <= pr->deadline && budget <= pr->budget_max) {
            int added = so_pt_frontier_offer(f, makespan, budget, plan);
            rc = added < 0 ? added : SO_OK;
        }
        size_t j = 0; /* next plan: mixed-radix increment */
        for (; j < nj; j++) {
            if (plan[j].rs < plan[j].rt) {
                plan[j].rs++;
                break;
            }
            plan[j].rs = 1;
            if (plan[j].ms < plan[j].mt) {
                plan[j].ms++;
                break;
            }
            plan[j].ms = 1;
        }
        if (j == nj)
            break;
    }
    if (rc == SO_TIMELIMIT)
        snprintf(msg, len, "pareto-enum: time limit reached after %zu plans on"
                           " the frontier", f->n);
    for (size_t j = 0; tab && j < nj; j++)
        free(tab[j]);
    free(tab);
    free(plan);
    free(jt);
    free(vms);
    return rc;
}

static int core(const so_pareto *pr, const so_params *prm, double limit,
                so_pt_frontier *f, char *msg, size_t len)
{
    return so_pt_enum_until(pr, limit, so_deadline_of(prm), f, msg, len);
}

int so_pt_enum_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    return so_pt_exact_run(p, prm, r, so_pt_enum_options, "max_plans", core);
}
