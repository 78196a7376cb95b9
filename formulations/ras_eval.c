/* ras_eval.c — loads, feasibility (eq. 6), the lexicographic objective
 * (eqs. 4-5) and the report of a RAS placement.
 *
 * Utilisation (eq. 5 asks to minimise the capacity left over; resources
 * have different units, so each is normalised by its capacity):
 *   utilisation = mean over (tt, r) with Omega[tt][r] > 0 of load / Omega.
 * A reducer in shuffle phase demands shuffle_base + shuffle * m_j with
 * m_j = min(s_alloc_j, parallel_copies_j) (SPEC section 3; the paper's
 * Table 2 note: "consumed I/O per map placed, upper bound set by
 * parallelCopies"). */
#include <math.h>
#include <stdlib.h>
#include "formulations/ras.h"

double so_ras_reducer_demand(const so_ras_job *job, int s_alloc, size_t r)
{
    if (job->reduce_phase)
        return job->reduce[r];
    int m = s_alloc < job->parallel_copies ? s_alloc : job->parallel_copies;
    return job->shuffle_base[r] + job->shuffle[r] * (double)m;
}

int so_ras_fits(double load, double capacity)
{
    return load <= capacity + 1e-9 * (1.0 + fabs(capacity));
}

/* Maps placed per job. */
static void map_totals(const so_ras *ras, const int *pm, int *s_alloc)
{
    for (size_t j = 0; j < ras->J; j++) {
        s_alloc[j] = 0;
        for (size_t tt = 0; tt < ras->TT; tt++)
            s_alloc[j] += pm[j * ras->TT + tt];
    }
}

static void loads_with(const so_ras *ras, const int *pm, const int *pr,
                       const int *s_alloc, double *load)
{
    size_t R = ras->R, TT = ras->TT;
    for (size_t k = 0; k < TT * R; k++)
        load[k] = 0;
    for (size_t j = 0; j < ras->J; j++) {
        const so_ras_job *job = &ras->jobs[j];
        for (size_t tt = 0; tt < TT; tt++) {
            int a = pm[j * TT + tt], b = pr[j * TT + tt];
            if (!a && !b)
                continue;
            for (size_t r = 0; r < R; r++)
                load[tt * R + r] += a * job->map[r] +
                    b * so_ras_reducer_demand(job, s_alloc[j], r);
        }
    }
}

int so_ras_loads(const so_ras *ras, const int *pm, const int *pr,
                 double *load)
{
    int *s_alloc = calloc(ras->J + 1, sizeof *s_alloc);
    if (!s_alloc)
        return SO_ENOMEM;
    map_totals(ras, pm, s_alloc);
    loads_with(ras, pm, pr, s_alloc, load);
    free(s_alloc);
    return SO_OK;
}

int so_ras_evaluate(const so_ras *ras, const int *pm, const int *pr,
                    so_ras_eval *ev)
{
    size_t R = ras->R, TT = ras->TT, J = ras->J;
    int *s_alloc = calloc(J + 1, sizeof *s_alloc);
    double *load = malloc((TT * R + 1) * sizeof *load);
    if (!s_alloc || !load) {
        free(s_alloc);
        free(load);
        return SO_ENOMEM;
    }
    map_totals(ras, pm, s_alloc);
    loads_with(ras, pm, pr, s_alloc, load);
    ev->feasible = 1;
    ev->min_utility = 1.0;
    ev->worst_job = J;
    for (size_t j = 0; j < J; j++) {
        const so_ras_job *job = &ras->jobs[j];
        int r_alloc = 0;
        for (size_t tt = 0; tt < TT; tt++) {
            r_alloc += pr[j * TT + tt];
            if (pm[j * TT + tt] < 0 || pr[j * TT + tt] < 0)
                ev->feasible = 0;
        }
        if (s_alloc[j] > job->s_pend || r_alloc > job->r_pend)
            ev->feasible = 0;
        double u = so_ras_finite(so_ras_utility(job, s_alloc[j], r_alloc));
        if (ev->worst_job == J || u < ev->min_utility) {
            ev->min_utility = u;
            ev->worst_job = j;
        }
    }
    double sum = 0;
    size_t n = 0;
    for (size_t k = 0; k < TT * R; k++) {
        if (!so_ras_fits(load[k], ras->capacity[k]))
            ev->feasible = 0;
        if (ras->capacity[k] > 0) {
            sum += load[k] / ras->capacity[k];
            n++;
        }
    }
    ev->utilisation = n ? sum / (double)n : 0.0;
    free(s_alloc);
    free(load);
    return SO_OK;
}

int so_ras_better(const so_ras_eval *a, const so_ras_eval *b)
{
    if (a->min_utility > b->min_utility + 1e-9)
        return 1;
    if (a->min_utility < b->min_utility - 1e-9)
        return 0;
    return a->utilisation > b->utilisation + 1e-9;
}

static json_t *utility_json(double u)
{
    return isfinite(u) ? json_real(u) : json_null();
}

int so_ras_report(const so_ras *ras, so_result *r, int status,
                  const int *pm, const int *pr, int has_bound, double bound)
{
    so_result_set_status(r, status);
    if (has_bound)
        so_result_set_bound(r, bound);
    if (!pm)
        return SO_OK;
    so_ras_eval ev;
    int rc = so_ras_evaluate(ras, pm, pr, &ev);
    if (rc)
        return rc;
    if (!ev.feasible) {
        so_result_set_message(r, "internal error: the placement breaks a"
                                 " capacity or pending-task limit");
        return SO_EBACKEND;
    }
    size_t TT = ras->TT;
    json_t *jobs = json_array(), *cells = json_array();
    for (size_t j = 0; j < ras->J; j++) {
        int s = 0, q = 0;
        for (size_t tt = 0; tt < TT; tt++) {
            int a = pm[j * TT + tt], b = pr[j * TT + tt];
            s += a;
            q += b;
            if (!a && !b)
                continue;
            json_t *c = json_object();
            json_object_set_new(c, "job", json_integer((json_int_t)j));
            json_object_set_new(c, "tt", json_integer((json_int_t)tt));
            json_object_set_new(c, "maps", json_integer(a));
            json_object_set_new(c, "reduces", json_integer(b));
            json_array_append_new(cells, c);
        }
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(ras->jobs[j].name));
        json_object_set_new(o, "maps", json_integer(s));
        json_object_set_new(o, "reduces", json_integer(q));
        json_object_set_new(o, "utility",
                            utility_json(so_ras_utility(&ras->jobs[j], s, q)));
        json_array_append_new(jobs, o);
    }
    json_t *sol = json_object();
    json_object_set_new(sol, "jobs", jobs);
    json_object_set_new(sol, "placement", cells);
    so_result_set_solution(r, sol);
    so_result_set_objective(r, ev.min_utility);
    so_result_set_extra(r, "min_utility", json_real(ev.min_utility));
    so_result_set_extra(r, "utilisation", json_real(ev.utilisation));
    return SO_OK;
}
