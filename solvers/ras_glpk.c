/* ras_glpk.c — the exact RAS placement by GLPK (the MILP of
 * formulations/ras_model.c; Polo et al., Middleware 2011, eqs. 4-6),
 * lexicographic: stage 1 maximises the minimum utility z; stage 2 fixes
 * z >= z* - 1e-7 and maximises the utilisation. The time limit is one
 * deadline for the whole solve: building the model, every tightening
 * round of stage 1, then stage 2, each GLPK call getting what is left. The reported bound is stage 1's bound on
 * the minimum utility; the status is optimal only when both stages are.
 * GLPK's feasibility tolerance can accept a placement that overshoots a
 * capacity of eq. 6 (three maps of 33.3334 on 100). Stage 1 is then solved
 * again with each overshot capacity row lowered by the overshoot (mirrored
 * below the capacity: a load exactly at the capacity overshoots the new
 * bound by no more than GLPK just accepted; a row overshot again is lowered
 * by twice as much), at most TIGHTEN_ROUNDS times; a placement that still
 * overshoots is repaired by removing, one at a time, the task on an
 * overloaded TaskTracker whose removal leaves the best (minimum utility,
 * utilisation). Either way the result is only feasible, not proven optimal,
 * and the bound stays the first stage-1 solve's (of the untightened
 * model, so a valid bound). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/ras.h"
#include "solvers/common/deadline.h"
#include "solvers/glpk_milp.h"

/* Rounds the incumbent of lp into pm, pr. */
static void read_placement(const so_ras *ras, glp_prob *lp,
                           const so_ras_model *m, int *pm, int *pr)
{
    size_t n = ras->J * ras->TT;
    for (size_t k = 0; k < n; k++) {
        pm[k] = (int)lround(glp_mip_col_val(lp, m->pm_col + (int)k));
        pr[k] = (int)lround(glp_mip_col_val(lp, m->pr_col + (int)k));
    }
}

/* GLPK's cuts and pseudocost branching: on small gap-table instances they
 * cut stage 2 from tens of seconds to about one (docs/ras.md). */
static const so_milp_options tuning = {
    SO_CUTS_GOMORY | SO_CUTS_MIR | SO_CUTS_CLIQUE, 1, 0};

/* Removes tasks from overloaded TaskTrackers (see above) until pm, pr fit
 * every capacity; *repaired is set when a task was removed. */
static int repair(const so_ras *ras, int *pm, int *pr, int *repaired)
{
    size_t TT = ras->TT, R = ras->R;
    double *load = malloc((TT * R + 1) * sizeof *load);
    int rc = load ? SO_OK : SO_ENOMEM;
    while (!rc && !(rc = so_ras_loads(ras, pm, pr, load))) {
        size_t k = 0;
        while (k < TT * R && so_ras_fits(load[k], ras->capacity[k]))
            k++;
        if (k == TT * R)
            break;
        size_t tt = k / R;
        int *best = NULL;
        so_ras_eval best_ev = {0}, ev;
        for (size_t j = 0; j < ras->J && !rc; j++)
            for (int kind = 0; kind < 2 && !rc; kind++) {
                int *cell = (kind ? pr : pm) + j * TT + tt;
                if (*cell <= 0)
                    continue;
                (*cell)--;
                rc = so_ras_evaluate(ras, pm, pr, &ev);
                (*cell)++;
                if (!best || so_ras_better(&ev, &best_ev)) {
                    best = cell;
                    best_ev = ev;
                }
            }
        if (!best) /* an empty TaskTracker always fits */
            break;
        (*best)--;
        *repaired = 1;
    }
    free(load);
    return rc;
}

#define TIGHTEN_ROUNDS 20

/* Lowers the capacity rows that pm, pr overshoot (see above); *any is set
 * when one was. */
static int tighten(const so_ras *ras, glp_prob *lp, const so_ras_model *m,
                   const int *pm, const int *pr, int *any)
{
    size_t K = ras->TT * ras->R;
    double *load = malloc((K + 1) * sizeof *load);
    if (!load || so_ras_loads(ras, pm, pr, load)) {
        free(load);
        return SO_ENOMEM;
    }
    *any = 0;
    for (size_t k = 0; k < K; k++) {
        double cap = ras->capacity[k];
        if (so_ras_fits(load[k], cap))
            continue;
        int row = m->cap_row + (int)k;
        double ub = glp_get_row_ub(lp, row);
        double next = cap - (load[k] - cap);
        if (!(next < ub))
            next = ub - (load[k] - ub);
        glp_set_row_bnds(lp, row, GLP_UP, 0, next);
        *any = 1;
    }
    free(load);
    return SO_OK;
}

static int worse_status(int a, int b)
{
    return a == SO_OPTIMAL ? b : a;
}

/* Solves lp (until the deadline) into pm (PM then PR): while GLPK's placement overshoots a capacity, tightens and solves
 * again (at most TIGHTEN_ROUNDS times), then repairs what still overshoots.
 * *out is the first solve's outcome; *status gets the worst status, made
 * SO_FEASIBLE by any tightening or repair. SO_EBACKEND when GLPK failed
 * (*lp_lost: GLPK freed lp with its environment). */
static int solve_within(const so_ras *ras, glp_prob *lp, const so_ras_model *m,
                        double deadline, int *pm, so_milp_outcome *out,
                        int *status, int *lp_lost)
{
    size_t n = ras->J * ras->TT;
    int rc = SO_OK;
    for (int round = 0; round <= TIGHTEN_ROUNDS; round++) {
        so_milp_outcome o;
        so_milp_solve_until(lp, deadline, &tuning, &o);
        if (round == 0)
            *out = o;
        *lp_lost = o.lp_lost;
        if (o.status < 0)
            return SO_EBACKEND;
        *status = worse_status(*status, o.has_solution ? o.status : SO_TIMELIMIT);
        if (!o.has_solution)
            break; /* keep the previous round's placement, if any */
        read_placement(ras, lp, m, pm, pm + n);
        int any = 0;
        if (round < TIGHTEN_ROUNDS)
            rc = tighten(ras, lp, m, pm, pm + n, &any);
        if (rc || !any)
            break;
        *status = worse_status(*status, SO_FEASIBLE);
    }
    int repaired = 0;
    if (!rc && out->has_solution)
        rc = repair(ras, pm, pm + n, &repaired);
    if (repaired)
        *status = worse_status(*status, SO_FEASIBLE);
    return rc;
}

/* Stage 2 from the stage-1 placement pm (2n ints, PM then PR): keeps pm
 * unless GLPK finds a placement at least as good lexicographically.
 * Returns SO_OK or SO_EBACKEND (*lp_lost: GLPK freed its environment and
 * lp with it); *status is worsened when stage 2 is not proven. */
static int stage2(const so_ras *ras, glp_prob *lp, const so_ras_model *m,
                  double deadline, int *pm, int *pm2, int *status,
                  int *lp_lost)
{
    size_t n = ras->J * ras->TT;
    so_ras_eval first, second;
    int rc = so_ras_evaluate(ras, pm, pm + n, &first);
    if (!rc)
        rc = so_ras_model_stage2(ras, lp, m, first.min_utility - 1e-7);
    if (rc)
        return rc;
    so_milp_outcome out;
    rc = solve_within(ras, lp, m, deadline, pm2, &out, status, lp_lost);
    if (rc || !out.has_solution)
        return rc;
    rc = so_ras_evaluate(ras, pm2, pm2 + n, &second);
    if (!rc && second.feasible && !so_ras_better(&first, &second))
        memcpy(pm, pm2, 2 * n * sizeof *pm);
    return rc;
}

int so_ras_glpk_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    double deadline = so_deadline_of(prm);
    const so_ras *ras = so_ras_of(p);
    size_t n = ras->J * ras->TT;
    int *pm = calloc(2 * n, sizeof *pm), *pm2 = calloc(2 * n, sizeof *pm2);
    glp_prob *lp = glp_create_prob();
    so_ras_model m;
    so_milp_outcome out = {0};
    int lp_lost = 0, status = SO_OPTIMAL;
    int rc = pm && pm2 ? so_ras_build_model(ras, lp, &m) : SO_ENOMEM;
    if (!rc && (rc = solve_within(ras, lp, &m, deadline, pm, &out, &status,
                                  &lp_lost)) == SO_EBACKEND)
        so_result_set_message(r, "GLPK failed (stage 1: max-min utility)");
    if (!rc && out.has_solution) {
        rc = stage2(ras, lp, &m, deadline, pm, pm2, &status, &lp_lost);
        if (rc == SO_EBACKEND)
            so_result_set_message(r, "GLPK failed (stage 2: utilisation)");
    }
    /* without an incumbent (time limit) the result has no placement: eq. 6
     * always admits the empty one, so GLPK cannot prove infeasibility */
    if (!rc)
        rc = so_ras_report(ras, r, status, out.has_solution ? pm : NULL,
                           pm + n, out.has_bound, out.bound);
    if (!lp_lost) /* else GLPK freed it with its environment */
        glp_delete_prob(lp);
    free(pm);
    free(pm2);
    return rc;
}
