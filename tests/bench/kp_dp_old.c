/* kp_dp_old.c — BENCHMARK BASELINE ONLY: kp-dp as it was at commit 63c171b
 * (before issue 18), renamed so_kp_dp_old_solve, so that `make bench
 * BENCHES=kp-dp-vs-old` measures the new kp-dp against it side by side in
 * one run. Not part of the library; not a backend of the program. */
/* kp_dp.c — exact 0-1 knapsack by dynamic programming over non-dominated
 * states, expanding a core around the break item.
 *
 * The scheme of D. Pisinger, "A minimal algorithm for the 0-1 knapsack
 * problem", Operations Research 45(5), 1997 (minknap), sections 2-4:
 *   items sorted by efficiency p/w; break item b; the break solution takes
 *   items 0..b-1. The core [s, t] starts empty at b. A state (w, p) is a
 *   set that agrees with the break solution outside the core. Expanding
 *   t+1 adds "take item t+1" copies of every state, expanding s-1 adds
 *   "drop item s-1" copies; after each expansion only non-dominated states
 *   are kept (weight up, profit strictly up) and states whose bound cannot
 *   beat the incumbent z are fathomed:
 *     w <= c:  p + floor((c - w) p_{t+1} / w_{t+1})   (eq. 9 of the paper)
 *     w >  c:  p - ceil((w - c) p_{s-1} / w_{s-1})
 *   The algorithm stops when no state is left (z is optimal) or the core
 *   covers every item.
 * Unlike minknap we keep solution vectors exactly: each state points into
 * an arena of (parent, item) deviation records, compacted (mark and
 * renumber) whenever it doubles, so memory stays proportional to the live
 * states. Work is O(n m) for m live states; no array indexed by capacity,
 * so capacities of 1e10 and beyond are fine. Profits are 64-bit. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/knapsack.h"

typedef struct {
    int64_t w, p;
    int64_t node; /* deviation record, -1 = the break solution itself */
} state;

typedef struct {
    int64_t parent;
    int64_t pos; /* position in efficiency order whose decision flips */
} record;

typedef struct {
    record *rec;
    int64_t n, cap, compacted_at;
} arena;

static int64_t arena_push(arena *a, int64_t parent, int64_t pos)
{
    if (a->n == a->cap) {
        int64_t cap = a->cap ? 2 * a->cap : 1024;
        record *r = realloc(a->rec, (size_t)cap * sizeof *r);
        if (!r)
            return -2;
        a->rec = r;
        a->cap = cap;
    }
    a->rec[a->n].parent = parent;
    a->rec[a->n].pos = pos;
    return a->n++;
}

/* Keeps only the records reachable from the states and from *best. */
static int arena_compact(arena *a, state *st, size_t m, int64_t *best)
{
    int64_t *map = malloc((size_t)(a->n ? a->n : 1) * sizeof *map);
    if (!map)
        return SO_ENOMEM;
    for (int64_t i = 0; i < a->n; i++)
        map[i] = -1;
    for (size_t k = 0; k <= m; k++) {
        int64_t v = k < m ? st[k].node : *best;
        while (v >= 0 && map[v] == -1) {
            map[v] = 0; /* marked */
            v = a->rec[v].parent;
        }
    }
    int64_t next = 0; /* parents precede children: renumber in place */
    for (int64_t i = 0; i < a->n; i++) {
        if (map[i] < 0)
            continue;
        int64_t par = a->rec[i].parent;
        a->rec[next].parent = par >= 0 ? map[par] : -1;
        a->rec[next].pos = a->rec[i].pos;
        map[i] = next++;
    }
    for (size_t k = 0; k < m; k++)
        if (st[k].node >= 0)
            st[k].node = map[st[k].node];
    if (*best >= 0)
        *best = map[*best];
    a->n = next;
    a->compacted_at = next;
    free(map);
    return SO_OK;
}

typedef struct {
    const so_kp *kp;
    const size_t *ord;
    int64_t *pw, *pp; /* weight and profit of item at position k */
    size_t n, b;
    int64_t z;         /* incumbent profit */
    int64_t best_node; /* its deviation record; -2 = greedy vector */
    state *cur, *next;
    size_t m, cap;
    arena ar;
} dp_ctx;

/* Bound of a state with the core [s, t] (t + 1 == n: nothing to add). */
static int64_t state_bound(const dp_ctx *d, const state *x, size_t s, size_t t1)
{
    int64_t c = d->kp->capacity;
    if (x->w <= c) {
        if (t1 >= d->n)
            return x->p;
        return x->p + (int64_t)((__int128)(c - x->w) * d->pp[t1] / d->pw[t1]);
    }
    if (s == 0 || d->pw[s - 1] == 0)
        return INT64_MIN; /* cannot shed weight any more */
    __int128 num = (__int128)(x->w - c) * d->pp[s - 1];
    __int128 loss = (num + d->pw[s - 1] - 1) / d->pw[s - 1];
    return loss > x->p ? -1 : x->p - (int64_t)loss; /* < 0: beats no z >= 0 */
}

/* Adds the copies shifted by (dw, dp) for item position pos; merges keeping
 * non-dominated, unfathomed states. Core after the step: [s, t1 - 1]. */
static int expand(dp_ctx *d, int64_t dw, int64_t dp, int64_t pos, size_t s,
                  size_t t1)
{
    size_t need = 2 * d->m;
    if (need > d->cap) {
        size_t cap = need * 2;
        state *a = realloc(d->cur, cap * sizeof *a);
        if (!a)
            return SO_ENOMEM;
        d->cur = a;
        state *b = realloc(d->next, cap * sizeof *b);
        if (!b)
            return SO_ENOMEM;
        d->next = b;
        d->cap = cap;
    }
    int64_t c = d->kp->capacity;
    size_t i = 0, j = 0, out = 0;
    int64_t last_p = INT64_MIN;
    while (i < d->m || j < d->m) {
        state x;
        int shifted;
        if (j >= d->m || (i < d->m && d->cur[i].w <= d->cur[j].w + dw)) {
            x = d->cur[i++];
            shifted = 0;
        } else {
            x = d->cur[j++];
            x.w += dw;
            x.p += dp;
            shifted = 1;
        }
        if (x.p <= last_p)
            continue; /* dominated by a lighter (or equal) state */
        if (out > 0 && d->next[out - 1].w == x.w)
            out--; /* same weight, more profit: replaces it */
        if (shifted) {
            int64_t node = arena_push(&d->ar, x.node, pos);
            if (node < 0)
                return SO_ENOMEM;
            x.node = node;
        }
        if (x.w <= c && x.p > d->z) {
            d->z = x.p;
            d->best_node = x.node;
        }
        last_p = x.p;
        if (state_bound(d, &x, s, t1) > d->z)
            d->next[out++] = x;
    }
    state *tmp = d->cur;
    d->cur = d->next;
    d->next = tmp;
    d->m = out;
    if (d->ar.n > 2 * d->ar.compacted_at + 4096)
        return arena_compact(&d->ar, d->cur, d->m, &d->best_node);
    return SO_OK;
}

/* x from the best state's deviation chain. */
static void decode(const dp_ctx *d, int64_t node, unsigned char *x)
{
    memset(x, 0, d->n);
    for (size_t k = 0; k < d->b; k++)
        x[d->ord[k]] = 1;
    for (int64_t v = node; v >= 0; v = d->ar.rec[v].parent)
        x[d->ord[d->ar.rec[v].pos]] ^= 1;
}

int so_kp_dp_old_solve(const so_problem *p, const so_params *prm, so_result *r);
int so_kp_dp_old_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    const so_kp *kp = so_kp_of(p);
    dp_ctx d;
    memset(&d, 0, sizeof d);
    d.kp = kp;
    d.n = kp->n;
    size_t *ord = so_kp_order(kp);
    d.pw = malloc((d.n + 1) * sizeof *d.pw);
    d.pp = malloc((d.n + 1) * sizeof *d.pp);
    unsigned char *x = malloc(d.n + 1);
    d.cap = 1024;
    d.cur = malloc(d.cap * sizeof *d.cur);
    d.next = malloc(d.cap * sizeof *d.next);
    int rc = ord && d.pw && d.pp && x && d.cur && d.next ? SO_OK : SO_ENOMEM;
    d.ord = ord;
    double t0 = so_now();
    int status = SO_OPTIMAL;
    int64_t bound = 0;
    if (!rc) {
        int64_t W = 0, P = 0;
        for (size_t k = 0; k < d.n; k++) {
            d.pw[k] = kp->weight[ord[k]];
            d.pp[k] = kp->profit[ord[k]];
        }
        while (d.b < d.n && W + d.pw[d.b] <= kp->capacity) {
            W += d.pw[d.b];
            P += d.pp[d.b];
            d.b++;
        }
        d.z = P;
        d.best_node = -1;
        d.m = 1;
        d.cur[0] = (state){W, P, -1};
        size_t s = d.b, t1 = d.b; /* core = [s, t1 - 1] */
        while (!rc && d.m > 0 && (s > 0 || t1 < d.n)) {
            if (t1 < d.n) {
                size_t k = t1++;
                rc = expand(&d, d.pw[k], d.pp[k], (int64_t)k, s, t1);
            }
            if (!rc && s > 0 && d.m > 0) {
                size_t k = --s;
                rc = expand(&d, -d.pw[k], -d.pp[k], (int64_t)k, s, t1);
            }
            if (!rc && prm->time_limit > 0 && so_now() - t0 > prm->time_limit) {
                status = SO_TIMELIMIT;
                break;
            }
        }
        bound = d.z;
        for (size_t k = 0; status == SO_TIMELIMIT && k < d.m; k++) {
            int64_t u = state_bound(&d, &d.cur[k], s, t1);
            if (u > bound)
                bound = u;
        }
    }
    if (!rc) {
        decode(&d, d.best_node, x);
        so_kp_report(kp, r, status, x, 1, bound);
    } else {
        so_result_set_message(r, "out of memory: %zu live states", d.m);
    }
    free(ord);
    free(d.pw);
    free(d.pp);
    free(x);
    free(d.cur);
    free(d.next);
    free(d.ar.rec);
    return rc;
}
