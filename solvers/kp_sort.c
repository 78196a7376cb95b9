/* kp_sort.c — the sorts of kp-dp, by radix instead of comparisons: on
 * the easy and correlated classes at n = 10,000 the comparison sorts
 * (qsort with a 128-bit comparator) took more time than the DP itself.
 *   - so_kp_sort_i64: LSD radix sort of 64-bit integers, 8 passes of 8
 *     bits on the sign-flipped pattern (passes where every key falls in
 *     one bucket are skipped);
 *   - so_kp_efficiency_order: so_kp_order's order exactly (efficiency
 *     p/w non-increasing, zero weights first by profit, ties by index):
 *     a stable radix sort of the double keys -p/w (order-preserving bit
 *     pattern), then an insertion pass with the exact comparison (128-bit
 *     cross products) that repairs wherever rounding merged or swapped
 *     near-equal ratios. The pass costs O(n + inversions); past 8 n moves
 *     (e.g. many zero weights, whose keys are all equal) it gives up and
 *     so_kp_order's comparison sort is used. Every result is the unique
 *     sorted order of that total order, whichever path made it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "solvers/kp_exact_internal.h"

/* stable LSD radix sort of keys (with a payload of indices, may be NULL) */
static void radix(uint64_t *key, size_t *idx, size_t n, uint64_t *tk,
                  size_t *ti)
{
    for (int shift = 0; shift < 64; shift += 8) {
        size_t cnt[257] = {0};
        for (size_t i = 0; i < n; i++)
            cnt[((key[i] >> shift) & 255) + 1]++;
        int single = 0;
        for (int d = 1; d <= 256; d++)
            single |= cnt[d] == n;
        if (single)
            continue;
        for (int d = 1; d <= 256; d++)
            cnt[d] += cnt[d - 1];
        for (size_t i = 0; i < n; i++) {
            size_t at = cnt[(key[i] >> shift) & 255]++;
            tk[at] = key[i];
            if (idx)
                ti[at] = idx[i];
        }
        memcpy(key, tk, n * sizeof *key);
        if (idx)
            memcpy(idx, ti, n * sizeof *idx);
    }
}

static int by_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void so_kp_sort_i64(int64_t *v, size_t n)
{
    uint64_t *k = malloc((n ? n : 1) * sizeof *k), *t = malloc((n ? n : 1) * sizeof *t);
    if (!k || !t) {
        free(k);
        free(t);
        qsort(v, n, sizeof *v, by_i64);
        return;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (uint64_t)v[i] ^ ((uint64_t)1 << 63);
    radix(k, NULL, n, t, NULL);
    for (size_t i = 0; i < n; i++)
        v[i] = (int64_t)(k[i] ^ ((uint64_t)1 << 63));
    free(k);
    free(t);
}

int so_kp_sort_index_by_i64(size_t *idx, size_t m, const int64_t *key)
{
    size_t c = m ? m : 1;
    uint64_t *k = malloc(c * sizeof *k), *tk = malloc(c * sizeof *tk);
    size_t *ti = malloc(c * sizeof *ti);
    int ok = k && tk && ti;
    if (ok) {
        for (size_t i = 0; i < m; i++)
            k[i] = (uint64_t)key[idx[i]] ^ ((uint64_t)1 << 63);
        radix(k, idx, m, tk, ti);
    }
    free(k);
    free(tk);
    free(ti);
    return ok ? SO_OK : SO_ENOMEM;
}

/* does item i come before item j in so_kp_order's order? */
static int before(const so_kp *kp, size_t i, size_t j)
{
    int64_t wi = kp->weight[i], wj = kp->weight[j];
    if ((wi == 0) != (wj == 0))
        return wi == 0;
    __int128 l = (__int128)kp->profit[i] * wj, r = (__int128)kp->profit[j] * wi;
    if (wi == 0 && wj == 0)
        l = kp->profit[i], r = kp->profit[j];
    if (l != r)
        return l > r;
    return i < j;
}

size_t *so_kp_efficiency_order(const so_kp *kp)
{
    size_t n = kp->n, m = n ? n : 1;
    size_t *a = malloc(m * sizeof *a), *ta = malloc(m * sizeof *ta);
    uint64_t *k = malloc(m * sizeof *k), *tk = malloc(m * sizeof *tk);
    int ok = a && ta && k && tk;
    if (ok) {
        for (size_t i = 0; i < n; i++) {
            double e = kp->weight[i] == 0
                           ? INFINITY
                           : (double)kp->profit[i] / (double)kp->weight[i];
            double key = -e;
            uint64_t u;
            memcpy(&u, &key, sizeof u);
            k[i] = u >> 63 ? ~u : u | ((uint64_t)1 << 63);
            a[i] = i;
        }
        radix(k, a, n, tk, ta);
        size_t moves = 0;
        for (size_t i = 1; ok && i < n; i++) {
            size_t x = a[i], j = i;
            while (j > 0 && before(kp, x, a[j - 1])) {
                a[j] = a[j - 1];
                j--;
                if (++moves > 8 * n + 1024) {
                    ok = 0;
                    break;
                }
            }
            a[j] = x;
        }
    }
    free(ta);
    free(k);
    free(tk);
    if (ok)
        return a;
    free(a);
    return so_kp_order(kp);
}
