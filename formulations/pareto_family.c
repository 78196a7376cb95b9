/* pareto_family.c — the `pareto-yahoo` and `pareto-taobao` instance families
 * (Zacheilas and Kalogeraki 2017, section 6.2; SPEC section 2):
 *   Yahoo!  map task time normal(50, 200), reduce normal(100, 300), map task
 *           count normal(154, 558), reduce count normal(19, 145), all
 *           truncated to positive values (by redrawing); deadline 4000 s;
 *           budget $10..$80.
 *   Taobao  map task time lognormal(1.95, 1.67), reduce lognormal(3.52,
 *           1.56) (parameters of the underlying normal); deadline 3000 s;
 *           budget $10..$80 and task counts as for Yahoo! (the paper gives
 *           neither for Taobao).
 * VM $1/hour, 2 map and 2 reduce slots per VM (the paper's cluster), I/O
 * $0.05 per million requests; no map-output model (the paper had no I/O
 * data for these traces, so it did not tune buffers on them).
 * The project's choices to turn one drawn task time t0 at the job's count N
 * into profiles t(n) = a + b/n: a = overhead * t0 (per-task fixed cost),
 * b = (1 - overhead) * t0 * N (work shared among the tasks), so t(N) = t0;
 * tmax = (1 + s) tavg with s ~ U[0, straggler] per phase; the shuffle
 * profile is `shuffle` times the reduce profile.
 *
 * Calibration (issue 14; docs/pareto.md, "Families"): the paper's
 * "normal distribution with 50 mean and 200 standard deviation" cannot be a
 * normal of task times (a quarter of its mass is below -85 s); truncating it
 * at 0 by redrawing makes the mean about 180 s instead of 50, and the task
 * counts' normal(154, 558) a mean of about 480 instead of 154, so the
 * cheapest ten-job plan meeting 4000 s costs $125-$400. With `draw=
 * lognormal` (default) every (mean, sd) the paper gives for Yahoo! and for
 * the task counts is the mean and standard deviation of a lognormal
 * (sigma^2 = ln(1 + sd^2/mean^2), mu = ln(mean) - sigma^2/2): positive,
 * heavy-tailed, with the paper's mean and spread. Counts are rounded to
 * nearest, at least 1. Taobao's task times keep their reading as the
 * underlying normal's parameters (a lognormal "with mean 1.95" seconds
 * would make 7 s median tasks with 1.95 s mean, impossible). `draw=
 * truncated` restores the redrawn truncated normals. `billing_seconds`
 * (3600: EC2's per-started-hour billing, the paper's "charged on a per hour
 * basis") is written into the instance's cluster. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/pareto.h"

#define COMMON_PARAMS                                                         \
    {"jobs", "10", "number of jobs"},                                         \
    {"budget_min", "10", "dollars"},                                          \
    {"budget_max", "80", "dollars"},                                          \
    {"slots_per_vm", "2", "map slots and reduce slots per VM"},               \
    {"overhead", "0.1", "fixed share of a task's time, in [0, 1)"},           \
    {"straggler", "0.5", "tmax / tavg - 1 drawn in [0, straggler]"},          \
    {"shuffle", "0.3", "shuffle task time as a fraction of the reduce time"}, \
    {"draw", "lognormal", "lognormal (paper's mean and sd as a lognormal's) " \
                          "or truncated (normal redrawn until positive)"},    \
    {"fit_deadline", "1", "1: redraw a job that alone misses the deadline"}, \
    {"billing_seconds", "3600", "VM billing period, seconds (0: per second)"}

const so_option_doc so_pt_yahoo_params[] = {
    COMMON_PARAMS,
    {"deadline", "4000", "seconds"},
    {NULL, NULL, NULL},
};

const so_option_doc so_pt_taobao_params[] = {
    COMMON_PARAMS,
    {"deadline", "3000", "seconds"},
    {NULL, NULL, NULL},
};

typedef struct {
    long long jobs, slots;
    double deadline, budget_min, budget_max, overhead, straggler, shuffle;
    double billing;
    long long fit;
    int lognormal;
} settings;

static double positive_normal(so_rng *rng, double mean, double sd)
{
    double x;
    do
        x = so_rng_normal(rng, mean, sd);
    while (!(x > 0));
    return x;
}

static int64_t positive_count(so_rng *rng, double mean, double sd)
{
    double x;
    do
        x = nearbyint(so_rng_normal(rng, mean, sd));
    while (x < 1);
    return (int64_t)x;
}

/* A lognormal with the given mean and standard deviation. */
static double lognormal_moments(so_rng *rng, double mean, double sd)
{
    double s2 = log1p(sd * sd / (mean * mean));
    return so_rng_lognormal(rng, log(mean) - s2 / 2, sqrt(s2));
}

static double draw_time(so_rng *rng, const settings *s, double mean, double sd)
{
    return s->lognormal ? lognormal_moments(rng, mean, sd) : positive_normal(rng, mean, sd);
}

static int64_t draw_count(so_rng *rng, const settings *s, double mean, double sd)
{
    if (!s->lognormal)
        return positive_count(rng, mean, sd);
    double x = nearbyint(lognormal_moments(rng, mean, sd));
    return x < 1 ? 1 : x > 1e7 ? 10000000 : (int64_t)x;
}

static so_pt_profile profile(double t0, int64_t n, const settings *s, so_rng *rng)
{
    so_pt_profile p;
    p.avg.a = s->overhead * t0;
    p.avg.b = (1 - s->overhead) * t0 * (double)n;
    double k = 1 + s->straggler * so_rng_uniform(rng);
    p.max.a = k * p.avg.a;
    p.max.b = k * p.avg.b;
    return p;
}

/* One job's task counts and map and reduce profiles. */
static void draw_job(so_pt_job *jb, const settings *s, int taobao, so_rng *rng)
{
    jb->map_tasks = draw_count(rng, s, 154, 558);
    jb->reduce_tasks = draw_count(rng, s, 19, 145);
    double tm = taobao ? so_rng_lognormal(rng, 1.95, 1.67) : draw_time(rng, s, 50, 200);
    double tr = taobao ? so_rng_lognormal(rng, 3.52, 1.56) : draw_time(rng, s, 100, 300);
    jb->phase[SO_PT_MAP] = profile(tm, jb->map_tasks, s, rng);
    jb->phase[SO_PT_REDUCE] = profile(tr, jb->reduce_tasks, s, rng);
    so_pt_profile sh = jb->phase[SO_PT_REDUCE];
    sh.avg.a *= s->shuffle;
    sh.avg.b *= s->shuffle;
    sh.max.a *= s->shuffle;
    sh.max.b *= s->shuffle;
    jb->phase[SO_PT_SHUFFLE] = sh;
}

/* The job's least time: a slot per task (jtime does not grow with slots). */
static double fastest_time(const so_pt_job *jb)
{
    so_pt_alloc a = {jb->map_tasks, jb->reduce_tasks, jb->map_tasks,
                     jb->reduce_tasks, jb->buffer};
    return so_pt_jtime(jb, &a);
}

#define MAX_TRIES 1000

static int read_settings(const so_params *set, const so_option_doc *d,
                         settings *s, so_error *err)
{
    int rc = so_params_int(set, d, "jobs", 10, &s->jobs, err);
    if (!rc)
        rc = so_params_int(set, d, "slots_per_vm", 2, &s->slots, err);
    if (!rc)
        rc = so_params_double(set, d, "deadline", 4000, &s->deadline, err);
    if (!rc)
        rc = so_params_double(set, d, "budget_min", 10, &s->budget_min, err);
    if (!rc)
        rc = so_params_double(set, d, "budget_max", 80, &s->budget_max, err);
    if (!rc)
        rc = so_params_double(set, d, "overhead", 0.1, &s->overhead, err);
    if (!rc)
        rc = so_params_double(set, d, "straggler", 0.5, &s->straggler, err);
    if (!rc)
        rc = so_params_double(set, d, "shuffle", 0.3, &s->shuffle, err);
    if (!rc)
        rc = so_params_double(set, d, "billing_seconds", 3600, &s->billing, err);
    if (rc)
        return rc;
    if (!rc)
        rc = so_params_int(set, d, "fit_deadline", 1, &s->fit, err);
    if (rc)
        return rc;
    if (s->fit != 0 && s->fit != 1)
        return so_error_setf(err, NULL, 0, 0, "fit_deadline", "expected 0 or 1, found %lld", s->fit);
    const char *draw = so_params_str(set, d, "draw", "lognormal");
    s->lognormal = !strcmp(draw, "lognormal");
    if (!s->lognormal && strcmp(draw, "truncated"))
        return so_error_setf(err, NULL, 0, 0, "draw", "expected lognormal or truncated, found '%s'", draw);
    if (!(s->billing >= 0 && s->billing <= 1e9))
        return so_error_setf(err, NULL, 0, 0, "billing_seconds", "expected [0, 1e9], found %g", s->billing);
    if (s->jobs < 1 || s->jobs > 100000)
        return so_error_setf(err, NULL, 0, 0, "jobs", "expected 1..100000, found %lld", s->jobs);
    if (s->slots < 1 || s->slots > 1000)
        return so_error_setf(err, NULL, 0, 0, "slots_per_vm", "expected 1..1000, found %lld", s->slots);
    if (!(s->deadline > 0))
        return so_error_setf(err, NULL, 0, 0, "deadline", "expected seconds > 0, found %g", s->deadline);
    if (!(s->budget_min >= 0 && s->budget_min <= s->budget_max))
        return so_error_setf(err, NULL, 0, 0, "budget_min",
                             "expected 0 <= budget_min <= budget_max, found %g > %g",
                             s->budget_min, s->budget_max);
    if (!(s->overhead >= 0 && s->overhead < 1))
        return so_error_setf(err, NULL, 0, 0, "overhead", "expected [0, 1), found %g", s->overhead);
    if (!(s->straggler >= 0 && s->straggler <= 100))
        return so_error_setf(err, NULL, 0, 0, "straggler", "expected [0, 100], found %g", s->straggler);
    if (!(s->shuffle >= 0 && s->shuffle <= 100))
        return so_error_setf(err, NULL, 0, 0, "shuffle", "expected [0, 100], found %g", s->shuffle);
    return SO_OK;
}

static int generate(const so_params *set, so_rng *rng, json_t **out,
                    so_error *err, int taobao)
{
    settings s;
    int rc = read_settings(set, taobao ? so_pt_taobao_params : so_pt_yahoo_params,
                           &s, err);
    if (rc)
        return rc;
    so_pareto pr = {s.slots, s.slots, 1.0, 0.05e-6, 4096, 0, s.budget_min,
                    s.budget_max, s.deadline, (size_t)s.jobs, NULL, s.billing};
    pr.jobs = calloc((size_t)s.jobs, sizeof *pr.jobs);
    if (!pr.jobs)
        return SO_ENOMEM;
    for (size_t j = 0; j < pr.n_jobs; j++) {
        so_pt_job *jb = &pr.jobs[j];
        snprintf(jb->name, sizeof jb->name, "%s%zu", taobao ? "taobao" : "yahoo", j);
        int tries = 0;
        do {
            if (++tries > MAX_TRIES) {
                free(pr.jobs);
                return so_error_setf(err, NULL, 0, 0, "deadline",
                                     "no job of %d draws meets the deadline %g s alone;"
                                     " raise it or set fit_deadline=0", MAX_TRIES, s.deadline);
            }
            draw_job(jb, &s, taobao, rng);
        } while (s.fit && fastest_time(jb) > s.deadline);
        jb->buffer = (so_pt_buffer){100, 0.05, 0.8};
        jb->lo = (so_pt_buffer){128, 0.01, 0.5};
        jb->hi = (so_pt_buffer){512, 0.5, 0.99};
    }
    json_t *body = so_pareto_to_json(&pr);
    free(pr.jobs);
    json_t *inst = json_pack("{sssi}", "problem", "pareto", "version", 1);
    json_object_update(inst, body);
    json_decref(body);
    *out = inst;
    return SO_OK;
}

int so_pt_yahoo_generate(const so_params *set, so_rng *rng, json_t **out,
                         so_error *err)
{
    return generate(set, rng, out, err, 0);
}

int so_pt_taobao_generate(const so_params *set, so_rng *rng, json_t **out,
                          so_error *err)
{
    return generate(set, rng, out, err, 1);
}
