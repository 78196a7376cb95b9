/* kp_card_bound.c — the global upper bound of kp-dp: Dantzig's bound
 * tightened by the cardinality bounds of S. Martello, D. Pisinger and
 * P. Toth, "Dynamic programming and strong bounds for the 0-1 knapsack
 * problem", Management Science 45(3), 1999, section 3 (after Martello and
 * Toth 1997):
 *   kmax = the most items any feasible solution holds (the smallest
 *          weights, counted while they fit), so sum x <= kmax is valid;
 *   kmin = the fewest items a solution better than the incumbent z needs
 *          (the largest profits, counted until they exceed z), so
 *          sum x >= kmin is valid for every improving solution.
 * Each is relaxed with a multiplier l >= 0 and the LP relaxation of the
 * remaining knapsack bounds the optimum:
 *   U_max(l) = l kmax + LP{ sum (p_j - l) x_j : sum w_j x_j <= c }
 *   U_min(l) = -l kmin + LP{ sum (p_j + l) x_j : sum w_j x_j <= c }
 * (Lagrangian form; for the LP both equal the surrogate relaxation at its
 * best multiplier). Choices where the paper is silent:
 *   - multipliers are integers: first the guess l = +-median(p_j - w_j)
 *     (exact for the two classes below), then a ternary search on
 *     [0, max p] unless the bound is already down to z, at most 12
 *     steps (24 LP evaluations): a cap on the cost, not on correctness;
 *     the search only when the caller asks (kp-dp: once the DP has merged
 *     512 n states; the guess alone after 16 n)
 *     (the LP value is convex in l; any l gives a valid bound, so the
 *     search only needs to be good, not exact); each LP is evaluated in
 *     expected O(n) by selecting the break item with a partition on
 *     efficiency (Balas and Zemel 1980) with deterministic pivots; from
 *     SO_KP_BAND_MIN_N items on, first through a band (as the selections
 *     of kp_sort.c): a sample sorted by efficiency estimates where the
 *     break item is, one pass sums the items above the band and keeps the
 *     band's (in 64-bit products when every value is below 2^32), and the
 *     partitions select among the band's items only; a miss (the break
 *     item outside the band) falls back to the partitions on every item;
 *   - all arithmetic is exact (128-bit products), the result is floored.
 * For strongly correlated items (p = w + K) l = K gives c + K kmax, for
 * inverse strongly correlated ones (w = p + K) c - K kmin: bounds that the
 * optimum usually reaches, so kp-dp stops as soon as it finds it. */
#include <stdlib.h>
#include "solvers/kp_exact_internal.h"

typedef struct {
    int64_t p, w;
} item;

/* a is strictly more efficient than b (w > 0 both) */
static int better(item a, item b)
{
    return (__int128)a.p * b.w > (__int128)b.p * a.w;
}

/* floor of the LP value of items it[0..m) (p > 0, w > 0) in capacity c. */
static __int128 lp_value(item *it, size_t m, int64_t room)
{
    __int128 acc = 0;
    size_t lo = 0, hi = m;
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    while (hi > lo) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        item piv = it[lo + (size_t)((seed >> 33) % (hi - lo))];
        /* three-way partition: [lo, g) better, [g, e) equal, [e, hi) worse */
        size_t g = lo, e = lo, k = hi;
        while (e < k) {
            if (better(it[e], piv)) {
                item t = it[g];
                it[g++] = it[e];
                it[e++] = t;
            } else if (better(piv, it[e])) {
                item t = it[--k];
                it[k] = it[e];
                it[e] = t;
            } else {
                e++;
            }
        }
        __int128 wg = 0, pg = 0;
        for (size_t i = lo; i < g; i++)
            wg += it[i].w, pg += it[i].p;
        if (wg > room) {
            hi = g;
            continue;
        }
        room -= (int64_t)wg;
        acc += pg;
        __int128 we = 0, pe = 0;
        for (size_t i = g; i < e; i++)
            we += it[i].w, pe += it[i].p;
        if (we > room) /* same efficiency: a fraction of the lot */
            return acc + (__int128)room * piv.p / piv.w;
        room -= (int64_t)we;
        acc += pe;
        lo = e;
    }
    return acc;
}

int so_kp_card_limits(const so_kp *kp, int64_t z, int64_t *v, int64_t *kmax,
                      int64_t *kmin)
{
    return so_kp_card_limits_cached(kp, z, v, NULL, kmax, kmin);
}

int so_kp_card_limits_cached(const so_kp *kp, int64_t z, int64_t *v,
                             so_kp_card_cache *cache, int64_t *kmax,
                             int64_t *kmin)
{
    if (cache && cache->has_min && cache->z == z) {
        *kmax = cache->kmax;
        *kmin = cache->kmin;
        return cache->improvable;
    }
    size_t n = kp->n;
    int64_t *own = NULL;
    if (!v && !(v = own = malloc((n ? n : 1) * sizeof *v)))
        return -1;
    *kmax = cache && cache->has_max
                ? cache->kmax
                : (int64_t)so_kp_count_within_copy(kp->weight, n,
                                                   kp->capacity, v);
    int64_t total = 0; /* below 2^61 */
    for (size_t i = 0; i < n; i++)
        total += kp->profit[i];
    int improvable = total > z;
    /* the k largest profits exceed z exactly when the n - k smallest sum
     * to <= total - z - 1: the fewest k is n minus the most such */
    *kmin = !improvable ? (int64_t)n
                        : (int64_t)(n - so_kp_count_within_copy(
                                            kp->profit, n, total - z - 1, v));
    free(own);
    if (cache)
        *cache = (so_kp_card_cache){1, 1, improvable, *kmax, *kmin, z};
    return improvable;
}

/* What the LPs of one bound share: the items, scratch of n items, and
 * the largest profit and weight (for the band's 64-bit arithmetic) */
typedef struct {
    const so_kp *kp;
    item *buf;
    int64_t maxp, maxw;
} lp_ctx;

/* the sums of lp_band's pass: items above the band (pa, wa), in it (pm,
 * wm; m of them, in buf), and how many below it */
typedef struct {
    __int128 pa, pm;
    int64_t wa, wm;
    size_t m, nlow;
} band_sums;

/* lp_band's pass with profits p + dl. narrow: every profit, weight and
 * pivot below 2^32, so that the cross products fit 64 bits unsigned and
 * the sums of profits 64 bits (an inline copy each way: no branch per
 * item on it) */
static inline __attribute__((always_inline)) void
band_pass(const so_kp *kp, int64_t dl, item hi, item lo, int narrow,
          item *buf, band_sums *out)
{
    int64_t c = kp->capacity, pa = 0, pm = 0, wa = 0, wm = 0;
    __int128 pa_w = 0, pm_w = 0;
    size_t m = 0, nlow = 0;
    for (size_t i = 0; i < kp->n; i++) {
        int64_t p = kp->profit[i] + dl, w = kp->weight[i];
        int ok = (p > 0) & (w <= c), above, below;
        if (narrow) {
            uint64_t up = (uint64_t)p, uw = (uint64_t)w;
            above = up * (uint64_t)hi.w > (uint64_t)hi.p * uw;
            below = up * (uint64_t)lo.w < (uint64_t)lo.p * uw;
        } else {
            above = (__int128)p * hi.w > (__int128)hi.p * w;
            below = (__int128)p * lo.w < (__int128)lo.p * w;
        }
        int up = ok & ((w == 0) | above);
        int low = ok & !up & below;
        int in = ok & !up & !low;
        if (narrow) {
            pa += p & -(int64_t)up;
            pm += p & -(int64_t)in;
        } else {
            pa_w += p & -(int64_t)up;
            pm_w += p & -(int64_t)in;
        }
        wa += w & -(int64_t)up;
        wm += w & -(int64_t)in;
        nlow += (size_t)low;
        buf[m] = (item){p, w};
        m += (size_t)in;
    }
    out->pa = narrow ? pa : pa_w;
    out->pm = narrow ? pm : pm_w;
    out->wa = wa;
    out->wm = wm;
    out->m = m;
    out->nlow = nlow;
}

static void band_narrow(const so_kp *kp, int64_t dl, item hi, item lo,
                        item *buf, band_sums *out)
{
    band_pass(kp, dl, hi, lo, 1, buf, out);
}

static void band_wide(const so_kp *kp, int64_t dl, item hi, item lo,
                      item *buf, band_sums *out)
{
    band_pass(kp, dl, hi, lo, 0, buf, out);
}

/* The LP of relaxed() through a band, as so_kp_count_within (kp_sort.c):
 * a sample of the items sorted by efficiency (in double: only where the
 * band lies depends on it) estimates where the break item is; one pass
 * sums the items strictly more efficient than the band's upper pivot
 * (zero weights included), keeps those between the pivots in buf and
 * counts the less efficient ones. 1 and *value (the LP's floor) when the
 * break item is in the band (or every item fits), else 0. */
static int lp_band(const lp_ctx *x, int64_t l, int sign, __int128 *value)
{
    const so_kp *kp = x->kp;
    size_t n = kp->n, s = 0;
    int64_t c = kp->capacity;
    item smp[SO_KP_SAMPLE];
    uint64_t key[SO_KP_SAMPLE], tk[SO_KP_SAMPLE];
    size_t at[SO_KP_SAMPLE], ta[SO_KP_SAMPLE];
    uint64_t seed = SO_KP_SAMPLE_SEED;
    for (size_t i = 0; i < SO_KP_SAMPLE; i++) {
        size_t j = so_kp_sample_index(&seed, n);
        int64_t p = kp->profit[j] + sign * l, w = kp->weight[j];
        if (p <= 0 || w == 0 || w > c)
            continue;
        smp[s] = (item){p, w};
        key[s] = so_kp_ratio_key(p, w);
        at[s] = s;
        s++;
    }
    so_kp_sort_keys(key, at, s, tk, ta);
    /* the first sample item at which the prefix of weights, scaled by
     * n / SO_KP_SAMPLE, passes c */
    __int128 acc = 0;
    size_t j = 0;
    while (j < s && (acc + smp[at[j]].w) * (__int128)n <=
                        (__int128)c * SO_KP_SAMPLE)
        acc += smp[at[j++]].w;
    /* pivots: none above is ratio +inf (1 / 0), none below is 0 / 1 */
    item hi = j >= SO_KP_BAND ? smp[at[j - SO_KP_BAND]] : (item){1, 0};
    item lo = j + SO_KP_BAND < s ? smp[at[j + SO_KP_BAND]] : (item){0, 1};
    if (better(lo, hi)) { /* double rounding swapped them */
        item t = lo;
        lo = hi;
        hi = t;
    }
    band_sums b;
    const int64_t wide = (int64_t)1 << 32;
    if (x->maxp + l < wide && (x->maxw < wide || c < wide) && n < wide / 2)
        band_narrow(kp, sign * l, hi, lo, x->buf, &b);
    else
        band_wide(kp, sign * l, hi, lo, x->buf, &b);
    if (b.wa > c) /* the break item is above the band */
        return 0;
    if (b.wm > c - b.wa) {
        *value = b.pa + lp_value(x->buf, b.m, c - b.wa);
        return 1;
    }
    if (b.nlow) /* below the band */
        return 0;
    *value = b.pa + b.pm; /* everything fits */
    return 1;
}

/* l kcard * sign + LP with profits p + sign * l (sign -1: kmax; +1: kmin) */
static __int128 relaxed(const lp_ctx *x, int64_t l, int sign, int64_t k)
{
    const so_kp *kp = x->kp;
    size_t m = 0;
    __int128 zero = 0;
    if (kp->n >= SO_KP_BAND_MIN_N && lp_band(x, l, sign, &zero))
        return zero - (__int128)sign * l * k;
    for (size_t i = 0; i < kp->n; i++) {
        int64_t p = kp->profit[i] + sign * l;
        if (p <= 0 || kp->weight[i] > kp->capacity)
            continue;
        if (kp->weight[i] == 0)
            zero += p;
        else
            x->buf[m++] = (item){p, kp->weight[i]};
    }
    return zero + lp_value(x->buf, m, kp->capacity) - (__int128)sign * l * k;
}

/* the largest profit and weight into x */
static void lp_maxima(lp_ctx *x)
{
    x->maxp = x->maxw = 0;
    for (size_t i = 0; i < x->kp->n; i++) {
        x->maxp = x->kp->profit[i] > x->maxp ? x->kp->profit[i] : x->maxp;
        x->maxw = x->kp->weight[i] > x->maxw ? x->kp->weight[i] : x->maxw;
    }
}

__int128 so_kp_card_lp(const so_kp *kp, int64_t l, int sign)
{
    lp_ctx x = {kp, malloc((kp->n ? kp->n : 1) * sizeof(item)), 0, 0};
    lp_maxima(&x);
    __int128 v = x.buf ? relaxed(&x, l, sign, 0) : -1;
    free(x.buf);
    return v;
}

/* min over integer l in [0, hi] of relaxed(l): first the guess l0, then
 * a ternary search; stops as soon as the bound is down to z. */
static __int128 best_multiplier(const lp_ctx *x, int sign, int64_t k,
                                int64_t hi, int64_t l0, int64_t z, int search)
{
    int64_t lo = 0;
    __int128 best = relaxed(x, l0 < 0 ? 0 : l0 > hi ? hi : l0, sign, k);
    if (!search)
        return best;
    for (int evals = 0; hi - lo > 2 && best > z && evals < 12; evals++) {
        int64_t m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        __int128 f1 = relaxed(x, m1, sign, k);
        __int128 f2 = relaxed(x, m2, sign, k);
        if (f1 < best)
            best = f1;
        if (f2 < best)
            best = f2;
        if (f1 <= f2)
            hi = m2;
        else
            lo = m1;
    }
    for (int64_t l = lo; l <= hi && hi - lo <= 2 && best > z; l++) {
        __int128 f = relaxed(x, l, sign, k);
        if (f < best)
            best = f;
    }
    return best;
}

int64_t so_kp_global_bound(const so_kp *kp, const size_t *order, int64_t z,
                           int search)
{
    return so_kp_global_bound_cached(kp, order, z, search, NULL);
}

int64_t so_kp_global_bound_cached(const so_kp *kp, const size_t *order,
                                  int64_t z, int search,
                                  so_kp_card_cache *cache)
{
    int64_t ub = so_kp_dantzig_bound(kp, order);
    size_t n = kp->n;
    if (n == 0 || ub <= z)
        return ub;
    lp_ctx x = {kp, malloc(n * sizeof(item)), 0, 0};
    int64_t *v = malloc(n * sizeof *v);
    if (!x.buf || !v) { /* the bound is optional: Dantzig's is valid */
        free(x.buf);
        free(v);
        return ub;
    }
    lp_maxima(&x);
    for (size_t i = 0; i < n; i++)
        v[i] = kp->profit[i] - kp->weight[i];
    int64_t median_gap = so_kp_select_i64(v, n, n / 2); /* guess: l = K when p = w + K */
    int64_t kmax, kmin;
    if (!so_kp_card_limits_cached(kp, z, v, cache, &kmax, &kmin))
        ub = z; /* nothing beats z */
    /* the constraint the guess favours first; the other only if needed */
    for (int pass = 0; pass < 2 && ub > z; pass++) {
        int sign = (pass == 0) == (median_gap >= 0) ? -1 : +1;
        __int128 u = sign < 0 ? best_multiplier(&x, -1, kmax, x.maxp,
                                                median_gap, z, search)
                              : best_multiplier(&x, +1, kmin, x.maxp,
                                                -median_gap, z, search);
        if (u < ub)
            ub = u < z ? z : (int64_t)u;
    }
    free(x.buf);
    free(v);
    return ub;
}
