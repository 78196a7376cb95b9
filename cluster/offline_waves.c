/*
 * offline_waves.c — slot-wave bounds for lp-bound (docs/offline.md, "The
 * slot waves").
 *
 * Attempts on a node never outnumber its slots, so each successful attempt
 * of a phase can be given a slot of its own (interval colouring). Take N
 * tasks of a phase that all end by some time t, on S slots. For q >= 1 with
 * q S + 1 <= N, some slot runs q + 1 of the q S + 1 longest of them
 * (pigeonhole), one after the other, each launched at a beat of its node at
 * or after the previous one's end; with Amdahl fraction 0 each holds its
 * slot at least its hold (cluster/offline_bound.c), so the last ends at
 * least the q + 1 smallest holds among those q S + 1, less the largest
 * slack of a hold over its task, after the first starts, which is no
 * earlier than the earliest submit among the tasks' jobs.
 *
 * One job (its maps, its first k maps, its reduces): so_cl_waves_of, in
 * offline_bound.c's job terms. Several jobs (the prefix waves): the k jobs
 * whose maps end first in a schedule form a k-subset J whose maps all end
 * by the k-th smallest map end, so that order statistic is at least the
 * smallest over k-subsets of the bound on J's maps together. Every
 * k-subset is enumerated (depth-first, each set's holds merged from its
 * parent's), for k = 2 up to where the merged holds would pass the budget:
 * on flex-cluster at 20 jobs (156 slots, 60 s maps; workload 0) the bound
 * passes the fluid level at k = 2 and 3 only, by about 11 and 4 s (the sum
 * bound rises 18 s), where a few maps a slot cannot all end together; from
 * about 5 maps a slot on it stays below.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/offline_waves.h"

double so_cl_waves_of(const double *pre, int n, double slots)
{
    double best = 0;
    long S = (long)slots;
    if (S <= 0)
        return 0;
    for (long q = 1; q * S + 1 <= n; q++) {
        long lo = n - 1 - q * S; /* ascending index of the (qS + 1)-th largest */
        best = fmax(best, pre[lo + q + 1] - pre[lo]);
    }
    return best;
}

typedef struct {
    int m, kmax;
    const double *const *holds;
    const int *n;
    const double *rel, *slack;
    double slots;
    double **merged; /* per depth: the set's holds, ascending */
    double *pre;     /* prefix sums of the deepest set's */
    double *P;
} walk;

static int merge(const double *a, int na, const double *b, int nb, double *out)
{
    int i = 0, j = 0, k = 0;
    while (i < na || j < nb)
        out[k++] = j >= nb || (i < na && a[i] <= b[j]) ? a[i++] : b[j++];
    return k;
}

/* Extends the set (holds `have`, len of them, earliest submit r, largest
 * slack sl, `size` jobs) by each job from `from` on. */
static void extend(walk *c, int size, int from, const double *have, int len, double r, double sl)
{
    for (int i = from; i < c->m; i++) {
        double *out = c->merged[size];
        int nl = merge(have, len, c->holds[i], c->n[i], out);
        double rr = fmin(r, c->rel[i]), ss = fmax(sl, c->slack[i]);
        if (size + 1 >= 2) {
            c->pre[0] = 0;
            for (int x = 0; x < nl; x++)
                c->pre[x + 1] = c->pre[x] + out[x];
            double v = rr + so_cl_waves_of(c->pre, nl, c->slots) - ss;
            c->P[size] = fmin(c->P[size], v);
        }
        if (size + 1 < c->kmax)
            extend(c, size + 1, i + 1, out, nl, rr, ss);
    }
}

static int cmp_int_desc(const void *a, const void *b)
{
    return *(const int *)b - *(const int *)a;
}

int so_cl_prefix_waves(int m, const double *const *holds, const int *n, const double *rel,
                       const double *slack, double slots, double budget, double *P)
{
    for (int k = 0; k < m; k++)
        P[k] = -INFINITY;
    if (m < 2 || !(slots >= 1))
        return 0;
    double total = 0;
    for (int i = 0; i < m; i++)
        total += n[i];
    /* kmax: the subsets of up to kmax jobs merge at most `budget` holds
     * (C(m, k) sets of k x the mean count each) */
    int kmax = 1;
    double cost = 0, sets = m;
    for (int k = 2; k <= m; k++) {
        sets = sets * (m - k + 1) / k;
        cost += sets * k * (total / m);
        if (cost > budget)
            break;
        kmax = k;
    }
    if (kmax < 2)
        return 0;
    /* buffers: a set of `size` + 1 jobs holds at most the size + 1 largest counts */
    int *big = malloc((size_t)m * sizeof *big);
    walk c = {m, kmax, holds, n, rel, slack, slots, calloc((size_t)kmax, sizeof(double *)),
              NULL, P};
    int rc = big && c.merged ? 0 : -1;
    long most = 0;
    if (!rc) {
        memcpy(big, n, (size_t)m * sizeof *big);
        qsort(big, (size_t)m, sizeof *big, cmp_int_desc);
        for (int d = 0; d < kmax && !rc; d++) {
            most += big[d];
            c.merged[d] = malloc((size_t)(most > 0 ? most : 1) * sizeof(double));
            rc = c.merged[d] ? 0 : -1;
        }
        c.pre = malloc((size_t)(most + 1) * sizeof *c.pre);
        rc = rc || !c.pre ? -1 : 0;
    }
    if (!rc) {
        for (int k = 0; k < m; k++)
            P[k] = INFINITY;
        extend(&c, 0, 0, NULL, 0, INFINITY, 0);
        for (int k = 0; k < m; k++) /* unexplored sizes: no bound; then running max */
            if (k == 0 || k >= kmax)
                P[k] = -INFINITY;
        for (int k = 1; k < m; k++)
            P[k] = fmax(P[k], P[k - 1]);
    }
    for (int d = 0; c.merged && d < kmax; d++)
        free(c.merged[d]);
    free(c.merged);
    free(c.pre);
    free(big);
    if (rc)
        for (int k = 0; k < m; k++)
            P[k] = -INFINITY;
    return rc;
}
