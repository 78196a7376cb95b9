/* id_set.h — a set of integer ids 0..n-1 with rank queries: membership
 * changes and the k-th smallest member in O(log n) (a Fenwick tree of
 * counts), for policies that need the first members of a changing set in
 * id order (sched_flex.c: the first S jobs still learning their task
 * time, in job order). */
#ifndef SO_CL_ID_SET_H
#define SO_CL_ID_SET_H

typedef struct so_cl_id_set {
    int n;              /* ids 0..n-1 */
    int count;          /* members */
    int top;            /* largest power of two <= n (0 when n = 0) */
    int *tree;          /* Fenwick tree, 1-based, n + 1 entries */
    unsigned char *in;  /* per id: member */
} so_cl_id_set;

/* An empty set over n >= 0 ids; 0, or -1 when out of memory. */
int so_cl_id_set_init(so_cl_id_set *s, int n);
void so_cl_id_set_free(so_cl_id_set *s);
/* Makes id a member (on != 0) or not; no-op when it already is so. */
void so_cl_id_set_put(so_cl_id_set *s, int id, int on);
/* The k-th smallest member, k = 0..count-1, or -1 when k is out of range. */
int so_cl_id_set_kth(const so_cl_id_set *s, int k);

#endif
