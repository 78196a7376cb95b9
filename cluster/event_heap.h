/*
 * event_heap.h — the simulator's event queue: a binary min-heap keyed by
 * (time, lead, sequence number). At equal times the events pushed as
 * leading come first; the sequence number is the insertion order, so the
 * rest of a tie comes out first-in first-out (stable tie-break) and a run
 * is reproducible bit for bit.
 */
#ifndef SO_CL_EVENT_HEAP_H
#define SO_CL_EVENT_HEAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct so_cl_event {
    double time;
    uint64_t seq;
    int kind;
    int id;   /* job, node or attempt, by kind */
    int lead; /* 1: before the other events of its time */
} so_cl_event;

typedef struct so_cl_heap {
    so_cl_event *ev;
    size_t n, cap;
    uint64_t next_seq;
} so_cl_heap;

void so_cl_heap_init(so_cl_heap *h);
void so_cl_heap_free(so_cl_heap *h);
/* Returns 0, or -1 when out of memory. lead: 1 to come before the events
 * of the same time that do not lead. */
int so_cl_heap_push(so_cl_heap *h, double time, int kind, int id, int lead);
/* Removes the earliest event into *out; returns 0 if the heap was empty. */
int so_cl_heap_pop(so_cl_heap *h, so_cl_event *out);

#endif
