/* pareto_tiny.c — random small Pareto instances for the tests. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "tests/solvers/pareto_tiny.h"

static double uni(so_rng *rng, double lo, double hi)
{
    return lo + (hi - lo) * so_rng_uniform(rng);
}

static so_pt_profile profile(so_rng *rng, double scale)
{
    so_pt_profile p;
    p.avg.a = uni(rng, 0, scale);
    p.avg.b = uni(rng, 0, 10 * scale);
    p.max.a = p.avg.a * uni(rng, 1, 2);
    p.max.b = p.avg.b * uni(rng, 1, 2);
    return p;
}

so_pareto *so_test_pareto_random(so_rng *rng, int max_jobs, int max_tasks,
                                 int window)
{
    so_pareto *pr = calloc(1, sizeof *pr);
    pr->n_jobs = (size_t)so_rng_int(rng, 1, max_jobs);
    pr->jobs = calloc(pr->n_jobs, sizeof *pr->jobs);
    pr->map_slots_per_vm = so_rng_int(rng, 1, 3);
    pr->reduce_slots_per_vm = so_rng_int(rng, 1, 3);
    pr->vm_cost_per_hour = uni(rng, 100, 4000);
    pr->io_cost_per_request = 1e-4;
    pr->io_request_bytes = 4096;
    pr->budget_max = INFINITY;
    pr->deadline = INFINITY;
    double longest = 0;
    for (size_t j = 0; j < pr->n_jobs; j++) {
        so_pt_job *jb = &pr->jobs[j];
        snprintf(jb->name, sizeof jb->name, "t%zu", j);
        jb->map_tasks = so_rng_int(rng, 1, max_tasks);
        jb->reduce_tasks = so_rng_int(rng, 1, max_tasks);
        jb->phase[SO_PT_MAP] = profile(rng, 10);
        jb->phase[SO_PT_SHUFFLE] = profile(rng, 3);
        jb->phase[SO_PT_REDUCE] = profile(rng, 20);
        jb->has_output = so_rng_int(rng, 0, 1);
        jb->out_bytes = (so_pt_curve){uni(rng, 1, 1e6), uni(rng, 0, 3e8)};
        jb->out_records = (so_pt_curve){uni(rng, 1, 1e4), uni(rng, 0, 3e6)};
        jb->buffer = (so_pt_buffer){100, 0.05, 0.8};
        jb->lo = (so_pt_buffer){16, 0.01, 0.5};
        jb->hi = (so_pt_buffer){512, 0.5, 0.99};
        so_pt_alloc a;
        so_pt_alloc_init(pr, j, &a);
        longest = fmax(longest, so_pt_jtime(jb, &a));
    }
    if (window) {
        pr->deadline = longest * uni(rng, 0.3, 1.2);
        pr->budget_min = uni(rng, 0, 1) * longest * pr->vm_cost_per_hour / 3600;
        pr->budget_max = pr->budget_min + uni(rng, 0.5, 5) * longest *
                                              pr->vm_cost_per_hour / 3600 *
                                              (double)pr->n_jobs;
    }
    return pr;
}

so_problem *so_test_pareto_problem(so_pareto *pr)
{
    so_problem *p = NULL;
    so_pareto_problem(pr, "tiny", &p);
    return p;
}
