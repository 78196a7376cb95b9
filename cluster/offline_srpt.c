/*
 * offline_srpt.c — one preemptive machine with release dates, the
 * relaxation behind lp-bound's aggregate-machine terms
 * (cluster/offline_bound.c): SRPT for the sum of completion times and WSPT
 * for the weighted sum of mean busy times.
 *
 * SRPT is optimal for the sum of completion times on one machine with
 * release dates and preemption, and more: at every time t it has completed
 * at least as many jobs as any other preemptive schedule (L. Schrage, "A
 * proof of the optimality of the shortest remaining processing time
 * discipline", Operations Research 16(3), 1968), so its k-th smallest
 * completion time is at most the k-th smallest of any schedule, for every k.
 * Ties (equal remaining time) go to the lower index; a job of time 0
 * completes at its release.
 *
 * Preemptive WSPT (at every time the released job of largest w_j / p_j,
 * ties to the lower index) minimises sum_j w_j M_j, M_j the mean busy time
 * of job j (the average of the instants it is processed), over every
 * preemptive or time-sharing schedule of the machine (M. X. Goemans,
 * "Improved approximation algorithms for scheduling with release dates",
 * SODA 1997: it solves the LP over the parallel inequalities); and every
 * schedule that processes j at rate <= 1 has C_j >= M_j + p_j / 2.
 */
#include <math.h>
#include <stdlib.h>
#include "cluster/offline_bound.h"

int so_cl_keyed_cmp(const void *a, const void *b)
{
    const so_cl_keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->index - y->index;
}

/* min-heap of job indices keyed by (key, index); the top's key may only
 * decrease while it is on top (SRPT: its remaining time) */
typedef struct {
    int *h;
    int n;
    const double *key;
} heap;

static int less(const heap *q, int a, int b)
{
    return q->key[a] < q->key[b] || (q->key[a] == q->key[b] && a < b);
}

static void push(heap *q, int j)
{
    int i = q->n++;
    q->h[i] = j;
    while (i > 0 && less(q, q->h[i], q->h[(i - 1) / 2])) {
        int p = (i - 1) / 2, t = q->h[p];
        q->h[p] = q->h[i];
        q->h[i] = t;
        i = p;
    }
}

static void pop(heap *q)
{
    q->h[0] = q->h[--q->n];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < q->n && less(q, q->h[l], q->h[m]))
            m = l;
        if (r < q->n && less(q, q->h[r], q->h[m]))
            m = r;
        if (m == i)
            break;
        int t = q->h[m];
        q->h[m] = q->h[i];
        q->h[i] = t;
        i = m;
    }
}

/* The machine run by the priority of key (NULL: SRPT, the remaining
 * time): completion times into c, and mean busy times into mb (may be
 * NULL). */
static int one_machine(int n, const double *r, const double *p, const double *key,
                       double *c, double *mb)
{
    if (n <= 0)
        return SO_OK;
    so_cl_keyed *ord = malloc((size_t)n * sizeof *ord);
    double *left = malloc((size_t)n * sizeof *left);
    heap q = {malloc((size_t)n * sizeof(int)), 0, key ? key : left};
    if (!ord || !q.h || !left) {
        free(ord);
        free(q.h);
        free(left);
        return SO_ENOMEM;
    }
    for (int i = 0; i < n; i++) {
        ord[i] = (so_cl_keyed){r[i], i};
        left[i] = p[i] > 0 ? p[i] : 0;
        if (mb)
            mb[i] = 0;
    }
    qsort(ord, (size_t)n, sizeof *ord, so_cl_keyed_cmp);
    double t = ord[0].key;
    int next = 0;
    while (next < n || q.n > 0) {
        if (q.n == 0 && t < ord[next].key)
            t = ord[next].key;
        while (next < n && ord[next].key <= t)
            push(&q, ord[next++].index);
        int j = q.h[0];
        double until = next < n ? ord[next].key : t + left[j] + 1;
        double run = t + left[j] <= until ? left[j] : until - t;
        if (mb)
            mb[j] += run * (t + run / 2); /* the integral of the time over the piece */
        if (t + left[j] <= until) {
            t += left[j];
            left[j] = 0;
            c[j] = t;
            if (mb)
                mb[j] = p[j] > 0 ? mb[j] / p[j] : t;
            pop(&q);
        } else {
            /* the top job runs until the next release; it stays on top */
            left[j] -= run;
            t = until;
        }
    }
    free(ord);
    free(q.h);
    free(left);
    return SO_OK;
}

int so_cl_srpt(int n, const double *r, const double *p, double *c)
{
    return one_machine(n, r, p, NULL, c, NULL);
}

int so_cl_wspt_busy(int n, const double *r, const double *p, const double *w, double *mb)
{
    if (n <= 0)
        return SO_OK;
    double *key = malloc((size_t)n * sizeof *key), *c = malloc((size_t)n * sizeof *c);
    int rc = key && c ? SO_OK : SO_ENOMEM;
    for (int i = 0; !rc && i < n; i++) /* largest w / p first; p = 0: at its release */
        key[i] = p[i] > 0 ? -w[i] / p[i] : -INFINITY;
    if (!rc)
        rc = one_machine(n, r, p, key, c, mb);
    free(key);
    free(c);
    return rc;
}
