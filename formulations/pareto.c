/* pareto.c — the Pareto makespan/budget problem: native JSON in and out.
 *
 * Zacheilas and Kalogeraki 2017, section 3 (the model's parameters) and
 * section 4.2.1 (profiles from history). Format (docs/pareto.md):
 *   {"problem": "pareto", "version": 1,
 *    "cluster": {"map_slots_per_vm", "reduce_slots_per_vm",
 *                "vm_cost_per_hour", "io_cost_per_request",
 *                "io_request_bytes", "max_vms", "billing_seconds"},
 *    "workload": {"budget_min", "budget_max", "deadline"},
 *    "jobs": [{"name", "map_tasks", "reduce_tasks", "map", "shuffle",
 *              "reduce", "map_output", "buffer"}]}
 * A phase profile is {"avg": [a, b], "max": [a, b]} (t(n) = a + b/n) or
 * {"samples": [[n, avg, max], ...]} fitted by least squares
 * (solvers/lsq_fit.c). Profiles must give times >= 0 and max >= avg for
 * every task count in [1, the job's count]; as t(n) is monotone in n,
 * checking both ends suffices. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/pareto.h"
#include "solvers/lsq_fit.h"

#define MAX_TASKS 10000000
#define MAX_SAMPLES 100000

void so_pareto_free(so_pareto *pr)
{
    if (!pr)
        return;
    free(pr->jobs);
    free(pr);
}

static void free_data(void *d) { so_pareto_free(d); }

const so_pareto *so_pareto_of(const so_problem *p)
{
    return so_problem_data(p, &so_pareto_formulation);
}

int so_pareto_problem(so_pareto *pr, const char *name, so_problem **out)
{
    return so_problem_wrap(&so_pareto_formulation, pr, name, out);
}

so_pareto *so_pareto_copy(const so_pareto *pr)
{
    so_pareto *c = malloc(sizeof *c);
    so_pt_job *jobs = malloc((pr->n_jobs ? pr->n_jobs : 1) * sizeof *jobs);
    if (!c || !jobs) {
        free(c);
        free(jobs);
        return NULL;
    }
    *c = *pr;
    memcpy(jobs, pr->jobs, pr->n_jobs * sizeof *jobs);
    c->jobs = jobs;
    return c;
}

/* ---- reading ------------------------------------------------------------- */

static int read_pair(so_jin *in, json_t *obj, const char *path, const char *key,
                     so_pt_curve *c)
{
    char p[256];
    json_t *arr = NULL;
    so_jin_path(p, sizeof p, path, key);
    int rc = so_jin_array(in, obj, path, key, SO_REQUIRED, 2, &arr);
    if (!rc && json_array_size(arr) != 2)
        rc = so_jin_fail(in, p, 0, "expected [a, b] (t(n) = a + b/n), found"
                                   " %zu numbers", json_array_size(arr));
    if (!rc)
        rc = so_jin_num_at(in, arr, p, 0, -1e12, 1e12, &c->a);
    if (!rc)
        rc = so_jin_num_at(in, arr, p, 1, -1e15, 1e15, &c->b);
    return rc;
}

static int fit_samples(so_jin *in, json_t *samples, const char *path,
                       so_pt_profile *pf)
{
    size_t n = json_array_size(samples);
    if (n > MAX_SAMPLES)
        return so_jin_fail(in, path, 0, "expected at most %d samples, found %zu",
                           MAX_SAMPLES, n);
    double *v = malloc(3 * (n ? n : 1) * sizeof *v);
    if (!v)
        return SO_ENOMEM;
    int rc = SO_OK;
    for (size_t i = 0; i < n && !rc; i++) {
        char p[256];
        so_jin_index(p, sizeof p, path, i);
        json_t *s = json_array_get(samples, i);
        if (!json_is_array(s) || json_array_size(s) != 3) {
            rc = so_jin_fail(in, p, 0, "expected [tasks, avg seconds, max seconds]");
            break;
        }
        rc = so_jin_num_at(in, s, p, 0, 1, MAX_TASKS, &v[i]);
        if (!rc)
            rc = so_jin_num_at(in, s, p, 1, 0, 1e12, &v[n + i]);
        if (!rc)
            rc = so_jin_num_at(in, s, p, 2, 0, 1e12, &v[2 * n + i]);
    }
    if (!rc) {
        rc = so_lsq_fit_inverse(v, v + n, n, &pf->avg.a, &pf->avg.b);
        if (!rc)
            rc = so_lsq_fit_inverse(v, v + 2 * n, n, &pf->max.a, &pf->max.b);
        if (rc == SO_EINVAL)
            rc = so_jin_fail(in, path, 0,
                             "too few samples to fit t(n) = a + b/n: need at"
                             " least 2 with distinct task counts, found %zu"
                             " sample%s", n, n == 1 ? "" : "s");
        else if (rc == SO_EBACKEND)
            rc = so_jin_fail(in, path, 0, "the least-squares fit failed");
    }
    free(v);
    return rc;
}

/* avg and max >= 0 and max >= avg at n = 1 and n = tasks. */
static int check_profile(so_jin *in, const char *path, const so_pt_profile *pf,
                         int64_t tasks, int from_samples)
{
    double ends[2] = {1, (double)tasks};
    for (int e = 0; e < 2; e++) {
        double avg = so_pt_curve_at(pf->avg, ends[e]);
        double max = so_pt_curve_at(pf->max, ends[e]);
        const char *why = NULL;
        if (!(avg >= 0 && max >= 0))
            why = "a negative task time";
        else if (max < avg - 1e-9 * (1 + fabs(avg)))
            why = "a maximum task time below the mean";
        if (why)
            return so_jin_fail(in, path, 0,
                               "the profile%s gives %s at n = %g tasks (avg %g,"
                               " max %g)", from_samples ? " fitted from the samples" : "",
                               why, ends[e], avg, max);
    }
    return SO_OK;
}

static int read_profile(so_jin *in, json_t *job, const char *jpath,
                        const char *key, int required, int64_t tasks,
                        so_pt_profile *pf)
{
    static const char *const keys[] = {"avg", "max", "samples", NULL};
    char p[256];
    json_t *obj = NULL, *samples = NULL;
    so_jin_path(p, sizeof p, jpath, key);
    int rc = so_jin_object(in, job, jpath, key, required, &obj);
    if (rc || !obj)
        return rc;
    rc = so_jin_keys(in, obj, p, keys);
    if (!rc)
        rc = so_jin_array(in, obj, p, "samples", SO_OPTIONAL, 0, &samples);
    if (rc)
        return rc;
    if (samples) {
        if (json_object_get(obj, "avg") || json_object_get(obj, "max"))
            return so_jin_fail(in, p, 0, "give either \"samples\" or \"avg\""
                                         " and \"max\", not both");
        char sp[256];
        so_jin_path(sp, sizeof sp, p, "samples");
        rc = fit_samples(in, samples, sp, pf);
        return rc ? rc : check_profile(in, sp, pf, tasks, 1);
    }
    rc = read_pair(in, obj, p, "avg", &pf->avg);
    if (!rc)
        rc = read_pair(in, obj, p, "max", &pf->max);
    return rc ? rc : check_profile(in, p, pf, tasks, 0);
}

static int read_output(so_jin *in, json_t *job, const char *jpath,
                       so_pt_job *jb)
{
    static const char *const keys[] = {"bytes", "records", NULL};
    char p[256];
    json_t *obj = NULL;
    so_jin_path(p, sizeof p, jpath, "map_output");
    int rc = so_jin_object(in, job, jpath, "map_output", SO_OPTIONAL, &obj);
    if (rc || !obj)
        return rc;
    rc = so_jin_keys(in, obj, p, keys);
    if (!rc)
        rc = read_pair(in, obj, p, "bytes", &jb->out_bytes);
    if (!rc)
        rc = read_pair(in, obj, p, "records", &jb->out_records);
    double ends[2] = {1, (double)jb->map_tasks};
    for (int e = 0; e < 2 && !rc; e++)
        if (!(so_pt_curve_at(jb->out_bytes, ends[e]) > 0) ||
            !(so_pt_curve_at(jb->out_records, ends[e]) > 0))
            rc = so_jin_fail(in, p, 0, "bytes and records per map task must be"
                                       " positive for 1..%lld map tasks"
                                       " (at n = %g: %g bytes, %g records)",
                             (long long)jb->map_tasks, ends[e],
                             so_pt_curve_at(jb->out_bytes, ends[e]),
                             so_pt_curve_at(jb->out_records, ends[e]));
    jb->has_output = !rc;
    return rc;
}

static int read_range(so_jin *in, json_t *obj, const char *path,
                      const char *key, double lo, double hi, double *out_lo,
                      double *out_hi)
{
    char p[256];
    json_t *arr = NULL;
    so_jin_path(p, sizeof p, path, key);
    int rc = so_jin_array(in, obj, path, key, SO_OPTIONAL, 2, &arr);
    if (rc || !arr)
        return rc;
    if (json_array_size(arr) != 2)
        return so_jin_fail(in, p, 0, "expected [low, high]");
    rc = so_jin_num_at(in, arr, p, 0, lo, hi, out_lo);
    if (!rc)
        rc = so_jin_num_at(in, arr, p, 1, lo, hi, out_hi);
    if (!rc && *out_lo > *out_hi)
        rc = so_jin_fail(in, p, 0, "low %g exceeds high %g", *out_lo, *out_hi);
    return rc;
}

static int read_buffer(so_jin *in, json_t *job, const char *jpath,
                       so_pt_job *jb)
{
    static const char *const keys[] = {"size_mb", "meta_percent", "threshold",
                                       "size_mb_range", "meta_percent_range",
                                       "threshold_range", NULL};
    const double eps = 1e-6;
    /* Hadoop's defaults (the paper's Table 1) and the paper's search ranges
     * (section 6.5.3: 128..512 MB) */
    jb->buffer = (so_pt_buffer){100, 0.05, 0.8};
    jb->lo = (so_pt_buffer){128, 0.01, 0.5};
    jb->hi = (so_pt_buffer){512, 0.5, 0.99};
    char p[256];
    json_t *obj = NULL;
    so_jin_path(p, sizeof p, jpath, "buffer");
    int rc = so_jin_object(in, job, jpath, "buffer", SO_OPTIONAL, &obj);
    if (rc || !obj)
        return rc;
    rc = so_jin_keys(in, obj, p, keys);
    if (!rc)
        rc = so_jin_num(in, obj, p, "size_mb", SO_OPTIONAL, eps, 1e6, &jb->buffer.size_mb);
    if (!rc)
        rc = so_jin_num(in, obj, p, "meta_percent", SO_OPTIONAL, eps, 1 - eps,
                        &jb->buffer.meta_percent);
    if (!rc)
        rc = so_jin_num(in, obj, p, "threshold", SO_OPTIONAL, eps, 1 - eps,
                        &jb->buffer.threshold);
    if (!rc)
        rc = read_range(in, obj, p, "size_mb_range", eps, 1e6, &jb->lo.size_mb,
                        &jb->hi.size_mb);
    if (!rc)
        rc = read_range(in, obj, p, "meta_percent_range", eps, 1 - eps,
                        &jb->lo.meta_percent, &jb->hi.meta_percent);
    if (!rc)
        rc = read_range(in, obj, p, "threshold_range", eps, 1 - eps,
                        &jb->lo.threshold, &jb->hi.threshold);
    return rc;
}

static int read_job(so_jin *in, json_t *obj, const char *p, size_t index,
                    so_pt_job *jb)
{
    static const char *const keys[] = {"name", "map_tasks", "reduce_tasks",
                                       "map", "shuffle", "reduce",
                                       "map_output", "buffer", NULL};
    const char *name = NULL;
    int rc = so_jin_keys(in, obj, p, keys);
    if (!rc)
        rc = so_jin_str(in, obj, p, "name", SO_OPTIONAL, &name);
    if (rc)
        return rc;
    if (name)
        snprintf(jb->name, sizeof jb->name, "%s", name);
    else
        snprintf(jb->name, sizeof jb->name, "job%zu", index);
    rc = so_jin_int(in, obj, p, "map_tasks", SO_REQUIRED, 1, MAX_TASKS, &jb->map_tasks);
    if (!rc)
        rc = so_jin_int(in, obj, p, "reduce_tasks", SO_REQUIRED, 1, MAX_TASKS,
                        &jb->reduce_tasks);
    if (!rc)
        rc = read_profile(in, obj, p, "map", SO_REQUIRED, jb->map_tasks,
                          &jb->phase[SO_PT_MAP]);
    if (!rc)
        rc = read_profile(in, obj, p, "shuffle", SO_OPTIONAL, jb->reduce_tasks,
                          &jb->phase[SO_PT_SHUFFLE]);
    if (!rc)
        rc = read_profile(in, obj, p, "reduce", SO_REQUIRED, jb->reduce_tasks,
                          &jb->phase[SO_PT_REDUCE]);
    if (!rc)
        rc = read_output(in, obj, p, jb);
    if (!rc)
        rc = read_buffer(in, obj, p, jb);
    return rc;
}

static int read_cluster(so_jin *in, json_t *root, so_pareto *pr)
{
    static const char *const keys[] = {"map_slots_per_vm", "reduce_slots_per_vm",
                                       "vm_cost_per_hour", "io_cost_per_request",
                                       "io_request_bytes", "max_vms",
                                       "billing_seconds", NULL};
    json_t *c = NULL;
    int rc = so_jin_object(in, root, "", "cluster", SO_REQUIRED, &c);
    if (!rc)
        rc = so_jin_keys(in, c, "cluster", keys);
    if (!rc)
        rc = so_jin_int(in, c, "cluster", "map_slots_per_vm", SO_REQUIRED, 1,
                        100000, &pr->map_slots_per_vm);
    if (!rc)
        rc = so_jin_int(in, c, "cluster", "reduce_slots_per_vm", SO_REQUIRED, 1,
                        100000, &pr->reduce_slots_per_vm);
    if (!rc)
        rc = so_jin_num(in, c, "cluster", "vm_cost_per_hour", SO_REQUIRED, 0,
                        1e9, &pr->vm_cost_per_hour);
    pr->io_cost_per_request = 0;
    pr->io_request_bytes = 4096;
    pr->max_vms = 0;
    if (!rc)
        rc = so_jin_num(in, c, "cluster", "io_cost_per_request", SO_OPTIONAL, 0,
                        1e9, &pr->io_cost_per_request);
    if (!rc)
        rc = so_jin_num(in, c, "cluster", "io_request_bytes", SO_OPTIONAL, 1,
                        1e15, &pr->io_request_bytes);
    if (!rc)
        rc = so_jin_int(in, c, "cluster", "max_vms", SO_OPTIONAL, 0, 100000000,
                        &pr->max_vms);
    pr->billing_seconds = 0;
    if (!rc)
        rc = so_jin_num(in, c, "cluster", "billing_seconds", SO_OPTIONAL, 0,
                        1e9, &pr->billing_seconds);
    return rc;
}

static int read_workload(so_jin *in, json_t *root, so_pareto *pr)
{
    static const char *const keys[] = {"budget_min", "budget_max", "deadline", NULL};
    json_t *w = NULL;
    pr->budget_min = 0;
    pr->budget_max = INFINITY;
    pr->deadline = INFINITY;
    int rc = so_jin_object(in, root, "", "workload", SO_REQUIRED, &w);
    if (!rc)
        rc = so_jin_keys(in, w, "workload", keys);
    if (!rc)
        rc = so_jin_num(in, w, "workload", "budget_min", SO_OPTIONAL, 0, 1e15,
                        &pr->budget_min);
    if (!rc)
        rc = so_jin_num(in, w, "workload", "budget_max", SO_OPTIONAL, 0, 1e15,
                        &pr->budget_max);
    if (!rc)
        rc = so_jin_num(in, w, "workload", "deadline", SO_OPTIONAL, 1e-9, 1e15,
                        &pr->deadline);
    if (!rc && pr->budget_min > pr->budget_max)
        rc = so_jin_fail(in, "workload.budget_min", 0,
                         "budget_min ($%g) exceeds budget_max ($%g)",
                         pr->budget_min, pr->budget_max);
    return rc;
}

static int read_json(so_jin *in, json_t *root, void **data)
{
    static const char *const keys[] = {"cluster", "workload", "jobs", NULL};
    so_pareto *pr = calloc(1, sizeof *pr);
    if (!pr)
        return SO_ENOMEM;
    json_t *jobs = NULL;
    int rc = so_jin_keys(in, root, "", keys);
    if (!rc)
        rc = read_cluster(in, root, pr);
    if (!rc)
        rc = read_workload(in, root, pr);
    if (!rc)
        rc = so_jin_array(in, root, "", "jobs", SO_REQUIRED, 1, &jobs);
    if (!rc) {
        pr->n_jobs = json_array_size(jobs);
        pr->jobs = calloc(pr->n_jobs, sizeof *pr->jobs);
        if (!pr->jobs)
            rc = SO_ENOMEM;
    }
    for (size_t j = 0; !rc && j < pr->n_jobs; j++) {
        char p[64];
        json_t *obj = NULL;
        so_jin_index(p, sizeof p, "jobs", j);
        rc = so_jin_object_at(in, jobs, "jobs", j, &obj);
        if (!rc)
            rc = read_job(in, obj, p, j, &pr->jobs[j]);
    }
    if (rc) {
        so_pareto_free(pr);
        return rc;
    }
    *data = pr;
    return SO_OK;
}

/* ---- writing -------------------------------------------------------------- */

static json_t *pair_json(so_pt_curve c) { return json_pack("[ff]", c.a, c.b); }

static json_t *range_json(double lo, double hi) { return json_pack("[ff]", lo, hi); }

static json_t *job_json(const so_pt_job *jb)
{
    static const char *const names[SO_PT_PHASES] = {"map", "shuffle", "reduce"};
    json_t *o = json_pack("{sssIsI}", "name", jb->name, "map_tasks",
                          (json_int_t)jb->map_tasks, "reduce_tasks",
                          (json_int_t)jb->reduce_tasks);
    for (int ph = 0; ph < SO_PT_PHASES; ph++)
        json_object_set_new(o, names[ph],
                            json_pack("{soso}", "avg", pair_json(jb->phase[ph].avg),
                                      "max", pair_json(jb->phase[ph].max)));
    if (jb->has_output)
        json_object_set_new(o, "map_output",
                            json_pack("{soso}", "bytes", pair_json(jb->out_bytes),
                                      "records", pair_json(jb->out_records)));
    json_object_set_new(
        o, "buffer",
        json_pack("{sfsfsfsososo}", "size_mb", jb->buffer.size_mb, "meta_percent",
                  jb->buffer.meta_percent, "threshold", jb->buffer.threshold,
                  "size_mb_range", range_json(jb->lo.size_mb, jb->hi.size_mb),
                  "meta_percent_range",
                  range_json(jb->lo.meta_percent, jb->hi.meta_percent),
                  "threshold_range", range_json(jb->lo.threshold, jb->hi.threshold)));
    return o;
}

json_t *so_pareto_to_json(const so_pareto *pr)
{
    json_t *cluster = json_pack(
        "{sIsIsfsfsf}", "map_slots_per_vm", (json_int_t)pr->map_slots_per_vm,
        "reduce_slots_per_vm", (json_int_t)pr->reduce_slots_per_vm,
        "vm_cost_per_hour", pr->vm_cost_per_hour, "io_cost_per_request",
        pr->io_cost_per_request, "io_request_bytes", pr->io_request_bytes);
    if (pr->max_vms > 0)
        json_object_set_new(cluster, "max_vms", json_integer((json_int_t)pr->max_vms));
    if (pr->billing_seconds > 0)
        json_object_set_new(cluster, "billing_seconds", json_real(pr->billing_seconds));
    json_t *workload = json_pack("{sf}", "budget_min", pr->budget_min);
    if (isfinite(pr->budget_max))
        json_object_set_new(workload, "budget_max", json_real(pr->budget_max));
    if (isfinite(pr->deadline))
        json_object_set_new(workload, "deadline", json_real(pr->deadline));
    json_t *jobs = json_array();
    for (size_t j = 0; j < pr->n_jobs; j++)
        json_array_append_new(jobs, job_json(&pr->jobs[j]));
    return json_pack("{sososo}", "cluster", cluster, "workload", workload,
                     "jobs", jobs);
}

static json_t *to_json(const void *d) { return so_pareto_to_json(d); }

const so_formulation so_pareto_formulation = {
    .name = "pareto",
    .description = "Pareto makespan/budget slot allocation for MapReduce jobs on"
                   " cloud VMs (Zacheilas and Kalogeraki 2017)",
    .sense = SO_MAXIMIZE, /* the scalar objective is the frontier's hypervolume */
    .read_json = read_json,
    .to_json = to_json,
    .free_data = free_data,
    .read_text = NULL,
    .build_glpk = NULL,
    .build_glpk_params = so_pt_build_glpk, /* pareto_model.c */
};
