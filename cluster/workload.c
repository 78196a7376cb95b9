/* workload.c — the workload container: reading dispatch (JSON or SWIM),
 * pools, job order, the heartbeat interval rule. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/physics.h"
#include "cluster/workload_build.h"

so_cl_workload *so_cl_workload_new(const char *name)
{
    so_cl_workload *w = calloc(1, sizeof *w);
    if (w) {
        snprintf(w->name, sizeof w->name, "%s", name ? name : "");
        w->remote_slowdown = 1;
        for (int r = 0; r < SO_CL_MAX_RESOURCES; r++)
            w->hard[r] = 1;
        so_cl_physics_defaults(&w->physics);
    }
    return w;
}

so_cl_workload *so_cl_workload_begin(const char *file, so_cl_workload **out,
                                     so_error *err)
{
    *out = NULL;
    so_error_clear(err);
    const char *base = file ? strrchr(file, '/') : NULL;
    return so_cl_workload_new(base ? base + 1 : file);
}

int so_cl_workload_nodes(so_cl_workload *w, long long nodes, int map_slots,
                         int reduce_slots)
{
    w->nodes = calloc((size_t)nodes, sizeof *w->nodes);
    if (!w->nodes)
        return SO_ENOMEM;
    w->n_nodes = (int)nodes;
    for (long long n = 0; n < nodes; n++) {
        w->nodes[n].slots[SO_CL_MAP] = map_slots;
        w->nodes[n].slots[SO_CL_REDUCE] = reduce_slots;
        w->nodes[n].speed = 1;
    }
    return SO_OK;
}

int so_cl_workload_check_nodes(const so_cl_limits *lim, long long nodes,
                               long long slots_per_node, const char *key,
                               so_error *err)
{
    char what[160], msg[400];
    snprintf(what, sizeof what, "%lld nodes of %lld slots each", nodes,
             slots_per_node);

    double bytes = so_cl_memory_estimate((double)nodes,
                                         (double)nodes * (double)slots_per_node,
                                         0, 0, 0);
    if (so_cl_memory_over(lim, bytes, what, msg, sizeof msg))
        return so_error_setf(err, NULL, 0, 0, key, "%s", msg);
    /* the engine counts a phase's slots in an int */
    if ((double)nodes * (double)slots_per_node > INT_MAX)
        return so_error_setf(err, NULL, 0, 0, key,
                             "%s: more than %d slots in all", what, INT_MAX);
    return SO_OK;
}

int so_cl_workload_trace_limits(const so_params *prm, long long nodes,
                                long long slots_per_node, so_cl_limits *lim,
                                so_error *err)
{
    int rc = so_cl_limits_read(prm, lim, err);
    return rc ? rc
              : so_cl_workload_check_nodes(lim, nodes, slots_per_node,
                                           so_params_get(prm, "nodes")
                                               ? "nodes" : "map_slots",
                                           err);
}

int so_cl_workload_finish(so_cl_workload *w, int rc, so_cl_workload **out)
{
    if (!rc)
        rc = so_cl_workload_sort(w);
    if (rc) {
        so_cl_workload_free(w);
        return rc;
    }
    *out = w;
    return SO_OK;
}

void so_cl_workload_free(so_cl_workload *w)
{
    if (!w)
        return;
    for (int j = 0; j < w->n_jobs; j++) {
        free(w->jobs[j].map_work);
        free(w->jobs[j].map_replicas);
        free(w->jobs[j].reduce_work);
    }
    free(w->jobs);
    free(w->nodes);
    free(w->pools);
    free(w);
}

/* Hadoop 1.x JobTracker.getNextHeartbeatInterval(): max(HEARTBEAT_INTERVAL_MIN
 * = 3 s, ceil(cluster size / NUM_HEARTBEATS_IN_SECOND = 100) seconds). */
double so_cl_heartbeat_interval(const so_cl_workload *w)
{
    return w->heartbeat > 0 ? w->heartbeat : fmax(3.0, ceil(w->n_nodes / 100.0));
}

void so_cl_heartbeat_phases(const so_cl_workload *w, uint64_t seed, double *phase)
{
    so_rng rng;
    so_rng_seed(&rng, seed);
    double interval = so_cl_heartbeat_interval(w);
    for (int n = 0; n < w->n_nodes; n++)
        phase[n] = w->aligned ? 0 : so_rng_uniform(&rng) * interval;
}

int so_cl_workload_pool(so_cl_workload *w, const char *name)
{
    for (int i = 0; i < w->n_pools; i++)
        if (strcmp(w->pools[i].name, name) == 0)
            return i;
    so_cl_pool_spec *p = realloc(w->pools, (size_t)(w->n_pools + 1) * sizeof *p);
    if (!p)
        return -1;
    w->pools = p;
    so_cl_pool_spec *np = &p[w->n_pools];
    memset(np, 0, sizeof *np);
    snprintf(np->name, sizeof np->name, "%s", name);
    np->weight = 1;
    np->max_share[SO_CL_MAP] = np->max_share[SO_CL_REDUCE] = -1;
    return w->n_pools++;
}

static const so_cl_job_spec *sort_base;

static int by_submit(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    double si = sort_base[i].submit, sj = sort_base[j].submit;
    if (si != sj)
        return si < sj ? -1 : 1;
    return (i > j) - (i < j);
}

int so_cl_workload_sort(so_cl_workload *w)
{
    if (w->n_jobs < 2)
        return SO_OK;
    int *order = malloc((size_t)w->n_jobs * sizeof *order);
    so_cl_job_spec *sorted = malloc((size_t)w->n_jobs * sizeof *sorted);
    if (!order || !sorted) {
        free(order);
        free(sorted);
        return SO_ENOMEM;
    }
    for (int j = 0; j < w->n_jobs; j++)
        order[j] = j;
    sort_base = w->jobs;
    qsort(order, (size_t)w->n_jobs, sizeof *order, by_submit);
    for (int j = 0; j < w->n_jobs; j++)
        sorted[j] = w->jobs[order[j]];
    free(w->jobs);
    w->jobs = sorted;
    free(order);
    return SO_OK;
}

/* The SWIM derivation settings mean nothing to a JSON workload (its cluster
 * and tasks are explicit): naming one is an error, not a silent no-op. */
/* map_slots also applies to JSON workloads (override_map_slots). */
static int no_swim_settings(const so_params *prm, const char *file, so_error *err)
{
    for (int i = 0; prm && i < prm->n_options; i++)
        for (const so_option_doc *d = so_cl_swim_options; d->key; d++)
            if (!strcmp(prm->options[i].key, d->key) &&
                strcmp(d->key, "map_slots"))
                return so_error_setf(err, file, 0, 0, d->key,
                                     "a SWIM trace setting, and this workload is"
                                     " JSON (set it in the workload itself)");
    return SO_OK;
}

/* --opt map_slots=K on a JSON workload: every node gets K map slots (the
 * RAS paper's Experiment 1 varies them; a SWIM trace reads it itself). */
static int override_map_slots(const so_params *prm, so_cl_workload *w,
                              const so_cl_limits *lim, const char *file,
                              so_error *err)
{
    const char *text = so_params_get(prm, "map_slots");
    if (!text)
        return SO_OK;
    char *end = NULL;
    long long k = strtoll(text, &end, 10);
    if (end == text || *end != '\0' || k < 1 || k > 10000)
        return so_error_setf(err, file, 0, 0, "map_slots",
                             "--opt: expected map slots per node in [1, 10000],"
                             " found '%s'", text);
    int reduce_slots = 0;
    for (int n = 0; n < w->n_nodes; n++)
        reduce_slots = w->nodes[n].slots[SO_CL_REDUCE] > reduce_slots
                           ? w->nodes[n].slots[SO_CL_REDUCE] : reduce_slots;
    int rc = so_cl_workload_check_nodes(lim, w->n_nodes, k + reduce_slots,
                                        "map_slots", err);
    if (rc)
        return rc;
    for (int n = 0; n < w->n_nodes; n++)
        w->nodes[n].slots[SO_CL_MAP] = (int)k;
    return SO_OK;
}

int so_cl_workload_parse(const char *text, size_t len, const char *file,
                         const so_params *prm, uint64_t seed,
                         so_cl_workload **out, so_error *err)
{
    *out = NULL;
    so_error_clear(err);
    if (memchr(text, '\0', len))
        return so_error_setf(err, file, 0, 0, NULL,
                             "binary data (NUL byte) in a workload file");
    size_t i = 0;
    while (i < len && strchr(" \t\r\n", text[i]))
        i++;
    if (i == len)
        return so_error_setf(err, file, 1, 1, NULL,
                             "empty file: expected a workload");
    if (text[i] == '{' && so_cl_workload_is_rumen(text, len))
        return so_cl_workload_parse_rumen(text, len, file, prm, out, err);
    if (text[i] == '{') {
        so_cl_limits lim;
        int rc = no_swim_settings(prm, file, err);
        if (!rc)
            rc = so_cl_limits_read(prm, &lim, err);
        if (!rc)
            rc = so_cl_workload_parse_json_limited(text, len, file, seed, &lim,
                                                   out, err);
        if (!rc && (rc = override_map_slots(prm, *out, &lim, file, err))) {
            so_cl_workload_free(*out);
            *out = NULL;
        }
        return rc;
    }
    return so_cl_workload_parse_swim(text, len, file, prm, out, err);
}

int so_cl_workload_read(const char *path, const so_params *prm, uint64_t seed,
                        so_cl_workload **out, so_error *err)
{
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    int rrc = so_read_input(path, &text, &len, err);
    if (rrc)
        return rrc;
    int rc = so_cl_workload_parse(text, len, strcmp(path, "-") ? path : "stdin",
                                  prm, seed, out, err);
    free(text);
    return rc;
}
