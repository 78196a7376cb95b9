/* flex_search.c — FLEX proper (Wolf et al., Middleware 2010, Section 3:
 * "flex creates a generic ordering and at most a modest number of specific
 * orderings, feeding each of them to mps. The final output is the best
 * solution mps found"), plus a local search over orders, the project's
 * addition (SPEC: the paper's < 0.1 % needs better orders than the RAP
 * order alone): first-improvement insertion moves (take the job at
 * position i, reinsert it at k), evaluated by MPS, started from every
 * candidate order in turn (multi-start) within one budget of evaluations,
 * a job-count cap and an optional wall-clock deadline. Orders are compared
 * by their objective, then by sum_j omega_j t_j, so that the search moves
 * on the plateaus of step metrics (tardy jobs, SLA) and of maxima. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "heuristics/flex.h"

void so_flex_options_init(so_flex_options *o)
{
    o->local_search = 1;
    o->ls_max_jobs = 200;
    o->ls_evals = 4000;
    o->deadline = 0;
}

/* An order's value and, to break ties on the plateaus of step metrics and
 * maxima, the secondary sum_j omega_j t_j (lexicographic comparison). */
typedef struct {
    double value, second;
} score;

static int evaluate(const so_flex *f, const size_t *order, double *c, score *out)
{
    int rc = so_flex_mps(f, order, 0, c, NULL, NULL);
    if (rc)
        return rc;
    out->value = so_flex_objective(f, c);
    out->second = 0;
    for (size_t j = 0; j < f->n; j++)
        out->second += so_flex_omega(f, j) * c[j];
    return SO_OK;
}

static int same(double a, double b)
{
    return a == b || (isfinite(a) && isfinite(b) &&
                      fabs(a - b) <= 1e-12 * (1.0 + fabs(b)));
}

static int better(score a, score b)
{
    if (!same(a.value, b.value))
        return a.value < b.value;
    return a.second < b.second && !same(a.second, b.second);
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

static int out_of_time(const so_flex_options *o)
{
    return o->deadline > 0 && so_now() > o->deadline;
}

/* First-improvement insertion moves from order (improved in place) while
 * *budget lasts. */
static int descend(const so_flex *f, const so_flex_options *o, size_t *order,
                   score *best, size_t *budget)
{
    size_t n = f->n;
    size_t *trial = malloc(n * sizeof *trial);
    double *c = malloc(n * sizeof *c);
    int rc = trial && c ? SO_OK : SO_ENOMEM, improved = 1;
    while (!rc && improved && *budget > 0 && !out_of_time(o)) {
        improved = 0;
        for (size_t i = 0; i < n && !improved && !rc && *budget > 0; i++)
            for (size_t k = 0; k < n && !improved && !rc && *budget > 0; k++) {
                if (k == i)
                    continue;
                move(order, n, i, k, trial);
                score sc;
                rc = evaluate(f, trial, c, &sc);
                (*budget)--;
                if (!rc && better(sc, *best)) {
                    memcpy(order, trial, n * sizeof *order);
                    *best = sc;
                    improved = 1;
                }
            }
    }
    free(trial);
    free(c);
    return rc;
}

int so_flex_best(const so_flex *f, const so_flex_options *o, size_t *order,
                 double *value, int *kind_out)
{
    size_t n = f->n, k = n ? n : 1;
    size_t *cand = malloc(SO_FLEX_NORDERS * k * sizeof *cand);
    double *c = malloc(k * sizeof *c);
    score sc[SO_FLEX_NORDERS], best = {INFINITY, INFINITY};
    int have[SO_FLEX_NORDERS] = {0}, rc = cand && c ? SO_OK : SO_ENOMEM, chosen = 0;
    for (int kind = SO_FLEX_ORDER_RAP; !rc && kind < SO_FLEX_NORDERS; kind++) {
        size_t *ord = cand + (size_t)kind * k;
        int same_as = so_flex_order_same_as(f, kind);
        int orc = SO_OK;
        if (same_as >= 0 && have[same_as])
            memcpy(ord, cand + (size_t)same_as * k, n * sizeof *ord);
        else
            orc = so_flex_order(f, kind, ord);
        if (orc == SO_INFEASIBLE || orc == SO_ENOMEM || orc == SO_EUNSUPPORTED)
            continue; /* no generic order (RAP too large or infeasible) */
        int twin = -1; /* an order already evaluated, equal to this one */
        for (int e = SO_FLEX_ORDER_RAP; !orc && twin < 0 && e < kind; e++)
            if (have[e] && !memcmp(ord, cand + (size_t)e * k, n * sizeof *ord))
                twin = e;
        if (twin >= 0)
            sc[kind] = sc[twin]; /* MPS is deterministic: same order, same score */
        else
            rc = orc ? orc : evaluate(f, ord, c, &sc[kind]);
        have[kind] = !rc;
    }
    int use_ls = o->local_search && n >= 2 && n <= o->ls_max_jobs;
    size_t budget = o->ls_evals;
    /* every order, then (multi-start) its local optimum; keep the best */
    for (int kind = SO_FLEX_ORDER_RAP; !rc && kind < SO_FLEX_NORDERS; kind++) {
        if (!have[kind])
            continue;
        size_t *ord = cand + (size_t)kind * k;
        if (use_ls && budget > 0)
            rc = descend(f, o, ord, &sc[kind], &budget);
        if (!rc && (!chosen || better(sc[kind], best))) {
            chosen = 1; /* the first order even when every value is +inf */
            best = sc[kind];
            memcpy(order, ord, n * sizeof *order);
            if (kind_out)
                *kind_out = kind;
        }
    }
    *value = best.value;
    free(cand);
    free(c);
    return rc;
}

int so_flex_allocate(const so_flex *f, const so_flex_options *opt,
                     int64_t *slots)
{
    so_flex_options def;
    if (!opt) {
        so_flex_options_init(&def);
        opt = &def;
    }
    char why[160];
    if (so_flex_validate(f, why, sizeof why))
        return SO_EINVAL;
    /* Minima that fill every slot leave MPS no slack to give in its first
     * interval, whatever the order: that interval is m_j (an epoch of an
     * overloaded cluster, where each job still learning its task time holds
     * one slot); no order is built or evaluated. */
    int64_t held = 0;
    for (size_t j = 0; j < f->n; j++)
        held += f->min[j];
    if (held >= f->slots) {
        for (size_t j = 0; j < f->n; j++)
            slots[j] = f->min[j];
        return SO_OK;
    }
    size_t n = f->n, *order = malloc((n ? n : 1) * sizeof *order);
    double *c = malloc((n ? n : 1) * sizeof *c), v;
    int rc = order && c ? so_flex_best(f, opt, order, &v, NULL) : SO_ENOMEM;
    if (!rc)
        rc = so_flex_mps(f, order, 0, c, slots, NULL);
    free(order);
    free(c);
    return rc;
}
