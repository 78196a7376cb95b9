/*
 * workload_json.c — the native JSON workload (docs/cluster.md, "Workload
 * JSON"): cluster node groups and heartbeat settings, pools, and jobs whose
 * task durations are explicit or drawn from a distribution with so_rng
 * (stream = the job's position in the file, so one job's draws do not
 * depend on the others). Strict: unknown keys are errors, every error names
 * file, line, column and key path.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/physics.h"
#include "cluster/run_limits.h"
#include "cluster/workload_build.h"
#include "formulations/common/jsonin.h"

/* Sampled durations below this are raised to it (a task takes some time). */
#define MIN_SAMPLED 1e-3

/* What the file has asked for so far, against the memory limit. */
typedef struct budget {
    const so_cl_limits *lim;
    int64_t tasks, maps; /* tasks in all, maps among them */
    double slots;        /* map + reduce slots of every node */
} budget;

/* Refuses (at path) a workload whose estimate, with what it asked for so
 * far, is above the memory limit. */
static int check_memory(so_jin *in, const budget *b, const so_cl_workload *w,
                        const char *path, const char *what)
{
    char msg[400];
    double bytes = so_cl_memory_estimate(w->n_nodes, b->slots, w->n_jobs,
                                         (double)b->tasks,
                                         (double)b->maps * w->replicas);
    if (!so_cl_memory_over(b->lim, bytes, what, msg, sizeof msg))
        return SO_OK;
    return so_jin_fail(in, path, 0, "%s", msg);
}

static const char *base_name(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : (path ? path : "");
}

static int read_name(so_jin *in, json_t *obj, const char *path,
                     const char *key, char *dst, size_t size)
{
    const char *s = NULL;
    int rc = so_jin_str(in, obj, path, key, SO_OPTIONAL, &s);
    if (rc || !s)
        return rc;
    if (strlen(s) >= size || !s[0]) {
        char p[256];
        so_jin_path(p, sizeof p, path, key);
        return so_jin_fail(in, p, 0, "expected a name of 1 to %zu characters",
                           size - 1);
    }
    snprintf(dst, size, "%s", s);
    return SO_OK;
}

/* ---- cluster ------------------------------------------------------------- */

/* "resources": names of the resources nodes offer and tasks need. */
static int read_resources(so_jin *in, json_t *c, so_cl_workload *w)
{
    json_t *arr = NULL;
    int rc = so_jin_array(in, c, "cluster", "resources", SO_OPTIONAL, 1, &arr);
    if (rc || !arr)
        return rc;
    if (json_array_size(arr) > SO_CL_MAX_RESOURCES)
        return so_jin_fail(in, "cluster.resources", 0, "at most %d resources",
                           SO_CL_MAX_RESOURCES);
    for (size_t r = 0; r < json_array_size(arr); r++) {
        char p[64];
        so_jin_index(p, sizeof p, "cluster.resources", r);
        const char *name = json_string_value(json_array_get(arr, r));
        if (!name || !name[0] || strlen(name) >= sizeof w->resource[0])
            return so_jin_fail(in, p, 0, "expected a name of 1 to %zu characters",
                               sizeof w->resource[0] - 1);
        for (size_t k = 0; k < r; k++)
            if (!strcmp(w->resource[k], name))
                return so_jin_fail(in, p, 0, "resource \"%s\" named twice", name);
        snprintf(w->resource[r], sizeof w->resource[r], "%s", name);
    }
    w->n_resources = (int)json_array_size(arr);
    return SO_OK;
}

/* An array of one amount (>= 0) per workload resource, at obj.key; only
 * allowed when the cluster names resources. */
static int read_amounts(so_jin *in, json_t *obj, const char *path,
                        const char *key, const so_cl_workload *w, int required,
                        double *out)
{
    json_t *arr = NULL;
    char p[320];
    so_jin_path(p, sizeof p, path, key);
    int rc = so_jin_get(in, obj, path, key, required, &arr);
    if (rc || !arr)
        return rc;
    if (w->n_resources == 0)
        return so_jin_fail(in, p, 1, "needs cluster.resources");
    if (!json_is_array(arr) || json_array_size(arr) != (size_t)w->n_resources)
        return so_jin_fail(in, p, 0, "expected an array of %d amounts (one per"
                           " resource)", w->n_resources);
    for (int r = 0; r < w->n_resources && !rc; r++)
        rc = so_jin_num_at(in, arr, p, (size_t)r, 0, 1e12, &out[r]);
    return rc;
}

/* "contention": {"model": "none" | "share", "hard": [resource...]}: under
 * "share" only the resources named in "hard" are checked at launch; the
 * others may be over-committed and slow their attempts down. */
static int read_contention(so_jin *in, json_t *c, so_cl_workload *w)
{
    static const char *const keys[] = {
        "model", "hard", "kinds", "cpu_cores", "cpu_latency_ms",
        "cpu_granularity_ms", "cpu_switch_us", "disk_seek_ms", "disk_slice_ms",
        "disk_target_ms", "swap_penalty", "profile_headroom", NULL};
    json_t *o = NULL, *hard = NULL;
    const char *model = NULL;
    int rc = so_jin_object(in, c, "cluster", "contention", SO_OPTIONAL, &o);
    if (rc || !o)
        return rc;
    rc = so_jin_keys(in, o, "cluster.contention", keys);
    if (!rc)
        rc = so_jin_str(in, o, "cluster.contention", "model", SO_REQUIRED,
                        &model);
    if (!rc)
        rc = so_jin_array(in, o, "cluster.contention", "hard", SO_OPTIONAL, 0,
                          &hard);
    if (rc)
        return rc;
    int physical = !strcmp(model, "physical");
    if (strcmp(model, "none") && strcmp(model, "share") && !physical)
        return so_jin_fail(in, "cluster.contention.model", 0,
                           "expected \"none\", \"share\" or \"physical\","
                           " found \"%s\"", model);
    if (!physical && json_object_size(o) > (hard ? 2u : 1u))
        return so_jin_fail(in, "cluster.contention", 1, "the physical model's"
                           " settings need model \"physical\"");
    if (!strcmp(model, "none")) {
        if (hard)
            return so_jin_fail(in, "cluster.contention.hard", 1,
                               "needs model \"share\"");
        return SO_OK;
    }
    if (w->n_resources == 0)
        return so_jin_fail(in, "cluster.contention", 1,
                           "needs cluster.resources");
    if (physical && (rc = so_cl_physics_read_json(in, o, w)))
        return rc;
    w->contention = physical ? SO_CL_CONTENTION_PHYSICAL
                             : SO_CL_CONTENTION_SHARE;
    for (int r = 0; r < w->n_resources; r++)
        w->hard[r] = 0;
    for (size_t i = 0; hard && i < json_array_size(hard); i++) {
        char p[64];
        so_jin_index(p, sizeof p, "cluster.contention.hard", i);
        const char *name = json_string_value(json_array_get(hard, i));
        int r = 0;
        while (name && r < w->n_resources && strcmp(w->resource[r], name))
            r++;
        if (!name || r == w->n_resources)
            return so_jin_fail(in, p, 0, "expected the name of one of"
                               " cluster.resources");
        if (physical && so_cl_physics_kind(w, r) == SO_CL_KIND_MEMORY)
            return so_jin_fail(in, p, 0, "memory is never checked at launch"
                               " under model \"physical\" (Hadoop 1's"
                               " TaskTracker swaps instead)");
        w->hard[r] = 1;
    }
    return SO_OK;
}

static int read_cluster(so_jin *in, json_t *root, so_cl_workload *w,
                        budget *b)
{
    static const char *const keys[] = {"nodes", "heartbeat", "outofband",
                                       "heartbeat_phase", "replicas",
                                       "remote_slowdown", "resources",
                                       "contention", NULL};
    static const char *const gkeys[] = {"count", "map_slots", "reduce_slots",
                                        "speed", "capacity", NULL};
    json_t *c = NULL, *groups = NULL;
    int rc = so_jin_object(in, root, "", "cluster", SO_REQUIRED, &c);
    if (!rc)
        rc = so_jin_keys(in, c, "cluster", keys);
    if (!rc)
        rc = so_jin_num(in, c, "cluster", "heartbeat", SO_OPTIONAL, 0, 3600,
                        &w->heartbeat);
    if (!rc && w->heartbeat > 0 && w->heartbeat < SO_CL_MIN_HEARTBEAT)
        rc = so_jin_fail(in, "cluster.heartbeat", 0,
                         "expected 0 (Hadoop's rule) or seconds in [%g, 3600],"
                         " found %g", SO_CL_MIN_HEARTBEAT, w->heartbeat);
    if (!rc)
        rc = so_jin_bool(in, c, "cluster", "outofband", SO_OPTIONAL,
                         &w->outofband);
    const char *phase = "random";
    if (!rc)
        rc = so_jin_str(in, c, "cluster", "heartbeat_phase", SO_OPTIONAL, &phase);
    if (rc)
        return rc;
    if (strcmp(phase, "random") && strcmp(phase, "aligned"))
        return so_jin_fail(in, "cluster.heartbeat_phase", 0,
                           "expected \"random\" or \"aligned\", found \"%s\"",
                           phase);
    w->aligned = strcmp(phase, "aligned") == 0;
    int64_t replicas = 0;
    rc = so_jin_int(in, c, "cluster", "replicas", SO_OPTIONAL, 0, SO_CL_MAX_REPLICAS,
                    &replicas);
    if (!rc)
        rc = so_jin_num(in, c, "cluster", "remote_slowdown", SO_OPTIONAL, 1, 100,
                        &w->remote_slowdown);
    if (!rc)
        rc = read_resources(in, c, w);
    if (!rc)
        rc = read_contention(in, c, w);
    if (!rc)
        rc = so_jin_array(in, c, "cluster", "nodes", SO_REQUIRED, 1, &groups);
    if (rc)
        return rc;
    w->replicas = (int)replicas;
    int64_t total = 0;
    for (size_t g = 0; g < json_array_size(groups); g++) {
        char gp[256];
        so_jin_index(gp, sizeof gp, "cluster.nodes", g);
        json_t *o = NULL;
        int64_t count = 1;
        rc = so_jin_object_at(in, groups, "cluster.nodes", g, &o);
        if (!rc)
            rc = so_jin_keys(in, o, gp, gkeys);
        if (!rc)
            rc = so_jin_int(in, o, gp, "count", SO_OPTIONAL, 1, SO_CL_MAX_NODES,
                            &count);
        if (rc)
            return rc;
        if (total + count > SO_CL_MAX_NODES)
            return so_jin_fail(in, gp, 0, "more than %d nodes in all",
                               SO_CL_MAX_NODES);
        so_cl_node_spec spec = {{2, 2}, 1.0, {0}};
        int64_t ms = 2, rs = 2;
        rc = so_jin_int(in, o, gp, "map_slots", SO_OPTIONAL, 0, SO_CL_MAX_SLOTS,
                        &ms);
        if (!rc)
            rc = so_jin_int(in, o, gp, "reduce_slots", SO_OPTIONAL, 0,
                            SO_CL_MAX_SLOTS, &rs);
        if (!rc)
            rc = so_jin_num(in, o, gp, "speed", SO_OPTIONAL, 1e-6, 1e6,
                            &spec.speed);
        if (!rc)
            rc = read_amounts(in, o, gp, "capacity", w, w->n_resources > 0,
                              spec.capacity);
        if (rc)
            return rc;
        /* A shared resource with no capacity would give every attempt that
         * uses it a rate of zero: the replay would never end. */
        for (int r = 0; r < w->n_resources; r++)
            if (w->contention != SO_CL_CONTENTION_NONE && !w->hard[r] &&
                !(spec.capacity[r] > 0)) {
                char cp[320];
                snprintf(cp, sizeof cp, "%s.capacity", gp);
                return so_jin_fail(in, cp, 1, "resource \"%s\" is shared"
                                   " under contention model \"%s\" and"
                                   " needs a capacity above 0 (or name it in"
                                   " cluster.contention.hard)", w->resource[r],
                                   w->contention == SO_CL_CONTENTION_SHARE
                                       ? "share" : "physical");
            }
        spec.slots[SO_CL_MAP] = (int)ms;
        spec.slots[SO_CL_REDUCE] = (int)rs;
        char what[160], cpath[300];
        snprintf(what, sizeof what, "%lld nodes of %lld slots in all",
                 (long long)(total + count),
                 (long long)(b->slots + (double)count * (double)(ms + rs)));
        snprintf(cpath, sizeof cpath, "%s.count", gp);
        w->n_nodes = (int)(total + count); /* counted, not yet allocated */
        b->slots += (double)count * (double)(ms + rs);
        rc = check_memory(in, b, w, json_object_get(o, "count") ? cpath : gp,
                          what);
        w->n_nodes = (int)total;
        if (rc)
            return rc;
        so_cl_node_spec *n =
            realloc(w->nodes, (size_t)(total + count) * sizeof *n);
        if (!n)
            return SO_ENOMEM;
        w->nodes = n;
        for (int64_t k = 0; k < count; k++)
            n[total + k] = spec;
        total += count;
        w->n_nodes = (int)total;
    }
    if (w->replicas > w->n_nodes)
        return so_jin_fail(in, "cluster.replicas", 0,
                           "%d replicas on %d nodes: at most one per node",
                           w->replicas, w->n_nodes);
    return SO_OK;
}

/* ---- pools --------------------------------------------------------------- */

static int read_pools(so_jin *in, json_t *root, so_cl_workload *w)
{
    static const char *const keys[] = {"name", "weight", "min_maps",
                                       "min_reduces", "max_maps",
                                       "max_reduces", "mode", NULL};
    json_t *arr = NULL;
    int rc = so_jin_array(in, root, "", "pools", SO_OPTIONAL, 0, &arr);
    if (rc || !arr)
        return rc;
    for (size_t i = 0; i < json_array_size(arr); i++) {
        char pp[256];
        so_jin_index(pp, sizeof pp, "pools", i);
        json_t *o = NULL;
        char name[64] = "";
        rc = so_jin_object_at(in, arr, "pools", i, &o);
        if (!rc)
            rc = so_jin_keys(in, o, pp, keys);
        if (!rc)
            rc = so_jin_get(in, o, pp, "name", SO_REQUIRED, &(json_t *){NULL});
        if (!rc)
            rc = read_name(in, o, pp, "name", name, sizeof name);
        if (rc)
            return rc;
        for (int k = 0; k < w->n_pools; k++)
            if (strcmp(w->pools[k].name, name) == 0) {
                char np[320];
                snprintf(np, sizeof np, "%s.name", pp);
                return so_jin_fail(in, np, 0, "pool \"%s\" defined twice", name);
            }
        int idx = so_cl_workload_pool(w, name);
        if (idx < 0)
            return SO_ENOMEM;
        so_cl_pool_spec *p = &w->pools[idx];
        int64_t mm = 0, mr = 0, xm = -1, xr = -1;
        const char *mode = "fair";
        rc = so_jin_num(in, o, pp, "weight", SO_OPTIONAL, 1e-9, 1e9, &p->weight);
        if (!rc)
            rc = so_jin_int(in, o, pp, "min_maps", SO_OPTIONAL, 0, 1000000000, &mm);
        if (!rc)
            rc = so_jin_int(in, o, pp, "min_reduces", SO_OPTIONAL, 0, 1000000000,
                            &mr);
        if (!rc)
            rc = so_jin_int(in, o, pp, "max_maps", SO_OPTIONAL, 0, 1000000000,
                            &xm);
        if (!rc)
            rc = so_jin_int(in, o, pp, "max_reduces", SO_OPTIONAL, 0,
                            1000000000, &xr);
        if (!rc)
            rc = so_jin_str(in, o, pp, "mode", SO_OPTIONAL, &mode);
        if (rc)
            return rc;
        if (strcmp(mode, "fair") && strcmp(mode, "fifo")) {
            char mp[320];
            snprintf(mp, sizeof mp, "%s.mode", pp);
            return so_jin_fail(in, mp, 0,
                               "expected \"fair\" or \"fifo\", found \"%s\"", mode);
        }
        p->fifo = strcmp(mode, "fifo") == 0;
        p->min_share[SO_CL_MAP] = (int)mm;
        p->min_share[SO_CL_REDUCE] = (int)mr;
        p->max_share[SO_CL_MAP] = (int)xm;
        p->max_share[SO_CL_REDUCE] = (int)xr;
    }
    return SO_OK;
}

/* ---- durations ----------------------------------------------------------- */

/* A duration: a number (lo or more), or {"dist": ..., parameters}. */
static int read_duration(so_jin *in, json_t *v, const char *path, double lo,
                         so_rng *rng, double *out)
{
    if (json_is_number(v)) {
        double x = json_number_value(v);
        if (!isfinite(x) || x < lo || x > 1e9)
            return so_jin_fail(in, path, 0,
                               "expected seconds in [%g, 1e9], found %g", lo, x);
        *out = x;
        return SO_OK;
    }
    if (!json_is_object(v))
        return so_jin_fail(in, path, 0,
                           "expected seconds or a distribution object");
    const char *dist = NULL;
    int rc = so_jin_str(in, v, path, "dist", SO_REQUIRED, &dist);
    if (rc)
        return rc;
    double a = 0, b = 0, x = 0;
    if (!strcmp(dist, "fixed")) {
        static const char *const k[] = {"dist", "value", NULL};
        rc = so_jin_keys(in, v, path, k);
        if (!rc)
            rc = so_jin_num(in, v, path, "value", SO_REQUIRED, lo, 1e9, &x);
    } else if (!strcmp(dist, "uniform")) {
        static const char *const k[] = {"dist", "lo", "hi", NULL};
        rc = so_jin_keys(in, v, path, k);
        if (!rc)
            rc = so_jin_num(in, v, path, "lo", SO_REQUIRED, 0, 1e9, &a);
        if (!rc)
            rc = so_jin_num(in, v, path, "hi", SO_REQUIRED, a, 1e9, &b);
        if (!rc)
            x = a + (b - a) * so_rng_uniform(rng);
    } else if (!strcmp(dist, "exponential")) {
        static const char *const k[] = {"dist", "mean", NULL};
        rc = so_jin_keys(in, v, path, k);
        if (!rc)
            rc = so_jin_num(in, v, path, "mean", SO_REQUIRED, 1e-9, 1e9, &a);
        if (!rc)
            x = so_rng_exponential(rng, a);
    } else if (!strcmp(dist, "normal")) {
        static const char *const k[] = {"dist", "mean", "sd", NULL};
        rc = so_jin_keys(in, v, path, k);
        if (!rc)
            rc = so_jin_num(in, v, path, "mean", SO_REQUIRED, 0, 1e9, &a);
        if (!rc)
            rc = so_jin_num(in, v, path, "sd", SO_REQUIRED, 0, 1e9, &b);
        if (!rc)
            x = so_rng_normal(rng, a, b);
    } else if (!strcmp(dist, "lognormal")) {
        static const char *const k[] = {"dist", "mu", "sigma", NULL};
        rc = so_jin_keys(in, v, path, k);
        if (!rc)
            rc = so_jin_num(in, v, path, "mu", SO_REQUIRED, -50, 20, &a);
        if (!rc)
            rc = so_jin_num(in, v, path, "sigma", SO_REQUIRED, 0, 10, &b);
        if (!rc)
            x = so_rng_lognormal(rng, a, b);
    } else {
        char p[300];
        snprintf(p, sizeof p, "%s.dist", path);
        return so_jin_fail(in, p, 0,
                           "expected fixed, uniform, exponential, normal or"
                           " lognormal, found \"%s\"", dist);
    }
    if (rc)
        return rc;
    if (strcmp(dist, "fixed"))
        x = fmin(1e9, fmax(x, MIN_SAMPLED));
    *out = x;
    return SO_OK;
}

/* n more tasks (maps when map) asked for at path: within the task limit
 * and the memory limit. */
static int check_count(so_jin *in, const char *path, int64_t n, int map,
                       const so_cl_workload *w, budget *b)
{
    if (b->tasks + n > SO_CL_MAX_TASKS)
        return so_jin_fail(in, path, 0, "more than %d tasks in the workload",
                           SO_CL_MAX_TASKS);
    b->tasks += n;
    b->maps += map ? n : 0;
    char what[160];
    snprintf(what, sizeof what, "%lld tasks on %d nodes", (long long)b->tasks,
             w->n_nodes);
    return check_memory(in, b, w, path, what);
}

/* One map of an array: a duration, or {"duration": d, "replicas": [node...]}
 * naming the nodes that hold its input block. */
static int read_map(so_jin *in, json_t *v, const char *path, so_rng *rng,
                    const so_cl_workload *w, so_cl_job_spec *spec, int i)
{
    static const char *const k[] = {"duration", "replicas", NULL};
    if (!json_is_object(v) || json_object_get(v, "dist"))
        return read_duration(in, v, path, 1e-9, rng, &spec->map_work[i]);
    json_t *d = NULL, *nodes = NULL;
    int rc = so_jin_keys(in, v, path, k);
    if (!rc)
        rc = so_jin_get(in, v, path, "duration", SO_REQUIRED, &d);
    if (!rc) {
        char dp[320];
        so_jin_path(dp, sizeof dp, path, "duration");
        rc = read_duration(in, d, dp, 1e-9, rng, &spec->map_work[i]);
    }
    if (!rc)
        rc = so_jin_array(in, v, path, "replicas", SO_REQUIRED, 1, &nodes);
    if (rc)
        return rc;
    char rp[320];
    so_jin_path(rp, sizeof rp, path, "replicas");
    if (json_array_size(nodes) != (size_t)w->replicas)
        return so_jin_fail(in, rp, 0, "expected %d nodes (cluster.replicas)",
                           w->replicas);
    if (!spec->map_replicas) {
        size_t cells = (size_t)spec->n_maps * (size_t)w->replicas;
        spec->map_replicas = malloc(cells * sizeof(int));
        if (!spec->map_replicas)
            return SO_ENOMEM;
        for (size_t c = 0; c < cells; c++)
            spec->map_replicas[c] = -1;
    }
    int *rep = &spec->map_replicas[(size_t)i * w->replicas];
    for (int r = 0; r < w->replicas; r++) {
        int64_t node;
        rc = so_jin_int_at(in, nodes, rp, (size_t)r, 0, w->n_nodes - 1, &node);
        if (rc)
            return rc;
        for (int k2 = 0; k2 < r; k2++)
            if (rep[k2] == node) {
                char np[340];
                so_jin_index(np, sizeof np, rp, (size_t)r);
                return so_jin_fail(in, np, 0, "node %d holds this block twice",
                                   (int)node);
            }
        rep[r] = (int)node;
    }
    return SO_OK;
}

/* "maps": [map...] or {"count": n, "duration": d}. */
static int read_maps(so_jin *in, json_t *job, const char *jp, so_rng *rng,
                     const so_cl_workload *w, so_cl_job_spec *spec, budget *b)
{
    char p[300];
    snprintf(p, sizeof p, "%s.maps", jp);
    json_t *v = NULL;
    int rc = so_jin_get(in, job, jp, "maps", SO_REQUIRED, &v);
    if (rc)
        return rc;
    json_t *dur = NULL;
    int64_t n;
    if (json_is_array(v)) {
        n = (int64_t)json_array_size(v);
    } else if (json_is_object(v)) {
        static const char *const k[] = {"count", "duration", NULL};
        rc = so_jin_keys(in, v, p, k);
        if (!rc)
            rc = so_jin_int(in, v, p, "count", SO_REQUIRED, 0,
                            SO_CL_MAX_TASKS_PER_JOB, &n);
        if (!rc)
            rc = so_jin_get(in, v, p, "duration", SO_REQUIRED, &dur);
        if (rc)
            return rc;
    } else {
        return so_jin_fail(in, p, 0,
                           "expected an array of seconds or {\"count\","
                           " \"duration\"}");
    }
    if (n > SO_CL_MAX_TASKS_PER_JOB)
        return so_jin_fail(in, p, 0, "more than %d tasks", SO_CL_MAX_TASKS_PER_JOB);
    char cp[320];
    snprintf(cp, sizeof cp, "%s.count", p);
    rc = check_count(in, dur ? cp : p, n, 1, w, b);
    if (rc)
        return rc;
    spec->map_work = malloc(((size_t)n + 1) * sizeof(double));
    if (!spec->map_work)
        return SO_ENOMEM;
    spec->n_maps = (int)n;
    char ep[320];
    snprintf(ep, sizeof ep, "%s.duration", p);
    for (int64_t i = 0; i < n && !rc; i++) {
        if (dur) {
            rc = read_duration(in, dur, ep, 1e-9, rng, &spec->map_work[i]);
        } else {
            char ip[300];
            so_jin_index(ip, sizeof ip, p, (size_t)i);
            rc = read_map(in, json_array_get(v, (size_t)i), ip, rng, w, spec,
                          (int)i);
        }
    }
    return rc;
}

/* One reduce: seconds (all in the reduce phase) or {"copy","sort","reduce"}. */
static int read_reduce_parts(so_jin *in, json_t *v, const char *path,
                             so_rng *rng, so_cl_reduce_work *rw)
{
    static const char *const k[] = {"copy", "sort", "reduce", NULL};
    if (!json_is_object(v)) {
        rw->copy = rw->sort = 0;
        int rc = read_duration(in, v, path, 0, rng, &rw->reduce);
        if (!rc && !(rw->reduce > 0))
            return so_jin_fail(in, path, 0, "a reduce task needs work > 0");
        return rc;
    }
    int rc = so_jin_keys(in, v, path, k);
    double *dst[3] = {&rw->copy, &rw->sort, &rw->reduce};
    for (int i = 0; i < 3 && !rc; i++) {
        char p[300];
        json_t *x = NULL;
        *dst[i] = 0;
        so_jin_path(p, sizeof p, path, k[i]);
        rc = so_jin_get(in, v, path, k[i], SO_OPTIONAL, &x);
        if (!rc && x)
            rc = read_duration(in, x, p, 0, rng, dst[i]);
    }
    if (!rc && !(rw->copy + rw->sort + rw->reduce > 0))
        return so_jin_fail(in, path, 0, "a reduce task needs work > 0");
    return rc;
}

/* "reduces": [reduce...] or {"count": n, "copy": d, "sort": d, "reduce": d}. */
static int read_reduces(so_jin *in, json_t *job, const char *jp, so_rng *rng,
                        const so_cl_workload *w, so_cl_job_spec *spec,
                        budget *b)
{
    char p[300];
    snprintf(p, sizeof p, "%s.reduces", jp);
    json_t *v = NULL;
    int rc = so_jin_get(in, job, jp, "reduces", SO_OPTIONAL, &v);
    if (rc || !v)
        return rc;
    int64_t n;
    json_t *parts = NULL;
    if (json_is_array(v)) {
        n = (int64_t)json_array_size(v);
    } else if (json_is_object(v)) {
        static const char *const k[] = {"count", "copy", "sort", "reduce", NULL};
        rc = so_jin_keys(in, v, p, k);
        if (!rc)
            rc = so_jin_int(in, v, p, "count", SO_REQUIRED, 0,
                            SO_CL_MAX_TASKS_PER_JOB, &n);
        if (rc)
            return rc;
        parts = json_deep_copy(v);
        if (!parts)
            return SO_ENOMEM;
        json_object_del(parts, "count");
    } else {
        return so_jin_fail(in, p, 0,
                           "expected an array of reduce tasks or {\"count\","
                           " \"copy\", \"sort\", \"reduce\"}");
    }
    if (n > SO_CL_MAX_TASKS_PER_JOB)
        rc = so_jin_fail(in, p, 0, "more than %d tasks", SO_CL_MAX_TASKS_PER_JOB);
    char cp[320];
    snprintf(cp, sizeof cp, "%s.count", p);
    if (!rc)
        rc = check_count(in, parts ? cp : p, n, 0, w, b);
    if (!rc) {
        spec->reduce_work = malloc(((size_t)n + 1) * sizeof *spec->reduce_work);
        if (!spec->reduce_work)
            rc = SO_ENOMEM;
    }
    if (!rc)
        spec->n_reduces = (int)n;
    for (int64_t i = 0; i < n && !rc; i++) {
        if (parts) {
            rc = read_reduce_parts(in, parts, p, rng, &spec->reduce_work[i]);
        } else {
            char ip[300];
            so_jin_index(ip, sizeof ip, p, (size_t)i);
            rc = read_reduce_parts(in, json_array_get(v, (size_t)i), ip, rng,
                                   &spec->reduce_work[i]);
        }
    }
    json_decref(parts);
    return rc;
}

/* ---- jobs ---------------------------------------------------------------- */

/* The tasks a job's "maps" or "reduces" asks for: an array's size or a
 * well-formed "count" (anything else is left to the strict reading). */
static int64_t asked(json_t *v)
{
    if (json_is_array(v))
        return (int64_t)json_array_size(v);
    json_t *c = json_object_get(v, "count");
    return json_is_integer(c) && json_integer_value(c) >= 0 ? json_integer_value(c)
                                                            : 0;
}

/* Before any job is read: the tasks every job asks for, against the task
 * and memory limits, so that a refused file allocates nothing for its
 * tasks (refused at the count that crosses the limit). */
static int precount(so_jin *in, json_t *jobs, const so_cl_workload *w,
                    const budget *b)
{
    budget all = *b;
    for (size_t i = 0; i < json_array_size(jobs); i++) {
        json_t *job = json_array_get(jobs, i);
        static const char *const key[2] = {"maps", "reduces"};
        for (int p = 0; p < 2; p++) {
            json_t *v = json_object_get(job, key[p]);
            int64_t n = asked(v);
            if (n == 0 || n > SO_CL_MAX_TASKS_PER_JOB)
                continue;
            char path[320];
            snprintf(path, sizeof path, "jobs[%zu].%s%s", i, key[p],
                     json_is_array(v) ? "" : ".count");
            int rc = check_count(in, path, n, p == 0, w, &all);
            if (rc)
                return rc;
        }
    }
    return SO_OK;
}

static int read_job(so_jin *in, json_t *arr, size_t i, uint64_t seed,
                    so_cl_workload *w, budget *b)
{
    static const char *const keys[] = {"name", "user", "pool", "submit",
                                       "weight", "slowstart", "maps",
                                       "reduces", "map_demand",
                                       "reduce_demand", "shuffle_demand",
                                       "goal", "map_parallel",
                                       "reduce_parallel", NULL};
    char jp[256];
    so_jin_index(jp, sizeof jp, "jobs", i);
    json_t *o = NULL;
    int rc = so_jin_object_at(in, arr, "jobs", i, &o);
    if (!rc)
        rc = so_jin_keys(in, o, jp, keys);
    if (rc)
        return rc;
    so_cl_job_spec *spec = &w->jobs[w->n_jobs++];
    memset(spec, 0, sizeof *spec);
    snprintf(spec->name, sizeof spec->name, "job%zu", i);
    snprintf(spec->user, sizeof spec->user, "default");
    spec->weight = 1;
    spec->slowstart = 0.05;
    char pool[64] = "";
    rc = read_name(in, o, jp, "name", spec->name, sizeof spec->name);
    if (!rc)
        rc = read_name(in, o, jp, "user", spec->user, sizeof spec->user);
    if (!rc)
        rc = read_name(in, o, jp, "pool", pool, sizeof pool);
    if (!rc)
        rc = so_jin_num(in, o, jp, "submit", SO_REQUIRED, 0, 1e9, &spec->submit);
    if (!rc)
        rc = so_jin_num(in, o, jp, "weight", SO_OPTIONAL, 1e-9, 1e9,
                        &spec->weight);
    if (!rc)
        rc = so_jin_num(in, o, jp, "slowstart", SO_OPTIONAL, 0, 1,
                        &spec->slowstart);
    if (!rc)
        rc = read_amounts(in, o, jp, "map_demand", w, 0, spec->demand[SO_CL_MAP]);
    if (!rc)
        rc = read_amounts(in, o, jp, "reduce_demand", w, 0,
                          spec->demand[SO_CL_REDUCE]);
    memcpy(spec->shuffle_demand, spec->demand[SO_CL_REDUCE],
           sizeof spec->shuffle_demand);
    if (!rc)
        rc = read_amounts(in, o, jp, "shuffle_demand", w, 0,
                          spec->shuffle_demand);
    if (!rc)
        rc = so_jin_num(in, o, jp, "goal", SO_OPTIONAL, 0, 1e9, &spec->goal);
    if (!rc)
        rc = so_jin_num(in, o, jp, "map_parallel", SO_OPTIONAL, 0, 1,
                        &spec->parallel[SO_CL_MAP]);
    if (!rc)
        rc = so_jin_num(in, o, jp, "reduce_parallel", SO_OPTIONAL, 0, 1,
                        &spec->parallel[SO_CL_REDUCE]);
    if (rc)
        return rc;
    /* Hadoop's fair scheduler puts a job in the pool named by its user
     * (poolnameproperty = user.name) unless a pool is given. */
    spec->pool = so_cl_workload_pool(w, pool[0] ? pool : spec->user);
    if (spec->pool < 0)
        return SO_ENOMEM;
    so_rng rng;
    so_rng_seed_stream(&rng, seed, (uint64_t)i);
    rc = read_maps(in, o, jp, &rng, w, spec, b);
    if (!rc)
        rc = read_reduces(in, o, jp, &rng, w, spec, b);
    return rc;
}

/* Whether some node has a slot of phase p and room for demand in every hard
 * resource (shared ones may be over-committed). */
static int fits_somewhere(const so_cl_workload *w, int p, const double *demand)
{
    for (int n = 0; n < w->n_nodes; n++) {
        int ok = w->nodes[n].slots[p] > 0;
        for (int r = 0; r < w->n_resources && ok; r++)
            ok = !w->hard[r] || demand[r] <= w->nodes[n].capacity[r];
        if (ok)
            return 1;
    }
    return 0;
}

/* Every task must fit on some node, else the replay would never end. Jobs
 * are still in file order here. */
static int check_fit(so_jin *in, const so_cl_workload *w)
{
    static const char *const what[] = {"map", "reduce"};
    for (int j = 0; j < w->n_jobs; j++) {
        const so_cl_job_spec *js = &w->jobs[j];
        int need[SO_CL_PHASES] = {js->n_maps, js->n_reduces};
        for (int p = 0; p < SO_CL_PHASES; p++) {
            if (need[p] == 0)
                continue;
            const char *key = w->n_resources ? (p ? "reduce_demand" : "map_demand")
                                             : (p ? "reduces" : "maps");
            int fits = fits_somewhere(w, p, js->demand[p]);
            double held[SO_CL_MAX_RESOURCES]; /* so_cl_held_demand */
            for (int r = 0; r < w->n_resources; r++)
                held[r] = p ? fmax(js->shuffle_demand[r], js->demand[p][r])
                            : js->demand[p][r];
            if (fits && !fits_somewhere(w, p, held)) {
                fits = 0;
                key = "shuffle_demand";
            }
            if (fits)
                continue;
            char path[96];
            snprintf(path, sizeof path, "jobs[%d].%s", j, key);
            return so_jin_fail(in, path, 0,
                               "no node has a %s slot%s for these tasks",
                               what[p], w->n_resources ? " and room" : "");
        }
    }
    return SO_OK;
}

/* The node group (index in cluster.nodes) that holds node n. */
static size_t group_of(json_t *root, int n)
{
    json_t *groups = json_object_get(json_object_get(root, "cluster"), "nodes");
    int64_t first = 0;
    for (size_t g = 0; g < json_array_size(groups); g++) {
        json_t *c = json_object_get(json_array_get(groups, g), "count");
        first += c ? json_integer_value(c) : 1;
        if (n < first)
            return g;
    }
    return 0;
}

/* A replay that would need more than max_events events is refused at the
 * key that makes it long (so_cl_events_estimate: a node's speed, a job's
 * demand, a task's work or the heartbeat). Jobs are in file order here. */
static int check_events(so_jin *in, json_t *root, const so_cl_workload *w,
                        const so_cl_limits *lim)
{
    so_cl_event_estimate e;
    char msg[700], path[320];
    if (!so_cl_events_over(w, lim, &e, msg, sizeof msg))
        return SO_OK;
    static const char *const demand_key[3] = {"map_demand", "reduce_demand",
                                              "shuffle_demand"};
    static const char *const phase_key[2] = {"maps", "reduces"};
    switch (e.cause) {
    case SO_CL_CAUSE_BEATS:
        snprintf(path, sizeof path, "cluster.heartbeat");
        break;
    case SO_CL_CAUSE_SPEED:
        snprintf(path, sizeof path, "cluster.nodes[%zu].speed",
                 group_of(root, e.node));
        break;
    case SO_CL_CAUSE_SHARE:
        snprintf(path, sizeof path, "jobs[%d].%s", e.demand_job,
                 demand_key[e.demand_phase]);
        break;
    default: {
        json_t *job = json_array_get(json_object_get(root, "jobs"), (size_t)e.job);
        json_t *tasks = json_object_get(job, phase_key[e.phase]);
        if (e.task < 0)
            snprintf(path, sizeof path, "jobs[%d]", e.job);
        else if (json_is_array(tasks))
            snprintf(path, sizeof path, "jobs[%d].%s[%d]", e.job,
                     phase_key[e.phase], e.task);
        else
            snprintf(path, sizeof path, "jobs[%d].%s%s", e.job,
                     phase_key[e.phase], e.phase ? "" : ".duration");
    }
    }
    return so_jin_fail(in, path, 0, "%s", msg);
}

static int from_json(so_jin *in, json_t *root, uint64_t seed,
                     const so_cl_limits *lim, so_cl_workload *w)
{
    static const char *const keys[] = {"cluster", "pools", "jobs", NULL};
    if (!json_is_object(root))
        return so_jin_fail(in, "", 0, "expected a JSON object at the top");
    int rc = so_jin_keys(in, root, "", keys);
    const char *problem = "cluster";
    if (!rc)
        rc = so_jin_str(in, root, "", "problem", SO_OPTIONAL, &problem);
    if (!rc && strcmp(problem, "cluster"))
        return so_jin_fail(in, "problem", 0,
                           "expected \"cluster\" for a workload, found \"%s\"",
                           problem);
    budget b = {lim, 0, 0, 0};
    if (!rc)
        rc = read_cluster(in, root, w, &b);
    if (!rc)
        rc = read_pools(in, root, w);
    json_t *jobs = NULL;
    if (!rc)
        rc = so_jin_array(in, root, "", "jobs", SO_REQUIRED, 0, &jobs);
    if (rc)
        return rc;
    rc = precount(in, jobs, w, &b);
    if (rc)
        return rc;
    w->jobs = calloc(json_array_size(jobs) + 1, sizeof *w->jobs);
    if (!w->jobs)
        return SO_ENOMEM;
    for (size_t i = 0; i < json_array_size(jobs) && !rc; i++)
        rc = read_job(in, jobs, i, seed, w, &b);
    if (!rc)
        rc = check_fit(in, w);
    if (!rc)
        rc = check_events(in, root, w, lim);
    if (!rc)
        rc = so_cl_workload_sort(w);
    return rc;
}

int so_cl_workload_parse_json(const char *text, size_t len, const char *file,
                              uint64_t seed, so_cl_workload **out,
                              so_error *err)
{
    so_cl_limits lim;
    *out = NULL;
    so_error_clear(err);
    int rc = so_cl_limits_read(NULL, &lim, err);
    return rc ? rc : so_cl_workload_parse_json_limited(text, len, file, seed,
                                                       &lim, out, err);
}

int so_cl_workload_parse_json_limited(const char *text, size_t len,
                                      const char *file, uint64_t seed,
                                      const so_cl_limits *lim,
                                      so_cl_workload **out, so_error *err)
{
    *out = NULL;
    so_error_clear(err);
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root)
        return so_error_setf(err, file, jerr.line, jerr.column, NULL,
                             "invalid JSON: %s", jerr.text);
    /* jsonin locates values in a NUL-terminated copy of the text */
    char *copy = malloc(len + 1);
    so_cl_workload *w = so_cl_workload_new(base_name(file));
    if (!copy || !w) {
        free(copy);
        so_cl_workload_free(w);
        json_decref(root);
        return SO_ENOMEM;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    so_jin in = {file, copy, err};
    int rc = from_json(&in, root, seed, lim, w);
    json_decref(root);
    free(copy);
    if (rc) {
        so_cl_workload_free(w);
        return rc;
    }
    *out = w;
    return SO_OK;
}
