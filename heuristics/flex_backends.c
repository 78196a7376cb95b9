/* flex_backends.c — the "flex" problem's heuristic backends (Wolf et al.,
 * Middleware 2010, Sections 3 and 4.1): flex (every order + local search,
 * best MPS schedule), flex-generic (the RAP completion order only), fifo
 * (MPS in arrival order with all minima 0, maxima kept: the paper's FIFO
 * variant) and fair (the Hadoop fair-scheduler waterline). */
#include <stdlib.h>
#include <string.h>
#include "heuristics/flex.h"

const so_option_doc so_flex_backend_options[] = {
    {"local_search", "1", "1: improve the best order by insertion moves; 0: off"},
    {"ls_max_jobs", "200", "no local search above this many jobs"},
    {"ls_evals", "4000", "at most this many MPS evaluations in the local search"},
    {NULL, NULL, NULL},
};

const so_option_doc so_flex_fair_options[] = {
    {"share", "level", "level: s_j = min(M_j, max(m_j, r)) (Hadoop's waterline);"
                       " slack: s_j = min(M_j, m_j + x) (slack split equally)"},
    {NULL, NULL, NULL},
};

int so_flex_flex_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    const so_flex *f = so_flex_of(p);
    so_flex_options o;
    so_flex_options_init(&o);
    long long ls, maxj, evals;
    so_error err;
    const so_option_doc *d = so_flex_backend_options;
    int rc = so_params_int(prm, d, "local_search", 1, &ls, &err);
    if (!rc)
        rc = so_params_int(prm, d, "ls_max_jobs", 200, &maxj, &err);
    if (!rc)
        rc = so_params_int(prm, d, "ls_evals", 4000, &evals, &err);
    if (rc || ls < 0 || ls > 1 || maxj < 0 || evals < 0) {
        so_result_set_message(r, "flex: local_search must be 0 or 1, ls_max_jobs"
                                 " and ls_evals non-negative integers");
        return SO_EINVAL;
    }
    o.local_search = (int)ls;
    o.ls_max_jobs = (size_t)maxj;
    o.ls_evals = (size_t)evals;
    if (prm->time_limit > 0)
        o.deadline = so_now() + prm->time_limit;
    size_t *order = malloc((f->n ? f->n : 1) * sizeof *order);
    double v;
    int kind = SO_FLEX_ORDER_RAP;
    rc = order ? so_flex_best(f, &o, order, &v, &kind) : SO_ENOMEM;
    if (!rc)
        rc = so_flex_report(f, r, SO_FEASIBLE, order, 0, -1);
    if (!rc)
        so_result_set_extra(r, "start_order", json_string(so_flex_order_name(kind)));
    free(order);
    return rc;
}

int so_flex_generic_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)prm;
    const so_flex *f = so_flex_of(p);
    size_t *order = malloc((f->n ? f->n : 1) * sizeof *order);
    int rc = order ? so_flex_order(f, SO_FLEX_ORDER_RAP, order) : SO_ENOMEM;
    if (rc == SO_INFEASIBLE) {
        so_result_set_message(r, "the RAP is infeasible (more jobs than"
                                 " slots once each needs one)");
        rc = SO_EUNSUPPORTED;
    } else if ((rc == SO_ENOMEM || rc == SO_EUNSUPPORTED) && order) {
        so_result_set_message(r, "the RAP is too large for its dynamic"
                                 " programme");
    }
    if (!rc)
        rc = so_flex_report(f, r, SO_FEASIBLE, order, 0, -1);
    free(order);
    return rc;
}

int so_flex_fifo_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)prm;
    const so_flex *f = so_flex_of(p);
    size_t *order = malloc((f->n ? f->n : 1) * sizeof *order);
    int rc = order ? so_flex_order(f, SO_FLEX_ORDER_ARRIVAL, order) : SO_ENOMEM;
    if (!rc)
        rc = so_flex_report(f, r, SO_FEASIBLE, order, 1, -1);
    free(order);
    return rc;
}

int so_flex_fair_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    const so_flex *f = so_flex_of(p);
    const char *share = so_params_str(prm, so_flex_fair_options, "share", "level");
    int mode = strcmp(share, "level") == 0   ? SO_FLEX_FAIR_LEVEL
               : strcmp(share, "slack") == 0 ? SO_FLEX_FAIR_SLACK
                                             : -1;
    if (mode < 0) {
        so_result_set_message(r, "fair: share must be 'level' or 'slack', found '%s'",
                              share);
        return SO_EINVAL;
    }
    return so_flex_report(f, r, SO_FEASIBLE, NULL, 0, mode);
}
