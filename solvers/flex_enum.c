/* flex_enum.c — the exact optimum of the malleable FLEX problem by plain
 * enumeration: by Lemma 1 of Wolf et al. (Middleware 2010, Section 3.1),
 * under linear speedup some priority order makes MPS optimal, so the
 * optimum is the best MPS schedule over all J! orders (lexicographic
 * enumeration). The cross-check of flex-exact; at most
 * SO_FLEX_ENUM_MAX_JOBS jobs; on the time limit it reports the best order
 * seen with status timelimit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "heuristics/flex.h"
#include "solvers/flex_exact.h"

#define SO_FLEX_ENUM_MAX_JOBS 10

int so_flex_next_permutation(size_t *a, size_t n)
{
    if (n < 2)
        return 0;
    size_t i = n - 1;
    while (i > 0 && a[i - 1] >= a[i])
        i--;
    if (i == 0)
        return 0;
    size_t k = n - 1;
    while (a[k] <= a[i - 1])
        k--;
    size_t t = a[i - 1];
    a[i - 1] = a[k];
    a[k] = t;
    for (size_t l = i, r = n - 1; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return 1;
}

int so_flex_enum_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    const so_flex *f = so_flex_of(p);
    size_t n = f->n;
    if (n > SO_FLEX_ENUM_MAX_JOBS) {
        so_result_set_message(r, "flex-enum takes at most %d jobs (%zu given);"
                              " use flex-exact", SO_FLEX_ENUM_MAX_JOBS, n);
        return SO_EUNSUPPORTED;
    }
    size_t *perm = malloc((n ? n : 1) * sizeof *perm);
    size_t *best = malloc((n ? n : 1) * sizeof *best);
    if (!perm || !best) {
        free(perm);
        free(best);
        return SO_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        perm[i] = best[i] = i;
    double best_v = INFINITY, deadline = prm->time_limit > 0 ? so_now() + prm->time_limit : 0;
    int status = SO_OPTIMAL, rc = SO_OK;
    size_t count = 0;
    do {
        double v = so_flex_mps_value(f, perm);
        if (isnan(v)) {
            rc = SO_ENOMEM;
            break;
        }
        if (v < best_v) {
            best_v = v;
            memcpy(best, perm, n * sizeof *best);
        }
        if (deadline > 0 && ++count % 256 == 0 && so_now() > deadline) {
            status = SO_TIMELIMIT;
            break;
        }
    } while (so_flex_next_permutation(perm, n));
    if (!rc)
        rc = so_flex_report(f, r, status, best, 0, -1);
    if (!rc)
        so_result_set_extra(r, "optimal_over", json_string("mps-orders"));
    free(perm);
    free(best);
    return rc;
}
