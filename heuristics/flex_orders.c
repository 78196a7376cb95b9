/* flex_orders.c — priority orders for MPS (Wolf et al., Middleware 2010,
 * Section 3.2): the generic order is the completion order C_j / s_j of the
 * RAP solution; the paper omits its metric-specific orders ("due to lack of
 * space"), so the project uses the classical single-machine rules for each
 * metric family: shortest processing time, Smith's ratio rule C_j / w_j
 * (optimal for 1||sum w_j C_j), the same on the job's full width C_j / M_j,
 * earliest due date (Jackson's rule for max lateness; first SLA step for
 * sla), least laxity d_j - C_j / M_j, longest first (for makespan) and
 * Moore-Hodgson for tardy jobs (flex_moore.c).
 * FLEX tries them all and keeps the best MPS schedule. Ties: arrival index.
 * Large instances (the cluster model's overloaded replays) sort by radix,
 * smaller ones by an inline merge sort, the same order (issues 16, 33). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "heuristics/flex.h"
#include "solvers/rap.h"

static const char *const names[SO_FLEX_NORDERS] = {
    "arrival", "rap", "spt", "smith", "alone", "smith-alone", "edd", "laxity", "lpt",
    "moore",
};

const char *so_flex_order_name(int kind)
{
    return kind >= 0 && kind < SO_FLEX_NORDERS ? names[kind] : "?";
}

typedef struct {
    double key;
    size_t j;
} keyed;

/* Below this many jobs the merge sort is as fast as the radix sort's passes. */
#define RADIX_MIN 256

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

/* Sorts k[0..n) by (key, j) when the j ascend in k (as so_flex_order fills
 * it): a stable LSD radix sort on the keys' bits, 8 bits a pass, passes
 * whose byte is the same in every key skipped — the order qsort with by_key
 * gives, in O(n) instead of O(n log n) comparisons through a callback. The
 * bits of a double x map to an unsigned integer in x's order (negative: all
 * bits flipped; else the sign bit set), with -0 taken as +0 (equal under
 * by_key). Returns 0, or -1 when a key is NaN (by_key is no order then) or
 * memory runs out: the caller sorts with qsort. */
static int radix_sort(keyed *k, size_t n)
{
    /* one block: bits[n], bits_tmp[n], tmp[n] */
    uint64_t *bits = malloc(n * (2 * sizeof *bits + sizeof(keyed)));
    uint64_t *bits_tmp = bits ? bits + n : NULL;
    keyed *tmp = bits ? (keyed *)(bits + 2 * n) : NULL;
    size_t count[8][256];
    int ok = bits != NULL;
    memset(count, 0, sizeof count);
    for (size_t i = 0; ok && i < n; i++) {
        double x = k[i].key == 0 ? 0.0 : k[i].key;
        if (isnan(x)) {
            ok = 0;
            break;
        }
        uint64_t u;
        memcpy(&u, &x, sizeof u);
        u = u >> 63 ? ~u : u | (UINT64_C(1) << 63);
        bits[i] = u;
        for (int b = 0; b < 8; b++)
            count[b][(u >> (8 * b)) & 0xff]++;
    }
    for (int b = 0; ok && b < 8; b++) {
        size_t first = (bits[0] >> (8 * b)) & 0xff;
        if (count[b][first] == n)
            continue; /* every key has this byte: the pass moves nothing */
        size_t at[256], sum = 0;
        for (int v = 0; v < 256; v++) {
            at[v] = sum;
            sum += count[b][v];
        }
        for (size_t i = 0; i < n; i++) {
            size_t d = at[(bits[i] >> (8 * b)) & 0xff]++;
            tmp[d] = k[i];
            bits_tmp[d] = bits[i];
        }
        memcpy(k, tmp, n * sizeof *k);
        memcpy(bits, bits_tmp, n * sizeof *bits);
    }
    free(bits);
    return ok ? 0 : -1;
}

static int before(const keyed *a, const keyed *b)
{
    return a->key < b->key || (a->key == b->key && a->j < b->j);
}

/* Sorts k[0..n) by (key, j) when no key is NaN (by_key is then a total
 * order, so any sort gives qsort's order): insertion sort on runs of 16,
 * then bottom-up merges — the comparison inline, not through qsort's
 * callback (issue 33: the cluster's FLEX sorts a few hundred jobs per
 * order and solve). Returns 0, or -1 when memory runs out (the caller
 * sorts with qsort). */
static int merge_sort(keyed *k, size_t n)
{
    enum { RUN = 16 };
    for (size_t lo = 0; lo < n; lo += RUN) {
        size_t hi = lo + RUN < n ? lo + RUN : n;
        for (size_t i = lo + 1; i < hi; i++) {
            keyed x = k[i];
            size_t p = i;
            for (; p > lo && before(&x, &k[p - 1]); p--)
                k[p] = k[p - 1];
            k[p] = x;
        }
    }
    if (n <= RUN)
        return 0;
    keyed *tmp = malloc(n * sizeof *tmp), *from = k, *to = tmp;
    if (!tmp)
        return -1;
    for (size_t width = RUN; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t a = lo, b = mid, out = lo;
            while (a < mid && b < hi)
                to[out++] = before(&from[b], &from[a]) ? from[b++] : from[a++];
            while (a < mid)
                to[out++] = from[a++];
            while (b < hi)
                to[out++] = from[b++];
        }
        keyed *t = from;
        from = to;
        to = t;
    }
    if (from != k)
        memcpy(k, from, n * sizeof *k);
    free(tmp);
    return 0;
}

static double due(const so_flex *f, size_t j)
{
    if (f->metric == SO_FLEX_SLA)
        return f->sla_start[j + 1] > f->sla_start[j]
                   ? f->sla_deadline[f->sla_start[j]] : INFINITY;
    return f->deadline[j];
}

static double key(const so_flex *f, int kind, size_t j, const int64_t *s)
{
    double c = f->work[j], alone = c / (double)f->max[j];
    double w = so_flex_omega(f, j);
    switch (kind) {
    case SO_FLEX_ORDER_RAP: return c / (double)s[j];
    case SO_FLEX_ORDER_SPT: return c;
    case SO_FLEX_ORDER_SMITH: return w > 0 ? c / w : INFINITY;
    case SO_FLEX_ORDER_ALONE: return alone;
    case SO_FLEX_ORDER_SMITH_ALONE: return w > 0 ? alone / w : INFINITY;
    case SO_FLEX_ORDER_EDD: return due(f, j);
    case SO_FLEX_ORDER_LAXITY: return due(f, j) - alone;
    case SO_FLEX_ORDER_LPT: return -alone;
    default: return (double)j;
    }
}

double so_flex_order_key(const so_flex *f, int kind, size_t j)
{
    return key(f, kind, j, NULL);
}

static int no_deadlines(const so_flex *f)
{
    if (f->metric == SO_FLEX_SLA)
        return 0;
    for (size_t j = 0; j < f->n; j++)
        if (f->deadline[j] != 0)
            return 0;
    return 1;
}

int so_flex_order_same_as(const so_flex *f, int kind)
{
    switch (kind) {
    case SO_FLEX_ORDER_SMITH:
    case SO_FLEX_ORDER_SMITH_ALONE:
        for (size_t j = 0; f->metric != SO_FLEX_RESPONSE && j < f->n; j++)
            if (so_flex_omega(f, j) != 1.0) /* 1 for response */
                return -1;
        return kind == SO_FLEX_ORDER_SMITH ? SO_FLEX_ORDER_SPT
                                           : SO_FLEX_ORDER_ALONE;
    case SO_FLEX_ORDER_LPT:
        return no_deadlines(f) ? SO_FLEX_ORDER_LAXITY : -1;
    case SO_FLEX_ORDER_MOORE:
        return so_flex_order_moore_is_edd(f) ? SO_FLEX_ORDER_EDD : -1;
    default:
        return -1;
    }
}

int so_flex_order_reversible(const so_flex *f)
{
    return no_deadlines(f);
}

int so_flex_order_reversed(const so_flex *f, const size_t *alone, size_t *order)
{
    size_t n = f->n, at = 0;
    for (size_t i = 0; i < n; i++)
        if (isnan(key(f, SO_FLEX_ORDER_ALONE, alone[i], NULL)))
            return so_flex_order(f, SO_FLEX_ORDER_LAXITY, order);
    for (size_t hi = n; hi > 0;) {
        double a = key(f, SO_FLEX_ORDER_ALONE, alone[hi - 1], NULL);
        size_t lo = hi - 1;
        while (lo > 0 && key(f, SO_FLEX_ORDER_ALONE, alone[lo - 1], NULL) == a)
            lo--;
        for (size_t i = lo; i < hi; i++)
            order[at++] = alone[i];
        hi = lo;
    }
    return SO_OK;
}

int so_flex_order(const so_flex *f, int kind, size_t *order)
{
    if (kind == SO_FLEX_ORDER_EDD && no_deadlines(f)) {
        for (size_t j = 0; j < f->n; j++) /* every key 0: ties by index */
            order[j] = j;
        return SO_OK;
    }
    size_t n = f->n;
    keyed *k = malloc((n ? n : 1) * sizeof *k);
    int64_t *s = NULL;
    if (!k)
        return SO_ENOMEM;
    if (kind == SO_FLEX_ORDER_MOORE) {
        free(k);
        return so_flex_order_moore(f, order);
    }
    if (kind == SO_FLEX_ORDER_RAP) {
        char why[256];
        int rc = (s = malloc((n ? n : 1) * sizeof *s)) ? so_rap_solve(f, s, why, sizeof why)
                                                       : SO_ENOMEM;
        if (rc) {
            free(k);
            free(s);
            return rc;
        }
    }
    int nan = 0;
    for (size_t j = 0; j < n; j++) {
        k[j].key = key(f, kind, j, s);
        k[j].j = j;
        nan |= isnan(k[j].key);
    }
    if (nan || (n < RADIX_MIN ? merge_sort(k, n) : radix_sort(k, n)))
        qsort(k, n, sizeof *k, by_key);
    for (size_t i = 0; i < n; i++)
        order[i] = k[i].j;
    free(k);
    free(s);
    return SO_OK;
}
