/* harness_below_bound.c — a simulated policy below a bound on its own
 * instance is impossible: the bound (lower-bound, lp-bound, offline-opt's
 * proved value or its bound at the limit) holds for every schedule the
 * model can produce (docs/offline.md). Such a pair means the bound does not
 * hold for that cell's options or the simulator is wrong; bench and report
 * say so on stderr (so_harness_warn) instead of printing a ratio below 1
 * as if a policy had beaten the optimum. Pairs are cells of problem "sim"
 * on the same instance (hash) and repetition, stored under the same metric
 * (extras "metric"; offline-opt bounds the mean response only);
 * lower-bound's cell of repetition 0 also bounds the other repetitions (it
 * reads no seed), lp-bound's and offline-opt's do not (they hold for the
 * heartbeat phases of their cell's seed, docs/offline.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/harness/harness.h"

#define TOL 1e-9

/* The metric a sim cell's objective measures (extras "metric"). */
static void metric_of(const so_hrow *r, char *out, size_t size)
{
    json_t *e = r->extras ? json_loads(r->extras, 0, NULL) : NULL;
    const char *m = json_string_value(json_object_get(e, "metric"));
    snprintf(out, size, "%s", m ? m : "mean_response");
    json_decref(e);
}

/* The lower bound a sim cell proves, under its own metric, on every
 * schedule of its instance, or NAN: a bound cell's value (per-job bounds:
 * mean, p95, max and makespan alike); offline-opt's proved optimum or its
 * bound at the limit (extras "offline": optimal for the mean only). */
static double bound_of(const so_hrow *r, const char *metric)
{
    if (!strcmp(r->status, "bound"))
        return r->objective;
    if (strcmp(metric, "mean_response"))
        return NAN;
    json_t *e = r->extras ? json_loads(r->extras, 0, NULL) : NULL;
    json_t *off = json_object_get(e, "offline");
    double lb = NAN;
    if (off && json_is_true(json_object_get(off, "proved")))
        lb = r->objective;
    else if (off && json_is_number(json_object_get(off, "bound_mean")))
        lb = json_number_value(json_object_get(off, "bound_mean"));
    json_decref(e);
    return lb;
}

/* Whether a bound cell holds for every seed: lower-bound's (status
 * "bound" without lp-bound's extras "bound"; a policy may name either). */
static int seed_free(const so_hrow *r)
{
    if (strcmp(r->status, "bound"))
        return 0;
    json_t *e = r->extras ? json_loads(r->extras, 0, NULL) : NULL;
    int free_of_seed = !json_object_get(e, "bound");
    json_decref(e);
    return free_of_seed;
}

static int by_hash(const void *x, const void *y)
{
    const so_hrow *a = *(const so_hrow *const *)x, *b = *(const so_hrow *const *)y;
    return strcmp(a->hash, b->hash);
}

size_t so_harness_below_bound(const so_hrow *const *rows, size_t n_rows,
                              const so_hrow **policy, const so_hrow **bound,
                              double *value)
{
    size_t n = 0, count = 0;
    const so_hrow **v = malloc((n_rows ? n_rows : 1) * sizeof *v);
    if (!v)
        return 0;
    for (size_t i = 0; i < n_rows; i++)
        if (!strcmp(rows[i]->problem, "sim"))
            v[n++] = rows[i];
    qsort(v, n, sizeof *v, by_hash);
    for (size_t lo = 0, hi; lo < n; lo = hi) {
        for (hi = lo + 1; hi < n && !strcmp(v[hi]->hash, v[lo]->hash); hi++)
            ;
        for (size_t b = lo; b < hi; b++) {
            char mb[32], mp[32];
            metric_of(v[b], mb, sizeof mb);
            double lb = bound_of(v[b], mb);
            if (!isfinite(lb))
                continue;
            for (size_t p = lo; p < hi; p++) {
                const so_hrow *r = v[p];
                if (p == b || strcmp(r->status, "simulated") || !isfinite(r->objective) ||
                    (r->rep != v[b]->rep && !(v[b]->rep == 0 && seed_free(v[b]))) ||
                    r->objective >= lb - TOL * fmax(1, fabs(lb)))
                    continue;
                metric_of(r, mp, sizeof mp);
                if (strcmp(mp, mb)) /* stored under another --metric */
                    continue;
                if (count++ == 0) {
                    *policy = r;
                    *bound = v[b];
                    *value = lb;
                }
            }
        }
    }
    free(v);
    return count;
}

void so_harness_warn_below_bound(FILE *fp, const char *cmd,
                                 const so_hrow *const *rows, size_t n)
{
    const so_hrow *pol = NULL, *bnd = NULL;
    double lb = NAN;
    size_t below = so_harness_below_bound(rows, n, &pol, &bnd, &lb);
    if (below)
        fprintf(fp, "slotopt %s: %zu simulated cells lie below a bound on their own"
                    " instance (first: %s %.6g < %s %.6g on %s, repetition %d): that"
                    " bound does not hold for them (docs/offline.md, 'What the bound"
                    " assumes'); their ratios to it are not gaps\n",
                cmd, below, pol->backend, pol->objective, bnd->backend, lb,
                pol->instance, pol->rep);
}
