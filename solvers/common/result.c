/* result.c — the result of a solve and its JSON form. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solvers/common/result_internal.h"

so_result *so_result_new(void)
{
    so_result *r = calloc(1, sizeof *r);
    if (r)
        r->extra = json_object();
    if (r && !r->extra) {
        free(r);
        return NULL;
    }
    return r;
}

void so_result_free(so_result *r)
{
    if (!r)
        return;
    json_decref(r->solution);
    json_decref(r->extra);
    free(r);
}

void so_result_set_status(so_result *r, int status) { r->status = status; }
int so_result_status(const so_result *r) { return r->status; }

void so_result_set_objective(so_result *r, double value)
{
    r->objective = value;
    r->has_objective = 1;
    r->objective_is_int = 0;
}
void so_result_set_objective_int(so_result *r, int64_t value)
{
    so_result_set_objective(r, (double)value);
    r->objective_int = value;
    r->objective_is_int = 1;
}
int so_result_objective_int(const so_result *r, int64_t *value)
{
    if (!r->has_objective || !r->objective_is_int)
        return 0;
    *value = r->objective_int;
    return 1;
}
int so_result_has_objective(const so_result *r) { return r->has_objective; }
double so_result_objective(const so_result *r)
{
    return r->has_objective ? r->objective : NAN;
}

/* A value that is not a finite number below DBL_MAX in magnitude (GLPK's
 * "no bound" is +-DBL_MAX) is no bound: the result has none. */
void so_result_set_bound(so_result *r, double value)
{
    int valid = isfinite(value) && fabs(value) < DBL_MAX;
    r->bound = valid ? value : NAN;
    r->has_bound = valid;
    r->bound_is_int = 0;
}
void so_result_set_bound_int(so_result *r, int64_t value)
{
    so_result_set_bound(r, (double)value);
    r->bound_int = value;
    r->bound_is_int = 1;
}
int so_result_bound_int(const so_result *r, int64_t *value)
{
    if (!r->has_bound || !r->bound_is_int)
        return 0;
    *value = r->bound_int;
    return 1;
}
int so_result_has_bound(const so_result *r) { return r->has_bound; }
double so_result_bound(const so_result *r)
{
    return r->has_bound ? r->bound : NAN;
}

double so_result_gap(const so_result *r)
{
    if (!r->has_objective || !r->has_bound)
        return NAN;
    double d = fabs(r->objective - r->bound);
    double s = fabs(r->objective) > 1 ? fabs(r->objective) : 1;
    return d / s;
}

double so_result_seconds(const so_result *r) { return r->seconds; }

void so_result_set_solution(so_result *r, json_t *solution)
{
    json_decref(r->solution);
    r->solution = solution;
}
json_t *so_result_solution(const so_result *r) { return r->solution; }

void so_result_set_extra(so_result *r, const char *key, json_t *value)
{
    json_object_set_new(r->extra, key, value);
}
json_t *so_result_extra(const so_result *r, const char *key)
{
    return json_object_get(r->extra, key);
}

void so_result_set_message(so_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
}
const char *so_result_message(const so_result *r) { return r->message; }

static json_t *number_or_null(int has, double x)
{
    return has && isfinite(x) ? json_real(x) : json_null();
}

json_t *so_result_to_json(const so_result *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "problem", json_string(r->problem));
    json_object_set_new(o, "instance", json_string(r->instance));
    json_object_set_new(o, "backend", json_string(r->backend));
    json_object_set_new(o, "exact", json_boolean(r->exact));
    json_object_set_new(o, "status", json_string(so_status_str(r->status)));
    json_object_set_new(o, "objective",
                        r->has_objective && r->objective_is_int
                            ? json_integer((json_int_t)r->objective_int)
                            : number_or_null(r->has_objective, r->objective));
    json_object_set_new(o, "bound", r->has_bound && r->bound_is_int
                                        ? json_integer((json_int_t)r->bound_int)
                                        : number_or_null(r->has_bound, r->bound));
    double gap = so_result_gap(r);
    json_object_set_new(o, "gap", number_or_null(!isnan(gap), gap));
    json_object_set_new(o, "seconds", json_real(r->seconds));
    json_object_set_new(o, "solution",
                        r->solution ? json_incref(r->solution) : json_null());
    if (r->message[0])
        json_object_set_new(o, "message", json_string(r->message));
    json_object_update(o, r->extra);
    return o;
}
