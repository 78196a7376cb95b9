/* ras_exact.c — `ras-exact`: the exact lexicographic RAS placement (Polo et
 * al., Middleware 2011, eqs. 1-6, the utility limits of
 * formulations/ras_utility.c) as a configuration MILP over classes of
 * identical TaskTrackers, solved by GLPK in two stages like ras-glpk
 * (maximise the minimum utility z, then the utilisation at z >= z* - 1e-7).
 *
 * Columns: n[p] integer, the TaskTrackers of pattern p's class that take
 * pattern p (solvers/ras_patterns.c: every count vector of task types that
 * fits one TaskTracker); the level binaries x[j][s], y[j][r] of ras-glpk's
 * model (formulations/ras_model.c) and z. Rows:
 *   per class:            sum_p n[p] = TaskTrackers in the class;
 *   per job:              sum_s x = 1, sum_r y = 1,
 *                         sum_p a[p][map j] n[p] = sum_s s x[j][s],
 *                         sum_p a[p][reducers j] n[p] = sum_r r y[j][r];
 *   per shuffle level m of a levelled reducer type (demand
 *   shuffle_base + shuffle m, m = min(s_alloc, parallel_copies)):
 *     sum_p a[p][j, m] n[p] <= r_pend t[j][m], t[j][m] = x[j][m] for
 *     m < parallel_copies, sum_{s >= pc} x[j][s] for m = pc (the level must
 *     be the job's own);
 *   utility: z <= sum_s uM(s) x + sum_r uR(r) y with uM(0) replaced by 1
 *     for a job with pending maps, and z <= SO_RAS_STARVED + BIG (1 - x0).
 * Identical TaskTrackers become one class, so the model has no symmetry
 * between them, and its LP relaxation is the cutting-stock one (strong).
 * Choices where the paper is silent:
 * - ras-plus's placement (heuristics/ras_plus.c) is a lower bound z0 on the
 *   optimum: z >= z0 - 1e-7 and the levels below z0 are fixed to 0 (as in
 *   ras-glpk's stage 2); it is also the result when stage 1 finds nothing
 *   within the time limit (status "time limit").
 * - More than MAX_PATTERNS patterns (many small tasks on large
 *   heterogeneous TaskTrackers): ras-exact hands over to ras-glpk's model
 *   (reported in "model": "ras-glpk").
 * - Patterns are checked with so_ras_fits, so a solution never breaks a
 *   capacity: no tightening or repair is needed.
 * - The time limit is one deadline for the whole solve: ras-plus first,
 *   then the patterns, the model and the two stages (each GLPK call gets
 *   what is left); when it passes before stage 1 has an incumbent, the
 *   result is ras-plus's placement, status "time limit", with stage 1's
 *   bound only if GLPK proved one.
 * The result reports the model ("patterns") and the number of patterns. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solvers/common/deadline.h"
#include "solvers/ras_glpk.h"
#include "solvers/ras_patterns.h"

#define MAX_PATTERNS 200000
#define BIG (1.0 - SO_RAS_STARVED)

typedef struct {
    const so_ras *ras;
    so_ras_patterns pt;
    glp_prob *lp;
    int n_col;          /* column of n[p] is n_col + p */
    int *x_col, *y_col; /* J: column of x[j][0], y[j][0] */
    int z_col;
} model;

typedef struct {
    int *ia, *ja;
    double *ar;
    size_t n, cap;
} mat;

static int put(mat *m, int row, int col, double v)
{
    if (v == 0)
        return SO_OK;
    if (m->n + 2 > m->cap) {
        size_t c = m->cap ? 2 * m->cap : 4096;
        int *ia = realloc(m->ia, c * sizeof *ia);
        if (ia)
            m->ia = ia;
        int *ja = realloc(m->ja, c * sizeof *ja);
        if (ja)
            m->ja = ja;
        double *ar = realloc(m->ar, c * sizeof *ar);
        if (ar)
            m->ar = ar;
        if (!ia || !ja || !ar)
            return SO_ENOMEM;
        m->cap = c;
    }
    m->n++;
    m->ia[m->n] = row;
    m->ja[m->n] = col;
    m->ar[m->n] = v;
    return SO_OK;
}

static int row(glp_prob *lp, int type, double lo, double up)
{
    int i = glp_add_rows(lp, 1);
    glp_set_row_bnds(lp, i, type, lo, up);
    return i;
}

static int col(glp_prob *lp, int kind, double lo, double up)
{
    int c = glp_add_cols(lp, 1);
    glp_set_col_kind(lp, c, kind);
    glp_set_col_bnds(lp, c, lo == up ? GLP_FX : GLP_DB, lo, up);
    return c;
}

/* SO_TIMELIMIT when the deadline passes while building. */
static int build(model *md, double deadline)
{
    const so_ras *ras = md->ras;
    const so_ras_patterns *pt = &md->pt;
    glp_prob *lp = md->lp;
    size_t J = ras->J, P = pt->n_patterns, T = pt->n_types;
    mat m = {0};
    int rc = SO_OK;
    so_clock clock = SO_CLOCK_INIT(deadline, 4);
    glp_set_obj_dir(lp, GLP_MAX);
    md->n_col = glp_get_num_cols(lp) + 1;
    for (size_t p = 0; p < P; p++)
        col(lp, GLP_IV, 0, (double)pt->class_count[pt->pattern_class[p]]);
    md->z_col = col(lp, GLP_CV, SO_RAS_STARVED, 1);
    glp_set_obj_coef(lp, md->z_col, 1);
    int class_row = glp_get_num_rows(lp) + 1;
    for (size_t c = 0; c < pt->n_classes; c++)
        row(lp, GLP_FX, (double)pt->class_count[c], (double)pt->class_count[c]);
    for (size_t p = 0; p < P && !rc; p++)
        rc = put(&m, class_row + (int)pt->pattern_class[p], md->n_col + (int)p, 1);
    for (size_t j = 0; j < J && !rc; j++) {
        const so_ras_job *job = &ras->jobs[j];
        md->x_col[j] = glp_get_num_cols(lp) + 1;
        for (int s = 0; s <= job->s_pend; s++)
            col(lp, GLP_BV, 0, 1);
        md->y_col[j] = glp_get_num_cols(lp) + 1;
        for (int r = 0; r <= job->r_pend; r++)
            col(lp, GLP_BV, 0, 1);
        int one_x = row(lp, GLP_FX, 1, 1), one_y = row(lp, GLP_FX, 1, 1);
        int link_x = row(lp, GLP_FX, 0, 0), link_y = row(lp, GLP_FX, 0, 0);
        int util = row(lp, GLP_UP, 0, 0);
        rc = put(&m, util, md->z_col, 1);
        for (int s = 0; s <= job->s_pend && !rc; s++) {
            int c = md->x_col[j] + s;
            double u = so_ras_u_map(s, job->s_req, job->s_pend);
            rc = put(&m, one_x, c, 1);
            if (!rc)
                rc = put(&m, link_x, c, -(double)s);
            if (!rc)
                rc = put(&m, util, c, -(isinf(u) ? 1.0 : u));
        }
        for (int r = 0; r <= job->r_pend && !rc; r++) {
            int c = md->y_col[j] + r;
            rc = put(&m, one_y, c, 1);
            if (!rc)
                rc = put(&m, link_y, c, -(double)r);
            if (!rc)
                rc = put(&m, util, c, -so_ras_u_reduce(r, job->r_pend));
        }
        if (!rc && job->s_pend > 0) { /* z <= -3 + BIG (1 - x0) */
            int starve = row(lp, GLP_UP, 0, SO_RAS_STARVED + BIG);
            rc = put(&m, starve, md->z_col, 1);
            if (!rc)
                rc = put(&m, starve, md->x_col[j], BIG);
        }
        for (size_t t = 0; t < T && !rc; t++) {
            const so_ras_type *ty = &pt->types[t];
            if (ty->job != j)
                continue;
            if (so_clock_over(&clock)) { /* every 16 types: P columns each */
                rc = SO_TIMELIMIT;
                break;
            }
            int link = ty->reducer ? link_y : link_x, lvl = 0;
            if (ty->level >= 0) {
                lvl = row(lp, GLP_UP, 0, 0);
                if (ty->level < job->parallel_copies) {
                    rc = put(&m, lvl, md->x_col[j] + ty->level, -job->r_pend);
                } else {
                    for (int s = ty->level; s <= job->s_pend && !rc; s++)
                        rc = put(&m, lvl, md->x_col[j] + s, -job->r_pend);
                }
            }
            for (size_t p = 0; p < P && !rc; p++) {
                int a = pt->counts[p * T + t];
                if (!a)
                    continue;
                rc = put(&m, link, md->n_col + (int)p, a);
                if (!rc && lvl)
                    rc = put(&m, lvl, md->n_col + (int)p, a);
            }
        }
    }
    if (!rc)
        glp_load_matrix(lp, (int)m.n, m.ia, m.ja, m.ar);
    free(m.ia);
    free(m.ja);
    free(m.ar);
    return rc;
}

/* z >= z_min - 1e-7 and the levels that cannot reach it fixed to 0. */
static void raise_floor(const model *md, double z_min)
{
    const so_ras *ras = md->ras;
    double z0 = z_min - 1e-7;
    for (size_t j = 0; j < ras->J; j++) {
        const so_ras_job *job = &ras->jobs[j];
        for (int s = 0; s <= job->s_pend; s++)
            if (so_ras_finite(so_ras_u_map(s, job->s_req, job->s_pend)) < z0)
                glp_set_col_bnds(md->lp, md->x_col[j] + s, GLP_FX, 0, 0);
        for (int r = 0; r <= job->r_pend; r++)
            if (1.0 + so_ras_u_reduce(r, job->r_pend) < z0)
                glp_set_col_bnds(md->lp, md->y_col[j] + r, GLP_FX, 0, 0);
    }
    if (z0 < 1)
        glp_set_col_bnds(md->lp, md->z_col, GLP_DB, z0, 1);
    else
        glp_set_col_bnds(md->lp, md->z_col, GLP_FX, 1, 1);
}

/* The incumbent of lp as a placement (pm, pr zeroed by the caller). */
static void read_placement(const model *md, int *pm, int *pr)
{
    const so_ras *ras = md->ras;
    const so_ras_patterns *pt = &md->pt;
    size_t TT = ras->TT, T = pt->n_types;
    size_t *next = calloc(pt->n_classes + 1, sizeof *next);
    if (!next)
        return;
    for (size_t p = 0; p < pt->n_patterns; p++) {
        long n = lround(glp_mip_col_val(md->lp, md->n_col + (int)p));
        size_t c = pt->pattern_class[p];
        for (; n > 0; n--) {
            size_t tt = pt->class_first[c];
            /* the next TaskTracker of class c */
            size_t seen = 0;
            for (tt = 0; tt < TT; tt++)
                if (pt->class_of[tt] == c && seen++ == next[c])
                    break;
            next[c]++;
            if (tt >= TT)
                break;
            for (size_t t = 0; t < T; t++) {
                int a = pt->counts[p * T + t];
                const so_ras_type *ty = &pt->types[t];
                (ty->reducer ? pr : pm)[ty->job * TT + tt] += a;
            }
        }
    }
    free(next);
}

/* Utilisation objective of stage 2 (eq. 5 as in ras_eval.c). */
static void utilisation_objective(const model *md)
{
    const so_ras *ras = md->ras;
    const so_ras_patterns *pt = &md->pt;
    size_t R = ras->R, T = pt->n_types, cells = 0;
    for (size_t k = 0; k < ras->TT * R; k++)
        cells += ras->capacity[k] > 0;
    glp_set_obj_coef(md->lp, md->z_col, 0);
    for (size_t p = 0; p < pt->n_patterns; p++) {
        const double *cap = &ras->capacity[pt->class_first[pt->pattern_class[p]] * R];
        double w = 0;
        for (size_t r = 0; r < R; r++) {
            if (!(cap[r] > 0))
                continue;
            double load = 0;
            for (size_t t = 0; t < T; t++)
                load += pt->counts[p * T + t] * pt->types[t].demand[r];
            w += load / cap[r];
        }
        glp_set_obj_coef(md->lp, md->n_col + (int)p, cells ? w / (double)cells : 0);
    }
}

/* The deadline passed while `stage`: ras-plus's placement (pm, pr), status
 * time limit, no bound. */
static int ras_plus_result(const model *md, const int *pm, const int *pr,
                           so_result *r, const char *stage)
{
    so_result_set_message(r, "ras-exact: time limit reached while %s;"
                             " ras-plus's placement", stage);
    int rc = so_ras_report(md->ras, r, SO_TIMELIMIT, pm, pr, 0, 0);
    if (!rc && md->pt.n_patterns) {
        so_result_set_extra(r, "model", json_string("patterns"));
        so_result_set_extra(r, "patterns",
                            json_integer((json_int_t)md->pt.n_patterns));
    }
    return rc;
}

static const so_milp_options tuning = {
    SO_CUTS_GOMORY | SO_CUTS_MIR | SO_CUTS_CLIQUE, 1, 0};

static int solve_stage(model *md, double deadline, so_milp_outcome *o)
{
    so_milp_solve_until(md->lp, deadline, &tuning, o);
    return o->status < 0 ? SO_EBACKEND : SO_OK;
}

/* The configuration model's two stages; pm, pr hold ras-plus's placement
 * on entry (the fallback) and the result on return. */
static int two_stages(model *md, double deadline, int *pm, int *pr,
                      so_result *r, int *lp_lost)
{
    const so_ras *ras = md->ras;
    size_t cells = ras->J * ras->TT;
    so_ras_eval plus_ev, ev;
    int rc = so_ras_evaluate(ras, pm, pr, &plus_ev);
    if (!rc)
        rc = build(md, deadline);
    if (rc == SO_TIMELIMIT)
        return ras_plus_result(md, pm, pr, r, "building the model");
    if (rc)
        return rc;
    if (plus_ev.feasible && plus_ev.min_utility > SO_RAS_STARVED)
        raise_floor(md, plus_ev.min_utility);
    so_milp_outcome o1, o2;
    rc = solve_stage(md, deadline, &o1);
    *lp_lost = o1.lp_lost;
    if (rc) {
        so_result_set_message(r, "GLPK failed (ras-exact stage 1)");
        return rc;
    }
    int status = o1.status;
    if (o1.has_solution) {
        memset(pm, 0, cells * sizeof *pm);
        memset(pr, 0, cells * sizeof *pr);
        read_placement(md, pm, pr);
        rc = so_ras_evaluate(ras, pm, pr, &ev);
        if (!rc) {
            raise_floor(md, ev.min_utility);
            utilisation_objective(md);
            rc = solve_stage(md, deadline, &o2);
            *lp_lost = o2.lp_lost;
            if (rc)
                so_result_set_message(r, "GLPK failed (ras-exact stage 2)");
        }
        if (!rc && o2.has_solution) {
            int *pm2 = calloc(2 * cells + 1, sizeof *pm2);
            if (!pm2)
                return SO_ENOMEM;
            read_placement(md, pm2, pm2 + cells);
            so_ras_eval ev2;
            rc = so_ras_evaluate(ras, pm2, pm2 + cells, &ev2);
            if (!rc && ev2.feasible && !so_ras_better(&ev, &ev2)) {
                memcpy(pm, pm2, cells * sizeof *pm);
                memcpy(pr, pm2 + cells, cells * sizeof *pr);
            }
            free(pm2);
        }
        if (!rc && status == SO_OPTIMAL)
            status = o2.has_solution ? o2.status : SO_TIMELIMIT;
    } else {
        status = SO_TIMELIMIT;
    }
    if (rc)
        return rc;
    rc = so_ras_report(ras, r, status, pm, pr, o1.has_bound, o1.bound);
    if (!rc) {
        so_result_set_extra(r, "model", json_string("patterns"));
        so_result_set_extra(r, "patterns",
                            json_integer((json_int_t)md->pt.n_patterns));
    }
    return rc;
}

int so_ras_exact_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    double deadline = so_deadline_of(prm);
    const so_ras *ras = so_ras_of(p);
    size_t cells = ras->J * ras->TT;
    model md = {0};
    md.ras = ras;
    int *pm = calloc(2 * cells + 1, sizeof *pm);
    int rc = pm ? so_ras_plus_place(ras, 200, pm, pm + cells) : SO_ENOMEM;
    if (!rc)
        rc = so_ras_patterns_build_until(ras, MAX_PATTERNS, deadline, &md.pt);
    if (rc == SO_TIMELIMIT) {
        rc = ras_plus_result(&md, pm, pm + cells, r, "enumerating patterns");
        free(pm);
        return rc;
    }
    if (rc == SO_EUNSUPPORTED) {
        free(pm);
        so_params left = so_params_until(prm, deadline);
        rc = so_ras_glpk_solve(p, &left, r);
        if (rc >= 0)
            so_result_set_extra(r, "model", json_string("ras-glpk"));
        return rc;
    }
    if (rc) {
        free(pm);
        return rc;
    }
    md.x_col = calloc(ras->J + 1, sizeof *md.x_col);
    md.y_col = calloc(ras->J + 1, sizeof *md.y_col);
    md.lp = glp_create_prob();
    int lp_lost = 0;
    rc = md.x_col && md.y_col ? SO_OK : SO_ENOMEM;
    if (!rc)
        rc = two_stages(&md, deadline, pm, pm + cells, r, &lp_lost);
    if (!lp_lost)
        glp_delete_prob(md.lp);
    so_ras_patterns_free(&md.pt);
    free(md.x_col);
    free(md.y_col);
    free(pm);
    return rc;
}
