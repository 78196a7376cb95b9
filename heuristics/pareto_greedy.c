/* pareto_greedy.c — `pareto-slots` and `pareto-vms`: the Pareto frontier
 * greedy search of Zacheilas and Kalogeraki 2017, section 4.3, Algorithm 1
 * with Slots' Allocation (Algorithm 2) or VMs' Allocation (Algorithm 3),
 * optionally with task adjustment (Algorithm 4, section 4.3.1) and buffer
 * tuning (Algorithm 5, section 4.4).
 * Choices where the paper is ambiguous (docs/pareto.md):
 *   - the critical job is the one with the largest jtime (ties: lowest
 *     index); Algorithm 2 takes the map slot when it gives a strictly
 *     smaller jtime than the reduce slot, else the reduce slot; a phase at
 *     its task count (or, under a VM cap, a growth needing more than max_vms
 *     VMs) is not a candidate; Algorithm 3 adds msPerVM and rsPerVM slots,
 *     clipped at the task counts; the search stops when the critical job
 *     can grow no further;
 *   - a plan over BudgetMax is skipped while no plan has been kept (the
 *     listing would keep it), and ends the search afterwards;
 *   - a plan is kept when no kept plan weakly dominates it, and it removes
 *     the plans it dominates (the listing's lines 15-22 would also reject a
 *     cheaper but slower plan);
 *   - buffers are tuned before the search (section 5: the search asks the
 *     tuning component first), again whenever task adjustment changes the
 *     map task count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "heuristics/pareto_heuristics.h"

typedef struct {
    const so_pareto *pr;
    const so_pt_greedy_opts *o;
    so_pt_tuner *tuner;
    so_pt_alloc *plan;
    so_pt_eval *ev;
} search;

/* Applies Algorithm 4 (if on) and the buffer for the job's map tasks. */
static int settle(search *s, size_t j, so_pt_alloc *a)
{
    const so_pt_job *job = &s->pr->jobs[j];
    if (s->o->adjust_tasks) {
        so_pt_adjust_tasks(job, a, 1);
        so_pt_adjust_tasks(job, a, 0);
    }
    return so_pt_tuner_get(s->tuner, j, a->mt, &a->buffer);
}

static int fits_cap(const so_pareto *pr, const so_pt_alloc *a)
{
    return pr->max_vms <= 0 || so_pt_vms(pr, a->ms, a->rs) <= pr->max_vms;
}

/* Algorithm 2 or 3 on job j: 1 when it grew, 0 when it cannot, < 0 error. */
static int grow(search *s, size_t j)
{
    const so_pareto *pr = s->pr;
    const so_pt_job *job = &pr->jobs[j];
    so_pt_alloc cur = s->plan[j], next;
    int rc;
    if (s->o->vms_policy) {
        next = cur;
        next.ms = cur.ms + pr->map_slots_per_vm;
        next.rs = cur.rs + pr->reduce_slots_per_vm;
        next.ms = next.ms < job->map_tasks ? next.ms : job->map_tasks;
        next.rs = next.rs < job->reduce_tasks ? next.rs : job->reduce_tasks;
        next.mt = next.mt > next.ms ? next.mt : next.ms;
        next.rt = next.rt > next.rs ? next.rt : next.rs;
        if ((next.ms == cur.ms && next.rs == cur.rs) || !fits_cap(pr, &next))
            return 0;
        if ((rc = settle(s, j, &next)))
            return rc;
    } else {
        so_pt_alloc m = cur, r = cur;
        m.ms++;
        r.rs++;
        m.mt = m.mt > m.ms ? m.mt : m.ms;
        r.rt = r.rt > r.rs ? r.rt : r.rs;
        int can_m = cur.ms < job->map_tasks && fits_cap(pr, &m);
        int can_r = cur.rs < job->reduce_tasks && fits_cap(pr, &r);
        if (!can_m && !can_r)
            return 0;
        if (can_m && (rc = settle(s, j, &m)))
            return rc;
        if (can_r && (rc = settle(s, j, &r)))
            return rc;
        if (can_m && can_r)
            next = so_pt_jtime(job, &m) < so_pt_jtime(job, &r) ? m : r;
        else
            next = can_m ? m : r;
    }
    s->plan[j] = next;
    so_pt_job_eval(pr, job, &next, &s->ev[j]);
    return 1;
}

static int evaluate(const search *s, double *jt, int64_t *vms, double *makespan,
                    double *budget)
{
    double total = 0;
    for (size_t j = 0; j < s->pr->n_jobs; j++) {
        jt[j] = s->ev[j].jtime;
        vms[j] = s->ev[j].vms;
        total += s->ev[j].budget;
    }
    *makespan = so_pt_makespan(s->pr, jt, vms);
    *budget = total;
    return isnan(*makespan) ? SO_ENOMEM : SO_OK;
}

int so_pt_greedy(const so_pareto *pr, const so_pt_greedy_opts *o,
                 so_pt_frontier *f)
{
    size_t nj = pr->n_jobs ? pr->n_jobs : 1;
    search s = {pr, o, so_pt_tuner_new(pr, o->tune, o->samples, o->seed),
                malloc(nj * sizeof *s.plan), malloc(nj * sizeof *s.ev)};
    double *jt = malloc(nj * sizeof *jt);
    int64_t *vms = malloc(nj * sizeof *vms);
    int rc = s.tuner && s.plan && s.ev && jt && vms ? SO_OK : SO_ENOMEM;
    for (size_t j = 0; !rc && j < pr->n_jobs; j++) {
        so_pt_alloc_init(pr, j, &s.plan[j]);
        rc = settle(&s, j, &s.plan[j]);
        so_pt_job_eval(pr, &pr->jobs[j], &s.plan[j], &s.ev[j]);
    }
    double makespan, budget;
    if (!rc)
        rc = evaluate(&s, jt, vms, &makespan, &budget);
    if (!rc && budget >= pr->budget_min && budget <= pr->budget_max &&
        makespan <= pr->deadline)
        rc = so_pt_frontier_append(f, makespan, budget, s.plan);
    while (!rc) {
        size_t crit = 0;
        for (size_t j = 1; j < pr->n_jobs; j++)
            if (s.ev[j].jtime > s.ev[crit].jtime)
                crit = j;
        int grew = grow(&s, crit);
        if (grew <= 0) {
            rc = grew;
            break;
        }
        if ((rc = evaluate(&s, jt, vms, &makespan, &budget)))
            break;
        if (budget < pr->budget_min || makespan > pr->deadline)
            continue;
        if (budget > pr->budget_max) {
            if (f->n > 0)
                break;
            continue;
        }
        int added = so_pt_frontier_offer(f, makespan, budget, s.plan);
        rc = added < 0 ? added : SO_OK;
    }
    so_pt_tuner_free(s.tuner);
    free(s.plan);
    free(s.ev);
    free(jt);
    free(vms);
    return rc;
}

/* ---- the backends --------------------------------------------------------- */

const so_option_doc so_pt_greedy_options[] = {
    {"tasks", "fixed", "fixed | adjust (Algorithm 4: tasks from the slots up"
                       " while the job time falls)"},
    SO_PT_BUFFER_OPTIONS,
    SO_PT_REFERENCE_OPTION,
    {NULL, NULL, NULL},
};

static int run(const so_problem *p, const so_params *prm, so_result *r,
               int vms_policy)
{
    const so_pareto *pr = so_pareto_of(p);
    const so_option_doc *d = so_pt_greedy_options;
    so_pt_greedy_opts o = {vms_policy, 0, SO_PT_TUNE_NONE, 10000, prm->seed};
    const char *tasks = so_params_str(prm, d, "tasks", "fixed");
    so_error err;
    so_error_clear(&err);
    int rc = so_pt_buffer_options(prm, d, &o.tune, &o.samples, &err);
    o.adjust_tasks = !strcmp(tasks, "adjust");
    if (!rc && !o.adjust_tasks && strcmp(tasks, "fixed"))
        rc = so_error_setf(&err, NULL, 0, 0, "tasks", "expected fixed or adjust,"
                           " found '%s'", tasks);
    if (rc) {
        so_result_set_message(r, "option %s: %s", err.key, err.message);
        return rc;
    }
    so_pt_frontier f;
    so_pt_frontier_init(&f, pr->n_jobs);
    rc = so_pt_greedy(pr, &o, &f);
    if (!rc)
        rc = so_pt_report(p, prm, r, &f, 0);
    so_pt_frontier_free(&f);
    return rc;
}

int so_pt_slots_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    return run(p, prm, r, 0);
}

int so_pt_vms_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    return run(p, prm, r, 1);
}
