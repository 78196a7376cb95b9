/* wpbs_snapshot.c — WPBS's per-user shares at a chosen time (Shreerashmi
 * B.S. et al., IJCSMC 4(5) 2015, eqs. 8-10 and Algorithm 3 as
 * cluster/sched_wpbs.c computes them), read through the public hooks of
 * cluster.h: after every event at or before the time, the shares of the
 * last allocation (so_cl_wpbs_user_shares), each user's tier-2 scheme and
 * its count of arrived, unfinished jobs are copied (zero for a user whose jobs have all finished since the last
 * allocation); the latest copy is the snapshot. The simulation runs to its
 * end (the engine has no stop time); the copies after `at` are ignored. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/sim_internal.h"
#include "cluster/wpbs.h"
#include "cluster/wpbs_snapshot.h"

typedef struct snap_ctx {
    so_cl_wpbs_snapshot *out;
    double *buf[2 * SO_CL_PHASES];
    int *waiting; /* per user: arrived, unfinished jobs */
} snap_ctx;

static void take(snap_ctx *c, so_cl_sim *sim)
{
    so_cl_wpbs_snapshot *s = c->out;
    if (sim->now > s->at)
        return;
    s->time = sim->now;
    for (int ph = 0; ph < SO_CL_PHASES; ph++) {
        so_cl_wpbs_user_shares(sim, ph, c->buf[2 * ph], c->buf[2 * ph + 1]);
        for (int u = 0; u < s->n_users; u++) {
            s->users[u].su[ph] = c->buf[2 * ph][u];
            s->users[u].share[ph] = c->buf[2 * ph + 1][u];
        }
    }
    for (int u = 0; u < s->n_users; u++)
        s->users[u].fifo = so_cl_wpbs_user_fifo(sim, u) == 1;
    /* the last allocation may predate a job's completion: a user whose
     * jobs have all finished has no share any more */
    for (int u = 0; u < s->n_users; u++)
        c->waiting[u] = 0;
    for (int j = 0; j < sim->w->n_jobs; j++)
        if (sim->jobs[j].arrived && !sim->jobs[j].finished)
            c->waiting[so_cl_job_user(sim, j)]++;
    for (int u = 0; u < s->n_users; u++)
        s->users[u].jobs = c->waiting[u];
    for (int u = 0; u < s->n_users; u++)
        if (!c->waiting[u])
            for (int ph = 0; ph < SO_CL_PHASES; ph++)
                s->users[u].su[ph] = s->users[u].share[ph] = 0;
}

static void on_arrive(void *c, so_cl_sim *sim, int job) { (void)job; take(c, sim); }
static void on_launch(void *c, so_cl_sim *sim, int a) { (void)a; take(c, sim); }
static void on_end(void *c, so_cl_sim *sim, int a, int node, double d)
{
    (void)a;
    (void)node;
    (void)d;
    take(c, sim);
}
static void on_beat(void *c, so_cl_sim *sim, int node) { (void)node; take(c, sim); }

static const so_cl_hooks snap_hooks = {
    .job_arrive = on_arrive,
    .attempt_launch = on_launch,
    .attempt_end = on_end,
    .job_finish = on_arrive,
    .node_beat = on_beat,
};

double so_cl_wpbs_default_at(const so_cl_workload *w)
{
    double last = 0;
    for (int j = 0; j < w->n_jobs; j++)
        last = fmax(last, w->jobs[j].submit);
    return last + so_cl_heartbeat_interval(w);
}

int so_cl_wpbs_snapshot_at(const so_cl_workload *w, const so_params *prm,
                           uint64_t seed, double at, so_cl_wpbs_snapshot *out,
                           so_error *err)
{
    memset(out, 0, sizeof *out);
    out->at = at;
    out->time = -1;
    if (!(at >= 0) || !isfinite(at))
        return so_error_setf(err, NULL, 0, 0, "at", "expected a time >= 0 s, found %g", at);
    snap_ctx c = {out, {0}, NULL};
    so_cl_config cfg = {.scheduler = so_cl_scheduler_find("wpbs"), .params = prm,
                        .seed = seed, .hooks = &snap_hooks, .hooks_state = &c};
    so_cl_sim *sim = NULL;
    int rc = so_cl_sim_new(w, &cfg, &sim, err);
    if (!rc) {
        out->n_users = so_cl_user_count(sim);
        out->users = calloc((size_t)out->n_users + 1, sizeof *out->users);
        for (int k = 0; k < 2 * SO_CL_PHASES; k++)
            c.buf[k] = calloc((size_t)out->n_users + 1, sizeof *c.buf[k]);
        c.waiting = calloc((size_t)out->n_users + 1, sizeof *c.waiting);
        rc = out->users && c.buf[0] && c.buf[1] && c.buf[2] && c.buf[3] && c.waiting
                 ? SO_OK : SO_ENOMEM;
    }
    for (int j = 0; !rc && j < w->n_jobs; j++)
        snprintf(out->users[so_cl_job_user(sim, j)].name, sizeof out->users->name, "%s",
                 w->jobs[j].user);
    if (!rc) {
        for (int ph = 0; ph < SO_CL_PHASES; ph++)
            out->total_slots[ph] = sim->total_slots[ph];
        rc = so_cl_sim_failure(sim, so_cl_sim_run(sim), err);
    }
    so_cl_sim_free(sim);
    for (int k = 0; k < 2 * SO_CL_PHASES; k++)
        free(c.buf[k]);
    free(c.waiting);
    if (rc)
        so_cl_wpbs_snapshot_free(out);
    return rc;
}

void so_cl_wpbs_snapshot_free(so_cl_wpbs_snapshot *s)
{
    free(s->users);
    s->users = NULL;
    s->n_users = 0;
}
