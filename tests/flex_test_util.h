/* flex_test_util.h — helpers of the FLEX test suites: random small
 * instances (fixed seeds through so_rng) and schedules read from text. */
#ifndef SO_TEST_FLEX_UTIL_H
#define SO_TEST_FLEX_UTIL_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "formulations/flex_schedule.h"

/* Reads {"intervals": [...]} from text for n jobs; SO_EIO if not JSON. */
static inline int so_test_read_schedule(const char *text, size_t n,
                                        so_flex_schedule **s, so_error *err)
{
    json_error_t je;
    json_t *root = json_loads(text, 0, &je);
    if (!root)
        return SO_EIO;
    so_jin in = {"s.json", text, err};
    so_error_clear(err);
    int rc = so_flex_schedule_read(&in, root, "", n, s);
    json_decref(root);
    return rc;
}

/* n jobs, S slots; minima in [0, max_min] (lowered to fit S), maxima in
 * [max(min, 1), S]; work U(1, 50); weights U(0, 1); deadlines U(0, 20);
 * 0..3 SLA steps per job (always allocated; used by metric sla). */
static inline so_flex *so_test_flex_random(so_rng *rng, size_t n, int64_t S,
                                           int64_t max_min, int metric,
                                           int aggregate)
{
    so_flex *f = so_flex_new(n, 3 * n);
    if (!f)
        return NULL;
    f->slots = S;
    f->metric = metric;
    f->aggregate = aggregate;
    int64_t sum = 0;
    for (size_t j = 0; j < n; j++) {
        f->work[j] = 1 + 49 * so_rng_uniform(rng);
        f->min[j] = so_rng_int(rng, 0, max_min);
        if (sum + f->min[j] > S)
            f->min[j] = 0;
        sum += f->min[j];
        f->max[j] = so_rng_int(rng, f->min[j] > 1 ? f->min[j] : 1, S);
        f->weight[j] = so_rng_uniform(rng);
        f->deadline[j] = 20 * so_rng_uniform(rng);
        size_t k = (size_t)so_rng_int(rng, 0, 3), a = f->sla_start[j];
        f->sla_start[j + 1] = a + k;
        double d = 0, p = 0;
        for (size_t i = a; i < a + k; i++) {
            d += 8 * so_rng_uniform(rng);
            p += so_rng_uniform(rng);
            f->sla_deadline[i] = d;
            f->sla_penalty[i] = p;
        }
    }
    return f;
}

/* The intervals of a result's solution, evaluated for f; the objective,
 * or NAN (with the reason on stderr) if they are not a feasible schedule. */
static inline double so_test_evaluate_result(const so_flex *f, so_result *r,
                                             int ignore_minima)
{
    char *text = json_dumps(so_result_solution(r), 0);
    so_flex_schedule *s = NULL;
    so_error err;
    char why[256];
    double obj = NAN;
    int rc = text ? so_test_read_schedule(text, f->n, &s, &err) : SO_ENOMEM;
    free(text);
    if (rc == SO_OK &&
        so_flex_evaluate(f, s, ignore_minima, NULL, &obj, why, sizeof why) != SO_OK) {
        fprintf(stderr, "infeasible schedule: %s\n", why);
        obj = NAN;
    }
    so_flex_schedule_free(s);
    return obj;
}

/* A (metric, aggregate) pair the random-instance tests run through. */
typedef struct so_test_flex_kind {
    int metric, aggregate;
} so_test_flex_kind;

/* Solves a copy of f with backend (default options); *status gets
 * so_flex_problem's error or so_solve's code, err its message. The result
 * (NULL when the problem could not be made) is the caller's. */
static inline so_result *so_test_flex_solve(const char *backend, const so_flex *f,
                                            so_error *err, int *status)
{
    so_problem *p = NULL;
    so_error_clear(err);
    *status = so_flex_problem(so_flex_copy(f), "t", &p);
    if (*status != SO_OK)
        return NULL;
    so_result *r = NULL;
    *status = so_solve(so_backend_find(backend), p, NULL, &r, err);
    so_problem_free(p);
    return r;
}

/* Lemma 1 fails for makespan with binding maxima: S = 3, two jobs of work
 * 4 with M = 2. Every MPS order gives (2, 1) then (0, 2): makespan 3;
 * (2, 1) then (1, 2) finishes both at 8/3. */
static inline so_flex *so_test_flex_lemma1(void)
{
    so_flex *f = so_flex_new(2, 0);
    if (!f)
        return NULL;
    f->slots = 3;
    f->metric = SO_FLEX_MAKESPAN;
    f->aggregate = SO_FLEX_MAX;
    f->work[0] = f->work[1] = 4;
    f->max[0] = f->max[1] = 2;
    return f;
}

#endif
