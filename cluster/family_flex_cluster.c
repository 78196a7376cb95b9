/* family_flex_cluster.c — `flex-cluster`: the cluster experiments of Wolf
 * et al., "FLEX: A Slot Allocation Scheduling Optimizer for MapReduce
 * Workloads" (Middleware 2010), section 4.2 / Fig. 6, as cluster
 * workloads.
 *
 * From the paper: 26 hosts, "13 4-core blades ... and 13 8-core blades";
 * `jobs` jobs (10; also 20 and 40) of one parametrisable job in several
 * sizes, a subset "that can be completed on our cluster in about 45
 * minutes"; all jobs in one pool whose minimum share sets the slack
 * ("We set the same minimum for Map slots and Reduce slots"; slack 15 to
 * 95 %); inter-arrival times exponential with mean `lambda` minutes (0:
 * all at time 0); job-size heterogeneity sigma, "the standard deviation of
 * the estimated work of the jobs" (sigma = 4: the smallest job about a
 * tenth of the largest).
 * Choices where the paper is silent (docs/cluster.md, "Workload
 * families"):
 *   - slots: a 4-core blade 4 map + 2 reduce slots, an 8-core blade 8 + 4
 *     (156 map and 78 reduce slots), all at speed 1;
 *   - a job of size u (in units) has round(120 u) maps of 60 s and
 *     max(1, round(6 u)) reduces of 120 s (copy 30 %, sort 10 %), task
 *     times normal with sd task_cv x mean; u ~ N(5, sigma) cut at 0.5 (at
 *     sigma = 4 sizes span 0.5 to about 13, the paper's "one-tenth"); ten
 *     jobs of mean size fill the map slots for about 40 minutes;
 *   - the pool's minimum = round((1 - slack) x the map slots) for maps and
 *     the same number, at most the reduce slots, for reduces;
 *   - Hadoop's reduce slow-start 0.05 (the reader's default). */
#include <math.h>
#include <stdio.h>
#include "cluster/workload_family.h"

const so_option_doc so_cl_flex_cluster_params[] = {
    {"jobs", "10", "jobs (the paper: 10, 20, 40)"},
    {"slack", "0.75", "1 - the pool's minimum share / the slots (0..1)"},
    {"lambda", "0", "mean inter-arrival time, minutes (0: all at time 0)"},
    {"sigma", "2", "standard deviation of the job sizes (mean 5 units)"},
    {"task_cv", "0.1", "task times: normal, sd = task_cv x mean (0..1)"},
    {NULL, NULL, NULL},
};

enum { BLADES = 13, MAP_SLOTS = 3 * BLADES * 4, REDUCE_SLOTS = MAP_SLOTS / 2 };

static json_t *cluster_json(void)
{
    return json_pack("{s:[{s:i,s:i,s:i},{s:i,s:i,s:i}]}", "nodes",
                     "count", BLADES, "map_slots", 4, "reduce_slots", 2,
                     "count", BLADES, "map_slots", 8, "reduce_slots", 4);
}

int so_cl_flex_cluster_generate(const so_params *set, so_rng *rng,
                                json_t **out, so_error *err)
{
    const so_option_doc *d = so_cl_flex_cluster_params;
    int jobs;
    double slack, lambda, sigma, cv;
    int rc = so_wf_param_int(set, d, "jobs", 1, 10000, &jobs, err);
    if (!rc)
        rc = so_wf_param(set, d, "slack", 0, 1, &slack, err);
    if (!rc)
        rc = so_wf_param(set, d, "lambda", 0, 1e4, &lambda, err);
    if (!rc)
        rc = so_wf_param(set, d, "sigma", 0, 100, &sigma, err);
    if (!rc)
        rc = so_wf_param(set, d, "task_cv", 0, 1, &cv, err);
    if (rc)
        return rc;
    json_t *arr = json_array(), *cluster = cluster_json();
    if (!arr || !cluster) {
        json_decref(arr);
        json_decref(cluster);
        return SO_ENOMEM;
    }
    so_wf_arrival arrive = {SO_WF_ARRIVE_POISSON, lambda * 60.0, 0, 0};
    so_wf_dist size = so_wf_normal_cv(5.0, sigma / 5.0);
    double submit = 0;
    for (int k = 0; k < jobs && !rc; k++) {
        if (k > 0 && lambda > 0)
            so_wf_arrivals(&arrive, submit, 1, rng, &submit);
        double u = so_wf_draw(&size, 0.5, rng);
        so_wf_job j = {0};
        snprintf(j.name, sizeof j.name, "job-%d", k);
        j.user = "flex";
        j.submit = submit;
        j.maps = (int)lround(120.0 * u);
        j.reduces = (int)lround(6.0 * u) > 0 ? (int)lround(6.0 * u) : 1;
        j.map_time = so_wf_normal_cv(60.0, cv);
        j.reduce_time = so_wf_normal_cv(120.0, cv);
        j.copy_share = 0.3;
        j.sort_share = 0.1;
        json_t *o = so_wf_job_json(&j, rng);
        if (!o || json_array_append_new(arr, o))
            rc = SO_ENOMEM;
    }
    long min_maps = lround((1.0 - slack) * MAP_SLOTS);
    long min_reduces = min_maps < REDUCE_SLOTS ? min_maps : REDUCE_SLOTS;
    json_t *pools = json_pack("[{s:s,s:i,s:i}]", "name", "flex", "min_maps",
                              (int)min_maps, "min_reduces", (int)min_reduces);
    if (rc || !pools) {
        json_decref(arr);
        json_decref(cluster);
        json_decref(pools);
        return rc ? rc : SO_ENOMEM;
    }
    *out = so_wf_workload(cluster, arr);
    if (!*out || json_object_set_new(*out, "pools", pools)) {
        json_decref(*out);
        *out = NULL;
        return SO_ENOMEM;
    }
    return SO_OK;
}
