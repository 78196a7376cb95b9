/* treap_ids.h — the skeleton of the forests of treaps over ids that
 * level_tree.h and sum_tree.h keep: per tree its root, per id its tree,
 * its children and a fixed heap priority (a hash of the id, so that the
 * shapes, and every run, are the same each time). */
#ifndef SO_CL_TREAP_IDS_H
#define SO_CL_TREAP_IDS_H

typedef struct so_cl_treap_ids {
    int n_ids, n_trees;
    int *root;          /* per tree: its root id, -1 empty */
    int *tree;          /* per id: its tree, -1 none */
    int *left, *right;  /* per id: children, -1 none */
    unsigned *prio;     /* per id: heap priority */
} so_cl_treap_ids;

/* n_trees empty trees over ids 0..n_ids-1. Returns 0, or -1 when out of
 * memory (then nothing is left to free). */
int so_cl_treap_ids_init(so_cl_treap_ids *t, int n_trees, int n_ids);
void so_cl_treap_ids_free(so_cl_treap_ids *t);

#endif
