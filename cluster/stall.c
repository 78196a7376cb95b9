/*
 * stall.c — a run that can no longer progress ends with an error instead
 * of heartbeating for ever (docs/cluster.md, "Known limitation"). The case
 * met so far: reduces launched at slow-start hold the room (resources) that
 * their job's maps need, so no map can launch and the reduces wait for
 * those very maps (fifo, fair and priority all stall on it; YARN's MapReduce
 * application master would preempt its reduces, which the engine does not
 * model). Under fair's preemption the same state can turn into a livelock:
 * a starved pool has a waiting reduce killed that frees no room it can use,
 * and the reduce launches again, for ever.
 *
 * The engine knows no policy, so the test is on its state alone: no job
 * arrived and no task was done for `stall_limit` simulated seconds (an
 * option, default 3600; launches and kills do not count, so a livelock is
 * caught), no job is left to arrive, and no running attempt can end (every
 * one is a reduce of a job whose maps are not all done: its copy waits, or
 * will wait, for them). A running attempt that can end (a long map)
 * re-arms the test for another stall_limit seconds. A scheduler that waits
 * on purpose, with a task some node could take or before a kill, declares
 * its longest wait from its create or later (so_cl_stall_at_least), which
 * raises the limit: fair its preemption timeouts and locality_delay, RAS
 * its control cycle, priority with tasks=planned its last planned beat.
 * Past that, a pending map that some node could take (so_cl_could_launch:
 * an offered slot with room for its demand) and the scheduler does not
 * launch is the scheduler's stall (RAS cannot place a map whose demand no
 * node holds on a shared resource), and the message names the node; else
 * no node can take one: reduces hold the room.
 */
#include <math.h>
#include <stdio.h>
#include "cluster/sim_internal.h"

static int maps_done(const so_cl_sim *s, int j)
{
    return s->jobs[j].done[SO_CL_MAP] == s->jobs[j].n[SO_CL_MAP];
}

/* Whether a task of job j's phase p can end once it runs. */
static int can_end(const so_cl_sim *s, int j, int p)
{
    return p == SO_CL_MAP || maps_done(s, j);
}

/* A node that would take a pending task of job j's phase p now, or -1. */
static int launchable(const so_cl_sim *s, int j, int p)
{
    for (int n = 0; n < s->w->n_nodes; n++)
        if (so_cl_could_launch(s, j, n, p))
            return n;
    return -1;
}

/* Whether a running attempt can still end (or a job arrive); else *job is
 * a job with tasks of phase *phase pending that could end once launched,
 * one that some node *node could take if any (-1: none). */
static int can_progress(const so_cl_sim *s, int *job, int *phase, int *node)
{
    *job = *node = -1;
    *phase = SO_CL_MAP;
    if (s->next_arrival < s->w->n_jobs || s->jobs_done == s->w->n_jobs)
        return 1;
    for (int n = 0; n < s->w->n_nodes; n++)
        for (int k = 0; k < s->nodes[n].n_running; k++) {
            const so_cl_attempt *a = &s->attempts[s->nodes[n].running[k]];
            if (can_end(s, a->job, a->phase))
                return 1;
        }
    for (int p = 0; p < SO_CL_PHASES; p++)
        for (int j = s->head[p]; j >= 0 && *node < 0; j = s->jobs[j].next[p])
            if (so_cl_pending(&s->jobs[j], p) > 0 && can_end(s, j, p)) {
                int n = launchable(s, j, p);
                if (*job < 0 || n >= 0) {
                    *job = j;
                    *phase = p;
                }
                *node = n;
            }
    return 0;
}

int so_cl_stall_check(so_cl_sim *s)
{
    int job, phase, node;
    if (can_progress(s, &job, &phase, &node)) {
        s->last_progress = s->now;
        return 0;
    }
    int len = snprintf(s->failure, sizeof s->failure,
                       "the run stalled: no task finished for %g s of simulated time (at"
                       " %.3f s, %d of %d jobs finished), no running attempt can end",
                       s->stall_limit, s->now, s->jobs_done, s->w->n_jobs);
    if (job >= 0 && node >= 0 && len > 0 && (size_t)len < sizeof s->failure)
        snprintf(s->failure + len, sizeof s->failure - (size_t)len,
                 "; job '%s' has %d %s pending that node %d could take, but the"
                 " scheduler '%s' launches none", s->w->jobs[job].name,
                 so_cl_pending(&s->jobs[job], phase), phase == SO_CL_MAP ? "maps" : "reduces",
                 node, s->cfg.scheduler->name);
    else if (job >= 0 && len > 0 && (size_t)len < sizeof s->failure)
        snprintf(s->failure + len, sizeof s->failure - (size_t)len,
                 " (every one a reduce waiting for its job's maps); job '%s' has %d %s"
                 " pending that no node can launch (reduces holding the room they need?"
                 " docs/cluster.md, \"Known limitation\")",
                 s->w->jobs[job].name, so_cl_pending(&s->jobs[job], phase),
                 phase == SO_CL_MAP ? "maps" : "reduces");
    return 1;
}

void so_cl_stall_at_least(so_cl_sim *s, double seconds)
{
    s->stall_limit = fmax(s->stall_limit, seconds + s->epoch + s->interval);
}

int so_cl_sim_failure(const so_cl_sim *s, int rc, so_error *err)
{
    if (rc == SO_EBACKEND && s && s->failure[0])
        so_error_setf(err, NULL, 0, 0, NULL, "%s", s->failure);
    else if (rc == SO_ENOMEM)
        so_error_setf(err, NULL, 0, 0, NULL, "out of memory while simulating");
    return rc;
}
