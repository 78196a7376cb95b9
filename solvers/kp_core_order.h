/* kp_core_order.h — kp-dp's efficiency order, sorted lazily around the
 * break item (kp_core_order.c). Internal to solvers/. */
#ifndef SO_KP_CORE_ORDER_H
#define SO_KP_CORE_ORDER_H
#include "solvers/kp_exact_internal.h"

typedef struct {
    const so_kp *kp;
    size_t n;
    size_t *ord;      /* position -> item */
    int64_t *pw, *pp; /* weight and profit of the item at each position */
    size_t lo, hi;    /* the window [lo, hi): in so_kp_order's order */
    size_t grown;     /* how many times the window has grown */
    /* unsorted intervals: starts left of lo, ends right of hi (stacks,
     * the nearest on top) */
    size_t *left, nleft, cap_left, *right, nright, cap_right;
    /* the items the test rejected in the last interval of each side */
    size_t right_skip, right_end, left_end, left_skip;
    uint64_t *key, *tk; /* keys by position; scratch */
    size_t *ta;
} kp_core_order;

/* Partitions kp's items around the break item of capacity c (the most
 * items, in efficiency order, whose weights fit): *b its position (n when
 * all fit), *W and *P the weight and profit of positions 0..b-1. The
 * window holds b; SO_OK or SO_ENOMEM (then free o anyway). */
int so_kp_core_order_init(kp_core_order *o, const so_kp *kp, int64_t c,
                          size_t *b, int64_t *W, int64_t *P);
/* The reduction test of kp-dp (Dembo and Hammer's bound from the break
 * item b): an item (p, w) right of b may be taken in an improving solution
 * only if p wb - w pb >= T, one left of b dropped only if w pb - p wb >= T,
 * where T = (z + 1 - P_b) wb - (c - W_b) pb. */
typedef struct {
    int64_t pb, wb;
    __int128 T;
} kp_reduce;

/* Brings intervals into the window until it holds position pos (< n).
 * With red (may be NULL: keep all), the items of an interval that fail
 * the test are not sorted but placed beyond the others (the kept ones
 * next to the window), and *skip_* tells where they are: positions
 * [right_skip, right_end) right of the window, [left_end, left_skip) left
 * of it, which the caller may step over. */
void so_kp_core_order_reach(kp_core_order *o, size_t pos,
                            const kp_reduce *red);
void so_kp_core_order_free(kp_core_order *o);

#endif
