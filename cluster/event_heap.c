/* event_heap.c — binary min-heap of events keyed by (time, lead, seq); see
 * event_heap.h. */
#include <stdlib.h>
#include "cluster/event_heap.h"

static int before(const so_cl_event *a, const so_cl_event *b)
{
    if (a->time != b->time)
        return a->time < b->time;
    return a->lead != b->lead ? a->lead > b->lead : a->seq < b->seq;
}

void so_cl_heap_init(so_cl_heap *h)
{
    h->ev = NULL;
    h->n = h->cap = 0;
    h->next_seq = 0;
}

void so_cl_heap_free(so_cl_heap *h)
{
    free(h->ev);
    so_cl_heap_init(h);
}

int so_cl_heap_push(so_cl_heap *h, double time, int kind, int id, int lead)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 256;
        so_cl_event *ev = realloc(h->ev, cap * sizeof *ev);
        if (!ev)
            return -1;
        h->ev = ev;
        h->cap = cap;
    }
    so_cl_event e = {time, h->next_seq++, kind, id, lead != 0};
    size_t i = h->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(&e, &h->ev[parent]))
            break;
        h->ev[i] = h->ev[parent];
        i = parent;
    }
    h->ev[i] = e;
    return 0;
}

int so_cl_heap_pop(so_cl_heap *h, so_cl_event *out)
{
    if (h->n == 0)
        return 0;
    *out = h->ev[0];
    so_cl_event last = h->ev[--h->n];
    size_t i = 0, n = h->n;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && before(&h->ev[child + 1], &h->ev[child]))
            child++;
        if (!before(&h->ev[child], &last))
            break;
        h->ev[i] = h->ev[child];
        i = child;
    }
    if (n > 0)
        h->ev[i] = last;
    return 1;
}
