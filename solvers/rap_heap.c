/* rap_heap.c — indexed binary min-heap with decrease- and increase-key.
 * Each heap position holds its entry (key, tie, item), so sifting reads
 * one array; pos and key are per item. */
#include <stdlib.h>
#include "solvers/rap_heap.h"

#define NONE ((size_t)-1)

int so_heap_init(so_heap *h, size_t n)
{
    size_t k = n ? n : 1;
    h->n = n;
    h->size = 0;
    h->at = malloc(k * sizeof *h->at);
    h->pos = malloc(k * sizeof *h->pos);
    h->key = malloc(k * sizeof *h->key);
    if (!h->at || !h->pos || !h->key) {
        so_heap_free(h);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        h->pos[i] = NONE;
    return 0;
}

void so_heap_free(so_heap *h)
{
    free(h->at);
    free(h->pos);
    free(h->key);
    h->at = NULL;
    h->pos = NULL;
    h->key = NULL;
}

static int less(const so_heap_entry *a, const so_heap_entry *b)
{
    return a->key < b->key || (a->key == b->key && a->tie < b->tie);
}

static void place(so_heap *h, size_t p, so_heap_entry e)
{
    h->at[p] = e;
    h->pos[e.item] = p;
}

static void sift_up(so_heap *h, size_t p)
{
    so_heap_entry e = h->at[p];
    while (p > 0 && less(&e, &h->at[(p - 1) / 2])) {
        place(h, p, h->at[(p - 1) / 2]);
        p = (p - 1) / 2;
    }
    place(h, p, e);
}

static void sift_down(so_heap *h, size_t p)
{
    so_heap_entry e = h->at[p];
    for (;;) {
        size_t c = 2 * p + 1;
        if (c >= h->size)
            break;
        if (c + 1 < h->size && less(&h->at[c + 1], &h->at[c]))
            c++;
        if (!less(&h->at[c], &e))
            break;
        place(h, p, h->at[c]);
        p = c;
    }
    place(h, p, e);
}

void so_heap_set(so_heap *h, size_t i, double key, size_t tie)
{
    h->key[i] = key;
    so_heap_entry e = {key, tie, i};
    if (h->pos[i] == NONE) {
        place(h, h->size++, e);
        sift_up(h, h->size - 1);
        return;
    }
    size_t p = h->pos[i];
    int up = less(&e, &h->at[p]); /* the entry moves towards the top */
    h->at[p] = e;
    if (up)
        sift_up(h, p);
    else
        sift_down(h, p);
}

void so_heap_remove(so_heap *h, size_t i)
{
    size_t p = h->pos[i];
    if (p == NONE)
        return;
    h->pos[i] = NONE;
    if (--h->size == p)
        return;
    place(h, p, h->at[h->size]);
    if (p > 0 && less(&h->at[p], &h->at[(p - 1) / 2]))
        sift_up(h, p);
    else
        sift_down(h, p);
}

void so_heap_clear(so_heap *h)
{
    for (size_t p = 0; p < h->size; p++)
        h->pos[h->at[p].item] = NONE;
    h->size = 0;
}

size_t so_heap_top(const so_heap *h)
{
    return h->size ? h->at[0].item : NONE;
}
