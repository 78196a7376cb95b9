/* kp_bnb.c — exact 0-1 knapsack by depth-first branch-and-bound with a
 * surrogate cardinality bound.
 *
 * Search: S. Martello and P. Toth, "Knapsack Problems", Wiley 1990,
 * section 2.5 (MT1): depth first, "take" before "skip", the incumbent
 * starting from the greedy solution (better of it and the best single item).
 * Bound: the Dantzig (LP) bound of the surrogate relaxation of the capacity
 * constraint and the maximum-cardinality constraint sum x <= K (K = the most
 * items that fit), as in S. Martello and P. Toth, "Upper bounds and
 * algorithms for hard 0-1 knapsack problems", Operations Research 45(5),
 * 1997, section 3:
 *     sum (w_i + mu) x_i <= r + mu * K_r,
 *     K_r = min(K - taken, most items of any kind fitting in r).
 * Items are branched in non-increasing p_i / (w_i + mu) order, so the bound
 * at a node is a prefix-sum lookup, O(log n). mu = 0 is Dantzig's bound; mu
 * is chosen at the root to minimise the root bound (ternary search over
 * integers, mu = 0 kept if no better); K_r is also capped by
 * floor(r / lightest free weight). On strongly correlated data
 * (p = w + R/10) mu = R/10 makes the bound exact, which is what lets a
 * branch-and-bound prove these instances at all — once the incumbent
 * reaches it, which a dive rarely does: the greedy start is therefore
 * improved by best-improvement 1-for-1 swaps (drop a taken item, add the
 * most profitable untaken one that fits the freed room) until none gains.
 * Capacities and profits are 64-bit and no array is indexed by capacity, so
 * capacities of 1e10 and beyond are fine. Worst-case time is exponential;
 * --time-limit stops it with the incumbent and the best open bound. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/knapsack.h"

/* seconds per n log2 n of a sort of n items (0.22 s for 10^6: 1.1e-8) */
#define SORT_S 2e-8
/* stacks deeper than this get the root's bound at a time limit */
#define DEEP 65536

typedef struct {
    size_t n;          /* items that fit at all (w <= c) */
    int64_t c, K, mu;
    int64_t *w, *p;    /* by position in surrogate order */
    int64_t *S, *P;    /* prefix sums of (w + mu) and p */
    int64_t *light;    /* light[m] = sum of the m lightest weights */
    int64_t *minw;     /* minw[k] = lightest weight at positions >= k */
    size_t *item;      /* original index of each position */
} bnb;

typedef struct {
    const int64_t *w, *p;
    int64_t mu;
} surrogate_order;

static int by_surrogate_efficiency(const void *a, const void *b, void *arg)
{
    const surrogate_order *o = arg;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int64_t wi = o->w[i] + o->mu, wj = o->w[j] + o->mu;
    __int128 l, r;
    if (wi == 0 || wj == 0) { /* zero surrogate weight: infinite efficiency */
        l = wi == 0 ? ((__int128)1 << 100) + o->p[i] : 0;
        r = wj == 0 ? ((__int128)1 << 100) + o->p[j] : 0;
    } else {
        l = (__int128)o->p[i] * wj;
        r = (__int128)o->p[j] * wi;
    }
    if (l != r)
        return l > r ? -1 : 1;
    /* ties: plain efficiency p / w, so the dive is Dantzig's greedy path */
    l = (__int128)o->p[i] * o->w[j];
    r = (__int128)o->p[j] * o->w[i];
    if (l != r)
        return l > r ? -1 : 1;
    return i < j ? -1 : i > j;
}

static int by_weight(const void *a, const void *b, void *arg)
{
    const int64_t *w = arg;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (w[i] != w[j])
        return w[i] < w[j] ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* Best-improvement 1-for-1 swaps on x (original indices); returns the new
 * profit. Untaken items sorted by weight with a running argmax of profit
 * answer "most profitable untaken item of weight <= w_a + slack" by binary
 * search, so one pass is O(n log n). */
static int64_t improve_by_swaps(const so_kp *kp, unsigned char *x, int64_t z,
                                double deadline, double pass_s)
{
    size_t n = kp->n;
    size_t *u = malloc((n + 1) * sizeof *u), *arg = malloc((n + 1) * sizeof *arg);
    if (!u || !arg)
        goto out;
    int64_t used;
    so_kp_value(kp, x, &used);
    /* a pass sorts (0.2 s on 10^6 items): a pass starts only when one as
     * long as the last (at first: pass_s) still ends before the deadline */
    for (int pass = 0; pass < 256 && so_now() + pass_s < deadline; pass++) {
        double t_pass = so_now();
        int64_t slack = kp->capacity - used;
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (!x[i])
                u[m++] = i;
        qsort_r(u, m, sizeof *u, by_weight, (void *)kp->weight);
        for (size_t k = 0; k < m; k++)
            arg[k] = k == 0 || kp->profit[u[k]] > kp->profit[u[arg[k - 1]]]
                         ? k : arg[k - 1];
        int64_t gain = 0;
        size_t out_i = n, in_i = n;
        for (size_t a = 0; a < n; a++) {
            if (!x[a])
                continue;
            int64_t room = kp->weight[a] + slack;
            size_t lo = 0, hi = m; /* count of untaken with weight <= room */
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (kp->weight[u[mid]] <= room)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo == 0)
                continue;
            size_t b = u[arg[lo - 1]];
            if (kp->profit[b] - kp->profit[a] > gain) {
                gain = kp->profit[b] - kp->profit[a];
                out_i = a;
                in_i = b;
            }
        }
        if (gain <= 0)
            break;
        x[out_i] = 0;
        x[in_i] = 1;
        used += kp->weight[in_i] - kp->weight[out_i];
        pass_s = so_now() - t_pass;
        z += gain;
    }
out:
    free(u);
    free(arg);
    return z;
}

static int cmp_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Orders the items for mu and fills the prefix sums. */
static void arrange(bnb *B, const so_kp *kp, size_t *idx, int64_t mu)
{
    B->mu = mu;
    surrogate_order o = {kp->weight, kp->profit, mu};
    qsort_r(idx, B->n, sizeof *idx, by_surrogate_efficiency, &o);
    B->S[0] = B->P[0] = 0;
    for (size_t k = 0; k < B->n; k++) {
        B->item[k] = idx[k];
        B->w[k] = kp->weight[idx[k]];
        B->p[k] = kp->profit[idx[k]];
        B->S[k + 1] = B->S[k] + B->w[k] + mu;
        B->P[k + 1] = B->P[k] + B->p[k];
    }
    B->minw[B->n] = INT64_MAX;
    for (size_t k = B->n; k-- > 0;)
        B->minw[k] = B->w[k] < B->minw[k + 1] ? B->w[k] : B->minw[k + 1];
}

/* Largest m with light[m] <= r. */
static int64_t most_items(const bnb *B, int64_t r)
{
    size_t lo = 0, hi = B->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (B->light[mid] <= r)
            lo = mid;
        else
            hi = mid - 1;
    }
    return (int64_t)lo;
}

/* Surrogate Dantzig bound over free positions k..n-1. */
static int64_t bound(const bnb *B, size_t k, int64_t r, int64_t p, int64_t taken)
{
    int64_t kr = B->K - taken, fit = most_items(B, r);
    if (fit < kr)
        kr = fit;
    if (k < B->n && B->minw[k] > 0 && r / B->minw[k] < kr)
        kr = r / B->minw[k];
    __int128 rs128 = (__int128)r + (__int128)B->mu * kr;
    int64_t rs = rs128 > INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)rs128;
    size_t lo = k, hi = B->n; /* break: largest j with S[j] - S[k] <= rs */
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (B->S[mid] - B->S[k] <= rs)
            lo = mid;
        else
            hi = mid - 1;
    }
    size_t j = lo;
    int64_t u = p + B->P[j] - B->P[k];
    if (j < B->n) {
        int64_t room = rs - (B->S[j] - B->S[k]);
        u += (int64_t)((__int128)room * B->p[j] / (B->w[j] + B->mu));
    }
    return u;
}

int so_kp_bnb_solve(const so_problem *prob, const so_params *prm, so_result *r)
{
    const so_kp *kp = so_kp_of(prob);
    size_t N = kp->n;
    bnb B;
    memset(&B, 0, sizeof B);
    B.c = kp->capacity;
    size_t *idx = malloc((N + 1) * sizeof *idx);
    B.w = malloc((N + 1) * sizeof *B.w);
    B.p = malloc((N + 1) * sizeof *B.p);
    B.S = malloc((N + 1) * sizeof *B.S);
    B.P = malloc((N + 1) * sizeof *B.P);
    B.light = malloc((N + 1) * sizeof *B.light);
    B.item = malloc((N + 1) * sizeof *B.item);
    B.minw = malloc((N + 1) * sizeof *B.minw);
    size_t *stack = malloc((N + 1) * sizeof *stack);
    unsigned char *x = calloc(N + 1, 1), *best = calloc(N + 1, 1);
    int rc = idx && B.w && B.p && B.S && B.P && B.light && B.item && B.minw && stack &&
                     x && best ? SO_OK : SO_ENOMEM;
    int status = SO_OPTIMAL;
    int64_t z = 0, open_bound = 0;
    int no_time = 0;
    if (rc)
        goto done;
    /* the limit covers the set-up too: the search for mu and the swaps stop
     * at it (any mu gives a valid bound), the search then stops at once */
    double t0 = so_now();
    double deadline = prm->time_limit > 0 ? t0 + prm->time_limit : INFINITY;

    /* The set-up sorts three times (0.2-0.5 s each on 10^6 items) before
     * the greedy incumbent exists, and a sort cannot be interrupted: a sort
     * starts only when it ends before the deadline by an estimate
     * (SORT_S n log2 n, or the slowest sort so far), else kp-bnb stops
     * without an incumbent. */
    double t_sort = SORT_S * (double)N * log2((double)N + 2);
    no_time = so_now() + t_sort > deadline;
    if (no_time)
        goto done;
    /* only items that fit at all take part */
    for (size_t i = 0; i < N; i++)
        if (kp->weight[i] <= B.c)
            idx[B.n++] = i;
    for (size_t k = 0; k < B.n; k++)
        B.light[k + 1] = kp->weight[idx[k]];
    B.light[0] = 0;
    qsort(B.light + 1, B.n, sizeof *B.light, cmp_int64);
    t_sort = fmax(t_sort, so_now() - t0);
    if ((no_time = so_now() + t_sort > deadline))
        goto done;
    for (size_t k = 0; k < B.n; k++)
        B.light[k + 1] += B.light[k];
    B.K = most_items(&B, B.c);

    /* mu minimising the root bound */
    int64_t pmax = 0;
    for (size_t k = 0; k < B.n; k++)
        if (kp->profit[idx[k]] > pmax)
            pmax = kp->profit[idx[k]];
    double ta = so_now();
    arrange(&B, kp, idx, 0);
    int64_t best_mu = 0, best_mu_now = 0, best_u = bound(&B, 0, B.c, 0, 0);
    /* an arrangement is a sort (0.15 s on 10^6 items): an iteration (two)
     * and the final one start only when they end before the deadline */
    double t_arrange = so_now() - ta;
    t_sort = fmax(t_sort, t_arrange);
    if ((no_time = so_now() + t_sort > deadline))
        goto done;
    /* n mu < 2^61 keeps the prefix sums S (weights < 2^61) below 2^62 */
    int64_t lo = 0, hi = pmax;
    if (B.n > 0 && hi > (((int64_t)1 << 61) - 1) / (int64_t)B.n)
        hi = (((int64_t)1 << 61) - 1) / (int64_t)B.n;
    for (int it = 0; it < 48 && hi - lo > 2 && so_now() + 3 * t_arrange < deadline;
         it++) {
        int64_t m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        arrange(&B, kp, idx, m1);
        int64_t u1 = bound(&B, 0, B.c, 0, 0);
        arrange(&B, kp, idx, m2);
        int64_t u2 = bound(&B, 0, B.c, 0, 0);
        if (u1 < best_u) { best_u = u1; best_mu = m1; }
        if (u2 < best_u) { best_u = u2; best_mu = m2; }
        if (u1 <= u2)
            hi = m2;
        else
            lo = m1;
        best_mu_now = m2;
    }
    if (best_mu != best_mu_now)
        arrange(&B, kp, idx, best_mu);

    /* incumbent: greedy in Dantzig order, or the best single item */
    {
        size_t *ord = so_kp_order(kp);
        if (!ord) {
            rc = SO_ENOMEM;
            goto done;
        }
        int64_t room = B.c, single = -1;
        unsigned char *g = calloc(N + 1, 1);
        if (!g) {
            free(ord);
            rc = SO_ENOMEM;
            goto done;
        }
        for (size_t k = 0; k < N; k++) {
            size_t i = ord[k];
            if (kp->weight[i] <= room) {
                room -= kp->weight[i];
                z += kp->profit[i];
                g[i] = 1;
            }
            if (kp->weight[i] <= B.c &&
                (single < 0 || kp->profit[i] > kp->profit[single]))
                single = (int64_t)i;
        }
        if (single >= 0 && kp->profit[single] > z) {
            memset(g, 0, N);
            g[single] = 1;
            z = kp->profit[single];
        }
        z = improve_by_swaps(kp, g, z, deadline, t_sort);
        for (size_t k = 0; k < B.n; k++) /* into position space */
            best[k] = g[B.item[k]];
        free(g);
        free(ord);
    }

    size_t depth = 0, k = 0;
    int64_t rcap = B.c, p = 0;
    uint64_t steps = 0, checked = 0;
    int late = 0;
    for (;;) {
        /* descend: take before skip, fathom by the bound (a descent can be
         * 10^6 items long: the clock is read in it too) */
        while (k < B.n && bound(&B, k, rcap, p, (int64_t)depth) > z) {
            if (B.w[k] <= rcap) {
                x[k] = 1;
                stack[depth++] = k;
                rcap -= B.w[k];
                p += B.p[k];
                if (p > z) {
                    z = p;
                    memcpy(best, x, B.n);
                }
            }
            k++;
            if (++steps - checked >= 1024 && (checked = steps, so_now() > deadline)) {
                late = 1;
                break;
            }
        }
        if (!late && depth == 0)
            break;
        if (!late) {
            size_t i = stack[--depth]; /* backtrack: the last taken goes to 0 */
            x[i] = 0;
            rcap += B.w[i];
            p -= B.p[i];
            k = i + 1;
            late = ++steps - checked >= 1024 && (checked = steps, so_now() > deadline);
        }
        if (late) {
            /* open nodes: this one and every "skip" below the stack; over a
             * deep stack (a bound each) the root's bound stands for them */
            status = SO_TIMELIMIT;
            open_bound = bound(&B, k, rcap, p, (int64_t)depth);
            int64_t pp = p, rr = rcap;
            for (size_t d = depth; d-- > 0 && depth <= DEEP;) {
                size_t q = stack[d];
                pp -= B.p[q];
                rr += B.w[q];
                int64_t u = bound(&B, q + 1, rr, pp, (int64_t)d);
                if (u > open_bound)
                    open_bound = u;
            }
            if (depth > DEEP)
                open_bound = best_u;
            if (open_bound < z)
                open_bound = z;
            break;
        }
    }
done:
    if (!rc && no_time) {
        so_result_set_message(r, "kp-bnb: time limit reached before the greedy"
                                 " incumbent (sorting %zu items)", N);
        so_kp_report(kp, r, SO_TIMELIMIT, NULL, 0, 0);
    } else if (!rc) {
        unsigned char *sol = calloc(N + 1, 1);
        if (!sol) {
            rc = SO_ENOMEM;
        } else {
            for (size_t q = 0; q < B.n; q++)
                sol[B.item[q]] = best[q];
            so_kp_report(kp, r, status, sol, 1,
                         status == SO_OPTIMAL ? z : open_bound);
            free(sol);
        }
    }
    free(idx); free(B.w); free(B.p); free(B.S); free(B.P); free(B.light);
    free(B.item); free(B.minw); free(stack); free(x); free(best);
    return rc;
}
