/* ras.c — the RAS placement instance: native JSON in and out.
 *
 * {"problem": "ras", "version": 1,
 *  "resources": ["cpu", "io", "memory"],          (optional, this default)
 *  "tasktrackers": [{"capacity": [100, 100, 100], "count": 20}, ...],
 *  "jobs": [{"name": "J1", "s_pend": 35, "r_pend": 10,
 *            "s_req": 20  |  "goal": {"t_goal": 3000, "t_avg": 30, "now": 700},
 *            "parallel_copies": 5, "phase": "map" | "reduce",
 *            "demand": {"map": [...], "shuffle": [...],
 *                       "shuffle_base": [...], "reduce": [...]}}]}
 * "count" (default 1) repeats a TaskTracker; demand vectors have one value
 * per resource. Defaults: no s_req and no goal -> s_req = s_pend;
 * parallel_copies 5 (Hadoop's mapreduce.reduce.shuffle.parallelcopies);
 * phase "map" (reducers shuffle); shuffle zero; shuffle_base = the reduce
 * demand on a resource named "memory", zero elsewhere (the paper, section
 * 3.4: "a reduce task in shuffle phase only consumes memory"); reduce is
 * required when r_pend > 0, zero otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/ras.h"

#define MAX_VALUE 1e12

so_ras *so_ras_new(size_t R, size_t TT, size_t J)
{
    so_ras *ras = calloc(1, sizeof *ras);
    if (!ras)
        return NULL;
    ras->R = R;
    ras->TT = TT;
    ras->J = J;
    ras->resources = calloc(R ? R : 1, sizeof *ras->resources);
    ras->capacity = calloc(TT * R + 1, sizeof *ras->capacity);
    ras->jobs = calloc(J ? J : 1, sizeof *ras->jobs);
    if (!ras->resources || !ras->capacity || !ras->jobs) {
        so_ras_free(ras);
        return NULL;
    }
    for (size_t j = 0; j < J; j++) {
        so_ras_job *job = &ras->jobs[j];
        job->parallel_copies = 5;
        job->map = calloc(R ? R : 1, sizeof(double));
        job->shuffle = calloc(R ? R : 1, sizeof(double));
        job->shuffle_base = calloc(R ? R : 1, sizeof(double));
        job->reduce = calloc(R ? R : 1, sizeof(double));
        if (!job->map || !job->shuffle || !job->shuffle_base || !job->reduce) {
            so_ras_free(ras);
            return NULL;
        }
    }
    return ras;
}

void so_ras_free(so_ras *ras)
{
    if (!ras)
        return;
    for (size_t r = 0; ras->resources && r < ras->R; r++)
        free(ras->resources[r]);
    for (size_t j = 0; ras->jobs && j < ras->J; j++) {
        so_ras_job *job = &ras->jobs[j];
        free(job->name);
        free(job->map);
        free(job->shuffle);
        free(job->shuffle_base);
        free(job->reduce);
    }
    free(ras->resources);
    free(ras->capacity);
    free(ras->jobs);
    free(ras);
}

static void free_data(void *d) { so_ras_free(d); }

const so_ras *so_ras_of(const so_problem *p)
{
    return so_problem_data(p, &so_ras_formulation);
}

int so_ras_problem(so_ras *ras, const char *name, so_problem **out)
{
    return so_problem_wrap(&so_ras_formulation, ras, name, out);
}

int so_ras_s_req_from_goal(int s_pend, double t_goal, double t_avg, double now)
{
    if (s_pend <= 0)
        return 0;
    if (!(t_goal > now))
        return s_pend;
    double need = ceil((double)s_pend * t_avg / (t_goal - now));
    if (need < 1)
        need = 1;
    return need >= s_pend ? s_pend : (int)need;
}

/* ---- reading ------------------------------------------------------------ */

/* Array obj.key of exactly R numbers in [0, MAX_VALUE] into out. */
static int read_vector(so_jin *in, json_t *obj, const char *path,
                       const char *key, int required, size_t R, double *out)
{
    json_t *arr = NULL;
    int rc = so_jin_array(in, obj, path, key, required, 0, &arr);
    if (rc || !arr)
        return rc;
    char p[256];
    so_jin_path(p, sizeof p, path, key);
    if (json_array_size(arr) != R)
        return so_jin_fail(in, p, 0, "expected %zu values (one per resource),"
                                     " found %zu", R, json_array_size(arr));
    for (size_t r = 0; r < R && !rc; r++)
        rc = so_jin_num_at(in, arr, p, r, 0, MAX_VALUE, &out[r]);
    return rc;
}

static int read_resources(so_jin *in, json_t *root, json_t **names, size_t *R)
{
    json_t *arr = NULL;
    int rc = so_jin_array(in, root, "", "resources", SO_OPTIONAL, 1, &arr);
    if (rc)
        return rc;
    *names = arr;
    *R = arr ? json_array_size(arr) : 3;
    for (size_t r = 0; arr && r < *R; r++) {
        char p[64];
        so_jin_index(p, sizeof p, "resources", r);
        json_t *v = json_array_get(arr, r);
        if (!json_is_string(v) || !json_string_value(v)[0])
            return so_jin_fail(in, p, 0, "expected a resource name (a"
                                         " non-empty string)");
        for (size_t q = 0; q < r; q++)
            if (!strcmp(json_string_value(v),
                        json_string_value(json_array_get(arr, q))))
                return so_jin_fail(in, p, 0, "duplicate resource name '%s'",
                                   json_string_value(v));
    }
    return SO_OK;
}

/* Counts the TaskTrackers (the sum of the "count" fields). */
static int count_tasktrackers(so_jin *in, json_t *tts, size_t *TT)
{
    static const char *const keys[] = {"capacity", "count", NULL};
    *TT = 0;
    for (size_t i = 0; i < json_array_size(tts); i++) {
        char p[64];
        json_t *o;
        int64_t count = 1;
        so_jin_index(p, sizeof p, "tasktrackers", i);
        int rc = so_jin_object_at(in, tts, "tasktrackers", i, &o);
        if (!rc)
            rc = so_jin_keys(in, o, p, keys);
        if (!rc)
            rc = so_jin_int(in, o, p, "count", SO_OPTIONAL, 1, SO_RAS_MAX_TASKS,
                            &count);
        if (rc)
            return rc;
        *TT += (size_t)count;
        if (*TT > SO_RAS_MAX_TASKS)
            return so_jin_fail(in, p, 0, "more than %d TaskTrackers in all",
                               SO_RAS_MAX_TASKS);
    }
    return SO_OK;
}

static int read_tasktrackers(so_jin *in, json_t *tts, so_ras *ras)
{
    size_t tt = 0;
    for (size_t i = 0; i < json_array_size(tts); i++) {
        char p[64];
        json_t *o = json_array_get(tts, i);
        int64_t count = 1;
        so_jin_index(p, sizeof p, "tasktrackers", i);
        int rc = so_jin_int(in, o, p, "count", SO_OPTIONAL, 1, SO_RAS_MAX_TASKS,
                            &count);
        if (!rc)
            rc = read_vector(in, o, p, "capacity", SO_REQUIRED, ras->R,
                             &ras->capacity[tt * ras->R]);
        if (rc)
            return rc;
        for (int64_t c = 1; c < count; c++)
            memcpy(&ras->capacity[(tt + (size_t)c) * ras->R],
                   &ras->capacity[tt * ras->R], ras->R * sizeof(double));
        tt += (size_t)count;
    }
    return SO_OK;
}

static int read_s_req(so_jin *in, json_t *o, const char *p, so_ras_job *job)
{
    static const char *const goal_keys[] = {"t_goal", "t_avg", "now", NULL};
    json_t *goal = NULL, *sreq = NULL;
    int rc = so_jin_object(in, o, p, "goal", SO_OPTIONAL, &goal);
    if (!rc)
        rc = so_jin_get(in, o, p, "s_req", SO_OPTIONAL, &sreq);
    if (rc)
        return rc;
    char q[256];
    if (goal && sreq) {
        so_jin_path(q, sizeof q, p, "goal");
        return so_jin_fail(in, q, 1, "give either s_req or goal, not both");
    }
    if (sreq) {
        int64_t v;
        int64_t lo = job->s_pend ? 1 : 0;
        rc = so_jin_int(in, o, p, "s_req", SO_REQUIRED, lo, job->s_pend, &v);
        job->s_req = (int)v;
        return rc;
    }
    if (!goal) {
        job->s_req = job->s_pend;
        return SO_OK;
    }
    so_jin_path(q, sizeof q, p, "goal");
    rc = so_jin_keys(in, goal, q, goal_keys);
    if (!rc)
        rc = so_jin_num(in, goal, q, "t_goal", SO_REQUIRED, -1e15, 1e15,
                        &job->t_goal);
    if (!rc)
        rc = so_jin_num(in, goal, q, "now", SO_REQUIRED, -1e15, 1e15, &job->now);
    if (!rc)
        rc = so_jin_num(in, goal, q, "t_avg", SO_REQUIRED, 1e-9, 1e15,
                        &job->t_avg);
    if (rc)
        return rc;
    job->has_goal = 1;
    job->s_req = so_ras_s_req_from_goal(job->s_pend, job->t_goal, job->t_avg,
                                        job->now);
    return SO_OK;
}

static int read_demand(so_jin *in, json_t *o, const char *p, so_ras *ras,
                       so_ras_job *job)
{
    static const char *const keys[] = {"map", "shuffle", "shuffle_base",
                                       "reduce", NULL};
    json_t *d;
    char q[256];
    so_jin_path(q, sizeof q, p, "demand");
    int rc = so_jin_object(in, o, p, "demand", SO_REQUIRED, &d);
    if (!rc)
        rc = so_jin_keys(in, d, q, keys);
    if (!rc)
        rc = read_vector(in, d, q, "map", SO_REQUIRED, ras->R, job->map);
    if (!rc)
        rc = read_vector(in, d, q, "reduce",
                         job->r_pend > 0 ? SO_REQUIRED : SO_OPTIONAL, ras->R,
                         job->reduce);
    if (!rc)
        rc = read_vector(in, d, q, "shuffle", SO_OPTIONAL, ras->R, job->shuffle);
    if (rc)
        return rc;
    if (!json_object_get(d, "shuffle_base")) {
        for (size_t r = 0; r < ras->R; r++)
            if (!strcmp(ras->resources[r], "memory"))
                job->shuffle_base[r] = job->reduce[r];
        return SO_OK;
    }
    return read_vector(in, d, q, "shuffle_base", SO_REQUIRED, ras->R,
                       job->shuffle_base);
}

static int read_job(so_jin *in, json_t *jobs, size_t j, so_ras *ras)
{
    static const char *const keys[] = {"name", "s_pend", "r_pend", "s_req",
                                       "goal", "parallel_copies", "phase",
                                       "demand", NULL};
    so_ras_job *job = &ras->jobs[j];
    char p[64];
    json_t *o;
    so_jin_index(p, sizeof p, "jobs", j);
    int rc = so_jin_object_at(in, jobs, "jobs", j, &o);
    if (!rc)
        rc = so_jin_keys(in, o, p, keys);
    const char *name = NULL, *phase = "map";
    int64_t s_pend = 0, r_pend = 0, pc = 5;
    if (!rc)
        rc = so_jin_str(in, o, p, "name", SO_OPTIONAL, &name);
    if (!rc)
        rc = so_jin_int(in, o, p, "s_pend", SO_REQUIRED, 0, SO_RAS_MAX_TASKS,
                        &s_pend);
    if (!rc)
        rc = so_jin_int(in, o, p, "r_pend", SO_REQUIRED, 0, SO_RAS_MAX_TASKS,
                        &r_pend);
    if (!rc)
        rc = so_jin_int(in, o, p, "parallel_copies", SO_OPTIONAL, 1, 10000, &pc);
    if (!rc)
        rc = so_jin_str(in, o, p, "phase", SO_OPTIONAL, &phase);
    if (rc)
        return rc;
    if (strcmp(phase, "map") && strcmp(phase, "reduce")) {
        char q[256];
        so_jin_path(q, sizeof q, p, "phase");
        return so_jin_fail(in, q, 0, "expected \"map\" (reducers shuffle) or"
                                     " \"reduce\", found \"%s\"", phase);
    }
    char fallback[32];
    snprintf(fallback, sizeof fallback, "job%zu", j);
    job->name = strdup(name ? name : fallback);
    if (!job->name)
        return SO_ENOMEM;
    job->s_pend = (int)s_pend;
    job->r_pend = (int)r_pend;
    job->parallel_copies = (int)pc;
    job->reduce_phase = !strcmp(phase, "reduce");
    rc = read_s_req(in, o, p, job);
    if (!rc)
        rc = read_demand(in, o, p, ras, job);
    return rc;
}

static int read_json(so_jin *in, json_t *root, void **data)
{
    static const char *const keys[] = {"resources", "tasktrackers", "jobs",
                                       NULL};
    static const char *const default_resources[] = {"cpu", "io", "memory"};
    json_t *names = NULL, *tts = NULL, *jobs = NULL;
    size_t R = 0, TT = 0;
    int rc = so_jin_keys(in, root, "", keys);
    if (!rc)
        rc = read_resources(in, root, &names, &R);
    if (!rc)
        rc = so_jin_array(in, root, "", "tasktrackers", SO_REQUIRED, 1, &tts);
    if (!rc)
        rc = count_tasktrackers(in, tts, &TT);
    if (!rc)
        rc = so_jin_array(in, root, "", "jobs", SO_REQUIRED, 1, &jobs);
    if (rc)
        return rc;
    size_t J = json_array_size(jobs);
    if (J > SO_RAS_MAX_CELLS / TT)
        return so_jin_fail(in, "jobs", 0, "%zu jobs on %zu TaskTrackers exceed"
                                          " the limit of %d job-TaskTracker"
                                          " pairs", J, TT, SO_RAS_MAX_CELLS);
    so_ras *ras = so_ras_new(R, TT, J);
    if (!ras)
        return SO_ENOMEM;
    for (size_t r = 0; r < R && !rc; r++) {
        ras->resources[r] = strdup(names ? json_string_value(json_array_get(names, r))
                                         : default_resources[r]);
        if (!ras->resources[r])
            rc = SO_ENOMEM;
    }
    if (!rc)
        rc = read_tasktrackers(in, tts, ras);
    for (size_t j = 0; j < J && !rc; j++)
        rc = read_job(in, jobs, j, ras);
    if (rc) {
        so_ras_free(ras);
        return rc;
    }
    *data = ras;
    return SO_OK;
}

/* ---- writing ------------------------------------------------------------ */

static json_t *vector_json(const double *v, size_t R)
{
    json_t *a = json_array();
    for (size_t r = 0; r < R; r++)
        json_array_append_new(a, json_real(v[r]));
    return a;
}

static json_t *job_json(const so_ras *ras, const so_ras_job *job)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(job->name));
    json_object_set_new(o, "s_pend", json_integer(job->s_pend));
    json_object_set_new(o, "r_pend", json_integer(job->r_pend));
    if (job->has_goal) {
        json_t *g = json_object();
        json_object_set_new(g, "t_goal", json_real(job->t_goal));
        json_object_set_new(g, "t_avg", json_real(job->t_avg));
        json_object_set_new(g, "now", json_real(job->now));
        json_object_set_new(o, "goal", g);
    } else {
        json_object_set_new(o, "s_req", json_integer(job->s_req));
    }
    json_object_set_new(o, "parallel_copies", json_integer(job->parallel_copies));
    json_object_set_new(o, "phase", json_string(job->reduce_phase ? "reduce" : "map"));
    json_t *d = json_object();
    json_object_set_new(d, "map", vector_json(job->map, ras->R));
    json_object_set_new(d, "shuffle", vector_json(job->shuffle, ras->R));
    json_object_set_new(d, "shuffle_base", vector_json(job->shuffle_base, ras->R));
    json_object_set_new(d, "reduce", vector_json(job->reduce, ras->R));
    json_object_set_new(o, "demand", d);
    return o;
}

json_t *so_ras_to_json(const so_ras *ras)
{
    json_t *o = json_object(), *res = json_array(), *tts = json_array(),
           *jobs = json_array();
    for (size_t r = 0; r < ras->R; r++)
        json_array_append_new(res, json_string(ras->resources[r]));
    /* runs of identical TaskTrackers become one entry with a count */
    for (size_t tt = 0; tt < ras->TT;) {
        const double *cap = &ras->capacity[tt * ras->R];
        size_t n = 1;
        while (tt + n < ras->TT &&
               !memcmp(cap, &ras->capacity[(tt + n) * ras->R],
                       ras->R * sizeof(double)))
            n++;
        json_t *t = json_object();
        json_object_set_new(t, "capacity", vector_json(cap, ras->R));
        if (n > 1)
            json_object_set_new(t, "count", json_integer((json_int_t)n));
        json_array_append_new(tts, t);
        tt += n;
    }
    for (size_t j = 0; j < ras->J; j++)
        json_array_append_new(jobs, job_json(ras, &ras->jobs[j]));
    json_object_set_new(o, "resources", res);
    json_object_set_new(o, "tasktrackers", tts);
    json_object_set_new(o, "jobs", jobs);
    return o;
}

static json_t *to_json(const void *d) { return so_ras_to_json(d); }

static int build_glpk(const void *d, glp_prob *lp, so_error *err)
{
    (void)err;
    so_ras_model m;
    return so_ras_build_model(d, lp, &m);
}

const so_formulation so_ras_formulation = {
    .name = "ras",
    .description = "RAS job-slot placement: max-min job utility, then"
                   " utilisation, under multi-resource TaskTracker capacities",
    .sense = SO_MAXIMIZE,
    .read_json = read_json,
    .to_json = to_json,
    .free_data = free_data,
    .read_text = NULL,
    .build_glpk = build_glpk,
};
