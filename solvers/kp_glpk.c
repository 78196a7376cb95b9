/* kp_glpk.c — the 0-1 knapsack as a MILP solved by GLPK's branch-and-cut
 * (the model of formulations/knapsack.c: one binary per item, one capacity
 * row). Honours the time limit; reports GLPK's best bound. */
#include <math.h>
#include <stdlib.h>
#include "formulations/knapsack.h"
#include "solvers/glpk_milp.h"

int so_kp_glpk_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    const so_kp *kp = so_kp_of(p);
    glp_prob *lp = glp_create_prob();
    int rc = so_knapsack_formulation.build_glpk(kp, lp, NULL);
    if (rc) {
        glp_delete_prob(lp);
        return rc;
    }
    so_milp_outcome out;
    so_milp_solve(lp, prm, &out);
    if (out.status < 0) {
        glp_delete_prob(lp);
        so_result_set_message(r, "GLPK failed");
        return SO_EBACKEND;
    }
    unsigned char *x = NULL;
    if (out.has_solution) {
        x = calloc(kp->n ? kp->n : 1, 1);
        if (!x) {
            glp_delete_prob(lp);
            return SO_ENOMEM;
        }
        for (size_t i = 0; i < kp->n; i++)
            x[i] = glp_mip_col_val(lp, (int)i + 1) > 0.5;
    }
    double s = so_kp_scale(kp);
    /* profits are integers once scaled: the bound can be rounded down */
    int64_t bound = out.has_bound ? (int64_t)floor(out.bound * s + 1e-6) : 0;
    so_kp_report(kp, r, out.status, x, out.has_bound, bound);
    free(x);
    glp_delete_prob(lp);
    return SO_OK;
}
