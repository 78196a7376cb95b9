/* rap_heap.h — an indexed binary min-heap of items 0..n-1 keyed by
 * (key, tie) (internal). Used by the greedy RAP solver (negated marginal
 * gains) and by the event-driven MPS (completion times, priority ranks). */
#ifndef SO_RAP_HEAP_H
#define SO_RAP_HEAP_H
#include <stddef.h>

typedef struct so_heap {
    size_t n, size;
    size_t *item; /* heap position -> item */
    size_t *pos;  /* item -> heap position, or (size_t)-1 if absent */
    double *key;
    size_t *tie;  /* smaller tie first among equal keys */
} so_heap;

int so_heap_init(so_heap *h, size_t n);
void so_heap_free(so_heap *h);
/* Inserts i or changes its key (both directions). */
void so_heap_set(so_heap *h, size_t i, double key, size_t tie);
void so_heap_remove(so_heap *h, size_t i);
/* The item with the smallest (key, tie); (size_t)-1 when empty. */
size_t so_heap_top(const so_heap *h);

#endif
