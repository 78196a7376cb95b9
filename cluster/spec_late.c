/*
 * spec_late.c — LATE, Longest Approximate Time to End (Zaharia, Konwinski,
 * Joseph, Katz, Stoica, "Improving MapReduce Performance in Heterogeneous
 * Environments", OSDI 2008, sec. 4), with the paper's constants:
 *   SpeculativeCap = 10% of the cluster's slots (of the phase) running
 *     speculative copies at once;
 *   SlowNodeThreshold = 25th percentile of node scores: no copy is launched
 *     on a node below it (node score = total progress of the attempts that
 *     ran on it: 1 per completed attempt plus the running ones' scores);
 *   SlowTaskThreshold = 25th percentile of the progress rates of the job's
 *     tasks of the phase: only tasks below it are copied;
 *   among those, the one with the longest estimated time left,
 *   (1 - progress score) / progress rate; tasks run 60 s before they are
 *   judged (as in Hadoop).
 * Choices: the rate population holds the running tasks (current rate) and the
 * completed ones (1 / duration), as Hadoop's statistics do — with running
 * tasks alone the last straggler would always sit at the percentile and
 * never be copied, against the paper's intent ("prevents needless
 * speculation when only fast tasks are running"); percentiles are linearly
 * interpolated and "below" is strict, so a job whose tasks all progress at
 * the same rate gets no copy.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/speculation.h"

#define SPECULATIVE_CAP 0.10
#define SLOW_NODE_QUANTILE 0.25
#define SLOW_TASK_QUANTILE 0.25

static double node_score(const so_cl_sim *sim, int n)
{
    const so_cl_nodert *nd = &sim->nodes[n];
    double s = nd->completed;
    for (int k = 0; k < nd->n_running; k++)
        s += so_cl_progress(sim, &sim->attempts[nd->running[k]]);
    return s;
}

int so_cl_late_slow_node(const so_cl_sim *sim, int node)
{
    int n = sim->w->n_nodes;
    so_cl_spec_buf buf;
    double *x = so_cl_spec_buf_get(&buf, (size_t)n);
    if (!x)
        return 1; /* no copy when the check cannot be made */
    for (int k = 0; k < n; k++)
        x[k] = node_score(sim, k);
    double mine = x[node];
    double threshold = so_cl_quantile(x, n, SLOW_NODE_QUANTILE);
    so_cl_spec_buf_done(&buf);
    return mine < threshold;
}

int so_cl_late_slow_task(const so_cl_sim *sim, int j, int node, int phase,
                         double *time_left)
{
    so_cl_spec_buf buf;
    buf.heap = NULL;
    const double *rates;
    int t = so_cl_late_slow_task_rates(sim, j, node, phase, time_left, &buf,
                                       &rates);
    so_cl_spec_buf_done(&buf);
    return t;
}

int so_cl_late_may_copy(const so_cl_sim *sim, int j, int phase)
{
    /* One rate in the population (one running task, none done): the 25th
     * percentile is that rate r and r < r - 1e-9 r never holds, so no task
     * is slow (on an overloaded FIFO queue, most jobs asked: one-map jobs
     * whose map runs). */
    const so_cl_jobrt *job = &sim->jobs[j];
    int n = job->n_running[phase];
    return n > 1 || (n == 1 && job->done[phase] > 0);
}

int so_cl_late_slow_task_rates(const so_cl_sim *sim, int j, int node,
                               int phase, double *time_left,
                               so_cl_spec_buf *buf, const double **rates_out)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    int n = job->n_running[phase];
    if (!so_cl_late_may_copy(sim, j, phase) ||
        sim->spec_running[phase] >= SPECULATIVE_CAP * sim->total_slots[phase])
        return -1;
    if (!so_cl_spec_any_candidate(sim, j, phase, node))
        return -1;
    /* rates[0..n-1]: the running attempts', kept; a copy with the
     * completed tasks' rates goes to the quantile, which reorders it */
    double *rates = so_cl_spec_buf_get(buf, (size_t)(2 * n + job->done[phase]));
    if (!rates)
        return -1;
    double *all = rates + n;
    so_cl_progress_rates(sim, j, job->running[phase], n, rates);
    memcpy(all, rates, (size_t)n * sizeof *all);
    int m = n;
    const int *done = sim->done_order + job->first_task[phase];
    for (int k = 0; k < job->done[phase]; k++)
        all[m++] = sim->tasks[done[k]].rate;
    double slow = so_cl_quantile(all, m, SLOW_TASK_QUANTILE);
    slow -= SO_CL_RATE_TOLERANCE * slow; /* rates equal up to rounding are not slow */
    int best = -1;
    double best_left = -1;
    for (int k = 0; k < n; k++) {
        const so_cl_attempt *a = &sim->attempts[job->running[phase][k]];
        if (!(rates[k] < slow) || !so_cl_spec_candidate(sim, a, node))
            continue;
        double left = so_cl_time_left(sim, a, rates[k]);
        if (left > best_left || (left == best_left && a->task < best)) {
            best_left = left;
            best = a->task;
        }
    }
    if (time_left)
        *time_left = best_left;
    *rates_out = rates;
    return best;
}

int so_cl_late_choose(const so_cl_sim *sim, int j, int node, int phase,
                      double *time_left)
{
    int best = so_cl_late_slow_task(sim, j, node, phase, time_left);
    return best >= 0 && so_cl_late_slow_node(sim, node) ? -1 : best;
}

static int late_pick(const so_cl_sim *sim, int j, int node, int phase)
{
    return so_cl_late_choose(sim, j, node, phase, NULL);
}

const so_cl_speculation so_cl_spec_late = {
    "late",
    "LATE: 10% cap, slow-node and slow-task thresholds at the 25th"
    " percentile, longest approximate time to end first",
    late_pick,
    so_cl_late_may_copy,
};
