/* solve.c — running a backend on a problem: checks, timing, names. */
#include <stdio.h>
#include <string.h>
#include "solvers/common/result_internal.h"

int so_solve(const so_backend *b, const so_problem *p, const so_params *prm,
             so_result **out, so_error *err)
{
    if (out)
        *out = NULL;
    if (!b || !p || !out)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "so_solve: NULL %s", !b ? "backend" : !p ? "problem"
                                                                  : "result pointer");
    so_params defaults;
    if (!prm) {
        so_params_init(&defaults);
        prm = &defaults;
    }
    *out = NULL;
    so_error_clear(err);
    if (strcmp(b->problem, so_problem_kind(p)) != 0)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "backend '%s' solves '%s' problems, not '%s'",
                             b->name, b->problem, so_problem_kind(p));
    char what[96];
    snprintf(what, sizeof what, "backend '%s'", b->name);
    int rc = so_params_check(prm, b->options, what, err);
    if (rc)
        return rc;
    so_result *r = so_result_new();
    if (!r)
        return SO_ENOMEM;
    snprintf(r->problem, sizeof r->problem, "%s", b->problem);
    snprintf(r->instance, sizeof r->instance, "%s", so_problem_name(p));
    snprintf(r->backend, sizeof r->backend, "%s", b->name);
    r->exact = b->exact;
    double t0 = so_now();
    rc = b->solve(p, prm, r);
    r->seconds = so_now() - t0;
    if (rc < 0) {
        const char *msg = r->message[0] ? r->message : so_status_str(rc);
        size_t len = strlen(b->name);
        int named = !strncmp(msg, b->name, len) && msg[len] == ':';
        if (err)
            so_error_setf(err, NULL, 0, 0, NULL, "%s%s%s", named ? "" : b->name,
                          named ? "" : ": ", msg);
        so_result_free(r);
        return rc;
    }
    if (rc > 0)
        r->status = rc;
    *out = r;
    return r->status;
}
