/* rap_solve.c — the RAP method FLEX uses (Wolf et al., Middleware 2010,
 * Section 3.2: fast scheme for convex minisum, DP for non-convex minisum,
 * the threshold for minimax) and the glue that runs a RAP algorithm as a
 * backend of the "rap" problem kind. The greedy is chosen for convex
 * minisum when the spare slots are few (at most 4 J + 1024), bisection
 * otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include "solvers/rap.h"

int so_rap_solve(const so_flex *f, int64_t *s, char *why, size_t size)
{
    if (f->aggregate == SO_FLEX_MAX)
        return so_rap_minimax(f, s, why, size);
    if (!so_rap_convex(f))
        return so_rap_dp(f, s, why, size);
    int64_t spare = f->slots;
    for (size_t j = 0; j < f->n; j++)
        spare -= so_rap_lo(f, j);
    if (spare <= 4 * (int64_t)f->n + 1024)
        return so_rap_greedy(f, s, why, size);
    return so_rap_bisect(f, s, why, size);
}

int so_rap_backend(const so_problem *p, so_result *r, so_rap_fn alg)
{
    const so_flex *f = so_flex_of(p);
    int64_t *s = malloc((f->n ? f->n : 1) * sizeof *s);
    if (!s)
        return SO_ENOMEM;
    char why[256] = "";
    int rc = alg(f, s, why, sizeof why);
    if (rc == SO_OK)
        rc = so_rap_report(f, r, SO_OPTIMAL, s);
    else if (rc == SO_INFEASIBLE)
        rc = so_rap_report(f, r, SO_INFEASIBLE, NULL);
    else if (why[0])
        so_result_set_message(r, "%s", why);
    free(s);
    return rc;
}

int so_rap_auto_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)prm;
    return so_rap_backend(p, r, so_rap_solve);
}
