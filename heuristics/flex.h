/* flex.h — FLEX's schedulers on a so_flex instance (internal): the
 * Malleable Packing Scheme, the priority orders, FIFO, FAIR, the local
 * search and the FLEX allocation an online scheduler calls every epoch.
 * Wolf et al., "FLEX: a slot allocation scheduling optimizer for MapReduce
 * workloads" (Middleware 2010), Sections 3 and 4; SPEC section 1. */
#ifndef SO_HEURISTICS_FLEX_H
#define SO_HEURISTICS_FLEX_H
#include "formulations/flex_schedule.h"

/* MPS (Fig. 3) for the priority order order[n] (a permutation of 0..n-1,
 * highest priority first); zero_minima: every m_j taken as 0 (FIFO).
 * Fills completion[n]; first[n] (may be NULL) gets the allocation of the
 * first interval; record (may be NULL) gets every interval. O(J log J). */
int so_flex_mps(const so_flex *f, const size_t *order, int zero_minima,
                double *completion, int64_t *first, so_flex_schedule *record);
/* The objective of MPS with that order (NAN on allocation failure). */
double so_flex_mps_value(const so_flex *f, const size_t *order);

/* A reusable MPS workspace for instances of up to n jobs (NULL when out of
 * memory), and MPS on it (so_flex_mps, the same results) with a bound:
 * when bound is finite, zero_minima 0 and the metric's penalty omega_j t,
 * the replay stops (*cut = 1, completion[] partly filled) once the
 * objective provably exceeds bound by more than SO_FLEX_MPS_CUT_MARGIN
 * (relative and absolute; flex_mps.c); else *cut = 0 and every output is
 * that of so_flex_mps. SO_EINVAL when f has more jobs than the workspace. */
#define SO_FLEX_MPS_CUT_MARGIN 1e-7
typedef struct so_flex_mps_ws so_flex_mps_ws;
so_flex_mps_ws *so_flex_mps_ws_new(size_t n);
void so_flex_mps_ws_free(so_flex_mps_ws *w);
int so_flex_mps_run(so_flex_mps_ws *w, const so_flex *f, const size_t *order,
                    int zero_minima, double bound, double *completion,
                    int64_t *first, so_flex_schedule *record, int *cut);

/* FAIR: Hadoop fair-scheduler allocation layer, recomputed at each
 * completion. share = SO_FLEX_FAIR_LEVEL: s_j = min(M_j, max(m_j, r)) for
 * the common water level r (Hadoop's computeFairShares); SO_FLEX_FAIR_SLACK:
 * s_j = min(M_j, m_j + x), the slack split equally. */
enum { SO_FLEX_FAIR_LEVEL, SO_FLEX_FAIR_SLACK };
int so_flex_fair(const so_flex *f, int share, double *completion,
                 int64_t *first, so_flex_schedule *record);

/* Priority orders (ties by arrival index). */
enum so_flex_order_kind {
    SO_FLEX_ORDER_ARRIVAL, /* 0, 1, ..., n-1 (FIFO) */
    SO_FLEX_ORDER_RAP,     /* RAP completion order C_j / s_j (generic) */
    SO_FLEX_ORDER_SPT,     /* C_j */
    SO_FLEX_ORDER_SMITH,   /* C_j / omega_j (Smith's ratio rule) */
    SO_FLEX_ORDER_ALONE,   /* C_j / M_j */
    SO_FLEX_ORDER_SMITH_ALONE, /* C_j / (M_j omega_j) */
    SO_FLEX_ORDER_EDD,     /* d_j (first SLA step for sla) */
    SO_FLEX_ORDER_LAXITY,  /* d_j - C_j / M_j */
    SO_FLEX_ORDER_LPT,     /* -C_j / M_j */
    SO_FLEX_ORDER_MOORE,   /* Moore-Hodgson through MPS (so_flex_order_moore) */
    SO_FLEX_NORDERS
};
const char *so_flex_order_name(int kind);
/* Fills order[n]. SO_FLEX_ORDER_RAP solves the RAP (so_rap_solve) and may
 * return its SO_INFEASIBLE / SO_ENOMEM; the others return SO_OK (or
 * SO_ENOMEM). */
int so_flex_order(const so_flex *f, int kind, size_t *order);
/* An earlier kind whose order equals kind's on f by construction (SMITH is
 * SPT and SMITH_ALONE is ALONE when every omega_j is 1; LPT is LAXITY when
 * no job has a deadline; MOORE is EDD for metrics without deadlines), or
 * -1: lets FLEX skip the sort. O(J). */
int so_flex_order_same_as(const so_flex *f, int kind);
/* 1 when LAXITY's key is -(ALONE's key) on f (no deadlines): then
 * so_flex_order_reversed(f, alone, order) gives the LAXITY order from the
 * ALONE order alone[n] in O(J): reversed, each run of equal keys kept in
 * index order (falls back to so_flex_order on a NaN key). */
int so_flex_order_reversible(const so_flex *f);
int so_flex_order_reversed(const so_flex *f, const size_t *alone, size_t *order);
/* The sort key of job j in kind's order (kinds other than RAP and MOORE):
 * so_flex_order sorts by it, ties by index. */
double so_flex_order_key(const so_flex *f, int kind, size_t j);
/* An order kept from one instance to the next (flex_order_inc.c): with
 * ids[n] stable job ids in [0, max_id), ascending, fills order[n] with
 * so_flex_order(f, kind) for kind SPT, SMITH, ALONE or SMITH_ALONE,
 * re-sorting only the jobs whose key changed since the last run. SO_OK,
 * SO_EINVAL (ids not ascending or out of range) or SO_ENOMEM. */
typedef struct so_flex_order_inc so_flex_order_inc;
so_flex_order_inc *so_flex_order_inc_new(int max_id);
void so_flex_order_inc_free(so_flex_order_inc *o);
int so_flex_order_inc_run(so_flex_order_inc *o, const so_flex *f, int kind,
                          const int *ids, size_t *order);
/* EDD with late jobs moved to the back one at a time, largest C_j / w_j
 * first (Moore-Hodgson), judged by MPS; plain EDD above 200 jobs and for
 * metrics without deadlines (only tardy, tardiness and sla use it). */
int so_flex_order_moore(const so_flex *f, size_t *order);
/* 1 when so_flex_order_moore is plain EDD on f (see above). */
int so_flex_order_moore_is_edd(const so_flex *f);

typedef struct so_flex_options {
    int local_search;    /* 1: improve the best order by insertion moves */
    size_t ls_max_jobs;  /* local search only up to this many jobs */
    size_t ls_evals;     /* at most this many MPS evaluations */
    double deadline;     /* so_now() time to stop searching; 0 = none */
    int exhaustive;      /* 1: every order's MPS replayed to its end (the
                          * reference of the cut replays; same results) */
    int lead;            /* the order replayed first, whose objective cuts
                          * the others (enum so_flex_order_kind); -1: the
                          * metric's (flex_search.c); same results */
} so_flex_options;
void so_flex_options_init(so_flex_options *o); /* 1, 200, 4000, 0, 0, -1 */

/* FLEX: the generic and every metric-specific order fed to MPS, each
 * improved in turn by a first-improvement local search over insertion
 * moves (job at i moved to k; orders compared by objective, then by
 * sum_j omega_j t_j; one shared budget of MPS evaluations); the best.
 * Without local search, orders that provably lose to the metric's likely
 * winner are not replayed to their end (flex_search.c, so_flex_mps_run):
 * the same order, value and kind as replaying each (o->exhaustive).
 * Fills order[n], *value and *kind (the starting order of the winner, an
 * enum so_flex_order_kind; kind may be NULL). */
int so_flex_best(const so_flex *f, const so_flex_options *o, size_t *order,
                 double *value, int *kind);

/* The FLEX allocation for one epoch, for an online scheduler: f holds the
 * active jobs with their REMAINING work (slot-seconds), minima, maxima and
 * metric data; slots[n] gets the first interval of FLEX's schedule (each
 * m_j <= slots[j] <= M_j, sum <= S). opt may be NULL (defaults).
 * Returns SO_OK, SO_EINVAL when f breaks so_flex_validate, SO_ENOMEM. */
int so_flex_allocate(const so_flex *f, const so_flex_options *opt,
                     int64_t *slots);
/* The same on working memory kept between calls (an online scheduler's
 * epochs): so_flex_work_new (NULL when out of memory), grown as needed. */
typedef struct so_flex_work so_flex_work;
so_flex_work *so_flex_work_new(void);
void so_flex_work_free(so_flex_work *w);
int so_flex_allocate_with(so_flex_work *w, const so_flex *f,
                          const so_flex_options *opt, int64_t *slots);
/* Stable ids of the instance jobs of the next calls (ids[f->n], ascending,
 * in [0, max_id); the array is read at each call): the orders by work
 * (SPT, SMITH, ALONE, SMITH_ALONE) are then kept from call to call
 * (so_flex_order_inc); the same results. 0, or -1 when out of memory. */
int so_flex_work_ids(so_flex_work *w, const int *ids, int max_id);

/* Fills a result from an order's MPS schedule (or FAIR's, order NULL and
 * fair_share >= 0): objective, status, solution {"order", "completion",
 * "allocation" (first interval), "intervals" when n <= 200}. */
int so_flex_report(const so_flex *f, so_result *r, int status,
                   const size_t *order, int zero_minima, int fair_share);

#endif
