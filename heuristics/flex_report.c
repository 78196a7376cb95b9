/* flex_report.c — a FLEX result from an MPS order or from FAIR: objective,
 * completion times, the first interval's allocation (what an epoch-based
 * scheduler enforces, Wolf et al., Middleware 2010, Section 2.2) and, for
 * up to SO_FLEX_REPORT_INTERVALS jobs, every interval of the schedule. */
#include <stdlib.h>
#include "heuristics/flex.h"

#define SO_FLEX_REPORT_INTERVALS 200

static json_t *doubles(const double *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        json_array_append_new(a, json_real(v[i]));
    return a;
}

static json_t *ints(const int64_t *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        json_array_append_new(a, json_integer((json_int_t)v[i]));
    return a;
}

int so_flex_report(const so_flex *f, so_result *r, int status,
                   const size_t *order, int zero_minima, int fair_share)
{
    size_t n = f->n, k = n ? n : 1;
    double *c = malloc(k * sizeof *c);
    int64_t *first = malloc(k * sizeof *first);
    so_flex_schedule *rec = n <= SO_FLEX_REPORT_INTERVALS ? so_flex_schedule_new(n) : NULL;
    int rc = c && first && (rec || n > SO_FLEX_REPORT_INTERVALS) ? SO_OK : SO_ENOMEM;
    if (!rc)
        rc = order ? so_flex_mps(f, order, zero_minima, c, first, rec)
                   : so_flex_fair(f, fair_share, c, first, rec);
    if (!rc) {
        json_t *sol = json_object();
        if (order) {
            json_t *o = json_array();
            for (size_t i = 0; i < n; i++)
                json_array_append_new(o, json_integer((json_int_t)order[i]));
            json_object_set_new(sol, "order", o);
        }
        json_object_set_new(sol, "completion", doubles(c, n));
        json_object_set_new(sol, "allocation", ints(first, n));
        if (rec)
            json_object_set_new(sol, "intervals", so_flex_schedule_to_json(rec));
        so_result_set_status(r, status);
        so_result_set_objective(r, so_flex_objective(f, c));
        if (status == SO_OPTIMAL)
            so_result_set_bound(r, so_flex_objective(f, c));
        so_result_set_solution(r, sol);
    }
    free(c);
    free(first);
    so_flex_schedule_free(rec);
    return rc;
}
