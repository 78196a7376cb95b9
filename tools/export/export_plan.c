/* export_plan.c — a Pareto plan or a FLEX allocation as per-pool shares.
 *
 * Pareto (Zacheilas and Kalogeraki 2017, section 5: the chosen plan's slots
 * are enforced by the cluster's scheduler): a frontier point gives every
 * job its map and reduce slots; a pool per job pins them (minimum =
 * maximum), the weight is the job's slot count (so any slack is shared in
 * the plan's proportions) and the cluster is the plan's slots. The point is
 * the cheapest within the deadline unless a budget or deadline chooses
 * another (so_plan_select).
 * FLEX (Wolf et al. 2010, section 3: the first interval is what the epoch
 * scheduler enforces): solution.allocation gives each job's slots of the S
 * identical slots; FLEX allocates map and reduce slots alike, so both get
 * the same counts, pinned (minimum = maximum, 0 for a job waiting), weight 1.
 * Each pool is one job, so one MapReduce ApplicationMaster (YARN).
 * WPBS shares of a cluster workload: tools/export/export_wpbs.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/export/export_plan.h"
#include "formulations/flex.h"
#include "formulations/pareto.h"

static double num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

long so_plan_select(const json_t *points, double budget, double deadline)
{
    long best = -1;
    double best_key = INFINITY;
    for (size_t i = 0; i < json_array_size(points); i++) {
        const json_t *pt = json_array_get(points, i);
        double m = num(pt, "makespan"), b = num(pt, "budget");
        if (budget >= 0) {
            if (b <= budget * (1 + 1e-9) && m < best_key) {
                best = (long)i;
                best_key = m;
            }
        } else if (m <= deadline * (1 + 1e-9) && b < best_key) {
            best = (long)i;
            best_key = b;
        }
    }
    return best;
}

static int get_int(const json_t *o, const char *key, int64_t *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return 0;
    *out = (int64_t)json_integer_value(v);
    return 1;
}

static void pool_name(const so_problem *p, size_t j, char *name, size_t size)
{
    const so_pareto *pr = p ? so_pareto_of(p) : NULL;
    if (pr && j < pr->n_jobs && pr->jobs[j].name[0]) {
        size_t k = 0;
        for (const char *s = pr->jobs[j].name; *s && k + 1 < size; s++)
            name[k++] = (strchr("_-.", *s) || (*s >= '0' && *s <= '9') ||
                         (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')) ? *s : '_';
        name[k] = 0;
    } else {
        snprintf(name, size, "job%zu", j);
    }
}

static int pareto_shares(const json_t *sol, const so_problem *p, const so_plan_choice *c,
                         so_hc_shares *out, long *chosen, so_error *err)
{
    const json_t *points = json_object_get(sol, "points");
    const so_pareto *pr = p ? so_pareto_of(p) : NULL;
    double deadline = isfinite(c->deadline) ? c->deadline : pr ? pr->deadline : INFINITY;
    if (!json_array_size(points))
        return so_error_setf(err, NULL, 0, 0, "solution.points", "no plan: the frontier is empty");
    long k = so_plan_select(points, c->budget, deadline);
    if (k < 0)
        return c->budget >= 0
                   ? so_error_setf(err, NULL, 0, 0, "budget", "no plan costs at most $%g", c->budget)
                   : so_error_setf(err, NULL, 0, 0, "deadline", "no plan finishes within %g s",
                                   deadline);
    const json_t *jobs = json_object_get(json_array_get(points, (size_t)k), "jobs");
    size_t n = json_array_size(jobs);
    if (!n || (pr && n != pr->n_jobs))
        return so_error_setf(err, NULL, 0, 0, "solution.points.jobs",
                             "expected one entry per job of the instance");
    out->pools = calloc(n, sizeof *out->pools);
    if (!out->pools)
        return SO_ENOMEM;
    out->n = n;
    out->cluster_slots = 0;
    for (size_t j = 0; j < n; j++) {
        so_hc_pool *pl = &out->pools[j];
        int64_t ms, rs;
        if (!get_int(json_array_get(jobs, j), "map_slots", &ms) ||
            !get_int(json_array_get(jobs, j), "reduce_slots", &rs)) {
            free(out->pools);
            out->pools = NULL;
            return so_error_setf(err, NULL, 0, 0, "solution.points.jobs",
                                 "job %zu: expected map_slots and reduce_slots >= 0", j);
        }
        pool_name(p, j, pl->name, sizeof pl->name);
        pl->min_maps = pl->max_maps = ms;
        pl->min_reduces = pl->max_reduces = rs;
        pl->weight = (double)(ms + rs);
        pl->ams = 1;
        out->cluster_slots += ms + rs;
    }
    if (chosen)
        *chosen = k;
    return SO_OK;
}

static int flex_shares(const json_t *sol, const so_problem *p, so_hc_shares *out,
                       so_error *err)
{
    const json_t *alloc = json_object_get(sol, "allocation");
    size_t n = json_array_size(alloc);
    const so_flex *f = p ? so_flex_of(p) : NULL;
    if (!n || (f && n != f->n))
        return so_error_setf(err, NULL, 0, 0, "solution.allocation",
                             "expected one slot count per job");
    out->pools = calloc(n, sizeof *out->pools);
    if (!out->pools)
        return SO_ENOMEM;
    out->n = n;
    int64_t sum = 0;
    for (size_t j = 0; j < n; j++) {
        const json_t *v = json_array_get(alloc, j);
        if (!json_is_integer(v) || json_integer_value(v) < 0) {
            free(out->pools);
            out->pools = NULL;
            return so_error_setf(err, NULL, 0, 0, "solution.allocation",
                                 "job %zu: expected a slot count >= 0", j);
        }
        so_hc_pool *pl = &out->pools[j];
        snprintf(pl->name, sizeof pl->name, "job%zu", j);
        int64_t s = (int64_t)json_integer_value(v);
        pl->min_maps = pl->max_maps = pl->min_reduces = pl->max_reduces = s;
        pl->weight = 1;
        pl->ams = 1;
        sum += s;
    }
    out->cluster_slots = 2 * (f ? f->slots : sum > 0 ? sum : 1);
    return SO_OK;
}

int so_export_shares(const json_t *result, const so_problem *p,
                     const so_plan_choice *c, so_hc_shares *out, long *chosen,
                     so_error *err)
{
    memset(out, 0, sizeof *out);
    out->container_mb = c->container_mb;
    out->am_mb = c->am_mb;
    out->alloc_mb = c->alloc_mb;
    if (chosen)
        *chosen = -1;
    const char *kind = json_string_value(json_object_get(result, "problem"));
    const json_t *sol = json_object_get(result, "solution");
    if (!kind || !json_is_object(sol))
        return so_error_setf(err, NULL, 0, 0, "solution",
                             "expected a result of slotopt solve with a solution");
    if (!strcmp(kind, "pareto"))
        return pareto_shares(sol, p, c, out, chosen, err);
    if (!strcmp(kind, "flex"))
        return flex_shares(sol, p, out, err);
    return so_error_setf(err, NULL, 0, 0, "problem",
                         "expected a pareto or flex result, found '%s'", kind);
}
