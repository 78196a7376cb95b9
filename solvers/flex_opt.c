/* flex_opt.c — backend flex-opt: the exact optimum of the malleable FLEX
 * problem over every schedule, not only MPS ones (issue 17).
 *
 * Wolf et al. (Middleware 2010, Section 3.1, Lemma 1) claim that some
 * priority order makes MPS optimal; it fails (docs/flex.md, and the
 * makespan counterexample in tests/solvers/test_flex_opt.c), so flex-exact
 * and flex-enum are optimal over MPS schedules only. For a fixed completion
 * order the problem is a linear programme (a MILP for tardy jobs and SLA
 * steps): solvers/flex_opt_lp.c. The optimum is the best order:
 *
 * Branch-and-bound over completion orders. A node fixes the first k
 * completions; its bound is the LP of that prefix with the other jobs
 * relaxed (flex_opt_lp.c), strengthened by the parallel inequalities kept
 * in a shared pool; children append one job, in increasing order of its
 * completion time in the node's LP. Identical jobs (same work, minimum,
 * maximum, weight, deadline and SLA steps) complete in index order. The
 * first incumbent is the `flex` heuristic's MPS schedule (a malleable
 * schedule too); a leaf (complete order) solves the exact programme, and
 * its schedule, realised with integer slot counts, is checked by the
 * evaluator (so_flex_evaluate), whose objective is the one reported.
 * A node is cut when its bound >= incumbent - 1e-7 (1 + |incumbent|): the
 * optimum is proved within that relative tolerance (LP round-off).
 *
 * On the time limit: status timelimit, the best schedule found, and the
 * root bound. Extras: nodes, lps (LPs and MILPs solved), cuts (pool size),
 * "optimal_over": "malleable". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "heuristics/flex.h"
#include "solvers/flex_opt.h"

typedef struct {
    so_flex_opt_lp lp;
    const so_flex *f;
    size_t n;
    double best;
    size_t *best_order, *pre, *twin;
    unsigned char *inpre;
    so_flex_schedule *best_sched;
    double *completion;
    double deadline;
    int stopped, rc;
    size_t nodes;
} bnb;

static double tol(double v) { return 1e-7 * (1.0 + fabs(v)); }

static int same_job(const so_flex *f, size_t a, size_t b)
{
    if (f->work[a] != f->work[b] || f->min[a] != f->min[b] ||
        f->max[a] != f->max[b] || f->weight[a] != f->weight[b] ||
        f->deadline[a] != f->deadline[b])
        return 0;
    size_t na = f->sla_start[a + 1] - f->sla_start[a];
    if (na != f->sla_start[b + 1] - f->sla_start[b])
        return 0;
    for (size_t i = 0; i < na; i++)
        if (f->sla_deadline[f->sla_start[a] + i] != f->sla_deadline[f->sla_start[b] + i] ||
            f->sla_penalty[f->sla_start[a] + i] != f->sla_penalty[f->sla_start[b] + i])
            return 0;
    return 1;
}

static void leaf(bnb *b)
{
    so_flex_schedule *s = so_flex_schedule_new(b->n);
    double v = INFINITY;
    if (!s) {
        b->rc = SO_ENOMEM;
        return;
    }
    int rc = so_flex_opt_solve_prefix(&b->lp, b->pre, b->n, 1, &v, NULL, s);
    if (rc == SO_TIMELIMIT)
        b->stopped = 1;
    else if (rc)
        b->rc = rc;
    if ((!rc || rc == SO_TIMELIMIT) && v < b->best - tol(b->best)) {
        double obj, *c = malloc(b->n * sizeof *c);
        char why[256];
        if (!c) {
            b->rc = SO_ENOMEM;
        } else if (so_flex_evaluate(b->f, s, 0, c, &obj, why, sizeof why) == SO_OK &&
                   obj < b->best) {
            b->best = obj;
            memcpy(b->best_order, b->pre, b->n * sizeof *b->pre);
            so_flex_schedule_free(b->best_sched);
            b->best_sched = s;
            free(b->completion);
            b->completion = c;
            return;
        } else {
            free(c);
        }
    }
    so_flex_schedule_free(s);
}

static const double *child_key;
static int by_completion(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, c = *(const size_t *)y;
    return child_key[a] < child_key[c] ? -1 : child_key[a] > child_key[c] ? 1
           : (a > c) - (a < c);
}

static void search(bnb *b, size_t k, double *root)
{
    size_t n = b->n;
    if (b->stopped || b->rc)
        return;
    b->nodes++;
    if (b->deadline > 0 && so_now() > b->deadline) {
        b->stopped = 1;
        return;
    }
    if (k + 1 >= n) {
        for (size_t j = 0; j < n && k < n; j++)
            if (!b->inpre[j])
                b->pre[k] = j;
        leaf(b);
        return;
    }
    double v, *T = malloc(n * sizeof *T);
    size_t *kids = malloc(n * sizeof *kids), nk = 0;
    if (!T || !kids) {
        free(T);
        free(kids);
        b->rc = SO_ENOMEM;
        return;
    }
    int rc = so_flex_opt_solve_prefix(&b->lp, b->pre, k, 0, &v, T, NULL);
    if (rc)
        b->rc = rc;
    if (root)
        *root = v;
    if (!rc && v < b->best - tol(b->best)) {
        for (size_t j = 0; j < n; j++)
            if (!b->inpre[j] && (b->twin[j] == n || b->inpre[b->twin[j]]))
                kids[nk++] = j;
        child_key = T;
        qsort(kids, nk, sizeof *kids, by_completion);
        for (size_t c = 0; c < nk && !b->stopped && !b->rc; c++) {
            b->pre[k] = kids[c];
            b->inpre[kids[c]] = 1;
            search(b, k + 1, NULL);
            b->inpre[kids[c]] = 0;
        }
    }
    free(T);
    free(kids);
}

static json_t *order_json(const size_t *order, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        json_array_append_new(a, json_integer((json_int_t)order[i]));
    return a;
}

/* The result from the best LP schedule found. */
static int report(bnb *b, so_result *r, int status)
{
    size_t n = b->n;
    json_t *sol = json_object(), *c = json_array(), *first = json_array();
    if (!sol || !c || !first) {
        json_decref(sol);
        json_decref(c);
        json_decref(first);
        return SO_ENOMEM;
    }
    for (size_t j = 0; j < n; j++) {
        json_array_append_new(c, json_real(b->completion[j]));
        json_array_append_new(first, json_integer(
            b->best_sched->n_intervals ? (json_int_t)b->best_sched->slots[j] : 0));
    }
    json_object_set_new(sol, "order", order_json(b->best_order, n));
    json_object_set_new(sol, "completion", c);
    json_object_set_new(sol, "allocation", first);
    json_object_set_new(sol, "intervals", so_flex_schedule_to_json(b->best_sched));
    so_result_set_status(r, status);
    so_result_set_objective(r, b->best);
    if (status == SO_OPTIMAL)
        so_result_set_bound(r, b->best);
    so_result_set_solution(r, sol);
    return SO_OK;
}

int so_flex_opt_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    const so_flex *f = so_flex_of(p);
    size_t n = f->n, k = n ? n : 1;
    bnb b;
    memset(&b, 0, sizeof b);
    char why[256];
    int rc = so_flex_opt_lp_init(&b.lp, f, why, sizeof why);
    if (rc) {
        so_result_set_message(r, "%s", why);
        return rc;
    }
    b.f = f;
    b.n = n;
    b.best = INFINITY;
    b.deadline = prm->time_limit > 0 ? so_now() + prm->time_limit : 0;
    b.lp.deadline = b.deadline;
    b.best_order = malloc(k * sizeof(size_t));
    b.pre = malloc(k * sizeof(size_t));
    b.twin = malloc(k * sizeof(size_t));
    b.inpre = calloc(k, 1);
    size_t *mps = malloc(k * sizeof(size_t));
    rc = b.best_order && b.pre && b.twin && b.inpre && mps ? SO_OK : SO_ENOMEM;
    for (size_t j = 0; !rc && j < n; j++) {
        b.twin[j] = n;
        for (size_t i = j; i-- > 0;)
            if (same_job(f, i, j)) {
                b.twin[j] = i;
                break;
            }
    }
    so_flex_options o;
    so_flex_options_init(&o);
    o.deadline = b.deadline;
    double mps_value = INFINITY, root = -INFINITY;
    if (!rc)
        rc = so_flex_best(f, &o, mps, &mps_value, NULL);
    if (!rc) {
        b.best = mps_value;
        if (n > 0)
            search(&b, 0, &root);
        rc = b.rc;
    }
    int status = b.stopped ? SO_TIMELIMIT : SO_OPTIMAL;
    if (!rc)
        rc = b.best_sched ? report(&b, r, status)
                          : so_flex_report(f, r, status, mps, 0, -1);
    if (!rc && b.stopped)
        so_result_set_bound(r, fmin(root, b.best));
    if (!rc) {
        so_result_set_extra(r, "nodes", json_integer((json_int_t)b.nodes));
        so_result_set_extra(r, "lps", json_integer((json_int_t)b.lp.lps));
        so_result_set_extra(r, "cuts", json_integer((json_int_t)b.lp.n_cuts));
        so_result_set_extra(r, "optimal_over", json_string("malleable"));
    }
    free(b.best_order);
    free(b.pre);
    free(b.twin);
    free(b.inpre);
    free(mps);
    free(b.completion);
    so_flex_schedule_free(b.best_sched);
    return rc;
}
