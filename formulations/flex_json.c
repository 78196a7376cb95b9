/* flex_json.c — native JSON of FLEX instances (problem kinds "flex" and
 * "rap" share it):
 *   {"problem": "flex", "version": 1, "slots": S, "metric": "response",
 *    "aggregate": "sum" | "max",
 *    "jobs": [{"work": C, "min": m, "max": M, "weight": w, "deadline": d,
 *              "sla": [{"deadline": d1, "penalty": w1}, ...]}, ...]}
 * Defaults: aggregate "max" for makespan, else "sum"; min 0; max = slots;
 * weight 1 (required by the weighted metrics); deadline required by the
 * tardy, tardiness and lateness metrics; sla required by the sla metric.
 * Work, weights, deadlines and SLA values are within SO_FLEX_MAX_VALUE in
 * magnitude and work at least SO_FLEX_MIN_WORK (formulations/flex.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/flex.h"
#include "formulations/flex_json.h"

static int needs_weight(int m)
{
    return m == SO_FLEX_WRESPONSE || m == SO_FLEX_WTARDY ||
           m == SO_FLEX_WTARDINESS || m == SO_FLEX_WLATENESS;
}

static int needs_deadline(int m)
{
    return m >= SO_FLEX_TARDY && m <= SO_FLEX_WLATENESS;
}

static int read_header(so_jin *in, json_t *root, so_flex *f)
{
    const char *metric = NULL, *agg = NULL;
    int rc = so_jin_int(in, root, "", "slots", SO_REQUIRED, 1,
                        (int64_t)1 << 40, &f->slots);
    if (!rc)
        rc = so_jin_str(in, root, "", "metric", SO_REQUIRED, &metric);
    if (rc)
        return rc;
    f->metric = so_flex_metric_parse(metric);
    if (f->metric < 0) {
        char known[400] = "";
        for (int m = 0; m < SO_FLEX_NMETRICS; m++) {
            strcat(known, m ? ", " : "");
            strcat(known, so_flex_metric_name(m));
        }
        return so_jin_fail(in, "metric", 0, "unknown metric '%s' (known: %s)",
                           metric, known);
    }
    f->aggregate = f->metric == SO_FLEX_MAKESPAN ? SO_FLEX_MAX : SO_FLEX_SUM;
    rc = so_jin_str(in, root, "", "aggregate", SO_OPTIONAL, &agg);
    if (rc || !agg)
        return rc;
    if (strcmp(agg, "sum") && strcmp(agg, "max"))
        return so_jin_fail(in, "aggregate", 0, "expected \"sum\" or \"max\","
                                               " found '%s'", agg);
    f->aggregate = strcmp(agg, "max") == 0 ? SO_FLEX_MAX : SO_FLEX_SUM;
    if (f->metric == SO_FLEX_MAKESPAN && f->aggregate == SO_FLEX_SUM)
        return so_jin_fail(in, "aggregate", 0, "makespan is a max aggregate"
                                               " (use \"response\" for the sum)");
    return SO_OK;
}

static int read_sla(so_jin *in, json_t *arr, const char *path, so_flex *f,
                    size_t *k)
{
    static const char *const keys[] = {"deadline", "penalty", NULL};
    for (size_t i = 0; i < json_array_size(arr); i++, (*k)++) {
        char p[256];
        json_t *step;
        so_jin_index(p, sizeof p, path, i);
        int rc = so_jin_object_at(in, arr, path, i, &step);
        if (!rc)
            rc = so_jin_keys(in, step, p, keys);
        if (!rc)
            rc = so_jin_num(in, step, p, "deadline", SO_REQUIRED,
                            -SO_FLEX_MAX_VALUE, SO_FLEX_MAX_VALUE,
                            &f->sla_deadline[*k]);
        if (!rc)
            rc = so_jin_num(in, step, p, "penalty", SO_REQUIRED, 0,
                            SO_FLEX_MAX_VALUE, &f->sla_penalty[*k]);
        if (rc)
            return rc;
        if (i > 0 && (f->sla_deadline[*k] < f->sla_deadline[*k - 1] ||
                      f->sla_penalty[*k] < f->sla_penalty[*k - 1]))
            return so_jin_fail(in, p, 0, "SLA steps must be non-decreasing in"
                                         " deadline and penalty (step %zu: %g, %g"
                                         " after %g, %g)", i, f->sla_deadline[*k],
                               f->sla_penalty[*k], f->sla_deadline[*k - 1],
                               f->sla_penalty[*k - 1]);
    }
    return SO_OK;
}

static int read_job(so_jin *in, json_t *jobs, size_t j, so_flex *f, size_t *k)
{
    static const char *const keys[] = {"work", "min", "max", "weight",
                                       "deadline", "sla", NULL};
    char p[64], q[96];
    json_t *job, *sla = NULL;
    so_jin_index(p, sizeof p, "jobs", j);
    int rc = so_jin_object_at(in, jobs, "jobs", j, &job);
    if (!rc)
        rc = so_jin_keys(in, job, p, keys);
    f->max[j] = f->slots;
    if (!rc)
        rc = so_jin_num(in, job, p, "work", SO_REQUIRED, 0, SO_FLEX_MAX_VALUE,
                        &f->work[j]);
    if (!rc && !(f->work[j] >= SO_FLEX_MIN_WORK)) {
        so_jin_path(q, sizeof q, p, "work");
        rc = so_jin_fail(in, q, 0, "expected a positive amount of work"
                                   " (slot-seconds, at least %g), found %g",
                         SO_FLEX_MIN_WORK, f->work[j]);
    }
    if (!rc)
        rc = so_jin_int(in, job, p, "min", SO_OPTIONAL, 0, f->slots, &f->min[j]);
    if (!rc)
        rc = so_jin_int(in, job, p, "max", SO_OPTIONAL, 1, f->slots, &f->max[j]);
    if (!rc && f->min[j] > f->max[j]) {
        so_jin_path(q, sizeof q, p, "min");
        rc = so_jin_fail(in, q, 0, "min (%lld) exceeds max (%lld)",
                         (long long)f->min[j], (long long)f->max[j]);
    }
    if (!rc)
        rc = so_jin_num(in, job, p, "weight", needs_weight(f->metric), 0,
                        SO_FLEX_MAX_VALUE, &f->weight[j]);
    if (!rc)
        rc = so_jin_num(in, job, p, "deadline", needs_deadline(f->metric),
                        -SO_FLEX_MAX_VALUE, SO_FLEX_MAX_VALUE, &f->deadline[j]);
    if (!rc)
        rc = so_jin_array(in, job, p, "sla", f->metric == SO_FLEX_SLA, 0, &sla);
    if (!rc && sla) {
        so_jin_path(q, sizeof q, p, "sla");
        rc = read_sla(in, sla, q, f, k);
    }
    f->sla_start[j + 1] = *k;
    return rc;
}

int so_flex_read_json(so_jin *in, json_t *root, void **data)
{
    static const char *const keys[] = {"slots", "metric", "aggregate", "jobs", NULL};
    json_t *jobs = NULL;
    int rc = so_jin_keys(in, root, "", keys);
    if (!rc)
        rc = so_jin_array(in, root, "", "jobs", SO_REQUIRED, 0, &jobs);
    if (rc)
        return rc;
    size_t n = json_array_size(jobs), n_sla = 0;
    for (size_t j = 0; j < n; j++)
        n_sla += json_array_size(json_object_get(json_array_get(jobs, j), "sla"));
    so_flex *f = so_flex_new(n, n_sla);
    if (!f)
        return SO_ENOMEM;
    size_t k = 0;
    int64_t sum_min = 0;
    rc = read_header(in, root, f);
    for (size_t j = 0; !rc && j < n; j++) {
        rc = read_job(in, jobs, j, f, &k);
        sum_min += f->min[j];
    }
    if (!rc && sum_min > f->slots)
        rc = so_jin_fail(in, "jobs", 0, "the minima add up to %lld slots, more"
                                        " than the %lld available",
                         (long long)sum_min, (long long)f->slots);
    if (rc) {
        so_flex_free(f);
        return rc;
    }
    *data = f;
    return SO_OK;
}

json_t *so_flex_to_json(const void *d)
{
    const so_flex *f = d;
    json_t *o = json_object(), *jobs = json_array();
    json_object_set_new(o, "slots", json_integer((json_int_t)f->slots));
    json_object_set_new(o, "metric", json_string(so_flex_metric_name(f->metric)));
    json_object_set_new(o, "aggregate",
                        json_string(f->aggregate == SO_FLEX_MAX ? "max" : "sum"));
    for (size_t j = 0; j < f->n; j++) {
        json_t *job = json_object();
        json_object_set_new(job, "work", json_real(f->work[j]));
        json_object_set_new(job, "min", json_integer((json_int_t)f->min[j]));
        json_object_set_new(job, "max", json_integer((json_int_t)f->max[j]));
        json_object_set_new(job, "weight", json_real(f->weight[j]));
        json_object_set_new(job, "deadline", json_real(f->deadline[j]));
        if (f->sla_start[j + 1] > f->sla_start[j]) {
            json_t *sla = json_array();
            for (size_t i = f->sla_start[j]; i < f->sla_start[j + 1]; i++) {
                json_t *s = json_object();
                json_object_set_new(s, "deadline", json_real(f->sla_deadline[i]));
                json_object_set_new(s, "penalty", json_real(f->sla_penalty[i]));
                json_array_append_new(sla, s);
            }
            json_object_set_new(job, "sla", sla);
        }
        json_array_append_new(jobs, job);
    }
    json_object_set_new(o, "jobs", jobs);
    return o;
}

void so_flex_free_data(void *d) { so_flex_free(d); }

const so_formulation so_flex_formulation = {
    .name = "flex",
    .description = "FLEX malleable slot allocation: jobs' slot counts over"
                   " time, minimising a scheduling metric (Wolf et al. 2010)",
    .sense = SO_MINIMIZE,
    .read_json = so_flex_read_json,
    .to_json = so_flex_to_json,
    .free_data = so_flex_free_data,
};
