/* ras_enum.c — brute force for tiny RAS placements, the cross-check of
 * ras-glpk (Polo et al., Middleware 2011, eqs. 1-6; the utility limits of
 * formulations/ras_utility.c).
 *
 * Depth-first over every integer placement, job by job: first the job's
 * maps on each TaskTracker (maps left down to 0), then its reducers (the job's
 * map total is then known, so a shuffle-phase reducer's demand is exact).
 * Loads only grow, so a branch is cut as soon as a load exceeds a capacity;
 * and once a job is complete its utility is final, so a branch whose
 * minimum utility is already below the best one found is cut. Leaves are
 * compared lexicographically (minimum utility, then utilisation). Refuses
 * instances with more than 1e8 placements before cutting. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/ras.h"

#define MAX_PLACEMENTS 1e8

typedef struct {
    const so_ras *ras;
    int *pm, *pr, *best_pm, *best_pr;
    int *s_alloc;
    double *load;
    so_ras_eval best;
    double deadline; /* so_now() value, 0 = none */
    long nodes;
    int timed_out;
} search;

static double binomial(double n, double k)
{
    double c = 1;
    for (double i = 1; i <= k; i++)
        c = c * (n - k + i) / i;
    return c;
}

static int place(search *s, size_t j, size_t tt, int maps, int reduces,
                 int sign)
{
    const so_ras *ras = s->ras;
    const so_ras_job *job = &ras->jobs[j];
    int fits = 1;
    for (size_t r = 0; r < ras->R; r++) {
        double d = maps * job->map[r] +
                   reduces * so_ras_reducer_demand(job, s->s_alloc[j], r);
        s->load[tt * ras->R + r] += sign * d;
        fits &= so_ras_fits(s->load[tt * ras->R + r],
                            ras->capacity[tt * ras->R + r]);
    }
    return fits;
}

static void leaf(search *s, double min_u)
{
    const so_ras *ras = s->ras;
    double sum = 0;
    size_t n = 0;
    for (size_t k = 0; k < ras->TT * ras->R; k++)
        if (ras->capacity[k] > 0) {
            sum += s->load[k] / ras->capacity[k];
            n++;
        }
    so_ras_eval ev = {1, min_u, n ? sum / (double)n : 0, 0};
    if (so_ras_better(&ev, &s->best)) {
        s->best = ev;
        size_t cells = ras->J * ras->TT;
        memcpy(s->best_pm, s->pm, cells * sizeof *s->pm);
        memcpy(s->best_pr, s->pr, cells * sizeof *s->pr);
    }
}

/* Assigns cell tt of job j; reducers = 0 while placing maps, 1 after. */
static void dfs(search *s, size_t j, size_t tt, int reducers, int left,
                double min_u)
{
    const so_ras *ras = s->ras;
    if (s->timed_out)
        return;
    if (s->deadline > 0 && (++s->nodes & 4095) == 0 && so_now() > s->deadline) {
        s->timed_out = 1;
        return;
    }
    if (j == ras->J) {
        leaf(s, min_u);
        return;
    }
    const so_ras_job *job = &ras->jobs[j];
    if (tt == ras->TT) {
        if (!reducers) {
            dfs(s, j, 0, 1, job->r_pend, min_u);
            return;
        }
        int r_alloc = job->r_pend - left;
        double u = so_ras_finite(so_ras_utility(job, s->s_alloc[j], r_alloc));
        double next = u < min_u ? u : min_u;
        if (next < s->best.min_utility - 1e-9)
            return;
        dfs(s, j + 1, 0, 0, j + 1 < ras->J ? ras->jobs[j + 1].s_pend : 0, next);
        return;
    }
    int *cell = (reducers ? s->pr : s->pm) + j * ras->TT + tt;
    /* most tasks first: good placements early make the utility cut bite */
    for (int v = left; v >= 0; v--) {
        *cell = v;
        if (!reducers)
            s->s_alloc[j] += v;
        if (place(s, j, tt, reducers ? 0 : v, reducers ? v : 0, 1))
            dfs(s, j, tt + 1, reducers, left - v, min_u);
        place(s, j, tt, reducers ? 0 : v, reducers ? v : 0, -1);
        if (!reducers)
            s->s_alloc[j] -= v;
        *cell = 0;
    }
}

int so_ras_enum_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    const so_ras *ras = so_ras_of(p);
    double count = 1;
    for (size_t j = 0; j < ras->J && count <= MAX_PLACEMENTS; j++)
        count *= binomial(ras->jobs[j].s_pend + (double)ras->TT, (double)ras->TT) *
                 binomial(ras->jobs[j].r_pend + (double)ras->TT, (double)ras->TT);
    if (count > MAX_PLACEMENTS) {
        so_result_set_message(r, "ras-enum: more than %.0e placements to"
                                 " enumerate (use ras-glpk)", MAX_PLACEMENTS);
        return SO_EUNSUPPORTED;
    }
    size_t cells = ras->J * ras->TT;
    search s = {0};
    s.ras = ras;
    s.pm = calloc(cells, sizeof *s.pm);
    s.pr = calloc(cells, sizeof *s.pr);
    s.best_pm = calloc(cells, sizeof *s.best_pm);
    s.best_pr = calloc(cells, sizeof *s.best_pr);
    s.s_alloc = calloc(ras->J, sizeof *s.s_alloc);
    s.load = calloc(ras->TT * ras->R + 1, sizeof *s.load);
    int rc = SO_OK;
    if (!s.pm || !s.pr || !s.best_pm || !s.best_pr || !s.s_alloc || !s.load) {
        rc = SO_ENOMEM;
    } else {
        s.best.min_utility = -INFINITY;
        s.best.utilisation = -1;
        s.deadline = prm->time_limit > 0 ? so_now() + prm->time_limit : 0;
        dfs(&s, 0, 0, 0, ras->jobs[0].s_pend, 1.0);
        int status = s.timed_out ? SO_TIMELIMIT : SO_OPTIMAL;
        rc = so_ras_report(ras, r, status, s.best_pm, s.best_pr,
                           !s.timed_out, s.best.min_utility);
    }
    free(s.pm);
    free(s.pr);
    free(s.best_pm);
    free(s.best_pr);
    free(s.s_alloc);
    free(s.load);
    return rc;
}
