/* family_ras_gridmix.c — `ras-gridmix-workload`: the Gridmix workload of
 * Polo et al., "Resource-aware Adaptive Scheduling for MapReduce Clusters"
 * (Middleware 2011), section 4.1, as a cluster workload to replay: the 9
 * jobs of Table 1 (Sort, Combine, Select; input size, submission time,
 * length in isolation, Experiment 2's completion-time goals) with the
 * per-phase demands of Table 2 (cpu, io, memory in % of a TaskTracker), on
 * 20 TaskTrackers of capacity 100 % each. The tables are shared with the
 * snapshot family ras-gridmix (formulations/ras_gridmix.c), and so are its
 * choices: maps = ceil(input / split_mb); Combine and Select one reducer
 * (sec. 4.2), Sort `sort_reducers`; a map takes the average map time of
 * ras_gridmix.h (the job's maps in waves within map_fraction of its length
 * in isolation). Further choices (docs/cluster.md, "Workload families"):
 *   - a reduce takes (1 - map_fraction) x the length in isolation, 30 %
 *     copying and 10 % sorting; its demand while copying (shuffle_demand)
 *     is Table 2's shuffle io per map times parallelCopies = 5 (every
 *     fetch thread busy), its reduce-phase memory and no cpu;
 *   - contention "physical" (the default since issue 32, see below), or
 *     "share" with memory hard (checked at launch): cpu and io
 *     may be over-committed and slow the attempts down, memory may not
 *     (the paper: over-committed nodes slow tasks, Experiment 1), or
 *     "none" (every resource checked at launch), or "physical" (issue 32:
 *     cpu, disk and memory curves; memory unchecked at launch and swapping
 *     when over-committed; a shuffling reducer holds `shuffle_memory` %,
 *     its shuffle buffers, until its reduce phase);
 *   - map_slots 4 (Experiment 1's best static setting), reduce_slots 2
 *     (Hadoop's default; the paper does not say);
 *   - goals: none (Experiment 1's relaxed goals), or tight: Table 1's
 *     Experiment 2 goals, as seconds after submission;
 *   - the user of a job is its application (Sort, Combine, Select);
 *   - `repeat` R > 1 (scale runs, issue 16): the nine jobs R times, copy r
 *     submitted r x `period` seconds later and named "<job>-r<r>". */
#include <stdio.h>
#include <string.h>
#include "cluster/workload_family.h"
#include "formulations/ras_gridmix.h"

const so_option_doc so_cl_ras_gridmix_params[] = {
    {"map_slots", "4", "map slots per TaskTracker (the paper: 1..8)"},
    {"reduce_slots", "2", "reduce slots per TaskTracker"},
    {"goals", "none", "none | tight (Table 1's Experiment 2 goals)"},
    {"contention", "physical", "physical | share | none (docs/cluster.md)"},
    {"shuffle_memory", "10", "physical: a shuffling reducer's memory, %"},
    {"split_mb", "128", "input split size in MB (one map per split)"},
    {"sort_reducers", "20", "reducers of each Sort job"},
    {"map_fraction", "0.8", "share of a job's length spent in its map phase"},
    {"repeat", "1", "the nine jobs this many times (1..10000), for scale runs"},
    {"period", "3600", "seconds between two repetitions' submissions"},
    {NULL, NULL, NULL},
};

static const char *const resources[] = {"cpu", "io", "memory"};

static void gridmix_job(so_wf_job *j, const so_gridmix_job *g, int tight,
                        double split_mb, int sort_reducers,
                        double map_fraction, double shuffle_memory)
{
    const so_gridmix_app *app = &so_gridmix_apps[g->app];
    memset(j, 0, sizeof *j);
    snprintf(j->name, sizeof j->name, "%s-%s", g->label, app->name);
    j->user = app->name;
    j->submit = g->submit;
    j->maps = so_gridmix_maps(g, split_mb);
    j->reduces = g->app == 0 ? sort_reducers : 1;
    j->map_time.kind = j->reduce_time.kind = SO_WF_FIXED;
    j->map_time.a = so_gridmix_map_time(g, split_mb, map_fraction);
    j->reduce_time.a = (1 - map_fraction) * g->isolation;
    j->copy_share = 0.3;
    j->sort_share = 0.1;
    j->goal = tight ? g->goal - g->submit : 0;
    j->n_resources = 3;
    for (int r = 0; r < 3; r++) {
        j->map_demand[r] = app->map[r];
        j->reduce_demand[r] = app->reduce[r];
    }
    j->shuffle_demand[1] = app->shuffle_io * SO_GRIDMIX_PARALLEL_COPIES;
    /* share and none: a shuffling reducer holds its reduce memory (as
     * before issue 32); physical: its shuffle buffers only (Table 2 gives
     * shuffle no memory; "a reduce task in shuffle phase only consumes
     * memory", sec. 3.4) */
    j->shuffle_demand[2] = shuffle_memory >= 0 ? shuffle_memory : app->reduce[2];
}

int so_cl_ras_gridmix_generate(const so_params *set, so_rng *rng,
                               json_t **out, so_error *err)
{
    static const char *const goal_names[] = {"none", "tight", NULL};
    static const char *const contention_names[] = {"share", "none",
                                                   "physical", NULL};
    /* physical is the default (docs/ras-online.md measures why) */
    const so_option_doc *d = so_cl_ras_gridmix_params;
    int map_slots, reduce_slots, tight, model, sort_reducers, repeat;
    double split_mb, map_fraction, period, shuffle_memory;
    int rc = so_wf_param_int(set, d, "map_slots", 1, 64, &map_slots, err);
    if (!rc)
        rc = so_wf_param_int(set, d, "reduce_slots", 1, 64, &reduce_slots, err);
    if (!rc)
        rc = so_wf_param_choice(set, d, "goals", goal_names, &tight, err);
    if (!rc)
        rc = so_wf_param_choice(set, d, "contention", contention_names, &model, err);
    if (!rc)
        rc = so_wf_param(set, d, "shuffle_memory", 0, 100, &shuffle_memory, err);
    if (!rc)
        rc = so_wf_param(set, d, "split_mb", 1, 1e6, &split_mb, err);
    if (!rc)
        rc = so_wf_param_int(set, d, "sort_reducers", 1, 10000, &sort_reducers, err);
    if (!rc)
        rc = so_wf_param(set, d, "map_fraction", 0.01, 0.99, &map_fraction, err);
    if (!rc)
        rc = so_wf_param_int(set, d, "repeat", 1, 10000, &repeat, err);
    if (!rc)
        rc = so_wf_param(set, d, "period", 0, 1e9, &period, err);
    if (rc)
        return rc;
    json_t *jobs = json_array();
    for (int r = 0; r < repeat && jobs; r++)
        for (size_t k = 0; k < so_gridmix_job_count && jobs; k++) {
            so_wf_job j;
            gridmix_job(&j, &so_gridmix_jobs[k], tight, split_mb,
                        sort_reducers, map_fraction,
                        model == 2 ? shuffle_memory : -1);
            if (repeat > 1) {
                size_t len = strlen(j.name);
                snprintf(j.name + len, sizeof j.name - len, "-r%d", r);
                j.submit += r * period;
            }
            if (json_array_append_new(jobs, so_wf_job_json(&j, rng))) {
                json_decref(jobs);
                jobs = NULL;
            }
        }
    so_wf_cluster cl = {SO_GRIDMIX_TTS, map_slots, reduce_slots, 0, 1, 3,
                        resources, 100, model == 0 ? "memory" : NULL};
    json_t *cluster = so_wf_cluster_json(&cl);
    if (cluster && model == 2) /* every curve at its default */
        json_object_set_new(cluster, "contention",
                            json_pack("{s:s}", "model", "physical"));
    if (!jobs || !cluster) {
        json_decref(jobs);
        json_decref(cluster);
        return SO_ENOMEM;
    }
    *out = so_wf_workload(cluster, jobs);
    return *out ? SO_OK : SO_ENOMEM;
}
