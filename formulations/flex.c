/* flex.c — the FLEX instance: memory, validation and the per-job penalty
 * functions of Wolf et al. (Middleware 2010), Section 2.1 and Fig. 1, as
 * restated in SPEC section 1. Choices: stretch uses W_j = C_j / M_j (the
 * job alone at full width); a job is tardy when t > d_j (1 + 1e-9) + 1e-9,
 * so that completion times equal to a deadline up to rounding are on time;
 * the SLA penalty is sum_i w_ij [t > d_ij] (SPEC), i.e. the steps add up. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/flex.h"

static const char *const metric_names[SO_FLEX_NMETRICS] = {
    "response", "weighted-response", "stretch", "makespan",
    "tardy", "weighted-tardy", "tardiness", "weighted-tardiness",
    "lateness", "weighted-lateness", "sla",
};

const char *so_flex_metric_name(int metric)
{
    return metric >= 0 && metric < SO_FLEX_NMETRICS ? metric_names[metric] : "?";
}

int so_flex_metric_parse(const char *name)
{
    for (int m = 0; m < SO_FLEX_NMETRICS; m++)
        if (strcmp(name, metric_names[m]) == 0)
            return m;
    return -1;
}

so_flex *so_flex_new(size_t n, size_t n_sla)
{
    so_flex *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    size_t k = n ? n : 1, q = n_sla ? n_sla : 1;
    f->n = n;
    f->work = calloc(k, sizeof *f->work);
    f->min = calloc(k, sizeof *f->min);
    f->max = calloc(k, sizeof *f->max);
    f->weight = calloc(k, sizeof *f->weight);
    f->deadline = calloc(k, sizeof *f->deadline);
    f->sla_start = calloc(n + 1, sizeof *f->sla_start);
    f->sla_deadline = calloc(q, sizeof *f->sla_deadline);
    f->sla_penalty = calloc(q, sizeof *f->sla_penalty);
    if (!f->work || !f->min || !f->max || !f->weight || !f->deadline ||
        !f->sla_start || !f->sla_deadline || !f->sla_penalty) {
        so_flex_free(f);
        return NULL;
    }
    for (size_t j = 0; j < n; j++)
        f->weight[j] = 1.0;
    return f;
}

void so_flex_free(so_flex *f)
{
    if (!f)
        return;
    free(f->work);
    free(f->min);
    free(f->max);
    free(f->weight);
    free(f->deadline);
    free(f->sla_start);
    free(f->sla_deadline);
    free(f->sla_penalty);
    free(f);
}

so_flex *so_flex_copy(const so_flex *f)
{
    size_t q = f->sla_start[f->n];
    so_flex *c = so_flex_new(f->n, q);
    if (!c)
        return NULL;
    c->slots = f->slots;
    c->metric = f->metric;
    c->aggregate = f->aggregate;
    memcpy(c->work, f->work, f->n * sizeof *f->work);
    memcpy(c->min, f->min, f->n * sizeof *f->min);
    memcpy(c->max, f->max, f->n * sizeof *f->max);
    memcpy(c->weight, f->weight, f->n * sizeof *f->weight);
    memcpy(c->deadline, f->deadline, f->n * sizeof *f->deadline);
    memcpy(c->sla_start, f->sla_start, (f->n + 1) * sizeof *f->sla_start);
    memcpy(c->sla_deadline, f->sla_deadline, q * sizeof *f->sla_deadline);
    memcpy(c->sla_penalty, f->sla_penalty, q * sizeof *f->sla_penalty);
    return c;
}

const so_flex *so_flex_of(const so_problem *p)
{
    const so_flex *f = so_problem_data(p, &so_flex_formulation);
    return f ? f : so_problem_data(p, &so_rap_formulation);
}

int so_flex_problem(so_flex *f, const char *name, so_problem **out)
{
    return so_problem_wrap(&so_flex_formulation, f, name, out);
}

int so_rap_problem(so_flex *f, const char *name, so_problem **out)
{
    return so_problem_wrap(&so_rap_formulation, f, name, out);
}

int so_flex_validate(const so_flex *f, char *why, size_t size)
{
    int64_t sum_min = 0;
    if (f->slots < 1) {
        snprintf(why, size, "slots must be >= 1");
        return SO_EINVAL;
    }
    if (f->metric < 0 || f->metric >= SO_FLEX_NMETRICS ||
        (f->aggregate != SO_FLEX_SUM && f->aggregate != SO_FLEX_MAX)) {
        snprintf(why, size, "unknown metric or aggregate");
        return SO_EINVAL;
    }
    for (size_t j = 0; j < f->n; j++) {
        if (!(f->work[j] >= SO_FLEX_MIN_WORK && f->work[j] <= SO_FLEX_MAX_VALUE)) {
            snprintf(why, size, "job %zu: work must be a positive number in"
                                " [%g, %g]", j, SO_FLEX_MIN_WORK, SO_FLEX_MAX_VALUE);
            return SO_EINVAL;
        }
        if (f->max[j] < 1 || f->max[j] > f->slots || f->min[j] < 0 ||
            f->min[j] > f->max[j]) {
            snprintf(why, size, "job %zu: need 0 <= min <= max, 1 <= max <= slots", j);
            return SO_EINVAL;
        }
        if (!(f->weight[j] >= 0 && f->weight[j] <= SO_FLEX_MAX_VALUE) ||
            !(fabs(f->deadline[j]) <= SO_FLEX_MAX_VALUE)) {
            snprintf(why, size, "job %zu: need 0 <= weight <= %g, |deadline| <= %g",
                     j, SO_FLEX_MAX_VALUE, SO_FLEX_MAX_VALUE);
            return SO_EINVAL;
        }
        for (size_t i = f->sla_start[j]; i < f->sla_start[j + 1]; i++)
            if (!(f->sla_penalty[i] >= 0 && f->sla_penalty[i] <= SO_FLEX_MAX_VALUE) ||
                !(fabs(f->sla_deadline[i]) <= SO_FLEX_MAX_VALUE) ||
                (i > f->sla_start[j] &&
                 (f->sla_deadline[i] < f->sla_deadline[i - 1] ||
                  f->sla_penalty[i] < f->sla_penalty[i - 1]))) {
                snprintf(why, size, "job %zu: SLA steps must be non-decreasing"
                                    " with penalties >= 0, values within %g", j,
                         SO_FLEX_MAX_VALUE);
                return SO_EINVAL;
            }
        sum_min += f->min[j];
    }
    if (sum_min > f->slots) {
        snprintf(why, size, "the minima add up to %lld > %lld slots",
                 (long long)sum_min, (long long)f->slots);
        return SO_EINVAL;
    }
    return SO_OK;
}

static int late(double t, double d)
{
    return t > d + SO_FLEX_EPS * (1.0 + fabs(d));
}

double so_flex_omega(const so_flex *f, size_t j)
{
    switch (f->metric) {
    case SO_FLEX_RESPONSE:
    case SO_FLEX_MAKESPAN:
    case SO_FLEX_TARDY:
    case SO_FLEX_TARDINESS:
    case SO_FLEX_LATENESS:
    case SO_FLEX_SLA: return 1.0;
    case SO_FLEX_STRETCH: return (double)f->max[j] / f->work[j];
    default: return f->weight[j];
    }
}

int so_flex_linear(const so_flex *f, size_t j, double *omega, double *beta)
{
    double w = so_flex_omega(f, j);
    switch (f->metric) {
    case SO_FLEX_RESPONSE:
    case SO_FLEX_WRESPONSE:
    case SO_FLEX_STRETCH:
    case SO_FLEX_MAKESPAN:
        *omega = w;
        *beta = 0;
        return 1;
    case SO_FLEX_LATENESS:
    case SO_FLEX_WLATENESS:
        *omega = w;
        *beta = -w * f->deadline[j];
        return 1;
    default: return 0;
    }
}

double so_flex_penalty(const so_flex *f, size_t j, double t)
{
    double w = so_flex_omega(f, j), d = f->deadline[j], p = 0;
    switch (f->metric) {
    case SO_FLEX_TARDY:
    case SO_FLEX_WTARDY: return late(t, d) ? w : 0.0;
    case SO_FLEX_TARDINESS:
    case SO_FLEX_WTARDINESS: return late(t, d) ? w * (t - d) : 0.0;
    case SO_FLEX_LATENESS:
    case SO_FLEX_WLATENESS: return w * (t - d);
    case SO_FLEX_SLA:
        for (size_t i = f->sla_start[j]; i < f->sla_start[j + 1]; i++)
            if (late(t, f->sla_deadline[i]))
                p += f->sla_penalty[i];
        return p;
    default: return w * t;
    }
}

double so_flex_objective(const so_flex *f, const double *completion)
{
    double v = f->aggregate == SO_FLEX_MAX ? -INFINITY : 0.0;
    for (size_t j = 0; j < f->n; j++) {
        double p = so_flex_penalty(f, j, completion[j]);
        if (f->aggregate == SO_FLEX_MAX)
            v = p > v ? p : v;
        else
            v += p;
    }
    return f->n ? v : 0.0;
}
