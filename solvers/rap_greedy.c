/* rap_greedy.c — convex minisum RAP by greedy marginal allocation (Wolf et
 * al., Middleware 2010, Section 3.2, the scheme attributed to Fox): start
 * every job at lo_j = max(m_j, 1) and give the spare slots one at a time to
 * the job whose next slot lowers sum_j F_j the most; a heap keeps the jobs
 * by their next gain. Exact for convex F_j (non-increasing gains). Stops
 * early when no slot has a positive gain. */
#include <math.h>
#include <stdio.h>
#include "solvers/rap.h"
#include "solvers/rap_heap.h"

int so_rap_greedy_fill(const so_flex *f, int64_t *s, int64_t spare,
                      double floor)
{
    so_heap h;
    if (so_heap_init(&h, f->n))
        return SO_ENOMEM;
    for (size_t j = 0; j < f->n; j++)
        if (s[j] < f->max[j] && so_rap_gain(f, j, s[j] + 1) >= floor)
            so_heap_set(&h, j, -so_rap_gain(f, j, s[j] + 1), j);
    while (spare > 0) {
        size_t j = so_heap_top(&h);
        if (j == (size_t)-1 || !(-h.key[j] > 0))
            break;
        s[j]++;
        spare--;
        if (s[j] < f->max[j])
            so_heap_set(&h, j, -so_rap_gain(f, j, s[j] + 1), j);
        else
            so_heap_remove(&h, j);
    }
    so_heap_free(&h);
    return SO_OK;
}

int so_rap_convex_check(const so_flex *f, const char *solver, char *why,
                        size_t size)
{
    if (!so_rap_convex(f)) {
        snprintf(why, size, "%s needs a convex minisum metric (%s, %s)", solver,
                 so_flex_metric_name(f->metric),
                 f->aggregate == SO_FLEX_MAX ? "max" : "sum");
        return SO_EUNSUPPORTED;
    }
    return so_rap_feasible(f) ? SO_OK : SO_INFEASIBLE;
}

int so_rap_greedy(const so_flex *f, int64_t *s, char *why, size_t size)
{
    int rc = so_rap_convex_check(f, "rap-greedy", why, size);
    if (rc)
        return rc;
    int64_t spare = f->slots;
    for (size_t j = 0; j < f->n; j++) {
        s[j] = so_rap_lo(f, j);
        spare -= s[j];
    }
    return so_rap_greedy_fill(f, s, spare, -INFINITY);
}

int so_rap_greedy_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)prm;
    return so_rap_backend(p, r, so_rap_greedy);
}
