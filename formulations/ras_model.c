/* ras_model.c — the RAS placement as a MILP for GLPK (SPEC section 3;
 * Polo et al., Middleware 2011, eqs. 1-6), lexicographic in two stages.
 *
 * Columns: PM[j][tt], PR[j][tt] integer (at most the pending counts), z
 * (the minimum utility, in [SO_RAS_STARVED, 1]), one binary per job and
 * allocation level x[j][s] (s_alloc = s, s = 0..s_pend) and y[j][r]
 * (r_alloc = r, r = 0..r_pend), so that the utility of eqs. 1-3 is linear
 * in them: u_j = sum_s uM(s) x[j][s] + sum_r uR(r) y[j][r].
 * Rows per job:
 *   sum_s x[j][s] = 1,   sum_tt PM[j][tt] = sum_s s x[j][s],
 *   sum_r y[j][r] = 1,   sum_tt PR[j][tt] = sum_r r y[j][r],
 *   z <= u_j (the level s = 0 of a job with pending maps is -infinity: it
 *   gets a big-M in that row and its own row z <= SO_RAS_STARVED).
 * Shuffle-phase reducers demand shuffle * min(s_alloc, parallel_copies),
 * a product of two variables, made exact with the thresholds
 * t[j][k] = sum_{s >= k} x[j][s] = [s_alloc >= k], k = 1..parallel_copies:
 *   PR * min(s_alloc, pc) = sum_k PR * t[j][k] = sum_k q[j][tt][k],
 *   q <= PR,  q <= r_pend t,  q >= PR - r_pend (1 - t),  q >= 0
 * (McCormick's envelope, exact because t is 0 or 1).
 * Capacity (eq. 6) per (tt, r): sum_j map PM + (reduce or shuffle_base) PR
 *   + shuffle sum_k q <= Omega.
 * Stage 1 maximises z; stage 2 fixes z >= z* and maximises the
 * utilisation (mean of load / Omega over (tt, r) with Omega > 0), which is
 * what `slotopt export` writes as stage 1 only. */
#include <stdio.h>
#include <stdlib.h>
#include "formulations/ras.h"

#define BIG_M (1.0 - SO_RAS_STARVED)

typedef struct {
    int *ia, *ja;
    double *ar;
    size_t n, cap;
} triplets;

static int add(triplets *t, int row, int col, double v)
{
    if (v == 0)
        return SO_OK;
    if (t->n + 2 > t->cap) {
        size_t c = t->cap ? 2 * t->cap : 1024;
        int *ia = realloc(t->ia, c * sizeof *ia);
        if (ia)
            t->ia = ia;
        int *ja = realloc(t->ja, c * sizeof *ja);
        if (ja)
            t->ja = ja;
        double *ar = realloc(t->ar, c * sizeof *ar);
        if (ar)
            t->ar = ar;
        if (!ia || !ja || !ar)
            return SO_ENOMEM;
        t->cap = c;
    }
    t->n++; /* GLPK's arrays are 1-based */
    t->ia[t->n] = row;
    t->ja[t->n] = col;
    t->ar[t->n] = v;
    return SO_OK;
}

static int new_row(glp_prob *lp, const char *name, int type, double lo,
                   double up)
{
    int i = glp_add_rows(lp, 1);
    glp_set_row_name(lp, i, name);
    glp_set_row_bnds(lp, i, type, lo, up);
    return i;
}

static int new_col(glp_prob *lp, const char *name, int kind, double lo,
                   double up)
{
    int c = glp_add_cols(lp, 1);
    glp_set_col_name(lp, c, name);
    glp_set_col_kind(lp, c, kind);
    glp_set_col_bnds(lp, c, lo == up ? GLP_FX : GLP_DB, lo, up);
    return c;
}

static int has_shuffle(const so_ras *ras, const so_ras_job *job)
{
    if (job->reduce_phase || job->r_pend == 0 || job->s_pend == 0)
        return 0;
    for (size_t r = 0; r < ras->R; r++)
        if (job->shuffle[r] > 0)
            return 1;
    return 0;
}

/* Level binaries, linking rows and the utility rows of job j; x0 gets the
 * column of x[j][0] and xs that of x[j][s] as x0 + s. */
static int add_levels(const so_ras *ras, glp_prob *lp, triplets *t,
                      const so_ras_model *m, size_t j, int *x0)
{
    const so_ras_job *job = &ras->jobs[j];
    size_t TT = ras->TT;
    char name[64];
    int rc = SO_OK;
    *x0 = 0;
    for (int s = 0; s <= job->s_pend; s++) {
        snprintf(name, sizeof name, "x_%zu_%d", j, s);
        int c = new_col(lp, name, GLP_BV, 0, 1);
        if (s == 0)
            *x0 = c;
    }
    int y0 = 0;
    for (int r = 0; r <= job->r_pend; r++) {
        snprintf(name, sizeof name, "y_%zu_%d", j, r);
        int c = new_col(lp, name, GLP_BV, 0, 1);
        if (r == 0)
            y0 = c;
    }
    snprintf(name, sizeof name, "levels_map_%zu", j);
    int one_x = new_row(lp, name, GLP_FX, 1, 1);
    snprintf(name, sizeof name, "alloc_map_%zu", j);
    int link_x = new_row(lp, name, GLP_FX, 0, 0);
    snprintf(name, sizeof name, "levels_reduce_%zu", j);
    int one_y = new_row(lp, name, GLP_FX, 1, 1);
    snprintf(name, sizeof name, "alloc_reduce_%zu", j);
    int link_y = new_row(lp, name, GLP_FX, 0, 0);
    snprintf(name, sizeof name, "utility_%zu", j);
    int util = new_row(lp, name, GLP_UP, 0, 0);
    for (size_t tt = 0; tt < TT && !rc; tt++) {
        rc = add(t, link_x, m->pm_col + (int)(j * TT + tt), 1);
        if (!rc)
            rc = add(t, link_y, m->pr_col + (int)(j * TT + tt), 1);
    }
    if (!rc)
        rc = add(t, util, m->z_col, 1);
    for (int s = 0; s <= job->s_pend && !rc; s++) {
        double u = so_ras_u_map(s, job->s_req, job->s_pend);
        rc = add(t, one_x, *x0 + s, 1);
        if (!rc)
            rc = add(t, link_x, *x0 + s, -s);
        if (!rc)
            rc = add(t, util, *x0 + s, u > SO_RAS_STARVED ? -u : -BIG_M);
    }
    for (int r = 0; r <= job->r_pend && !rc; r++) {
        rc = add(t, one_y, y0 + r, 1);
        if (!rc)
            rc = add(t, link_y, y0 + r, -r);
        if (!rc)
            rc = add(t, util, y0 + r, -so_ras_u_reduce(r, job->r_pend));
    }
    if (!rc && job->s_pend > 0) {
        snprintf(name, sizeof name, "starved_%zu", j);
        int st = new_row(lp, name, GLP_UP, 0, 1);
        rc = add(t, st, m->z_col, 1);
        if (!rc)
            rc = add(t, st, *x0, 1 - SO_RAS_STARVED);
    }
    return rc;
}

/* q[j][tt][k] and its envelope rows; adds shuffle * q to the capacity rows. */
static int add_shuffle(const so_ras *ras, glp_prob *lp, triplets *t,
                       const so_ras_model *m, size_t j, int x0)
{
    const so_ras_job *job = &ras->jobs[j];
    size_t TT = ras->TT, R = ras->R;
    int K = job->parallel_copies < job->s_pend ? job->parallel_copies
                                                : job->s_pend;
    double U = job->r_pend;
    char name[96];
    int rc = SO_OK;
    for (size_t tt = 0; tt < TT && !rc; tt++) {
        int pr = m->pr_col + (int)(j * TT + tt);
        for (int k = 1; k <= K && !rc; k++) {
            snprintf(name, sizeof name, "q_%zu_%zu_%d", j, tt, k);
            int q = new_col(lp, name, GLP_CV, 0, U);
            snprintf(name, sizeof name, "q_le_pr_%zu_%zu_%d", j, tt, k);
            int a = new_row(lp, name, GLP_UP, 0, 0);
            snprintf(name, sizeof name, "q_le_t_%zu_%zu_%d", j, tt, k);
            int b = new_row(lp, name, GLP_UP, 0, 0);
            snprintf(name, sizeof name, "q_ge_%zu_%zu_%d", j, tt, k);
            int c = new_row(lp, name, GLP_LO, -U, 0);
            rc = add(t, a, q, 1);
            if (!rc)
                rc = add(t, a, pr, -1);
            if (!rc)
                rc = add(t, b, q, 1);
            if (!rc)
                rc = add(t, c, q, 1);
            if (!rc)
                rc = add(t, c, pr, -1);
            for (int s = k; s <= job->s_pend && !rc; s++) {
                rc = add(t, b, x0 + s, -U);
                if (!rc)
                    rc = add(t, c, x0 + s, -U);
            }
            for (size_t r = 0; r < R && !rc; r++)
                rc = add(t, m->cap_row + (int)(tt * R + r), q, job->shuffle[r]);
        }
    }
    return rc;
}

int so_ras_build_model(const so_ras *ras, glp_prob *lp, so_ras_model *m)
{
    size_t TT = ras->TT, R = ras->R, J = ras->J;
    char name[96];
    triplets t = {0};
    int rc = SO_OK;
    glp_set_prob_name(lp, "ras");
    glp_set_obj_name(lp, "min_utility");
    glp_set_obj_dir(lp, GLP_MAX);
    m->cap_row = (int)glp_get_num_rows(lp) + 1;
    for (size_t tt = 0; tt < TT; tt++)
        for (size_t r = 0; r < R; r++) {
            snprintf(name, sizeof name, "cap_%zu_%s", tt, ras->resources[r]);
            new_row(lp, name, GLP_UP, 0, ras->capacity[tt * R + r]);
        }
    m->pm_col = glp_get_num_cols(lp) + 1;
    for (size_t j = 0; j < J; j++)
        for (size_t tt = 0; tt < TT; tt++) {
            snprintf(name, sizeof name, "pm_%zu_%zu", j, tt);
            new_col(lp, name, GLP_IV, 0, ras->jobs[j].s_pend);
        }
    m->pr_col = glp_get_num_cols(lp) + 1;
    for (size_t j = 0; j < J; j++)
        for (size_t tt = 0; tt < TT; tt++) {
            snprintf(name, sizeof name, "pr_%zu_%zu", j, tt);
            new_col(lp, name, GLP_IV, 0, ras->jobs[j].r_pend);
        }
    m->z_col = new_col(lp, "z", GLP_CV, SO_RAS_STARVED, 1);
    glp_set_obj_coef(lp, m->z_col, 1);
    for (size_t j = 0; j < J && !rc; j++) {
        const so_ras_job *job = &ras->jobs[j];
        for (size_t tt = 0; tt < TT && !rc; tt++)
            for (size_t r = 0; r < R && !rc; r++) {
                int row = m->cap_row + (int)(tt * R + r);
                rc = add(&t, row, m->pm_col + (int)(j * TT + tt), job->map[r]);
                if (!rc)
                    rc = add(&t, row, m->pr_col + (int)(j * TT + tt),
                             job->reduce_phase ? job->reduce[r]
                                               : job->shuffle_base[r]);
            }
        int x0 = 0;
        if (!rc)
            rc = add_levels(ras, lp, &t, m, j, &x0);
        if (!rc && has_shuffle(ras, job))
            rc = add_shuffle(ras, lp, &t, m, j, x0);
    }
    if (!rc)
        glp_load_matrix(lp, (int)t.n, t.ia, t.ja, t.ar);
    free(t.ia);
    free(t.ja);
    free(t.ar);
    return rc;
}

/* Fixes to 0 the levels no job can take once z >= z_min: map levels whose
 * utility is below z_min even with every reducer placed, and reduce levels
 * below it even with every map placed (the utility rows imply this; stated
 * as bounds, it lets presolve shrink the stage-2 model). */
static void fix_low_levels(const so_ras *ras, glp_prob *lp, double z_min)
{
    char name[64];
    glp_create_index(lp);
    for (size_t j = 0; j < ras->J; j++) {
        const so_ras_job *job = &ras->jobs[j];
        for (int s = 0; s <= job->s_pend; s++) {
            double u = so_ras_finite(so_ras_u_map(s, job->s_req, job->s_pend));
            snprintf(name, sizeof name, "x_%zu_%d", j, s);
            if (u < z_min)
                glp_set_col_bnds(lp, glp_find_col(lp, name), GLP_FX, 0, 0);
        }
        for (int r = 0; r <= job->r_pend; r++) {
            snprintf(name, sizeof name, "y_%zu_%d", j, r);
            if (1.0 + so_ras_u_reduce(r, job->r_pend) < z_min)
                glp_set_col_bnds(lp, glp_find_col(lp, name), GLP_FX, 0, 0);
        }
    }
}

int so_ras_model_stage2(const so_ras *ras, glp_prob *lp,
                        const so_ras_model *m, double z_min)
{
    size_t TT = ras->TT, R = ras->R, n = 0;
    int ncols = glp_get_num_cols(lp);
    int *ind = malloc(((size_t)ncols + 1) * sizeof *ind);
    double *val = malloc(((size_t)ncols + 1) * sizeof *val);
    double *obj = calloc((size_t)ncols + 1, sizeof *obj);
    if (!ind || !val || !obj) {
        free(ind);
        free(val);
        free(obj);
        return SO_ENOMEM;
    }
    for (size_t k = 0; k < TT * R; k++)
        n += ras->capacity[k] > 0;
    for (size_t k = 0; k < TT * R; k++) {
        if (!(ras->capacity[k] > 0))
            continue;
        int len = glp_get_mat_row(lp, m->cap_row + (int)k, ind, val);
        for (int e = 1; e <= len; e++)
            obj[ind[e]] += val[e] / (ras->capacity[k] * (double)n);
    }
    for (int c = 1; c <= ncols; c++)
        glp_set_obj_coef(lp, c, obj[c]);
    fix_low_levels(ras, lp, z_min);
    glp_set_obj_name(lp, "utilisation");
    if (z_min < 1)
        glp_set_col_bnds(lp, m->z_col, GLP_DB, z_min, 1);
    else
        glp_set_col_bnds(lp, m->z_col, GLP_FX, 1, 1);
    free(ind);
    free(val);
    free(obj);
    return SO_OK;
}
