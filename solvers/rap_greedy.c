/* rap_greedy.c — convex minisum RAP by greedy marginal allocation (Wolf et
 * al., Middleware 2010, Section 3.2, the scheme attributed to Fox): start
 * every job at lo_j = max(m_j, 1) and give the spare slots one at a time to
 * the job whose next slot lowers sum_j F_j the most; a heap keeps the jobs
 * by their next gain. Exact for convex F_j (non-increasing gains). Stops
 * early when no slot has a positive gain. One slot per step is 10^9 steps
 * for 10^9 slots: the backend reads the clock every 65536 slots and
 * returns the allocation so far (feasible) at its time limit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "solvers/rap.h"
#include "solvers/rap_heap.h"
#include "solvers/common/deadline.h"

int so_rap_greedy_fill(const so_flex *f, int64_t *s, int64_t spare,
                      double floor)
{
    return so_rap_greedy_fill_until(f, s, spare, floor, 0);
}

int so_rap_greedy_fill_until(const so_flex *f, int64_t *s, int64_t spare,
                             double floor, double deadline)
{
    int rc = SO_OK;
    so_clock clock = SO_CLOCK_INIT(deadline, 16);
    so_heap h;
    if (so_heap_init(&h, f->n))
        return SO_ENOMEM;
    for (size_t j = 0; j < f->n; j++)
        if (s[j] < f->max[j] && so_rap_gain(f, j, s[j] + 1) >= floor)
            so_heap_set(&h, j, -so_rap_gain(f, j, s[j] + 1), j);
    while (spare > 0) {
        if (so_clock_over(&clock)) {
            rc = SO_TIMELIMIT;
            break;
        }
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
    return rc;
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
    double deadline = so_deadline_of(prm);
    const so_flex *f = so_flex_of(p);
    char why[256] = "";
    int rc = so_rap_convex_check(f, "rap-greedy", why, sizeof why);
    if (rc == SO_INFEASIBLE)
        return so_rap_report(f, r, SO_INFEASIBLE, NULL);
    if (rc) {
        so_result_set_message(r, "%s", why);
        return rc;
    }
    int64_t *s = malloc((f->n ? f->n : 1) * sizeof *s), spare = f->slots;
    if (!s)
        return SO_ENOMEM;
    for (size_t j = 0; j < f->n; j++) {
        s[j] = so_rap_lo(f, j);
        spare -= s[j];
    }
    rc = so_rap_greedy_fill_until(f, s, spare, -INFINITY, deadline);
    if (rc == SO_TIMELIMIT)
        so_result_set_message(r, "rap-greedy: time limit reached; the slots"
                                 " given so far");
    if (rc == SO_OK || rc == SO_TIMELIMIT)
        rc = so_rap_report(f, r, rc == SO_OK ? SO_OPTIMAL : SO_TIMELIMIT, s);
    free(s);
    return rc;
}
