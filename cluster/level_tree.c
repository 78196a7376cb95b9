/* level_tree.c — treaps of (d / w, id) with subtree sums of d and w, for the
 * water level of a zero-minimum waterline in O(log n) (level_tree.h). The
 * priorities are a fixed hash of the id, so the shapes (and the run) are
 * the same every time. Recursion depth: the treap's height, O(log n)
 * expected. */
#include <stdint.h>
#include <stdlib.h>
#include "cluster/level_tree.h"

int so_cl_level_forest_init(so_cl_level_forest *f, int n_trees, int n_ids)
{
    size_t n = (size_t)(n_ids > 0 ? n_ids : 1);
    size_t nt = (size_t)(n_trees > 0 ? n_trees : 1);
    *f = (so_cl_level_forest){.n_ids = n_ids, .n_trees = n_trees};
    f->root = malloc(nt * sizeof(int));
    f->tree = malloc(n * sizeof(int));
    f->left = malloc(n * sizeof(int));
    f->right = malloc(n * sizeof(int));
    f->prio = malloc(n * sizeof(unsigned));
    f->d = calloc(n, sizeof(double));
    f->w = calloc(n, sizeof(double));
    f->ratio = calloc(n, sizeof(double));
    f->sum_d = calloc(n, sizeof(double));
    f->sum_w = calloc(n, sizeof(double));
    if (!f->root || !f->tree || !f->left || !f->right || !f->prio || !f->d ||
        !f->w || !f->ratio || !f->sum_d || !f->sum_w) {
        so_cl_level_forest_free(f);
        return -1;
    }
    for (size_t t = 0; t < nt; t++)
        f->root[t] = -1;
    for (size_t i = 0; i < n; i++) {
        f->tree[i] = f->left[i] = f->right[i] = -1;
        uint32_t x = (uint32_t)i * 2654435761u + 0x9e3779b9u; /* mix */
        x ^= x >> 16;
        x *= 0x85ebca6bu;
        x ^= x >> 13;
        f->prio[i] = x;
    }
    return 0;
}

void so_cl_level_forest_free(so_cl_level_forest *f)
{
    free(f->root);
    free(f->tree);
    free(f->left);
    free(f->right);
    free(f->prio);
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
    int l = f->left[x], r = f->right[x];
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
        split(f, f->right[x], key, &f->right[x], hi);
        *lo = x;
    } else {
        split(f, f->left[x], key, lo, &f->left[x]);
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
    if (f->prio[a] > f->prio[b]) {
        f->right[a] = merge(f, f->right[a], b);
        pull(f, a);
        return a;
    }
    f->left[b] = merge(f, a, f->left[b]);
    pull(f, b);
    return b;
}

/* Removes id from the subtree x (it is there); returns the new root. */
static int take_out(so_cl_level_forest *f, int x, int id)
{
    if (x == id) {
        int m = merge(f, f->left[x], f->right[x]);
        f->left[x] = f->right[x] = -1;
        return m;
    }
    if (before(f, id, x))
        f->left[x] = take_out(f, f->left[x], id);
    else
        f->right[x] = take_out(f, f->right[x], id);
    pull(f, x);
    return x;
}

void so_cl_level_remove(so_cl_level_forest *f, int id)
{
    int t = f->tree[id];
    if (t < 0)
        return;
    f->root[t] = take_out(f, f->root[t], id);
    f->tree[id] = -1;
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
    for (int x = f->root[tree]; x != id;) {
        if (n == MAX_DEPTH || x < 0)
            return 0;
        path[n++] = x;
        if (before(f, id, x)) {
            succ = x;
            x = f->left[x];
        } else {
            pred = x;
            x = f->right[x];
        }
    }
    for (int x = f->left[id]; x >= 0; x = f->right[x])
        pred = x;
    for (int x = f->right[id]; x >= 0; x = f->left[x])
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
    if (f->tree[id] == tree && f->w[id] == w && set_in_place(f, tree, id, d))
        return;
    so_cl_level_remove(f, id);
    f->d[id] = d;
    f->w[id] = w;
    f->ratio[id] = d / w;
    f->sum_d[id] = d;
    f->sum_w[id] = w;
    int lo, hi;
    split(f, f->root[tree], id, &lo, &hi);
    f->root[tree] = merge(f, merge(f, lo, id), hi);
    f->tree[id] = tree;
}

double so_cl_level_demand(const so_cl_level_forest *f, int tree)
{
    int r = f->root[tree];
    return r >= 0 ? f->sum_d[r] : 0;
}

double so_cl_level_solve(const so_cl_level_forest *f, int tree, double slots)
{
    int x = f->root[tree];
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
        int l = f->left[x];
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
            x = f->right[x];
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
            x = f->right[x];
            continue;
        }
        range(f, f->left[x], lo, hi, fn, ctx);
        if (f->ratio[x] > hi)
            return;
        fn(ctx, x);
        x = f->right[x];
    }
}

void so_cl_level_range(const so_cl_level_forest *f, int tree, double lo,
                       double hi, void (*fn)(void *ctx, int id), void *ctx)
{
    range(f, f->root[tree], lo, hi, fn, ctx);
}
