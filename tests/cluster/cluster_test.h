/* cluster_test.h — running small simulations from JSON text in tests. */
#ifndef SO_CLUSTER_TEST_H
#define SO_CLUSTER_TEST_H
#include <string.h>
#include <stdlib.h>
#include <jansson.h>
#include "cluster/cluster.h"
#include "cluster/workload_family.h"
#include "tests/test_util.h"

/* The smallest stall (docs/cluster.md, "Known limitation"; suites
 * cluster-stall, cluster-offline-opt): one node of 1 map slot, 2 reduce
 * slots and cpu 4, beats every second at 0, 1, ...; job B one map of 5 s,
 * job A maps [1, 1] of cpu 4 and two reduces (copy 1) of cpu 2 at
 * slow-start 0. Its jobs array is left open: append jobs, then "]}". */
#define CL_STALLED_HEAD                                                               \
    "{\"cluster\": {\"resources\": [\"cpu\"], \"nodes\": [{\"map_slots\": 1,"        \
    " \"reduce_slots\": 2, \"capacity\": [4]}], \"heartbeat\": 1,"                     \
    " \"heartbeat_phase\": \"aligned\"},"                                             \
    " \"jobs\": [{\"name\": \"B\", \"submit\": 0, \"maps\": [5]},"                     \
    "  {\"name\": \"A\", \"submit\": 0, \"maps\": [1, 1], \"map_demand\": [4],"        \
    "   \"reduces\": [{\"copy\": 1, \"sort\": 0, \"reduce\": 0},"                       \
    "                {\"copy\": 1, \"sort\": 0, \"reduce\": 0}],"                       \
    "   \"reduce_demand\": [2], \"slowstart\": 0}"

typedef struct cl_run {
    so_cl_workload *w;
    so_cl_sim *sim;
} cl_run;

/* Parses json, simulates it under the named policies (spec NULL: none) with
 * the given options (may be NULL), seed and node-policy hooks (may be
 * NULL); sim is NULL on any failure. */
static inline cl_run cl_simulate_hooks(const char *json, const char *sched,
                                       const char *spec, const so_params *prm,
                                       uint64_t seed, FILE *log,
                                       const so_cl_hooks *hooks, void *state)
{
    cl_run r = {NULL, NULL};
    so_error err;
    if (so_cl_workload_parse(json, strlen(json), "test.json", prm, seed, &r.w,
                             &err))
        return r;
    so_cl_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.scheduler = so_cl_scheduler_find(sched);
    cfg.speculation = spec ? so_cl_speculation_find(spec) : NULL;
    cfg.params = prm;
    cfg.seed = seed;
    cfg.event_log = log;
    cfg.hooks = hooks;
    cfg.hooks_state = state;
    so_cl_sim *sim = NULL;
    if (so_cl_sim_new(r.w, &cfg, &sim, &err) == SO_OK &&
        so_cl_sim_run(sim) == SO_OK)
        r.sim = sim;
    else
        so_cl_sim_free(sim);
    return r;
}

static inline cl_run cl_simulate(const char *json, const char *sched,
                                 const char *spec, const so_params *prm,
                                 uint64_t seed, FILE *log)
{
    return cl_simulate_hooks(json, sched, spec, prm, seed, log, NULL, NULL);
}

/* Writes the shipped FB-2009 sample's first `lines` jobs to the test
 * directory as `name`; its path (so_test_write's ring), or NULL. */
static inline const char *cl_fb2009_head(int lines, const char *name)
{
    char *all = so_test_slurp("instances/traces/swim/FB-2009_samples_24_times_1hr_0.tsv");
    if (!all)
        return NULL;
    char *cut = all;
    for (int line = 0; line < lines && cut; line++) {
        cut = strchr(cut, '\n');
        if (cut)
            cut++;
    }
    const char *path = NULL;
    if (cut) {
        *cut = '\0';
        path = so_test_write(name, all);
    }
    free(all);
    return path;
}

/* A workload family's instance `index` at this seed as JSON text (free()
 * it), the family's parameters set from the NULL-terminated KEY=VALUE
 * list; NULL when it cannot be made. */
static inline char *cl_family_text(const char *family, const char *const *sets, uint64_t seed,
                                   int index)
{
    so_params set;
    so_params_init(&set);
    so_error err;
    for (; sets && *sets; sets++)
        so_params_set_kv(&set, *sets, &err);
    json_t *inst = NULL;
    if (so_family_generate(so_family_find(family), &set, seed, index, &inst, &err))
        return NULL;
    char *text = json_dumps(inst, JSON_COMPACT);
    json_decref(inst);
    return text;
}

static inline void cl_done(cl_run *r)
{
    so_cl_sim_free(r->sim);
    so_cl_workload_free(r->w);
    r->sim = NULL;
    r->w = NULL;
}

#endif
