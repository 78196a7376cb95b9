/* pareto_model.c — the MILP `slotopt export` writes for a pareto instance:
 * one epsilon-constraint model of Zacheilas and Kalogeraki 2017, section
 * 4.2 (Eq. 1, 5-14), at one makespan bound T. A frontier has no single
 * MILP; the epsilon-constraint method (pareto-glpk, solvers/pareto_glpk.c)
 * solves this model for a sequence of bounds, and its optimum at T is the
 * least budget of any plan of makespan <= T (the frontier's point at T).
 *
 *   minimise   sum_j sum_a budget_j(a) x[j,a]              (Eq. 14)
 *   subject to sum_a x[j,a] = 1             for every job j (row assign_j)
 *              x[j,a] binary
 *
 * with one column x_j_ms_rs per job j and allocation a = (ms, rs),
 * 1 <= ms <= mt_j, 1 <= rs <= rt_j (constraints 16-17), kept only when
 * jtime_j(a) <= T: Makespan = max_j jtime_j <= T (Eq. 10 with unlimited
 * VMs) is written by leaving the slower allocations out, as pareto-glpk
 * fixes them to 0, rather than as big-M rows. Choices where the paper is
 * silent, as in pareto-glpk: the task counts are the instance's and every
 * job keeps its own buffer setting (no buffer tuning); budget_min and
 * budget_max are not constraints (they select a window of the frontier,
 * docs/pareto.md). T is --opt deadline=SECONDS, by default the instance's
 * deadline; an instance without one, a VM cap (makespan by execution
 * waves), a job with no allocation within T, or more than 10^6 columns are
 * refused with a message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "formulations/pareto.h"

static const so_option_doc model_options[] = {
    {"deadline", "", "makespan bound T in seconds (default: the instance's deadline)"},
    {NULL, NULL, NULL},
};

enum { MAX_COLUMNS = 1000000 };

int so_pt_build_glpk(const void *data, const so_params *prm, glp_prob *lp,
                     so_error *err)
{
    const so_pareto *pr = data;
    if (prm && so_params_check(prm, model_options, "the pareto model", err))
        return SO_EINVAL;
    double bound = pr->deadline;
    const char *text = prm ? so_params_get(prm, "deadline") : NULL;
    if (text) {
        char *end;
        bound = strtod(text, &end);
        if (end == text || *end || !(bound > 0) || !isfinite(bound))
            return so_error_setf(err, NULL, 0, 0, "deadline",
                                 "expected seconds > 0, found '%s'", text);
    }
    if (!isfinite(bound))
        return so_error_setf(err, NULL, 0, 0, "deadline",
                             "the instance has no deadline: give the makespan bound"
                             " of the epsilon-constraint model with --opt deadline=SECONDS");
    if (pr->max_vms > 0)
        return so_error_setf(err, NULL, 0, 0, "max_vms",
                             "with max_vms the makespan follows execution waves: no"
                             " epsilon-constraint MILP is exported for it");
    double cols = 0;
    for (size_t j = 0; j < pr->n_jobs; j++)
        cols += (double)pr->jobs[j].map_tasks * (double)pr->jobs[j].reduce_tasks;
    if (cols > MAX_COLUMNS)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "the model would have %.4g columns, over the limit of %d",
                             cols, MAX_COLUMNS);
    int *ind = malloc(((size_t)cols + 1) * sizeof *ind);
    double *val = malloc(((size_t)cols + 1) * sizeof *val);
    if (!ind || !val) {
        free(ind);
        free(val);
        return SO_ENOMEM;
    }
    glp_set_obj_name(lp, "budget");
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_rows(lp, (int)pr->n_jobs);
    int rc = SO_OK;
    for (size_t j = 0; j < pr->n_jobs && !rc; j++) {
        const so_pt_job *job = &pr->jobs[j];
        double fastest = INFINITY;
        int k = 0;
        for (int64_t ms = 1; ms <= job->map_tasks; ms++)
            for (int64_t rs = 1; rs <= job->reduce_tasks; rs++) {
                so_pt_eval e;
                so_pt_eval_slots(pr, j, ms, rs, &e);
                fastest = fmin(fastest, e.jtime);
                if (!(e.jtime <= bound))
                    continue;
                int col = glp_add_cols(lp, 1);
                char name[96];
                snprintf(name, sizeof name, "x_%zu_%lld_%lld", j, (long long)ms,
                         (long long)rs);
                glp_set_col_name(lp, col, name);
                glp_set_col_kind(lp, col, GLP_BV);
                glp_set_obj_coef(lp, col, e.budget);
                ind[++k] = col;
                val[k] = 1;
            }
        if (k == 0) {
            rc = so_error_setf(err, NULL, 0, 0, "deadline",
                               "job %zu (%s) takes at least %.17g s, over the makespan"
                               " bound %.17g s: the model has no solution",
                               j, job->name, fastest, bound);
            break;
        }
        char name[64];
        snprintf(name, sizeof name, "assign_%zu", j);
        glp_set_row_name(lp, (int)(j + 1), name);
        glp_set_mat_row(lp, (int)(j + 1), k, ind, val);
        glp_set_row_bnds(lp, (int)(j + 1), GLP_FX, 1, 1);
    }
    free(ind);
    free(val);
    return rc;
}
