/* flex_search.c — FLEX proper (Wolf et al., Middleware 2010, Section 3:
 * "flex creates a generic ordering and at most a modest number of specific
 * orderings, feeding each of them to mps. The final output is the best
 * solution mps found"), plus a local search over orders, the project's
 * addition (SPEC: the paper's < 0.1 % needs better orders than the RAP
 * order alone): first-improvement insertion moves (take the job at
 * position i, reinsert it at k), evaluated by MPS, within a budget of
 * evaluations, a job-count cap and an optional wall-clock deadline. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "heuristics/flex.h"

void so_flex_options_init(so_flex_options *o)
{
    o->local_search = 1;
    o->ls_max_jobs = 200;
    o->ls_evals = 5000;
    o->deadline = 0;
}

static int better(double v, double best)
{
    return v < best - 1e-12 * (1.0 + fabs(best));
}

/* trial = order with the job at i moved to position k. */
static void move(const size_t *order, size_t n, size_t i, size_t k, size_t *trial)
{
    memcpy(trial, order, n * sizeof *trial);
    size_t job = trial[i];
    if (i < k)
        memmove(trial + i, trial + i + 1, (k - i) * sizeof *trial);
    else
        memmove(trial + k + 1, trial + k, (i - k) * sizeof *trial);
    trial[k] = job;
}

size_t so_flex_local_search(const so_flex *f, const so_flex_options *o,
                            size_t *order, double *value)
{
    size_t n = f->n, evals = 0;
    if (!o->local_search || n < 2 || n > o->ls_max_jobs)
        return 0;
    size_t *trial = malloc(n * sizeof *trial);
    if (!trial)
        return 0;
    int improved = 1;
    while (improved && evals < o->ls_evals) {
        improved = 0;
        for (size_t i = 0; i < n && !improved && evals < o->ls_evals; i++)
            for (size_t k = 0; k < n && !improved && evals < o->ls_evals; k++) {
                if (k == i || (o->deadline > 0 && so_now() > o->deadline))
                    continue;
                move(order, n, i, k, trial);
                double v = so_flex_mps_value(f, trial);
                evals++;
                if (!isnan(v) && better(v, *value)) {
                    memcpy(order, trial, n * sizeof *order);
                    *value = v;
                    improved = 1;
                }
            }
        if (o->deadline > 0 && so_now() > o->deadline)
            break;
    }
    free(trial);
    return evals;
}

int so_flex_best(const so_flex *f, const so_flex_options *o, size_t *order,
                 double *value)
{
    size_t n = f->n;
    size_t *cand = malloc((n ? n : 1) * sizeof *cand);
    if (!cand)
        return SO_ENOMEM;
    *value = INFINITY;
    int found = 0;
    for (int kind = SO_FLEX_ORDER_RAP; kind < SO_FLEX_NORDERS; kind++) {
        int rc = so_flex_order(f, kind, cand);
        if (rc == SO_INFEASIBLE || rc == SO_ENOMEM || rc == SO_EUNSUPPORTED)
            continue; /* no generic order (RAP too large or infeasible) */
        double v = rc ? NAN : so_flex_mps_value(f, cand);
        if (rc || isnan(v)) {
            free(cand);
            return rc ? rc : SO_ENOMEM;
        }
        if (!found || better(v, *value)) {
            memcpy(order, cand, n * sizeof *order);
            *value = v;
            found = 1;
        }
    }
    free(cand);
    so_flex_local_search(f, o, order, value);
    return SO_OK;
}

int so_flex_allocate(const so_flex *f, const so_flex_options *opt,
                     int64_t *slots)
{
    so_flex_options def;
    if (!opt) {
        so_flex_options_init(&def);
        opt = &def;
    }
    size_t n = f->n, *order = malloc((n ? n : 1) * sizeof *order);
    double *c = malloc((n ? n : 1) * sizeof *c), v;
    int rc = order && c ? so_flex_best(f, opt, order, &v) : SO_ENOMEM;
    if (!rc)
        rc = so_flex_mps(f, order, 0, c, slots, NULL);
    free(order);
    free(c);
    return rc;
}
