/* sum_tree.c — treaps keyed by id with subtree sums of k values
 * (sum_tree.h). Split and merge keep the heap order of the priorities
 * (ties by the smaller id), so every tree is the Cartesian tree of its
 * members; a node's sums are (left + own) + right, recomputed on every
 * path a change walks. Recursion depth: the height, O(log n) expected. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/sum_tree.h"

int so_cl_sum_forest_init(so_cl_sum_forest *f, int n_trees, int n_ids, int k)
{
    size_t n = (size_t)(n_ids > 0 ? n_ids : 1);
    size_t nt = (size_t)(n_trees > 0 ? n_trees : 1);
    size_t nk = (size_t)(k > 0 ? k : 1);
    *f = (so_cl_sum_forest){.n_ids = n_ids, .n_trees = n_trees, .k = k};
    f->root = malloc(nt * sizeof(int));
    f->tree = malloc(n * sizeof(int));
    f->left = malloc(n * sizeof(int));
    f->right = malloc(n * sizeof(int));
    f->prio = malloc(n * sizeof(unsigned));
    f->val = calloc(n * nk, sizeof(double));
    f->sum = calloc(n * nk, sizeof(double));
    if (!f->root || !f->tree || !f->left || !f->right || !f->prio ||
        !f->val || !f->sum) {
        so_cl_sum_forest_free(f);
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

void so_cl_sum_forest_free(so_cl_sum_forest *f)
{
    free(f->root);
    free(f->tree);
    free(f->left);
    free(f->right);
    free(f->prio);
    free(f->val);
    free(f->sum);
    *f = (so_cl_sum_forest){0};
}

static void pull(so_cl_sum_forest *f, int x)
{
    int k = f->k, l = f->left[x], r = f->right[x];
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
    return f->prio[a] > f->prio[b] || (f->prio[a] == f->prio[b] && a < b);
}

/* Splits t into the ids < key (*l) and the rest (*r). */
static void split(so_cl_sum_forest *f, int t, int key, int *l, int *r)
{
    if (t < 0) {
        *l = *r = -1;
        return;
    }
    if (t < key) {
        split(f, f->right[t], key, &f->right[t], r);
        *l = t;
    } else {
        split(f, f->left[t], key, l, &f->left[t]);
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
        f->right[a] = merge(f, f->right[a], b);
        pull(f, a);
        return a;
    }
    f->left[b] = merge(f, a, f->left[b]);
    pull(f, b);
    return b;
}

/* Recomputes the sums on the path from t down to id (a member of t). */
static void repull(so_cl_sum_forest *f, int t, int id)
{
    if (t != id)
        repull(f, id < t ? f->left[t] : f->right[t], id);
    pull(f, t);
}

void so_cl_sum_remove(so_cl_sum_forest *f, int id)
{
    int t = f->tree[id];
    if (t < 0)
        return;
    int l, mid, r;
    split(f, f->root[t], id, &l, &mid);
    split(f, mid, id + 1, &mid, &r);
    f->root[t] = merge(f, l, r);
    f->tree[id] = f->left[id] = f->right[id] = -1;
}

void so_cl_sum_set(so_cl_sum_forest *f, int tree, int id, const double *v)
{
    double *own = f->val + (size_t)id * f->k;
    size_t bytes = (size_t)f->k * sizeof *v;
    if (f->tree[id] == tree && !memcmp(own, v, bytes))
        return; /* unchanged */
    memcpy(own, v, bytes);
    if (f->tree[id] == tree) {
        repull(f, f->root[tree], id);
        return;
    }
    so_cl_sum_remove(f, id);
    int l, r;
    split(f, f->root[tree], id, &l, &r);
    f->tree[id] = tree;
    pull(f, id);
    f->root[tree] = merge(f, merge(f, l, id), r);
}

void so_cl_sum_total(const so_cl_sum_forest *f, int tree, double *out)
{
    int t = f->root[tree];
    for (int i = 0; i < f->k; i++)
        out[i] = t >= 0 ? f->sum[(size_t)t * f->k + i] : 0.0;
}
