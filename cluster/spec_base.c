/*
 * spec_base.c — BASE, Benefit Aware Speculative Execution (Zhenhua Guo,
 * Geoffrey Fox, Mo Zhou, Yang Ruan, "Improving Resource Utilization in
 * MapReduce", IEEE Cluster 2012, sec. III.C, steps 1-3), on top of a
 * slow-task choice: LATE's (`base`, as the paper: "slow tasks can be
 * identified using the mechanism described in [9]") or Hadoop's
 * (`base-hadoop`). The chosen task T (the longest estimated time left among
 * the slow ones) gets a copy T' on node N only if
 *     time left of T - estimated run time of T' > BASE_THRESHOLD,
 * run time of T' = 1 / (estimated progress rate of T' on N):
 *   1) the mean progress rate of the job's tasks of the phase that run or
 *      ran on N (running attempts: progress / seconds run; completed tasks
 *      whose winning attempt ran on N: 1 / duration);
 *   2) if there are none: the mean over all the job's scheduled tasks of
 *      the phase of progress rate / speed of their node, times N's speed
 *      (the paper's normalisation against "hardware processing power").
 * Since the estimate for T' depends on the job and N only, the task with
 * the longest time left is the only one worth checking: if it cannot win,
 * no other slow task can.
 * Choices where the paper is silent:
 *   - BASE_THRESHOLD = 10 s: a copy must be expected to win by more than
 *     about three heartbeats (Hadoop's 3 s progress reports); a smaller
 *     margin is within the noise of the estimates;
 *   - running attempts without progress yet (just launched) carry no
 *     rate and are left out of the means; with no rate at all, no copy;
 *   - step 2 normalises by the node speed of the workload (the model's only
 *     hardware figure); in the stealing-paper family a straggler's speed
 *     stands for its background load, which step 2 thus sees, while a real
 *     JobTracker would only learn it through step 1 — step 1 applies as
 *     soon as the job has run a task on the node;
 *   - the original's time left: LATE's (1 - progress) / average rate
 *     picks the task, but the benefit test takes a map's time left at its
 *     current rate (the rate between its last two progress reports):
 *     under resource stealing a task speeds up when its node-mates end,
 *     and its average rate then overstates its time left (in the Fig. 3
 *     runs the average made BASE launch copies the original beat);
 *   - the copy's rate: the mean of the other tasks' average rates, as the
 *     paper says ("the mean of their progress rates").
 * Every copy is then classified by the engine like any other: useful,
 * non-beneficial (NBST: its original won) or killed.
 */
#include <math.h>
#include <stdlib.h>
#include "cluster/speculation.h"

#define BASE_THRESHOLD 10.0

static int by_id(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* so_cl_base_copy_rate, given the running attempts' progress rates at now
 * in running-list order (NULL: computed here). The means add the running
 * attempts in running-list order, then the completed tasks in task order:
 * from the completion list, sorted, when it is short against the phase,
 * else by a scan of the phase's tasks (the same sums either way). */
static double copy_rate(const so_cl_sim *sim, int j, int node, int phase,
                        const double *running_rate)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    const so_cl_workload *w = sim->w;
    double here = 0, norm = 0;
    int n_here = 0, n_norm = 0;
    for (int k = 0; k < job->n_running[phase]; k++) {
        const so_cl_attempt *a = &sim->attempts[job->running[phase][k]];
        double r = running_rate ? running_rate[k] : so_cl_progress_rate(sim, a);
        if (!(r > 0))
            continue;
        if (a->node == node) {
            here += r;
            n_here++;
        }
        norm += r / w->nodes[a->node].speed;
        n_norm++;
    }
    int first = job->first_task[phase], n_done = job->done[phase];
    int sorted[SO_CL_SPEC_LOCAL];
    int from_list = n_done <= SO_CL_SPEC_LOCAL && 8 * n_done < job->n[phase];
    if (from_list) {
        for (int k = 0; k < n_done; k++)
            sorted[k] = sim->done_order[first + k];
        qsort(sorted, (size_t)n_done, sizeof *sorted, by_id);
    }
    int n_visit = from_list ? n_done : job->n[phase];
    for (int k = 0; k < n_visit; k++) {
        const so_cl_task *task = &sim->tasks[from_list ? sorted[k] : first + k];
        if (task->state != SO_CL_DONE || !(task->rate > 0))
            continue;
        int ran_on = task->winner_node;
        if (ran_on == node) {
            here += task->rate;
            n_here++;
        }
        norm += task->rate / w->nodes[ran_on].speed;
        n_norm++;
    }
    if (n_here > 0)
        return here / n_here;
    return n_norm > 0 ? norm / n_norm * w->nodes[node].speed : 0;
}

double so_cl_base_copy_rate(const so_cl_sim *sim, int j, int node, int phase)
{
    return copy_rate(sim, j, node, phase, NULL);
}

int so_cl_base_worth(double time_left, double copy_rate)
{
    return copy_rate > 0 && time_left - 1.0 / copy_rate > BASE_THRESHOLD;
}

/* The original's time left at its current speed, for a map: (1 - progress)
 * / (current rate / work), what two consecutive progress reports show.
 * Others (a reduce's score rate depends on its phase and on the maps):
 * the slow-task rule's estimate `left`. */
static double current_left(const so_cl_sim *sim, int task, double left)
{
    const so_cl_task *t = &sim->tasks[task];
    if (t->phase != SO_CL_MAP || t->n_running != 1)
        return left;
    const so_cl_attempt *a = &sim->attempts[t->attempt[0]];
    if (!(a->rate > 0) || !(a->work > 0))
        return left;
    return (1 - so_cl_progress(sim, a)) * a->work / a->rate;
}

static int base_filter(const so_cl_sim *sim, int j, int node, int phase,
                       int task, double left, const double *running_rate)
{
    if (task < 0)
        return -1;
    left = current_left(sim, task, left);
    double rate = copy_rate(sim, j, node, phase, running_rate);
    return so_cl_base_worth(left, rate) ? task : -1;
}

/* LATE's choice, then BASE's test: a copy needs LATE's task, a node not
 * below LATE's slow-node threshold and the benefit. The last two are pure
 * tests of the same state, so the cheaper one runs first (the node scores
 * visit every node and running attempt, the copy rate the job's tasks): the
 * same answer, without the cluster-wide scan for most refused copies. The
 * copy rate takes the running attempts' progress rates LATE's rule
 * computed (the same values at the same time). */
static int base_late_check(const so_cl_sim *sim, int j, int node, int phase,
                           int t, double left, const double *rate)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    long long node_cost = (long long)sim->w->n_nodes +
                          sim->total_slots[SO_CL_MAP] +
                          sim->total_slots[SO_CL_REDUCE];
    long long job_cost = (long long)job->n_running[phase] + job->n[phase];
    if (job_cost <= node_cost)
        return base_filter(sim, j, node, phase, t, left, rate) < 0 ||
                       so_cl_late_slow_node(sim, node)
                   ? -1
                   : t;
    return so_cl_late_slow_node(sim, node)
               ? -1
               : base_filter(sim, j, node, phase, t, left, rate);
}

static int base_late_pick(const so_cl_sim *sim, int j, int node, int phase)
{
    so_cl_spec_buf buf;
    buf.heap = NULL;
    const double *rate = NULL;
    double left = 0;
    int t = so_cl_late_slow_task_rates(sim, j, node, phase, &left, &buf, &rate);
    int pick = t < 0 ? -1 : base_late_check(sim, j, node, phase, t, left, rate);
    so_cl_spec_buf_done(&buf);
    return pick;
}

static int base_hadoop_pick(const so_cl_sim *sim, int j, int node, int phase)
{
    double left = 0;
    int t = so_cl_hadoop_choose(sim, j, node, phase, &left);
    return base_filter(sim, j, node, phase, t, left, NULL);
}

const so_cl_speculation so_cl_spec_base = {
    "base",
    "BASE on LATE's slow tasks: copy only if the original's time left"
    " exceeds the copy's estimated run time by 10 s",
    base_late_pick,
    so_cl_late_may_copy,
};

const so_cl_speculation so_cl_spec_base_hadoop = {
    "base-hadoop",
    "BASE on Hadoop's slow tasks (one standard deviation below the mean)",
    base_hadoop_pick,
    so_cl_hadoop_may_copy,
};
