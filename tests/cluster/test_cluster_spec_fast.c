/* test_cluster_spec_fast.c — the speculation rules' shortcuts (issue 16)
 * give the answers of the plain computations they replace, bit for bit:
 * at every heartbeat of replays of the shipped FB-2009 sample's first jobs
 * on a small cluster with stragglers, for every unfinished job, phase and
 * two nodes, against reference copies of the code before the shortcuts:
 *   - progress scores (progress.c's comparisons against fmin / fmax);
 *   - whether a job has a copy candidate (the oldest running attempt's
 *     start against the lag, then the running list);
 *   - LATE's slow task and its time left (completed tasks' rates from the
 *     completion list instead of a scan of the phase);
 *   - BASE's copy rate (completed tasks in task order from the sorted
 *     completion list) and BASE's and LATE's whole choice (BASE reuses
 *     LATE's running rates);
 *   - every policy's may_copy test (issue 33): a job that LATE's or BASE's
 *     rules out has no slow task and no copy by the reference code, and
 *     gets no copy from any policy's pick, on either node;
 * and the engine's lists behind them hold what they say (completion list:
 * exactly the completed tasks; launch list: from `oldest` on, every
 * running attempt, the oldest first). */
#include <math.h>
#include <stdlib.h>
#include "tests/cluster/cluster_test.h"
#include "tests/test_util.h"
#include "cluster/speculation.h"

/* ---- references: the code before the shortcuts -------------------------- */

static double ref_frac(double done, double work)
{
    return work > 0 ? fmin(1.0, fmax(0.0, done / work)) : 1.0;
}

static double ref_done_now(const so_cl_sim *sim, const so_cl_attempt *a)
{
    return a->waiting ? a->done : a->done + (sim->now - a->updated) * a->rate;
}

static double ref_progress(const so_cl_sim *sim, const so_cl_attempt *a)
{
    if (a->state == SO_CL_DONE)
        return 1.0;
    const so_cl_jobrt *job = &sim->jobs[a->job];
    if (a->phase == SO_CL_MAP)
        return ref_frac(ref_done_now(sim, a), a->work);
    const so_cl_reduce_work *rw =
        &job->spec->reduce_work[a->task - job->first_task[a->phase]];
    double after;
    if (a->seg == 1) {
        after = ref_done_now(sim, a);
    } else if (a->chained && sim->now >= a->copy_end) {
        after = (sim->now - a->copy_end) * a->rate;
    } else {
        double copy = ref_frac(ref_done_now(sim, a), a->work);
        if (job->n[SO_CL_MAP] > 0)
            copy = fmin(copy, (double)job->done[SO_CL_MAP] / job->n[SO_CL_MAP]);
        return copy / 3.0;
    }
    return (1.0 + ref_frac(after, rw->sort) +
            ref_frac(after - rw->sort, rw->reduce)) /
           3.0;
}

static double ref_progress_rate(const so_cl_sim *sim, const so_cl_attempt *a)
{
    double ran = sim->now - a->start;
    return ran > 0 ? ref_progress(sim, a) / ran : 0.0;
}

static int ref_any_candidate(const so_cl_sim *sim, int j, int phase, int node)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    for (int k = 0; k < job->n_running[phase]; k++)
        if (so_cl_spec_candidate(sim, &sim->attempts[job->running[phase][k]],
                                 node))
            return 1;
    return 0;
}

static int ref_late_slow_task(const so_cl_sim *sim, int j, int node, int phase,
                              double *time_left)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    int n = job->n_running[phase];
    if (n == 0 || sim->spec_running[phase] >= 0.10 * sim->total_slots[phase])
        return -1;
    if (n == 1 && job->done[phase] == 0)
        return -1;
    if (!ref_any_candidate(sim, j, phase, node))
        return -1;
    double *rates = malloc((size_t)(2 * n + job->n[phase]) * sizeof *rates);
    if (!rates)
        return -2;
    double *all = rates + n;
    int m = 0;
    for (int k = 0; k < n; k++)
        all[m++] = rates[k] =
            ref_progress_rate(sim, &sim->attempts[job->running[phase][k]]);
    for (int t = job->first_task[phase]; t < job->first_task[phase] + job->n[phase];
         t++)
        if (sim->tasks[t].state == SO_CL_DONE)
            all[m++] = sim->tasks[t].rate;
    double slow = so_cl_quantile(all, m, 0.25);
    slow -= SO_CL_RATE_TOLERANCE * slow;
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
    free(rates);
    *time_left = best_left;
    return best;
}

static double ref_copy_rate(const so_cl_sim *sim, int j, int node, int phase)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    const so_cl_workload *w = sim->w;
    double here = 0, norm = 0;
    int n_here = 0, n_norm = 0;
    for (int k = 0; k < job->n_running[phase]; k++) {
        const so_cl_attempt *a = &sim->attempts[job->running[phase][k]];
        double r = ref_progress_rate(sim, a);
        if (!(r > 0))
            continue;
        if (a->node == node) {
            here += r;
            n_here++;
        }
        norm += r / w->nodes[a->node].speed;
        n_norm++;
    }
    int first = job->first_task[phase];
    for (int t = first; t < first + job->n[phase]; t++) {
        const so_cl_task *task = &sim->tasks[t];
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

/* spec_base.c's base_late_pick before the shortcuts (same order of tests:
 * they are pure, any order gives the same answer) */
static int ref_base_pick(const so_cl_sim *sim, int j, int node, int phase)
{
    double left = 0;
    int t = ref_late_slow_task(sim, j, node, phase, &left);
    if (t < 0)
        return t;
    const so_cl_task *task = &sim->tasks[t];
    if (task->phase == SO_CL_MAP && task->n_running == 1) {
        const so_cl_attempt *a = &sim->attempts[task->attempt[0]];
        if (a->rate > 0 && a->work > 0)
            left = (1 - ref_progress(sim, a)) * a->work / a->rate;
    }
    if (!so_cl_base_worth(left, ref_copy_rate(sim, j, node, phase)))
        return -1;
    return so_cl_late_slow_node(sim, node) ? -1 : t;
}

/* ---- checks at every heartbeat ------------------------------------------ */

typedef struct check_state {
    long beats, checks, slow_found, base_found, failures;
    long ruled_out, may; /* may_copy answers 0 and 1 */
    char *mark; /* per task, for the completion list check */
    const so_cl_speculation *late, *base;
} check_state;

static void fail(check_state *st, const char *what, int j, int phase, int node,
                 double now)
{
    if (st->failures++ < 5)
        fprintf(stderr, "spec-fast: %s differs (job %d, phase %d, node %d, t %.17g)\n",
                what, j, phase, node, now);
}

static const char *const policies[] = {"late", "base", "hadoop", "base-hadoop"};

/* Each policy's may_copy: when it rules the job's phase out, its pick
 * copies nothing on either node (against the reference code: in on_beat). */
static void check_may_copy(check_state *st, const so_cl_sim *sim, int j, int p,
                           const int *nodes)
{
    for (size_t k = 0; k < sizeof policies / sizeof *policies; k++) {
        const so_cl_speculation *sp = so_cl_speculation_find(policies[k]);
        if (!sp || !sp->may_copy) {
            fail(st, "may_copy missing", j, p, -1, sim->now);
            continue;
        }
        if (sp->may_copy(sim, j, p)) {
            st->may++;
            continue;
        }
        st->ruled_out++;
        for (int q = 0; q < 2; q++)
            if (sp->pick(sim, j, nodes[q], p) != -1)
                fail(st, policies[k], j, p, nodes[q], sim->now);
    }
}

static void check_lists(check_state *st, const so_cl_sim *sim, int j, int p)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    int first = job->first_task[p], n_done = 0;
    for (int t = first; t < first + job->n[p]; t++) {
        st->mark[t] = 0;
        n_done += sim->tasks[t].state == SO_CL_DONE;
    }
    int ok = n_done == job->done[p];
    for (int k = 0; k < job->done[p] && ok; k++) {
        int t = sim->done_order[first + k];
        ok = t >= first && t < first + job->n[p] && !st->mark[t] &&
             sim->tasks[t].state == SO_CL_DONE;
        if (ok)
            st->mark[t] = 1;
    }
    if (!ok)
        fail(st, "completion list", j, p, -1, sim->now);
    /* launch list: from oldest on, every running attempt, the oldest
     * (running) first, in launch order */
    int running = 0, prev = -1;
    ok = job->oldest[p] <= job->n_launched[p];
    for (int k = job->oldest[p]; k < job->n_launched[p] && ok; k++) {
        int id = job->launched[p][k];
        ok = sim->attempts[id].serial > prev && sim->attempts[id].job == j &&
             sim->attempts[id].phase == p;
        prev = sim->attempts[id].serial;
        running += sim->attempts[id].state == SO_CL_RUNNING;
    }
    ok = ok && running == job->n_running[p];
    if (ok && job->n_running[p] > 0) {
        const so_cl_attempt *oldest = &sim->attempts[job->launched[p][job->oldest[p]]];
        ok = oldest->state == SO_CL_RUNNING;
        for (int k = 0; k < job->n_running[p] && ok; k++)
            ok = oldest->start <= sim->attempts[job->running[p][k]].start;
    }
    if (!ok)
        fail(st, "launch list", j, p, -1, sim->now);
}

static void on_beat(void *state, so_cl_sim *sim, int node)
{
    check_state *st = state;
    st->beats++;
    for (int j = 0; j < sim->w->n_jobs; j++) {
        const so_cl_jobrt *job = &sim->jobs[j];
        if (!job->arrived || job->finished)
            continue;
        for (int p = 0; p < SO_CL_PHASES; p++) {
            check_lists(st, sim, j, p);
            for (int k = 0; k < job->n_running[p]; k++) {
                const so_cl_attempt *a = &sim->attempts[job->running[p][k]];
                if (so_cl_progress(sim, a) != ref_progress(sim, a) ||
                    so_cl_progress_rate(sim, a) != ref_progress_rate(sim, a))
                    fail(st, "progress", j, p, node, sim->now);
            }
            int nodes[2] = {node, (node + 1) % sim->w->n_nodes};
            check_may_copy(st, sim, j, p, nodes);
            for (int q = 0; q < 2; q++) {
                int nd = nodes[q];
                st->checks++;
                if (so_cl_spec_any_candidate(sim, j, p, nd) !=
                    ref_any_candidate(sim, j, p, nd))
                    fail(st, "candidate", j, p, nd, sim->now);
                double left = -1, ref_left = -1;
                int t = so_cl_late_slow_task(sim, j, nd, p, &left);
                int ref_t = ref_late_slow_task(sim, j, nd, p, &ref_left);
                if (t != ref_t || (t >= 0 && left != ref_left))
                    fail(st, "late slow task", j, p, nd, sim->now);
                st->slow_found += t >= 0;
                if (!st->late->may_copy(sim, j, p) && ref_t >= 0)
                    fail(st, "late may_copy", j, p, nd, sim->now);
                if (!st->base->may_copy(sim, j, p) &&
                    ref_base_pick(sim, j, nd, p) >= 0)
                    fail(st, "base may_copy", j, p, nd, sim->now);
                if (so_cl_base_copy_rate(sim, j, nd, p) !=
                    ref_copy_rate(sim, j, nd, p))
                    fail(st, "base copy rate", j, p, nd, sim->now);
                int b = st->base->pick(sim, j, nd, p);
                if (b != ref_base_pick(sim, j, nd, p))
                    fail(st, "base choice", j, p, nd, sim->now);
                st->base_found += b >= 0;
                int l = st->late->pick(sim, j, nd, p);
                if (l != (ref_t >= 0 && !so_cl_late_slow_node(sim, nd) ? ref_t : -1))
                    fail(st, "late choice", j, p, nd, sim->now);
            }
        }
    }
}

static void replay(const char *sched, const char *spec, const char *nodes)
{
    const char *path = cl_fb2009_head(200, "fb2009-spec-fast.tsv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(path);
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "nodes", nodes);
    so_params_set(&prm, "slow_nodes", "2");
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_read(path, &prm, 1, &w, &err), SO_OK);
    check_state st = {0};
    st.late = so_cl_speculation_find("late");
    st.base = so_cl_speculation_find("base");
    CU_ASSERT_PTR_NOT_NULL_FATAL(st.late);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st.base);
    so_cl_hooks hooks = {.node_beat = on_beat};
    so_cl_config cfg = {
        .scheduler = so_cl_scheduler_find(sched),
        .speculation = so_cl_speculation_find(spec),
        .params = &prm,
        .seed = 1,
        .hooks = &hooks,
        .hooks_state = &st,
    };
    so_cl_sim *sim = NULL;
    CU_ASSERT_EQUAL_FATAL(so_cl_sim_new(w, &cfg, &sim, &err), SO_OK);
    st.mark = calloc(so_cl_sim_task_count(sim) + 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st.mark);
    CU_ASSERT_EQUAL(so_cl_sim_run(sim), SO_OK);
    CU_ASSERT_EQUAL(st.failures, 0);
    CU_ASSERT(st.beats > 1000);
    CU_ASSERT(st.checks > 10000);
    CU_ASSERT(st.slow_found > 0); /* the slow-task path was taken */
    CU_ASSERT(st.ruled_out > 1000 && st.may > 1000); /* both answers seen */
    CU_ASSERT(so_cl_sim_stats(sim)->spec_launched > 0);
    so_cl_sim_free(sim);
    so_cl_workload_free(w);
    free(st.mark);
}

static void test_late_fair(void) { replay("fair", "late", "12"); }
static void test_base_fair(void) { replay("fair", "base", "40"); }
static void test_base_fifo(void) { replay("fifo", "base", "12"); }

static CU_TestInfo tests[] = {
    {"fair + late: shortcuts equal the plain computations", test_late_fair},
    {"fair + base, underloaded: the same", test_base_fair},
    {"fifo + base, overloaded: the same", test_base_fifo},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-spec-fast", tests)
