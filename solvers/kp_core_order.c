/* kp_core_order.c — the efficiency order of kp-dp, sorted only where the
 * core reaches (issue 30).
 *
 * Pisinger's minknap and combo (Martello, Pisinger and Toth 1999) never
 * sort all items: the break item is found by partitioning on efficiency
 * (Balas and Zemel 1980), the partitions left on either side are kept as
 * intervals (each more efficient than everything right of it), and an
 * interval is sorted only when the expanding core reaches it. The DP's
 * bounds need the exact order only at the core's two ends (the next item
 * on each side must be the most efficient one left there), which the
 * intervals give. A full sort cost kp-dp more than its whole DP on the
 * easy classes at n = 10,000.
 *
 * Choices:
 *   - partitions are three-way on the radix keys of kp_sort.c (doubles of
 *     -p/w, whose rounding never inverts two ratios, only merges them,
 *     while every p and w is at most 2^53: above, (double)p is rounded
 *     before the division and two ratios may swap, so such an instance
 *     is not partitioned, its window is every item, sorted exactly), so
 *     items of one key never straddle two intervals, and the items sorted
 *     (so_kp_sort_exact) are in the order of so_kp_order (ties by index);
 *   - pivots pseudo-random (deterministic); partitioning stops at a window
 *     of at most 64 items holding the break item;
 *   - positions outside the window hold their interval's items in no
 *     particular order; the caller may read them (the break solution is
 *     positions 0..b-1 whatever their order) but not rely on their order;
 *   - as combo's simpreduce: an interval entering the window is first
 *     filtered by the caller's reduction test (an item that fails it
 *     keeps its break value in every improving solution, now and later,
 *     the incumbent only rising); only the items that pass are sorted,
 *     next to the window, and the others go to the interval's far end,
 *     unsorted. The DP skips them where it meets them, and reading a
 *     skipped item's efficiency as the next one's in a bound stays valid:
 *     every item beyond it that may still flip is in a later interval,
 *     hence no more efficient (right side; no less efficient, left). On
 *     the easy classes the core runs through every interval, and the
 *     filter leaves a few items of each to sort;
 *   - o->grown counts the window's growths: state kept by position
 *     outside the window (kp_pair.c's lists) is stale after one. */
#include <stdlib.h>
#include <string.h>
#include "solvers/kp_core_order.h"

#define WINDOW 64
#define EXACT_IN_DOUBLE (INT64_C(1) << 53)

static int push(size_t **st, size_t *n, size_t *cap, size_t v)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 32;
        size_t *a = realloc(*st, c * sizeof *a);
        if (!a)
            return SO_ENOMEM;
        *st = a;
        *cap = c;
    }
    (*st)[(*n)++] = v;
    return SO_OK;
}

/* sorts positions [a, b) exactly and refreshes their weights and profits */
static void sort_slice(kp_core_order *o, size_t a, size_t b)
{
    so_kp_sort_exact(o->kp, o->ord + a, o->key + a, b - a, o->tk, o->ta);
    for (size_t k = a; k < b; k++) {
        o->pw[k] = o->kp->weight[o->ord[k]];
        o->pp[k] = o->kp->profit[o->ord[k]];
    }
}

/* exchanges positions i and j (item and key) */
static void swap_pos(kp_core_order *o, size_t i, size_t j)
{
    size_t t = o->ord[i];
    uint64_t u = o->key[i];
    o->ord[i] = o->ord[j], o->key[i] = o->key[j];
    o->ord[j] = t, o->key[j] = u;
}

/* three-way partition of positions [lo, hi) on the key of a pseudo-random
 * pivot: [lo, *g) smaller keys (more efficient), [*g, *e) equal, [*e, hi)
 * larger */
static void partition(kp_core_order *o, size_t lo, size_t hi, uint64_t *seed,
                      size_t *g, size_t *e)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    uint64_t piv = o->key[lo + (size_t)((*seed >> 33) % (hi - lo))];
    const uint64_t *k = o->key;
    size_t i = lo, j = lo, t = hi;
    while (j < t) {
        if (k[j] < piv)
            swap_pos(o, i++, j++);
        else if (k[j] > piv)
            swap_pos(o, --t, j);
        else
            j++;
    }
    *g = i;
    *e = j;
}

static void sums(const kp_core_order *o, size_t a, size_t b, int64_t *w,
                 int64_t *p)
{
    int64_t sw = 0, sp = 0;
    for (size_t k = a; k < b; k++) {
        sw += o->kp->weight[o->ord[k]];
        sp += o->kp->profit[o->ord[k]];
    }
    *w = sw;
    *p = sp;
}

int so_kp_core_order_init(kp_core_order *o, const so_kp *kp, int64_t c,
                          size_t *b_out, int64_t *W_out, int64_t *P_out)
{
    memset(o, 0, sizeof *o);
    size_t n = kp->n, m = n ? n : 1;
    o->kp = kp;
    o->n = n;
    o->ord = malloc(m * sizeof *o->ord);
    o->key = malloc(m * sizeof *o->key);
    o->tk = malloc(m * sizeof *o->tk);
    o->ta = malloc(m * sizeof *o->ta);
    o->pw = malloc((n + 1) * sizeof *o->pw);
    o->pp = malloc((n + 1) * sizeof *o->pp);
    if (!o->ord || !o->key || !o->tk || !o->ta || !o->pw || !o->pp)
        return SO_ENOMEM;
    /* the keys keep the order only while every profit and weight is exact
     * in a double (correctly rounded division is monotone); above 2^53 two
     * ratios may swap, and the window is all items, sorted exactly */
    int monotone = 1;
    for (size_t i = 0; i < n; i++) {
        o->ord[i] = i;
        o->key[i] = so_kp_eff_key(kp, i);
        monotone = monotone && kp->profit[i] <= EXACT_IN_DOUBLE &&
                   kp->weight[i] <= EXACT_IN_DOUBLE;
    }
    /* the break item lies in [lo, hi): the items before lo fit (W, P) and
     * those before hi do not, unless hi = n */
    size_t lo = 0, hi = n;
    int64_t W = 0, P = 0;
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    int rc = SO_OK;
    while (!rc && monotone && hi - lo > WINDOW) {
        size_t g, e;
        int64_t wg, pg, we, pe;
        partition(o, lo, hi, &seed, &g, &e);
        sums(o, lo, g, &wg, &pg);
        if (W + wg > c) { /* in the more efficient part */
            rc = push(&o->right, &o->nright, &o->cap_right, hi);
            hi = g;
            continue;
        }
        sums(o, g, e, &we, &pe);
        if (g > lo)
            rc = push(&o->left, &o->nleft, &o->cap_left, lo);
        W += wg, P += pg, lo = g;
        if (W + we > c) { /* in the equal run: that is the window */
            if (!rc && e < hi)
                rc = push(&o->right, &o->nright, &o->cap_right, hi);
            hi = e;
            break;
        }
        if (!rc && e > g)
            rc = push(&o->left, &o->nleft, &o->cap_left, g);
        W += we, P += pe, lo = e;
    }
    if (rc)
        return rc;
    o->lo = lo;
    o->hi = hi;
    for (size_t k = 0; k < n; k++) {
        o->pw[k] = kp->weight[o->ord[k]];
        o->pp[k] = kp->profit[o->ord[k]];
    }
    sort_slice(o, lo, hi);
    size_t b = lo;
    while (b < hi && W + o->pw[b] <= c) {
        W += o->pw[b];
        P += o->pp[b];
        b++;
    }
    *b_out = b;
    *W_out = W;
    *P_out = P;
    return SO_OK;
}

/* may the item flip (the reduction test; right: it is right of b) */
static int passes(const kp_core_order *o, size_t item, int right,
                  const kp_reduce *r)
{
    __int128 v = (__int128)o->kp->profit[item] * r->wb -
                 (__int128)o->kp->weight[item] * r->pb;
    return (right ? v : -v) >= r->T;
}

/* Brings the interval [a, b) into the window: the items that fail the
 * test go to its far end (right of the window: the end, left: the
 * start), unsorted, the others are sorted exactly next to the window. */
static void take_in(kp_core_order *o, size_t a, size_t b, int right,
                    const kp_reduce *red)
{
    size_t *ord = o->ord;
    uint64_t *key = o->key;
    size_t i = a, j = b; /* [a, i) go first, [j, b) last */
    if (red) {
        for (size_t k = a; k < j;) {
            if (passes(o, ord[k], right, red) == right)
                swap_pos(o, i++, k++);
            else
                swap_pos(o, --j, k);
        }
    } else {
        i = j = right ? b : a;
    }
    if (right) {
        so_kp_sort_exact(o->kp, ord + a, key + a, i - a, o->tk, o->ta);
        o->right_skip = i;
        o->right_end = b;
    } else {
        so_kp_sort_exact(o->kp, ord + i, key + i, b - i, o->tk, o->ta);
        o->left_end = a;
        o->left_skip = i;
    }
    for (size_t k = a; k < b; k++) {
        o->pw[k] = o->kp->weight[ord[k]];
        o->pp[k] = o->kp->profit[ord[k]];
    }
    o->grown++;
}

void so_kp_core_order_reach(kp_core_order *o, size_t pos,
                            const kp_reduce *red)
{
    while (pos < o->lo && o->nleft > 0) {
        size_t a = o->left[--o->nleft];
        take_in(o, a, o->lo, 0, red);
        o->lo = a;
    }
    while (pos >= o->hi && o->nright > 0) {
        size_t b = o->right[--o->nright];
        take_in(o, o->hi, b, 1, red);
        o->hi = b;
    }
}

void so_kp_core_order_free(kp_core_order *o)
{
    free(o->key);
    free(o->tk);
    free(o->ta);
    free(o->pw);
    free(o->pp);
    free(o->left);
    free(o->right);
    free(o->ord);
    memset(o, 0, sizeof *o);
}
