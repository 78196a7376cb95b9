/*
 * physics.c — choosing and tuning the contention model: the "physical"
 * model's parameters with their defaults and sources (the curves are in
 * physics_rates.c), their JSON keys under cluster.contention, and the run's
 * model from the workload and --opt (docs/cluster.md, "Resource
 * contention").
 *
 * Defaults (each a setting; the sources are discussed in docs/cluster.md):
 *   cpu_cores 2            the RAS paper's TaskTrackers: 2-way Xeons;
 *   cpu_latency_ms 12      Linux CFS sched_latency 6 ms x (1 + log2 2 cpus);
 *   cpu_granularity_ms 1.5 CFS sched_min_granularity 0.75 ms x 2;
 *   cpu_switch_us 100      a context switch with its cache refill: 3.8 us
 *                          direct, up to over 1000 us with working sets
 *                          beyond the cache (Li, Ding, Shen, ExpCS 2007);
 *   disk_seek_ms 12        average seek (8-9 ms) + half a rotation at
 *                          7200 rpm (4.2 ms);
 *   disk_slice_ms 100      CFQ's slice_sync (a sequential reader's turn);
 *   disk_target_ms 300     CFQ's target_latency (low_latency: all streams
 *                          served within 300 ms, slices at least 16 ms);
 *   swap_penalty 10        model assumption (docs: a task that re-touches its
 *                          heap about once a second, 200 MB against 20-30
 *                          MB/s of paging);
 *   profile_headroom 1.5   model assumption (the RAS paper's profiles come
 *                          from a configuration "in which competition for
 *                          resources occurs").
 * Under "physical" a resource of kind memory is never checked at launch
 * (Hadoop 1's TaskTracker never checked memory: over-commitment swaps); a
 * resource-aware scheduler (RAS) checks it itself.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/physics.h"

const char *const so_cl_physics_params[] = {
    "cpu_cores", "cpu_latency_ms", "cpu_granularity_ms", "cpu_switch_us",
    "disk_seek_ms", "disk_slice_ms", "disk_target_ms", "swap_penalty",
    "profile_headroom", NULL};

/* Each parameter's field, default and range. */
static double *field(so_cl_physics *ph, int k)
{
    double *f[] = {&ph->cpu_cores, &ph->cpu_latency_ms,
                   &ph->cpu_granularity_ms, &ph->cpu_switch_us,
                   &ph->disk_seek_ms, &ph->disk_slice_ms, &ph->disk_target_ms,
                   &ph->swap_penalty, &ph->profile_headroom};
    return f[k];
}
static const double defaults[] = {2, 12, 1.5, 100, 12, 100, 300, 10, 1.5};
static const double lo[] = {1, 0.01, 0.01, 0, 0, 0.1, 0, 0, 1};
static const double hi[] = {1024, 1e4, 1e4, 1e6, 1e4, 1e4, 1e5, 1e6, 100};

void so_cl_physics_defaults(so_cl_physics *ph)
{
    for (int r = 0; r < SO_CL_MAX_RESOURCES; r++)
        ph->kind[r] = SO_CL_KIND_AUTO;
    for (int k = 0; so_cl_physics_params[k]; k++)
        *field(ph, k) = defaults[k];
}

static const char *const kind_names[] = {"other", "cpu", "disk", "memory",
                                         NULL};

/* A resource's kind from its name: cpu*, io / disk*, mem*; else other. */
static int kind_of(const char *name)
{
    if (!strncmp(name, "cpu", 3))
        return SO_CL_KIND_CPU;
    if (!strcmp(name, "io") || !strncmp(name, "disk", 4))
        return SO_CL_KIND_DISK;
    if (!strncmp(name, "mem", 3))
        return SO_CL_KIND_MEMORY;
    return SO_CL_KIND_OTHER;
}

int so_cl_physics_kind(const so_cl_workload *w, int r)
{
    int k = w->physics.kind[r];
    return k == SO_CL_KIND_AUTO ? kind_of(w->resource[r]) : k;
}

int so_cl_physics_read_json(so_jin *in, json_t *o, so_cl_workload *w)
{
    const char *path = "cluster.contention";
    for (int k = 0; so_cl_physics_params[k]; k++) {
        int rc = so_jin_num(in, o, path, so_cl_physics_params[k], SO_OPTIONAL,
                            lo[k], hi[k], field(&w->physics, k));
        if (rc)
            return rc;
    }
    json_t *kinds = NULL;
    int rc = so_jin_object(in, o, path, "kinds", SO_OPTIONAL, &kinds);
    if (rc || !kinds)
        return rc;
    const char *name;
    json_t *v;
    json_object_foreach(kinds, name, v) {
        char p[160];
        snprintf(p, sizeof p, "%s.kinds.%s", path, name);
        int r = 0;
        while (r < w->n_resources && strcmp(w->resource[r], name))
            r++;
        if (r == w->n_resources)
            return so_jin_fail(in, p, 1, "expected the name of one of"
                               " cluster.resources");
        const char *kind = json_string_value(v);
        int k = 0;
        while (kind && kind_names[k] && strcmp(kind_names[k], kind))
            k++;
        if (!kind || !kind_names[k])
            return so_jin_fail(in, p, 0, "expected \"cpu\", \"disk\","
                               " \"memory\" or \"other\"");
        w->physics.kind[r] = k;
    }
    return SO_OK;
}

int so_cl_physics_setup(so_cl_sim *s, const so_params *prm, so_error *err)
{
    const so_cl_workload *w = s->w;
    s->contention = w->contention;
    s->phys = w->physics;
    for (int r = 0; r < SO_CL_MAX_RESOURCES; r++)
        s->hard[r] = w->hard[r];
    const char *model = prm ? so_params_get(prm, "contention") : NULL;
    if (model) {
        static const char *const models[] = {"none", "share", "physical", NULL};
        int m = 0;
        while (models[m] && strcmp(models[m], model))
            m++;
        if (!models[m])
            return so_error_setf(err, NULL, 0, 0, "contention",
                                 "expected none, share or physical, found '%s'",
                                 model);
        if (m != SO_CL_CONTENTION_NONE && w->n_resources == 0)
            return so_error_setf(err, NULL, 0, 0, "contention",
                                 "model %s needs a workload that names"
                                 " resources (cluster.resources)", model);
        /* none: every resource checked at launch; from none to a model:
         * every resource shared (the workload named none hard) */
        for (int r = 0; r < w->n_resources; r++)
            if (m == SO_CL_CONTENTION_NONE)
                s->hard[r] = 1;
            else if (w->contention == SO_CL_CONTENTION_NONE)
                s->hard[r] = 0;
        s->contention = m;
    }
    for (int k = 0; so_cl_physics_params[k]; k++) {
        const char *v = prm ? so_params_get(prm, so_cl_physics_params[k]) : NULL;
        if (!v)
            continue;
        char *end;
        double x = strtod(v, &end);
        if (end == v || *end || !(x >= lo[k] && x <= hi[k]))
            return so_error_setf(err, NULL, 0, 0, so_cl_physics_params[k],
                                 "expected a number in [%g, %g], found '%s'",
                                 lo[k], hi[k], v);
        *field(&s->phys, k) = x;
    }
    for (int r = 0; r < w->n_resources; r++) {
        s->phys.kind[r] = so_cl_physics_kind(w, r);
        if (s->contention == SO_CL_CONTENTION_PHYSICAL &&
            s->phys.kind[r] == SO_CL_KIND_MEMORY)
            s->hard[r] = 0; /* Hadoop 1 checks no memory at launch */
        else if (s->contention == SO_CL_CONTENTION_SHARE &&
                 w->contention == SO_CL_CONTENTION_PHYSICAL &&
                 s->phys.kind[r] == SO_CL_KIND_MEMORY)
            s->hard[r] = 1; /* share has no swapping: memory is checked */
        if (s->contention == SO_CL_CONTENTION_NONE || s->hard[r])
            continue;
        for (int n = 0; n < w->n_nodes; n++)
            if (!(w->nodes[n].capacity[r] > 0))
                return so_error_setf(err, NULL, 0, 0, "contention",
                                     "resource \"%s\" is shared and node %d"
                                     " has no capacity of it: its tasks would"
                                     " never progress", w->resource[r], n);
    }
    return SO_OK;
}
