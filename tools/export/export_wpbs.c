/* export_wpbs.c — Hadoop pools from WPBS shares (Shreerashmi B.S. et al.,
 * IJCSMC 4(5) 2015, eqs. 8-10: per-user map and reduce slot shares;
 * Algorithm 3: FIFO or fair among a user's jobs).
 * WPBS recomputes its shares at every allocation epoch; a configuration
 * file is one moment of that, so the workload is simulated under WPBS and
 * the shares are read at a chosen time (cluster/wpbs_snapshot.c). Choices
 * (the paper writes no configuration):
 *   - one pool per user of the workload, so every user's jobs find their
 *     pool; a user without demand at that time (no job waiting, or none
 *     submitted yet) gets minima 0 and, as Hadoop wants weights > 0 (MRv1
 *     PoolManager; YARN serves a weight-0 queue only after all others),
 *     the smallest weight among the users with demand: it competes like
 *     the least-entitled active user until WPBS's next epoch would size
 *     its share;
 *   - minMaps / minReduces: the capped share (what the user is entitled to
 *     now) rounded down, so the minima never exceed the cluster; no maxima
 *     (WPBS hands a capped user's surplus to the others);
 *   - weight: map + reduce share, so fair sharing above the minima keeps
 *     WPBS's proportions; schedulingMode: the user's tier-2 scheme;
 *   - YARN ApplicationMasters: one per job of the user running at that
 *     time (arrived, unfinished), FIFO users included: YARN starts every
 *     submitted application's AM before its tasks whatever the queue's
 *     policy (a fifo queue runs later applications in the room the first
 *     leaves, FairScheduler.md), so each running job holds one;
 *   - pool names: the user name with characters outside [A-Za-z0-9_.-]
 *     replaced by '_' (so_hc_name_char; "user<u>" for an empty name). */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/cluster.h"
#include "cluster/run_limits.h"
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
        if (!so_hc_name_char((unsigned char)*c))
            *c = '_';
}

int so_export_wpbs_shares(const char *path, double at, int64_t container_mb,
                          int64_t am_mb, int64_t alloc_mb, so_hc_shares *out,
                          double *used, so_error *err)
{
    memset(out, 0, sizeof *out);
    char *text = NULL;
    size_t len = 0;
    int rc = so_read_input(path, &text, &len, err);
    if (!rc)
        rc = so_export_wpbs_shares_text(text, len, strcmp(path, "-") ? path : "stdin",
                                        at, container_mb, am_mb, alloc_mb, out, used, err);
    free(text);
    return rc;
}

int so_export_wpbs_shares_text(const char *text, size_t len, const char *file,
                               double at, int64_t container_mb, int64_t am_mb,
                               int64_t alloc_mb, so_hc_shares *out, double *used,
                               so_error *err)
{
    memset(out, 0, sizeof *out);
    /* the snapshot replays only up to `at`: the event bound of a whole
     * replay does not apply */
    so_params any_events;
    so_params_init(&any_events);
    so_params_set(&any_events, "max_events", SO_CL_MAX_EVENTS_CEILING);
    so_cl_workload *w = NULL;
    int rc = so_cl_workload_parse(text, len, file, &any_events, 1, &w, err);
    if (rc)
        return rc;
    if (isnan(at))
        at = so_cl_wpbs_default_at(w);
    so_cl_wpbs_snapshot s;
    rc = so_cl_wpbs_snapshot_at(w, NULL, 1, at, &s, err);
    so_cl_workload_free(w);
    if (rc)
        return rc;
    size_t n = (size_t)s.n_users;
    out->pools = calloc(n + 1, sizeof *out->pools);
    char (*names)[64] = calloc(n + 1, sizeof *names);
    const char **np = calloc(n + 1, sizeof *np);
    double *wt = calloc(n + 1, sizeof *wt);
    if (!out->pools || !names || !np || !wt)
        rc = SO_ENOMEM;
    /* the smallest weight among users with demand: the weight of those
     * without (Hadoop wants weights > 0; see the file's opening) */
    double least = INFINITY;
    for (int u = 0; !rc && u < s.n_users; u++) {
        const so_cl_wpbs_user_share *us = &s.users[u];
        double total = us->share[SO_CL_MAP] + us->share[SO_CL_REDUCE];
        if (total > 0)
            least = fmin(least, total);
        pool_name(names[u], sizeof names[u], us->name, u);
        np[u] = names[u];
        wt[u] = total;
    }
    if (!rc && !isfinite(least))
        rc = so_error_setf(err, NULL, 0, 0, "at",
                           "no user has jobs waiting for slots at %g s (--opt at=SECONDS)", at);
    for (size_t u = 0; !rc && u < n; u++)
        if (!(wt[u] > 0))
            wt[u] = least;
    if (!rc)
        rc = so_hc_shares_from_weights(n, np, wt, out->pools, err);
    for (int u = 0; !rc && u < s.n_users; u++) {
        const so_cl_wpbs_user_share *us = &s.users[u];
        out->pools[u].min_maps = (int64_t)floor(us->share[SO_CL_MAP] + 1e-9);
        out->pools[u].min_reduces = (int64_t)floor(us->share[SO_CL_REDUCE] + 1e-9);
        out->pools[u].fifo = us->fifo;
        out->pools[u].ams = us->jobs;
        snprintf(out->pools[u].user, sizeof out->pools[u].user, "%s", us->name);
    }
    out->n = n;
    out->cluster_slots = (int64_t)s.total_slots[SO_CL_MAP] + s.total_slots[SO_CL_REDUCE];
    out->container_mb = container_mb;
    out->am_mb = am_mb;
    out->alloc_mb = alloc_mb;
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
