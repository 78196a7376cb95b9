/* family_stealing.c — `stealing-paper`: the experiments of Zhenhua Guo,
 * Geoffrey Fox, Mo Zhou and Yang Ruan, "Improving Resource Utilization in
 * MapReduce" (IEEE Cluster 2012), section IV, as cluster workloads: one job
 * at time 0 on 32 slave nodes of 7 map + 7 reduce slots (sec. IV: 8 cores,
 * "7 map slots and 7 reduce slots", 224 of each).
 *
 * Jobs (`job`), from the paper:
 *   ts-map     sec. IV.A.1, Fig. 3: compute-bound map-only text extraction,
 *              `tasks` = 56 / 112 / 168 / 202 maps (25 / 50 / 75 / 90 % of
 *              the map slots) of 256 MB, "approximately 5 minutes" each;
 *              with `stragglers` = 2 / 4 slow nodes and 168 maps, Fig. 5;
 *   ts-reduce  sec. IV.C, Fig. 6a: 101 maps, 32 or 64 compute-bound
 *              reduces, jobs of 5-10 minutes;
 *   mm         sec. IV.C, Fig. 6b: matrix multiply, 10 or 112 reduces
 *              doing the work, maps that only split the input (20 GB for
 *              10 reduces, 210 GB for 112);
 *   mr-wc      sec. IV.D, Fig. 7: network-bound map-only web crawler,
 *              56 / 112 / 168 / 202 maps of 2,000 pages;
 *   wordcount, io   sec. IV.D, Fig. 8: I/O-bound word count and text
 *              extraction `ts`, maps of 256 MB.
 * Choices where the paper is silent (docs/cluster.md, "Workload families"):
 *   - parallel fractions (Amdahl, `map_parallel` / `reduce_parallel`):
 *     0.95 for compute- and network-bound phases (mm's 5.4x speed-up from
 *     7 threads: 1 / (0.05 + 0.95 / 7) = 5.38), 0.875 for ts-reduce's
 *     reduces (the paper's "4x from 7 threads": 1 / ((1 - f) + f / 7) = 4),
 *     0.1 for I/O-bound phases (Fig. 8's "only slightly better": 1.09x
 *     from 7 threads); `parallel` overrides the main phase's fraction;
 *   - task times on a speed-1 node: ts-map and mr-wc maps 300 s; ts-reduce
 *     maps 30 s and reduces 300 s; mm maps 10 s and reduces 600 s with 8
 *     maps per reduce (80 for 10: the paper's 20 GB in 256 MB blocks);
 *     wordcount and io maps 60 s, wordcount one 30 s reduce; every task
 *     normal with sd task_cv x mean (the paper's "approximately");
 *   - a straggler runs at straggler_speed (the paper's background load
 *     "significantly slowed down the nodes"); the first nodes are slow. */
#include <stdio.h>
#include "cluster/workload_family.h"

const so_option_doc so_cl_stealing_params[] = {
    {"job", "ts-map", "ts-map | ts-reduce | mm | mr-wc | wordcount | io"},
    {"tasks", "0", "tasks of the job's main phase; 0: the paper's first"
                   " setting (ts-map, mr-wc, wordcount, io 56 maps;"
                   " ts-reduce 32, mm 10 reduces)"},
    {"stragglers", "0", "slow nodes (the paper: 0, 2, 4)"},
    {"straggler_speed", "0.5", "speed of a slow node (0.01..1)"},
    {"task_cv", "0.1", "task times: normal, sd = task_cv x mean (0..1)"},
    {"parallel", "-1", "Amdahl fraction of the main phase; -1: the job's"
                       " calibrated value"},
    {NULL, NULL, NULL},
};

enum { NODES = 32, SLOTS = 7 };

static const char *const job_names[] = {"ts-map", "ts-reduce", "mm", "mr-wc",
                                        "wordcount", "io", NULL};

/* Per job: main phase (0 map, 1 reduce), default tasks, maps per main task
 * (reduce jobs) or fixed maps, task times, parallel fractions. */
static const struct {
    int reduce_main, tasks, maps_per_task, maps, reduces;
    double map_s, reduce_s, map_f, reduce_f;
} jobs[] = {
    {0, 56, 0, 0, 0, 300, 0, 0.95, 0},      /* ts-map */
    {1, 32, 0, 101, 0, 30, 300, 0.1, 0.875}, /* ts-reduce */
    {1, 10, 8, 0, 0, 10, 600, 0.1, 0.95},   /* mm */
    {0, 56, 0, 0, 0, 300, 0, 0.95, 0},      /* mr-wc */
    {0, 56, 0, 0, 1, 60, 30, 0.1, 0.1},     /* wordcount */
    {0, 56, 0, 0, 0, 60, 0, 0.1, 0},        /* io */
};

int so_cl_stealing_generate(const so_params *set, so_rng *rng, json_t **out,
                            so_error *err)
{
    const so_option_doc *d = so_cl_stealing_params;
    int k, tasks, slow;
    double slow_speed, cv, parallel;
    int rc = so_wf_param_choice(set, d, "job", job_names, &k, err);
    if (!rc)
        rc = so_wf_param_int(set, d, "tasks", 0, 100000, &tasks, err);
    if (!rc)
        rc = so_wf_param_int(set, d, "stragglers", 0, NODES, &slow, err);
    if (!rc)
        rc = so_wf_param(set, d, "straggler_speed", 0.01, 1, &slow_speed, err);
    if (!rc)
        rc = so_wf_param(set, d, "task_cv", 0, 1, &cv, err);
    if (!rc)
        rc = so_wf_param(set, d, "parallel", -1, 1, &parallel, err);
    if (rc)
        return rc;
    if (parallel < 0 && parallel != -1)
        return so_error_setf(err, NULL, 0, 0, "parallel", "expected -1 or a"
                             " fraction in [0, 1], found %g", parallel);
    if (tasks == 0)
        tasks = jobs[k].tasks;
    so_wf_job j = {0};
    snprintf(j.name, sizeof j.name, "%s", job_names[k]);
    j.user = "default";
    j.map_time = so_wf_normal_cv(jobs[k].map_s, cv);
    j.reduce_time = so_wf_normal_cv(jobs[k].reduce_s, cv);
    j.copy_share = 0.1; /* the reduce-mostly jobs compute in reduce */
    j.sort_share = 0.05;
    j.map_parallel = jobs[k].map_f;
    j.reduce_parallel = jobs[k].reduce_f;
    if (jobs[k].reduce_main) {
        j.reduces = tasks;
        j.maps = jobs[k].maps ? jobs[k].maps : jobs[k].maps_per_task * tasks;
        if (parallel >= 0)
            j.reduce_parallel = parallel;
    } else {
        j.maps = tasks;
        j.reduces = jobs[k].reduces;
        if (parallel >= 0)
            j.map_parallel = parallel;
    }
    json_t *o = so_wf_job_json(&j, rng), *arr = json_array();
    so_wf_cluster cl = {NODES, SLOTS, SLOTS, slow, slow_speed, 0, NULL, 0, NULL};
    json_t *cluster = so_wf_cluster_json(&cl);
    if (!o || !arr || !cluster || json_array_append(arr, o)) {
        json_decref(o);
        json_decref(arr);
        json_decref(cluster);
        return SO_ENOMEM;
    }
    json_decref(o);
    *out = so_wf_workload(cluster, arr);
    return *out ? SO_OK : SO_ENOMEM;
}
