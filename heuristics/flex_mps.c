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
 * first): heap operations cost O(log S), not O(log J). */
#include <math.h>
#include <stdlib.h>
#include "heuristics/flex.h"
#include "solvers/rap_heap.h"

typedef struct {
    const so_flex *f;
    const size_t *order;
    size_t *rank;
    int64_t *s;
    double *rem, *since;
    unsigned char *active;
    so_heap h;
    int64_t pool;
    size_t ptr;
} mps;

static void set_rate(mps *m, size_t j, int64_t s, double now)
{
    m->rem[j] -= (double)m->s[j] * (now - m->since[j]);
    if (m->rem[j] < 0)
        m->rem[j] = 0;
    m->since[j] = now;
    m->s[j] = s;
    if (s > 0)
        so_heap_set(&m->h, j, now + m->rem[j] / (double)s, m->rank[j]);
    else if (m->h.pos[j] != (size_t)-1)
        so_heap_remove(&m->h, j);
}

static void fill(mps *m, double now)
{
    while (m->ptr < m->f->n) {
        size_t j = m->order[m->ptr];
        if (!m->active[j]) {
            m->ptr++;
            continue;
        }
        int64_t give = m->f->max[j] - m->s[j];
        if (give > m->pool)
            give = m->pool;
        if (give > 0) {
            set_rate(m, j, m->s[j] + give, now);
            m->pool -= give;
        }
        if (m->s[j] < m->f->max[j])
            break;
        m->ptr++;
    }
}

static void release(mps *m)
{
    free(m->rank);
    free(m->s);
    free(m->rem);
    free(m->since);
    free(m->active);
    so_heap_free(&m->h);
}

int so_flex_mps(const so_flex *f, const size_t *order, int zero_minima,
                double *completion, int64_t *first, so_flex_schedule *record)
{
    size_t n = f->n, k = n ? n : 1;
    mps m = {f, order, malloc(k * sizeof(size_t)), malloc(k * sizeof(int64_t)),
             malloc(k * sizeof(double)), malloc(k * sizeof(double)),
             malloc(k), {0}, f->slots, 0};
    if (so_heap_init(&m.h, n) || !m.rank || !m.s || !m.rem || !m.since ||
        !m.active) {
        release(&m);
        return SO_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        size_t j = order[i];
        m.rank[j] = i;
        m.active[j] = 1;
        m.rem[j] = f->work[j];
        m.since[j] = 0;
        m.s[j] = 0;
        set_rate(&m, j, zero_minima ? 0 : f->min[j], 0.0);
        m.pool -= m.s[j];
    }
    fill(&m, 0.0);
    if (first)
        for (size_t j = 0; j < n; j++)
            first[j] = m.s[j];
    double now = 0;
    int rc = SO_OK;
    for (size_t done = 0; done < n && !rc; done++) {
        size_t j = so_heap_top(&m.h);
        double t = j == (size_t)-1 ? INFINITY : m.h.key[j];
        if (!isfinite(t)) {
            rc = SO_EBACKEND; /* no active job holds a slot: cannot happen */
            break;
        }
        if (t < now)
            t = now;
        if (record)
            rc = so_flex_schedule_add(record, now, t, m.s);
        now = t;
        so_heap_remove(&m.h, j);
        completion[j] = t;
        m.active[j] = 0;
        m.pool += m.s[j];
        m.s[j] = 0;
        fill(&m, now);
    }
    release(&m);
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
