/* pareto_frontier.c — the frontier container shared by the pareto backends:
 * Pareto dominance as defined in Zacheilas and Kalogeraki 2017, section 4.3
 * (SA2 dominates SA1 when it is no worse in both objectives and better in
 * one), kept as a set of mutually non-dominated plans. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "solvers/pareto_frontier.h"

void so_pt_frontier_init(so_pt_frontier *f, size_t n_jobs)
{
    memset(f, 0, sizeof *f);
    f->n_jobs = n_jobs;
}

void so_pt_frontier_free(so_pt_frontier *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->pts[i].plan);
    free(f->pts);
    memset(f, 0, sizeof *f);
}

int so_pt_frontier_append(so_pt_frontier *f, double makespan, double budget,
                          const so_pt_alloc *plan)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 16;
        so_pt_point *p = realloc(f->pts, cap * sizeof *p);
        if (!p)
            return SO_ENOMEM;
        f->pts = p;
        f->cap = cap;
    }
    size_t nj = f->n_jobs ? f->n_jobs : 1;
    so_pt_alloc *copy = malloc(nj * sizeof *copy);
    if (!copy)
        return SO_ENOMEM;
    memcpy(copy, plan, f->n_jobs * sizeof *copy);
    f->pts[f->n++] = (so_pt_point){makespan, budget, copy};
    return SO_OK;
}

int so_pt_frontier_offer(so_pt_frontier *f, double makespan, double budget,
                         const so_pt_alloc *plan)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->pts[i].makespan <= makespan && f->pts[i].budget <= budget)
            return 0;
    size_t k = 0;
    for (size_t i = 0; i < f->n; i++) {
        if (makespan <= f->pts[i].makespan && budget <= f->pts[i].budget)
            free(f->pts[i].plan);
        else
            f->pts[k++] = f->pts[i];
    }
    f->n = k;
    int rc = so_pt_frontier_append(f, makespan, budget, plan);
    return rc ? rc : 1;
}

static int by_makespan(const void *x, const void *y)
{
    const so_pt_point *a = x, *b = y;
    if (a->makespan != b->makespan)
        return a->makespan < b->makespan ? -1 : 1;
    return (a->budget > b->budget) - (a->budget < b->budget);
}

int so_pt_near_le(double a, double b)
{
    return a <= b + SO_PT_REL_TOL * (1 + fabs(b));
}

/* Drops the points another point dominates up to the rounding of
 * SO_PT_REL_TOL (pts sorted by makespan): values equal in exact arithmetic
 * but computed along different paths differ in their last bits. */
static void drop_near_dominated(so_pt_frontier *f)
{
    size_t k = 0;
    for (size_t i = 0; i < f->n; i++) {
        so_pt_point p = f->pts[i];
        if (k > 0 && so_pt_near_le(f->pts[k - 1].budget, p.budget)) {
            free(p.plan);
            continue;
        }
        while (k > 0 && so_pt_near_le(p.makespan, f->pts[k - 1].makespan))
            free(f->pts[--k].plan);
        f->pts[k++] = p;
    }
    f->n = k;
}

void so_pt_frontier_window(so_pt_frontier *f, const so_pareto *pr)
{
    size_t k = 0;
    for (size_t i = 0; i < f->n; i++) {
        so_pt_point *p = &f->pts[i];
        if (p->makespan <= pr->deadline && p->budget <= pr->budget_max &&
            p->budget >= pr->budget_min)
            f->pts[k++] = *p;
        else
            free(p->plan);
    }
    f->n = k;
    if (f->n > 1)
        qsort(f->pts, f->n, sizeof *f->pts, by_makespan);
    drop_near_dominated(f);
}

so_front_point so_pt_reference_point(const so_pareto *pr)
{
    so_front_point ref = {pr->deadline, pr->budget_max};
    double longest = 0, total_time = 0, total_budget = 0;
    for (size_t j = 0; j < pr->n_jobs; j++) {
        const so_pt_job *job = &pr->jobs[j];
        so_pt_alloc a;
        so_pt_alloc_init(pr, j, &a);
        double t = so_pt_jtime(job, &a);
        longest = fmax(longest, t);
        total_time += t;
        int64_t vmax = so_pt_vms(pr, job->map_tasks, job->reduce_tasks);
        double worst = 0;
        for (int64_t v = 1; v <= vmax; v++) {
            a.ms = v * pr->map_slots_per_vm < a.mt ? v * pr->map_slots_per_vm : a.mt;
            a.rs = v * pr->reduce_slots_per_vm < a.rt ? v * pr->reduce_slots_per_vm : a.rt;
            so_pt_eval e;
            so_pt_job_eval(pr, job, &a, &e);
            worst = fmax(worst, e.budget);
        }
        total_budget += worst;
    }
    if (!isfinite(ref.makespan))
        ref.makespan = pr->max_vms > 0 ? total_time : longest;
    if (!isfinite(ref.budget))
        ref.budget = total_budget;
    return ref;
}
