/* kp_mitm.c — exact 0-1 knapsack for at most 40 items by meet-in-the-middle.
 *
 * E. Horowitz and S. Sahni, "Computing partitions with applications to the
 * knapsack problem", J. ACM 21(2), 1974, section 2: split the items into
 * two halves A and B, list the subsets of each half by non-decreasing
 * weight, and combine: for every subset of B the best subset of A that
 * fits in the remaining capacity. Choices where the paper is silent:
 *   - each list is built by merging (the list so far with its copy shifted
 *     by the next item), as in Horowitz and Sahni, and dominated subsets
 *     (heavier and not more profitable) are dropped while merging, so a
 *     list never exceeds 2^20 entries and is usually far shorter;
 *   - subsets heavier than the capacity are dropped at once;
 *   - the combination is one sweep, B ascending and A descending in
 *     weight (both lists have increasing profits after the dominance step);
 *   - subsets are kept as bit masks (one bit per item of the half), so the
 *     optimal vector is exact; the clock is read every 65,536 entries.
 * Worst case 2 * 2^20 entries of 24 bytes; used by kp-dp whenever n <= 40
 * and its own state set grows past what 2^20 would cost. */
#include <stdlib.h>
#include <string.h>
#include "solvers/kp_exact_internal.h"

typedef struct {
    int64_t w, p;
    uint32_t mask;
} subset;

/* Non-dominated subsets of items[0..k) within capacity c, by weight. */
static int list_subsets(const so_kp *kp, const size_t *items, size_t k,
                        double deadline, subset **out, size_t *len)
{
    size_t cap = (size_t)1 << k;
    subset *cur = malloc(cap * sizeof *cur), *next = malloc(cap * sizeof *next);
    if (!cur || !next) {
        free(cur);
        free(next);
        return SO_ENOMEM;
    }
    size_t m = 1, ticks = 0;
    cur[0] = (subset){0, 0, 0};
    for (size_t e = 0; e < k; e++) {
        int64_t dw = kp->weight[items[e]], dp = kp->profit[items[e]];
        size_t i = 0, j = 0, o = 0;
        while (i < m || j < m) {
            subset s;
            if (j >= m || (i < m && cur[i].w <= cur[j].w + dw)) {
                s = cur[i++];
            } else {
                s = cur[j++];
                s.w += dw;
                s.p += dp;
                s.mask |= (uint32_t)1 << e;
                if (s.w > kp->capacity) {
                    j = m; /* the rest of the shifted copies are heavier */
                    continue;
                }
            }
            if (o > 0 && s.p <= next[o - 1].p)
                continue; /* dominated by a lighter (or equal) subset */
            if (o > 0 && next[o - 1].w == s.w)
                o--;
            next[o++] = s;
            if (deadline > 0 && (++ticks & 0xffff) == 0 && so_now() > deadline) {
                free(next);
                *out = cur;
                *len = m;
                return SO_KP_STOP_TIME;
            }
        }
        subset *t = cur;
        cur = next;
        next = t;
        m = o;
    }
    free(next);
    *out = cur;
    *len = m;
    return SO_OK;
}

int so_kp_mitm_solve(const so_kp *kp, double deadline, unsigned char *x)
{
    size_t n = kp->n, na = n / 2, nb = n - na;
    size_t *items = malloc((n ? n : 1) * sizeof *items);
    if (!items)
        return SO_ENOMEM;
    for (size_t i = 0; i < n; i++)
        items[i] = i;
    memset(x, 0, n ? n : 1);
    subset *a = NULL, *b = NULL;
    size_t la = 0, lb = 0;
    int rc = list_subsets(kp, items, na, deadline, &a, &la);
    int rb = rc == SO_ENOMEM ? rc : list_subsets(kp, items + na, nb, deadline, &b, &lb);
    if (rb == SO_ENOMEM)
        rc = rb;
    else if (!rc)
        rc = rb;
    if (rc != SO_ENOMEM) {
        /* both lists start with the empty subset: the sweep is total even
         * after a stop (then over the partial lists) */
        int64_t best = -1;
        uint32_t ma = 0, mb = 0;
        size_t ia = la;
        for (size_t ib = 0; ib < lb; ib++) {
            while (ia > 0 && a[ia - 1].w > kp->capacity - b[ib].w)
                ia--;
            if (ia == 0)
                break;
            if (a[ia - 1].p + b[ib].p > best) {
                best = a[ia - 1].p + b[ib].p;
                ma = a[ia - 1].mask;
                mb = b[ib].mask;
            }
        }
        for (size_t e = 0; e < na; e++)
            x[items[e]] = (ma >> e) & 1;
        for (size_t e = 0; e < nb; e++)
            x[items[na + e]] = (mb >> e) & 1;
    }
    free(a);
    free(b);
    free(items);
    return rc;
}
