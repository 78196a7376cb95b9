/* flex_order_inc.c — a priority order kept from one FLEX instance to the
 * next (issue 16: the cluster model solves a phase's instance every few
 * epochs, and most jobs' keys have not moved since the last solve).
 * The order is the one of so_flex_order (flex_orders.c: by key, ties by
 * instance index) for the keys SPT, SMITH, ALONE and SMITH_ALONE, given
 * stable job ids ascending with the instance index (the cluster's job
 * numbers; then ties by index are ties by id). The jobs whose key is the
 * same, bit for bit, as at the last call keep their relative order (a
 * subsequence of a sorted sequence is sorted); the others are sorted by
 * so_flex_order's sort and merged in with its comparison: the same order
 * in O(J + m log m) for m moved jobs instead of a sort of all J. A NaN key
 * (no order for the comparison) falls back to so_flex_order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "heuristics/flex.h"

struct so_flex_order_inc {
    int max_id;
    double *key;            /* per id: key at the last call */
    unsigned *stamp;        /* per id: call number when it was listed */
    unsigned calls;
    int *order;             /* ids in the last call's order */
    size_t n;
    size_t cap;
    size_t *k_of;           /* per id: instance index in this call */
    double *now;            /* per instance job: its key now */
    size_t *moved, *merged; /* instance jobs */
    so_flex *sub;           /* the moved jobs as an instance (sorting) */
};

void so_flex_order_inc_free(so_flex_order_inc *o)
{
    if (!o)
        return;
    free(o->key);
    free(o->stamp);
    free(o->order);
    free(o->k_of);
    free(o->now);
    free(o->moved);
    free(o->merged);
    so_flex_free(o->sub);
    free(o);
}

so_flex_order_inc *so_flex_order_inc_new(int max_id)
{
    so_flex_order_inc *o = calloc(1, sizeof *o);
    size_t m = max_id > 0 ? (size_t)max_id : 1;
    if (!o)
        return NULL;
    o->max_id = max_id;
    o->calls = 1; /* stamps 0: never listed */
    o->key = malloc(m * sizeof *o->key);
    o->stamp = calloc(m, sizeof *o->stamp);
    o->k_of = malloc(m * sizeof *o->k_of);
    if (!o->key || !o->stamp || !o->k_of) {
        so_flex_order_inc_free(o);
        return NULL;
    }
    return o;
}

static int reserve(so_flex_order_inc *o, size_t n)
{
    if (n <= o->cap)
        return 0;
    size_t c = n > 2 * o->cap ? n : 2 * o->cap;
    int *order = realloc(o->order, c * sizeof *order);
    if (order)
        o->order = order;
    double *now = realloc(o->now, c * sizeof *now);
    if (now)
        o->now = now;
    size_t *moved = realloc(o->moved, c * sizeof *moved);
    if (moved)
        o->moved = moved;
    size_t *merged = realloc(o->merged, c * sizeof *merged);
    if (merged)
        o->merged = merged;
    so_flex *sub = so_flex_new(c, 0);
    if (!order || !now || !moved || !merged || !sub) {
        so_flex_free(sub);
        return -1;
    }
    so_flex_free(o->sub);
    o->sub = sub;
    o->cap = c;
    return 0;
}

/* so_flex_order's comparison: by key (equal when ==), then index. */
static int before(double ka, size_t a, double kb, size_t b)
{
    if (ka != kb)
        return ka < kb;
    return a < b;
}

int so_flex_order_inc_run(so_flex_order_inc *o, const so_flex *f, int kind,
                          const int *ids, size_t *order)
{
    size_t n = f->n;
    if (reserve(o, n))
        return SO_ENOMEM;
    int nan = 0;
    o->n = o->n <= o->cap ? o->n : 0;
    for (size_t k = 0; k < n; k++) {
        o->now[k] = so_flex_order_key(f, kind, k);
        nan |= isnan(o->now[k]);
        if (ids[k] < 0 || ids[k] >= o->max_id || (k > 0 && ids[k] <= ids[k - 1])) {
            o->n = 0;
            return SO_EINVAL;
        }
    }
    unsigned cur = ++o->calls, prev = cur - 1; /* stamps of this, last call */
    if (nan) { /* no merge: sort all, and forget the last order */
        o->n = 0;
        return so_flex_order(f, kind, order);
    }
    size_t kept = 0, n_moved = 0;
    for (size_t k = 0; k < n; k++) {
        int id = ids[k];
        o->k_of[id] = k;
        if (!(o->stamp[id] == prev &&
              !memcmp(&o->key[id], &o->now[k], sizeof o->now[k])))
            o->moved[n_moved++] = k;
    }
    /* the last order's jobs listed now with the same key keep their order
     * (as instance indices, ascending with ids: the ties stay by index) */
    for (size_t i = 0; i < o->n; i++) {
        int id = o->order[i];
        size_t k = o->k_of[id];
        if (k < n && ids[k] == id &&
            !memcmp(&o->key[id], &o->now[k], sizeof o->now[k]))
            order[kept++] = k;
    }
    /* the moved jobs sorted as so_flex_order sorts them: a sub-instance of
     * their keys under SPT (key = work), whose indices ascend with k */
    so_flex *sub = o->sub;
    sub->n = n_moved;
    sub->slots = 1;
    sub->metric = SO_FLEX_RESPONSE;
    for (size_t i = 0; i < n_moved; i++) {
        sub->work[i] = o->now[o->moved[i]];
        sub->max[i] = 1;
    }
    int rc = so_flex_order(sub, SO_FLEX_ORDER_SPT, o->merged);
    if (rc) {
        o->n = 0;
        return rc;
    }
    for (size_t i = 0; i < n_moved; i++)
        o->merged[i] = o->moved[o->merged[i]];
    /* merge kept (order[0..kept)) and moved (merged[0..n_moved)) into
     * order, from the back so that order's kept part is read before it is
     * overwritten */
    size_t a = kept, b = n_moved, out = n;
    while (b > 0) {
        size_t x = order[a > 0 ? a - 1 : 0], y = o->merged[b - 1];
        if (a > 0 && before(o->now[y], y, o->now[x], x))
            order[--out] = order[--a];
        else
            order[--out] = o->merged[--b];
    }
    /* remember this call's order and keys */
    for (size_t i = 0; i < n; i++) {
        int id = ids[order[i]];
        o->order[i] = id;
        o->key[id] = o->now[order[i]];
        o->stamp[id] = cur;
    }
    o->n = n;
    return SO_OK;
}
