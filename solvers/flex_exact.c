/* flex_exact.c — the exact optimum of the malleable FLEX problem by
 * branch-and-bound over priority orders (Lemma 1 of Wolf et al., Middleware
 * 2010, Section 3.1: some order makes MPS optimal; the paper itself uses
 * exhaustive search, Section 4.1).
 *
 * A node fixes a prefix of the order. MPS is replayed from the parent's
 * state as long as the prefix determines it: each interval the slack goes
 * to the prefix jobs in order, and the rest of the order only matters when
 * slack is left over and some job outside the prefix could take it. The
 * replay yields exact completion times for the jobs finished so far and
 * the remaining work of the others at time T; so_flex_exact_bound bounds
 * every continuation. Children append one active job with M_j > m_j (jobs
 * with M_j = m_j never take slack, so their place is irrelevant), in the
 * order of the heuristic's best order, which is also the first incumbent.
 *
 * Symmetry: while the state is undetermined every prefix job holds its
 * maximum, and allocations never decrease in MPS, so they keep it; jobs
 * appended in a row without any completion in between, all at their
 * maximum whichever comes first, give the same state in any order: only
 * the increasing-index order of such a run is explored.
 *
 * Scope: Lemma 1 (proof omitted in the paper) fails for minimax metrics
 * with binding maxima (tests/solvers/test_flex_exact.c has a makespan
 * counterexample), so the result is the optimum over MPS schedules, the
 * problem SPEC section 1 defines; extra "optimal_over": "mps-orders".
 *
 * Pruning: a node is cut when its bound >= incumbent - 1e-9 (1 + |inc|).
 * On the time limit the best order found is reported with the root bound. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "heuristics/flex.h"
#include "solvers/flex_exact.h"

typedef struct {
    const so_flex *f;
    size_t n;
    double best;
    size_t *best_order, *pre, *hint;
    double *rem;                 /* (n + 1) levels x n */
    unsigned char *done, *inpre; /* (n + 1) levels x n */
    int64_t *s;
    double *scratch;
    double deadline;
    int stopped;
    size_t nodes;
} bnb;

typedef struct {
    double T, acc;
    int64_t pool;
    size_t events;
} node;

/* Replays MPS while the prefix pre[0..k) determines it; 1 when all done. */
static int advance(bnb *b, size_t k, double *rem, unsigned char *done,
                   const unsigned char *inpre, node *st)
{
    const so_flex *f = b->f;
    for (;;) {
        int64_t pool = f->slots;
        for (size_t j = 0; j < b->n; j++)
            if (!done[j]) {
                b->s[j] = f->min[j];
                pool -= f->min[j];
            }
        for (size_t i = 0; i < k; i++) {
            size_t j = b->pre[i];
            if (done[j])
                continue;
            int64_t give = f->max[j] - f->min[j] < pool ? f->max[j] - f->min[j] : pool;
            b->s[j] += give;
            pool -= give;
        }
        size_t next = b->n;
        double dt = INFINITY;
        for (size_t j = 0; j < b->n; j++) {
            if (done[j])
                continue;
            if (pool > 0 && !inpre[j] && f->max[j] > f->min[j]) {
                st->pool = pool;
                return 0;
            }
            if (b->s[j] > 0 && rem[j] / (double)b->s[j] < dt) {
                dt = rem[j] / (double)b->s[j];
                next = j;
            }
        }
        if (next == b->n)
            return 1;
        st->T += dt;
        for (size_t j = 0; j < b->n; j++)
            if (!done[j])
                rem[j] = fmax(0.0, rem[j] - (double)b->s[j] * dt);
        done[next] = 1;
        double p = so_flex_penalty(f, next, st->T);
        st->acc = f->aggregate == SO_FLEX_MAX ? fmax(st->acc, p) : st->acc + p;
        st->events++;
    }
}

static void record(bnb *b, size_t k, double value)
{
    b->best = value;
    memcpy(b->best_order, b->pre, k * sizeof *b->pre);
    size_t i = k;
    const unsigned char *inpre = b->inpre + b->n * k;
    for (size_t j = 0; j < b->n; j++)
        if (!inpre[j])
            b->best_order[i++] = j;
}

static double tol(double v) { return 1e-9 * (1.0 + fabs(v)); }

static int by_hint(const void *x, const void *y, void *ctx)
{
    const size_t *hint = ctx;
    size_t a = *(const size_t *)x, c = *(const size_t *)y;
    return hint[a] < hint[c] ? -1 : hint[a] > hint[c];
}

/* Node at depth k (prefix length k); its state is in level k. */
static void search(bnb *b, size_t k, node st, double *root_bound)
{
    size_t n = b->n;
    double *rem = b->rem + n * k;
    unsigned char *done = b->done + n * k, *inpre = b->inpre + n * k;
    if (b->stopped || (++b->nodes % 1024 == 0 && b->deadline > 0 &&
                       so_now() > b->deadline)) {
        b->stopped = 1;
        return;
    }
    st.events = 0;
    if (advance(b, k, rem, done, inpre, &st)) {
        if (st.acc < b->best - 1e-12 * (1.0 + fabs(b->best)))
            record(b, k, st.acc);
        return;
    }
    unsigned char *active = b->done + n * (n + 1); /* spare level */
    for (size_t j = 0; j < n; j++)
        active[j] = !done[j];
    double lb = so_flex_exact_bound(b->f, st.T, rem, active, st.acc, b->scratch);
    if (root_bound)
        *root_bound = lb;
    if (lb >= b->best - tol(b->best))
        return;
    size_t sym = k > 0 && st.events == 0 ? b->pre[k - 1] : n;
    size_t kids[SO_FLEX_EXACT_MAX_JOBS], nk = 0;
    for (size_t j = 0; j < n; j++) {
        int64_t extra = b->f->max[j] - b->f->min[j];
        if (done[j] || inpre[j] || extra == 0)
            continue;
        if (sym < n && j < sym && extra <= st.pool)
            continue; /* same state as ..., j, sym (explored there) */
        kids[nk++] = j;
    }
    qsort_r(kids, nk, sizeof *kids, by_hint, b->hint);
    for (size_t c = 0; c < nk && !b->stopped; c++) {
        memcpy(b->rem + n * (k + 1), rem, n * sizeof *rem);
        memcpy(b->done + n * (k + 1), done, n);
        memcpy(b->inpre + n * (k + 1), inpre, n);
        b->inpre[n * (k + 1) + kids[c]] = 1;
        b->pre[k] = kids[c];
        search(b, k + 1, st, NULL);
    }
}

int so_flex_exact_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    const so_flex *f = so_flex_of(p);
    size_t n = f->n, k = n ? n : 1;
    if (n > SO_FLEX_EXACT_MAX_JOBS) {
        so_result_set_message(r, "flex-exact takes at most %d jobs (%zu given)",
                              SO_FLEX_EXACT_MAX_JOBS, n);
        return SO_EUNSUPPORTED;
    }
    bnb b = {f, n, INFINITY, malloc(k * sizeof(size_t)), malloc(k * sizeof(size_t)),
             malloc(k * sizeof(size_t)), malloc((n + 1) * k * sizeof(double)),
             calloc((n + 2) * k, 1), calloc((n + 1) * k, 1),
             malloc(k * sizeof(int64_t)), malloc((4 * k + k * k) * sizeof(double)),
             prm->time_limit > 0 ? so_now() + prm->time_limit : 0, 0, 0};
    int rc = b.best_order && b.pre && b.hint && b.rem && b.done && b.inpre &&
                     b.s && b.scratch ? SO_OK : SO_ENOMEM;
    so_flex_options o;
    so_flex_options_init(&o);
    o.deadline = b.deadline;
    if (!rc)
        rc = so_flex_best(f, &o, b.best_order, &b.best, NULL);
    double root = -INFINITY;
    if (!rc) {
        for (size_t i = 0; i < n; i++)
            b.hint[b.best_order[i]] = i;
        memcpy(b.rem, f->work, n * sizeof *f->work);
        node st = {0, f->aggregate == SO_FLEX_MAX ? -INFINITY : 0.0, 0, 0};
        search(&b, 0, st, &root);
        if (n == 0)
            b.best = 0;
        rc = so_flex_report(f, r, b.stopped ? SO_TIMELIMIT : SO_OPTIMAL,
                            b.best_order, 0, -1);
    }
    if (!rc && b.stopped)
        so_result_set_bound(r, fmin(root, b.best));
    if (!rc) {
        so_result_set_extra(r, "nodes", json_integer((json_int_t)b.nodes));
        so_result_set_extra(r, "optimal_over", json_string("mps-orders"));
    }
    free(b.best_order);
    free(b.pre);
    free(b.hint);
    free(b.rem);
    free(b.done);
    free(b.inpre);
    free(b.s);
    free(b.scratch);
    return rc;
}
