/* pareto_exact_run.c — what the three exact pareto backends share: the
 * options (a size limit, buffer tuning of every job before the exact
 * search, the reference), the run and the report. */
#include "heuristics/pareto_heuristics.h"
#include "solvers/common/deadline.h"
#include "solvers/pareto_exact.h"

int so_pt_exact_run(const so_problem *p, const so_params *prm, so_result *r,
                    const so_option_doc *docs, const char *limit_key,
                    so_pt_exact_fn core)
{
    double deadline = so_deadline_of(prm);
    const so_pareto *pr = so_pareto_of(p);
    so_error err;
    so_error_clear(&err);
    double limit = 0;
    so_pareto *tuned = NULL;
    int rc = limit_key ? so_params_double(prm, docs, limit_key, 0, &limit, &err) : SO_OK;
    if (!rc)
        rc = so_pt_tuned_copy(pr, prm, docs, &tuned, &err);
    if (rc) {
        so_result_set_message(r, "option %s: %s", err.key, err.message);
        return rc;
    }
    so_pt_frontier f;
    so_pt_frontier_init(&f, pr->n_jobs);
    char msg[256] = "";
    so_params left = so_params_until(prm, deadline);
    rc = core(tuned ? tuned : pr, &left, limit, &f, msg, sizeof msg);
    if (msg[0])
        so_result_set_message(r, "%s", msg);
    if (rc == SO_OK || rc == SO_TIMELIMIT) {
        left = so_params_until(prm, deadline);
        int report = so_pt_report(p, &left, r, &f, 1);
        if (rc == SO_TIMELIMIT)
            so_result_set_status(r, SO_TIMELIMIT);
        rc = report ? report : rc;
    }
    so_pt_frontier_free(&f);
    so_pareto_free(tuned);
    return rc;
}
