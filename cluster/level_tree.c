/* level_tree.c — treaps of (d / w, id) with subtree sums of d and w, for the
 * water level of a zero-minimum waterline in O(log n) (level_tree.h). The
 * priorities are a fixed hash of the id, so the shapes (and the run) are
 * the same every time. Recursion depth: the treap's height, O(log n)
 * expected. */
#include <stdlib.h>
#include "cluster/level_tree.h"

int so_cl_level_forest_init(so_cl_level_forest *f, int n_trees, int n_ids)
{
    size_t n = (size_t)(n_ids > 0 ? n_ids : 1);
    *f = (so_cl_level_forest){0};
    if (so_cl_treap_ids_init(&f->t, n_trees, n_ids))
        return -1;
    f->d = calloc(n, sizeof(double));
    f->w = calloc(n, sizeof(double));
    f->ratio = calloc(n, sizeof(double));
    f->sum_d = calloc(n, sizeof(double));
    f->sum_w = calloc(n, sizeof(double));
    if (!f->d || !f->w || !f->ratio || !f->sum_d || !f->sum_w) {
        so_cl_level_forest_free(f);
        return -1;
    }
    return 0;
}

void so_cl_level_forest_free(so_cl_level_forest *f)
{
    so_cl_treap_ids_free(&f->t);
    free(f->d);
    free(f->w);
    free(f->ratio);
    free(f->sum_d);
    free(f->sum_w);
    *f = (so_cl_level_forest){0};
}

static void pull(so_cl_level_forest *f, int x)
{
    double sd = f->d[x], sw = f->w[x];
    int l = f->t.left[x], r = f->t.right[x];
    if (l >= 0) {
        sd = f->sum_d[l] + sd;
        sw = f->sum_w[l] + sw;
    }
    if (r >= 0) {
        sd += f->sum_d[r];
        sw += f->sum_w[r];
    }
    f->sum_d[x] = sd;
    f->sum_w[x] = sw;
}

/* Whether id a orders before id b: smaller ratio, then smaller id. */
static int before(const so_cl_level_forest *f, int a, int b)
{
    return f->ratio[a] < f->ratio[b] ||
           (f->ratio[a] == f->ratio[b] && a < b);
}

/* Splits x into the ids before `key` (*lo) and the others (*hi). */
static void split(so_cl_level_forest *f, int x, int key, int *lo, int *hi)
{
    if (x < 0) {
        *lo = *hi = -1;
        return;
    }
    if (before(f, x, key)) {
        split(f, f->t.right[x], key, &f->t.right[x], hi);
        *lo = x;
    } else {
        split(f, f->t.left[x], key, lo, &f->t.left[x]);
        *hi = x;
    }
    pull(f, x);
}

static int merge(so_cl_level_forest *f, int a, int b)
{
    if (a < 0)
        return b;
    if (b < 0)
        return a;
    if (f->t.prio[a] > f->t.prio[b]) {
        f->t.right[a] = merge(f, f->t.right[a], b);
        pull(f, a);
        return a;
    }
    f->t.left[b] = merge(f, a, f->t.left[b]);
    pull(f, b);
    return b;
}

/* Removes id from the subtree x (it is there); returns the new root. */
static int take_out(so_cl_level_forest *f, int x, int id)
{
    if (x == id) {
        int m = merge(f, f->t.left[x], f->t.right[x]);
        f->t.left[x] = f->t.right[x] = -1;
        return m;
    }
    if (before(f, id, x))
        f->t.left[x] = take_out(f, f->t.left[x], id);
    else
        f->t.right[x] = take_out(f, f->t.right[x], id);
    pull(f, x);
    return x;
}

void so_cl_level_remove(so_cl_level_forest *f, int id)
{
    int t = f->t.tree[id];
    if (t < 0)
        return;
    f->t.root[t] = take_out(f, f->t.root[t], id);
    f->t.tree[id] = -1;
}

/* A new demand for an id of `tree` that keeps its place in the order (the
 * common case: a task ended, d - 1): the key and the sums on its path are
 * updated in place. The treap's shape depends only on the keys' order and
 * the priorities, so this is the tree a removal and insertion would build.
 * Returns 0 when the id would move (or the path is deeper than expected). */
static int set_in_place(so_cl_level_forest *f, int tree, int id, double d)
{
    enum { MAX_DEPTH = 128 };
    int path[MAX_DEPTH], n = 0, pred = -1, succ = -1;
    for (int x = f->t.root[tree]; x != id;) {
        if (n == MAX_DEPTH || x < 0)
            return 0;
        path[n++] = x;
        if (before(f, id, x)) {
            succ = x;
            x = f->t.left[x];
        } else {
            pred = x;
            x = f->t.right[x];
        }
    }
    for (int x = f->t.left[id]; x >= 0; x = f->t.right[x])
        pred = x;
    for (int x = f->t.right[id]; x >= 0; x = f->t.left[x])
        succ = x;
    double r = d / f->w[id];
    if ((pred >= 0 && !(f->ratio[pred] < r || (f->ratio[pred] == r && pred < id))) ||
        (succ >= 0 && !(r < f->ratio[succ] || (r == f->ratio[succ] && id < succ))))
        return 0;
    f->d[id] = d;
    f->ratio[id] = r;
    pull(f, id);
    while (n > 0)
        pull(f, path[--n]);
    return 1;
}

void so_cl_level_set(so_cl_level_forest *f, int tree, int id, double d,
                     double w)
{
    if (f->t.tree[id] == tree && f->w[id] == w && set_in_place(f, tree, id, d))
        return;
    so_cl_level_remove(f, id);
    f->d[id] = d;
    f->w[id] = w;
    f->ratio[id] = d / w;
    f->sum_d[id] = d;
    f->sum_w[id] = w;
    int lo, hi;
    split(f, f->t.root[tree], id, &lo, &hi);
    f->t.root[tree] = merge(f, merge(f, lo, id), hi);
    f->t.tree[id] = tree;
}

double so_cl_level_demand(const so_cl_level_forest *f, int tree)
{
    int r = f->t.root[tree];
    return r >= 0 ? f->sum_d[r] : 0;
}

double so_cl_level_solve(const so_cl_level_forest *f, int tree, double slots)
{
    int x = f->t.root[tree];
    if (x < 0)
        return 0;
    double all_w = f->sum_w[x];
    double total = slots < f->sum_d[x] ? slots : f->sum_d[x];
    if (!(total > 0))
        return 0;
    /* the first id k in order with c_k + s_k r_k >= total */
    double c = 0, w_before = 0, c_at = 0, slope_at = 0, last = 0;
    int found = -1;
    while (x >= 0) {
        int l = f->t.left[x];
        double c_here = l >= 0 ? c + f->sum_d[l] : c;
        double w_here = l >= 0 ? w_before + f->sum_w[l] : w_before;
        double slope = all_w - w_here;
        if (c_here + slope * f->ratio[x] >= total) {
            found = x;
            c_at = c_here;
            slope_at = slope;
            x = l;
        } else {
            c = c_here + f->d[x];
            w_before = w_here + f->w[x];
            last = f->ratio[x];
            x = f->t.right[x];
        }
    }
    if (found < 0)
        return last; /* never reached: the largest ratio */
    return slope_at > 0 ? (total - c_at) / slope_at : f->ratio[found];
}

static void range(const so_cl_level_forest *f, int x, double lo, double hi,
                  void (*fn)(void *ctx, int id), void *ctx)
{
    while (x >= 0) {
        if (f->ratio[x] < lo) {
            x = f->t.right[x];
            continue;
        }
        range(f, f->t.left[x], lo, hi, fn, ctx);
        if (f->ratio[x] > hi)
            return;
        fn(ctx, x);
        x = f->t.right[x];
    }
}

void so_cl_level_range(const so_cl_level_forest *f, int tree, double lo,
                       double hi, void (*fn)(void *ctx, int id), void *ctx)
{
    range(f, f->t.root[tree], lo, hi, fn, ctx);
}
