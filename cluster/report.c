/* report.c — the simulation's summary: per-job times, makespan, response
 * time statistics (nearest-rank percentiles), slot utilisation, speculation
 * counts, event counts; as JSON or as a text table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/sim_internal.h"

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double so_cl_percentile(const double *x, size_t n, double q)
{
    if (n == 0)
        return NAN;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return NAN;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, by_value);
    double rank = ceil(q / 100.0 * (double)n);
    size_t k = rank < 1 ? 0 : (size_t)rank - 1;
    double v = s[k < n ? k : n - 1];
    free(s);
    return v;
}

typedef struct summary {
    double mean, p50, p95, p99, max;
} summary;

static summary responses(const so_cl_sim *sim)
{
    summary s = {NAN, NAN, NAN, NAN, NAN};
    size_t n = (size_t)sim->w->n_jobs;
    double *r = malloc((n + 1) * sizeof *r);
    if (!r || n == 0) {
        free(r);
        return s;
    }
    double sum = 0;
    size_t k = 0; /* finished jobs (all of them unless the run was stopped) */
    for (size_t j = 0; j < n; j++) {
        if (sim->results[j].finish < 0)
            continue;
        r[k] = sim->results[j].finish - sim->results[j].submit;
        sum += r[k++];
    }
    if (k == 0) {
        free(r);
        return s;
    }
    n = k;
    s.mean = sum / (double)n;
    s.p50 = so_cl_percentile(r, n, 50);
    s.p95 = so_cl_percentile(r, n, 95);
    s.p99 = so_cl_percentile(r, n, 99);
    s.max = so_cl_percentile(r, n, 100);
    free(r);
    return s;
}

/* A number, or null when undefined (no jobs). */
static json_t *number(double x)
{
    return isnan(x) ? json_null() : json_real(x);
}

static json_t *phase_pair(double map, double reduce)
{
    return json_pack("{s:f,s:f}", "map", map, "reduce", reduce);
}

json_t *so_cl_report_json(const so_cl_sim *sim, const so_cl_workload *w,
                          const so_cl_config *cfg)
{
    const so_cl_stats *st = &sim->stats;
    summary r = responses(sim);
    json_t *o = json_object();
    json_object_set_new(o, "workload", json_string(w->name));
    json_object_set_new(o, "scheduler", json_string(cfg->scheduler->name));
    json_object_set_new(o, "speculation",
                        json_string(cfg->speculation ? cfg->speculation->name
                                                     : "none"));
    json_object_set_new(o, "seed", json_integer((json_int_t)cfg->seed));
    json_object_set_new(o, "stealing",
                        json_string(cfg->stealing ? cfg->stealing : "none"));
    json_t *opts = json_object();
    for (int i = 0; cfg->params && i < cfg->params->n_options; i++)
        json_object_set_new(opts, cfg->params->options[i].key,
                            json_string(cfg->params->options[i].value));
    json_object_set_new(o, "options", opts);
    if (cfg->n_warnings > 0) {
        json_t *wa = json_array();
        for (int i = 0; i < cfg->n_warnings; i++)
            json_array_append_new(wa, json_string(cfg->warnings[i]));
        json_object_set_new(o, "warnings", wa);
    }
    if (st->stopped) { /* only then: complete reports stay as they were */
        json_object_set_new(o, "status", json_string("time_limit"));
        json_object_set_new(o, "partial", json_true());
        json_object_set_new(o, "simulated_time", json_real(st->stopped_at));
        json_object_set_new(o, "jobs_finished", json_integer(st->jobs_done));
        json_object_set_new(o, "time_limit", json_real(cfg->time_limit));
    }
    json_object_set_new(o, "nodes", json_integer(w->n_nodes));
    json_object_set_new(o, "slots",
                        json_pack("{s:i,s:i}", "map", sim->total_slots[SO_CL_MAP],
                                  "reduce", sim->total_slots[SO_CL_REDUCE]));
    json_object_set_new(o, "heartbeat_interval", json_real(sim->interval));
    json_object_set_new(o, "makespan", json_real(st->makespan));
    json_t *resp = json_object();
    json_object_set_new(resp, "mean", number(r.mean));
    json_object_set_new(resp, "p50", number(r.p50));
    json_object_set_new(resp, "p95", number(r.p95));
    json_object_set_new(resp, "p99", number(r.p99));
    json_object_set_new(resp, "max", number(r.max));
    json_object_set_new(o, "response", resp);
    json_object_set_new(o, "utilisation",
                        phase_pair(st->utilisation[0], st->utilisation[1]));
    json_object_set_new(o, "busy_slot_seconds",
                        phase_pair(st->busy[0], st->busy[1]));
    json_object_set_new(o, "speculation_counts",
                        json_pack("{s:I,s:I,s:I,s:I}", "launched",
                                  (json_int_t)st->spec_launched, "useful",
                                  (json_int_t)st->spec_useful, "non_beneficial",
                                  (json_int_t)st->spec_nonbeneficial, "killed",
                                  (json_int_t)st->spec_killed));
    json_object_set_new(o, "events", json_integer((json_int_t)st->events));
    json_t *kinds = json_object();
    for (int k = 0; k < 7; k++)
        if (k < 6 || st->events_by_kind[k] > 0) /* slow-downs when on */
            json_object_set_new(kinds, so_cl_event_name(k),
                                json_integer((json_int_t)st->events_by_kind[k]));
    json_object_set_new(o, "events_by_kind", kinds);
    json_object_set_new(o, "tasks", json_integer((json_int_t)st->tasks_done));
    json_object_set_new(o, "attempts", json_integer((json_int_t)st->attempts));
    json_object_set_new(o, "preempted", json_integer((json_int_t)st->preempted));
    uint64_t maps = st->local_maps + st->remote_maps;
    if (w->replicas > 0) /* without a locality model every map is local */
        json_object_set_new(o, "locality",
                        json_pack("{s:I,s:I,s:o}", "node_local",
                                  (json_int_t)st->local_maps, "remote",
                                  (json_int_t)st->remote_maps, "fraction_local",
                                  maps ? json_real((double)st->local_maps / maps)
                                       : json_null()));
    if (w->n_resources > 0) {
        json_t *res = json_object();
        for (int r = 0; r < w->n_resources; r++) {
            double cap = sim->total_capacity[r] * st->makespan;
            json_object_set_new(
                res, w->resource[r],
                json_pack("{s:f,s:o}", "busy", st->resource_busy[r], "utilisation",
                          cap > 0 ? json_real(st->resource_busy[r] / cap)
                                  : json_null()));
        }
        json_object_set_new(o, "resources", res);
    }
    json_t *jobs = json_array();
    for (int j = 0; j < w->n_jobs; j++) {
        const so_cl_job_result *x = &sim->results[j];
        if (x->finish < 0) { /* a partial run: not started or not finished */
            json_array_append_new(
                jobs, json_pack("{s:s,s:f,s:o,s:n,s:n}", "name", w->jobs[j].name,
                                "submit", x->submit, "start",
                                x->start < 0 ? json_null() : json_real(x->start),
                                "finish", "response"));
            continue;
        }
        json_array_append_new(
            jobs, json_pack("{s:s,s:f,s:f,s:f,s:f}", "name", w->jobs[j].name,
                            "submit", x->submit, "start", x->start, "finish",
                            x->finish, "response", x->finish - x->submit));
    }
    json_object_set_new(o, "jobs", jobs);
    return o;
}

void so_cl_report_summary_table(FILE *fp, const so_cl_sim *sim,
                                const so_cl_workload *w, const so_cl_config *cfg)
{
    const so_cl_stats *st = &sim->stats;
    summary r = responses(sim);
    fprintf(fp, "workload     %s (%d jobs, %d nodes, %d map + %d reduce slots)\n",
            w->name, w->n_jobs, w->n_nodes, sim->total_slots[0],
            sim->total_slots[1]);
    fprintf(fp, "scheduler    %s, speculation %s, seed %llu\n",
            cfg->scheduler->name,
            cfg->speculation ? cfg->speculation->name : "none",
            (unsigned long long)cfg->seed);
    fprintf(fp, "options      stealing %s",
            cfg->stealing ? cfg->stealing : "none");
    for (int i = 0; cfg->params && i < cfg->params->n_options; i++)
        fprintf(fp, ", %s=%s", cfg->params->options[i].key,
                cfg->params->options[i].value);
    fputc('\n', fp);
    for (int i = 0; i < cfg->n_warnings; i++)
        fprintf(fp, "warning      %s\n", cfg->warnings[i]);
    if (st->stopped)
        fprintf(fp, "status       time limit (%g s) reached: partial, simulated"
                    " %.3f s, %d of %d jobs finished\n",
                cfg->time_limit, st->stopped_at, st->jobs_done, w->n_jobs);
    fprintf(fp, "makespan     %.3f s\n", st->makespan);
    fprintf(fp, "response     mean %.3f  p50 %.3f  p95 %.3f  p99 %.3f  max %.3f s\n",
            r.mean, r.p50, r.p95, r.p99, r.max);
    fprintf(fp, "utilisation  map %.4f  reduce %.4f\n", st->utilisation[0],
            st->utilisation[1]);
    fprintf(fp, "speculation  launched %llu  useful %llu  non-beneficial %llu"
                "  killed %llu\n",
            (unsigned long long)st->spec_launched,
            (unsigned long long)st->spec_useful,
            (unsigned long long)st->spec_nonbeneficial,
            (unsigned long long)st->spec_killed);
    for (int r = 0; r < w->n_resources; r++) {
        double cap = sim->total_capacity[r] * st->makespan;
        fprintf(fp, "resource     %s: utilisation %.4f\n", w->resource[r],
                cap > 0 ? st->resource_busy[r] / cap : 0.0);
    }
    if (w->replicas > 0)
        fprintf(fp, "locality     %llu node-local, %llu remote map attempts\n",
                (unsigned long long)st->local_maps,
                (unsigned long long)st->remote_maps);
    fprintf(fp, "events       %llu (tasks %llu, attempts %llu, preempted %llu)\n\n",
            (unsigned long long)st->events, (unsigned long long)st->tasks_done,
            (unsigned long long)st->attempts, (unsigned long long)st->preempted);
}

void so_cl_report_table(FILE *fp, const so_cl_sim *sim, const so_cl_workload *w,
                        const so_cl_config *cfg)
{
    so_cl_report_summary_table(fp, sim, w, cfg);
    fprintf(fp, "%-24s %12s %12s %12s %12s\n", "job", "submit", "start",
            "finish", "response");
    for (int j = 0; j < w->n_jobs; j++) {
        const so_cl_job_result *x = &sim->results[j];
        if (x->finish < 0) { /* a partial run */
            char start[32] = "-";
            if (x->start >= 0)
                snprintf(start, sizeof start, "%.3f", x->start);
            fprintf(fp, "%-24s %12.3f %12s %12s %12s\n", w->jobs[j].name,
                    x->submit, start, "-", "-");
            continue;
        }
        fprintf(fp, "%-24s %12.3f %12.3f %12.3f %12.3f\n", w->jobs[j].name,
                x->submit, x->start, x->finish, x->finish - x->submit);
    }
}
