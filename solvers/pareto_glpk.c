/* pareto_glpk.c — `pareto-glpk`: the exact frontier by the epsilon-constraint
 * method on a MILP (GLPK), an independent cross-check of pareto-sweep for the
 * model of Zacheilas and Kalogeraki 2017, section 4.2 (Eq. 1, 5-14).
 *
 * One binary x[j,a] per job j and allocation a = (ms, rs) with
 * 1 <= ms <= mt_j, 1 <= rs <= rt_j (constraints 16-17):
 *   sum_a x[j,a] = 1                      for every job j
 *   x[j,a] = 0  when jtime_j(a) > eps     (Makespan <= eps)
 * Each round minimises Budget = sum budget_j(a) x[j,a]; its plan (T, B),
 * re-evaluated with the model's own arithmetic, is offered to the frontier
 * (which drops the points it dominates, so of plans with equal budgets the
 * fastest stays), and the next round sets eps to the largest job time below
 * T by more than the frontier's rounding (SO_PT_REL_TOL). The makespan bound
 * is applied by fixing columns, not as a row: a row with job times near
 * 1e8 s and GLPK's tolerances lost frontier points. Rounds stop when some
 * job has no allocation left or the budget exceeds budget_max. The time
 * limit covers building the model and all the rounds (each MILP gets what
 * is left); when it runs out the points found so far are reported
 * (SO_TIMELIMIT). A VM cap (execution waves) is refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "solvers/common/deadline.h"
#include "solvers/glpk_milp.h"
#include "heuristics/pareto_heuristics.h"
#include "solvers/pareto_exact.h"

const so_option_doc so_pt_glpk_options[] = {
    {"max_columns", "20000", "refuse instances needing more binaries than this"},
    SO_PT_BUFFER_OPTIONS,
    SO_PT_REFERENCE_OPTION,
    {NULL, NULL, NULL},
};

typedef struct {
    glp_prob *lp;
    size_t nj, ncols;
    size_t *first;    /* first column (1-based) of job j */
    double *col_time; /* job time of column c + 1 */
    double *times;    /* distinct job time values, ascending */
    size_t ntimes;
} model;

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* SO_TIMELIMIT when the deadline passes while building. */
static int build(const so_pareto *pr, double deadline, model *m)
{
    size_t nj = pr->n_jobs, ncols = 0;
    for (size_t j = 0; j < nj; j++)
        ncols += (size_t)(pr->jobs[j].map_tasks * pr->jobs[j].reduce_tasks);
    m->nj = nj;
    m->ncols = ncols;
    m->first = malloc(nj * sizeof *m->first);
    m->col_time = malloc(ncols * sizeof *m->col_time);
    m->times = malloc(ncols * sizeof *m->times);
    int *ind = malloc((ncols + 1) * sizeof *ind);
    double *val = malloc((ncols + 1) * sizeof *val);
    if (!m->first || !m->col_time || !m->times || !ind || !val) {
        free(ind);
        free(val);
        return SO_ENOMEM;
    }
    glp_prob *lp = m->lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_cols(lp, (int)ncols);
    glp_add_rows(lp, (int)nj);
    int col = 1;
    so_clock clock = SO_CLOCK_INIT(deadline, 12);
    for (size_t j = 0; j < nj; j++) {
        const so_pt_job *job = &pr->jobs[j];
        m->first[j] = (size_t)col;
        int k = 0;
        for (int64_t ms = 1; ms <= job->map_tasks; ms++)
            for (int64_t rs = 1; rs <= job->reduce_tasks; rs++, col++) {
                if (so_clock_over(&clock)) {
                    free(ind);
                    free(val);
                    return SO_TIMELIMIT;
                }
                so_pt_eval e;
                so_pt_eval_slots(pr, j, ms, rs, &e);
                glp_set_col_kind(lp, col, GLP_BV);
                glp_set_obj_coef(lp, col, e.budget);
                m->col_time[col - 1] = m->times[col - 1] = e.jtime;
                ind[++k] = col;
                val[k] = 1;
            }
        glp_set_mat_row(lp, (int)(j + 1), k, ind, val);
        glp_set_row_bnds(lp, (int)(j + 1), GLP_FX, 1, 1);
    }
    free(ind);
    free(val);
    qsort(m->times, ncols, sizeof *m->times, cmp_double);
    size_t u = 0;
    for (size_t i = 0; i < ncols; i++)
        if (u == 0 || m->times[i] != m->times[u - 1])
            m->times[u++] = m->times[i];
    m->ntimes = u;
    return SO_OK;
}

/* Fixes to 0 the columns slower than eps; 0 when some job has none left. */
static int apply_eps(model *m, double eps)
{
    for (size_t j = 0; j < m->nj; j++) {
        size_t end = j + 1 < m->nj ? m->first[j + 1] : m->ncols + 1;
        int left = 0;
        for (size_t c = m->first[j]; c < end; c++) {
            int ok = m->col_time[c - 1] <= eps;
            left |= ok;
            if (!ok)
                glp_set_col_bnds(m->lp, (int)c, GLP_FX, 0, 0);
        }
        if (!left)
            return 0;
    }
    return 1;
}

/* The plan in the MILP's solution. */
static void read_plan(const so_pareto *pr, const model *m, so_pt_alloc *plan)
{
    for (size_t j = 0; j < m->nj; j++) {
        const so_pt_job *job = &pr->jobs[j];
        so_pt_alloc_init(pr, j, &plan[j]);
        size_t n = (size_t)(job->map_tasks * job->reduce_tasks);
        for (size_t k = 0; k < n; k++)
            if (glp_mip_col_val(m->lp, (int)(m->first[j] + k)) > 0.5) {
                plan[j].ms = (int64_t)(k / (size_t)job->reduce_tasks) + 1;
                plan[j].rs = (int64_t)(k % (size_t)job->reduce_tasks) + 1;
            }
    }
}

/* Largest job time value below t by more than SO_PT_REL_TOL (nearer
 * values are t computed along another path), or -1. */
static double time_below(const model *m, double t)
{
    double best = -1;
    for (size_t i = 0; i < m->ntimes && !so_pt_near_le(t, m->times[i]); i++)
        best = m->times[i];
    return best;
}

/* One MILP within what is left before the deadline. */
static int solve_round(model *m, double deadline, const char *stage, char *msg,
                       size_t len, int *feasible)
{
    if (so_deadline_passed(deadline)) {
        *feasible = 0;
        snprintf(msg, len, "pareto-glpk: time limit reached before the %s MILP",
                 stage);
        return SO_TIMELIMIT;
    }
    so_milp_outcome out;
    so_milp_solve_until(m->lp, deadline, NULL, &out);
    if (out.lp_lost)
        m->lp = NULL; /* GLPK freed it with its environment */
    *feasible = out.has_solution;
    if (out.status == SO_OPTIMAL || out.status == SO_INFEASIBLE)
        return SO_OK;
    snprintf(msg, len, "pareto-glpk: GLPK ended the %s MILP with status %s",
             stage, so_status_str(out.status));
    return out.status == SO_TIMELIMIT ? SO_TIMELIMIT : SO_EBACKEND;
}

int so_pt_glpk(const so_pareto *pr, const so_params *prm, double max_columns,
               so_pt_frontier *f, char *msg, size_t len)
{
    if (pr->max_vms > 0) {
        snprintf(msg, len, "pareto-glpk needs unlimited VMs: with max_vms the"
                           " makespan follows execution waves (use pareto-enum)");
        return SO_EUNSUPPORTED;
    }
    double cols = 0;
    for (size_t j = 0; j < pr->n_jobs; j++)
        cols += (double)pr->jobs[j].map_tasks * (double)pr->jobs[j].reduce_tasks;
    if (cols > max_columns) {
        snprintf(msg, len, "pareto-glpk: the MILP needs %.4g binaries, over the"
                           " limit of %.4g (--opt max_columns=N)", cols, max_columns);
        return SO_EUNSUPPORTED;
    }
    double deadline = so_deadline_of(prm);
    model m = {0};
    so_pt_alloc *plan = malloc((pr->n_jobs ? pr->n_jobs : 1) * sizeof *plan);
    int rc = plan ? build(pr, deadline, &m) : SO_ENOMEM;
    if (rc == SO_TIMELIMIT)
        snprintf(msg, len, "pareto-glpk: time limit reached while building the"
                           " MILP");
    double eps = pr->deadline;
    while (!rc && apply_eps(&m, eps)) {
        int feasible;
        rc = solve_round(&m, deadline, "least-budget", msg, len, &feasible);
        if (rc || !feasible)
            break;
        double t, b;
        read_plan(pr, &m, plan);
        rc = so_pt_plan_eval(pr, plan, NULL, &t, &b);
        if (rc || b > pr->budget_max)
            break;
        if (!(t <= eps)) {
            snprintf(msg, len, "pareto-glpk: GLPK returned makespan %.17g, over"
                               " the bound %.17g", t, eps);
            rc = SO_EBACKEND;
            break;
        }
        int added = so_pt_frontier_offer(f, t, b, plan);
        if (added < 0) {
            rc = added;
            break;
        }
        eps = time_below(&m, t);
        if (eps < 0)
            break;
    }
    if (m.lp)
        glp_delete_prob(m.lp);
    free(m.first);
    free(m.col_time);
    free(m.times);
    free(plan);
    return rc;
}

static int core(const so_pareto *pr, const so_params *prm, double limit,
                so_pt_frontier *f, char *msg, size_t len)
{
    return so_pt_glpk(pr, prm, limit, f, msg, len);
}

int so_pt_glpk_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    return so_pt_exact_run(p, prm, r, so_pt_glpk_options, "max_columns", core);
}
