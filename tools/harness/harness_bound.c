/* harness_bound.c — the reference bounds of simulation cells by name, and
 * lp-bound's cell (cluster/offline_bound.c): per-job bounds as the cell's
 * responses (their p95 and max bound a run's), the bound on the sum of
 * responses as its mean, and as extras the parts of that bound, the bound
 * on the weighted sum and, when jobs have goals, the most that can meet
 * theirs and the least total tardiness.
 *
 * When a bound holds (docs/offline.md, "What the bound assumes"): a bound
 * reads the workload, not a run, so it is refused beside a policy whose
 * options can make an attempt faster than its profile (noise_cv > 0: a
 * lognormal draw below 1 shortens it) or change the workload or its
 * contention model (the SWIM reader's keys, map_slots, contention and the
 * physical model's parameters) unless the bound's cells get the same
 * values; at a cell, options set for every cell are checked the same way.
 * Transient slow-downs (slowdown_*) only slow a task: allowed. */
#include <stdlib.h>
#include <string.h>
#include "cluster/offline_bound.h"
#include "cluster/offline_opt.h"
#include "tools/harness/harness.h"
#include "tools/harness/harness_bound.h"

int so_harness_bound_kind(const char *spec)
{
    if (!strcmp(spec, SO_HARNESS_LOWER_BOUND))
        return SO_HBOUND_ANALYTIC;
    if (!strcmp(spec, SO_HARNESS_LP_BOUND))
        return SO_HBOUND_LP;
    if (!strcmp(spec, SO_HARNESS_OFFLINE_OPT))
        return SO_HBOUND_OPT;
    return SO_HBOUND_NONE;
}

/* noise_cv > 0 in prm: its text, else NULL */
static const char *noise(const so_params *prm)
{
    const char *v = so_params_get(prm, "noise_cv");
    return v && strtod(v, NULL) > 0 ? v : NULL;
}

static int swim_key(const char *key)
{
    for (const so_option_doc *d = so_cl_swim_options; d->key; d++)
        if (!strcmp(d->key, key))
            return 1;
    return 0;
}

/* The options that change the workload a bound reads or the speed a task
 * may reach: the SWIM reader's, contention and the physical model's. */
static int changes_workload(const char *key)
{
    if (swim_key(key))
        return 1;
    for (int k = 0; so_cl_physics_params[k]; k++)
        if (!strcmp(so_cl_physics_params[k], key))
            return 1;
    return !strcmp(key, "contention");
}

/* A workload-changing key one of a, b sets and the other does not or to
 * another value; NULL if none. */
static const char *differs(const so_params *a, const so_params *b)
{
    const so_params *pair[2] = {a, b};
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < pair[s]->n_options; i++) {
            const char *key = pair[s]->options[i].key;
            const char *x = so_params_get(a, key), *y = so_params_get(b, key);
            if (changes_workload(key) && (!x || !y || strcmp(x, y)))
                return key;
        }
    return NULL;
}

int so_harness_bound_check(const so_hconfig *c, so_error *err)
{
    for (size_t b = 0; b < c->n_policies; b++) {
        const so_hpolicy *bp = &c->policies[b];
        if (bp->scheduler)
            continue;
        for (size_t i = 0; i < c->n_policies; i++) {
            const so_hpolicy *p = &c->policies[i];
            if (!p->scheduler)
                continue;
            const char *v = noise(&p->options), *key = differs(&p->options, &bp->options);
            if (v)
                return so_error_setf(err, NULL, 0, 0, NULL, "policy '%s': noise_cv=%s lets a"
                                     " task finish faster than its work / speed, so '%s' is"
                                     " no bound for it (docs/offline.md): drop one of them",
                                     p->name, v, bp->name);
            if (key) {
                const char *x = so_params_get(&p->options, key);
                const char *y = so_params_get(&bp->options, key);
                return so_error_setf(err, NULL, 0, 0, NULL, "policy '%s' sets %s=%s and '%s'"
                                     " %s%s: a bound holds only for the workload and"
                                     " contention model it reads; give both the same options",
                                     p->name, key, x ? x : "(unset)", bp->name,
                                     y ? "sets " : "does not", y ? y : "");
            }
        }
    }
    return SO_OK;
}

int so_harness_bound_options(const so_params *prm, const char *bound, so_error *err)
{
    const char *v = noise(prm);
    if (v)
        return so_error_setf(err, NULL, 0, 0, NULL, "noise_cv=%s lets a task finish faster"
                             " than its work / speed, so %s is no bound under it"
                             " (docs/offline.md)", v, bound);
    for (int i = 0; i < prm->n_options; i++) {
        const char *key = prm->options[i].key;
        if (changes_workload(key) && !swim_key(key))
            return so_error_setf(err, NULL, 0, 0, NULL, "%s=%s: %s reads the contention"
                                 " model from the workload; set it in the workload's"
                                 " cluster.contention instead", key, prm->options[i].value,
                                 bound);
    }
    return SO_OK;
}

int so_harness_lp_bound(const so_cl_workload *w, uint64_t seed, double *resp, double *sum,
                        double *makespan, json_t *extras)
{
    so_cl_offline_bound b;
    int rc = so_cl_offline_bound_compute(w, seed, &b);
    if (rc)
        return rc;
    memcpy(resp, b.job, (size_t)w->n_jobs * sizeof *resp);
    *sum = b.sum;
    *makespan = b.makespan;
    json_t *parts = json_pack("{s:f,s:f,s:f,s:f,s:b,s:f,s:i,s:i,s:i,s:i}", "sum_job",
                              b.sum_job, "sum_map", b.sum_map, "sum_reduce", b.sum_reduce,
                              "sum_busy", b.sum_busy, "capacity", b.capacity, "weighted_sum",
                              b.weighted_sum, "waves", b.waves, "prefix_waves",
                              b.prefix_waves, "beats", b.beats, "beat_positions",
                              b.beat_positions);
    if (parts && b.goals)
        json_object_set_new(parts, "goals",
                            json_pack("{s:i,s:i,s:f}", "jobs", b.goals, "met_at_most",
                                      b.goals - b.goals_missed, "tardiness", b.tardiness));
    json_object_set_new(extras, "bound", parts);
    so_cl_offline_bound_free(&b);
    return SO_OK;
}

int so_harness_offline_opt(const so_cl_workload *w, const so_params *prm, uint64_t seed,
                           double time_limit, double *resp, const char **status, json_t *extras,
                           so_error *err)
{
    so_cl_offline_opt o;
    int rc = so_cl_offline_opt_solve(w, seed, time_limit > 0 ? 0.8 * time_limit : 0, &o, err);
    if (rc)
        return rc;
    memcpy(resp, o.responses, (size_t)w->n_jobs * sizeof *resp);
    *status = o.proved ? "optimal" : "simulated";
    char order[256], replay[512 + SO_MAX_OPTIONS * (sizeof prm->options[0] + 8)];
    if (o.order_name)
        snprintf(order, sizeof order, "%s", o.order_name);
    else
        so_cl_offline_order_text(o.order, o.n_jobs, order, sizeof order);
    size_t len = (size_t)snprintf(replay, sizeof replay,
                                  "slotopt sim WORKLOAD --scheduler priority --opt order=%s"
                                  " --opt delay_reduces=%d --opt tasks=%s%s --opt padding=0"
                                  " --seed %llu", order, o.delay_reduces, o.tasks,
                                  o.open_first ? " --opt open_first=2" : "",
                                  (unsigned long long)seed);
    /* the SWIM reader's keys made w from the trace: the replay reads it so */
    for (int i = 0; i < prm->n_options; i++)
        if (swim_key(prm->options[i].key))
            len += (size_t)snprintf(replay + len, sizeof replay - len, " --opt %s=%s",
                                    prm->options[i].key, prm->options[i].value);
    int n = w->n_jobs > 0 ? w->n_jobs : 1;
    json_object_set_new(extras, "offline",
                        json_pack("{s:f,s:f,s:f,s:b,s:b,s:b,s:s,s:i,s:s,s:i,s:I,s:s}", "sum",
                                  o.sum, "bound_sum", o.bound, "bound_mean", o.bound / n,
                                  "proved", o.proved, "exhaustive", o.exhaustive, "timed_out",
                                  o.timed_out, "order", order, "delay_reduces",
                                  o.delay_reduces, "tasks", o.tasks, "open_first", o.open_first,
                                  "evaluations", (json_int_t)o.evaluations, "replay", replay));
    so_cl_offline_opt_free(&o);
    return SO_OK;
}
