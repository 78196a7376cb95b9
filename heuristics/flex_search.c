/* flex_search.c — FLEX proper (Wolf et al., Middleware 2010, Section 3:
 * "flex creates a generic ordering and at most a modest number of specific
 * orderings, feeding each of them to mps. The final output is the best
 * solution mps found"), plus a local search over orders, the project's
 * addition (SPEC: the paper's < 0.1 % needs better orders than the RAP
 * order alone): first-improvement insertion moves (take the job at
 * position i, reinsert it at k), evaluated by MPS, started from every
 * candidate order in turn (multi-start) within one budget of evaluations,
 * a job-count cap and an optional wall-clock deadline. Orders are compared
 * by their objective, then by sum_j omega_j t_j, so that the search moves
 * on the plateaus of step metrics (tardy jobs, SLA) and of maxima.
 * Without local search (the cluster model's epochs, issue 16) the orders
 * are compared without replaying each to its end: the metric's likely
 * winner first, the others cut once they provably lose to it
 * (best_by_bounds, flex_mps.c); the same order, value and kind. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/rap.h"
#include "heuristics/flex.h"

void so_flex_options_init(so_flex_options *o)
{
    o->local_search = 1;
    o->ls_max_jobs = 200;
    o->ls_evals = 4000;
    o->deadline = 0;
    o->exhaustive = 0;
    o->lead = -1;
}

/* An order's value and, to break ties on the plateaus of step metrics and
 * maxima, the secondary sum_j omega_j t_j (lexicographic comparison). */
typedef struct {
    double value, second;
} score;

/* The score of completion times c: the objective, then sum_j omega_j c_j
 * (for response both are the plain sum of c_j in index order:
 * so_flex_objective's and so_flex_omega's 1.0 x c_j is c_j). */
static score score_of(const so_flex *f, const double *c)
{
    score out = {0, 0};
    if (f->metric == SO_FLEX_RESPONSE && f->aggregate == SO_FLEX_SUM) {
        for (size_t j = 0; j < f->n; j++)
            out.second += c[j];
        out.value = out.second;
        return out;
    }
    out.value = so_flex_objective(f, c);
    for (size_t j = 0; j < f->n; j++)
        out.second += so_flex_omega(f, j) * c[j];
    return out;
}

/* The score of an order (its whole MPS replay on the workspace w); first
 * (may be NULL) gets its first interval. */
static int evaluate(so_flex_mps_ws *w, const so_flex *f, const size_t *order,
                    double *c, int64_t *first, score *out)
{
    int cut;
    int rc = so_flex_mps_run(w, f, order, 0, INFINITY, c, first, NULL, &cut);
    if (rc)
        return rc;
    *out = score_of(f, c);
    return SO_OK;
}

static int same(double a, double b)
{
    return a == b || (isfinite(a) && isfinite(b) &&
                      fabs(a - b) <= 1e-12 * (1.0 + fabs(b)));
}

static int better(score a, score b)
{
    if (!same(a.value, b.value))
        return a.value < b.value;
    return a.second < b.second && !same(a.second, b.second);
}

/* trial = order with the job at i moved to position k. */
static void move(const size_t *order, size_t n, size_t i, size_t k, size_t *trial)
{
    memcpy(trial, order, n * sizeof *trial);
    size_t job = trial[i];
    if (i < k)
        memmove(trial + i, trial + i + 1, (k - i) * sizeof *trial);
    else
        memmove(trial + k + 1, trial + k, (i - k) * sizeof *trial);
    trial[k] = job;
}

static int out_of_time(const so_flex_options *o)
{
    return o->deadline > 0 && so_now() > o->deadline;
}

/* First-improvement insertion moves from order (improved in place) while
 * *budget lasts. */
static int descend(so_flex_mps_ws *w, const so_flex *f,
                   const so_flex_options *o, size_t *order, score *best,
                   size_t *budget)
{
    size_t n = f->n;
    size_t *trial = malloc(n * sizeof *trial);
    double *c = malloc(n * sizeof *c);
    int rc = trial && c ? SO_OK : SO_ENOMEM, improved = 1;
    while (!rc && improved && *budget > 0 && !out_of_time(o)) {
        improved = 0;
        for (size_t i = 0; i < n && !improved && !rc && *budget > 0; i++)
            for (size_t k = 0; k < n && !improved && !rc && *budget > 0; k++) {
                if (k == i)
                    continue;
                move(order, n, i, k, trial);
                score sc;
                rc = evaluate(w, f, trial, c, NULL, &sc);
                (*budget)--;
                if (!rc && better(sc, *best)) {
                    memcpy(order, trial, n * sizeof *order);
                    *best = sc;
                    improved = 1;
                }
            }
    }
    free(trial);
    free(c);
    return rc;
}

struct so_flex_work {
    struct search_mem *m; /* so_flex_allocate_with's memory (below) */
    const int *ids;       /* so_flex_work_ids, or NULL */
    so_flex_order_inc *inc[SO_FLEX_NORDERS];
};

/* 1 when w keeps kind's order from call to call (so_flex_work_ids). */
static int kept_order(const so_flex_work *w, int kind)
{
    return w && w->ids && w->inc[kind] &&
           (kind == SO_FLEX_ORDER_SPT || kind == SO_FLEX_ORDER_SMITH ||
            kind == SO_FLEX_ORDER_ALONE || kind == SO_FLEX_ORDER_SMITH_ALONE);
}

/* The candidate orders, RAP to MOORE (cand: SO_FLEX_NORDERS x k): have[kind]
 * when kind's order exists, twin[kind] the first earlier kind with the same
 * order, or -1. An order equal to an earlier one by construction is copied
 * (so_flex_order_same_as), LAXITY without deadlines is ALONE reversed
 * (so_flex_order_reversed); a RAP too large or infeasible gives no order. */
static int candidates(const so_flex *f, so_flex_work *w, size_t *cand,
                      size_t k, int *have, int *twin)
{
    size_t n = f->n;
    int reversible = so_flex_order_reversible(f);
    for (int kind = SO_FLEX_ORDER_RAP; kind < SO_FLEX_NORDERS; kind++) {
        size_t *ord = cand + (size_t)kind * k;
        int same_as = so_flex_order_same_as(f, kind);
        int orc = SO_OK;
        have[kind] = 0;
        twin[kind] = -1;
        if (kind == SO_FLEX_ORDER_RAP && !so_rap_feasible(f))
            continue; /* so_rap_solve: SO_INFEASIBLE, or SO_EUNSUPPORTED */
        if (same_as >= 0 && have[same_as])
            memcpy(ord, cand + (size_t)same_as * k, n * sizeof *ord);
        else if (kind == SO_FLEX_ORDER_LAXITY && reversible &&
                 have[SO_FLEX_ORDER_ALONE])
            orc = so_flex_order_reversed(f, cand + (size_t)SO_FLEX_ORDER_ALONE * k,
                                         ord);
        else if (!(kept_order(w, kind) &&
                   !so_flex_order_inc_run(w->inc[kind], f, kind, w->ids, ord)))
            orc = so_flex_order(f, kind, ord);
        if (orc == SO_INFEASIBLE || orc == SO_ENOMEM || orc == SO_EUNSUPPORTED)
            continue; /* no generic order (RAP too large or infeasible) */
        if (orc)
            return orc;
        for (int e = SO_FLEX_ORDER_RAP; twin[kind] < 0 && e < kind; e++)
            if (have[e] && !memcmp(ord, cand + (size_t)e * k, n * sizeof *ord))
                twin[kind] = e;
        have[kind] = 1;
    }
    return SO_OK;
}

/* The order most likely to win for f's metric (the one replayed first in
 * full, whose objective bounds the others' replays): the single-machine
 * rule of the metric (SPT for response, Smith's ratio for weights and
 * stretch, longest first for makespan), else the generic RAP order. Any
 * choice gives the same result; a good one cuts the others early. */
static int lead_kind(const so_flex *f, int wanted, const int *have)
{
    int kind = wanted > SO_FLEX_ORDER_ARRIVAL && wanted < SO_FLEX_NORDERS
                   ? wanted
               : f->metric == SO_FLEX_RESPONSE  ? SO_FLEX_ORDER_SPT
               : f->metric == SO_FLEX_WRESPONSE ? SO_FLEX_ORDER_SMITH
               : f->metric == SO_FLEX_STRETCH   ? SO_FLEX_ORDER_SMITH
               : f->metric == SO_FLEX_MAKESPAN  ? SO_FLEX_ORDER_LPT
                                                : SO_FLEX_ORDER_RAP;
    for (int e = SO_FLEX_ORDER_RAP; !have[kind] && e < SO_FLEX_NORDERS; e++)
        kind = e;
    return kind;
}

/* Working memory of so_flex_best for instances of up to k jobs: the
 * candidate orders (stride k), completion times, the MPS workspace and
 * the best order. */
typedef struct search_mem {
    size_t k;
    size_t *cand, *order;
    double *c;
    so_flex_mps_ws *w;
} search_mem;

static void mem_free(search_mem *m)
{
    free(m->cand);
    free(m->order);
    free(m->c);
    so_flex_mps_ws_free(m->w);
    *m = (search_mem){0};
}

static int mem_init(search_mem *m, size_t n)
{
    m->k = n ? n : 1;
    m->cand = malloc(SO_FLEX_NORDERS * m->k * sizeof *m->cand);
    m->order = malloc(m->k * sizeof *m->order);
    m->c = malloc(m->k * sizeof *m->c);
    m->w = so_flex_mps_ws_new(m->k);
    if (m->cand && m->order && m->c && m->w)
        return SO_OK;
    mem_free(m);
    return SO_ENOMEM;
}

so_flex_work *so_flex_work_new(void)
{
    so_flex_work *w = calloc(1, sizeof *w);
    if (w && !(w->m = calloc(1, sizeof *w->m))) {
        free(w);
        return NULL;
    }
    return w;
}

void so_flex_work_free(so_flex_work *w)
{
    if (!w)
        return;
    mem_free(w->m);
    free(w->m);
    for (int kind = 0; kind < SO_FLEX_NORDERS; kind++)
        so_flex_order_inc_free(w->inc[kind]);
    free(w);
}

int so_flex_work_ids(so_flex_work *w, const int *ids, int max_id)
{
    w->ids = ids;
    for (int kind = 0; kind < SO_FLEX_NORDERS; kind++) {
        so_flex_order_inc_free(w->inc[kind]);
        w->inc[kind] = NULL;
    }
    for (int kind = SO_FLEX_ORDER_SPT; ids && kind <= SO_FLEX_ORDER_SMITH_ALONE;
         kind++)
        if (!(w->inc[kind] = so_flex_order_inc_new(max_id)))
            return -1;
    return 0;
}

/* Room for n jobs: kept when there is, else twice as much or n. */
static int work_reserve(so_flex_work *w, size_t n)
{
    if (w->m->k >= n && w->m->k > 0)
        return SO_OK;
    size_t k = 2 * w->m->k > n ? 2 * w->m->k : n;
    mem_free(w->m);
    return mem_init(w->m, k);
}

/* 1 when order's MPS first interval is first[] (another order's): the
 * slack S - sum_j m_j (> 0, and below sum_j (M_j - m_j)) given along the
 * order, each job up to M_j, lands on first[]'s jobs in first[]'s amounts
 * (then first[] gives nothing elsewhere: both give the whole slack).
 * O(the jobs the slack reaches). */
static int same_first(const so_flex *f, const size_t *order,
                      const int64_t *first, int64_t slack)
{
    for (size_t i = 0; i < f->n && slack > 0; i++) {
        size_t j = order[i];
        int64_t give = f->max[j] - f->min[j];
        if (give > slack)
            give = slack;
        if (first[j] != f->min[j] + give)
            return 0;
        slack -= give;
    }
    return slack == 0;
}

/* so_flex_best without local search, by cut replays: the lead order
 * (lead_kind) is replayed in full, every other distinct order with the
 * lead's objective as bound (so_flex_mps_run); a cut order provably scores
 * worse than the lead by more than the margin. The fold over the orders
 * (every kind in turn replaces the best so far when better, the first one
 * always) then needs no cut order's exact score while the best so far is
 * exact and within half the margin of the lead's value (the cut order is
 * not better), or the candidate is exact and within it and the best so
 * far is cut (the candidate is better); in any other comparison the cut
 * orders involved are replayed in full first. So the fold's result is the
 * one of exact scores everywhere: the same order, value and kind. When the
 * best order is the lead's, its first interval is the lead's replay's
 * (first, when not NULL; *have_first = 1). exhaustive: no bound.
 * With first (the caller wants the winner's first interval only: the
 * cluster's epochs), an order whose first interval is the lead's is not
 * replayed at first: when every order whose first interval differs is cut,
 * the fold's winner (never a cut order: the lead beats it) has the lead's
 * first interval, and that is the answer (order, value and kind are then
 * the lead's: they may differ from the winner's, its first interval does
 * not). Otherwise the skipped orders are replayed and the fold runs as
 * above. On the overloaded day at 100 nodes (issue 33) 88 % of the solves
 * end there, most often without the RAP order's replay, which is close to
 * SPT's and seldom cut. */
static int best_by_bounds(const so_flex *f, so_flex_work *work,
                          search_mem *m, const so_flex_options *o,
                          size_t *order, double *value, int *kind_out,
                          int64_t *first, int *have_first)
{
    size_t n = f->n, k = m->k;
    int have[SO_FLEX_NORDERS], twin[SO_FLEX_NORDERS], root[SO_FLEX_NORDERS];
    int cut[SO_FLEX_NORDERS] = {0};
    score sc[SO_FLEX_NORDERS];
    *have_first = 0;
    *value = INFINITY;
    int rc = candidates(f, work, m->cand, k, have, twin);
    if (rc)
        return rc;
    int lead = lead_kind(f, o->lead, have);
    if (!have[lead])
        return SO_OK; /* no order at all */
    for (int kind = SO_FLEX_ORDER_RAP; kind < SO_FLEX_NORDERS; kind++)
        root[kind] = twin[kind] >= 0 ? twin[kind] : kind;
    rc = evaluate(m->w, f, m->cand + (size_t)lead * k, m->c, first,
                  &sc[root[lead]]);
    double bound = o->exhaustive || rc || !isfinite(sc[root[lead]].value)
                       ? INFINITY : sc[root[lead]].value;
    int first_only = first != NULL && isfinite(bound), skipped[SO_FLEX_NORDERS] = {0};
    int64_t slack = f->slots;
    for (size_t j = 0; first_only && j < n; j++)
        slack -= f->min[j];
    for (int pass = 0; pass < 2 && !rc; pass++) {
        int all_cut = 1;
        for (int kind = SO_FLEX_ORDER_RAP; !rc && kind < SO_FLEX_NORDERS; kind++) {
            if (!have[kind] || root[kind] != kind || kind == root[lead] ||
                (pass == 1 && !skipped[kind]))
                continue;
            const size_t *ord = m->cand + (size_t)kind * k;
            if (pass == 0 && first_only && same_first(f, ord, first, slack)) {
                skipped[kind] = 1;
                continue;
            }
            rc = so_flex_mps_run(m->w, f, ord, 0, bound, m->c, NULL, NULL, &cut[kind]);
            all_cut = all_cut && cut[kind];
            if (rc || cut[kind])
                continue;
            sc[kind] = score_of(f, m->c);
        }
        if (rc || pass == 1 || !first_only)
            break;
        if (all_cut) { /* the winner has the lead's first interval */
            memcpy(order, m->cand + (size_t)lead * k, n * sizeof *order);
            if (kind_out)
                *kind_out = lead;
            *value = sc[root[lead]].value;
            *have_first = 1;
            return SO_OK;
        }
    }
    double limit = bound + 0.5 * SO_FLEX_MPS_CUT_MARGIN * (1 + fabs(bound));
    int chosen = -1;
    for (int kind = SO_FLEX_ORDER_RAP; !rc && kind < SO_FLEX_NORDERS; kind++) {
        if (!have[kind])
            continue;
        int r = root[kind], b = chosen >= 0 ? root[chosen] : -1;
        if (b < 0 || r == b) { /* the first order; the same order is not better */
            chosen = b < 0 ? kind : chosen;
            continue;
        }
        if (cut[r] && !cut[b] && sc[b].value <= limit)
            continue;
        if (!cut[r] && cut[b] && sc[r].value <= limit) {
            chosen = kind;
            continue;
        }
        for (int i = 0; !rc && i < 2; i++) { /* exact scores of both */
            int e = i ? b : r;
            if (cut[e])
                rc = evaluate(m->w, f, m->cand + (size_t)e * k, m->c, NULL, &sc[e]);
            cut[e] = 0;
        }
        if (!rc && better(sc[r], sc[b]))
            chosen = kind;
    }
    if (rc)
        return rc;
    memcpy(order, m->cand + (size_t)chosen * k, n * sizeof *order);
    if (kind_out)
        *kind_out = chosen;
    *value = sc[root[chosen]].value;
    *have_first = first != NULL && root[chosen] == root[lead];
    return SO_OK;
}

/* so_flex_best, and the first interval of its best order when known
 * (*have_first; with first, order, value and kind may be those of another
 * order with the same first interval: best_by_bounds). */
static int best_first(const so_flex *f, const so_flex_options *o,
                      so_flex_work *work, search_mem *mem, size_t *order,
                      double *value,
                      int *kind_out, int64_t *first, int *have_first)
{
    size_t n = f->n;
    search_mem m = *mem;
    int rc = SO_OK;
    int use_ls = o->local_search && n >= 2 && n <= o->ls_max_jobs;
    *have_first = 0;
    if (!use_ls)
        return best_by_bounds(f, work, &m, o, order, value, kind_out, first,
                              have_first);
    size_t k = m.k, *cand = m.cand;
    score sc[SO_FLEX_NORDERS], best = {INFINITY, INFINITY};
    int have[SO_FLEX_NORDERS] = {0}, twin[SO_FLEX_NORDERS], chosen = 0;
    rc = candidates(f, work, cand, k, have, twin);
    for (int kind = SO_FLEX_ORDER_RAP; !rc && kind < SO_FLEX_NORDERS; kind++) {
        if (!have[kind])
            continue;
        if (twin[kind] >= 0)
            sc[kind] = sc[twin[kind]]; /* MPS is deterministic: same order, same score */
        else
            rc = evaluate(m.w, f, cand + (size_t)kind * k, m.c, NULL, &sc[kind]);
    }
    size_t budget = o->ls_evals;
    /* every order, then (multi-start) its local optimum; keep the best */
    for (int kind = SO_FLEX_ORDER_RAP; !rc && kind < SO_FLEX_NORDERS; kind++) {
        if (!have[kind])
            continue;
        size_t *ord = cand + (size_t)kind * k;
        if (use_ls && budget > 0)
            rc = descend(m.w, f, o, ord, &sc[kind], &budget);
        if (!rc && (!chosen || better(sc[kind], best))) {
            chosen = 1; /* the first order even when every value is +inf */
            best = sc[kind];
            memcpy(order, ord, n * sizeof *order);
            if (kind_out)
                *kind_out = kind;
        }
    }
    *value = best.value;
    return rc;
}

int so_flex_best(const so_flex *f, const so_flex_options *o, size_t *order,
                 double *value, int *kind_out)
{
    int have_first;
    search_mem m;
    int rc = mem_init(&m, f->n);
    if (!rc)
        rc = best_first(f, o, NULL, &m, order, value, kind_out, NULL,
                        &have_first);
    mem_free(&m);
    return rc;
}

int so_flex_allocate_with(so_flex_work *w, const so_flex *f,
                          const so_flex_options *opt, int64_t *slots)
{
    so_flex_options def;
    if (!opt) {
        so_flex_options_init(&def);
        opt = &def;
    }
    char why[160];
    if (so_flex_validate(f, why, sizeof why))
        return SO_EINVAL;
    /* Minima that fill every slot leave MPS no slack to give in its first
     * interval, whatever the order: that interval is m_j (an epoch of an
     * overloaded cluster, where each job still learning its task time holds
     * one slot); no order is built or evaluated. */
    int64_t held = 0, wanted = 0;
    for (size_t j = 0; j < f->n; j++) {
        held += f->min[j];
        wanted += f->max[j];
    }
    if (held >= f->slots) {
        for (size_t j = 0; j < f->n; j++)
            slots[j] = f->min[j];
        return SO_OK;
    }
    /* Maxima that fit in the slots: MPS's first interval gives every job
     * its M_j whatever the order (the slack covers every M_j - m_j), so
     * no order is built or evaluated either (issue 33: most solves of a
     * day on 3,000 nodes). */
    if (wanted <= f->slots) {
        for (size_t j = 0; j < f->n; j++)
            slots[j] = f->max[j];
        return SO_OK;
    }
    int rc = work_reserve(w, f->n);
    if (rc)
        return rc;
    double v;
    int have_first = 0;
    rc = best_first(f, opt, w, w->m, w->m->order, &v, NULL, slots, &have_first);
    if (!rc && !have_first) { /* the best order's first interval */
        int cut;
        rc = so_flex_mps_run(w->m->w, f, w->m->order, 0, INFINITY, w->m->c,
                             slots, NULL, &cut);
    }
    return rc;
}

int so_flex_allocate(const so_flex *f, const so_flex_options *opt,
                     int64_t *slots)
{
    so_flex_work *w = so_flex_work_new();
    int rc = w ? so_flex_allocate_with(w, f, opt, slots) : SO_ENOMEM;
    so_flex_work_free(w);
    return rc;
}
