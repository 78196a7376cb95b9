/* sum_tree.c — treaps keyed by id with subtree sums of k values
 * (sum_tree.h). Split and merge keep the heap order of the priorities
 * (ties by the smaller id), so every tree is the Cartesian tree of its
 * members; a node's sums are (left + own) + right, recomputed on every
 * path a change walks. Recursion depth: the height, O(log n) expected. */
#include <stdlib.h>
#include <string.h>
#include "cluster/sum_tree.h"

int so_cl_sum_forest_init(so_cl_sum_forest *f, int n_trees, int n_ids, int k)
{
    size_t n = (size_t)(n_ids > 0 ? n_ids : 1);
    size_t nk = (size_t)(k > 0 ? k : 1);
    *f = (so_cl_sum_forest){.k = k};
    if (so_cl_treap_ids_init(&f->t, n_trees, n_ids))
        return -1;
    f->val = calloc(n * nk, sizeof(double));
    f->sum = calloc(n * nk, sizeof(double));
    if (!f->val || !f->sum) {
        so_cl_sum_forest_free(f);
        return -1;
    }
    return 0;
}

void so_cl_sum_forest_free(so_cl_sum_forest *f)
{
    so_cl_treap_ids_free(&f->t);
    free(f->val);
    free(f->sum);
    *f = (so_cl_sum_forest){0};
}

static void pull(so_cl_sum_forest *f, int x)
{
    int k = f->k, l = f->t.left[x], r = f->t.right[x];
    double *s = f->sum + (size_t)x * k;
    const double *v = f->val + (size_t)x * k;
    for (int i = 0; i < k; i++) {
        double t = l >= 0 ? f->sum[(size_t)l * k + i] + v[i] : v[i];
        s[i] = r >= 0 ? t + f->sum[(size_t)r * k + i] : t;
    }
}

/* a above b in the heap order */
static int above(const so_cl_sum_forest *f, int a, int b)
{
    return f->t.prio[a] > f->t.prio[b] || (f->t.prio[a] == f->t.prio[b] && a < b);
}

/* Splits t into the ids < key (*l) and the rest (*r). */
static void split(so_cl_sum_forest *f, int t, int key, int *l, int *r)
{
    if (t < 0) {
        *l = *r = -1;
        return;
    }
    if (t < key) {
        split(f, f->t.right[t], key, &f->t.right[t], r);
        *l = t;
    } else {
        split(f, f->t.left[t], key, l, &f->t.left[t]);
        *r = t;
    }
    pull(f, t);
}

/* Joins a and b, every id of a below every id of b. */
static int merge(so_cl_sum_forest *f, int a, int b)
{
    if (a < 0)
        return b;
    if (b < 0)
        return a;
    if (above(f, a, b)) {
        f->t.right[a] = merge(f, f->t.right[a], b);
        pull(f, a);
        return a;
    }
    f->t.left[b] = merge(f, a, f->t.left[b]);
    pull(f, b);
    return b;
}

/* Recomputes the sums on the path from t down to id (a member of t). */
static void repull(so_cl_sum_forest *f, int t, int id)
{
    if (t != id)
        repull(f, id < t ? f->t.left[t] : f->t.right[t], id);
    pull(f, t);
}

void so_cl_sum_remove(so_cl_sum_forest *f, int id)
{
    int t = f->t.tree[id];
    if (t < 0)
        return;
    int l, mid, r;
    split(f, f->t.root[t], id, &l, &mid);
    split(f, mid, id + 1, &mid, &r);
    f->t.root[t] = merge(f, l, r);
    f->t.tree[id] = f->t.left[id] = f->t.right[id] = -1;
}

void so_cl_sum_set(so_cl_sum_forest *f, int tree, int id, const double *v)
{
    double *own = f->val + (size_t)id * f->k;
    size_t bytes = (size_t)f->k * sizeof *v;
    if (f->t.tree[id] == tree && !memcmp(own, v, bytes))
        return; /* unchanged */
    memcpy(own, v, bytes);
    if (f->t.tree[id] == tree) {
        repull(f, f->t.root[tree], id);
        return;
    }
    so_cl_sum_remove(f, id);
    int l, r;
    split(f, f->t.root[tree], id, &l, &r);
    f->t.tree[id] = tree;
    pull(f, id);
    f->t.root[tree] = merge(f, merge(f, l, id), r);
}

void so_cl_sum_total(const so_cl_sum_forest *f, int tree, double *out)
{
    int t = f->t.root[tree];
    for (int i = 0; i < f->k; i++)
        out[i] = t >= 0 ? f->sum[(size_t)t * f->k + i] : 0.0;
}
