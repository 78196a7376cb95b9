/* workload_family.c — distributions, arrival processes, job classes and the
 * JSON workload of the cluster workload families (workload_family.h).
 * Times are written rounded to the millisecond (readable files; the
 * workload reader's own floor is 1 ms). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/workload_family.h"

#define MS 1e-3

static double ms(double x) { return round(x / MS) * MS; }

double so_wf_draw(const so_wf_dist *d, double floor, so_rng *rng)
{
    double x = d->a;
    switch (d->kind) {
    case SO_WF_FIXED: break;
    case SO_WF_UNIFORM: x = d->a + (d->b - d->a) * so_rng_uniform(rng); break;
    case SO_WF_EXPONENTIAL: x = so_rng_exponential(rng, d->a); break;
    case SO_WF_NORMAL: x = so_rng_normal(rng, d->a, d->b); break;
    case SO_WF_LOGNORMAL: x = so_rng_lognormal(rng, d->a, d->b); break;
    case SO_WF_BIMODAL:
        x = so_rng_uniform(rng) < d->p ? so_rng_normal(rng, d->a, d->b)
                                       : so_rng_normal(rng, d->c, d->d);
        break;
    }
    return x < floor ? floor : x;
}

double so_wf_mean(const so_wf_dist *d)
{
    switch (d->kind) {
    case SO_WF_UNIFORM: return (d->a + d->b) / 2;
    case SO_WF_LOGNORMAL: return exp(d->a + d->b * d->b / 2);
    case SO_WF_BIMODAL: return d->p * d->a + (1 - d->p) * d->c;
    default: return d->a;
    }
}

so_wf_dist so_wf_normal_cv(double mean, double cv)
{
    so_wf_dist d = {cv > 0 ? SO_WF_NORMAL : SO_WF_FIXED, mean, cv * mean, 0, 0, 0};
    return d;
}

void so_wf_arrivals(const so_wf_arrival *a, double start, int n, so_rng *rng,
                    double *times)
{
    double t = start;
    double on_mean = a->burst_jobs * a->mean_gap / a->burst_ratio;
    double off_mean = on_mean * (a->burst_ratio - 1);
    double on_left = a->kind == SO_WF_ARRIVE_ONOFF
                         ? so_rng_exponential(rng, on_mean) : 0;
    for (int i = 0; i < n; i++) {
        switch (a->kind) {
        case SO_WF_ARRIVE_UNIFORM:
            t += 2 * a->mean_gap * so_rng_uniform(rng);
            break;
        case SO_WF_ARRIVE_POISSON:
            t += so_rng_exponential(rng, a->mean_gap);
            break;
        case SO_WF_ARRIVE_ONOFF:
            for (;;) { /* memoryless: a gap cut by OFF is drawn anew */
                double g = so_rng_exponential(rng, a->mean_gap / a->burst_ratio);
                if (g < on_left) {
                    t += g;
                    on_left -= g;
                    break;
                }
                t += on_left + so_rng_exponential(rng, off_mean);
                on_left = so_rng_exponential(rng, on_mean);
            }
            break;
        }
        times[i] = t;
    }
}

static json_t *amounts(const double *v, int n)
{
    json_t *a = json_array();
    for (int r = 0; r < n; r++)
        json_array_append_new(a, json_real(v[r]));
    return a;
}

/* A phase: {"count", ...} when every task is the same, else one entry per
 * task; reduce entries are {"copy", "sort", "reduce"}. */
static json_t *reduce_entry(const so_wf_job *j, double x)
{
    json_t *o = json_object();
    double copy = ms(x * j->copy_share), sort = ms(x * j->sort_share);
    double rest = ms(x) - copy - sort;
    json_object_set_new(o, "copy", json_real(copy));
    json_object_set_new(o, "sort", json_real(sort));
    json_object_set_new(o, "reduce", json_real(ms(rest > MS ? rest : MS)));
    return o;
}

static json_t *phase_json(const so_wf_job *j, int reduce, so_rng *rng)
{
    const so_wf_dist *d = reduce ? &j->reduce_time : &j->map_time;
    int n = reduce ? j->reduces : j->maps;
    if (d->kind == SO_WF_FIXED) {
        json_t *o = reduce ? reduce_entry(j, d->a) : json_object();
        json_object_set_new(o, "count", json_integer(n));
        if (!reduce)
            json_object_set_new(o, "duration", json_real(ms(fmax(d->a, MS))));
        return o;
    }
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        double x = so_wf_draw(d, MS, rng);
        json_array_append_new(a, reduce ? reduce_entry(j, x)
                                        : json_real(ms(x)));
    }
    return a;
}

json_t *so_wf_job_json(const so_wf_job *j, so_rng *rng)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "name", json_string(j->name));
    json_object_set_new(o, "user", json_string(j->user));
    json_object_set_new(o, "submit", json_real(ms(j->submit)));
    if (j->slowstart > 0)
        json_object_set_new(o, "slowstart", json_real(j->slowstart));
    if (j->goal > 0)
        json_object_set_new(o, "goal", json_real(j->goal));
    if (j->map_parallel > 0)
        json_object_set_new(o, "map_parallel", json_real(j->map_parallel));
    if (j->reduce_parallel > 0)
        json_object_set_new(o, "reduce_parallel", json_real(j->reduce_parallel));
    if (j->n_resources > 0) {
        json_object_set_new(o, "map_demand", amounts(j->map_demand, j->n_resources));
        json_object_set_new(o, "reduce_demand",
                            amounts(j->reduce_demand, j->n_resources));
        json_object_set_new(o, "shuffle_demand",
                            amounts(j->shuffle_demand, j->n_resources));
    }
    json_object_set_new(o, "maps", phase_json(j, 0, rng));
    if (j->reduces > 0)
        json_object_set_new(o, "reduces", phase_json(j, 1, rng));
    return o;
}

int so_wf_class_jobs(const so_wf_class *c, so_rng *rng, json_t *jobs)
{
    double *submit = malloc((size_t)(c->jobs > 0 ? c->jobs : 1) * sizeof *submit);
    if (!submit)
        return SO_ENOMEM;
    so_wf_arrivals(&c->arrival, 0, c->jobs, rng, submit);
    int rc = SO_OK;
    for (int k = 0; k < c->jobs && !rc; k++) {
        so_wf_job j = c->job;
        snprintf(j.name, sizeof j.name, "%.40s-%d", c->job.name, k);
        j.submit = submit[k];
        if (c->block_mb > 0) {
            double mb = so_wf_draw(&c->size_mb, MS, rng);
            double m = ceil(mb / c->block_mb);
            j.maps = m < 1 ? 1 : m > 1e6 ? 1000000 : (int)m;
        }
        json_t *o = so_wf_job_json(&j, rng);
        if (!o || json_array_append_new(jobs, o))
            rc = SO_ENOMEM;
    }
    free(submit);
    return rc;
}

json_t *so_wf_cluster_json(const so_wf_cluster *c)
{
    json_t *groups = json_array();
    int slow = c->slow < c->nodes ? c->slow : c->nodes;
    for (int g = 0; g < 2; g++) {
        int count = g == 0 ? slow : c->nodes - slow;
        if (count == 0)
            continue;
        json_t *o = json_object();
        json_object_set_new(o, "count", json_integer(count));
        json_object_set_new(o, "map_slots", json_integer(c->map_slots));
        json_object_set_new(o, "reduce_slots", json_integer(c->reduce_slots));
        json_object_set_new(o, "speed", json_real(g == 0 ? c->slow_speed : 1));
        if (c->n_resources > 0) {
            json_t *cap = json_array();
            for (int r = 0; r < c->n_resources; r++)
                json_array_append_new(cap, json_real(c->capacity));
            json_object_set_new(o, "capacity", cap);
        }
        json_array_append_new(groups, o);
    }
    json_t *cl = json_object();
    json_object_set_new(cl, "nodes", groups);
    if (c->n_resources > 0) {
        json_t *names = json_array();
        for (int r = 0; r < c->n_resources; r++)
            json_array_append_new(names, json_string(c->resources[r]));
        json_object_set_new(cl, "resources", names);
    }
    if (c->hard) {
        json_t *con = json_object(), *hard = json_array();
        json_array_append_new(hard, json_string(c->hard));
        json_object_set_new(con, "model", json_string("share"));
        json_object_set_new(con, "hard", hard);
        json_object_set_new(cl, "contention", con);
    }
    return cl;
}

static int by_submit(const void *a, const void *b)
{
    json_t *const *x = a, *const *y = b;
    double s = json_real_value(json_object_get(*x, "submit"));
    double t = json_real_value(json_object_get(*y, "submit"));
    if (s != t)
        return s < t ? -1 : 1;
    return x < y ? -1 : x > y; /* stable: by position */
}

json_t *so_wf_workload(json_t *cluster, json_t *jobs)
{
    size_t n = json_array_size(jobs);
    json_t **v = malloc((n ? n : 1) * sizeof *v);
    json_t *sorted = json_array(), *w = json_object();
    if (!v || !sorted || !w) {
        free(v);
        json_decref(sorted);
        json_decref(w);
        json_decref(cluster);
        json_decref(jobs);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = json_array_get(jobs, i);
    qsort(v, n, sizeof *v, by_submit);
    for (size_t i = 0; i < n; i++)
        json_array_append(sorted, v[i]);
    free(v);
    json_decref(jobs);
    json_object_set_new(w, "problem", json_string("cluster"));
    json_object_set_new(w, "version", json_integer(1));
    json_object_set_new(w, "cluster", cluster);
    json_object_set_new(w, "jobs", sorted);
    return w;
}

int so_wf_param(const so_params *set, const so_option_doc *docs,
                const char *key, double lo, double hi, double *out,
                so_error *err)
{
    int rc = so_params_double(set, docs, key, 0, out, err);
    if (rc)
        return rc;
    if (!(*out >= lo && *out <= hi))
        return so_error_setf(err, NULL, 0, 0, key,
                             "expected a number in [%g, %g], found %g", lo,
                             hi, *out);
    return SO_OK;
}

int so_wf_param_int(const so_params *set, const so_option_doc *docs,
                    const char *key, long long lo, long long hi, int *out,
                    so_error *err)
{
    long long v;
    int rc = so_params_int(set, docs, key, 0, &v, err);
    if (rc)
        return rc;
    if (v < lo || v > hi)
        return so_error_setf(err, NULL, 0, 0, key,
                             "expected an integer in [%lld, %lld], found %lld",
                             lo, hi, v);
    *out = (int)v;
    return SO_OK;
}

int so_wf_param_choice(const so_params *set, const so_option_doc *docs,
                       const char *key, const char *const *names, int *out,
                       so_error *err)
{
    const char *v = so_params_str(set, docs, key, "");
    char list[256] = "";
    for (int i = 0; names[i]; i++) {
        if (!strcmp(v, names[i])) {
            *out = i;
            return SO_OK;
        }
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? " | " : "",
                 names[i]);
    }
    return so_error_setf(err, NULL, 0, 0, key, "expected %s, found '%s'",
                         list, v);
}
