/*
 * variability.c — per-attempt task-time noise and transient node
 * slow-downs (issue 32, item 3), beside the workload's fixed slow nodes.
 * Both off by default: every report is then as before, bit for bit (the
 * factors are exactly 1). docs/cluster.md, "Variability".
 *
 *   noise_cv C > 0: every attempt's duration is multiplied by a draw of a
 *     lognormal of mean 1 and coefficient of variation C (sigma^2 =
 *     ln(1 + C^2), mu = -sigma^2 / 2), drawn at launch: a copy of a task
 *     draws its own. Positive and long-tailed, as production task
 *     durations are (Kavulya et al., "An Analysis of Traces from a
 *     Production MapReduce Cluster", CCGrid 2010; outliers: Ananthanarayanan
 *     et al., "Reining in the Outliers in Map-Reduce Clusters using
 *     Mantri", OSDI 2010); the lognormal is our choice.
 *   slowdown_gap G > 0: every node, independently, is slowed from time to
 *     time (a co-located process, a failing disk, a hot spot — Mantri's
 *     contention outliers): slow spells begin after exponential gaps of
 *     mean G seconds (a Poisson process per node) and last exponential
 *     times of mean slowdown_length seconds, during which the node runs at
 *     slowdown_speed x its speed. Policies do not see it (a JobTracker
 *     does not know a node's load); they see only what it does to the
 *     attempts' progress.
 * Draws come from so_rng streams of the run's seed: 2 for the noise (one
 * draw per launched attempt, in launch order), 3 + node for the node's
 * spells; the same seed gives the same run.
 */
#include <math.h>
#include <stdlib.h>
#include "cluster/physics.h"

static const char *const keys[] = {"noise_cv", "slowdown_gap",
                                   "slowdown_length", "slowdown_speed", NULL};
static const double lo[] = {0, 0, 0.001, 0.001};
static const double hi[] = {10, 1e9, 1e9, 1};
static const double def[] = {0, 0, 60, 0.5};

int so_cl_variability_setup(so_cl_sim *s, const so_params *prm, so_error *err)
{
    double v[4];
    for (int k = 0; keys[k]; k++) {
        v[k] = def[k];
        const char *t = prm ? so_params_get(prm, keys[k]) : NULL;
        if (!t)
            continue;
        char *end;
        v[k] = strtod(t, &end);
        if (end == t || *end || !(v[k] >= lo[k] && v[k] <= hi[k]))
            return so_error_setf(err, NULL, 0, 0, keys[k],
                                 "expected a number in [%g, %g], found '%s'",
                                 lo[k], hi[k], t);
    }
    s->noise_cv = v[0];
    s->slow_gap = v[1];
    s->slow_length = v[2];
    s->slow_speed = v[3];
    if (s->noise_cv > 0) {
        s->noise_sigma = sqrt(log(1 + s->noise_cv * s->noise_cv));
        so_rng_seed_stream(&s->noise_rng, s->cfg.seed, 2);
    }
    return SO_OK;
}

double so_cl_noise_rate(so_cl_sim *s)
{
    if (!(s->noise_cv > 0))
        return 1;
    double sg = s->noise_sigma;
    return 1 / so_rng_lognormal(&s->noise_rng, -sg * sg / 2, sg);
}

/* The next spell change of node n: a spell's start after a gap, its end
 * after its length. */
static void schedule(so_cl_sim *s, int n)
{
    so_cl_nodert *nd = &s->nodes[n];
    double mean = nd->slowed ? s->slow_length : s->slow_gap;
    (void)so_cl_push(s, s->now + so_rng_exponential(&nd->spell_rng, mean),
                     SO_CL_EV_SLOW, n);
}

void so_cl_variability_start(so_cl_sim *s)
{
    if (!(s->slow_gap > 0))
        return;
    for (int n = 0; n < s->w->n_nodes; n++) {
        so_rng_seed_stream(&s->nodes[n].spell_rng, s->cfg.seed, 3 + (uint64_t)n);
        schedule(s, n);
    }
}

void so_cl_slowdown_event(so_cl_sim *s, int n)
{
    so_cl_nodert *nd = &s->nodes[n];
    nd->slowed = !nd->slowed;
    nd->slow = nd->slowed ? s->slow_speed : 1;
    so_cl_rate_node_speed(s, n);
    if (s->jobs_done < s->w->n_jobs)
        schedule(s, n);
}
