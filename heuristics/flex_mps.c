/* flex_mps.c — the Malleable Packing Scheme (Wolf et al., Middleware 2010,
 * Section 3.1, Fig. 3), event-driven. Each interval: every active job gets
 * m_j; the slack S - sum m_j goes, in priority order, min(slack, M_j - m_j)
 * to each job; the first active job to finish ends the interval (ties:
 * priority order, which leaves a zero-length interval).
 *
 * Implementation: when a job completes its slots return to the pool and
 * the pool only refills jobs at or after the fill pointer, so allocations
 * never decrease and the pointer only moves forward. Each job keeps its
 * remaining work at its last rate change and its finish time in an indexed
 * heap; total O(J log J) instead of O(J^2) for a direct replay. Only
 * jobs holding slots are in the heap (a job without slots never finishes
 * first): heap operations cost O(log S), not O(log J).
 *
 * Cut replays (issue 16, the project's addition: FLEX compares orders by
 * their MPS objective and keeps the best, so an order that provably loses
 * need not be replayed to its end): so_flex_mps_run with a finite bound,
 * for a metric whose penalty is omega_j t (response, weighted response,
 * stretch, makespan), stops as soon as a lower bound of the objective
 * exceeds the bound by a margin (SO_FLEX_MPS_CUT_MARGIN, relative and
 * absolute). The bound at time t, after the completions so far:
 *   sum aggregate: sum over completed jobs of their penalty (the same
 *     values the objective adds) + t x the omega of the jobs not completed
 *     (each completes at t or later) + for each job not yet given a slot
 *     (m_j = 0, after the fill pointer) omega_j C_j / M_j (it runs on at
 *     most M_j slots from t on);
 *   max aggregate: the largest penalty of a completed job.
 * The margin, 1e-7, is far above the rounding of these sums and of the
 * replay itself (relative errors of a few n x 2^-53 for n jobs), so a cut
 * order's objective exceeds the bound by more than so_flex_best's
 * tolerance of equal values: it loses to the bound's order whatever its
 * exact value. */
#include <math.h>
#include <stdlib.h>
#include "heuristics/flex.h"
#include "solvers/rap_heap.h"

struct so_flex_mps_ws {
    size_t cap;
    size_t *rank;
    int64_t *s;
    double *rem, *since, *omega, *tail;
    unsigned char *active;
    so_heap h;
};

typedef struct {
    const so_flex *f;
    const size_t *order;
    so_flex_mps_ws *w;
    int64_t pool;
    size_t ptr;
} mps;

void so_flex_mps_ws_free(so_flex_mps_ws *w)
{
    if (!w)
        return;
    free(w->rank);
    free(w->s);
    free(w->rem);
    free(w->since);
    free(w->omega);
    free(w->tail);
    free(w->active);
    so_heap_free(&w->h);
    free(w);
}

so_flex_mps_ws *so_flex_mps_ws_new(size_t n)
{
    so_flex_mps_ws *w = calloc(1, sizeof *w);
    size_t k = n ? n : 1;
    if (!w)
        return NULL;
    w->cap = n;
    w->rank = malloc(k * sizeof *w->rank);
    w->s = malloc(k * sizeof *w->s);
    w->rem = malloc(k * sizeof *w->rem);
    w->since = malloc(k * sizeof *w->since);
    w->omega = malloc(k * sizeof *w->omega);
    w->tail = malloc((k + 1) * sizeof *w->tail);
    w->active = malloc(k);
    if (so_heap_init(&w->h, n) || !w->rank || !w->s || !w->rem ||
        !w->since || !w->omega || !w->tail || !w->active) {
        so_flex_mps_ws_free(w);
        return NULL;
    }
    return w;
}

static void set_rate(mps *m, size_t j, int64_t s, double now)
{
    so_flex_mps_ws *w = m->w;
    w->rem[j] -= (double)w->s[j] * (now - w->since[j]);
    if (w->rem[j] < 0)
        w->rem[j] = 0;
    w->since[j] = now;
    w->s[j] = s;
    if (s > 0)
        so_heap_set(&w->h, j, now + w->rem[j] / (double)s, w->rank[j]);
    else if (w->h.pos[j] != (size_t)-1)
        so_heap_remove(&w->h, j);
}

static void fill(mps *m, double now)
{
    so_flex_mps_ws *w = m->w;
    while (m->ptr < m->f->n) {
        size_t j = m->order[m->ptr];
        if (!w->active[j]) {
            m->ptr++;
            continue;
        }
        int64_t give = m->f->max[j] - w->s[j];
        if (give > m->pool)
            give = m->pool;
        if (give > 0) {
            set_rate(m, j, w->s[j] + give, now);
            m->pool -= give;
        }
        if (w->s[j] < m->f->max[j])
            break;
        m->ptr++;
    }
}

/* 1 when a cut replay may bound f's objective: penalty omega_j t. */
static int cuttable(const so_flex *f)
{
    return f->metric == SO_FLEX_RESPONSE || f->metric == SO_FLEX_WRESPONSE ||
           f->metric == SO_FLEX_STRETCH || f->metric == SO_FLEX_MAKESPAN;
}

/* omega_j and, per order position i, the sum over positions >= i of
 * omega_j C_j / M_j of the jobs without a minimum (the tail bound). */
static void prepare_bound(mps *m)
{
    const so_flex *f = m->f;
    so_flex_mps_ws *w = m->w;
    w->tail[f->n] = 0;
    for (size_t i = f->n; i-- > 0;) {
        size_t j = m->order[i];
        w->omega[j] = f->metric == SO_FLEX_RESPONSE ? 1.0 /* so_flex_omega */
                                                    : so_flex_omega(f, j);
        double t = f->min[j] == 0 ? w->omega[j] * (f->work[j] / (double)f->max[j])
                                  : 0.0;
        w->tail[i] = w->tail[i + 1] + t;
    }
}

static int beyond(double lb, double bound)
{
    return isfinite(lb) &&
           lb * (1 - SO_FLEX_MPS_CUT_MARGIN) >
               bound + SO_FLEX_MPS_CUT_MARGIN * (1 + fabs(bound));
}

int so_flex_mps_run(so_flex_mps_ws *w, const so_flex *f, const size_t *order,
                    int zero_minima, double bound, double *completion,
                    int64_t *first, so_flex_schedule *record, int *cut)
{
    size_t n = f->n;
    mps m = {f, order, w, f->slots, 0};
    *cut = 0;
    if (n > w->cap)
        return SO_EINVAL;
    int bounded = !zero_minima && isfinite(bound) && cuttable(f);
    if (bounded)
        prepare_bound(&m);
    for (size_t i = 0; i < n; i++) {
        size_t j = order[i];
        w->rank[j] = i;
        w->active[j] = 1;
        w->rem[j] = f->work[j];
        w->since[j] = 0;
        w->s[j] = 0;
        set_rate(&m, j, zero_minima ? 0 : f->min[j], 0.0);
        m.pool -= w->s[j];
    }
    fill(&m, 0.0);
    if (first)
        for (size_t j = 0; j < n; j++)
            first[j] = w->s[j];
    double now = 0, done_sum = 0, done_max = -INFINITY, w_total = 0, w_done = 0;
    if (bounded)
        for (size_t j = 0; j < n; j++)
            w_total += w->omega[j];
    int rc = SO_OK;
    for (size_t done = 0; done < n && !rc; done++) {
        size_t j = so_heap_top(&w->h);
        double t = j == (size_t)-1 ? INFINITY : w->h.key[j];
        if (!isfinite(t)) {
            rc = SO_EBACKEND; /* no active job holds a slot: cannot happen */
            break;
        }
        if (t < now)
            t = now;
        if (record)
            rc = so_flex_schedule_add(record, now, t, w->s);
        now = t;
        so_heap_remove(&w->h, j);
        completion[j] = t;
        w->active[j] = 0;
        m.pool += w->s[j];
        w->s[j] = 0;
        fill(&m, now);
        if (!bounded || rc)
            continue;
        double p = w->omega[j] * t; /* so_flex_penalty of these metrics */
        double lb;
        if (f->aggregate == SO_FLEX_MAX) {
            done_max = p > done_max ? p : done_max;
            lb = done_max;
        } else {
            done_sum += p;
            w_done += w->omega[j];
            double w_left = w_total - w_done - 1e-9 * w_total;
            lb = done_sum + now * (w_left > 0 ? w_left : 0.0) +
                 (m.ptr + 1 < n ? w->tail[m.ptr + 1] : 0.0);
        }
        if (done + 1 < n && beyond(lb, bound)) {
            *cut = 1;
            break;
        }
    }
    so_heap_clear(&w->h); /* empty for the next run */
    return rc;
}

int so_flex_mps(const so_flex *f, const size_t *order, int zero_minima,
                double *completion, int64_t *first, so_flex_schedule *record)
{
    so_flex_mps_ws *w = so_flex_mps_ws_new(f->n);
    int cut;
    int rc = w ? so_flex_mps_run(w, f, order, zero_minima, INFINITY,
                                 completion, first, record, &cut)
               : SO_ENOMEM;
    so_flex_mps_ws_free(w);
    return rc;
}

double so_flex_mps_value(const so_flex *f, const size_t *order)
{
    double *c = malloc((f->n ? f->n : 1) * sizeof *c);
    double v = NAN;
    if (c && so_flex_mps(f, order, 0, c, NULL, NULL) == SO_OK)
        v = so_flex_objective(f, c);
    free(c);
    return v;
}
