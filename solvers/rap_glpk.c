/* rap_glpk.c — the RAP as a MILP solved by GLPK (SPEC section 1: "a GLPK
 * model of the RAP (one binary per job and slot count) is the exact
 * cross-check"); the model is formulations/rap.c's so_rap_build_glpk.
 * Reports GLPK's bound and honours the time limit, which building the
 * model counts against. */
#include <stdlib.h>
#include "formulations/rap.h"
#include "solvers/common/deadline.h"
#include "solvers/glpk_milp.h"

int so_rap_glpk_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    double deadline = so_deadline_of(prm);
    const so_flex *f = so_flex_of(p);
    if (!so_rap_feasible(f))
        return so_rap_report(f, r, SO_INFEASIBLE, NULL);
    so_error err;
    so_error_clear(&err);
    glp_prob *lp = glp_create_prob();
    int rc = so_rap_build_glpk_until(f, lp, deadline, &err);
    if (rc == SO_TIMELIMIT) {
        glp_delete_prob(lp);
        so_result_set_message(r, "rap-glpk: time limit reached while building"
                                 " the model");
        return so_rap_report(f, r, SO_TIMELIMIT, NULL);
    }
    if (rc) {
        so_result_set_message(r, "%s", err.message);
        glp_delete_prob(lp);
        return rc;
    }
    so_milp_outcome out;
    so_milp_solve_until(lp, deadline, NULL, &out);
    int64_t *s = NULL;
    if (out.status < 0) {
        so_result_set_message(r, "GLPK failed");
        rc = SO_EBACKEND;
    } else if (out.has_solution && !(s = calloc(f->n ? f->n : 1, sizeof *s))) {
        rc = SO_ENOMEM;
    } else {
        /* columns: [z,] then x_{j,s} for each job in order of s */
        int c = 1 + (f->aggregate == SO_FLEX_MAX);
        for (size_t j = 0; s && j < f->n; j++)
            for (int64_t v = so_rap_lo(f, j); v <= f->max[j]; v++, c++)
                if (glp_mip_col_val(lp, c) > 0.5)
                    s[j] = v;
        rc = so_rap_report(f, r, out.status, s);
        if (!rc && out.has_bound)
            so_result_set_bound(r, out.bound);
    }
    free(s);
    if (!out.lp_lost)
        glp_delete_prob(lp);
    return rc;
}
