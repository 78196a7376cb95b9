/* level_tree.h — the water level of a waterline with zero minima, kept
 * between calls: entities (ids) with demand d > 0 and weight w > 0 live in
 * treaps (a forest: one tree per waterline, e.g. per pool; an id in at most
 * one tree) ordered by (d / w, id) whose nodes carry the sums of d and w of their
 * subtree, so that the level r with sum_i min(d_i, r w_i) = total is found
 * by one descent, O(log n), and an entity's demand changes in O(log n).
 *
 * The level is the one so_cl_waterline (fair_share.c) computes for zero
 * minima: its sweep over the breakpoints d_i / w_i in the same order stops
 * at the first breakpoint k with c_k + s_k r_k >= total (c_k: demand of the
 * entities before k, s_k: weight of the others) and returns (total - c_k) /
 * s_k; the descent finds the same k. The sums are added in another order,
 * so the level is the same bit for bit whenever the sums are exact (integer
 * demands, weights that are integers or short binary fractions, as every
 * shipped workload has); otherwise it can differ in the last bits. */
#ifndef SO_CL_LEVEL_TREE_H
#define SO_CL_LEVEL_TREE_H

#include "cluster/treap_ids.h"

typedef struct so_cl_level_forest {
    so_cl_treap_ids t;   /* roots, trees, children, priorities */
    double *d, *w, *ratio;
    double *sum_d, *sum_w; /* per id: its subtree's sums */
} so_cl_level_forest;

int so_cl_level_forest_init(so_cl_level_forest *f, int n_trees, int n_ids);
void so_cl_level_forest_free(so_cl_level_forest *f);

/* Puts id with demand d > 0 and weight w > 0 in `tree` (moving it there, or
 * changing its demand and weight, if it is in a tree already). */
void so_cl_level_set(so_cl_level_forest *f, int tree, int id, double d,
                     double w);
/* Takes id out of its tree (no-op if in none). */
void so_cl_level_remove(so_cl_level_forest *f, int id);

/* Sum of the demands of a tree (exact for integer demands). */
double so_cl_level_demand(const so_cl_level_forest *f, int tree);

/* The level r of a tree for `slots`: entity i gets min(d_i, r w_i) (as
 * "s < d ? s : d" with s = r w_i) and the shares add up to min(slots,
 * sum d). 0 when the tree is empty or slots <= 0. */
double so_cl_level_solve(const so_cl_level_forest *f, int tree, double slots);

/* Calls fn(ctx, id) for every id of the tree with lo <= d / w <= hi, in
 * order. */
void so_cl_level_range(const so_cl_level_forest *f, int tree, double lo,
                       double hi, void (*fn)(void *ctx, int id), void *ctx);

#endif
