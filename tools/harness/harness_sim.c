/* harness_sim.c — simulation cells of the harness: (workload, policy
 * configuration, seed) run through the cluster model as `slotopt sim` does
 * (tools/cli/cmd_sim.c), and the harness's lower bound.
 *
 * A cell's metric (the stored objective, minimised) is chosen per scenario:
 * mean_response (default), p95_response, max_response or makespan; its
 * extras hold the run's summary (response mean / p50 / p95 / p99 / max,
 * makespan, utilisation, speculation counts, events, tasks, attempts, the
 * simulation's seconds) and every job's response time (for CDF plots).
 *
 * The lower bound ("lower-bound" policy). Issue 15 asks for a bound such as
 * "each job alone on the whole cluster". We compute it analytically rather
 * than by simulating each job alone (a simulated lone run is not a bound:
 * heartbeat phases and speculation can make a shared run finish a job
 * sooner). For job j on a cluster whose fastest node has speed v and with
 * S map slots in all, with Amdahl parallel fractions f_m, f_r (extra
 * threads at most 1 / (1 - f) times faster):
 *   M_j = max( max_i w_i (1 - f_m) / v ,  [f_m = 0]  sum_i w_i / (S v) )
 *   R_j = max_r (sort_r + reduce_r)(1 - f_r) / v      (after the last map:
 *         Hadoop's sort and reduce phases start when every map is done)
 *   C_j = max_r (copy_r + sort_r + reduce_r)(1 - f_r) / v
 *   LB_j = max(M_j + R_j, C_j)    (0 for a job with no task)
 * Every attempt runs at most at its node's speed (contention, remote reads
 * and preemption only slow it; under the "physical" model up to
 * profile_headroom x faster, so v is read as speed x that,
 * so_cl_offline_speedup; noise is refused, harness_bound.c), so each job's response time is at least
 * LB_j under any policy, and so are the order statistics: the mean, p95 and
 * max of the LB_j bound those of any run; the makespan bound is
 * max_j (submit_j + LB_j) - min_j submit_j. A policy that sets a rate
 * factor above 1 (none in this tree) would void the bound. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/offline_bound.h"
#include "cluster/stealing.h"
#include "formulations/common/suggest.h"
#include "tools/harness/harness.h"
#include "tools/harness/harness_bound.h"
#include "tools/harness/harness_timeline.h"

int so_hpolicy_takes(const so_hpolicy *p, const char *key)
{
    if (!p->scheduler)
        return 0;
    const so_option_doc *lists[] = {so_cl_sim_options, so_cl_swim_options,
                                    p->scheduler->options};
    for (size_t l = 0; l < 3; l++)
        for (const so_option_doc *d = lists[l]; d && d->key; d++)
            if (!strcmp(d->key, key))
                return 1;
    return 0;
}

int so_hconfig_add_policy(so_hconfig *c, const char *spec, const char *name,
                          const so_params *options, so_error *err)
{
    if (c->n_policies >= SO_HARNESS_MAX_POLICIES)
        return so_error_setf(err, NULL, 0, 0, NULL, "more than %d policies",
                             SO_HARNESS_MAX_POLICIES);
    so_hpolicy p;
    memset(&p, 0, sizeof p);
    so_params_init(&p.options);
    if (options)
        p.options = *options;
    snprintf(p.name, sizeof p.name, "%s", name && *name ? name : spec);
    if (!(p.bound = so_harness_bound_kind(spec))) {
        char sched[64];
        snprintf(sched, sizeof sched, "%s", spec);
        char *plus = strchr(sched, '+');
        if (plus) {
            *plus = '\0';
            char *steal = strchr(plus + 1, '+');
            if (steal) {
                *steal = '\0';
                if ((p.stealing = so_cl_steal_find(steal + 1)) < 0)
                    return so_error_setf(err, NULL, 0, 0, NULL,
                                         "policy '%s': unknown stealing policy '%s'"
                                         " (none, even, fcm, stlm, ltlm, stm or ltm)",
                                         spec, steal + 1);
            }
            if (!(p.speculation = so_cl_speculation_find(plus + 1)) &&
                strcmp(plus + 1, "none"))
                return so_error_setf(err, NULL, 0, 0, NULL,
                                     "policy '%s': unknown speculation '%s'"
                                     " (none, hadoop, late, base or base-hadoop)",
                                     spec, plus + 1);
        }
        if (!(p.scheduler = so_cl_scheduler_find(sched))) {
            char text[2048];
            return so_error_setf(err, NULL, 0, 0, NULL, "policy '%s': unknown scheduler '%s'; %s",
                                 spec, sched, so_suggest_text(text, sizeof text, sched,
                                                              so_cl_scheduler_names()));
        }
        /* every option must belong to the simulator, SWIM reader or scheduler */
        for (int i = 0; i < p.options.n_options; i++) {
            if (!so_hpolicy_takes(&p, p.options.options[i].key))
                return so_error_setf(err, NULL, 0, 0, p.options.options[i].key,
                                     "policy '%s': unknown option for scheduler '%s'",
                                     p.name, sched);
        }
    }
    for (size_t i = 0; i < c->n_policies; i++)
        if (!strcmp(c->policies[i].name, p.name))
            return so_error_setf(err, NULL, 0, 0, NULL, "policy '%s' given twice", p.name);
    c->policies[c->n_policies++] = p;
    return SO_OK;
}

int so_hconfig_add_policy_list(so_hconfig *c, const char *list, so_error *err)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int rc = so_hconfig_add_policy(c, t, NULL, NULL, err);
        if (rc)
            return rc;
    }
    return SO_OK;
}

static const char *const metrics[] = {"mean_response", "p95_response", "max_response",
                                      "makespan", NULL};

int so_hconfig_check_sim(so_hconfig *c, so_error *err)
{
    if (!c->metric[0])
        snprintf(c->metric, sizeof c->metric, "mean_response");
    int ok = 0;
    for (int i = 0; metrics[i] && !ok; i++)
        ok = !strcmp(metrics[i], c->metric);
    if (!ok)
        return so_error_setf(err, NULL, 0, 0, "metric", "expected mean_response,"
                             " p95_response, max_response or makespan, found '%s'",
                             c->metric);
    if (!c->n_policies)
        return SO_OK;
    if (!c->sim_reference[0])
        snprintf(c->sim_reference, sizeof c->sim_reference, "%s", c->policies[0].name);
    for (size_t i = 0; i < c->n_policies; i++)
        if (!strcmp(c->policies[i].name, c->sim_reference))
            return so_harness_bound_check(c, err);
    if (so_harness_bound_kind(c->sim_reference)) {
        int rc = so_hconfig_add_policy(c, c->sim_reference, NULL, NULL, err);
        return rc ? rc : so_harness_bound_check(c, err);
    }
    return so_error_setf(err, NULL, 0, 0, NULL, "the simulation reference '%s' is"
                         " not one of the policies (nor lower-bound, lp-bound, offline-opt)",
                         c->sim_reference);
}

const char *so_hcell_name(const so_hcell *cell)
{
    return cell->policy ? cell->policy->name : cell->backend->name;
}

/* ---- one cell ------------------------------------------------------------- */

static double metric_of(const char *metric, double mean, double p95, double max,
                        double makespan)
{
    if (!strcmp(metric, "p95_response"))
        return p95;
    if (!strcmp(metric, "max_response"))
        return max;
    if (!strcmp(metric, "makespan"))
        return makespan;
    return mean;
}

/* LB_j of the header comment. */
static double job_bound(const so_cl_workload *w, const so_cl_job_spec *j)
{
    double v = 0;
    long slots = 0;
    for (int n = 0; n < w->n_nodes; n++) {
        v = fmax(v, so_cl_offline_speedup(w) * w->nodes[n].speed);
        slots += w->nodes[n].slots[0];
    }
    if (!(v > 0))
        return 0;
    double fm = 1 - j->parallel[0], fr = 1 - j->parallel[1];
    double longest = 0, sum = 0;
    for (int i = 0; i < j->n_maps; i++) {
        longest = fmax(longest, j->map_work[i]);
        sum += j->map_work[i];
    }
    double m = longest * fm / v;
    if (j->parallel[0] == 0 && slots > 0)
        m = fmax(m, sum / ((double)slots * v));
    double r = 0, c = 0;
    for (int i = 0; i < j->n_reduces; i++) {
        const so_cl_reduce_work *rw = &j->reduce_work[i];
        r = fmax(r, (rw->sort + rw->reduce) * fr / v);
        c = fmax(c, (rw->copy + rw->sort + rw->reduce) * fr / v);
    }
    return fmax(j->n_maps ? m + r : r, c);
}

static json_t *responses_json(const double *x, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_real(x[i]));
    return a;
}

/* The summary of per-job responses (and makespan) as extras. */
static void summary(json_t *extras, const double *resp, int n, double makespan,
                    double *mean, double *p95, double *max)
{
    double sum = 0;
    *max = 0;
    for (int i = 0; i < n; i++) {
        sum += resp[i];
        *max = fmax(*max, resp[i]);
    }
    *mean = n ? sum / n : 0;
    *p95 = n ? so_cl_percentile(resp, (size_t)n, 95) : 0;
    json_t *r = json_object();
    json_object_set_new(r, "mean", json_real(*mean));
    json_object_set_new(r, "p50", json_real(n ? so_cl_percentile(resp, (size_t)n, 50) : 0));
    json_object_set_new(r, "p95", json_real(*p95));
    json_object_set_new(r, "p99", json_real(n ? so_cl_percentile(resp, (size_t)n, 99) : 0));
    json_object_set_new(r, "max", json_real(*max));
    json_object_set_new(extras, "response", r);
    json_object_set_new(extras, "makespan", json_real(makespan));
    json_object_set_new(extras, "jobs", json_integer(n));
}

/* Per user (the jobs' "user"; none when no job names one): mean, p95 and
 * max response and the job count, as extras "users" (WPBS Table II's
 * per-user rows); and, when jobs have completion-time goals, how many met
 * theirs, as extras "goals" {"jobs", "met"}, and each such job's finish
 * time, response, goal and met (0/1) as extras "per_job" {NAME: {...}}
 * (RAS Experiment 2's per-job table). */
static void per_user(json_t *extras, const so_cl_workload *w, const double *resp)
{
    json_t *users = json_object();
    double *x = malloc((w->n_jobs ? (size_t)w->n_jobs : 1) * sizeof *x);
    int goals = 0, met = 0;
    for (int j = 0; x && j < w->n_jobs; j++) {
        if (w->jobs[j].goal > 0) {
            goals++;
            met += resp[j] <= w->jobs[j].goal + 1e-6;
        }
        const char *u = w->jobs[j].user;
        if (!*u || json_object_get(users, u))
            continue;
        size_t n = 0;
        double sum = 0, max = 0;
        for (int k = j; k < w->n_jobs; k++)
            if (!strcmp(w->jobs[k].user, u)) {
                x[n++] = resp[k];
                sum += resp[k];
                max = fmax(max, resp[k]);
            }
        json_object_set_new(users, u, json_pack("{s:f,s:f,s:f,s:I}", "mean", sum / (double)n,
                                                "p95", so_cl_percentile(x, n, 95), "max", max,
                                                "jobs", (json_int_t)n));
    }
    free(x);
    if (goals) { /* few jobs have goals (RAS's Gridmix: 9): each one's times */
        json_t *per = json_object();
        for (int j = 0; j < w->n_jobs; j++)
            if (w->jobs[j].goal > 0)
                json_object_set_new(per, w->jobs[j].name,
                                    json_pack("{s:f,s:f,s:f,s:i}", "finish",
                                              w->jobs[j].submit + resp[j], "response", resp[j],
                                              "goal", w->jobs[j].goal, "met",
                                              resp[j] <= w->jobs[j].goal + 1e-6));
        json_object_set_new(extras, "per_job", per);
    }
    if (json_object_size(users))
        json_object_set_new(extras, "users", users);
    else
        json_decref(users);
    if (goals)
        json_object_set_new(extras, "goals", json_pack("{s:i,s:i}", "jobs", goals, "met", met));
}

/* Whether the options turn on per-attempt noise or slow spells
 * (cluster/variability.c). */
static int varies(const so_params *prm)
{
    static const char *const keys[] = {"noise_cv", "slowdown_gap", NULL};
    for (int k = 0; keys[k]; k++) {
        const char *v = so_params_get(prm, keys[k]);
        if (v && strtod(v, NULL) > 0)
            return 1;
    }
    return 0;
}

uint64_t so_harness_run_seed(const so_hinst *in, const so_params *prm, int rep)
{
    uint64_t seed = (in->first_seed ? in->first_seed : 1) + (uint64_t)rep;
    if (!varies(prm) || !in->has_seed)
        return seed;
    /* each generated instance its own noise and spells: its generator seed
     * and index, in steps of 1000 over the repetition's seed (the first
     * instance of seed 1 keeps the repetition's seed) */
    uint64_t k = (uint64_t)(in->seed > 1 ? in->seed - 1 : 0) +
                 (uint64_t)(in->index > 0 ? in->index : 0);
    return seed + 1000 * k;
}

char *so_harness_sim_cell(const so_hconfig *c, const so_hinst *in,
                          const so_hcell *cell)
{
    const so_hpolicy *pol = cell->policy;
    so_params prm = pol->options;
    for (int i = 0; in->options && i < in->options->n_options; i++)
        so_params_set(&prm, in->options->options[i].key, in->options->options[i].value);
    uint64_t seed = (in->first_seed ? in->first_seed : 1) + (uint64_t)cell->rep;
    prm.seed = seed;
    so_error err;
    so_error_clear(&err);
    json_t *o = json_object(), *extras = json_object();
    so_cl_workload *w = NULL;
    so_cl_sim *sim = NULL;
    so_cl_stealing *stealing = NULL;
    double *resp = NULL;
    char *log = NULL; /* the event log, for the timeline */
    size_t log_len = 0;
    FILE *log_fp = NULL;
    double t0 = so_now();
    int rc = so_cl_workload_parse(in->workload, in->workload_len, in->name, &prm, seed,
                                  &w, &err);
    if (!rc && !(resp = malloc((w->n_jobs ? (size_t)w->n_jobs : 1) * sizeof *resp)))
        rc = SO_ENOMEM;
    double mean = 0, p95 = 0, max = 0, makespan = 0;
    int stopped = 0;
    if (!rc && !pol->scheduler)
        rc = so_harness_bound_options(&prm, pol->name, &err);
    /* the runs' seed: a policy's, and lp-bound's and offline-opt's, which
     * hold for its heartbeat phases (and replay its slow spells) */
    uint64_t run_seed = so_harness_run_seed(in, &prm, cell->rep);
    if (!rc && run_seed != seed && (pol->scheduler || pol->bound == SO_HBOUND_LP ||
                                    pol->bound == SO_HBOUND_OPT))
        json_object_set_new(extras, "run_seed", json_integer((json_int_t)run_seed));
    if (!rc && pol->bound == SO_HBOUND_OPT) {
        const char *status = "simulated";
        rc = so_harness_offline_opt(w, &prm, run_seed, c->time_limit, resp, &status, extras,
                                    &err);
        if (!rc) {
            double first = INFINITY;
            for (int j = 0; j < w->n_jobs; j++) {
                first = fmin(first, w->jobs[j].submit);
                makespan = fmax(makespan, w->jobs[j].submit + resp[j]);
            }
            makespan = w->n_jobs ? makespan - first : 0;
            summary(extras, resp, w->n_jobs, makespan, &mean, &p95, &max);
            json_object_set_new(o, "status_text", json_string(status));
        }
    } else if (!rc && pol->bound == SO_HBOUND_LP) {
        double sum = 0;
        rc = so_harness_lp_bound(w, run_seed, resp, &sum, &makespan, extras);
        if (!rc) {
            summary(extras, resp, w->n_jobs, makespan, &mean, &p95, &max);
            mean = w->n_jobs ? sum / w->n_jobs : 0;
            json_real_set(json_object_get(json_object_get(extras, "response"), "mean"), mean);
            json_object_set_new(o, "status_text", json_string("bound"));
        }
    } else if (!rc && !pol->scheduler) {
        double first = INFINITY, last = -INFINITY;
        for (int j = 0; j < w->n_jobs; j++) {
            resp[j] = job_bound(w, &w->jobs[j]);
            first = fmin(first, w->jobs[j].submit);
            last = fmax(last, w->jobs[j].submit + resp[j]);
        }
        makespan = w->n_jobs ? last - first : 0;
        summary(extras, resp, w->n_jobs, makespan, &mean, &p95, &max);
        per_user(extras, w, resp);
        json_object_set_new(o, "status_text", json_string("bound"));
    } else if (!rc) {
        so_cl_config cfg = {0};
        cfg.scheduler = pol->scheduler;
        cfg.speculation = pol->speculation;
        cfg.params = &prm;
        cfg.seed = run_seed;
        /* the cell's time limit stops the replay itself (a partial result,
         * stored as time_limit), well before the worker would be killed */
        if (c->time_limit > 0) {
            cfg.time_limit = c->time_limit;
            cfg.deadline = t0 + c->time_limit;
        }
        if (pol->stealing != SO_CL_STEAL_NONE) {
            rc = so_cl_stealing_new(pol->stealing, &stealing);
            cfg.hooks = &so_cl_stealing_hooks;
            cfg.hooks_state = stealing;
            cfg.stealing = so_cl_steal_name(pol->stealing);
        }
        /* options that cannot act (cluster/run_checks.c), as `slotopt sim`
         * checks them: an error fails the cell, a warning is kept with it */
        if (!rc)
            rc = so_cl_check_config(w, &cfg, &err);
        if (!rc && cfg.n_warnings > 0) {
            json_t *wa = json_array();
            for (int i = 0; i < cfg.n_warnings; i++) {
                json_array_append_new(wa, json_string(cfg.warnings[i]));
                fprintf(stderr, "slotopt bench: warning: %s: %s\n", pol->name,
                        cfg.warnings[i]);
            }
            json_object_set_new(extras, "warnings", wa);
        }
        if (!rc && c->timeline_step > 0 && !(cfg.event_log = log_fp =
                                                 open_memstream(&log, &log_len)))
            rc = SO_ENOMEM;
        if (!rc)
            rc = so_cl_sim_new(w, &cfg, &sim, &err);
        if (!rc)
            rc = so_cl_sim_failure(sim, so_cl_sim_run(sim), &err);
        if (log_fp && fclose(log_fp))
            rc = rc ? rc : SO_ENOMEM;
        log_fp = NULL;
        if (!rc && so_cl_sim_stats(sim)->stopped) {
            const so_cl_stats *st = so_cl_sim_stats(sim);
            json_object_set_new(extras, "partial", json_true());
            json_object_set_new(extras, "simulated_time", json_real(st->stopped_at));
            json_object_set_new(extras, "jobs_finished", json_integer(st->jobs_done));
            json_object_set_new(extras, "events", json_integer((json_int_t)st->events));
            json_object_set_new(o, "status_text", json_string(so_status_str(SO_TIMELIMIT)));
            stopped = 1;
        } else if (!rc) {
            const so_cl_stats *st = so_cl_sim_stats(sim);
            for (int j = 0; j < w->n_jobs; j++) {
                const so_cl_job_result *jr = so_cl_sim_job(sim, j);
                resp[j] = jr->finish - jr->submit;
            }
            makespan = st->makespan;
            summary(extras, resp, w->n_jobs, makespan, &mean, &p95, &max);
            per_user(extras, w, resp);
            json_object_set_new(extras, "utilisation",
                                json_pack("{s:f,s:f}", "map", st->utilisation[0],
                                          "reduce", st->utilisation[1]));
            json_object_set_new(extras, "speculation",
                                json_pack("{s:I,s:I,s:I,s:I}", "launched",
                                          (json_int_t)st->spec_launched, "useful",
                                          (json_int_t)st->spec_useful, "killed",
                                          (json_int_t)st->spec_killed, "non_beneficial",
                                          (json_int_t)st->spec_nonbeneficial));
            json_object_set_new(extras, "busy_slot_seconds",
                                json_pack("{s:f,s:f}", "map", st->busy[0],
                                          "reduce", st->busy[1]));
            /* running attempts per node over the run: busy slot-seconds
             * (maps + reduces) / (nodes x makespan) (RAS Experiment 1) */
            json_object_set_new(extras, "running_per_node",
                                json_real(w->n_nodes && st->makespan > 0
                                              ? (st->busy[0] + st->busy[1]) /
                                                    ((double)w->n_nodes * st->makespan)
                                              : 0));
            json_object_set_new(extras, "events", json_integer((json_int_t)st->events));
            json_object_set_new(extras, "attempts", json_integer((json_int_t)st->attempts));
            json_t *tl = NULL;
            int trc = log ? so_htimeline_read(w, log, log_len, c->timeline_step, &tl) : 0;
            if (trc == SO_EINVAL)
                rc = so_error_setf(&err, NULL, 0, 0, NULL, "the event log names a job"
                                   " or task the workload does not have");
            else if (trc)
                rc = trc;
            else if (tl)
                json_object_set_new(extras, "timeline", tl);
            if (!rc)
                json_object_set_new(o, "status_text", json_string("simulated"));
        }
    }
    double seconds = so_now() - t0;
    free(log);
    json_object_set_new(o, "status", json_integer(rc ? rc : stopped ? SO_TIMELIMIT
                                                                    : SO_FEASIBLE));
    if (!rc && stopped) { /* no objective: the jobs did not all finish */
        json_object_set_new(extras, "sim_seconds", json_real(seconds));
        json_object_set_new(o, "extras", extras);
    } else if (!rc) {
        json_object_set_new(o, "objective", json_real(metric_of(c->metric[0] ? c->metric : "mean_response",
                                                                 mean, p95, max, makespan)));
        json_object_set_new(extras, "metric",
                            json_string(c->metric[0] ? c->metric : "mean_response"));
        json_object_set_new(extras, "sim_seconds", json_real(seconds));
        json_object_set_new(extras, "responses", responses_json(resp, w->n_jobs));
        json_object_set_new(o, "extras", extras);
    } else {
        json_decref(extras);
        char buf[1600];
        json_object_set_new(o, "message", json_string(so_error_format(&err, buf, sizeof buf)));
    }
    json_object_set_new(o, "seconds", json_real(seconds));
    char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(o);
    free(resp);
    so_cl_sim_free(sim);
    so_cl_stealing_free(stealing);
    so_cl_workload_free(w);
    return text;
}
