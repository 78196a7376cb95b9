/* rap.c — the RAP as its own problem kind ("rap"): cost functions, value,
 * reporting and the GLPK model (Wolf et al., Middleware 2010, Section 3.2;
 * SPEC section 1). A job may not take 0 slots in the RAP (its completion
 * time would be infinite), so its lower bound is max(m_j, 1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "formulations/flex_json.h"
#include "formulations/rap.h"

int64_t so_rap_lo(const so_flex *f, size_t j)
{
    return f->min[j] > 1 ? f->min[j] : 1;
}

double so_rap_cost(const so_flex *f, size_t j, int64_t s)
{
    return so_flex_penalty(f, j, f->work[j] / (double)s);
}

int so_rap_convex(const so_flex *f)
{
    return f->aggregate == SO_FLEX_SUM && f->metric != SO_FLEX_TARDY &&
           f->metric != SO_FLEX_WTARDY && f->metric != SO_FLEX_SLA;
}

int so_rap_feasible(const so_flex *f)
{
    int64_t sum = 0;
    for (size_t j = 0; j < f->n; j++)
        sum += so_rap_lo(f, j);
    return sum <= f->slots;
}

double so_rap_value(const so_flex *f, const int64_t *s)
{
    double v = f->aggregate == SO_FLEX_MAX ? -INFINITY : 0.0;
    for (size_t j = 0; j < f->n; j++) {
        double c = so_rap_cost(f, j, s[j]);
        v = f->aggregate == SO_FLEX_MAX ? fmax(v, c) : v + c;
    }
    return f->n ? v : 0.0;
}

int so_rap_report(const so_flex *f, so_result *r, int status, const int64_t *s)
{
    so_result_set_status(r, status);
    if (!s)
        return SO_OK;
    json_t *slots = json_array(), *done = json_array(), *sol = json_object();
    if (!slots || !done || !sol) {
        json_decref(slots);
        json_decref(done);
        json_decref(sol);
        return SO_ENOMEM;
    }
    for (size_t j = 0; j < f->n; j++) {
        json_array_append_new(slots, json_integer((json_int_t)s[j]));
        json_array_append_new(done, json_real(f->work[j] / (double)s[j]));
    }
    json_object_set_new(sol, "slots", slots);
    json_object_set_new(sol, "completion", done);
    so_result_set_objective(r, so_rap_value(f, s));
    if (status == SO_OPTIMAL)
        so_result_set_bound(r, so_rap_value(f, s));
    so_result_set_solution(r, sol);
    return SO_OK;
}

int so_rap_build_glpk(const void *data, glp_prob *lp, so_error *err)
{
    return so_rap_build_glpk_until(data, lp, 0, err);
}

int so_rap_build_glpk_until(const so_flex *f, glp_prob *lp, double deadline,
                            so_error *err)
{
    int minimax = f->aggregate == SO_FLEX_MAX;
    size_t cols = minimax;
    for (size_t j = 0; j < f->n; j++)
        if (f->max[j] >= so_rap_lo(f, j))
            cols += (size_t)(f->max[j] - so_rap_lo(f, j) + 1);
    if (cols > SO_RAP_GLPK_MAX_COLS) {
        so_error_setf(err, NULL, 0, 0, NULL, "the RAP model would have %zu"
                      " columns (limit %d)", cols, SO_RAP_GLPK_MAX_COLS);
        return SO_ENOMEM;
    }
    glp_set_obj_dir(lp, GLP_MIN);
    glp_set_obj_name(lp, minimax ? "max_penalty" : "sum_penalty");
    int cap = glp_add_rows(lp, 1);
    glp_set_row_name(lp, cap, "slots");
    glp_set_row_bnds(lp, cap, GLP_UP, 0.0, (double)f->slots);
    int z = 0;
    if (minimax) {
        z = glp_add_cols(lp, 1);
        glp_set_col_name(lp, z, "z");
        glp_set_col_bnds(lp, z, GLP_FR, 0.0, 0.0);
        glp_set_obj_coef(lp, z, 1.0);
    }
    size_t width = 2;
    for (size_t j = 0; j < f->n; j++)
        if (f->max[j] - so_rap_lo(f, j) + 2 > (int64_t)width)
            width = (size_t)(f->max[j] - so_rap_lo(f, j) + 2);
    int *ind = malloc((width + 1) * sizeof *ind);
    double *val = malloc((width + 1) * sizeof *val);
    if (!ind || !val) {
        free(ind);
        free(val);
        return SO_ENOMEM;
    }
    for (size_t j = 0; j < f->n; j++) {
        int one = glp_add_rows(lp, 1), link = 0, k = 0;
        char name[48];
        snprintf(name, sizeof name, "one_%zu", j);
        glp_set_row_name(lp, one, name);
        glp_set_row_bnds(lp, one, GLP_FX, 1.0, 1.0);
        if (minimax) {
            link = glp_add_rows(lp, 1);
            snprintf(name, sizeof name, "max_%zu", j);
            glp_set_row_name(lp, link, name);
            glp_set_row_bnds(lp, link, GLP_LO, 0.0, 0.0);
        }
        for (int64_t s = so_rap_lo(f, j); s <= f->max[j]; s++) {
            if (deadline > 0 && !(s & 1023) && so_now() >= deadline) {
                free(ind);
                free(val);
                return SO_TIMELIMIT;
            }
            int c = glp_add_cols(lp, 1);
            double cost = so_rap_cost(f, j, s);
            snprintf(name, sizeof name, "x_%zu_%lld", j, (long long)s);
            glp_set_col_name(lp, c, name);
            glp_set_col_kind(lp, c, GLP_BV);
            glp_set_obj_coef(lp, c, minimax ? 0.0 : cost);
            int ci[3] = {0, cap, one};
            double cv[3] = {0, (double)s, 1.0};
            glp_set_mat_col(lp, c, 2, ci, cv);
            ind[++k] = c;
            val[k] = -cost;
        }
        if (minimax) {
            ind[++k] = z;
            val[k] = 1.0;
            glp_set_mat_row(lp, link, k, ind, val);
        }
    }
    free(ind);
    free(val);
    return SO_OK;
}

const so_formulation so_rap_formulation = {
    .name = "rap",
    .description = "FLEX's moldable resource allocation problem: one slot count"
                   " per job minimising sum or max of F_j(s_j)",
    .sense = SO_MINIMIZE,
    .read_json = so_flex_read_json,
    .to_json = so_flex_to_json,
    .free_data = so_flex_free_data,
    .build_glpk = so_rap_build_glpk,
};
