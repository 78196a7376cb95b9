/* kp_surrogate.c — the surrogate relaxation of a cardinality constraint,
 * solved to optimality, as a global upper bound (and a source of optimal
 * solutions) for kp-dp.
 *
 * S. Martello, D. Pisinger and P. Toth, "Dynamic programming and strong
 * bounds for the 0-1 knapsack problem", Management Science 45(3), 1999,
 * section 3. With b1 items in the break solution, every solution has
 * either sum x <= b1 or sum x >= b1 + 1 (a dichotomy). The constraint
 * sum x <= k is added to the knapsack constraint with a multiplier s >= 0:
 *     sum (w_j + s) x_j <= c + s k,
 * sum x >= k with s <= 0 (the same form; an item whose w_j + s <= 0 is
 * taken outright and its weight frees capacity). Every solution of the
 * part satisfies the surrogate constraint, so the surrogate knapsack's
 * optimum bounds the part; solved exactly (by kp-dp itself, without a
 * further relaxation) it is much tighter than its LP. The bound of the
 * whole problem is the largest part bound (parts that hold no improving
 * solution count as z). A surrogate optimum that also fits the original
 * capacity is feasible, hence optimal when it reaches the bound.
 * The part sum x <= b1 is empty of improving solutions when kmin >= b1 + 1
 * (kmin: the fewest items whose largest profits exceed z); the part
 * sum x >= b1 + 1 is empty when kmax <= b1 (kmax: the most items whose
 * smallest weights fit), and then k = max(b1 + 1, kmin).
 * Choices where the paper is silent or that differ from combo:
 *   - as in combo, the relaxation is tried only when one side is pinned
 *     (kmin >= b1 + 1, kmax <= b1, kmax == b1 + 1 or kmin <= b1 ... the
 *     four cases of the paper: kmin == b1 + 1, kmax == b1, kmax == b1 + 1,
 *     kmin == b1), otherwise the exact solves would cost more than the
 *     bound saves;
 *   - the multiplier minimises the surrogate's LP bound, found by a binary
 *     search on the sign of its slope (k minus the items the LP takes, as
 *     in combo); the LP is evaluated in double: the search only needs a
 *     good multiplier, any s gives a valid bound. Its break item is
 *     selected as combo's sursort does (issue 30): one array of the items
 *     partitioned in place (Hoare, median of three), its order carried
 *     from one LP to the next, the left part's sums taken in the same
 *     pass, ratios compared by cross products; rebuilding the array of
 *     ratios (a division per item) and summing in separate passes made
 *     the search most of kp-dp's time on almost strongly correlated
 *     instances at n = 10,000;
 *   - a part whose LP bound (at the final multiplier, or at any one the
 *     search tries: the search stops there) is already below z + 1 is
 *     settled without a solve, when the profits total below 2^40 and the weights (with
 *     capacity and multiplier shifts) below 2^48: every sum of weights is
 *     then an exact double and the double LP is accurate to far better
 *     than the 0.01 margin used; otherwise the part is solved;
 *     s = 0 means the surrogate is the problem itself: nothing is gained,
 *     the relaxation gives up;
 *   - the surrogate knapsack must keep slotopt's limits (totals below
 *     2^61); if it would not, the relaxation gives up (kp-dp keeps its
 *     other bounds). Every failure (time, memory) only means "no bound". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "solvers/kp_exact_internal.h"

/* An item of the multiplier search: its profit and original weight. The
 * search keeps one array of them whose order carries over from one LP to
 * the next (as combo's sursort partitions its items in place). */
typedef struct {
    int64_t p, w;
} lp_item;

/* the items that may be in a solution (positive profit, weight <= c) into
 * buf; returns their count */
static size_t lp_items(const so_kp *kp, lp_item *buf)
{
    size_t m = 0;
    for (size_t i = 0; i < kp->n; i++)
        if (kp->profit[i] > 0 && kp->weight[i] <= kp->capacity)
            buf[m++] = (lp_item){kp->profit[i], kp->weight[i]};
    return m;
}

/* does a have a higher ratio p / (w + s) than (pp, ww)? (w + s > 0) */
#define RATIO_GT(a, s, pp, ww) \
    ((double)(a).p * (ww) > (pp) * (double)((a).w + (s)))
#define RATIO_LT(a, s, pp, ww) \
    ((double)(a).p * (ww) < (pp) * (double)((a).w + (s)))

static void swap_items(lp_item *a, lp_item *b)
{
    lp_item t = *a;
    *a = *b;
    *b = t;
}

/* the first three, two or one of it[f..l] in non-increasing ratio (median
 * of three when there are more) */
static void order3(lp_item *it, size_t f, size_t l, int64_t s)
{
    if (l <= f)
        return;
    size_t m = f + (l - f + 1) / 2;
    if (RATIO_LT(it[f], s, (double)it[m].p, (double)(it[m].w + s)))
        swap_items(&it[f], &it[m]);
    if (l - f >= 2 &&
        RATIO_LT(it[m], s, (double)it[l].p, (double)(it[l].w + s))) {
        swap_items(&it[m], &it[l]);
        if (RATIO_LT(it[f], s, (double)it[m].p, (double)(it[m].w + s)))
            swap_items(&it[f], &it[m]);
    }
}

/* LP bound of the part with multiplier s and cardinality k (in double)
 * over the m items of it (reordered); *count gets the items the LP takes
 * (the break item's fraction included): the LP bound's slope in s has the
 * sign of k - count (Martello, Pisinger and Toth 1999, section 3). The
 * break item is selected as combo's sursort does: Hoare partitions around
 * a median of three, the sums of the left part taken in the same pass,
 * ratios compared by cross products (no division per item). */
static double lp_sur(const so_kp *kp, lp_item *it, size_t m, int64_t s,
                     int64_t k, double *count)
{
    double room = (double)kp->capacity + (double)s * (double)k, acc = 0;
    double taken = 0;
    size_t f = 0;
    if (s <= 0) /* items of weight w + s <= 0 are taken outright: in front
                 * (weights are non-negative: none when s > 0) */
        for (size_t i = 0; i < m; i++)
            if (it[i].w + s <= 0) {
                acc += (double)it[i].p;
                room -= (double)(it[i].w + s);
                taken++;
                swap_items(&it[f++], &it[i]);
            }
    *count = taken;
    if (room < 0)
        return -1; /* the part is empty */
    if (f == m)
        return acc;
    size_t l = m - 1; /* the break item is in it[f..l] */
    for (;;) {
        order3(it, f, l, s);
        if (l - f < 3)
            break;
        size_t mid = f + (l - f + 1) / 2, i = f, j = l;
        double pp = (double)it[mid].p, ww = (double)(it[mid].w + s);
        double ws = 0, ps = 0;
        for (;;) { /* it[f] >= pivot >= it[l]: both scans stop in range */
            do {
                ws += (double)(it[i].w + s);
                ps += (double)it[i].p;
                i++;
            } while (RATIO_GT(it[i], s, pp, ww));
            do
                j--;
            while (RATIO_LT(it[j], s, pp, ww));
            if (i > j)
                break;
            swap_items(&it[i], &it[j]);
        }
        if (ws <= room) { /* it[f..i-1] all fit */
            room -= ws;
            acc += ps;
            taken += (double)(i - f);
            f = i;
        } else {
            l = i - 1;
        }
    }
    for (size_t i = f; i <= l; i++) {
        double w = (double)(it[i].w + s);
        if (w > room) {
            *count = taken + room / w;
            return acc + room * (double)it[i].p / w;
        }
        room -= w;
        acc += (double)it[i].p;
        taken++;
    }
    *count = taken;
    return acc;
}

/* The multiplier in [lo, hi] where the LP bound is least. The bound is
 * convex in s with slope r (k - count(s)) (r > 0 the break item's ratio),
 * so the least is at the smallest s with count(s) <= k (hi when there is
 * none): a binary search on the sign of the slope, one LP per step, as
 * combo's surbin. (Regula falsi on count(s) - k was tried: count jumps by
 * thousands of items across the range, and it took more LPs.) An LP below
 * settle at any s ends the search: every s gives a valid bound, so the
 * part is settled (the caller checks the value). *value: the LP bound at
 * the s returned. */
static int64_t best_s(const so_kp *kp, lp_item *buf, size_t m, int64_t lo,
                      int64_t hi, int64_t k, double settle, double *value)
{
    double count;
    for (int steps = 0; lo < hi && steps < 64; steps++) {
        int64_t mid = lo + (hi - lo) / 2;
        double v = lp_sur(kp, buf, m, mid, k, &count);
        if (v < settle) {
            *value = v;
            return mid;
        }
        if ((double)k - count >= 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    *value = lp_sur(kp, buf, m, lo, k, &count);
    return lo;
}

int64_t so_kp_surrogate_multiplier(const so_kp *kp, int64_t lo, int64_t hi,
                                   int64_t k, double settle, double *value)
{
    lp_item *buf = malloc((kp->n ? kp->n : 1) * sizeof *buf);
    if (!buf)
        return lo - 1;
    int64_t s = best_s(kp, buf, lp_items(kp, buf), lo, hi, k, settle, value);
    free(buf);
    return s;
}

double so_kp_surrogate_lp(const so_kp *kp, int64_t s, int64_t k,
                          double *count)
{
    lp_item *buf = malloc((kp->n ? kp->n : 1) * sizeof *buf);
    if (!buf)
        return -1;
    double v = lp_sur(kp, buf, lp_items(kp, buf), s, k, count);
    free(buf);
    return v;
}

/* Solves the surrogate knapsack of multiplier s, cardinality k exactly:
 * SO_OK with *value (its optimum) and, when the optimum fits the original
 * capacity, x (original indices) and *fits = 1; 1 when no bound. */
static int solve_part(const so_kp *kp, int64_t s, int64_t k, double deadline,
                      size_t max_states, int64_t *value, unsigned char *x,
                      int *fits)
{
    size_t n = kp->n, m = 0;
    so_kp sub = {0};
    size_t *idx = malloc((n + 1) * sizeof *idx);
    sub.profit = malloc((n + 1) * sizeof *sub.profit);
    sub.weight = malloc((n + 1) * sizeof *sub.weight);
    unsigned char *y = malloc(n + 1);
    int rc = idx && sub.profit && sub.weight && y ? SO_OK : 1;
    __int128 room = (__int128)kp->capacity + (__int128)s * k, fixed_p = 0;
    __int128 total_w = 0, total_p = 0;
    memset(x, 0, n);
    for (size_t i = 0; !rc && i < n; i++) {
        int64_t p = kp->profit[i], w = kp->weight[i] + s;
        if (p <= 0 || kp->weight[i] > kp->capacity)
            continue;
        if (w <= 0) {
            fixed_p += p;
            room -= w;
            x[i] = 1;
            continue;
        }
        idx[m] = i;
        sub.profit[m] = p;
        sub.weight[m++] = w;
        total_w += w;
        total_p += p;
    }
    if (!rc && (room < 0 || room >= SO_KP_MAX_TOTAL ||
                total_w >= SO_KP_MAX_TOTAL || total_p >= SO_KP_MAX_TOTAL))
        rc = 1;
    if (!rc) {
        sub.n = m;
        sub.capacity = (int64_t)room;
        int proved = 0;
        rc = so_kp_dp_exact(&sub, deadline, max_states, 0, y, &proved);
        if (!rc && !proved)
            rc = 1;
    }
    if (!rc) {
        for (size_t j = 0; j < m; j++)
            x[idx[j]] = y[j];
        int64_t w;
        *value = so_kp_value(kp, x, &w);
        *fits = w <= kp->capacity;
    }
    free(idx);
    free(sub.profit);
    free(sub.weight);
    free(y);
    return rc;
}

int so_kp_surrogate_bound(const so_kp *kp, size_t b1, int64_t z,
                          double deadline, size_t max_states, int64_t *ub,
                          unsigned char *x, int64_t *zx)
{
    return so_kp_surrogate_bound_cached(kp, b1, z, deadline, max_states, ub,
                                        x, zx, NULL);
}

int so_kp_surrogate_bound_cached(const so_kp *kp, size_t b1, int64_t z,
                                 double deadline, size_t max_states,
                                 int64_t *ub, unsigned char *x, int64_t *zx,
                                 so_kp_card_cache *cache)
{
    size_t n = kp->n;
    *zx = -1;
    if (n == 0)
        return 1;
    int64_t kmax, kmin;
    int improvable = so_kp_card_limits_cached(kp, z, NULL, cache, &kmax,
                                              &kmin);
    lp_item *buf = malloc(n * sizeof *buf);
    unsigned char *y = malloc(n);
    if (improvable < 0 || !buf || !y) {
        free(buf);
        free(y);
        return 1;
    }
    int64_t maxw = 0;
    for (size_t i = 0; i < n; i++)
        if (kp->weight[i] > maxw && kp->weight[i] <= kp->capacity)
            maxw = kp->weight[i];
    __int128 total_p = 0, total_w = kp->capacity;
    for (size_t i = 0; i < n; i++) {
        total_p += kp->profit[i];
        total_w += kp->weight[i];
    }
    /* the double LP is accurate to far within 0.01 when every weight sum
     * it forms is an exact double (below 2^50 with the multiplier's
     * shifts) and its value is below 2^40 */
    int lp_exact_enough = total_p < ((__int128)1 << 40) &&
                          total_w < ((__int128)1 << 48) &&
                          (__int128)maxw * (__int128)(2 * n + 1) <
                              ((__int128)1 << 48);
    size_t m = lp_items(kp, buf);
    /* an LP bound below settle proves that the part cannot improve */
    double settle = lp_exact_enough ? (double)z + 0.99 : -INFINITY;
    int64_t b = (int64_t)b1;
    int rc = 1;
    if (!improvable) { /* nothing beats z */
        *ub = z;
        rc = SO_OK;
    } else if (kmin == b + 1 || kmax == b || kmax == b + 1 || kmin == b) {
        int64_t bound = z;
        rc = SO_OK;
        for (int part = 0; part < 2 && !rc; part++) {
            /* part 0: sum x <= b (s >= 0); part 1: sum x >= max(b+1, kmin) */
            if (part == 0 && kmin >= b + 1)
                continue;
            if (part == 1 && kmax <= b)
                continue;
            int64_t k = part == 0 ? b : (kmin > b + 1 ? kmin : b + 1);
            double lp;
            int64_t s = part == 0 ? best_s(kp, buf, m, 0, maxw, k, settle, &lp)
                                  : best_s(kp, buf, m, -maxw, 0, k, settle, &lp);
            if (lp < settle) /* cannot improve */
                continue;
            if (s == 0) { /* the surrogate is the problem itself */
                rc = 1;
                break;
            }
            int64_t val = 0;
            int fits = 0;
            rc = solve_part(kp, s, k, deadline, max_states, &val, y, &fits);
            if (rc)
                break;
            if (val > bound)
                bound = val;
            if (fits && val > z && val > *zx) {
                *zx = val;
                memcpy(x, y, n);
            }
        }
        if (!rc)
            *ub = bound;
    }
    free(buf);
    free(y);
    return rc;
}
