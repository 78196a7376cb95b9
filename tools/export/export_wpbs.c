/* export_wpbs.c — Hadoop pools from WPBS shares (Shreerashmi B.S. et al.,
 * IJCSMC 4(5) 2015, eqs. 8-10: per-user map and reduce slot shares;
 * Algorithm 3: FIFO or fair among a user's jobs).
 * WPBS recomputes its shares at every allocation epoch; a configuration
 * file is one moment of that, so the workload is simulated under WPBS and
 * the shares are read at a chosen time (cluster/wpbs_snapshot.c). Choices
 * (the paper writes no configuration):
 *   - one pool per user with demand at that time (users without jobs
 *     waiting would have weight 0, which Hadoop refuses; their jobs go to
 *     the default pool);
 *   - minMaps / minReduces: the capped share (what the user is entitled to
 *     now) rounded down, so the minima never exceed the cluster; no maxima
 *     (WPBS hands a capped user's surplus to the others);
 *   - weight: map + reduce share, so fair sharing above the minima keeps
 *     WPBS's proportions; schedulingMode: the user's tier-2 scheme;
 *   - pool names: the user name with characters outside [A-Za-z0-9_.-]
 *     replaced by '_' ("user<u>" for an empty name). */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/cluster.h"
#include "cluster/wpbs_snapshot.h"
#include "tools/export/export_wpbs.h"

int so_export_is_workload(const char *text, size_t len)
{
    json_error_t je;
    json_t *root = json_loadb(text, len, 0, &je);
    const char *p = json_string_value(json_object_get(root, "problem"));
    int yes = p && !strcmp(p, "cluster");
    json_decref(root);
    return yes;
}

static void pool_name(char *dst, size_t cap, const char *user, int u)
{
    if (!user[0]) {
        snprintf(dst, cap, "user%d", u);
        return;
    }
    snprintf(dst, cap, "%s", user);
    for (char *c = dst; *c; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
              (*c >= '0' && *c <= '9') || *c == '_' || *c == '.' || *c == '-'))
            *c = '_';
}

int so_export_wpbs_shares(const char *path, double at, int64_t container_mb,
                          so_hc_shares *out, double *used, so_error *err)
{
    memset(out, 0, sizeof *out);
    char *text = NULL;
    size_t len = 0;
    int rc = so_read_input(path, &text, &len, err);
    if (!rc)
        rc = so_export_wpbs_shares_text(text, len, strcmp(path, "-") ? path : "stdin",
                                        at, container_mb, out, used, err);
    free(text);
    return rc;
}

int so_export_wpbs_shares_text(const char *text, size_t len, const char *file,
                               double at, int64_t container_mb,
                               so_hc_shares *out, double *used, so_error *err)
{
    memset(out, 0, sizeof *out);
    so_cl_workload *w = NULL;
    int rc = so_cl_workload_parse(text, len, file, NULL, 1, &w, err);
    if (rc)
        return rc;
    if (isnan(at))
        at = so_cl_wpbs_default_at(w);
    so_cl_wpbs_snapshot s;
    rc = so_cl_wpbs_snapshot_at(w, NULL, 1, at, &s, err);
    so_cl_workload_free(w);
    if (rc)
        return rc;
    size_t n = 0;
    out->pools = calloc((size_t)s.n_users + 1, sizeof *out->pools);
    char (*names)[64] = calloc((size_t)s.n_users + 1, sizeof *names);
    const char **np = calloc((size_t)s.n_users + 1, sizeof *np);
    double *wt = calloc((size_t)s.n_users + 1, sizeof *wt);
    if (!out->pools || !names || !np || !wt)
        rc = SO_ENOMEM;
    for (int u = 0; !rc && u < s.n_users; u++) {
        const so_cl_wpbs_user_share *us = &s.users[u];
        double total = us->share[SO_CL_MAP] + us->share[SO_CL_REDUCE];
        if (!(total > 0))
            continue;
        pool_name(names[n], sizeof names[n], us->name, u);
        np[n] = names[n];
        wt[n] = total;
        n++;
    }
    if (!rc && n == 0)
        rc = so_error_setf(err, NULL, 0, 0, "at",
                           "no user has jobs waiting for slots at %g s (--opt at=SECONDS)", at);
    if (!rc)
        rc = so_hc_shares_from_weights(n, np, wt, out->pools, err);
    for (int u = 0, k = 0; !rc && u < s.n_users; u++) {
        const so_cl_wpbs_user_share *us = &s.users[u];
        if (!(us->share[SO_CL_MAP] + us->share[SO_CL_REDUCE] > 0))
            continue;
        out->pools[k].min_maps = (int64_t)floor(us->share[SO_CL_MAP] + 1e-9);
        out->pools[k].min_reduces = (int64_t)floor(us->share[SO_CL_REDUCE] + 1e-9);
        out->pools[k].fifo = us->fifo;
        k++;
    }
    out->n = n;
    out->cluster_slots = (int64_t)s.total_slots[SO_CL_MAP] + s.total_slots[SO_CL_REDUCE];
    out->container_mb = container_mb;
    if (used)
        *used = s.time;
    so_cl_wpbs_snapshot_free(&s);
    free(names);
    free(np);
    free(wt);
    if (rc) {
        free(out->pools);
        out->pools = NULL;
        out->n = 0;
    }
    return rc;
}
