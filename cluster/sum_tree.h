/* sum_tree.h — sums of k values over changing sets of ids: a forest of
 * treaps keyed by id (one tree per set, an id in at most one tree) whose
 * nodes carry the sums of their subtree, so that a member joins, leaves or
 * changes its values in O(k log n) and a set's sums are read in O(k).
 *
 * The priorities are a fixed hash of the id (ties by id), so a tree's
 * shape is the one Cartesian tree of its members: its sums are added in an
 * order that depends only on who the members are and their values, never
 * on the order of the changes. Running sums (add on join, subtract on
 * leave) would drift by rounding over millions of changes; these do not,
 * and equal sums from scratch to within the rounding of one summation.
 * WPBS (sched_wpbs.c) keeps its per-user sums of eq. 7 and Algorithm 3 in
 * them. */
#ifndef SO_CL_SUM_TREE_H
#define SO_CL_SUM_TREE_H

#include "cluster/treap_ids.h"

typedef struct so_cl_sum_forest {
    so_cl_treap_ids t;  /* roots, trees, children, priorities */
    int k;              /* values per id */
    double *val;        /* per id: its k values */
    double *sum;        /* per id: the k sums of its subtree */
} so_cl_sum_forest;

/* n_trees empty trees over ids 0..n_ids-1 with k >= 1 values per id.
 * Returns 0, or -1 when out of memory. */
int so_cl_sum_forest_init(so_cl_sum_forest *f, int n_trees, int n_ids, int k);
void so_cl_sum_forest_free(so_cl_sum_forest *f);

/* Puts id in `tree` with values v[0..k-1] (moving it there, or changing
 * its values, if it is in a tree already; O(k) when nothing changes). */
void so_cl_sum_set(so_cl_sum_forest *f, int tree, int id, const double *v);
/* Takes id out of its tree (no-op if in none). */
void so_cl_sum_remove(so_cl_sum_forest *f, int id);
/* The k sums of a tree's members' values into out (zeros when empty). */
void so_cl_sum_total(const so_cl_sum_forest *f, int tree, double *out);

#endif
