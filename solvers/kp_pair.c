/* kp_pair.c — pairing of DP states with single items outside the core, to
 * raise kp-dp's incumbent early.
 *
 * S. Martello, D. Pisinger and P. Toth, "Dynamic programming and strong
 * bounds for the 0-1 knapsack problem", Management Science 45(3), 1999,
 * section 4 ("improving the lower bound by pairing"): a state (w, p) that
 * fits may be completed by one more item j outside the core (x_j = 0 in
 * every state), an overweight state repaired by removing one item i outside
 * the core (x_i = 1 in every state); the best such single flip is a
 * feasible solution and may beat the incumbent. Choices where the paper is
 * silent:
 *   - the candidates are every item outside the core at its break value,
 *     including items the reduction test skipped; an item leaves the
 *     candidate set when it enters the core (so_kp_pair_drop);
 *   - the best flip is found exactly in O(log n): the "add" items (those
 *     after the break item) and the "remove" items (before it) are each
 *     sorted by weight under a segment tree holding, per range, the most
 *     profitable add item / the least profitable remove item;
 *   - when kp-dp pairs is its choice (kp_dp.c). */
#include <stdlib.h>
#include "solvers/kp_pair.h"

typedef struct {
    size_t size;     /* leaves, a power of two */
    int64_t *w;      /* weights by leaf, ascending (INT64_MAX padding) */
    int64_t *val;    /* tree: 2 * size; leaf value at size + k */
    size_t *pos;     /* tree: position in efficiency order of the best leaf */
    int maximise;
} tree;

struct kp_pairing {
    tree add, rem;
    size_t *leaf; /* position -> leaf in its tree */
    size_t b;
};

static int by_weight(const void *a, const void *b, void *arg)
{
    const int64_t *w = arg;
    int64_t x = w[*(const size_t *)a], y = w[*(const size_t *)b];
    return (x > y) - (x < y);
}

static int better(const tree *t, int64_t a, int64_t b)
{
    return t->maximise ? a > b : a < b;
}

static void pull(tree *t, size_t k)
{
    size_t l = 2 * k, r = 2 * k + 1;
    size_t c = better(t, t->val[r], t->val[l]) ? r : l;
    t->val[k] = t->val[c];
    t->pos[k] = t->pos[c];
}

static int build(tree *t, const size_t *items, size_t m, const int64_t *pw,
                 const int64_t *pp, size_t *leaf, int maximise)
{
    t->maximise = maximise;
    t->size = 1;
    while (t->size < m)
        t->size *= 2;
    t->w = malloc(t->size * sizeof *t->w);
    t->val = malloc(2 * t->size * sizeof *t->val);
    t->pos = malloc(2 * t->size * sizeof *t->pos);
    if (!t->w || !t->val || !t->pos)
        return SO_ENOMEM;
    int64_t none = maximise ? INT64_MIN : INT64_MAX;
    for (size_t k = 0; k < t->size; k++) {
        t->w[k] = k < m ? pw[items[k]] : INT64_MAX;
        t->val[t->size + k] = k < m ? pp[items[k]] : none;
        t->pos[t->size + k] = k < m ? items[k] : 0;
        if (k < m)
            leaf[items[k]] = k;
    }
    for (size_t k = t->size; k-- > 1;)
        pull(t, k);
    return SO_OK;
}

static void tree_free(tree *t)
{
    free(t->w);
    free(t->val);
    free(t->pos);
}

/* best value over leaves [lo, hi) */
static int query(const tree *t, size_t lo, size_t hi, int64_t *v, size_t *pos)
{
    int64_t best = t->maximise ? INT64_MIN : INT64_MAX;
    size_t bp = 0;
    for (lo += t->size, hi += t->size; lo < hi; lo /= 2, hi /= 2) {
        if (lo & 1) {
            if (better(t, t->val[lo], best))
                best = t->val[lo], bp = t->pos[lo];
            lo++;
        }
        if (hi & 1) {
            hi--;
            if (better(t, t->val[hi], best))
                best = t->val[hi], bp = t->pos[hi];
        }
    }
    if (best == (t->maximise ? INT64_MIN : INT64_MAX))
        return 0;
    *v = best;
    *pos = bp;
    return 1;
}

/* first leaf with weight > x (upper bound) or >= x (lower bound) */
static size_t bound(const tree *t, int64_t x, int strict)
{
    size_t lo = 0, hi = t->size;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strict ? t->w[mid] <= x : t->w[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

kp_pairing *so_kp_pair_new(const int64_t *pw, const int64_t *pp, size_t n,
                           size_t b)
{
    kp_pairing *k = calloc(1, sizeof *k);
    size_t *items = malloc((n ? n : 1) * sizeof *items);
    if (!k || !items || !(k->leaf = malloc((n ? n : 1) * sizeof *k->leaf))) {
        free(items);
        if (k)
            free(k->leaf);
        free(k);
        return NULL;
    }
    k->b = b;
    for (size_t i = 0; i < n; i++)
        items[i] = i;
    qsort_r(items, b, sizeof *items, by_weight, (void *)pw);
    qsort_r(items + b, n - b, sizeof *items, by_weight, (void *)pw);
    int rc = build(&k->rem, items, b, pw, pp, k->leaf, 0);
    if (!rc)
        rc = build(&k->add, items + b, n - b, pw, pp, k->leaf, 1);
    free(items);
    if (rc) {
        so_kp_pair_free(k);
        return NULL;
    }
    return k;
}

void so_kp_pair_free(kp_pairing *k)
{
    if (!k)
        return;
    tree_free(&k->add);
    tree_free(&k->rem);
    free(k->leaf);
    free(k);
}

void so_kp_pair_drop(kp_pairing *k, size_t pos)
{
    tree *t = pos < k->b ? &k->rem : &k->add;
    size_t x = t->size + k->leaf[pos];
    t->val[x] = t->maximise ? INT64_MIN : INT64_MAX;
    for (x /= 2; x >= 1; x /= 2)
        pull(t, x);
}

int so_kp_pair_best_add(const kp_pairing *k, int64_t room, int64_t *profit,
                        size_t *pos)
{
    return query(&k->add, 0, bound(&k->add, room, 1), profit, pos);
}

int so_kp_pair_best_remove(const kp_pairing *k, int64_t excess, int64_t *profit,
                           size_t *pos)
{
    return query(&k->rem, bound(&k->rem, excess, 0), k->rem.size, profit, pos);
}
