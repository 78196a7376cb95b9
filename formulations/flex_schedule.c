/* flex_schedule.c — malleable schedules: storage, JSON and evaluation
 * (Wolf et al., Middleware 2010, Sections 2.2 and 2.4; linear speedup: a
 * job holding s slots for d seconds does s d slot-seconds of work). Work
 * and time comparisons use the relative tolerance SO_FLEX_EPS. A job may
 * still list slots in a zero-length interval (within the tolerance) that
 * starts when it completes: MPS and FAIR end simultaneous completions one
 * at a time, with zero-length intervals in between. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/flex_schedule.h"

so_flex_schedule *so_flex_schedule_new(size_t n_jobs)
{
    so_flex_schedule *s = calloc(1, sizeof *s);
    if (s)
        s->n_jobs = n_jobs;
    return s;
}

void so_flex_schedule_free(so_flex_schedule *s)
{
    if (!s)
        return;
    free(s->start);
    free(s->end);
    free(s->slots);
    free(s);
}

int so_flex_schedule_add(so_flex_schedule *s, double start, double end,
                         const int64_t *slots)
{
    if (s->n_intervals == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        double *a = realloc(s->start, cap * sizeof *a);
        if (a)
            s->start = a;
        double *b = realloc(s->end, cap * sizeof *b);
        if (b)
            s->end = b;
        int64_t *c = realloc(s->slots, cap * (s->n_jobs ? s->n_jobs : 1) * sizeof *c);
        if (c)
            s->slots = c;
        if (!a || !b || !c)
            return SO_ENOMEM;
        s->cap = cap;
    }
    s->start[s->n_intervals] = start;
    s->end[s->n_intervals] = end;
    memcpy(s->slots + s->n_intervals * s->n_jobs, slots, s->n_jobs * sizeof *slots);
    s->n_intervals++;
    return SO_OK;
}

json_t *so_flex_schedule_to_json(const so_flex_schedule *s)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < s->n_intervals; i++) {
        json_t *o = json_object(), *sl = json_array();
        for (size_t j = 0; j < s->n_jobs; j++)
            json_array_append_new(sl, json_integer((json_int_t)s->slots[i * s->n_jobs + j]));
        json_object_set_new(o, "start", json_real(s->start[i]));
        json_object_set_new(o, "end", json_real(s->end[i]));
        json_object_set_new(o, "slots", sl);
        json_array_append_new(arr, o);
    }
    return arr;
}

static int fail(char *why, size_t size, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *why, size_t size, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return rc;
}

int so_flex_schedule_read(so_jin *in, json_t *obj, const char *path,
                          size_t n_jobs, so_flex_schedule **out)
{
    static const char *const keys[] = {"start", "end", "slots", NULL};
    json_t *arr = NULL;
    char ip[256];
    so_jin_path(ip, sizeof ip, path, "intervals");
    int rc = so_jin_array(in, obj, path, "intervals", SO_REQUIRED, 0, &arr);
    if (rc)
        return rc;
    so_flex_schedule *s = so_flex_schedule_new(n_jobs);
    int64_t *row = malloc((n_jobs ? n_jobs : 1) * sizeof *row);
    rc = s && row ? SO_OK : SO_ENOMEM;
    for (size_t i = 0; !rc && i < json_array_size(arr); i++) {
        char p[300], sp[320];
        json_t *o, *sl = NULL;
        double a = 0, b = 0;
        so_jin_index(p, sizeof p, ip, i);
        so_jin_path(sp, sizeof sp, p, "slots");
        rc = so_jin_object_at(in, arr, ip, i, &o);
        if (!rc)
            rc = so_jin_keys(in, o, p, keys);
        if (!rc)
            rc = so_jin_num(in, o, p, "start", SO_REQUIRED, 0, SO_FLEX_MAX_TIME, &a);
        if (!rc)
            rc = so_jin_num(in, o, p, "end", SO_REQUIRED, 0, SO_FLEX_MAX_TIME, &b);
        if (!rc)
            rc = so_jin_array(in, o, p, "slots", SO_REQUIRED, 0, &sl);
        if (!rc && json_array_size(sl) != n_jobs)
            rc = so_jin_fail(in, sp, 0, "expected %zu slot counts (one per job),"
                             " found %zu", n_jobs, json_array_size(sl));
        for (size_t j = 0; !rc && j < n_jobs; j++)
            rc = so_jin_int_at(in, sl, sp, j, 0, (int64_t)1 << 40, &row[j]);
        if (!rc)
            rc = so_flex_schedule_add(s, a, b, row);
    }
    free(row);
    if (rc) {
        so_flex_schedule_free(s);
        return rc;
    }
    *out = s;
    return SO_OK;
}

static double tol(double x) { return SO_FLEX_EPS * (1.0 + fabs(x)); }

int so_flex_evaluate(const so_flex *f, const so_flex_schedule *s,
                     int ignore_minima, double *completion, double *objective,
                     char *why, size_t size)
{
    if (s->n_jobs != f->n)
        return fail(why, size, SO_INFEASIBLE, "the schedule has %zu jobs, the"
                    " instance %zu", s->n_jobs, f->n);
    double *done = calloc(f->n ? f->n : 1, sizeof *done);
    double *t = calloc(f->n ? f->n : 1, sizeof *t);
    if (!done || !t) {
        free(done);
        free(t);
        return SO_ENOMEM;
    }
    int rc = SO_OK;
    for (size_t i = 0; !rc && i < s->n_intervals; i++) {
        double a = s->start[i], b = s->end[i], prev = i ? s->end[i - 1] : 0.0;
        const int64_t *row = s->slots + i * f->n;
        int64_t used = 0;
        if (!isfinite(a) || !isfinite(b) || fabs(a - prev) > tol(prev) ||
            b < a - tol(a)) {
            rc = fail(why, size, SO_INFEASIBLE, "interval %zu: [%g, %g] does not"
                      " follow on from %g", i, a, b, prev);
            break;
        }
        for (size_t j = 0; !rc && j < f->n; j++) {
            int active = done[j] < f->work[j] - tol(f->work[j]);
            int64_t lo = ignore_minima ? 0 : f->min[j];
            used += row[j];
            if (active && (row[j] < lo || row[j] > f->max[j]))
                rc = fail(why, size, SO_INFEASIBLE, "interval %zu: job %zu holds"
                          " %lld slots, outside [%lld, %lld]", i, j,
                          (long long)row[j], (long long)lo, (long long)f->max[j]);
            else if (!active && row[j] > 0 &&
                     (b - a > tol(a) || a > t[j] + tol(t[j])))
                rc = fail(why, size, SO_INFEASIBLE, "interval %zu: job %zu holds"
                          " %lld slots after completing", i, j, (long long)row[j]);
            else if (active && row[j] > 0 &&
                     done[j] + (double)row[j] * (b - a) >=
                         f->work[j] - tol(f->work[j]))
                t[j] = a + (f->work[j] - done[j]) / (double)row[j];
            if (active)
                done[j] += (double)row[j] * (b - a);
        }
        if (!rc && used > f->slots)
            rc = fail(why, size, SO_INFEASIBLE, "interval %zu: %lld slots in use,"
                      " more than %lld", i, (long long)used, (long long)f->slots);
    }
    for (size_t j = 0; !rc && j < f->n; j++)
        if (done[j] < f->work[j] - tol(f->work[j]))
            rc = fail(why, size, SO_INFEASIBLE, "job %zu: %g of %g slot-seconds"
                      " of work left undone", j, f->work[j] - done[j], f->work[j]);
    if (!rc) {
        if (objective)
            *objective = so_flex_objective(f, t);
        if (completion)
            memcpy(completion, t, f->n * sizeof *t);
    }
    free(done);
    free(t);
    return rc;
}
