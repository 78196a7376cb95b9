/*
 * sched_fifo.c — Hadoop's default scheduler (JobQueueTaskScheduler, Hadoop
 * 1.x): jobs in one queue ordered by priority, then submit time; a free slot
 * goes to the first job that has a task to run (a pending task, else a
 * speculative copy when speculation is on). All jobs have the same priority
 * here, so the queue is submit order. No allocation layer.
 * Hadoop's load-factor padding (a tracker gets at most its share of the
 * cluster's runnable tasks) is applied by the engine before the slots are
 * offered (engine.c, option padding, on by default as in Hadoop).
 */
#include "cluster/sim_internal.h"

static int fifo_create(so_cl_sim *sim, const so_params *prm, void **state,
                       so_error *err)
{
    (void)sim;
    (void)prm;
    (void)err;
    *state = NULL;
    return SO_OK;
}

static int fifo_assign(void *state, so_cl_sim *sim, int node, int phase)
{
    (void)state;
    for (int j = sim->head[phase]; j >= 0; j = sim->jobs[j].next[phase])
        if (so_cl_launch(sim, j, node, phase))
            return 1;
    return 0;
}

const so_cl_scheduler so_cl_sched_fifo = {
    "fifo", "Hadoop's default FIFO job queue (submit order)", NULL,
    fifo_create, NULL, fifo_assign, NULL, NULL,
};
