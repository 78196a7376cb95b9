/* flex_family.c — the `flex-paper` instance family: the simulation inputs
 * of Wolf et al. (Middleware 2010), Section 4.1, as restated in SPEC
 * section 1.
 *   work: round(small * jobs) small jobs at random places in the arrival
 *         order; a small job's raw size ~ N(1, 1/3), a large one's
 *         ~ N(10, 10/3), both left-truncated at 0 (resampled); sizes then
 *         normalised so the total work is 1000 slot-seconds per job;
 *   max:  M_j = min(S, ceil(raw_j * tasks)): `tasks` is the slot demand
 *         (number of tasks) of a job of the small mean size; the paper
 *         does not give the task size (SPEC's calibration: the FAIR ratio
 *         depends on it; most demands >= S reproduces the paper's FAIR);
 *   min:  m_j = max(1, round(x)), x ~ N(mu, mu/3) left-truncated at 0,
 *         mu = (1 - slack) S / jobs, resampled (up to 100 times, then M_j)
 *         while m_j > M_j; if the minima exceed S, the largest is lowered
 *         by one until they fit ("the minima are simply normalized");
 *   weights U(0, 1); deadlines U(0, H) with H = total work / S (the time
 *         all the work takes on every slot); SLA: `sla_steps` steps per
 *         job with deadlines U(0, H) and penalties U(0, 1), each sorted. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/flex.h"

const so_option_doc so_flex_family_params[] = {
    {"jobs", "10", "number of jobs J (1 .. slots)"},
    {"slots", "100", "number of slots S"},
    {"small", "0.8", "fraction of small jobs, in [0, 1]"},
    {"slack", "0.75", "slack 1 - sum m_j / S targeted by the minima, in [0, 1]"},
    {"metric", "response", "the instance's metric (see docs/flex.md)"},
    {"aggregate", "", "sum | max (default: max for makespan, else sum)"},
    {"tasks", "1000", "slot demand of a job of the small mean size"},
    {"sla_steps", "3", "SLA steps per job (metric sla)"},
    {"problem", "flex", "flex | rap: the problem kind to write"},
    {NULL, NULL, NULL},
};

static double positive_normal(so_rng *rng, double mean, double sd)
{
    double x;
    do
        x = so_rng_normal(rng, mean, sd);
    while (!(x > 0));
    return x;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void draw_minima(so_flex *f, so_rng *rng, double slack)
{
    double mu = (1.0 - slack) * (double)f->slots / (double)f->n;
    int64_t sum = 0;
    for (size_t j = 0; j < f->n; j++) {
        f->min[j] = 1;
        for (int tries = 0; mu > 0 && tries < 100; tries++) {
            double x = positive_normal(rng, mu, mu / 3.0);
            f->min[j] = llround(x) > 1 ? llround(x) : 1;
            if (f->min[j] <= f->max[j])
                break;
        }
        if (f->min[j] > f->max[j])
            f->min[j] = f->max[j];
        sum += f->min[j];
    }
    while (sum > f->slots) {
        size_t big = 0;
        for (size_t j = 1; j < f->n; j++)
            if (f->min[j] > f->min[big])
                big = j;
        f->min[big]--;
        sum--;
    }
}

static void draw_metric_data(so_flex *f, so_rng *rng, double horizon, size_t steps)
{
    for (size_t j = 0; j < f->n; j++) {
        f->weight[j] = so_rng_uniform(rng);
        f->deadline[j] = so_rng_uniform(rng) * horizon;
        size_t a = f->sla_start[j];
        f->sla_start[j + 1] = a + (f->metric == SO_FLEX_SLA ? steps : 0);
        for (size_t i = a; i < f->sla_start[j + 1]; i++) {
            f->sla_deadline[i] = so_rng_uniform(rng) * horizon;
            f->sla_penalty[i] = so_rng_uniform(rng);
        }
        qsort(f->sla_deadline + a, f->sla_start[j + 1] - a, sizeof(double), cmp_double);
        qsort(f->sla_penalty + a, f->sla_start[j + 1] - a, sizeof(double), cmp_double);
    }
}

static int read_settings(const so_params *set, long long *v, double *d,
                         const char **metric, const char **agg,
                         const char **problem, so_error *err)
{
    const so_option_doc *o = so_flex_family_params;
    int rc = so_params_int(set, o, "jobs", 10, &v[0], err);
    if (!rc)
        rc = so_params_int(set, o, "slots", 100, &v[1], err);
    if (!rc)
        rc = so_params_int(set, o, "tasks", 1000, &v[2], err);
    if (!rc)
        rc = so_params_int(set, o, "sla_steps", 3, &v[3], err);
    if (!rc)
        rc = so_params_double(set, o, "small", 0.8, &d[0], err);
    if (!rc)
        rc = so_params_double(set, o, "slack", 0.75, &d[1], err);
    if (rc)
        return rc;
    *metric = so_params_str(set, o, "metric", "response");
    *agg = so_params_str(set, o, "aggregate", "");
    *problem = so_params_str(set, o, "problem", "flex");
    if (v[1] < 1 || v[1] > 100000000)
        return so_error_setf(err, NULL, 0, 0, "slots", "expected 1..1e8, found %lld", v[1]);
    if (v[0] < 1 || v[0] > v[1] || v[0] > 10000000)
        return so_error_setf(err, NULL, 0, 0, "jobs", "expected 1..min(slots, 1e7),"
                             " found %lld", v[0]);
    if (v[2] < 1 || v[2] > 1000000000)
        return so_error_setf(err, NULL, 0, 0, "tasks", "expected 1..1e9, found %lld", v[2]);
    if (v[3] < 0 || v[3] > 100)
        return so_error_setf(err, NULL, 0, 0, "sla_steps", "expected 0..100, found %lld", v[3]);
    if (!(d[0] >= 0 && d[0] <= 1))
        return so_error_setf(err, NULL, 0, 0, "small", "expected a fraction in [0, 1], found %g", d[0]);
    if (!(d[1] >= 0 && d[1] <= 1))
        return so_error_setf(err, NULL, 0, 0, "slack", "expected a fraction in [0, 1], found %g", d[1]);
    if (so_flex_metric_parse(*metric) < 0)
        return so_error_setf(err, NULL, 0, 0, "metric", "unknown metric '%s'", *metric);
    if (strcmp(*agg, "") && strcmp(*agg, "sum") && strcmp(*agg, "max"))
        return so_error_setf(err, NULL, 0, 0, "aggregate", "expected sum or max, found '%s'", *agg);
    if (!strcmp(*agg, "sum") && so_flex_metric_parse(*metric) == SO_FLEX_MAKESPAN)
        return so_error_setf(err, NULL, 0, 0, "aggregate", "makespan is a max aggregate");
    if (strcmp(*problem, "flex") && strcmp(*problem, "rap"))
        return so_error_setf(err, NULL, 0, 0, "problem", "expected flex or rap, found '%s'", *problem);
    return SO_OK;
}

int so_flex_family_generate(const so_params *set, so_rng *rng, json_t **out,
                            so_error *err)
{
    long long v[4];
    double d[2];
    const char *metric, *agg, *problem;
    int rc = read_settings(set, v, d, &metric, &agg, &problem, err);
    if (rc)
        return rc;
    size_t n = (size_t)v[0];
    int m = so_flex_metric_parse(metric);
    so_flex *f = so_flex_new(n, m == SO_FLEX_SLA ? n * (size_t)v[3] : 0);
    double *raw = malloc(n * sizeof *raw);
    if (!f || !raw) {
        so_flex_free(f);
        free(raw);
        return SO_ENOMEM;
    }
    f->slots = v[1];
    f->metric = m;
    f->aggregate = !strcmp(agg, "max") || (!agg[0] && m == SO_FLEX_MAKESPAN)
                       ? SO_FLEX_MAX : SO_FLEX_SUM;
    size_t n_small = (size_t)llround(d[0] * (double)n);
    double sum = 0, total = 1000.0 * (double)n;
    for (size_t j = 0; j < n; j++) /* 1 = small; shuffled below */
        raw[j] = j < n_small;
    for (size_t j = n; j > 1; j--) {
        size_t k = (size_t)so_rng_int(rng, 0, (int64_t)j - 1);
        double t = raw[j - 1];
        raw[j - 1] = raw[k];
        raw[k] = t;
    }
    for (size_t j = 0; j < n; j++) {
        raw[j] = raw[j] > 0 ? positive_normal(rng, 1.0, 1.0 / 3.0)
                            : positive_normal(rng, 10.0, 10.0 / 3.0);
        sum += raw[j];
        double demand = ceil(raw[j] * (double)v[2]);
        f->max[j] = demand < (double)f->slots ? (int64_t)demand : f->slots;
    }
    for (size_t j = 0; j < n; j++)
        f->work[j] = raw[j] * total / sum;
    free(raw);
    draw_minima(f, rng, d[1]);
    draw_metric_data(f, rng, total / (double)f->slots, (size_t)v[3]);
    json_t *body = so_flex_formulation.to_json(f);
    so_flex_free(f);
    json_t *inst = json_object();
    json_object_set_new(inst, "problem", json_string(problem));
    json_object_set_new(inst, "version", json_integer(1));
    json_object_update(inst, body);
    json_decref(body);
    *out = inst;
    return SO_OK;
}
