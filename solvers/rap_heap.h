/* rap_heap.h — an indexed binary min-heap of items 0..n-1 keyed by
 * (key, tie) (internal). Used by the greedy RAP solver (negated marginal
 * gains) and by the event-driven MPS (completion times, priority ranks). */
#ifndef SO_RAP_HEAP_H
#define SO_RAP_HEAP_H
#include <stddef.h>

/* A heap position's entry: the comparison reads only the heap array
 * (issue 33: the item-indexed keys cost a cache miss per comparison in
 * FLEX's MPS replays of thousands of jobs). */
typedef struct so_heap_entry {
    double key;
    size_t tie;   /* smaller tie first among equal keys */
    size_t item;
} so_heap_entry;

typedef struct so_heap {
    size_t n, size;
    so_heap_entry *at; /* heap position -> entry */
    size_t *pos;  /* item -> heap position, or (size_t)-1 if absent */
    double *key;  /* item -> its key (while in the heap) */
} so_heap;

int so_heap_init(so_heap *h, size_t n);
void so_heap_free(so_heap *h);
/* Inserts i or changes its key (both directions). */
void so_heap_set(so_heap *h, size_t i, double key, size_t tie);
void so_heap_remove(so_heap *h, size_t i);
/* Removes every item, O(size). */
void so_heap_clear(so_heap *h);
/* The item with the smallest (key, tie); (size_t)-1 when empty. */
size_t so_heap_top(const so_heap *h);

#endif
