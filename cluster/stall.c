/*
 * stall.c — a run that can no longer progress ends with an error instead
 * of heartbeating for ever (docs/cluster.md, "Known limitation"). The case
 * met so far: reduces launched at slow-start hold the room (resources) that
 * their job's maps need, so no map can launch and the reduces wait for
 * those very maps (fifo, fair and priority all stall on it; YARN's MapReduce
 * application master would preempt its reduces, which the engine does not
 * model).
 *
 * The engine knows no policy, so the test is on its state alone: no job
 * arrived and no attempt started or stopped for `stall_limit` simulated
 * seconds (an option, default 3600), no job is left to arrive, and every
 * running attempt is a reduce whose copy waits for its job's last map (so
 * no end event is queued). Then only a scheduler's own timers could change
 * anything, and they act within far less than an hour (fair's preemption
 * timeouts, delay scheduling's waits, FLEX's and RAS's epochs). A running
 * attempt that can end (a long map) re-arms the test for another
 * stall_limit seconds.
 */
#include <stdio.h>
#include "cluster/sim_internal.h"

static int can_end(const so_cl_sim *s, int id)
{
    const so_cl_attempt *a = &s->attempts[id];
    return !(a->phase == SO_CL_REDUCE && a->waiting);
}

int so_cl_stall_check(so_cl_sim *s)
{
    if (s->next_arrival < s->w->n_jobs || s->jobs_done == s->w->n_jobs) {
        s->last_progress = s->now;
        return 0;
    }
    for (int n = 0; n < s->w->n_nodes; n++)
        for (int k = 0; k < s->nodes[n].n_running; k++)
            if (can_end(s, s->nodes[n].running[k])) {
                s->last_progress = s->now;
                return 0;
            }
    int job = -1;
    for (int j = s->head[SO_CL_MAP]; j >= 0 && job < 0; j = s->jobs[j].next[SO_CL_MAP])
        if (so_cl_pending(&s->jobs[j], SO_CL_MAP) > 0)
            job = j;
    int len = snprintf(s->failure, sizeof s->failure,
                       "the run stalled: no task started or ended for %g s of simulated"
                       " time (at %.3f s, %d of %d jobs finished), every running attempt a"
                       " reduce waiting for its job's maps",
                       s->stall_limit, s->now, s->jobs_done, s->w->n_jobs);
    if (job >= 0 && len > 0 && (size_t)len < sizeof s->failure)
        snprintf(s->failure + len, sizeof s->failure - (size_t)len,
                 "; job '%s' has %d maps pending that no node can launch (reduces"
                 " holding the room they need? docs/cluster.md, \"Known limitation\")",
                 s->w->jobs[job].name, so_cl_pending(&s->jobs[job], SO_CL_MAP));
    return 1;
}

int so_cl_sim_failure(const so_cl_sim *s, int rc, so_error *err)
{
    if (rc == SO_EBACKEND && s && s->failure[0])
        so_error_setf(err, NULL, 0, 0, NULL, "%s", s->failure);
    else if (rc == SO_ENOMEM)
        so_error_setf(err, NULL, 0, 0, NULL, "out of memory while simulating");
    return rc;
}
