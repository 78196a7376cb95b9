/* treap_ids.c — the shared skeleton of the id-keyed treap forests
 * (treap_ids.h). */
#include <stdint.h>
#include <stdlib.h>
#include "cluster/treap_ids.h"

int so_cl_treap_ids_init(so_cl_treap_ids *t, int n_trees, int n_ids)
{
    size_t n = (size_t)(n_ids > 0 ? n_ids : 1);
    size_t nt = (size_t)(n_trees > 0 ? n_trees : 1);
    *t = (so_cl_treap_ids){.n_ids = n_ids, .n_trees = n_trees};
    t->root = malloc(nt * sizeof(int));
    t->tree = malloc(n * sizeof(int));
    t->left = malloc(n * sizeof(int));
    t->right = malloc(n * sizeof(int));
    t->prio = malloc(n * sizeof(unsigned));
    if (!t->root || !t->tree || !t->left || !t->right || !t->prio) {
        so_cl_treap_ids_free(t);
        return -1;
    }
    for (size_t k = 0; k < nt; k++)
        t->root[k] = -1;
    for (size_t i = 0; i < n; i++) {
        t->tree[i] = t->left[i] = t->right[i] = -1;
        uint32_t x = (uint32_t)i * 2654435761u + 0x9e3779b9u; /* mix */
        x ^= x >> 16;
        x *= 0x85ebca6bu;
        x ^= x >> 13;
        t->prio[i] = x;
    }
    return 0;
}

void so_cl_treap_ids_free(so_cl_treap_ids *t)
{
    free(t->root);
    free(t->tree);
    free(t->left);
    free(t->right);
    free(t->prio);
    *t = (so_cl_treap_ids){0};
}
