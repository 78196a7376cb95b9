/* flex_opt_lp.c — the malleable FLEX problem for a fixed completion order
 * is a linear programme (issue 17; Wolf et al., "FLEX", Middleware 2010,
 * Section 2.2 defines the schedules; SPEC section 1 the metrics).
 *
 * Order pi: job pi(q) completes at T_pi(q) = L_1 + ... + L_q, interval q
 * of length L_q >= 0 between the (q-1)-th and q-th completion. x_qj >= 0
 * are job j's slot-seconds in interval q, for the jobs still active there:
 *   m_j L_q <= x_qj <= M_j L_q,   sum_j x_qj <= S L_q,
 *   sum_{q <= pos(j)} x_qj = C_j.
 * Any schedule with that order gives such (L, x) (average each interval's
 * allocation: the box and the capacity are convex); conversely (L, x)
 * gives a schedule with integer slot counts: the rates r_j = x_qj / L_q
 * lie in the polytope {m <= r <= M, sum r <= S}, whose vertices are
 * integral (a box with one cardinality row is totally unimodular), and
 * McNaughton's wrap-around splits the interval into sub-intervals in which
 * job j holds floor(r_j) or floor(r_j) + 1 slots (realise() below).
 *
 * Objective (p_j the penalty of SPEC section 1, sum or max):
 *   response, weighted response, stretch, makespan, (weighted) lateness:
 *     omega_j T_j + beta_j, linear;
 *   (weighted) tardiness: u_j >= w_j (T_j - d_j), u_j >= 0 (convex);
 *   (weighted) tardy jobs and SLA: one binary per deadline step,
 *     T_j - H b <= d, penalty w b (a MILP); H = the latest deadline plus
 *     the total work: after the latest deadline no penalty changes, and
 *     from then every unfinished job holding its minimum with the slack
 *     to one of them finishes the rest within the total work (M_j >= 1),
 *     so T_j <= H loses no optimum;
 *   max aggregate: z >= p_j.
 *
 * A prefix pi(1..k) with the other jobs R completing later (the bound of
 * flex_opt.c's branch-and-bound): the k intervals as above with the jobs
 * of R active throughout (minima kept, their work at most C_j), and for
 * j in R only T_j >= T_k + (C_j - work done by T_k) / M_j; for makespan
 * (and maximum response) also z >= T_k + (sum over R of remaining work)/S.
 * Binaries are relaxed to [0, 1] unless the order is complete. Constant
 * bounds that only depend on the prefix's set strengthen it (flex_exact_
 * bound.c's arguments, from time 0): positional bounds pos_i on the i-th
 * completion of R (minima of the jobs still active count against S), as
 * the cuts "any s jobs of R complete after pos_1 + ... + pos_s in total"
 * (separated on nested sets), the cheapest assignment of R's jobs to those
 * positions as a lower bound on R's share of a minisum objective, the
 * last position as a bound on a minimax one, and each job's earliest
 * completion fixing the binaries of deadline steps it cannot meet.
 *
 * Parallel inequalities (Queyranne 1993, for a machine of speed S; valid
 * for malleable schedules by the mean-busy-time argument, the second term
 * from the rate cap M_j): for every job set A,
 *   sum_{j in A} C_j T_j >= (sum_A C_j)^2 / (2 S) + sum_A C_j^2 / (2 M_j).
 * They are separated on the nested sets of the jobs sorted by T_j (a few
 * rounds per LP) and kept in a pool shared by all nodes (globally valid).
 *
 * Scaling: times are in units of the total work over S, work in units of
 * the largest C_j; instances whose work or deadlines spread over more than
 * 1e9 are refused (the LP would be badly conditioned). */
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "slotopt.h"
#include "solvers/flex_exact.h"
#include "solvers/flex_opt.h"

#define SEPARATION_ROUNDS 8

static const double *sort_key;
static int by_key(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return sort_key[x] < sort_key[y] ? -1 : sort_key[x] > sort_key[y] ? 1
           : (x > y) - (x < y);
}

static int late(double t, double d)
{
    return t > d + SO_FLEX_EPS * (1.0 + fabs(d));
}

static int has_binaries(int metric)
{
    return metric == SO_FLEX_TARDY || metric == SO_FLEX_WTARDY ||
           metric == SO_FLEX_SLA;
}

int so_flex_opt_lp_init(so_flex_opt_lp *ctx, const so_flex *f, char *why,
                        size_t size)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->f = f;
    if (f->n > SO_FLEX_OPT_MAX_JOBS) {
        snprintf(why, size, "flex-opt takes at most %d jobs (%zu given)",
                 SO_FLEX_OPT_MAX_JOBS, f->n);
        return SO_EUNSUPPORTED;
    }
    double lo = INFINITY, hi = 0, total = 0, dmax = 0;
    for (size_t j = 0; j < f->n; j++) {
        lo = fmin(lo, f->work[j]);
        hi = fmax(hi, f->work[j]);
        total += f->work[j];
        dmax = fmax(dmax, fabs(f->deadline[j]));
        for (size_t i = f->sla_start[j]; i < f->sla_start[j + 1]; i++)
            dmax = fmax(dmax, fabs(f->sla_deadline[i]));
    }
    if (f->n && (hi > 1e9 * lo || dmax > 1e9 * (total / (double)f->slots))) {
        snprintf(why, size, "flex-opt needs work and deadlines within a"
                 " factor 1e9 of each other (work %g to %g, deadlines up"
                 " to %g)", lo, hi, dmax);
        return SO_EUNSUPPORTED;
    }
    ctx->horizon = dmax + total + 1.0;
    return SO_OK;
}

/* ---- the programme ------------------------------------------------------ */

typedef struct {
    glp_prob *lp;
    int *ia, *ja;
    double *ar;
    int nnz, cap;
    double tunit, wunit; /* time and work units */
    int *colL, *colT;    /* per interval, per job */
    int *colX;           /* k x n, 0 where inactive */
    int colZ;
    size_t k;            /* prefix length */
    const size_t *pre;
    size_t n_rest;       /* jobs completing after the prefix */
    size_t rest[SO_FLEX_OPT_MAX_JOBS];
    double pos[SO_FLEX_OPT_MAX_JOBS + 1]; /* positional bounds (tu units) */
    double earliest[SO_FLEX_OPT_MAX_JOBS]; /* lower bound on T_j, seconds */
} model;

static int entry(model *m, int row, int col, double v)
{
    if (m->nnz + 1 >= m->cap) {
        int cap = m->cap ? 2 * m->cap : 256;
        int *ia = realloc(m->ia, (size_t)cap * sizeof *ia);
        if (ia)
            m->ia = ia;
        int *ja = realloc(m->ja, (size_t)cap * sizeof *ja);
        if (ja)
            m->ja = ja;
        double *ar = realloc(m->ar, (size_t)cap * sizeof *ar);
        if (ar)
            m->ar = ar;
        if (!ia || !ja || !ar)
            return SO_ENOMEM;
        m->cap = cap;
    }
    m->nnz++;
    m->ia[m->nnz] = row;
    m->ja[m->nnz] = col;
    m->ar[m->nnz] = v;
    return SO_OK;
}

static int add_row(model *m, int type, double lo, double hi)
{
    int r = glp_add_rows(m->lp, 1);
    glp_set_row_bnds(m->lp, r, type, lo, hi);
    return r;
}

static int add_col(model *m, int type, double lo, double hi, double obj)
{
    int c = glp_add_cols(m->lp, 1);
    glp_set_col_bnds(m->lp, c, type, lo, hi);
    glp_set_obj_coef(m->lp, c, obj);
    return c;
}

/* Penalty of job j as a linear expression over new columns: appends the
 * (column, coefficient) terms to cols/coef and returns their count; the
 * constant goes to *cst. */
static int penalty_terms(const so_flex_opt_lp *ctx, model *m, size_t j,
                         int integer, int *cols, double *coef, double *cst,
                         int *rc)
{
    const so_flex *f = ctx->f;
    double tu = m->tunit, w = so_flex_omega(f, j), omega, beta;
    int k = 0;
    *cst = 0;
    if (so_flex_linear(f, j, &omega, &beta)) {
        cols[k] = m->colT[j];
        coef[k++] = omega * tu;
        *cst = beta;
        return k;
    }
    if (f->metric == SO_FLEX_TARDINESS || f->metric == SO_FLEX_WTARDINESS) {
        /* u >= w (T tu - d)  <=>  u - w tu T >= -w d */
        int u = add_col(m, GLP_LO, 0, 0, 0);
        int r = add_row(m, GLP_LO, -w * f->deadline[j], 0);
        *rc = *rc ? *rc : entry(m, r, u, 1.0);
        *rc = *rc ? *rc : entry(m, r, m->colT[j], -w * tu);
        cols[k] = u;
        coef[k++] = 1.0;
        return k;
    }
    /* tardy jobs and SLA steps: T tu - H b <= d */
    size_t a = f->metric == SO_FLEX_SLA ? f->sla_start[j] : 0;
    size_t b = f->metric == SO_FLEX_SLA ? f->sla_start[j + 1] : 1;
    for (size_t s = a; s < b; s++) {
        double d = f->metric == SO_FLEX_SLA ? f->sla_deadline[s] : f->deadline[j];
        double pen = f->metric == SO_FLEX_SLA ? f->sla_penalty[s] : w;
        /* a job that cannot finish by d (earliest_completions) is late */
        int sure = late(m->earliest[j], d);
        int col = add_col(m, sure ? GLP_FX : GLP_DB, sure ? 1 : 0, 1, 0);
        if (integer && !sure)
            glp_set_col_kind(m->lp, col, GLP_BV);
        int r = add_row(m, GLP_UP, 0, d);
        *rc = *rc ? *rc : entry(m, r, m->colT[j], tu);
        *rc = *rc ? *rc : entry(m, r, col, -(ctx->horizon + fabs(d)));
        cols[k] = col;
        coef[k++] = pen;
    }
    return k;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Positional bounds of the jobs R completing after the prefix P (flex_exact_
 * bound.c's argument, from time 0 with the prefix known): when the i-th job
 * of R completes, at t, the jobs done hold at least W(P) + the i smallest
 * works of R, and the n_R - i still active have held at least their minima
 * throughout, so S t >= W(P) + W_i + mu_{n_R - i} t, mu the sum of the
 * n_R - i smallest minima of R: t >= pos_i = (W(P) + W_i) / (S - mu);
 * made non-decreasing in i. In tu units; pos[0] = 0. */
static void positional_bounds(const so_flex *f, const unsigned char *inpre,
                              model *m)
{
    double work[SO_FLEX_OPT_MAX_JOBS], mins[SO_FLEX_OPT_MAX_JOBS], wp = 0;
    size_t r = 0;
    for (size_t j = 0; j < f->n; j++)
        if (inpre[j]) {
            wp += f->work[j];
        } else {
            m->rest[r] = j;
            work[r] = f->work[j];
            mins[r++] = (double)f->min[j];
        }
    m->n_rest = r;
    qsort(work, r, sizeof *work, cmp_double);
    qsort(mins, r, sizeof *mins, cmp_double);
    m->pos[0] = 0;
    double w = wp;
    for (size_t i = 1; i <= r; i++) {
        w += work[i - 1];
        double mu = 0;
        for (size_t q = 0; q < r - i; q++)
            mu += mins[q];
        double b = w / ((double)f->slots - mu) / m->tunit;
        m->pos[i] = fmax(b, m->pos[i - 1]);
    }
}

/* A lower bound on each completion time, for fixing the binaries of the
 * deadline metrics: C_j / M_j; for the q-th prefix job, the work of the
 * first q over S less the minima of all the jobs not done by then; for a
 * job of R, pos_1. */
static void earliest_completions(const so_flex *f, const size_t *pre,
                                 size_t k, model *m)
{
    double minsum = 0, w = 0;
    for (size_t j = 0; j < f->n; j++) {
        minsum += (double)f->min[j];
        m->earliest[j] = f->work[j] / (double)f->max[j];
    }
    for (size_t q = 0; q < k; q++) {
        size_t j = pre[q];
        w += f->work[j];
        minsum -= (double)f->min[j];
        m->earliest[j] = fmax(m->earliest[j], w / ((double)f->slots - minsum));
    }
    for (size_t i = 0; i < m->n_rest; i++)
        m->earliest[m->rest[i]] = fmax(m->earliest[m->rest[i]],
                                       m->pos[1] * m->tunit);
}

/* Positional cuts: any s jobs of R take s distinct positions after the
 * prefix, so their completion times sum to at least pos_1 + ... + pos_s.
 * Separated on the nested sets of R sorted by T; adds every violated one;
 * returns how many. */
static int position_cuts(model *m, const double *T, int *rc)
{
    size_t r = m->n_rest, ord[SO_FLEX_OPT_MAX_JOBS];
    memcpy(ord, m->rest, r * sizeof *ord);
    sort_key = T;
    qsort(ord, r, sizeof *ord, by_key);
    double lhs = 0, rhs = 0;
    int added = 0, ind[SO_FLEX_OPT_MAX_JOBS + 1];
    double val[SO_FLEX_OPT_MAX_JOBS + 1];
    for (size_t i = 0; i < r; i++) {
        lhs += T[ord[i]];
        rhs += m->pos[i + 1];
        ind[i + 1] = m->colT[ord[i]];
        val[i + 1] = 1.0;
        if (rhs - lhs > 1e-7 * (1.0 + fabs(rhs))) {
            int row = add_row(m, GLP_LO, rhs, 0);
            glp_set_mat_row(m->lp, row, (int)i + 1, ind, val);
            added++;
        }
    }
    (void)rc;
    return added;
}

/* The jobs of R take the positions k+1..n in some order, the i-th of them
 * completing after max(pos_i, earliest_j): the cheapest assignment of R's
 * jobs to positions bounds the sum of their penalties (every p_j is
 * non-decreasing). build() adds the row "sum over R of the penalty terms
 * >= that". -inf when out of memory or not finite. */
static double assignment_bound(const so_flex *f, const model *m)
{
    size_t r = m->n_rest;
    double *cost = malloc(r * r * sizeof *cost);
    if (!cost)
        return -INFINITY;
    for (size_t a = 0; a < r; a++)
        for (size_t i = 0; i < r; i++) {
            size_t j = m->rest[a];
            double t = fmax(m->pos[i + 1] * m->tunit, m->earliest[j]);
            cost[a * r + i] = so_flex_penalty(f, j, t);
        }
    double bound = so_flex_assignment(cost, r);
    free(cost);
    return isfinite(bound) ? bound : -INFINITY;
}

static int build(so_flex_opt_lp *ctx, model *m, const size_t *pre, size_t k,
                 int integer)
{
    const so_flex *f = ctx->f;
    size_t n = f->n;
    double S = (double)f->slots, total = 0, wmax = 0;
    for (size_t j = 0; j < n; j++) {
        total += f->work[j];
        wmax = fmax(wmax, f->work[j]);
    }
    m->tunit = total / S;
    m->wunit = wmax;
    double tu = m->tunit, wu = m->wunit;
    int rc = SO_OK;
    m->k = k;
    m->pre = pre;
    unsigned char inpre[SO_FLEX_OPT_MAX_JOBS] = {0};
    size_t pos[SO_FLEX_OPT_MAX_JOBS];
    for (size_t q = 0; q < k; q++) {
        inpre[pre[q]] = 1;
        pos[pre[q]] = q;
    }
    positional_bounds(f, inpre, m);
    earliest_completions(f, pre, k, m);
    glp_set_obj_dir(m->lp, GLP_MIN);
    /* columns L_q, T_j, x_qj (x in units wu, L and T in units tu) */
    for (size_t q = 0; q < k; q++)
        m->colL[q] = add_col(m, GLP_LO, 0, 0, 0);
    int bin = has_binaries(f->metric);
    for (size_t j = 0; j < n; j++)
        m->colT[j] = bin ? add_col(m, GLP_DB, 0, ctx->horizon / tu, 0)
                         : add_col(m, GLP_LO, 0, 0, 0);
    for (size_t q = 0; q < k; q++)
        for (size_t j = 0; j < n; j++)
            m->colX[q * n + j] = (!inpre[j] || pos[j] >= q)
                                     ? add_col(m, GLP_LO, 0, 0, 0) : 0;
    /* interval rows */
    for (size_t q = 0; q < k && !rc; q++) {
        int cap = add_row(m, GLP_UP, 0, 0);
        rc = entry(m, cap, m->colL[q], -S * tu / wu);
        for (size_t j = 0; j < n && !rc; j++) {
            int x = m->colX[q * n + j];
            if (!x)
                continue;
            rc = entry(m, cap, x, 1.0);
            int hi = add_row(m, GLP_UP, 0, 0);
            if (!rc)
                rc = entry(m, hi, x, 1.0);
            if (!rc)
                rc = entry(m, hi, m->colL[q], -(double)f->max[j] * tu / wu);
            if (!rc && f->min[j] > 0) {
                int lo = add_row(m, GLP_LO, 0, 0);
                rc = entry(m, lo, x, 1.0);
                if (!rc)
                    rc = entry(m, lo, m->colL[q], -(double)f->min[j] * tu / wu);
            }
        }
    }
    /* work and completion rows */
    for (size_t j = 0; j < n && !rc; j++) {
        double C = f->work[j] / wu;
        if (inpre[j]) {
            int w = add_row(m, GLP_FX, C, C);
            int t = add_row(m, GLP_FX, 0, 0);
            rc = entry(m, t, m->colT[j], 1.0);
            for (size_t q = 0; q <= pos[j] && !rc; q++) {
                rc = entry(m, w, m->colX[q * n + j], 1.0);
                if (!rc)
                    rc = entry(m, t, m->colL[q], -1.0);
            }
        } else {
            /* remaining work, then T_j >= T_k + remaining / M_j:
             * M T - M sum L + sum x wu/tu >= C wu/tu */
            double M = (double)f->max[j];
            int w = add_row(m, GLP_UP, 0, C);
            int t = add_row(m, GLP_LO, C * wu / tu, 0);
            rc = entry(m, t, m->colT[j], M);
            for (size_t q = 0; q < k && !rc; q++) {
                rc = entry(m, w, m->colX[q * n + j], 1.0);
                if (!rc)
                    rc = entry(m, t, m->colX[q * n + j], wu / tu);
                if (!rc)
                    rc = entry(m, t, m->colL[q], -M);
            }
        }
    }
    /* objective */
    int maxagg = f->aggregate == SO_FLEX_MAX;
    m->colZ = maxagg ? add_col(m, GLP_FR, 0, 0, 1.0) : 0;
    if (maxagg && m->n_rest) {
        /* the last of R completes after pos[|R|]: z >= min_j p_j(that) */
        double z = INFINITY, t = m->pos[m->n_rest] * tu;
        for (size_t i = 0; i < m->n_rest; i++)
            z = fmin(z, so_flex_penalty(f, m->rest[i], t));
        glp_set_col_bnds(m->lp, m->colZ, GLP_LO, z, 0);
    }
    double constant = 0, rest_constant = 0;
    int arow = !maxagg && m->n_rest > 1 ? add_row(m, GLP_FR, 0, 0) : 0;
    for (size_t j = 0; j < n && !rc; j++) {
        int cols[64];
        double coef[64], cst = 0;
        size_t steps = f->metric == SO_FLEX_SLA
                           ? f->sla_start[j + 1] - f->sla_start[j] : 1;
        int *cp = cols;
        double *vp = coef;
        if (steps > 64) {
            cp = malloc(steps * sizeof *cp);
            vp = malloc(steps * sizeof *vp);
            if (!cp || !vp) {
                free(cp);
                free(vp);
                rc = SO_ENOMEM;
                break;
            }
        }
        int nt = penalty_terms(ctx, m, j, integer, cp, vp, &cst, &rc);
        if (maxagg) {
            /* z - sum terms >= cst */
            int r = add_row(m, GLP_LO, cst, 0);
            rc = rc ? rc : entry(m, r, m->colZ, 1.0);
            for (int t = 0; t < nt && !rc; t++)
                rc = entry(m, r, cp[t], -vp[t]);
        } else {
            constant += cst;
            for (int t = 0; t < nt; t++)
                glp_set_obj_coef(m->lp, cp[t], glp_get_obj_coef(m->lp, cp[t]) + vp[t]);
            if (arow && !inpre[j]) {
                rest_constant += cst;
                for (int t = 0; t < nt && !rc; t++)
                    rc = entry(m, arow, cp[t], vp[t]);
            }
        }
        if (cp != cols) {
            free(cp);
            free(vp);
        }
    }
    glp_set_obj_coef(m->lp, 0, constant);
    if (arow) {
        double bound = assignment_bound(f, m);
        if (isfinite(bound))
            glp_set_row_bnds(m->lp, arow, GLP_LO, bound - rest_constant, 0);
    }
    /* makespan tail: z >= T_k + sum_R remaining / S */
    int unit = f->metric == SO_FLEX_MAKESPAN || f->metric == SO_FLEX_RESPONSE;
    if (!rc && maxagg && unit && k < n) {
        double restC = 0;
        for (size_t j = 0; j < n; j++)
            if (!inpre[j])
                restC += f->work[j];
        /* S tu z - S tu sum L + wu sum_R x >= sum_R C */
        int r = add_row(m, GLP_LO, restC / wu, 0);
        rc = entry(m, r, m->colZ, S / wu);
        for (size_t q = 0; q < k && !rc; q++) {
            rc = entry(m, r, m->colL[q], -S * tu / wu);
            for (size_t j = 0; j < n && !rc; j++)
                if (!inpre[j])
                    rc = entry(m, r, m->colX[q * n + j], 1.0);
        }
    }
    return rc;
}

/* sum_{j in A} C_j T_j >= (sum C)^2 / (2S) + sum C_j^2 / (2 M_j), in the
 * units of the model (T in tu, divided through by wu tu). */
static double cut_rhs(const so_flex *f, uint64_t A, double tu, double wu)
{
    double s = 0, q = 0;
    for (size_t j = 0; j < f->n; j++)
        if (A >> j & 1) {
            s += f->work[j];
            q += f->work[j] * f->work[j] / (double)f->max[j];
        }
    return (s * s / (double)f->slots + q) / (2.0 * wu * tu);
}

static int add_cut(const so_flex_opt_lp *ctx, model *m, uint64_t A)
{
    const so_flex *f = ctx->f;
    int r = add_row(m, GLP_LO, cut_rhs(f, A, m->tunit, m->wunit), 0);
    int rc = SO_OK;
    for (size_t j = 0; j < f->n && !rc; j++)
        if (A >> j & 1)
            rc = entry(m, r, m->colT[j], f->work[j] / m->wunit);
    return rc;
}

/* The most violated nested set, 0 if none is violated by more than tol. */
static uint64_t separate(const so_flex_opt_lp *ctx, const model *m,
                         const double *T)
{
    const so_flex *f = ctx->f;
    size_t n = f->n, ord[SO_FLEX_OPT_MAX_JOBS];
    for (size_t j = 0; j < n; j++)
        ord[j] = j;
    sort_key = T;
    qsort(ord, n, sizeof *ord, by_key);
    uint64_t A = 0, best = 0;
    double lhs = 0, worst = 0;
    for (size_t i = 0; i < n; i++) {
        A |= (uint64_t)1 << ord[i];
        lhs += f->work[ord[i]] / m->wunit * T[ord[i]];
        double gap = cut_rhs(f, A, m->tunit, m->wunit) - lhs;
        if (gap > 1e-7 * (1.0 + fabs(lhs)) && gap > worst) {
            worst = gap;
            best = A;
        }
    }
    return best;
}

static int in_pool(const so_flex_opt_lp *ctx, uint64_t A)
{
    for (size_t c = 0; c < ctx->n_cuts; c++)
        if (ctx->cuts[c] == A)
            return 1;
    return 0;
}

/* Tail inequalities of a prefix node: for B a set of the jobs R still to
 * complete after T_k, with remaining work rem_j <= C_j, the parallel
 * inequality of the continuation gives
 *   sum_B C_j (T_j - T_k) >= sum_B rem_j (T_j - T_k) >= (sum_B rem)^2 / (2S)
 * and the square is at least its tangent 2 s0 s - s0^2 at any s0: a linear
 * cut, valid for this node's subtree only. Separated on the nested sets of
 * R sorted by T_j, with s0 the current remaining work of the set. Adds the
 * most violated one to the LP; returns 1 if it added one. */
static int tail_cut(model *m, const so_flex *f, const double *T, int *rc)
{
    size_t n = f->n, k = m->k, ord[SO_FLEX_OPT_MAX_JOBS], nr = 0;
    if (k == 0 || k >= n)
        return 0;
    double Tk = 0, rem[SO_FLEX_OPT_MAX_JOBS];
    for (size_t q = 0; q < k; q++)
        Tk += glp_get_col_prim(m->lp, m->colL[q]);
    for (size_t j = 0; j < n; j++) {
        if (!m->colX[(k - 1) * n + j] || m->colX[(k - 1) * n + j] == 0)
            continue;
        int in_rest = 1;
        for (size_t q = 0; q < k; q++)
            if (m->pre[q] == j)
                in_rest = 0;
        if (!in_rest)
            continue;
        double done = 0;
        for (size_t q = 0; q < k; q++)
            done += glp_get_col_prim(m->lp, m->colX[q * n + j]);
        rem[j] = fmax(0.0, f->work[j] / m->wunit - done);
        ord[nr++] = j;
    }
    sort_key = T;
    qsort(ord, nr, sizeof *ord, by_key);
    double S = (double)f->slots, tu = m->tunit, wu = m->wunit;
    double lhs = 0, s = 0, worst = 0;
    size_t best = 0;
    for (size_t i = 0; i < nr; i++) {
        size_t j = ord[i];
        lhs += f->work[j] / wu * (T[j] - Tk);
        s += rem[j];
        /* in model units: sum C'(T' - Tk') >= s'^2 wu / (2 S tu) */
        double rhs = s * s * wu / (2.0 * S * tu);
        double gap = rhs - lhs;
        if (gap > 1e-7 * (1.0 + fabs(lhs)) && gap > worst) {
            worst = gap;
            best = i + 1;
        }
    }
    if (!best)
        return 0;
    s = 0;
    double sumC = 0;
    for (size_t i = 0; i < best; i++) {
        s += rem[ord[i]];
        sumC += f->work[ord[i]] / wu;
    }
    /* sum_B C'(T'_j - sum L') - a sum_B (C' - sum_q x') >= -a s0' / 2,
     * a = s0' wu / (S tu) */
    double a = s * wu / (S * tu);
    int r = add_row(m, GLP_LO, a * sumC - a * s / 2.0, 0);
    int *ind = malloc((n + k * n + k + 1) * sizeof *ind);
    double *val = malloc((n + k * n + k + 1) * sizeof *val);
    if (!ind || !val) {
        free(ind);
        free(val);
        *rc = SO_ENOMEM;
        return 0;
    }
    int e = 0;
    for (size_t i = 0; i < best; i++) {
        size_t j = ord[i];
        ind[++e] = m->colT[j];
        val[e] = f->work[j] / wu;
        for (size_t q = 0; q < k; q++) {
            ind[++e] = m->colX[q * n + j];
            val[e] = a;
        }
    }
    for (size_t q = 0; q < k; q++) {
        ind[++e] = m->colL[q];
        val[e] = -sumC;
    }
    glp_set_mat_row(m->lp, r, e, ind, val);
    free(ind);
    free(val);
    return 1;
}

/* ---- realising the solution --------------------------------------------- */

/* McNaughton's wrap-around for one interval [t0, t0 + len] with rates
 * r[n] (m_j <= r_j <= M_j, sum <= S): appends sub-intervals of integer
 * slot counts. */
static int realise(const so_flex *f, double t0, double len, const double *r,
                   const unsigned char *active, so_flex_schedule *s)
{
    size_t n = f->n;
    int64_t base[SO_FLEX_OPT_MAX_JOBS], row[SO_FLEX_OPT_MAX_JOBS];
    double frac[SO_FLEX_OPT_MAX_JOBS];
    double cut[2 * SO_FLEX_OPT_MAX_JOBS + 2];
    size_t nc = 0;
    double lane = 0; /* position along the stacked lanes, in units of len */
    /* segments: job j holds an extra slot on [a_j, b_j) (and, wrapped,
     * on [0, b2_j)) in fractions of the interval */
    double a[SO_FLEX_OPT_MAX_JOBS], b[SO_FLEX_OPT_MAX_JOBS], b2[SO_FLEX_OPT_MAX_JOBS];
    for (size_t j = 0; j < n; j++) {
        a[j] = b[j] = b2[j] = 0;
        if (!active[j]) {
            base[j] = 0;
            frac[j] = 0;
            continue;
        }
        double x = fmin(fmax(r[j], (double)f->min[j]), (double)f->max[j]);
        double fl = floor(x + 1e-9);
        base[j] = (int64_t)fl;
        frac[j] = x - fl > 1e-9 ? x - fl : 0;
        if (frac[j] == 0)
            continue;
        double start = lane - floor(lane), end = start + frac[j];
        lane += frac[j];
        a[j] = start;
        if (end <= 1.0 + 1e-12) {
            b[j] = fmin(end, 1.0);
        } else {
            b[j] = 1.0;
            b2[j] = end - 1.0;
        }
        cut[nc++] = a[j];
        cut[nc++] = b[j];
        if (b2[j] > 0)
            cut[nc++] = b2[j];
    }
    cut[nc++] = 0;
    cut[nc++] = 1;
    /* sort the cut points */
    for (size_t i = 1; i < nc; i++)
        for (size_t l = i; l > 0 && cut[l - 1] > cut[l]; l--) {
            double t = cut[l];
            cut[l] = cut[l - 1];
            cut[l - 1] = t;
        }
    for (size_t i = 0; i + 1 < nc; i++) {
        double u = cut[i], v = cut[i + 1];
        if (v - u <= 1e-12)
            continue;
        double mid = 0.5 * (u + v);
        for (size_t j = 0; j < n; j++)
            row[j] = base[j] + ((frac[j] > 0 && ((mid >= a[j] && mid < b[j]) ||
                                                  mid < b2[j])) ? 1 : 0);
        double s0 = t0 + u * len, s1 = i + 2 == nc ? t0 + len : t0 + v * len;
        int rc = so_flex_schedule_add(s, s0, s1, row);
        if (rc)
            return rc;
    }
    return SO_OK;
}

/* ---- solving ------------------------------------------------------------- */

static int solve_lp(glp_prob *lp)
{
    glp_smcp p;
    glp_init_smcp(&p);
    p.msg_lev = GLP_MSG_OFF;
    p.presolve = GLP_OFF;
    p.meth = GLP_DUALP;
    int rc = glp_simplex(lp, &p);
    if (rc == GLP_ENOPFS || rc == GLP_ENODFS)
        return GLP_NOFEAS;
    if (rc)
        return -1;
    int st = glp_get_status(lp);
    return st == GLP_OPT ? GLP_OPT : st == GLP_NOFEAS ? GLP_NOFEAS : -1;
}

int so_flex_opt_solve_prefix(so_flex_opt_lp *ctx, const size_t *pre,
                             size_t k, int exact, double *value, double *T,
                             so_flex_schedule *sched)
{
    const so_flex *f = ctx->f;
    size_t n = f->n, kk = k ? k : 1;
    *value = INFINITY;
    if (n == 0) {
        *value = 0;
        return SO_OK;
    }
    glp_term_out(GLP_OFF);
    int integer = exact && k == n && has_binaries(f->metric);
    model m;
    memset(&m, 0, sizeof m);
    m.lp = glp_create_prob();
    m.tunit = m.wunit = 1;
    m.colL = malloc(kk * sizeof(int));
    m.colT = malloc(n * sizeof(int));
    m.colX = malloc(kk * n * sizeof(int));
    m.pre = pre;
    double *Tv = malloc(n * sizeof *Tv);
    int rc = m.colL && m.colT && m.colX && Tv ? SO_OK : SO_ENOMEM;
    if (!rc)
        rc = build(ctx, &m, pre, k, integer);
    for (size_t c = 0; c < ctx->n_cuts && !rc; c++)
        rc = add_cut(ctx, &m, ctx->cuts[c]);
    if (!rc && m.nnz)
        glp_load_matrix(m.lp, m.nnz, m.ia, m.ja, m.ar);
    int feasible = 0;
    if (!rc) {
        glp_scale_prob(m.lp, GLP_SF_AUTO);
        for (int round = 0; round <= SEPARATION_ROUNDS; round++) {
            ctx->lps++;
            int st = solve_lp(m.lp);
            if (st == GLP_NOFEAS)
                break;
            if (st != GLP_OPT) {
                rc = SO_EBACKEND;
                break;
            }
            feasible = 1;
            for (size_t j = 0; j < n; j++)
                Tv[j] = glp_get_col_prim(m.lp, m.colT[j]);
            if (round == SEPARATION_ROUNDS)
                break;
            if (position_cuts(&m, Tv, &rc))
                continue;
            uint64_t A = separate(ctx, &m, Tv);
            if (!A || in_pool(ctx, A)) {
                if (tail_cut(&m, f, Tv, &rc))
                    continue;
                break;
            }
            if (ctx->n_cuts < SO_FLEX_OPT_MAX_CUTS)
                ctx->cuts[ctx->n_cuts++] = A;
            m.nnz = 0;
            rc = add_cut(ctx, &m, A);
            if (rc)
                break;
            int r = glp_get_num_rows(m.lp);
            int ind[SO_FLEX_OPT_MAX_JOBS + 1];
            double val[SO_FLEX_OPT_MAX_JOBS + 1];
            for (int e = 1; e <= m.nnz; e++) {
                ind[e] = m.ja[e];
                val[e] = m.ar[e];
            }
            glp_set_mat_row(m.lp, r, m.nnz, ind, val);
            glp_unscale_prob(m.lp);
            glp_scale_prob(m.lp, GLP_SF_AUTO);
        }
    }
    double v = INFINITY;
    if (!rc && feasible)
        v = glp_get_obj_val(m.lp);
    if (!rc && feasible && integer) {
        glp_iocp io;
        glp_init_iocp(&io);
        io.msg_lev = GLP_MSG_OFF;
        if (ctx->deadline > 0) {
            double left = ctx->deadline - so_now();
            io.tm_lim = left > 0.001 ? (int)(left * 1000) : 1;
        }
        ctx->lps++;
        int ir = glp_intopt(m.lp, &io);
        int st = glp_mip_status(m.lp);
        if (st == GLP_OPT)
            v = glp_mip_obj_val(m.lp);
        else if (st == GLP_FEAS) {
            v = glp_mip_obj_val(m.lp);
            rc = SO_TIMELIMIT;
        } else if (ir == GLP_ETMLIM) {
            v = INFINITY;
            rc = SO_TIMELIMIT;
        } else {
            v = INFINITY;
            feasible = 0;
        }
        for (size_t j = 0; j < n && feasible; j++)
            Tv[j] = glp_mip_col_val(m.lp, m.colT[j]);
    }
    if ((!rc || rc == SO_TIMELIMIT) && feasible && isfinite(v)) {
        *value = v;
        if (T)
            for (size_t j = 0; j < n; j++)
                T[j] = Tv[j] * m.tunit;
    }
    if ((!rc || rc == SO_TIMELIMIT) && sched && k == n && isfinite(v)) {
        double t0 = 0, r[SO_FLEX_OPT_MAX_JOBS];
        unsigned char active[SO_FLEX_OPT_MAX_JOBS];
        for (size_t q = 0; q < n && (!rc || rc == SO_TIMELIMIT); q++) {
            double L = (integer ? glp_mip_col_val(m.lp, m.colL[q])
                                : glp_get_col_prim(m.lp, m.colL[q])) * m.tunit;
            if (!(L > 0))
                continue;
            for (size_t j = 0; j < n; j++) {
                int x = m.colX[q * n + j];
                active[j] = x != 0;
                double xv = !x ? 0 : integer ? glp_mip_col_val(m.lp, x)
                                             : glp_get_col_prim(m.lp, x);
                r[j] = x ? xv * m.wunit / L : 0;
            }
            int e = realise(f, t0, L, r, active, sched);
            if (e)
                rc = e;
            t0 += L;
        }
    }
    glp_delete_prob(m.lp);
    free(m.ia);
    free(m.ja);
    free(m.ar);
    free(m.colL);
    free(m.colT);
    free(m.colX);
    free(Tv);
    return rc;
}
