/*
 * offline_srpt.c — shortest remaining processing time on one preemptive
 * machine with release dates (1 | r_j, pmtn | sum C_j), the relaxation
 * behind lp-bound's aggregate-machine terms (cluster/offline_bound.c).
 *
 * SRPT is optimal for the sum of completion times on one machine with
 * release dates and preemption, and more: at every time t it has completed
 * at least as many jobs as any other preemptive schedule (L. Schrage, "A
 * proof of the optimality of the shortest remaining processing time
 * discipline", Operations Research 16(3), 1968), so its k-th smallest
 * completion time is at most the k-th smallest of any schedule, for every k.
 * Ties (equal remaining time) go to the lower index; a job of time 0
 * completes at its release.
 */
#include <stdlib.h>
#include "cluster/offline_bound.h"

int so_cl_keyed_cmp(const void *a, const void *b)
{
    const so_cl_keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->index - y->index;
}

/* min-heap of job indices keyed by (left, index) */
typedef struct {
    int *h;
    int n;
    double *left;
} heap;

static int less(const heap *q, int a, int b)
{
    return q->left[a] < q->left[b] || (q->left[a] == q->left[b] && a < b);
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

int so_cl_srpt(int n, const double *r, const double *p, double *c)
{
    if (n <= 0)
        return SO_OK;
    so_cl_keyed *ord = malloc((size_t)n * sizeof *ord);
    heap q = {malloc((size_t)n * sizeof(int)), 0, malloc((size_t)n * sizeof(double))};
    if (!ord || !q.h || !q.left) {
        free(ord);
        free(q.h);
        free(q.left);
        return SO_ENOMEM;
    }
    for (int i = 0; i < n; i++) {
        ord[i] = (so_cl_keyed){r[i], i};
        q.left[i] = p[i] > 0 ? p[i] : 0;
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
        double until = next < n ? ord[next].key : t + q.left[j] + 1;
        if (t + q.left[j] <= until) {
            t += q.left[j];
            q.left[j] = 0;
            c[j] = t;
            pop(&q);
        } else {
            /* the top job runs until the next release; it stays on top */
            q.left[j] -= until - t;
            t = until;
        }
    }
    free(ord);
    free(q.h);
    free(q.left);
    return SO_OK;
}
