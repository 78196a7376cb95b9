/* family_swim_synth.c — `swim-synth`: SWIM-like workloads at any scale, for
 * the scaling benchmarks of the cluster model (issue 16). SWIM (Chen et
 * al., MASCOTS 2011) samples Facebook's job mix; its traces carry per job
 * the map input, shuffle and output bytes, and workload_swim.c derives tasks
 * from them. This family draws those three byte counts from distributions
 * fitted to the shipped FB-2009 sample (instances/traces/swim, 5,894 jobs),
 * then derives tasks exactly as workload_swim.c does with its defaults.
 *
 * Fitted (natural logs of bytes; fits by moments on the sample):
 *   input: a mixture, 87 % "small" jobs lognormal(mu 9.10, sigma 3.61) and
 *          13 % "large" ones lognormal(mu 22.07, sigma 2.12) (split at
 *          10^8 bytes; the sample has 87.0 % below it), times size_scale;
 *   shuffle: none with probability 0.755 (the sample's map-only share),
 *          else input x e^N(-1.23, 4.02) (log shuffle / input);
 *   output: lognormal(mu 14.75, sigma 5.17) bytes, times size_scale.
 * With size_scale 1 the jobs average about 70 tasks (the sample: 68.9); with
 * 10, about 700 (the FB-2010 day: 16.4 M tasks over 24,442 jobs, 670).
 * Choices: each draw is cut at the sample's largest (input 7.56e12, shuffle
 * 8.83e12, output 4.69e11 bytes; before size_scale), and a shuffle at 100x
 * the input, so that no task of a map-only job runs for years.
 * Derivation (workload_swim.c defaults): 64 MiB blocks, maps = ceil(input /
 * block) at least 1 (choice: at most 100,000, the sample's largest job has
 * 112,523), each map 1 s + its block / 20 MiB/s (choice: every map reads a
 * full block except for a one-map job, which reads its input; map-only jobs
 * add output / maps / 20 MiB/s; with `map_output_mib` C > 0 a map-only job
 * has at least ceil(output / C) maps, what the blocks' maps would read
 * spread evenly over them: cluster/swim_maps.h; the 100,000-map cap still
 * holds, past it each map writes more than C); reduces = ceil(shuffle / 10^9), at most
 * 999, each copying shuffle / r at 20 MiB/s, sorting at 100 MiB/s and
 * reducing 1 s + (shuffle + output) / r at 20 MiB/s; slow-start 0.05.
 * Locality (for delay scheduling): with `replicas` R > 0 the cluster has R
 * replicas per block, placed uniformly over distinct nodes by the simulator
 * (seeded), and a map away from its data runs `remote_slowdown` times
 * longer (default 1.5); R = 0 (default) writes no locality model.
 * `slowstart` (written into every shuffling job when not Hadoop's 0.05)
 * and `outofband` (the cluster's out-of-band heartbeats) are there for the
 * fair-vs-fifo scenario on 3,000 nodes (docs/cluster.md).
 * Arrivals: Poisson at `rate` jobs per second (default 0.0682, the sample's
 * 5,894 jobs in 24 h), from time 0. Cluster: `nodes` nodes of 2 map + 2
 * reduce slots, speed 1 (SWIM's defaults). One draw order per job (input
 * class, input, shuffle, ratio, output), so the same seed gives the same
 * bytes and more jobs only append.
 */
#include <math.h>
#include <stdio.h>
#include "cluster/swim_maps.h"
#include "cluster/workload_family.h"

const so_option_doc so_cl_swim_synth_params[] = {
    {"jobs", "1000", "number of jobs (1..10000000)"},
    {"rate", "0.0682",
     "Poisson arrivals, jobs per second (0.000001..1000000; FB-2009 sample:"
     " 0.0682)"},
    {"nodes", "100", "nodes of 2 map + 2 reduce slots (1..1000000)"},
    {"size_scale", "1",
     "multiplies every byte count (0.001..100; 1: about 70 tasks per job as"
     " the FB-2009 sample, 10: about 700 as the FB-2010 day)"},
    {"replicas", "0",
     "HDFS replicas of each map's block (0: no locality model; at most 16 and"
     " the nodes), placed at random by the simulator"},
    {"remote_slowdown", "1.5",
     "work factor of a map away from its data (1..100; with replicas > 0)"},
    {"slowstart", "0.05",
     "fraction of a job's maps done before its reduces may start (0.001..1;"
     " Hadoop's mapred.reduce.slowstart.completed.maps default 0.05)"},
    {"outofband", "0",
     "1: a node heartbeats as soon as an attempt ends (Hadoop's"
     " mapreduce.tasktracker.outofband.heartbeat); 0: off"},
    {"map_output_mib", "0",
     "most output MiB one map of a map-only job writes, more maps"
     " otherwise (0..1000000000; 0: no cap, SWIM's replay)"},
    {NULL, NULL, NULL},
};

#define MIB 1048576.0
#define BLOCK (64 * MIB)
#define MAX_MAPS 100000.0
/* the sample's largest byte counts: the fitted tails are cut there */
#define MAX_INPUT 7.56e12
#define MAX_SHUFFLE 8.83e12
#define MAX_OUTPUT 4.69e11

/* One job's tasks from its bytes (workload_swim.c's rules, defaults). */
static void derive(double input, double shuffle, double output,
                   double out_cap, so_wf_job *j)
{
    double maps = fmin(MAX_MAPS,
                       so_cl_swim_maps(input, shuffle, output, BLOCK, out_cap));
    double reduces = shuffle > 0 ? fmin(999, fmax(1.0, ceil(shuffle / 1e9))) : 0;
    /* what the blocks' maps read (a full block each, or a one-map job's
     * input), spread evenly when the output cap added maps */
    double blocks = fmin(MAX_MAPS, fmax(1.0, ceil(input / BLOCK)));
    double read = (blocks > 1 ? blocks * BLOCK : input) / maps;
    double extra = shuffle > 0 ? 0 : output / maps;
    j->maps = (int)maps;
    j->reduces = (int)reduces;
    j->map_time = (so_wf_dist){SO_WF_FIXED, 1 + (read + extra) / (20 * MIB), 0, 0, 0, 0};
    if (reduces > 0) {
        double in = shuffle / reduces, out = output / reduces;
        double copy = in / (20 * MIB), sort = in / (100 * MIB);
        double reduce = 1 + (in + out) / (20 * MIB);
        double total = copy + sort + reduce;
        j->reduce_time = (so_wf_dist){SO_WF_FIXED, total, 0, 0, 0, 0};
        j->copy_share = copy / total;
        j->sort_share = sort / total;
    }
}

int so_cl_swim_synth_generate(const so_params *set, so_rng *rng, json_t **out,
                              so_error *err)
{
    const so_option_doc *d = so_cl_swim_synth_params;
    int n, nodes;
    double rate, scale;
    int rc = so_wf_param_int(set, d, "jobs", 1, 10000000, &n, err);
    if (!rc)
        rc = so_wf_param(set, d, "rate", 1e-6, 1e6, &rate, err);
    if (!rc)
        rc = so_wf_param_int(set, d, "nodes", 1, 1000000, &nodes, err);
    if (!rc)
        rc = so_wf_param(set, d, "size_scale", 0.001, 100, &scale, err);
    int replicas;
    double slowdown;
    if (!rc)
        rc = so_wf_param_int(set, d, "replicas", 0, 16, &replicas, err);
    if (!rc)
        rc = so_wf_param(set, d, "remote_slowdown", 1, 100, &slowdown, err);
    double out_cap = 0, slowstart = 0.05;
    int outofband = 0;
    if (!rc)
        rc = so_wf_param(set, d, "map_output_mib", 0, 1e9, &out_cap, err);
    if (!rc)
        rc = so_wf_param(set, d, "slowstart", 0.001, 1, &slowstart, err);
    if (!rc)
        rc = so_wf_param_int(set, d, "outofband", 0, 1, &outofband, err);
    if (!rc && replicas > nodes)
        rc = so_error_setf(err, NULL, 0, 0, "replicas",
                           "expected at most the %d nodes, found %d", nodes,
                           replicas);
    if (rc)
        return rc;
    const so_wf_dist small = {SO_WF_LOGNORMAL, 9.10, 3.61, 0, 0, 0};
    const so_wf_dist large = {SO_WF_LOGNORMAL, 22.07, 2.12, 0, 0, 0};
    const so_wf_dist ratio = {SO_WF_NORMAL, -1.23, 4.02, 0, 0, 0};
    const so_wf_dist outd = {SO_WF_LOGNORMAL, 14.75, 5.17, 0, 0, 0};
    so_wf_arrival arrive = {SO_WF_ARRIVE_POISSON, 1.0 / rate, 0, 0};
    json_t *jobs = json_array();
    if (!jobs)
        return SO_ENOMEM;
    double t = 0;
    for (int k = 0; k < n && !rc; k++) {
        so_wf_arrivals(&arrive, t, 1, rng, &t);
        int is_large = so_rng_uniform(rng) < 0.13;
        double input = fmin(so_wf_draw(is_large ? &large : &small, 1, rng),
                            MAX_INPUT) * scale;
        int shuffles = so_rng_uniform(rng) >= 0.755;
        double r = so_wf_draw(&ratio, -1e300, rng);
        double output = fmin(so_wf_draw(&outd, 0, rng), MAX_OUTPUT) * scale;
        double shuffle = shuffles ? fmin(input * exp(fmin(r, log(100.0))),
                                         MAX_SHUFFLE * scale)
                                  : 0;
        so_wf_job j = {0};
        snprintf(j.name, sizeof j.name, "job%d", k);
        j.user = "default";
        j.submit = t;
        derive(input, shuffle, output, out_cap * MIB, &j);
        if (slowstart != 0.05 && j.reduces > 0)
            j.slowstart = slowstart; /* else the reader's default, 0.05 */
        json_t *o = so_wf_job_json(&j, rng);
        if (!o || json_array_append_new(jobs, o))
            rc = SO_ENOMEM;
    }
    so_wf_cluster cl = {nodes, 2, 2, 0, 1, 0, NULL, 0, NULL};
    json_t *cluster = rc ? NULL : so_wf_cluster_json(&cl);
    if (cluster && replicas > 0 &&
        (json_object_set_new(cluster, "replicas", json_integer(replicas)) ||
         json_object_set_new(cluster, "remote_slowdown", json_real(slowdown)))) {
        json_decref(cluster);
        cluster = NULL;
    }
    if (cluster && outofband &&
        json_object_set_new(cluster, "outofband", json_true())) {
        json_decref(cluster);
        cluster = NULL;
    }
    if (rc || !cluster) {
        json_decref(jobs);
        json_decref(cluster);
        return rc ? rc : SO_ENOMEM;
    }
    *out = so_wf_workload(cluster, jobs);
    return *out ? SO_OK : SO_ENOMEM;
}
