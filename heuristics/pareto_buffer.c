/* pareto_buffer.c — map-buffer tuning: Zacheilas and Kalogeraki 2017,
 * section 4.4, Algorithm 5 (random search over mBuffer, metaPercent and bThr
 * minimising the I/O cost of Eq. 13 with Eq. 18-21), the alternatives the
 * paper's Figs. 18-19 compare it with (an exhaustive grid), and a
 * derivative-free method from NLopt (DIRECT-L; the cost is piecewise
 * smooth with jumps where the spill count changes, so a global method).
 * Choices: samples are uniform within the job's bounds (the paper's
 * section 3 intervals, narrowed by the instance's ranges); the tuned buffer
 * of a (job, map task count) pair is drawn from its own random stream
 * (seed, job << 32 | mt), so results do not depend on the order of calls. */
#include <math.h>
#include <nlopt.h>
#include <stdlib.h>
#include <string.h>
#include "heuristics/pareto_heuristics.h"

static double uniform(so_rng *rng, double lo, double hi)
{
    return lo + (hi - lo) * so_rng_uniform(rng);
}

so_pt_buffer so_pt_buffer_random(const so_pareto *pr, const so_pt_job *job,
                                 int64_t mt, long samples, so_rng *rng,
                                 double *io_cost)
{
    so_pt_buffer best = job->buffer;
    double cost = INFINITY;
    for (long it = 0; it < samples; it++) {
        so_pt_buffer b;
        b.size_mb = uniform(rng, job->lo.size_mb, job->hi.size_mb);
        b.meta_percent = uniform(rng, job->lo.meta_percent, job->hi.meta_percent);
        b.threshold = uniform(rng, job->lo.threshold, job->hi.threshold);
        double c = so_pt_io_cost(pr, job, mt, &b);
        if (c > cost || (c == cost && b.size_mb > best.size_mb))
            continue;
        cost = c;
        best = b;
    }
    *io_cost = isinf(cost) ? so_pt_io_cost(pr, job, mt, &best) : cost;
    return best;
}

typedef struct {
    const so_pareto *pr;
    const so_pt_job *job;
    int64_t mt;
} nlopt_ctx;

static double nlopt_cost(unsigned n, const double *x, double *grad, void *data)
{
    (void)n;
    (void)grad;
    const nlopt_ctx *c = data;
    so_pt_buffer b = {x[0], x[1], x[2]};
    return so_pt_io_cost(c->pr, c->job, c->mt, &b);
}

int so_pt_buffer_nlopt(const so_pareto *pr, const so_pt_job *job, int64_t mt,
                       long evals, so_pt_buffer *out, double *io_cost)
{
    double lo[3] = {job->lo.size_mb, job->lo.meta_percent, job->lo.threshold};
    double hi[3] = {job->hi.size_mb, job->hi.meta_percent, job->hi.threshold};
    double x[3];
    for (int i = 0; i < 3; i++)
        x[i] = (lo[i] + hi[i]) / 2;
    nlopt_opt opt = nlopt_create(NLOPT_GN_DIRECT_L, 3);
    if (!opt)
        return SO_ENOMEM;
    nlopt_ctx ctx = {pr, job, mt};
    double f = INFINITY;
    nlopt_result res = nlopt_set_lower_bounds(opt, lo);
    if (res > 0)
        res = nlopt_set_upper_bounds(opt, hi);
    if (res > 0)
        res = nlopt_set_min_objective(opt, nlopt_cost, &ctx);
    if (res > 0)
        res = nlopt_set_maxeval(opt, (int)(evals > 0 ? evals : 1));
    if (res > 0)
        res = nlopt_optimize(opt, x, &f);
    nlopt_destroy(opt);
    if (res < 0 && res != NLOPT_ROUNDOFF_LIMITED)
        return SO_EBACKEND;
    *out = (so_pt_buffer){x[0], x[1], x[2]};
    *io_cost = so_pt_io_cost(pr, job, mt, out);
    return SO_OK;
}

so_pt_buffer so_pt_buffer_grid(const so_pareto *pr, const so_pt_job *job,
                               int64_t mt, double mb_step, double pct_step,
                               double *io_cost, double *worst)
{
    so_pt_buffer best = job->buffer;
    double cost = INFINITY, bad = 0;
    const double tol = 1e-9;
    for (double mb = job->lo.size_mb; mb <= job->hi.size_mb + tol; mb += mb_step)
        for (double mp = job->lo.meta_percent; mp <= job->hi.meta_percent + tol;
             mp += pct_step)
            for (double th = job->lo.threshold; th <= job->hi.threshold + tol;
                 th += pct_step) {
                so_pt_buffer b = {mb, mp, th};
                double c = so_pt_io_cost(pr, job, mt, &b);
                bad = fmax(bad, c);
                if (c < cost) {
                    cost = c;
                    best = b;
                }
            }
    *io_cost = isinf(cost) ? so_pt_io_cost(pr, job, mt, &best) : cost;
    if (worst)
        *worst = bad;
    return best;
}

struct so_pt_tuner {
    const so_pareto *pr;
    int method;
    long samples;
    uint64_t seed;
    so_pt_buffer **cache; /* per job, indexed by mt; size_mb 0 = not yet */
};

so_pt_tuner *so_pt_tuner_new(const so_pareto *pr, int method, long samples,
                             uint64_t seed)
{
    so_pt_tuner *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    *t = (so_pt_tuner){pr, method, samples, seed, NULL};
    t->cache = calloc(pr->n_jobs ? pr->n_jobs : 1, sizeof *t->cache);
    if (!t->cache) {
        free(t);
        return NULL;
    }
    return t;
}

void so_pt_tuner_free(so_pt_tuner *t)
{
    if (!t)
        return;
    for (size_t j = 0; j < t->pr->n_jobs; j++)
        free(t->cache[j]);
    free(t->cache);
    free(t);
}

int so_pt_tuner_get(so_pt_tuner *t, size_t j, int64_t mt, so_pt_buffer *out)
{
    const so_pt_job *job = &t->pr->jobs[j];
    if (t->method == SO_PT_TUNE_NONE || !job->has_output) {
        *out = job->buffer;
        return SO_OK;
    }
    if (!t->cache[j]) {
        t->cache[j] = calloc((size_t)job->map_tasks + 1, sizeof **t->cache);
        if (!t->cache[j])
            return SO_ENOMEM;
    }
    so_pt_buffer *slot = &t->cache[j][mt];
    if (slot->size_mb == 0) {
        double cost;
        if (t->method == SO_PT_TUNE_RANDOM) {
            so_rng rng;
            so_rng_seed_stream(&rng, t->seed, ((uint64_t)j << 32) | (uint64_t)mt);
            *slot = so_pt_buffer_random(t->pr, job, mt, t->samples, &rng, &cost);
        } else if (t->method == SO_PT_TUNE_NLOPT) {
            int rc = so_pt_buffer_nlopt(t->pr, job, mt, t->samples, slot, &cost);
            if (rc)
                return rc;
        } else {
            *slot = so_pt_buffer_grid(t->pr, job, mt, 25.0, 0.01, &cost, NULL);
        }
    }
    *out = *slot;
    return SO_OK;
}

int so_pt_tune_instance(so_pareto *pr, int method, long samples, uint64_t seed)
{
    so_pt_tuner *t = so_pt_tuner_new(pr, method, samples, seed);
    if (!t)
        return SO_ENOMEM;
    int rc = SO_OK;
    so_pt_buffer *tuned = malloc(pr->n_jobs * sizeof *tuned);
    if (!tuned)
        rc = SO_ENOMEM;
    for (size_t j = 0; !rc && j < pr->n_jobs; j++)
        rc = so_pt_tuner_get(t, j, pr->jobs[j].map_tasks, &tuned[j]);
    for (size_t j = 0; !rc && j < pr->n_jobs; j++)
        pr->jobs[j].buffer = tuned[j];
    free(tuned);
    so_pt_tuner_free(t);
    return rc;
}

int so_pt_buffer_options(const so_params *prm, const so_option_doc *docs,
                         int *method, long *samples, so_error *err)
{
    static const char *const names[] = {"fixed", "random", "nlopt", "grid"};
    const char *buffer = so_params_str(prm, docs, "buffer", "fixed");
    long long n;
    int rc = so_params_int(prm, docs, "samples", 10000, &n, err);
    if (rc)
        return rc;
    if (n < 1 || n > 100000000)
        return so_error_setf(err, NULL, 0, 0, "samples", "expected 1..1e8, found %lld", n);
    *samples = (long)n;
    for (int i = 0; i < 4; i++)
        if (!strcmp(buffer, names[i])) {
            *method = i;
            return SO_OK;
        }
    return so_error_setf(err, NULL, 0, 0, "buffer",
                         "expected fixed, random, nlopt or grid, found '%s'", buffer);
}

int so_pt_tuned_copy(const so_pareto *pr, const so_params *prm,
                     const so_option_doc *docs, so_pareto **copy, so_error *err)
{
    int method;
    long samples;
    *copy = NULL;
    int rc = so_pt_buffer_options(prm, docs, &method, &samples, err);
    if (rc || method == SO_PT_TUNE_NONE)
        return rc;
    *copy = so_pareto_copy(pr);
    if (!*copy)
        return SO_ENOMEM;
    rc = so_pt_tune_instance(*copy, method, samples, prm->seed);
    if (rc) {
        so_pareto_free(*copy);
        *copy = NULL;
    }
    return rc;
}
