/* kp_sort.c — the sorts and selections of kp-dp, by radix instead of comparisons: on
 * the easy and correlated classes at n = 10,000 the comparison sorts
 * (qsort with a 128-bit comparator) took more time than the DP itself.
 *   - so_kp_sort_index_by_i64: LSD radix sort of indices by 64-bit keys,
 *     8 passes of 8 bits on the sign-flipped pattern (passes where every
 *     key falls in one bucket are skipped); stable (the pairing's items by
 *     weight, kp_pair.c);
 *   - so_kp_select_i64 and so_kp_count_within: selection, not sorting
 *     (expected O(n): three-way partitions around pseudo-random pivots, as
 *     combo's minweights / maxprofits do): the median of p - w and how
 *     many of the smallest weights (profits) fit a budget, for the
 *     cardinality limits (kp_card_bound.c);
 *   - so_kp_efficiency_order: so_kp_order's order exactly (efficiency
 *     p/w non-increasing, zero weights first by profit, ties by index):
 *     a stable radix sort of the double keys -p/w (order-preserving bit
 *     pattern), then an insertion pass with the exact comparison (128-bit
 *     cross products) that repairs wherever rounding merged or swapped
 *     near-equal ratios. The pass costs O(n + inversions); past 8 n moves
 *     (e.g. many zero weights, whose keys are all equal) it gives up and
 *     a comparison sort (qsort_r, the same total order) finishes. Every
 *     result is the unique sorted order of that total order, whichever
 *     path made it. so_kp_sort_exact does the same on any slice (the
 *     lazily sorted intervals of kp_core_order.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "solvers/kp_exact_internal.h"

/* stable LSD radix sort of keys (with a payload of indices, may be NULL):
 * the histograms are counted in one pass, only for the digits in which
 * some keys differ (a first pass finds them: equal keys would otherwise
 * chain every counter increment), a pass whose digit is the same for
 * every key is skipped, and the passes alternate between the
 * arrays and their scratch copies tk, ti (one copy back at the end) */
static void radix(uint64_t *key, size_t *idx, size_t n, uint64_t *tk,
                  size_t *ti)
{
    size_t cnt[8][257];
    memset(cnt, 0, sizeof cnt);
    uint64_t varies = 0; /* the bits in which some key differs from key[0] */
    for (size_t i = 0; i < n; i++)
        varies |= key[i] ^ key[0];
    int digit[8], nd = 0;
    for (int d = 0; d < 8; d++)
        if ((varies >> (8 * d)) & 255)
            digit[nd++] = d;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = key[i];
        for (int j = 0; j < nd; j++)
            cnt[digit[j]][((k >> (8 * digit[j])) & 255) + 1]++;
    }
    uint64_t *src = key, *dst = tk;
    size_t *isrc = idx, *idst = ti;
    for (int j = 0; j < nd; j++) {
        int d = digit[j];
        size_t *c = cnt[d];
        int single = 0;
        for (int b = 1; b <= 256; b++)
            single |= c[b] == n;
        if (single)
            continue;
        for (int b = 1; b <= 256; b++)
            c[b] += c[b - 1];
        int shift = 8 * d;
        for (size_t i = 0; i < n; i++) {
            size_t at = c[(src[i] >> shift) & 255]++;
            dst[at] = src[i];
            if (idx)
                idst[at] = isrc[i];
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
        size_t *u = isrc;
        isrc = idst;
        idst = u;
    }
    if (src != key) {
        memcpy(key, src, n * sizeof *key);
        if (idx)
            memcpy(idx, isrc, n * sizeof *idx);
    }
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

/* three-way partition of v[lo, hi) around a pseudo-random pivot:
 * [lo, *g) < pivot, [*g, *e) == pivot, [*e, hi) > pivot */
static int64_t partition3(int64_t *v, size_t lo, size_t hi, uint64_t *seed,
                          size_t *g, size_t *e)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    int64_t piv = v[lo + (size_t)((*seed >> 33) % (hi - lo))];
    size_t a = lo, b = lo, c = hi;
    while (b < c) {
        if (v[b] < piv) {
            int64_t t = v[a];
            v[a++] = v[b];
            v[b++] = t;
        } else if (v[b] > piv) {
            int64_t t = v[--c];
            v[c] = v[b];
            v[b] = t;
        } else {
            b++;
        }
    }
    *g = a;
    *e = b;
    return piv;
}

int64_t so_kp_select_i64(int64_t *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n, g, e;
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    for (;;) {
        int64_t piv = partition3(v, lo, hi, &seed, &g, &e);
        if (k < g)
            hi = g;
        else if (k >= e)
            lo = e;
        else
            return piv;
    }
}

size_t so_kp_count_within(int64_t *v, size_t n, __int128 budget)
{
    size_t lo = 0, hi = n, g, e, count = 0;
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    while (lo < hi) {
        int64_t piv = partition3(v, lo, hi, &seed, &g, &e);
        __int128 below = 0;
        for (size_t i = lo; i < g; i++)
            below += v[i];
        if (below > budget) { /* the answer lies among the smaller ones */
            hi = g;
            continue;
        }
        budget -= below;
        count += g - lo;
        __int128 eq = (__int128)piv * (__int128)(e - g);
        if (eq > budget) /* part of the equal run fits */
            return count + (piv > 0 ? (size_t)(budget / piv) : e - g);
        budget -= eq;
        count += e - g;
        lo = e;
    }
    return count;
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

static int by_before(const void *a, const void *b, void *kp)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    return i == j ? 0 : before(kp, i, j) ? -1 : 1;
}

uint64_t so_kp_eff_key(const so_kp *kp, size_t i)
{
    double e = kp->weight[i] == 0 ? INFINITY
                                  : (double)kp->profit[i] / (double)kp->weight[i];
    double key = -e;
    uint64_t u;
    memcpy(&u, &key, sizeof u);
    return u >> 63 ? ~u : u | ((uint64_t)1 << 63);
}

void so_kp_sort_exact(const so_kp *kp, size_t *a, uint64_t *k, size_t n,
                      uint64_t *tk, size_t *ta)
{
    radix(k, a, n, tk, ta);
    size_t moves = 0;
    for (size_t i = 1; i < n; i++) {
        size_t x = a[i], j = i;
        while (j > 0 && before(kp, x, a[j - 1])) {
            a[j] = a[j - 1];
            j--;
            if (++moves > 8 * n + 1024)
                break;
        }
        a[j] = x; /* a stays a permutation when the pass gives up */
        if (moves > 8 * n + 1024) {
            qsort_r(a, n, sizeof *a, by_before, (void *)kp);
            return;
        }
    }
}

size_t *so_kp_efficiency_order(const so_kp *kp)
{
    size_t n = kp->n, m = n ? n : 1;
    size_t *a = malloc(m * sizeof *a), *ta = malloc(m * sizeof *ta);
    uint64_t *k = malloc(m * sizeof *k), *tk = malloc(m * sizeof *tk);
    int ok = a && ta && k && tk;
    if (ok) {
        for (size_t i = 0; i < n; i++) {
            k[i] = so_kp_eff_key(kp, i);
            a[i] = i;
        }
        so_kp_sort_exact(kp, a, k, n, tk, ta);
    }
    free(ta);
    free(k);
    free(tk);
    if (ok)
        return a;
    free(a);
    return NULL;
}
