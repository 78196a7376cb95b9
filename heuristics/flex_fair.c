/* flex_fair.c — FAIR, the allocation layer of the Hadoop Fair Scheduler as
 * the baseline of Wolf et al. (Middleware 2010), Sections 1 and 4: every
 * active job gets its minimum m_j and the slack is shared by a waterline,
 * recomputed whenever a job completes (SPEC section 1).
 *
 * Choices where the paper is silent: slots are integers; the default
 * SO_FLEX_FAIR_LEVEL follows Hadoop's computeFairShares (equal weights):
 * s_j = min(M_j, max(m_j, r)) for the largest integer level r that fits, the
 * remaining slots one each to the jobs still below their maximum at that
 * level, in arrival order; SO_FLEX_FAIR_SLACK reads "slack water-filled
 * equally" literally: s_j = min(M_j, m_j + x). Within an interval the job
 * that finishes first ends it (ties: arrival order). */
#include <math.h>
#include <stdlib.h>
#include "heuristics/flex.h"

static int64_t share(const so_flex *f, size_t j, int mode, int64_t x)
{
    int64_t v = mode == SO_FLEX_FAIR_SLACK ? f->min[j] + x
                                           : (x > f->min[j] ? x : f->min[j]);
    return v < f->max[j] ? v : f->max[j];
}

/* Allocation of the active jobs (s[j] = 0 for the others). */
static void waterline(const so_flex *f, const unsigned char *active, int mode,
                      int64_t *s)
{
    int64_t lo = 0, hi = f->slots;
    while (lo < hi) { /* largest x with sum share(x) <= S */
        int64_t mid = lo + (hi - lo + 1) / 2, used = 0;
        for (size_t j = 0; j < f->n; j++)
            used += active[j] ? share(f, j, mode, mid) : 0;
        if (used <= f->slots)
            lo = mid;
        else
            hi = mid - 1;
    }
    int64_t spare = f->slots;
    for (size_t j = 0; j < f->n; j++) {
        s[j] = active[j] ? share(f, j, mode, lo) : 0;
        spare -= s[j];
    }
    for (size_t j = 0; j < f->n && spare > 0; j++)
        if (active[j] && share(f, j, mode, lo + 1) > s[j]) {
            s[j]++;
            spare--;
        }
}

int so_flex_fair(const so_flex *f, int mode, double *completion,
                 int64_t *first, so_flex_schedule *record)
{
    size_t n = f->n, k = n ? n : 1;
    double *rem = malloc(k * sizeof *rem);
    int64_t *s = malloc(k * sizeof *s);
    unsigned char *active = malloc(k);
    int rc = rem && s && active ? SO_OK : SO_ENOMEM;
    for (size_t j = 0; !rc && j < n; j++) {
        rem[j] = f->work[j];
        active[j] = 1;
    }
    double now = 0;
    for (size_t done = 0; !rc && done < n; done++) {
        waterline(f, active, mode, s);
        if (done == 0 && first)
            for (size_t j = 0; j < n; j++)
                first[j] = s[j];
        size_t next = n;
        double dt = INFINITY;
        for (size_t j = 0; j < n; j++)
            if (active[j] && s[j] > 0 && rem[j] / (double)s[j] < dt) {
                dt = rem[j] / (double)s[j];
                next = j;
            }
        if (next == n) {
            rc = SO_EBACKEND; /* no active job holds a slot: cannot happen */
            break;
        }
        if (record)
            rc = so_flex_schedule_add(record, now, now + dt, s);
        now += dt;
        for (size_t j = 0; j < n; j++)
            if (active[j])
                rem[j] = fmax(0.0, rem[j] - (double)s[j] * dt);
        active[next] = 0;
        completion[next] = now;
    }
    free(rem);
    free(s);
    free(active);
    return rc;
}
