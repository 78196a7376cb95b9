/* pareto_puma.c — the `pareto-puma` instance family: the empirical
 * workloads of Zacheilas and Kalogeraki 2017, Table 2 (section 6.2), PUMA
 * jobs on the paper's cluster (2 map and 2 reduce slots per VM, $1/hour,
 * I/O $0.05 per million requests, budget $6..$20):
 *   twitter            3 Twitter-friendship jobs, 20 map / 10 reduce tasks,
 *                      1.2 GB of tweets, deadline 1000 s
 *   sort               3 Sort jobs, 80 / 10, 5 GB, deadline 2500 s
 *   wordcount          3 Wordcount jobs, 47 / 10, 3.2 GB, deadline 1000 s
 *   twitter-wordcount  1 Twitter and 2 Wordcount jobs, deadline 1000 s
 * The paper gives no task times, so the project's illustrative application
 * model (docs/pareto.md) sets, per application, a processing rate per task
 * (MB/s) and a fixed per-task start-up time for each phase, the map output
 * as a share of the input and its record size; a task of a phase with n
 * tasks then takes startup + input / (n rate) seconds. Profiles are given
 * as `history` runs (like the paper's 10 previous runs, section 6.3) at task
 * counts spread over [N/2, 2N], with relative noise `jitter` on the times
 * and the longest task 1.2-1.5 times the mean; they are fitted by least
 * squares when the instance is read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/pareto.h"
#include "solvers/lsq_fit.h"

const so_option_doc so_pt_puma_params[] = {
    {"workload", "twitter", "twitter | sort | wordcount | twitter-wordcount"},
    {"history", "10", "previous runs per profile (>= 2)"},
    {"jitter", "0.05", "relative noise on the recorded task times, [0, 0.5]"},
    {"budget_min", "0", "dollars (the paper's $6 assumes hourly billing)"},
    {"budget_max", "20", "dollars"},
    {"max_vms", "0", "VM cap (0: unlimited; the paper's cluster had 7 workers)"},
    {NULL, NULL, NULL},
};

typedef struct {
    const char *name;
    int64_t map_tasks, reduce_tasks;
    double input_mb;
    double map_rate, shuffle_rate, reduce_rate; /* MB/s per task */
    double selectivity, record_bytes;           /* map output */
} application;

static const application apps[] = {
    {"twitter", 20, 10, 1200, 4, 20, 5, 0.6, 40},
    {"sort", 80, 10, 5000, 20, 20, 25, 1.0, 100},
    {"wordcount", 47, 10, 3200, 8, 20, 15, 0.3, 16},
};

static const struct {
    const char *name;
    int app[3];
    double deadline;
} workloads[] = {
    {"twitter", {0, 0, 0}, 1000},
    {"sort", {1, 1, 1}, 2500},
    {"wordcount", {2, 2, 2}, 1000},
    {"twitter-wordcount", {0, 2, 2}, 1000},
};

#define STARTUP 3.0 /* seconds per task */

/* The reader's check (formulations/pareto.c) at one task count. */
static int valid_fit(double a1, double b1, double a2, double b2, double n)
{
    double avg = a1 + b1 / n, max = a2 + b2 / n;
    return avg >= 0 && max >= avg;
}

/* History samples [[n, avg, max], ...] of startup + mb / (n rate). */
static json_t *history(double mb, double rate, int64_t tasks, long runs,
                       double jitter, so_rng *rng)
{
    double *n = malloc(3 * (size_t)runs * sizeof *n);
    if (!n)
        return NULL;
    double *avg = n + runs, *max = avg + runs;
    json_t *arr = NULL;
    for (int attempt = 0; attempt < 100 && !arr; attempt++) {
        for (long k = 0; k < runs; k++) {
            double lo = ceil((double)tasks / 2), hi = 2.0 * (double)tasks;
            n[k] = nearbyint(lo + (hi - lo) * (double)k / (double)(runs - 1));
            double t = STARTUP + mb / (n[k] * rate);
            avg[k] = t * fmax(0.05, 1 + jitter * so_rng_normal(rng, 0, 1));
            max[k] = avg[k] * (1.2 + 0.3 * so_rng_uniform(rng));
        }
        double a1, b1, a2, b2;
        if (so_lsq_fit_inverse(n, avg, (size_t)runs, &a1, &b1) ||
            so_lsq_fit_inverse(n, max, (size_t)runs, &a2, &b2))
            continue;
        if (!valid_fit(a1, b1, a2, b2, 1) || !valid_fit(a1, b1, a2, b2, (double)tasks))
            continue;
        arr = json_array();
        for (long k = 0; k < runs; k++)
            json_array_append_new(arr, json_pack("[fff]", n[k], avg[k], max[k]));
    }
    free(n);
    return arr;
}

static json_t *phase(double mb, double rate, int64_t tasks, long runs,
                     double jitter, so_rng *rng)
{
    json_t *h = history(mb, rate, tasks, runs, jitter, rng);
    return h ? json_pack("{so}", "samples", h) : NULL;
}

static json_t *job(const application *a, size_t index, long runs, double jitter,
                   so_rng *rng)
{
    double out_mb = a->selectivity * a->input_mb;
    double out_bytes = out_mb * 1048576.0;
    json_t *map = phase(a->input_mb, a->map_rate, a->map_tasks, runs, jitter, rng);
    json_t *shuffle = phase(out_mb, a->shuffle_rate, a->reduce_tasks, runs, jitter, rng);
    json_t *reduce = phase(out_mb, a->reduce_rate, a->reduce_tasks, runs, jitter, rng);
    if (!map || !shuffle || !reduce) {
        json_decref(map);
        json_decref(shuffle);
        json_decref(reduce);
        return NULL;
    }
    char name[64];
    snprintf(name, sizeof name, "%s%zu", a->name, index);
    return json_pack("{sssIsIsososos{s[ff]s[ff]}}", "name", name, "map_tasks",
                     (json_int_t)a->map_tasks, "reduce_tasks",
                     (json_int_t)a->reduce_tasks, "map", map, "shuffle", shuffle,
                     "reduce", reduce, "map_output", "bytes", 0.0, out_bytes,
                     "records", 0.0, out_bytes / a->record_bytes);
}

int so_pt_puma_generate(const so_params *set, so_rng *rng, json_t **out,
                        so_error *err)
{
    const so_option_doc *d = so_pt_puma_params;
    const char *wl = so_params_str(set, d, "workload", "twitter");
    long long runs, max_vms;
    double jitter, bmin, bmax;
    int rc = so_params_int(set, d, "history", 10, &runs, err);
    if (!rc)
        rc = so_params_int(set, d, "max_vms", 0, &max_vms, err);
    if (!rc)
        rc = so_params_double(set, d, "jitter", 0.05, &jitter, err);
    if (!rc)
        rc = so_params_double(set, d, "budget_min", 0, &bmin, err);
    if (!rc)
        rc = so_params_double(set, d, "budget_max", 20, &bmax, err);
    if (rc)
        return rc;
    int w = -1;
    for (int k = 0; k < 4; k++)
        if (!strcmp(wl, workloads[k].name))
            w = k;
    if (w < 0)
        return so_error_setf(err, NULL, 0, 0, "workload", "expected twitter, sort,"
                             " wordcount or twitter-wordcount, found '%s'", wl);
    if (runs < 2 || runs > 1000)
        return so_error_setf(err, NULL, 0, 0, "history", "expected 2..1000, found %lld", runs);
    if (!(jitter >= 0 && jitter <= 0.5))
        return so_error_setf(err, NULL, 0, 0, "jitter", "expected [0, 0.5], found %g", jitter);
    if (!(bmin >= 0 && bmin <= bmax))
        return so_error_setf(err, NULL, 0, 0, "budget_min",
                             "expected 0 <= budget_min <= budget_max, found %g > %g", bmin, bmax);
    if (max_vms < 0 || max_vms > 100000000)
        return so_error_setf(err, NULL, 0, 0, "max_vms", "expected 0..1e8, found %lld", max_vms);
    json_t *jobs = json_array();
    for (size_t j = 0; j < 3; j++) {
        json_t *o = job(&apps[workloads[w].app[j]], j, (long)runs, jitter, rng);
        if (!o) {
            json_decref(jobs);
            return so_error_setf(err, NULL, 0, 0, "jitter",
                                 "could not draw valid profiles with jitter %g", jitter);
        }
        json_array_append_new(jobs, o);
    }
    *out = json_pack("{sssis{sisisfsfsfsI}s{sfsfsf}so}", "problem", "pareto",
                     "version", 1, "cluster", "map_slots_per_vm", 2,
                     "reduce_slots_per_vm", 2, "vm_cost_per_hour", 1.0,
                     "io_cost_per_request", 0.05e-6, "io_request_bytes", 4096.0,
                     "max_vms", (json_int_t)max_vms, "workload", "budget_min", bmin,
                     "budget_max", bmax, "deadline", workloads[w].deadline,
                     "jobs", jobs);
    return *out ? SO_OK : SO_ENOMEM;
}
