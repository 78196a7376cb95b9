/* rap_heap.c — indexed binary min-heap with decrease- and increase-key. */
#include <stdlib.h>
#include "solvers/rap_heap.h"

#define NONE ((size_t)-1)

int so_heap_init(so_heap *h, size_t n)
{
    size_t k = n ? n : 1;
    h->n = n;
    h->size = 0;
    h->item = malloc(k * sizeof *h->item);
    h->pos = malloc(k * sizeof *h->pos);
    h->key = malloc(k * sizeof *h->key);
    h->tie = malloc(k * sizeof *h->tie);
    if (!h->item || !h->pos || !h->key || !h->tie) {
        so_heap_free(h);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        h->pos[i] = NONE;
    return 0;
}

void so_heap_free(so_heap *h)
{
    free(h->item);
    free(h->pos);
    free(h->key);
    free(h->tie);
    h->item = h->pos = h->tie = NULL;
    h->key = NULL;
}

static int less(const so_heap *h, size_t a, size_t b)
{
    return h->key[a] < h->key[b] || (h->key[a] == h->key[b] && h->tie[a] < h->tie[b]);
}

static void place(so_heap *h, size_t p, size_t i)
{
    h->item[p] = i;
    h->pos[i] = p;
}

static void sift_up(so_heap *h, size_t p)
{
    size_t i = h->item[p];
    while (p > 0 && less(h, i, h->item[(p - 1) / 2])) {
        place(h, p, h->item[(p - 1) / 2]);
        p = (p - 1) / 2;
    }
    place(h, p, i);
}

static void sift_down(so_heap *h, size_t p)
{
    size_t i = h->item[p];
    for (;;) {
        size_t c = 2 * p + 1;
        if (c >= h->size)
            break;
        if (c + 1 < h->size && less(h, h->item[c + 1], h->item[c]))
            c++;
        if (!less(h, h->item[c], i))
            break;
        place(h, p, h->item[c]);
        p = c;
    }
    place(h, p, i);
}

void so_heap_set(so_heap *h, size_t i, double key, size_t tie)
{
    h->key[i] = key;
    h->tie[i] = tie;
    if (h->pos[i] == NONE) {
        place(h, h->size++, i);
        sift_up(h, h->size - 1);
        return;
    }
    sift_up(h, h->pos[i]);
    sift_down(h, h->pos[i]);
}

void so_heap_remove(so_heap *h, size_t i)
{
    size_t p = h->pos[i];
    if (p == NONE)
        return;
    h->pos[i] = NONE;
    if (--h->size == p)
        return;
    place(h, p, h->item[h->size]);
    sift_up(h, p);
    sift_down(h, h->pos[h->item[p]]);
}

size_t so_heap_top(const so_heap *h)
{
    return h->size ? h->item[0] : NONE;
}
