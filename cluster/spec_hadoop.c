/*
 * spec_hadoop.c — Hadoop 1.x default speculative execution, as the
 * resource-stealing/BASE paper (Guo, Fox, Zhou, Ruan, IEEE Cluster 2012,
 * sec. III.C) summarises it:
 * "Hadoop identifies the tasks whose progress rates are one standard
 * deviation lower than the mean of all tasks as slow tasks. Then it chooses
 * the task with the longest remaining execution time to speculate."
 * Constants (Hadoop 1.x JobInProgress / TaskInProgress defaults):
 *   slowtaskthreshold = 1.0 standard deviation (mapreduce.job.speculative.
 *     slowtaskthreshold); statistics over the job's tasks of the phase,
 *     running (current rate) and completed (1 / duration);
 *   SPECULATIVE_LAG = 60 s; at most one speculative attempt per task;
 *   speculative cap: a job may start another copy while its running copies
 *     are fewer than max(10, 0.01 * slots of the phase) or below 0.1 of its
 *     running tasks (speculativecap = 0.1, MIN_SPEC_CAP = 10,
 *     MIN_SLOTS_CAP = 0.01).
 * Remaining time = (1 - progress) / rate (LATE's estimate, also Hadoop 1.x's).
 * Choice: Hadoop's slow-node filter (slownodethreshold) is not modelled.
 * A speculative attempt is only launched when the job has no pending task
 * (the engine asks after the pending tasks, as obtainNewMapTask does).
 */
#include <math.h>
#include <stdlib.h>
#include "cluster/speculation.h"

#define SLOW_TASK_THRESHOLD 1.0
#define SPECULATIVE_CAP 0.1
#define MIN_SPEC_CAP 10
#define MIN_SLOTS_CAP 0.01

static int at_cap(const so_cl_sim *sim, const so_cl_jobrt *job, int phase)
{
    int spec = job->spec_running[phase];
    if (spec < MIN_SPEC_CAP || spec < MIN_SLOTS_CAP * sim->total_slots[phase])
        return 0;
    return spec >= SPECULATIVE_CAP * job->running_tasks[phase];
}

int so_cl_hadoop_may_copy(const so_cl_sim *sim, int j, int phase)
{
    /* One task in the statistics (one running, none done): its rate r is
     * the mean, sd = sqrt(r r - r r) = 0 and r < r - 1e-9 r never holds, so
     * no task is slow. On an overloaded FIFO queue most jobs asked are
     * one-map jobs whose map runs (99 % of the calls): answered at once. */
    const so_cl_jobrt *job = &sim->jobs[j];
    int n = job->n_running[phase];
    return (n > 1 || (n == 1 && job->done[phase] > 0)) &&
           !at_cap(sim, job, phase);
}

int so_cl_hadoop_choose(const so_cl_sim *sim, int j, int node, int phase,
                        double *time_left)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    if (!so_cl_hadoop_may_copy(sim, j, phase))
        return -1;
    if (!so_cl_spec_any_candidate(sim, j, phase, node))
        return -1;
    int n_run = job->n_running[phase];
    so_cl_spec_buf buf;
    double *rate = so_cl_spec_buf_get(&buf, (size_t)n_run);
    if (!rate)
        return -1;
    double sum = job->rate_sum[phase], sumsq = job->rate_sumsq[phase];
    int n = job->done[phase] + n_run;
    for (int k = 0; k < n_run; k++) {
        rate[k] = so_cl_progress_rate(sim, &sim->attempts[job->running[phase][k]]);
        sum += rate[k];
        sumsq += rate[k] * rate[k];
    }
    double mean = sum / n;
    double sd = sqrt(fmax(0.0, sumsq / n - mean * mean));
    /* rates equal up to rounding must not look slow */
    double slow = mean - SLOW_TASK_THRESHOLD * sd - SO_CL_RATE_TOLERANCE * mean;
    int best = -1;
    double best_left = -1;
    for (int k = 0; k < n_run; k++) {
        const so_cl_attempt *a = &sim->attempts[job->running[phase][k]];
        if (!(rate[k] < slow) || !so_cl_spec_candidate(sim, a, node))
            continue;
        double left = so_cl_time_left(sim, a, rate[k]);
        if (left > best_left || (left == best_left && a->task < best)) {
            best_left = left;
            best = a->task;
        }
    }
    so_cl_spec_buf_done(&buf);
    if (time_left)
        *time_left = best_left;
    return best;
}

static int hadoop_pick(const so_cl_sim *sim, int j, int node, int phase)
{
    return so_cl_hadoop_choose(sim, j, node, phase, NULL);
}

const so_cl_speculation so_cl_spec_hadoop = {
    "hadoop",
    "Hadoop 1.x: rate one standard deviation below the job's mean, longest"
    " time left first, 60 s lag",
    hadoop_pick,
    so_cl_hadoop_may_copy,
};
