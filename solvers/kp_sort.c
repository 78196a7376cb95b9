/* kp_sort.c — the sorts and selections of kp-dp, by radix instead of comparisons: on
 * the easy and correlated classes at n = 10,000 the comparison sorts
 * (qsort with a 128-bit comparator) took more time than the DP itself.
 *   - so_kp_sort_index_by_i64: LSD radix sort of indices by 64-bit keys
 *     (the sign-flipped pattern), over the span of bits that vary, in the
 *     fewest even digits of at most 8 bits (11 from 32,768 keys on);
 *     passes where every key falls in one bucket are skipped; stable (the
 *     pairing's items by weight, kp_pair.c);
 *   - so_kp_select_i64 and so_kp_count_within: selection, not sorting:
 *     the median of p - w and how many of the smallest weights (profits)
 *     fit a budget, for the cardinality limits (kp_card_bound.c). Below
 *     SO_KP_BAND_MIN_N values, three-way partitions around pseudo-random
 *     pivots (expected O(n), as combo's minweights / maxprofits do). From
 *     there on (issue 30: at n = 100,000 the partitions, about 3.4 passes
 *     of unpredictable branches each, were a fifth of kp-dp's run on
 *     almost strongly correlated instances), first a band, in the spirit
 *     of Floyd and Rivest's SELECT (CACM 18(3), 1975): a sorted sample of
 *     SO_KP_SAMPLE values estimates where the answer lies (the k-th: at
 *     rank k s / n of the sample; the budget: where the sample's prefix
 *     sums, scaled by n / s, pass it), the sample's values SO_KP_BAND
 *     places either side bound a band, and one pass without branches on
 *     the data counts and sums the values below it and those in it. When
 *     the answer lies in the band, only the band's values are kept and
 *     searched further (about 2 SO_KP_BAND / SO_KP_SAMPLE of them);
 *     otherwise (a miss: the data unlike its sample) the values are as
 *     they were and the partitions answer. Either way the answer is
 *     exact; the sample only decides how fast;
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

/* From this many keys on, digits of up to 11 bits instead of 8 (fewer
 * passes; the counters no longer fit the stack) */
#define RADIX_WIDE_N 32768

/* stable LSD radix sort of keys (with a payload of indices, may be NULL):
 * the digits cover only the span of bits in which some keys differ (a
 * first pass finds it: equal keys would otherwise chain every counter
 * increment), split evenly into the fewest digits of at most 8 bits (11
 * from RADIX_WIDE_N keys on: e.g. 17 varying bits, weights below 10^5,
 * take 2 passes instead of 3); the histograms are counted in one pass, a
 * pass whose digit is the same for every key is skipped, and the passes
 * alternate between the arrays and their scratch copies tk, ti (one copy
 * back at the end) */
static void radix(uint64_t *key, size_t *idx, size_t n, uint64_t *tk,
                  size_t *ti)
{
    uint64_t varies = 0; /* the bits in which some key differs from key[0] */
    for (size_t i = 0; i < n; i++)
        varies |= key[i] ^ key[0];
    if (!varies)
        return;
    int low = __builtin_ctzll(varies), span = 64 - __builtin_clzll(varies) - low;
    size_t stack_cnt[8 * 257], *cnt = stack_cnt;
    int nd, width;
    for (int most = n >= RADIX_WIDE_N ? 11 : 8;; most = 8) {
        nd = (span + most - 1) / most;
        width = (span + nd - 1) / nd;
        size_t need = (size_t)nd * (((size_t)1 << width) + 1);
        if (need <= 8 * 257) {
            memset(cnt, 0, need * sizeof *cnt);
            break;
        }
        if ((cnt = calloc(need, sizeof *cnt)) != NULL)
            break;
        cnt = stack_cnt; /* out of memory: narrow digits */
    }
    size_t nb = (size_t)1 << width;
    uint64_t mask = nb - 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = key[i] >> low;
        for (int j = 0; j < nd; j++)
            cnt[(size_t)j * (nb + 1) + ((k >> (j * width)) & mask) + 1]++;
    }
    uint64_t *src = key, *dst = tk;
    size_t *isrc = idx, *idst = ti;
    for (int j = 0; j < nd; j++) {
        size_t *c = cnt + (size_t)j * (nb + 1);
        int single = 0;
        for (size_t b = 1; b <= nb; b++)
            single |= c[b] == n;
        if (single)
            continue;
        for (size_t b = 1; b <= nb; b++)
            c[b] += c[b - 1];
        int shift = low + j * width;
        for (size_t i = 0; i < n; i++) {
            size_t at = c[(src[i] >> shift) & mask]++;
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
    if (cnt != stack_cnt)
        free(cnt);
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

/* the k-th smallest of v[0..n) by partitions alone */
static int64_t select_partition(int64_t *v, size_t n, size_t k)
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

/* so_kp_count_within by partitions alone */
static size_t count_partition(int64_t *v, size_t n, __int128 budget)
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

void so_kp_sort_keys(uint64_t *key, size_t *idx, size_t n, uint64_t *tk,
                     size_t *ti)
{
    radix(key, idx, n, tk, ti);
}

size_t so_kp_sample_index(uint64_t *seed, size_t n)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (size_t)(((unsigned __int128)(*seed >> 11) * n) >> 53);
}

/* SO_KP_SAMPLE values of v at pseudo-random places, sorted into smp */
static void sample_sorted(const int64_t *v, size_t n, int64_t *smp)
{
    uint64_t key[SO_KP_SAMPLE], tk[SO_KP_SAMPLE];
    uint64_t seed = SO_KP_SAMPLE_SEED;
    for (size_t i = 0; i < SO_KP_SAMPLE; i++)
        key[i] = (uint64_t)v[so_kp_sample_index(&seed, n)] ^ ((uint64_t)1 << 63);
    radix(key, NULL, SO_KP_SAMPLE, tk, NULL);
    for (size_t i = 0; i < SO_KP_SAMPLE; i++)
        smp[i] = (int64_t)(key[i] ^ ((uint64_t)1 << 63));
}

/* The band of src[0..n) between lo and hi: *nb and *sb the count and sum
 * of the values below lo, the count of those in [lo, hi] returned and *sm
 * their sum; with dst, the band's values are also copied to dst[0..m)
 * (dst must not be src). No branch depends on the values (their classes
 * are unpredictable in random data) and the sums are kept in 64-bit
 * halves (high 32 bits signed, low 32 unsigned: neither overflows within
 * 2^30 values), not in 128 bits. */
static inline __attribute__((always_inline)) size_t
band_pass(const int64_t *src, size_t n, int64_t lo, int64_t hi, int64_t *dst,
          size_t *nb, __int128 *sb, __int128 *sm)
{
    size_t cb = 0, cm = 0;
    __int128 sum_b = 0, sum_m = 0;
    for (size_t a = 0; a < n; a += (size_t)1 << 30) {
        size_t end = n - a > ((size_t)1 << 30) ? a + ((size_t)1 << 30) : n;
        int64_t bh = 0, mh = 0;
        uint64_t bl = 0, ml = 0;
        for (size_t i = a; i < end; i++) {
            int64_t x = src[i];
            int64_t below = -(int64_t)(x < lo);
            int64_t in = -(int64_t)(x <= hi) & ~below;
            int64_t xb = x & below, xm = x & in;
            if (dst) {
                dst[cm] = x;
            }
            cb -= (size_t)below;
            cm -= (size_t)in;
            bh += xb >> 32;
            bl += (uint32_t)xb;
            mh += xm >> 32;
            ml += (uint32_t)xm;
        }
        sum_b += (__int128)bh * ((__int128)1 << 32) + bl;
        sum_m += (__int128)mh * ((__int128)1 << 32) + ml;
    }
    *nb = cb;
    *sb = sum_b;
    *sm = sum_m;
    return cm;
}

/* band_pass that only reads (a miss leaves v as it was), and the one
 * that copies the band */
static size_t band_stats(const int64_t *v, size_t n, int64_t lo, int64_t hi,
                         size_t *nb, __int128 *sb, __int128 *sm)
{
    return band_pass(v, n, lo, hi, NULL, nb, sb, sm);
}

static size_t band_copy(const int64_t *src, size_t n, int64_t lo, int64_t hi,
                        int64_t *dst, size_t *nb, __int128 *sb, __int128 *sm)
{
    return band_pass(src, n, lo, hi, dst, nb, sb, sm);
}

/* the values of v[0..n) in [lo, hi] moved to its front (the others are
 * overwritten) */
static void band_keep(int64_t *v, size_t n, int64_t lo, int64_t hi)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t x = v[i];
        v[m] = x;
        m += (size_t)((x >= lo) & (x <= hi));
    }
}

/* the least value of v[0..n) above hi, INT64_MAX when none */
static int64_t least_above(const int64_t *v, size_t n, int64_t hi)
{
    int64_t least = INT64_MAX;
    for (size_t i = 0; i < n; i++)
        if (v[i] > hi && v[i] < least)
            least = v[i];
    return least;
}

/* the sample's values SO_KP_BAND places either side of position j */
static void band_limits(const int64_t *smp, size_t j, int64_t *lo,
                        int64_t *hi)
{
    *lo = j >= SO_KP_BAND ? smp[j - SO_KP_BAND] : INT64_MIN;
    *hi = j + SO_KP_BAND < SO_KP_SAMPLE ? smp[j + SO_KP_BAND] : INT64_MAX;
}

int64_t so_kp_select_i64(int64_t *v, size_t n, size_t k)
{
    if (n >= SO_KP_BAND_MIN_N) {
        int64_t smp[SO_KP_SAMPLE], lo, hi;
        sample_sorted(v, n, smp);
        band_limits(smp, (size_t)((unsigned __int128)k * SO_KP_SAMPLE / n),
                    &lo, &hi);
        size_t nb;
        __int128 sb, sm;
        size_t m = band_stats(v, n, lo, hi, &nb, &sb, &sm);
        if (k >= nb && k - nb < m) {
            band_keep(v, n, lo, hi);
            /* (a band of most values would give the same sample again) */
            return 2 * m <= n ? so_kp_select_i64(v, m, k - nb)
                              : select_partition(v, m, k - nb);
        }
    } /* a miss: v is as it was */
    return select_partition(v, n, k);
}

/* count_within through a band around the sample's estimate: 1 and
 * *count when the band held the answer (the band's values then in
 * dst[0..)), else 0 (with dst == src, v is then as it was). budget >= 0:
 * the prefixes of the sorted values within it are then exactly the first
 * count + 1 (their sums are convex in the length). */
static int count_band(const int64_t *src, int64_t *dst, size_t n,
                      __int128 budget, size_t *count)
{
    int64_t smp[SO_KP_SAMPLE], lo, hi;
    sample_sorted(src, n, smp);
    /* the estimate: the sample's prefix, scaled by n / SO_KP_SAMPLE, that
     * first passes the budget */
    __int128 acc = 0;
    size_t j = 0;
    while (j < SO_KP_SAMPLE &&
           (acc + smp[j]) * (__int128)n <= budget * SO_KP_SAMPLE)
        acc += smp[j++];
    band_limits(smp, j, &lo, &hi);
    size_t nb;
    __int128 sb, sm;
    size_t m = dst == src ? band_stats(src, n, lo, hi, &nb, &sb, &sm)
                          : band_copy(src, n, lo, hi, dst, &nb, &sb, &sm);
    if (sb > budget) /* the answer is below the band */
        return 0;
    budget -= sb;
    if (sm > budget) { /* the answer is inside the band */
        if (dst == src)
            band_keep(dst, n, lo, hi);
        *count = nb + (2 * m <= n ? so_kp_count_within(dst, m, budget)
                                  : count_partition(dst, m, budget));
        return 1;
    }
    int64_t above = hi == INT64_MAX ? hi : least_above(src, n, hi);
    if (above != INT64_MAX && sm + above <= budget)
        return 0; /* above the band */
    *count = nb + m;
    return 1;
}

/* so_kp_count_within of src, in dst (== src: in place) */
static size_t count_within(const int64_t *src, int64_t *dst, size_t n,
                           __int128 budget)
{
    size_t count;
    /* (the bound on the budget keeps the estimate's products in range) */
    if (n >= SO_KP_BAND_MIN_N && budget >= 0 &&
        budget < ((__int128)1 << 100) &&
        count_band(src, dst, n, budget, &count))
        return count;
    if (dst != src)
        memcpy(dst, src, n * sizeof *dst);
    return count_partition(dst, n, budget);
}

size_t so_kp_count_within(int64_t *v, size_t n, __int128 budget)
{
    return count_within(v, v, n, budget);
}

size_t so_kp_count_within_copy(const int64_t *src, size_t n, __int128 budget,
                               int64_t *scratch)
{
    return count_within(src, scratch, n, budget);
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
    return so_kp_ratio_key(kp->profit[i], kp->weight[i]);
}

uint64_t so_kp_ratio_key(int64_t p, int64_t w)
{
    double e = w == 0 ? INFINITY : (double)p / (double)w;
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
