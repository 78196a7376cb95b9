/* kp_glpk.c — the 0-1 knapsack as a MILP solved by GLPK's branch-and-cut
 * (the model of formulations/knapsack.c: one binary per item, one capacity
 * row). Honours the time limit; reports GLPK's best bound. Option
 * cuts=none|all|cover,mir,clique,gomory turns on GLPK's cutting planes:
 * subset-sum-like instances (Pisinger's f8) need MIR cuts to be proved, but
 * with coefficients near 1e9 GLPK's cuts lose exactness, so the default is
 * plain branch-and-bound.
 * GLPK works in doubles with relative tolerances (1e-7 bounds and
 * objective, 1e-5 integrality): once profit or weight totals pass
 * SO_KP_GLPK_EXACT_LIMIT it can miss the optimum by a unit of profit (totals
 * of 3e8) or ignore items whose efficiency is below 1e-7 (answer 0 for
 * profits 1 and weights 2.5e7), so beyond that the answer is reported as
 * feasible, not optimal, and without a bound. Its solution is checked in
 * exact integers: one over the capacity (a row within GLPK's tolerance,
 * e.g. weights 2.5e6 + 2.5e6+1 against 5e6) loses its least efficient items
 * and is reported the same way.
 * With cover cuts GLPK solves the LP relaxation before branch-and-bound
 * (solvers/glpk_milp.c); it starts from Dantzig's optimal basis (items by
 * efficiency at 1 up to the break item, which is basic), which GLPK's own
 * simplex takes 0.5-1 s to find on 10,000 items. */
#include <math.h>
#include <stdlib.h>
#include "formulations/knapsack.h"
#include "solvers/glpk_milp.h"

const so_option_doc so_kp_glpk_options[] = {
    {"cuts", "none", "GLPK cutting planes: none, all, or a list of cover,mir,clique,gomory"},
    {NULL, NULL, NULL},
};

#define SO_KP_GLPK_EXACT_LIMIT 1e7

static int fits(const so_kp *kp, const unsigned char *x)
{
    int64_t w;
    so_kp_value(kp, x, &w);
    return w <= kp->capacity;
}

/* Drops the least efficient chosen items until x fits. */
static int drop_until_fits(const so_kp *kp, unsigned char *x)
{
    size_t *order = so_kp_order(kp);
    if (!order)
        return SO_ENOMEM;
    int64_t w;
    so_kp_value(kp, x, &w);
    for (size_t k = kp->n; k-- > 0 && w > kp->capacity;)
        if (x[order[k]]) {
            x[order[k]] = 0;
            w -= kp->weight[order[k]];
        }
    free(order);
    return SO_OK;
}

/* Dantzig's basis of the LP relaxation: by efficiency, items that fit
 * whole at their upper bound, the break item basic (or the capacity row,
 * when every item fits), the rest at 0. */
static int dantzig_basis(const so_kp *kp, glp_prob *lp)
{
    size_t *order = so_kp_order(kp);
    if (!order)
        return SO_ENOMEM;
    double room = (double)kp->capacity;
    int basic = 0;
    for (size_t k = 0; k < kp->n; k++) {
        int j = (int)order[k] + 1;
        double w = (double)kp->weight[order[k]];
        if (!basic && w <= room) {
            room -= w;
            glp_set_col_stat(lp, j, GLP_NU);
        } else if (!basic) {
            basic = j;
            glp_set_col_stat(lp, j, GLP_BS);
        } else {
            glp_set_col_stat(lp, j, GLP_NL);
        }
    }
    glp_set_row_stat(lp, 1, basic ? GLP_NU : GLP_BS);
    free(order);
    return SO_OK;
}

int so_kp_glpk_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    const so_kp *kp = so_kp_of(p);
    int cuts;
    if (so_milp_parse_cuts(so_params_str(prm, so_kp_glpk_options, "cuts", "none"),
                           &cuts)) {
        so_result_set_message(r, "cuts: expected none, all or a list of"
                                 " cover,mir,clique,gomory");
        return SO_EINVAL;
    }
    glp_prob *lp = glp_create_prob();
    int rc = so_knapsack_formulation.build_glpk(kp, lp, NULL);
    int warm = (cuts & SO_CUTS_COVER) && kp->n > 0;
    if (!rc && warm)
        rc = dantzig_basis(kp, lp);
    if (rc) {
        glp_delete_prob(lp);
        return rc;
    }
    so_milp_outcome out;
    so_milp_solve_opt(lp, prm, &(so_milp_options){cuts, 0, warm}, &out);
    if (out.status < 0) {
        if (!out.lp_lost)
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
    int status = out.status, has_bound = out.has_bound;
    const char *why = NULL;
    double total_p = 0, total_w = 0;
    for (size_t i = 0; i < kp->n; i++)
        if (kp->weight[i] <= kp->capacity) { /* the others are never taken */
            total_p += (double)kp->profit[i];
            total_w += (double)kp->weight[i];
        }
    if (total_p > SO_KP_GLPK_EXACT_LIMIT || total_w > SO_KP_GLPK_EXACT_LIMIT)
        why = "totals exceed 1e7: GLPK's floating-point tolerances cannot"
              " certify optimality";
    if (x && !fits(kp, x)) {
        rc = drop_until_fits(kp, x);
        why = "GLPK's solution exceeded the capacity within its tolerance"
              " (repaired)";
    }
    if (why) {
        status = status == SO_OPTIMAL ? SO_FEASIBLE : status;
        has_bound = 0;
        so_result_set_message(r, "%s; use kp-dp or kp-bnb", why);
    }
    if (!rc)
        so_kp_report(kp, r, status, x, has_bound, bound);
    free(x);
    glp_delete_prob(lp);
    return rc;
}
