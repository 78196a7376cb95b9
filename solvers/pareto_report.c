/* pareto_report.c — how a frontier becomes a result (docs/pareto.md):
 * objective = hypervolume w.r.t. the instance's reference point, solution =
 * the points with their plans, extras = frontier size, the mean I/O cost of its plans and, against a
 * reference exact backend, the hypervolume ratio, the additive epsilon
 * indicator and the makespan gap at each budget (solvers/frontier_quality.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "solvers/pareto_frontier.h"

static json_t *buffer_json(const so_pt_buffer *b)
{
    return json_pack("{sfsfsf}", "size_mb", b->size_mb, "meta_percent",
                     b->meta_percent, "threshold", b->threshold);
}

/* Eq. 5-6 per phase and their mean (the phase's share of Eq. 9). */
static json_t *phases_json(const so_pt_eval *e)
{
    static const char *const names[SO_PT_PHASES] = {"map", "shuffle", "reduce"};
    json_t *o = json_object();
    for (int ph = 0; ph < SO_PT_PHASES; ph++)
        json_object_set_new(o, names[ph],
                            json_pack("{sfsfsf}", "low", e->low[ph], "up", e->up[ph],
                                      "average", (e->low[ph] + e->up[ph]) / 2));
    return o;
}

/* A frontier point as JSON; *io gets its plan's I/O cost ($). */
static json_t *point_json(const so_pareto *pr, const so_pt_point *pt, double *io)
{
    *io = 0;
    json_t *jobs = json_array();
    int64_t vms = 0;
    for (size_t j = 0; j < pr->n_jobs; j++) {
        const so_pt_alloc *a = &pt->plan[j];
        so_pt_eval e;
        so_pt_job_eval(pr, &pr->jobs[j], a, &e);
        vms += e.vms;
        *io += e.io_cost;
        json_array_append_new(
            jobs, json_pack("{sIsIsIsIsIsfsfsfsoso}", "map_slots", (json_int_t)a->ms,
                            "reduce_slots", (json_int_t)a->rs, "map_tasks",
                            (json_int_t)a->mt, "reduce_tasks", (json_int_t)a->rt,
                            "vms", (json_int_t)e.vms, "jtime", e.jtime, "budget",
                            e.budget, "io_cost", e.io_cost, "phases", phases_json(&e),
                            "buffer", buffer_json(&a->buffer)));
    }
    return json_pack("{sfsfsIso}", "makespan", pt->makespan, "budget", pt->budget,
                     "vms", (json_int_t)vms, "jobs", jobs);
}

static so_front_point *plain_points(const so_pt_frontier *f)
{
    so_front_point *p = malloc((f->n ? f->n : 1) * sizeof *p);
    for (size_t i = 0; p && i < f->n; i++)
        p[i] = (so_front_point){f->pts[i].makespan, f->pts[i].budget};
    return p;
}

int so_pt_result_points(const so_result *r, so_front_point **pts, size_t *n)
{
    json_t *points = json_object_get(so_result_solution(r), "points");
    size_t count = json_array_size(points);
    so_front_point *p = malloc((count ? count : 1) * sizeof *p);
    if (!p)
        return SO_ENOMEM;
    for (size_t i = 0; i < count; i++) {
        json_t *o = json_array_get(points, i);
        p[i].makespan = json_number_value(json_object_get(o, "makespan"));
        p[i].budget = json_number_value(json_object_get(o, "budget"));
    }
    *pts = p;
    *n = count;
    return SO_OK;
}

int so_pt_reference_frontier(const so_problem *p, const char *name,
                             const so_params *prm, so_front_point **pts,
                             size_t *n, so_error *err)
{
    const so_backend *b = so_backend_find(name);
    const so_pareto *pr = so_pareto_of(p);
    if (!b || !b->exact || !pr || strcmp(b->problem, "pareto"))
        return so_error_setf(err, NULL, 0, 0, "reference",
                             "expected an exact pareto backend (pareto-sweep,"
                             " pareto-enum, pareto-glpk), found '%s'", name);
    so_pareto *lifted = so_pareto_copy(pr);
    so_problem *q = NULL;
    if (!lifted)
        return SO_ENOMEM;
    lifted->budget_min = 0;
    int rc = so_pareto_problem(lifted, so_problem_name(p), &q);
    if (rc)
        return rc;
    so_params sub;
    so_params_init(&sub);
    if (prm) { /* the same buffer tuning as the compared run */
        sub.time_limit = prm->time_limit;
        sub.seed = prm->seed;
        static const char *const keys[] = {"buffer", "samples"};
        for (int k = 0; k < 2; k++)
            if (so_params_get(prm, keys[k]))
                so_params_set(&sub, keys[k], so_params_get(prm, keys[k]));
    }
    so_result *r = NULL;
    rc = so_solve(b, q, &sub, &r, err);
    so_problem_free(q);
    if (rc < 0)
        return rc;
    if (rc != SO_OPTIMAL && rc != SO_INFEASIBLE) { /* e.g. stopped at the limit */
        so_result_free(r);
        return so_error_setf(err, NULL, 0, 0, "reference",
                             "%s ended with status '%s': no quality figures"
                             " against a frontier it did not prove", name,
                             so_status_str(rc));
    }
    rc = so_pt_result_points(r, pts, n);
    so_result_free(r);
    if (rc)
        return rc;
    /* clip to the window: budgets below budget_min rise to it, and only the
     * fastest of the raised points stays non-dominated */
    size_t k = 0;
    for (size_t i = 0; i < *n; i++) {
        so_front_point q2 = (*pts)[i];
        int raised = q2.budget < pr->budget_min;
        q2.budget = fmax(q2.budget, pr->budget_min);
        if (raised && k > 0 && (*pts)[k - 1].budget == pr->budget_min)
            continue; /* points come by ascending makespan */
        (*pts)[k++] = q2;
    }
    *n = k;
    return SO_OK;
}

static json_t *finite_or_null(double x) { return isfinite(x) ? json_real(x) : json_null(); }

so_front_point so_pt_epsilon_scale(const so_pareto *pr, const so_front_point *exact,
                                   size_t ne)
{
    so_front_point ref = so_pt_reference_point(pr), ideal = ref;
    for (size_t i = 0; i < ne; i++) {
        ideal.makespan = fmin(ideal.makespan, exact[i].makespan);
        ideal.budget = fmin(ideal.budget, exact[i].budget);
    }
    so_front_point scale = {ref.makespan - ideal.makespan, ref.budget - ideal.budget};
    if (!(scale.makespan > 0))
        scale.makespan = fmax(fabs(ref.makespan), 1e-12);
    if (!(scale.budget > 0))
        scale.budget = fmax(fabs(ref.budget), 1e-12);
    return scale;
}

void so_pt_quality_extras(const so_pareto *pr, const so_front_point *approx,
                          size_t na, const so_front_point *exact, size_t ne,
                          so_result *r)
{
    so_front_point ref = so_pt_reference_point(pr);
    so_front_point scale = so_pt_epsilon_scale(pr, exact, ne);
    double *gaps = malloc((ne ? ne : 1) * sizeof *gaps);
    if (!gaps)
        return;
    so_frontier_makespan_gaps(approx, na, exact, ne, gaps);
    double sum = 0, worst = 0;
    size_t finite = 0;
    json_t *arr = json_array();
    for (size_t i = 0; i < ne; i++) {
        json_array_append_new(arr, json_pack("{sfsfso}", "budget", exact[i].budget,
                                             "exact_makespan", exact[i].makespan,
                                             "gap", finite_or_null(gaps[i])));
        if (isfinite(gaps[i])) {
            sum += gaps[i];
            worst = fmax(worst, gaps[i]);
            finite++;
        }
    }
    free(gaps);
    so_result_set_extra(r, "reference_size", json_integer((json_int_t)ne));
    so_result_set_extra(r, "hypervolume_ratio",
                        finite_or_null(so_frontier_hypervolume_ratio(approx, na, exact,
                                                                     ne, ref)));
    so_result_set_extra(r, "epsilon",
                        finite_or_null(so_frontier_epsilon(approx, na, exact, ne, scale)));
    so_result_set_extra(r, "makespan_gap_mean",
                        finite ? json_real(sum / (double)finite) : json_null());
    so_result_set_extra(r, "makespan_gap_max", finite ? json_real(worst) : json_null());
    so_result_set_extra(r, "budgets_uncovered", json_integer((json_int_t)(ne - finite)));
    so_result_set_extra(r, "makespan_gaps", arr);
}

int so_pt_report(const so_problem *p, const so_params *prm, so_result *r,
                 so_pt_frontier *f, int exact)
{
    const so_pareto *pr = so_pareto_of(p);
    so_pt_frontier_window(f, pr);
    so_front_point ref = so_pt_reference_point(pr);
    so_front_point *pts = plain_points(f);
    if (!pts)
        return SO_ENOMEM;
    json_t *points = json_array();
    double io_sum = 0;
    for (size_t i = 0; i < f->n; i++) {
        double io;
        json_array_append_new(points, point_json(pr, &f->pts[i], &io));
        io_sum += io;
    }
    so_result_set_solution(
        r, json_pack("{s{sfsf}so}", "reference_point", "makespan", ref.makespan,
                     "budget", ref.budget, "points", points));
    so_result_set_objective(r, so_frontier_hypervolume(pts, f->n, ref));
    so_result_set_status(r, f->n == 0 ? SO_INFEASIBLE : exact ? SO_OPTIMAL : SO_FEASIBLE);
    so_result_set_extra(r, "frontier_size", json_integer((json_int_t)f->n));
    /* the mean I/O cost of the frontier's plans (buffer tuning, Figs. 18-19) */
    if (f->n)
        so_result_set_extra(r, "io_cost_mean", json_real(io_sum / (double)f->n));
    /* the harness's frontier convention (docs/harness.md): [makespan, budget] */
    json_t *front = json_array();
    for (size_t i = 0; i < f->n; i++)
        json_array_append_new(front, json_pack("[ff]", pts[i].makespan, pts[i].budget));
    so_result_set_extra(r, "frontier", front);
    const char *refname = so_params_get(prm, "reference");
    int rc = SO_OK;
    if (refname && strcmp(refname, "none")) {
        so_front_point *ex = NULL;
        size_t ne = 0;
        so_error err;
        so_error_clear(&err);
        rc = so_pt_reference_frontier(p, refname, prm, &ex, &ne, &err);
        if (rc == SO_OK) {
            so_result_set_extra(r, "reference_backend", json_string(refname));
            so_pt_quality_extras(pr, pts, f->n, ex, ne, r);
        } else {
            so_result_set_message(r, "reference %s: %s", refname, err.message);
        }
        free(ex);
    }
    free(pts);
    return rc;
}
