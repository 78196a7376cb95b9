/* flex_moore.c — a Moore-Hodgson order for the deadline metrics (the
 * project's metric-specific order for tardy jobs, tardiness and SLA; the
 * paper omits its own, Wolf et al., Middleware 2010, Section 3.2).
 * Moore and Hodgson's rule for 1||sum U_j, replayed through MPS: start
 * from earliest-due-date order; while some kept job completes after its
 * due date (d_j, or the first SLA step), move the kept job with the
 * largest C_j / w_j among those up to the first late one in the order to
 * the back (the rejected jobs keep EDD order among themselves). At most
 * J MPS runs, so it is built for at most SO_FLEX_MOORE_MAX_JOBS jobs and
 * for those metrics only; otherwise it is plain EDD. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "heuristics/flex.h"

#define SO_FLEX_MOORE_MAX_JOBS 200

static double due(const so_flex *f, size_t j)
{
    if (f->metric == SO_FLEX_SLA)
        return f->sla_start[j + 1] > f->sla_start[j]
                   ? f->sla_deadline[f->sla_start[j]] : INFINITY;
    return f->deadline[j];
}

int so_flex_order_moore_is_edd(const so_flex *f)
{
    int deadlines = f->metric == SO_FLEX_TARDY || f->metric == SO_FLEX_WTARDY ||
                    f->metric == SO_FLEX_TARDINESS ||
                    f->metric == SO_FLEX_WTARDINESS || f->metric == SO_FLEX_SLA;
    return !deadlines || f->n > SO_FLEX_MOORE_MAX_JOBS || f->n < 2;
}

int so_flex_order_moore(const so_flex *f, size_t *order)
{
    size_t n = f->n;
    int rc = so_flex_order(f, SO_FLEX_ORDER_EDD, order);
    if (rc || so_flex_order_moore_is_edd(f))
        return rc;
    size_t *kept = malloc(n * sizeof *kept), *out = malloc(n * sizeof *out);
    double *c = malloc(n * sizeof *c);
    if (!kept || !out || !c) {
        free(kept);
        free(out);
        free(c);
        return SO_ENOMEM;
    }
    size_t nk = n, nout = 0;
    memcpy(kept, order, n * sizeof *kept);
    for (;;) {
        memcpy(order, kept, nk * sizeof *order);
        memcpy(order + nk, out, nout * sizeof *order);
        rc = so_flex_mps(f, order, 0, c, NULL, NULL);
        size_t late = nk;
        for (size_t i = 0; !rc && i < nk && late == nk; i++) {
            double d = due(f, kept[i]);
            if (c[kept[i]] > d + SO_FLEX_EPS * (1.0 + fabs(d)))
                late = i;
        }
        if (rc || late == nk)
            break;
        size_t worst = 0;
        double key = -1;
        for (size_t i = 0; i <= late; i++) {
            size_t j = kept[i];
            double w = so_flex_omega(f, j), k = w > 0 ? f->work[j] / w : INFINITY;
            if (k > key) {
                key = k;
                worst = i;
            }
        }
        size_t j = kept[worst];
        memmove(kept + worst, kept + worst + 1, (nk - worst - 1) * sizeof *kept);
        nk--;
        size_t at = nout; /* rejected jobs in EDD order */
        while (at > 0 && due(f, out[at - 1]) > due(f, j))
            at--;
        memmove(out + at + 1, out + at, (nout - at) * sizeof *out);
        out[at] = j;
        nout++;
    }
    free(kept);
    free(out);
    free(c);
    return rc;
}
