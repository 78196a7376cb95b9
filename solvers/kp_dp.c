/* kp_dp.c — exact 0-1 knapsack by dynamic programming over non-dominated
 * states, expanding a core around the break item.
 *
 * The scheme of D. Pisinger, "A minimal algorithm for the 0-1 knapsack
 * problem", Operations Research 45(5), 1997 (minknap), sections 2-4:
 *   items sorted by efficiency p/w; break item b; the break solution takes
 *   items 0..b-1. The core [s, t] starts empty at b. A state (w, p) is a
 *   set that agrees with the break solution outside the core. Expanding
 *   t+1 adds "take item t+1" copies of every state, expanding s-1 adds
 *   "drop item s-1" copies; after each expansion only non-dominated states
 *   are kept (weight up, profit strictly up) and states whose bound cannot
 *   beat the incumbent z are fathomed:
 *     w <= c:  p + floor((c - w) p_{t+1} / w_{t+1})   (eq. 9 of the paper)
 *     w >  c:  p - ceil((w - c) p_{s-1} / w_{s-1})
 *   tested without division: (c - w) p_{t+1} >= (z - p + 1) w_{t+1}, and
 *   (w - c) p_{s-1} <= (p - z - 1) w_{s-1}, in 128-bit integers.
 *   Before an item enters the core, minknap's reduction test (section 4,
 *   the bound of Dembo and Hammer, "A reduction algorithm for knapsack
 *   problems", Methods of OR 36, 1980) is applied in O(1):
 *     item j >= b may be taken only if
 *       P_b + p_j + floor((c - W_b - w_j) p_b / w_b) > z,
 *     item j <  b may be dropped only if
 *       P_b - p_j + floor((c - W_b + w_j) p_b / w_b) > z;
 *   an item that fails keeps its break value in every improving solution
 *   and is skipped (never merged).
 *   The run stops when no state is left, the core covers every item, or z
 *   reaches the global upper bound (Dantzig's bound tightened by the
 *   surrogate cardinality bounds of Martello, Pisinger and Toth,
 *   "Dynamic programming and strong bounds for the 0-1 knapsack problem",
 *   Management Science 45(3), 1999, section 3; kp_card_bound.c).
 * Choices where the papers are silent:
 *   - divisibility (the rudimentary test of combo): the capacity is
 *     rounded down to a multiple of the weights' gcd, and every upper
 *     bound to a multiple of the profits' gcd;
 *   - the incumbent starts at the greedy solution (break solution, then
 *     every later item that still fits, in efficiency order);
 *   - solution vectors as combo keeps them (partial vectors; Martello,
 *     Pisinger and Toth 1999, section 5, and combo's definesolution): each
 *     state carries 64 bits, the decisions on the items of the last 64
 *     expansions (a ring of their positions); the incumbent keeps its
 *     state's bits, the ring and the core at that moment. Decoding applies
 *     the bits to the break solution; when that does not reach the
 *     incumbent's profit, the decisions left are on the older core items
 *     between the ring's innermost items, and a DP on those alone, at the
 *     weight they have in the incumbent (its state's weight less the
 *     rest's: combo's choice, far tighter than the capacity left: one
 *     Jooken instance's decoding took 0.44 s at the capacity left, 0.10 s
 *     at that weight, its whole solve 0.43 s), started at the missing
 *     profit less one and stopped when it reaches it, recovers them
 *     (recursively). States are 24 bytes and nothing else
 *     grows with them (issue 30, item 3: the deviation records per state
 *     this replaced made kp-dp's peak up to 2.9 times combo's); the one
 *     state buffer (see expand) is reused, never cleared;
 *   - no array is indexed by capacity, so capacities of 1e18 are fine;
 *     profits are exact 64-bit integers;
 *   - pairing (Martello, Pisinger and Toth 1999, section 4; kp_pair.c;
 *     combo's "heuristic" at M3 states): the best state completed by one
 *     item outside the core, found by one O(n + m) sweep over the items
 *     sorted by weight (once per run); first when 1024 states are live or
 *     the merging has touched 4 n states (16 n while a round sorted its
 *     lists again after every growth of the window: at n = 1,000 a late
 *     first round left the incumbent below the optimum through a dozen
 *     expansions, 4x combo's time on weakly correlated R = 1e4), again
 *     after any expansion once the live states
 *     have grown by half or the merging since exceeds 32 m + 4 n (a round
 *     sweeps all n items:
 *     at 32 m alone, pairing was most of the run at n = 100,000 when a
 *     few thousand states stay live). Where the states multiply (strongly
 *     correlated and subset-sum instances at large R: nearly every subset
 *     is a distinct non-dominated state and no bound fathoms it) this finds
 *     the solution that meets the bound after a few thousand states instead
 *     of 2^18 (issue 30);
 *   - the cardinality bounds cost a few passes over the items: computed
 *     once more than 2000 states are live (just before the surrogate
 *     relaxation, which they often make needless) or the merging has
 *     touched 16 n states (easy instances finish before and pay nothing); the multiplier search of the cardinality
 *     bounds after 512 n merged states; before, the global bound is
 *     Dantzig's, from the break item;
 *   - the surrogate relaxation of the cardinality dichotomy, each part
 *     solved exactly by this DP without a further relaxation
 *     (kp_surrogate.c; section 3 of the 1999 paper, as in combo): once,
 *     when more than 2000 states are live (combo's M2 = 2000); its bound
 *     tightens the global one, and a surrogate optimum that fits the
 *     capacity becomes the incumbent with its whole vector (kept in the
 *     greedy vector's buffer); the sub-runs share the deadline and
 *     max_states (so live states may reach twice max_states in all);
 *   - the efficiency order is not sorted whole (kp_core_order.c, as
 *     minknap and combo): the break item is found by partitioning, and an
 *     interval of the partitions is sorted (radix, kp_sort.c; the same
 *     order as so_kp_order) only when the core reaches it, after the
 *     reduction test has removed the items that cannot flip, whose run
 *     the core then steps over; a full sort cost more than the DP on the
 *     easy classes at n = 10,000 (issue 30). Positions outside the
 *     window move when an interval is sorted: the ring's positions are
 *     inside the core, which never moves, and pairing keeps items (its
 *     lists sorted once per run; the items the DP has merged are flagged);
 *   - n <= 40: when the state set outgrows 2^16 states, the run switches
 *     to meet-in-the-middle (kp_mitm.c), whose lists never exceed 2^20;
 *   - limits (issue 20): the clock is read every 16,384 merged states, so
 *     a time limit is honoured within a few milliseconds even inside one
 *     long expansion; option max_states bounds the live states: a merge
 *     that could produce more stops the run with the incumbent, status
 *     "feasible" and the message "memory limit". Memory (issue 30): one
 *     buffer of 24-byte states, at most max_states + 1 of them (the merge
 *     needs room for twice the live states): about 24 bytes per unit of
 *     max_states, as combo's table of MAXSTATES states. The default,
 *     32,000,000 (about 0.8 GB at most), proves every instance of the
 *     benchmark's Jooken grid that combo proves with its state table
 *     raised to 40 M (8,000,000 stopped on two of them: docs/BENCHMARKS.md);
 *     The internal deadline is 95 % of the limit, leaving the rest for
 *     decoding and the report; a buffer growth whose cost (predicted from
 *     the last one, per state) would end past it is not started: the run
 *     stops before it. Decoding's DP (above) may use the rest of the
 *     limit (to 100 %); when it cannot finish, the run reports, as a
 *     time-limit stop, the incumbent's known part completed by that DP's
 *     best, or the best complete vector if worth more. Under a limit each
 *     new incumbent is also decoded at once from half of it on (see
 *     decode_now), so the best complete vector is then at least the last
 *     one decoded: on the time-limits benchmark's Jooken instance
 *     (n = 20,000) at 2 s the final decoding could not finish and the
 *     greedy vector was reported, 993,468,036 against 999,994,805.
 *     Either stop reports the global upper bound as the bound. */
#include <stdlib.h>
#include <string.h>
#include "solvers/kp_core_order.h"
#include "solvers/kp_exact_internal.h"
#include "solvers/kp_pair.h"

#define MAX_STATES_DEFAULT 32000000

const so_option_doc so_kp_dp_options[] = {
    {"max_states", "32000000",
     "memory limit: most DP states a merge may produce (peak memory at most"
     " about 24 bytes per unit: 32,000,000 ~ 0.8 GB); over it the"
     " run stops with its incumbent and the message 'memory limit'"},
    {NULL, NULL, NULL},
};

/* pairing starts when this many states are live (or the merging has
 * touched 4 n states); the cardinality bounds, then the surrogate
 * relaxation, when more than SUR_STATES are (combo's M2) */
#define PAIR_STATES 1024
#define SUR_STATES 2000

typedef struct {
    int64_t w, p;
    uint64_t v; /* bit j: the item of ring slot j flipped from the break */
} state;

/* the partial vector: the items of the last VBITS expansions */
#define VBITS 64

/* Where the incumbent's vector is: the greedy buffer (full), a state's
 * partial vector, or nowhere yet (a decoding run started at a target) */
enum { BEST_FULL, BEST_STATE, BEST_NONE };

typedef struct {
    const so_kp *kp;
    kp_core_order co; /* the order, sorted around the core */
    const size_t *ord; /* co's: position -> item */
    int64_t *pw, *pp; /* co's: weight and profit of item at position k */
    size_t n, b;
    int64_t c;         /* capacity, rounded down to a multiple of gcd(w) */
    int64_t gp;        /* gcd of the profits: every objective a multiple */
    int64_t W, P;      /* weight and profit of the break solution */
    int64_t z;         /* incumbent profit */
    int64_t target;    /* stop on reaching it (decoding's DP), or INT64_MAX */
    int best;          /* BEST_*: where z's vector is */
    uint64_t best_v;   /* BEST_STATE: its state's bits, */
    int64_t best_w;    /* its weight, */
    int64_t best_extra; /* the item pairing flipped (-1: none; an item,
                         * as positions outside the window move), */
    size_t best_s, best_t1; /* the core then, */
    int64_t best_ring[VBITS]; /* and the ring (copied when it next moves) */
    int snap_due;      /* best_ring is not yet copied */
    int64_t ring[VBITS]; /* position of each slot's item, -1: none */
    int vno;           /* the slot of the last expansion */
    state *buf, *cur; /* the set: m records at cur, one end of buf */
    size_t m, cap, max_states;
    int top; /* the set is at the top end of buf */
    double deadline; /* so_now() value; 0 = none */
    double decode_deadline; /* for decoding's DP; 0 = none */
    double decode_from; /* so_now() value, 0 = never; see decode_now */
    int undecoded;      /* the incumbent is a state's, not decoded yet */
    size_t ticks, paired_at, paired_m;
    double grow_rate; /* seconds per state, measured */
    kp_pairing *pair;
    so_kp_card_cache card; /* the cardinality limits, shared by the bounds */
    unsigned char *merged; /* by item: the DP has merged it (pairing) */
    int relax;              /* may use the surrogate relaxation */
    unsigned char *incumbent; /* the vector of BEST_FULL */
} dp_ctx;

/* The bound test's constants for one merge, with the core [s, t1 - 1]
 * after it: the next items on either side (read once per merge, not per
 * state: the merge's stores could alias them) */
typedef struct {
    int64_t c, pt, wt, ps, ws;
    int right, left; /* an item is left on that side */
} slopes;

static slopes slopes_at(const dp_ctx *d, size_t s, size_t t1)
{
    slopes b = {d->c, 0, 1, 0, 1, t1 < d->n, s > 0 && d->pw[s - 1] != 0};
    if (b.right)
        b.pt = d->pp[t1], b.wt = d->pw[t1];
    if (b.left)
        b.ps = d->pp[s - 1], b.ws = d->pw[s - 1];
    return b;
}

/* Can the state (w, p) still beat z? */
__attribute__((always_inline)) static inline int
state_open(const slopes *b, int64_t z, int64_t w, int64_t p)
{
    if (w <= b->c) {
        if (p > z)
            return 1;
        return b->right &&
               (__int128)(b->c - w) * b->pt >= (__int128)(z - p + 1) * b->wt;
    }
    /* cannot shed weight any more, or cannot gain */
    return b->left && p > z &&
           (__int128)(w - b->c) * b->ps <= (__int128)(p - z - 1) * b->ws;
}

/* Dembo and Hammer's test: may flipping item position k beat z? */
static int item_open(const dp_ctx *d, size_t k)
{
    if (d->b >= d->n)
        return 0;
    int64_t pb = d->pp[d->b], wb = d->pw[d->b];
    int64_t room = d->c - d->W;
    __int128 v = k >= d->b
                     ? (__int128)(d->P + d->pp[k]) * wb +
                           (__int128)(room - d->pw[k]) * pb
                     : (__int128)(d->P - d->pp[k]) * wb +
                           (__int128)(room + d->pw[k]) * pb;
    return v >= (__int128)(d->z + 1) * wb;
}

/* Brings position pos into kp_core_order's window, with the reduction
 * test of item_open at the current incumbent for the items brought in */
static void reach(dp_ctx *d, size_t pos)
{
    if (pos >= d->co.lo && pos < d->co.hi)
        return;
    kp_reduce red = {0, 0, 0};
    if (d->b < d->n) {
        red.pb = d->pp[d->b];
        red.wb = d->pw[d->b];
        red.T = (__int128)(d->z + 1 - d->P) * red.wb -
                (__int128)(d->c - d->W) * red.pb;
    }
    so_kp_core_order_reach(&d->co, pos, d->b < d->n ? &red : NULL);
}

/* The core's new right end t1 (or left end s): the next item is brought
 * into the window, and a run of items that failed the reduction test as
 * they came in is stepped over (as the loop would skip each). */
static size_t next_right(dp_ctx *d, size_t t1)
{
    while (t1 < d->n) {
        reach(d, t1);
        if (t1 != d->co.right_skip || t1 >= d->co.right_end)
            break;
        t1 = d->co.right_end;
    }
    return t1;
}

static size_t next_left(dp_ctx *d, size_t s)
{
    while (s > 0) {
        reach(d, s - 1);
        if (s != d->co.left_skip || s <= d->co.left_end)
            break;
        s = d->co.left_end;
    }
    return s;
}

/* Makes room for a merge of the m live states: one buffer of at least
 * 2 m + 1 records (see expand). The set keeps its end of the buffer. */
static int reserve(dp_ctx *d)
{
    size_t need = 2 * d->m + 1;
    if (2 * d->m > d->max_states)
        return SO_KP_STOP_MEMORY;
    if (need <= d->cap)
        return SO_OK;
    size_t cap = need + need / 2;
    if (cap > d->max_states + 1)
        cap = d->max_states + 1;
    double t0 = so_now();
    if (d->deadline > 0 && t0 + d->grow_rate * (double)cap > d->deadline)
        return SO_KP_STOP_TIME; /* the growth would end past the limit */
    size_t off = (size_t)(d->cur - d->buf);
    state *a = realloc(d->buf, cap * sizeof *a);
    if (!a)
        return SO_ENOMEM;
    d->buf = a;
    d->cur = a + off;
    if (d->top) { /* the set lives at the top end: move it there */
        memmove(a + cap - d->m, d->cur, d->m * sizeof *a);
        d->cur = a + cap - d->m;
    }
    d->cap = cap;
    /* the copy is paid now, the pages on first use: count both */
    d->grow_rate = 3 * (so_now() - t0) / (double)cap;
    return SO_OK;
}

/* A state that fits and beats z becomes the incumbent (its ring is
 * copied when the ring next moves) */
__attribute__((always_inline)) static inline void
improve(dp_ctx *d, const state *x, int64_t extra, size_t s, size_t t1)
{
    d->z = x->p;
    d->best_w = x->w;
    d->best = BEST_STATE;
    d->best_v = x->v;
    d->best_extra = extra;
    d->best_s = s;
    d->best_t1 = t1;
    d->snap_due = 1;
    d->undecoded = 1;
}

static void snap_ring(dp_ctx *d)
{
    if (d->snap_due)
        memcpy(d->best_ring, d->ring, sizeof d->ring);
    d->snap_due = 0;
}

/* Adds the copies shifted by (dw, dp) for item position pos; merges keeping
 * non-dominated, open states. Core after the step: [s, t1 - 1]. Returns
 * SO_OK, SO_ENOMEM, or SO_KP_STOP_TIME / _MEMORY (then d->m is the count
 * before the step, but d->cur's records are undefined: a stop in the middle
 * of a merge has overwritten records it had read; only the incumbent and
 * the count may be used after a stop).
 * One buffer of C > 2 m records holds the set at one end and receives the
 * merge from the other, so the directions alternate (as combo keeps one
 * table, and half the memory of two buffers): a set at the top end is
 * merged by ascending weight into the bottom (a state is kept when its
 * profit beats every lighter one's), a set at the bottom by descending
 * weight onto a stack at the top (a lighter state pops the heavier ones it
 * dominates); both keep the same states. The writes never reach an unread
 * record: after r of the 2 m inputs are read at most r are written, and
 * C > 2 m. */
static int expand(dp_ctx *d, int64_t dw, int64_t dp, int64_t pos, size_t s,
                  size_t t1)
{
    int rc = reserve(d);
    if (rc)
        return rc;
    snap_ring(d); /* the incumbent's ring, before this step moves it */
    d->merged[d->ord[pos]] = 1;
    d->vno = (d->vno + 1) % VBITS;
    d->ring[d->vno] = pos;
    const uint64_t bit = (uint64_t)1 << d->vno, keep0 = ~bit;
    size_t m = d->m, C = d->cap, ticks = d->ticks;
    const double deadline = d->deadline;
    const int64_t c = d->c;
    int64_t z = d->z;
    state *buf = d->buf;
    const slopes b = slopes_at(d, s, t1);
/* every state read counts (the pairing and bounds schedules); the clock
 * every 16,384 */
#define MERGE_TICK()                                                      \
    do {                                                                  \
        if ((++ticks & 0x3fff) == 0 && deadline > 0 &&                    \
            so_now() > deadline) {                                        \
            d->ticks = ticks;                                             \
            return SO_KP_STOP_TIME;                                       \
        }                                                                 \
    } while (0)
/* a fitting state that beats z improves */
#define MERGE_IMPROVE(x)                                                  \
    do {                                                                  \
        if ((x).w <= c && (x).p > z) {                                    \
            improve(d, &(x), -1, s, t1);                                  \
            z = (x).p;                                                    \
        }                                                                 \
    } while (0)
    if (d->top) { /* ascending: input [C - m, C), output from 0 up */
        const state *cur = buf + C - m;
        size_t i = 0, j = 0, out = 0;
        int64_t last_p = INT64_MIN;
        while (i < m || j < m) {
            state x;
            MERGE_TICK();
            if (j >= m || (i < m && cur[i].w <= cur[j].w + dw)) {
                x = cur[i++];
                x.v &= keep0;
            } else {
                x = cur[j++];
                x.w += dw;
                x.p += dp;
                x.v |= bit;
            }
            if (x.p <= last_p)
                continue; /* dominated by a lighter (or equal) state */
            last_p = x.p;
            if (out > 0 && buf[out - 1].w == x.w)
                out--; /* same weight, more profit: replaces it */
            MERGE_IMPROVE(x);
            if (state_open(&b, z, x.w, x.p))
                buf[out++] = x;
        }
        d->cur = buf;
        d->m = out;
        d->top = 0;
    } else { /* descending: input [0, m), output stack from C - 1 down */
        const state *cur = buf;
        size_t i = m, j = m, o = C; /* the stack is [o, C) */
        while (i > 0 || j > 0) {
            state x;
            MERGE_TICK();
            if (j == 0 || (i > 0 && cur[i - 1].w > cur[j - 1].w + dw)) {
                x = cur[--i];
                x.v &= keep0;
            } else {
                x = cur[--j];
                x.w += dw;
                x.p += dp;
                x.v |= bit;
            }
            if (o < C && buf[o].w == x.w && buf[o].p >= x.p)
                continue; /* an equal weight with as much profit */
            while (o < C && buf[o].p <= x.p)
                o++; /* heavier (or equal) states x dominates */
            MERGE_IMPROVE(x);
            if (state_open(&b, z, x.w, x.p))
                buf[--o] = x;
        }
        d->cur = buf + o;
        d->m = C - o;
        d->top = 1;
    }
#undef MERGE_TICK
#undef MERGE_IMPROVE
    d->ticks = ticks;
    return SO_OK;
}

/* Is there time left for a few sorts of the items (about 50 ns per item
 * and halving step each)? Without, pairing and the cardinality bounds are
 * not started, so that a limit is not overrun inside a sort. */
static int time_for_sorts(const dp_ctx *d)
{
    if (d->deadline <= 0)
        return 1;
    double steps = 1;
    for (size_t k = d->n; k > 1; k /= 2)
        steps++;
    return so_now() + 5e-8 * (double)d->n * steps < d->deadline;
}

/* One round of pairing (kp_pair.c): the best state completed by one item
 * outside the core [s, t1 - 1]; the candidates are sorted at the first
 * round. Skipped when the sweep (about 10 ns per state and item) would
 * end past the deadline. */
static int pair_round(dp_ctx *d, size_t s, size_t t1)
{
    if (d->deadline > 0 &&
        so_now() + 1e-8 * (double)(d->n + d->m) > d->deadline)
        return SO_OK; /* no time for a sweep */
    if (!d->pair) {
        if (!time_for_sorts(d))
            return SO_OK;
        d->pair = so_kp_pair_new(d->kp->weight, d->kp->profit, d->ord, d->n,
                                 d->b);
        if (!d->pair)
            return SO_ENOMEM;
    }
    size_t st = 0, item = 0;
    int64_t v = 0;
    int found = so_kp_pair_best(d->pair, &d->cur[0].w, &d->cur[0].p,
                                sizeof(state) / sizeof(int64_t), d->m, d->c,
                                d->merged, d->z, &st, &item, &v);
    if (found) {
        state x = d->cur[st];
        x.p = v;
        x.w += found == SO_KP_PAIR_ADD ? d->kp->weight[item]
                                       : -d->kp->weight[item];
        improve(d, &x, (int64_t)item, s, t1);
    }
    d->paired_at = d->ticks;
    d->paired_m = d->m;
    return SO_OK;
}

/* Pairs again after an expansion when due: a round sweeps the n items
 * and m states, so at most about a quarter of the merging since the last
 * one, or when m has grown by half. Checked after each expansion, not
 * after each pair of them, and at 1.5 m rather than 2 m: where every
 * expansion nearly doubles the states (subset-sum at large R: no state
 * dominates or is fathomed; a few equal weights merge, so m ends just
 * short of twice) m quadrupled between rounds, and the round that finds
 * the optimum came one doubling late (n = 1000, R = 1e7, seed 2030
 * index 0: 261,000 states, 19 ms and 11 MB where 131,000 states, 10 ms
 * and 6 MB do; issue 30) */
static int pair_due(dp_ctx *d, size_t s, size_t t1)
{
    if (d->ticks - d->paired_at >= 32 * d->m + 4 * d->n ||
        2 * d->m >= 3 * d->paired_m)
        return pair_round(d, s, t1);
    return SO_OK;
}

static int dp_exact(const so_kp *kp, double deadline, double decode_deadline,
                    size_t max_states, int relax, int64_t target,
                    unsigned char *x, int *status_out, int *stop_out,
                    int64_t *bound_out, size_t *m_out);

static _Atomic size_t decode_runs; /* decoding's DPs so far (for tests) */

size_t so_kp_dp_decode_runs(void)
{
    return decode_runs;
}

/* The incumbent's vector into x. A state's partial vector is applied to
 * the break solution (with the item pairing added); when that is not yet
 * worth z, the decisions left are on the core items older than the
 * ring's, the positions strictly between its innermost left and right
 * items (or the core's ends), and the DP on those items alone, at the
 * weight and profit they have in the incumbent, started at that profit less one
 * and stopped when it reaches it, finds them (combo's definesolution).
 * Its DP may use what max_states leaves beside the state buffer (a
 * decoding during the run) and runs until decode_deadline. *short_stop:
 * 0 when x is worth z, else why that DP could not finish (SO_KP_STOP_TIME
 * or _MEMORY): x is then, worth less than z, the better of the rest
 * completed by that DP's best and the best complete vector (greedy or
 * surrogate). */
static int decode(dp_ctx *d, const unsigned char *greedy, unsigned char *x,
                  int *short_stop)
{
    *short_stop = d->best == BEST_NONE ? SO_KP_STOP_TIME : 0;
    if (d->best != BEST_STATE) {
        memcpy(x, greedy, d->n);
        return SO_OK;
    }
    snap_ring(d);
    memset(x, 0, d->n);
    for (size_t k = 0; k < d->b; k++)
        x[d->ord[k]] = 1;
    int64_t lo = (int64_t)d->best_s - 1, hi = (int64_t)d->best_t1;
    for (int j = 0; j < VBITS; j++) {
        int64_t pos = d->best_ring[j];
        if (pos < 0)
            continue;
        if ((size_t)pos < d->b) {
            if (pos > lo)
                lo = pos;
        } else if (pos < hi) {
            hi = pos;
        }
        if (d->best_v >> j & 1)
            x[d->ord[pos]] ^= 1;
    }
    if (d->best_extra >= 0)
        x[d->best_extra] ^= 1;
    int64_t w, p = so_kp_value(d->kp, x, &w);
    if (p >= d->z && w <= d->kp->capacity)
        return SO_OK;
    /* the older core items (lo, hi) as an instance of their own */
    size_t k = hi > lo + 1 ? (size_t)(hi - lo - 1) : 0;
    so_kp sub = {k, malloc((k + 1) * sizeof(int64_t)),
                 malloc((k + 1) * sizeof(int64_t)), 0, d->kp->decimals};
    unsigned char *y = malloc(k + 1);
    int rc = sub.profit && sub.weight && y ? SO_OK : SO_ENOMEM;
    for (size_t i = 0; !rc && i < k; i++) {
        size_t pos = (size_t)lo + 1 + i;
        sub.profit[i] = d->pp[pos];
        sub.weight[i] = d->pw[pos];
        if (x[d->ord[pos]]) { /* the rest: x without them */
            p -= d->pp[pos];
            w -= d->pw[pos];
        }
    }
    sub.capacity = d->best_w - w; /* what the incumbent's old items weigh */
    int stop = SO_KP_STOP_TIME;
    if (!rc && k > 0 && sub.capacity >= 0) {
        int status;
        int64_t bound;
        size_t m, room = d->max_states > d->cap + 16 ? d->max_states - d->cap
                                                     : 16;
        decode_runs++;
        rc = dp_exact(&sub, d->decode_deadline, d->decode_deadline, room, 0,
                      d->z - p, y, &status, &stop, &bound, &m);
        for (size_t i = 0; !rc && i < k; i++)
            x[d->ord[(size_t)lo + 1 + i]] = y[i];
    }
    p = so_kp_value(d->kp, x, &w);
    if (!rc && (p < d->z || w > d->kp->capacity)) {
        /* not recovered (that DP stopped): x with its best, or the best
         * complete vector, whichever is worth more */
        *short_stop = stop ? stop : SO_KP_STOP_TIME;
        int64_t gw, gp = so_kp_value(d->kp, greedy, &gw);
        if (w > d->kp->capacity || gp > p)
            memcpy(x, greedy, d->n);
    }
    free(sub.profit);
    free(sub.weight);
    free(y);
    return rc;
}

/* Under a time limit, from half of it on: each new incumbent of a state
 * is decoded at once (its DP given what is left to the run's deadline),
 * so that a late incumbent whose decoding cannot finish in what the limit
 * leaves at the end still has the last decoded one behind it (the better
 * complete vector is reported). Decoded in full, it becomes the
 * incumbent's vector. */
static int decode_now(dp_ctx *d)
{
    d->undecoded = 0;
    if (d->best != BEST_STATE || so_now() >= d->deadline)
        return SO_OK;
    unsigned char *x = malloc(d->n + 1);
    if (!x)
        return SO_ENOMEM;
    double limit = d->decode_deadline;
    d->decode_deadline = d->deadline;
    int short_stop = 0, rc = decode(d, d->incumbent, x, &short_stop);
    d->decode_deadline = limit;
    if (!rc) { /* x is worth at least the complete vector kept */
        memcpy(d->incumbent, x, d->n);
        if (!short_stop)
            d->best = BEST_FULL;
    }
    free(x);
    return rc;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* A bound u rounded down to a multiple of the profits' gcd. */
static int64_t round_bound(const dp_ctx *d, int64_t u)
{
    return d->gp > 1 && u >= 0 ? u / d->gp * d->gp : u;
}

/* The DP proper. *status: SO_OPTIMAL, or why it stopped; *bound. */
static int run_dp(dp_ctx *d, int *status, int *stop, int64_t *bound)
{
    /* Dantzig's bound from the break item at once; the cardinality bounds
     * once the DP is not trivial */
    int64_t global_ub = d->P;
    int card_done = 0, sur_done = !d->relax, pairing = 0;
    if (d->b < d->n)
        global_ub += (int64_t)((__int128)(d->c - d->W) *
                               d->pp[d->b] / d->pw[d->b]);
    size_t s = d->b, t1 = d->b; /* core = [s, t1 - 1] */
    int rc = SO_OK;
    *stop = SO_OK;
    global_ub = round_bound(d, global_ub);
    if (global_ub > d->target)
        global_ub = d->target;
    s = next_left(d, s); /* the bounds read the items next to the core */
    while (!rc && d->m > 0 && (s > 0 || t1 < d->n) && d->z < global_ub) {
        if (!pairing && (d->ticks >= 4 * d->n || d->m >= PAIR_STATES)) {
            pairing = 1; /* not trivial: worth pairing */
            rc = pair_round(d, s, t1);
            if (rc)
                break;
        }
        if (card_done < 2 &&
            (card_done ? d->ticks >= 512 * d->n
                       : d->ticks >= 16 * d->n || d->m > SUR_STATES) &&
            time_for_sorts(d)) {
            int64_t u = so_kp_global_bound_cached(d->kp, d->ord, d->z,
                                                  card_done, &d->card);
            if (round_bound(d, u) < global_ub)
                global_ub = round_bound(d, u);
            card_done++;
            if (d->z >= global_ub)
                break;
        }
        if (!sur_done && d->m > SUR_STATES && time_for_sorts(d)) {
            int64_t u = global_ub, zx = -1;
            int sr = so_kp_surrogate_bound_cached(
                d->kp, d->b, d->z, d->deadline, d->max_states, &u,
                d->incumbent, &zx, &d->card);
            sur_done = 1;
            if (zx > d->z) { /* a surrogate optimum that fits */
                d->z = zx;
                d->best = BEST_FULL;
            }
            if (!sr && round_bound(d, u) < global_ub)
                global_ub = round_bound(d, u);
            if (d->z >= global_ub)
                break;
        }
        if (t1 < d->n) {
            size_t k = t1++;
            t1 = next_right(d, t1);
            if (item_open(d, k)) {
                rc = expand(d, d->pw[k], d->pp[k], (int64_t)k, s, t1);
                if (!rc && pairing)
                    rc = pair_due(d, s, t1);
            }
        }
        if (!rc && s > 0 && d->m > 0 && d->z < global_ub) {
            size_t k = --s;
            s = next_left(d, s);
            if (item_open(d, k)) {
                rc = expand(d, -d->pw[k], -d->pp[k], (int64_t)k, s, t1);
                if (!rc && pairing)
                    rc = pair_due(d, s, t1);
            }
        }
        if (!rc && d->undecoded && d->decode_from > 0 &&
            so_now() > d->decode_from)
            rc = decode_now(d);
        if (!rc && d->deadline > 0 && so_now() > d->deadline)
            rc = SO_KP_STOP_TIME;
        if (!rc && d->kp->n <= SO_KP_MITM_MAX_N && d->m > ((size_t)1 << 16))
            rc = SO_KP_STOP_MEMORY; /* meet-in-the-middle is cheaper */
    }
    *bound = d->z;
    *status = SO_OPTIMAL;
    if (rc == SO_KP_STOP_TIME || rc == SO_KP_STOP_MEMORY) {
        *stop = rc;
        *status = rc == SO_KP_STOP_TIME ? SO_TIMELIMIT : SO_FEASIBLE;
        if (!card_done && rc == SO_KP_STOP_MEMORY) { /* no time to sort */
            int64_t u = so_kp_global_bound_cached(d->kp, d->ord, d->z, 0,
                                                  &d->card);
            if (round_bound(d, u) < global_ub)
                global_ub = round_bound(d, u);
        }
        *bound = global_ub > d->z ? global_ub : d->z;
        rc = SO_OK;
    }
    return rc;
}

/* The whole exact run on kp: x gets the best vector; *status, *stop and
 * *bound as run_dp; *m_out the live states at the end. decode_deadline:
 * for decoding's DP (0: none). target > 0: a run of decoding, started at
 * target - 1 and stopped when it reaches target (then x is worth less
 * than target only when it could not finish). */
static int dp_exact(const so_kp *kp, double deadline, double decode_deadline,
                    size_t max_states, int relax, int64_t target,
                    unsigned char *x, int *status_out, int *stop_out,
                    int64_t *bound_out, size_t *m_out)
{
    dp_ctx d;
    memset(&d, 0, sizeof d);
    d.kp = kp;
    d.n = kp->n;
    d.max_states = max_states;
    d.relax = relax;
    d.deadline = deadline;
    d.decode_deadline = decode_deadline;
    double started = so_now();
    d.decode_from = deadline > 0 ? started + 0.5 * (deadline - started) : 0;
    d.target = target > 0 ? target : INT64_MAX;
    unsigned char *greedy = malloc(d.n + 1);
    d.incumbent = greedy;
    d.merged = calloc(d.n + 1, 1);
    d.cap = 1024;
    d.buf = d.cur = malloc(d.cap * sizeof *d.buf);
    int rc = greedy && d.buf && d.merged ? SO_OK : SO_ENOMEM;
    int status = SO_OPTIMAL, stop = SO_OK;
    int64_t bound = 0;
    if (!rc) {
        int64_t gw = 0;
        d.gp = 0;
        for (size_t k = 0; k < d.n && (gw != 1 || d.gp != 1); k++) {
            gw = gcd64(gw, kp->weight[k]); /* both 1: nothing more to learn */
            d.gp = gcd64(d.gp, kp->profit[k]);
        }
        d.c = gw > 1 ? kp->capacity / gw * gw : kp->capacity;
        rc = so_kp_core_order_init(&d.co, kp, d.c, &d.b, &d.W, &d.P);
        d.ord = d.co.ord;
        d.pw = d.co.pw;
        d.pp = d.co.pp;
    }
    if (!rc) {
        const size_t *ord = d.ord;
        /* greedy incumbent */
        memset(greedy, 0, d.n + 1);
        int64_t fw = d.W, fp = d.P;
        for (size_t k = 0; k < d.n; k++)
            if (k < d.b || fw + d.pw[k] <= d.c) {
                greedy[ord[k]] = 1;
                if (k >= d.b) {
                    fw += d.pw[k];
                    fp += d.pp[k];
                }
            }
        d.z = fp;
        d.best = fp > d.P ? BEST_FULL : BEST_STATE; /* the break solution */
        if (target > 0 && fp < target - 1) {
            d.z = target - 1; /* decoding: only a state worth target */
            d.best = BEST_NONE;
        }
        for (int j = 0; j < VBITS; j++)
            d.ring[j] = d.best_ring[j] = -1;
        d.vno = VBITS - 1;
        d.best_extra = -1;
        d.best_w = d.W;
        d.best_s = d.best_t1 = d.b;
        d.m = 1;
        d.cur[0] = (state){d.W, d.P, 0};
        rc = run_dp(&d, &status, &stop, &bound);
        free(d.buf); /* decoding reads no state: its DP's peak, not both */
        d.buf = d.cur = NULL;
        d.cap = 0;
        int short_stop = 0;
        if (!rc)
            rc = decode(&d, greedy, x, &short_stop);
        if (!rc && short_stop && status == SO_OPTIMAL) {
            /* z's vector not recovered: why decoding's DP stopped */
            stop = short_stop;
            status = stop == SO_KP_STOP_TIME ? SO_TIMELIMIT : SO_FEASIBLE;
        }
        if (!rc && stop == SO_KP_STOP_MEMORY && d.n <= SO_KP_MITM_MAX_N) {
            int mr = so_kp_mitm_solve(kp, d.deadline, x);
            int64_t zm = so_kp_value(kp, x, NULL);
            if (mr == SO_ENOMEM) {
                rc = mr;
            } else if (mr == SO_OK) {
                status = SO_OPTIMAL;
                stop = SO_OK;
                bound = zm;
            } else {
                status = SO_TIMELIMIT;
                stop = SO_KP_STOP_TIME;
                if (zm < d.z) /* keep the DP's incumbent */
                    rc = decode(&d, greedy, x, &short_stop);
            }
        }
    }
    *status_out = status;
    *stop_out = stop;
    *bound_out = bound;
    *m_out = d.m;
    so_kp_core_order_free(&d.co);
    free(greedy);
    free(d.merged);
    free(d.buf);
    so_kp_pair_free(d.pair);
    return rc;
}

int so_kp_dp_exact_until(const so_kp *kp, double deadline,
                         double decode_deadline, size_t max_states, int relax,
                         unsigned char *x, int *proved)
{
    int status = 0, stop = 0;
    int64_t bound = 0;
    size_t m = 0;
    int rc = dp_exact(kp, deadline, decode_deadline, max_states, relax, 0, x,
                      &status, &stop, &bound, &m);
    *proved = !rc && status == SO_OPTIMAL;
    return rc;
}

int so_kp_dp_exact(const so_kp *kp, double deadline, size_t max_states,
                   int relax, unsigned char *x, int *proved)
{
    return so_kp_dp_exact_until(kp, deadline, deadline, max_states, relax, x,
                                proved);
}

int so_kp_dp_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    const so_kp *kp = so_kp_of(p);
    double t0 = so_now();
    long long max_states;
    so_error err;
    if (so_params_int(prm, so_kp_dp_options, "max_states", MAX_STATES_DEFAULT,
                      &max_states,
                      &err) ||
        max_states < 16) {
        so_result_set_message(r, "max_states: expected an integer >= 16");
        return SO_EINVAL;
    }
    /* aim at 95 % of the limit: the rest is for decoding and the report
     * (a stop must land within 10 % of the limit) */
    double deadline = prm->time_limit > 0 ? t0 + 0.95 * prm->time_limit : 0;
    double decode_deadline = prm->time_limit > 0 ? t0 + prm->time_limit : 0;
    unsigned char *x = malloc(kp->n + 1);
    int status = SO_OPTIMAL, stop = SO_OK;
    int64_t bound = 0;
    size_t m = 0;
    int rc = x ? dp_exact(kp, deadline, decode_deadline, (size_t)max_states,
                          1, 0, x, &status, &stop, &bound, &m)
               : SO_ENOMEM;
    if (!rc) {
        so_kp_report(kp, r, status, x, 1, bound);
        if (stop == SO_KP_STOP_MEMORY)
            so_result_set_message(r, "memory limit: the next step's states"
                                     " (up to %zu live) would exceed"
                                     " max_states = %zu; best solution found"
                                     " so far",
                                  2 * m, (size_t)max_states);
        else if (stop == SO_KP_STOP_TIME)
            so_result_set_message(r, "time limit: best solution found so far");
    } else {
        so_result_set_message(r, "out of memory (malloc failed) at %zu live"
                                 " states", m);
    }
    free(x);
    return rc;
}
