/* test_pareto_heuristics.c — Algorithms 1-5 and NSGA-II: a hand-traced
 * search, feasibility and weak dominance by the exact frontier on random
 * instances (fixed seeds), task adjustment and buffer tuning cases. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/solvers/pareto_tiny.h"
#include "heuristics/pareto_heuristics.h"
#include "solvers/pareto_exact.h"

static int same(double a, double b) { return fabs(a - b) <= 1e-9 * (1 + fabs(b)); }

/* Two map-only jobs (reduce time 0), one slot of each kind per VM, $3600
 * per VM-hour so budget = VMs * jtime:
 *   A: 4 tasks of 10 s: ms 1 -> 40 s, 2 -> 22.5, 3 -> 20, 4 -> 13.75
 *   B: 2 tasks of 8 s:  ms 1 -> 16 s, 2 -> 10 */
static so_pareto *two_jobs(void)
{
    so_pareto *pr = calloc(1, sizeof *pr);
    pr->map_slots_per_vm = pr->reduce_slots_per_vm = 1;
    pr->vm_cost_per_hour = 3600;
    pr->io_request_bytes = 4096;
    pr->budget_max = pr->deadline = INFINITY;
    pr->n_jobs = 2;
    pr->jobs = calloc(2, sizeof *pr->jobs);
    pr->jobs[0].map_tasks = 4;
    pr->jobs[0].reduce_tasks = 1;
    pr->jobs[0].phase[SO_PT_MAP] = (so_pt_profile){{10, 0}, {10, 0}};
    pr->jobs[1].map_tasks = 2;
    pr->jobs[1].reduce_tasks = 1;
    pr->jobs[1].phase[SO_PT_MAP] = (so_pt_profile){{8, 0}, {8, 0}};
    return pr;
}

/* Trace: (40, 40+16) -> A ms 2 (22.5, 45+16) -> A ms 3 (20, 60+16) ->
 * A ms 4 (16, 55+16; removes (20, 76)) -> B ms 2 (13.75, 55+20) -> A is
 * critical and full: stop. */
static void test_hand_trace(void)
{
    so_pareto *pr = two_jobs();
    so_pt_greedy_opts o = {0, 0, SO_PT_TUNE_NONE, 1, 1};
    so_pt_frontier f;
    so_pt_frontier_init(&f, 2);
    CU_ASSERT_EQUAL_FATAL(so_pt_greedy(pr, &o, &f), SO_OK);
    so_pt_frontier_window(&f, pr);
    static const double want[4][2] = {{13.75, 75}, {16, 71}, {22.5, 61}, {40, 56}};
    CU_ASSERT_EQUAL_FATAL(f.n, 4);
    for (size_t i = 0; i < 4; i++) {
        CU_ASSERT(same(f.pts[i].makespan, want[i][0]));
        CU_ASSERT(same(f.pts[i].budget, want[i][1]));
    }
    CU_ASSERT_EQUAL(f.pts[0].plan[0].ms, 4);
    CU_ASSERT_EQUAL(f.pts[0].plan[1].ms, 2);
    so_pt_frontier_free(&f);
    /* the window: BudgetMin 60 skips the first plan, (22.5, 61) is kept,
     * and (20, 76) over BudgetMax 72 ends the search */
    pr->budget_min = 60;
    pr->budget_max = 72;
    so_pt_frontier_init(&f, 2);
    CU_ASSERT_EQUAL_FATAL(so_pt_greedy(pr, &o, &f), SO_OK);
    so_pt_frontier_window(&f, pr);
    CU_ASSERT_EQUAL_FATAL(f.n, 1);
    CU_ASSERT(same(f.pts[0].makespan, 22.5) && same(f.pts[0].budget, 61));
    so_pt_frontier_free(&f);
    /* Algorithm 3 with 2 map slots per VM (budget = VMs * jtime): A grows
     * 1 -> 3 slots (20 s on 2 VMs: (20, 40 + 16) dominates (40, 56)), then
     * 4 (13.75 s on 2 VMs: (16, 27.5 + 16)), then B 1 -> 2 slots (10 s on 1
     * VM): (13.75, 37.5) dominates every earlier plan */
    pr->budget_min = 0;
    pr->budget_max = INFINITY;
    pr->map_slots_per_vm = 2;
    o.vms_policy = 1;
    so_pt_frontier_init(&f, 2);
    CU_ASSERT_EQUAL_FATAL(so_pt_greedy(pr, &o, &f), SO_OK);
    so_pt_frontier_window(&f, pr);
    CU_ASSERT_EQUAL_FATAL(f.n, 1);
    CU_ASSERT(same(f.pts[0].makespan, 13.75) && same(f.pts[0].budget, 37.5));
    CU_ASSERT(f.pts[0].plan[0].ms == 4 && f.pts[0].plan[1].ms == 2);
    so_pt_frontier_free(&f);
    so_pareto_free(pr);
}

/* Every heuristic point is feasible (plan within bounds, values
 * re-evaluate, inside the window) and weakly dominated by the exact
 * frontier clipped to the window. */
static void check_heuristic(so_problem *p, const so_pt_frontier *f,
                            const so_front_point *ref, size_t nref)
{
    const so_pareto *pr = so_pareto_of(p);
    for (size_t i = 0; i < f->n; i++) {
        const so_pt_point *pt = &f->pts[i];
        double m, b;
        CU_ASSERT(so_pt_plan_valid(pr, pt->plan));
        CU_ASSERT_EQUAL(so_pt_plan_eval(pr, pt->plan, NULL, &m, &b), SO_OK);
        CU_ASSERT(same(m, pt->makespan) && same(b, pt->budget));
        CU_ASSERT(pt->makespan <= pr->deadline && pt->budget <= pr->budget_max &&
                  pt->budget >= pr->budget_min);
        int dominated = 0;
        for (size_t k = 0; k < nref && !dominated; k++)
            dominated = ref[k].makespan <= pt->makespan * (1 + 1e-9) &&
                        ref[k].budget <= pt->budget * (1 + 1e-9);
        CU_ASSERT(dominated);
    }
}

static void test_weakly_dominated(void)
{
    so_rng rng;
    so_rng_seed(&rng, 99);
    so_params prm;
    so_params_init(&prm);
    int points = 0;
    for (int it = 0; it < 40; it++) {
        so_pareto *pr = so_test_pareto_random(&rng, 5, 12, it % 2);
        so_problem *p = so_test_pareto_problem(pr);
        so_front_point *ref = NULL;
        size_t nref = 0;
        so_error err;
        CU_ASSERT_EQUAL_FATAL(so_pt_reference_frontier(p, "pareto-sweep", &prm, &ref,
                                                       &nref, &err), SO_OK);
        for (int h = 0; h < 3; h++) {
            so_pt_frontier f;
            so_pt_frontier_init(&f, pr->n_jobs);
            int rc;
            if (h < 2) {
                so_pt_greedy_opts o = {h, 0, SO_PT_TUNE_NONE, 1, 1};
                rc = so_pt_greedy(pr, &o, &f);
            } else {
                so_pt_nsga2_opts o = {20, 15, 0.9, 0, (uint64_t)it};
                rc = so_pt_nsga2(pr, &o, &f);
            }
            CU_ASSERT_EQUAL(rc, SO_OK);
            so_pt_frontier_window(&f, pr);
            check_heuristic(p, &f, ref, nref);
            points += (int)f.n;
            so_pt_frontier_free(&f);
        }
        free(ref);
        so_problem_free(p);
    }
    CU_ASSERT(points > 200);
}

/* Algorithm 4 on tavg = 100/n, tmax = 1000/n with 3 slots: job times
 * 194.4, 162.5, 133.3, 113.9, 107.1, 95.8, 87.0, 85.0, 78.8, 73.6, 73.1,
 * 69.0, 65.56 (n = 15), then 65.63: stops at 15 tasks, or at the job's
 * count. With tavg = 2 + 60/n more tasks only add rounds: stays at 3. */
static void test_task_adjustment(void)
{
    so_pt_job job = {0};
    job.map_tasks = 100;
    job.reduce_tasks = 1;
    job.phase[SO_PT_MAP] = (so_pt_profile){{0, 100}, {0, 1000}};
    so_pt_alloc a = {3, 1, 100, 1, {100, 0.05, 0.8}};
    so_pt_adjust_tasks(&job, &a, 1);
    CU_ASSERT_EQUAL(a.mt, 15);
    job.map_tasks = 10;
    so_pt_adjust_tasks(&job, &a, 1);
    CU_ASSERT_EQUAL(a.mt, 10);
    job.phase[SO_PT_MAP] = (so_pt_profile){{2, 60}, {2, 60}};
    so_pt_adjust_tasks(&job, &a, 1);
    CU_ASSERT_EQUAL(a.mt, 3);
    /* the reduce phase: 1 task, 1 slot */
    so_pt_adjust_tasks(&job, &a, 0);
    CU_ASSERT_EQUAL(a.rt, 1);
}

/* A job whose 16-byte records fill the metadata part first: 1.1 times the
 * default buffer's 4 MiB of metadata, so 2 spills of 2 x 4 MiB where
 * 2 x 4.4 MiB would do (the rounding the tuning removes). */
static void io_job(so_pareto *pr, so_pt_job *job)
{
    memset(pr, 0, sizeof *pr);
    pr->io_cost_per_request = 5e-8;
    pr->io_request_bytes = 4096;
    memset(job, 0, sizeof *job);
    job->map_tasks = 10;
    job->has_output = 1;
    job->out_bytes = (so_pt_curve){0, 10 * 4613734.4};
    job->out_records = (so_pt_curve){0, 10 * 288358.4};
    job->buffer = (so_pt_buffer){100, 0.05, 0.8};
    job->lo = (so_pt_buffer){64, 0.01, 0.5};
    job->hi = (so_pt_buffer){512, 0.5, 0.99};
}

static void test_buffer_tuning(void)
{
    so_pareto pr;
    so_pt_job job;
    io_job(&pr, &job);
    double dflt = so_pt_io_cost(&pr, &job, 10, &job.buffer), rnd, rnd2, nl, grid, worst;
    so_rng rng;
    so_rng_seed(&rng, 5);
    so_pt_buffer b = so_pt_buffer_random(&pr, &job, 10, 10000, &rng, &rnd);
    CU_ASSERT(rnd < 0.75 * dflt); /* the paper: > 25 % less I/O cost */
    CU_ASSERT(b.size_mb >= 64 && b.size_mb <= 512);
    CU_ASSERT(b.meta_percent >= 0.01 && b.meta_percent <= 0.5);
    CU_ASSERT(b.threshold >= 0.5 && b.threshold <= 0.99);
    CU_ASSERT(same(so_pt_io_cost(&pr, &job, 10, &b), rnd));
    so_rng_seed(&rng, 5);
    so_pt_buffer b2 = so_pt_buffer_random(&pr, &job, 10, 10000, &rng, &rnd2);
    CU_ASSERT(b2.size_mb == b.size_mb && rnd2 == rnd);
    so_pt_buffer c;
    CU_ASSERT_EQUAL_FATAL(so_pt_buffer_nlopt(&pr, &job, 10, 2000, &c, &nl), SO_OK);
    so_pt_buffer mid = {288, 0.255, 0.745};
    CU_ASSERT(nl <= so_pt_io_cost(&pr, &job, 10, &mid));
    CU_ASSERT(nl < dflt);
    so_pt_buffer g = so_pt_buffer_grid(&pr, &job, 10, 25, 0.01, &grid, &worst);
    CU_ASSERT(grid <= so_pt_io_cost(&pr, &job, 10, &job.lo));
    CU_ASSERT(grid <= so_pt_io_cost(&pr, &job, 10, &(so_pt_buffer){489, 0.5, 0.99}));
    CU_ASSERT(grid < worst);
    CU_ASSERT(grid < 0.75 * dflt);
    CU_ASSERT(same(so_pt_io_cost(&pr, &job, 10, &g), grid));
    /* the tuner: same answer as a direct call on the (job, mt) stream; a
     * job without output keeps its buffer */
    pr.n_jobs = 1;
    pr.jobs = &job;
    so_pt_tuner *t = so_pt_tuner_new(&pr, SO_PT_TUNE_RANDOM, 500, 9);
    so_pt_buffer tb;
    CU_ASSERT_EQUAL(so_pt_tuner_get(t, 0, 10, &tb), SO_OK);
    so_rng_seed_stream(&rng, 9, 10);
    b = so_pt_buffer_random(&pr, &job, 10, 500, &rng, &rnd);
    CU_ASSERT(tb.size_mb == b.size_mb && tb.threshold == b.threshold);
    job.has_output = 0;
    CU_ASSERT_EQUAL(so_pt_tuner_get(t, 0, 7, &tb), SO_OK);
    CU_ASSERT(tb.size_mb == 100);
    so_pt_tuner_free(t);
}

/* With task adjustment and buffer tuning the search still returns valid
 * plans in the window, and tuning lowers every budget of a fixed path. */
static void test_options_feasible(void)
{
    so_rng rng;
    so_rng_seed(&rng, 31);
    for (int it = 0; it < 15; it++) {
        so_pareto *pr = so_test_pareto_random(&rng, 4, 20, it % 2);
        for (int tune = SO_PT_TUNE_NONE; tune <= SO_PT_TUNE_RANDOM; tune++) {
            so_pt_greedy_opts o = {it % 2, 1, tune, 200, 3};
            so_pt_frontier f;
            so_pt_frontier_init(&f, pr->n_jobs);
            CU_ASSERT_EQUAL(so_pt_greedy(pr, &o, &f), SO_OK);
            so_pt_frontier_window(&f, pr);
            for (size_t i = 0; i < f.n; i++) {
                double m, b;
                CU_ASSERT(so_pt_plan_valid(pr, f.pts[i].plan));
                so_pt_plan_eval(pr, f.pts[i].plan, NULL, &m, &b);
                CU_ASSERT(same(m, f.pts[i].makespan) && same(b, f.pts[i].budget));
                CU_ASSERT(m <= pr->deadline && b <= pr->budget_max && b >= pr->budget_min);
            }
            so_pt_frontier_free(&f);
        }
        so_pareto_free(pr);
    }
}

/* With the same buffer tuning (method, samples, seed), the greedy search
 * stays weakly dominated by the exact frontier of the tuned instance, and
 * tuning never raises the exact frontier's budgets. */
static void test_tuned_dominated(void)
{
    so_rng rng;
    so_rng_seed(&rng, 57);
    for (int it = 0; it < 12; it++) {
        so_pareto *pr = so_test_pareto_random(&rng, 4, 10, 0);
        for (size_t j = 0; j < pr->n_jobs; j++)
            pr->jobs[j].has_output = 1;
        so_pareto *tuned = so_pareto_copy(pr);
        CU_ASSERT_EQUAL_FATAL(so_pt_tune_instance(tuned, SO_PT_TUNE_RANDOM, 300, 8), SO_OK);
        so_pt_frontier ex, plain, f;
        so_pt_frontier_init(&ex, pr->n_jobs);
        so_pt_frontier_init(&plain, pr->n_jobs);
        so_pt_frontier_init(&f, pr->n_jobs);
        char msg[256];
        CU_ASSERT_EQUAL(so_pt_sweep(tuned, &ex, msg, sizeof msg), SO_OK);
        CU_ASSERT_EQUAL(so_pt_sweep(pr, &plain, msg, sizeof msg), SO_OK);
        so_pt_greedy_opts o = {it % 2, 0, SO_PT_TUNE_RANDOM, 300, 8};
        CU_ASSERT_EQUAL(so_pt_greedy(pr, &o, &f), SO_OK);
        so_pt_frontier_window(&ex, tuned);
        so_pt_frontier_window(&plain, pr);
        so_pt_frontier_window(&f, pr);
        CU_ASSERT(ex.n > 0 && f.n > 0);
        for (size_t i = 0; i < f.n; i++) {
            int dominated = 0;
            for (size_t k = 0; k < ex.n && !dominated; k++)
                dominated = ex.pts[k].makespan <= f.pts[i].makespan * (1 + 1e-9) &&
                            ex.pts[k].budget <= f.pts[i].budget * (1 + 1e-9);
            CU_ASSERT(dominated);
        }
        /* the least budget with tuned buffers is no higher */
        CU_ASSERT(ex.pts[ex.n - 1].budget <= plain.pts[plain.n - 1].budget * (1 + 1e-12));
        so_pt_frontier_free(&ex);
        so_pt_frontier_free(&plain);
        so_pt_frontier_free(&f);
        so_pareto_free(tuned);
        so_pareto_free(pr);
    }
}

/* Under a VM cap (execution waves) the heuristics stay within the cap and
 * are weakly dominated by the enumerated frontier. */
static void test_capped(void)
{
    so_rng rng;
    so_rng_seed(&rng, 61);
    int points = 0;
    for (int it = 0; it < 25; it++) {
        so_pareto *pr = so_test_pareto_random(&rng, 3, 4, 0);
        pr->max_vms = so_rng_int(&rng, 1, 4);
        so_problem *p = so_test_pareto_problem(pr);
        so_pt_frontier ex;
        so_pt_frontier_init(&ex, pr->n_jobs);
        char msg[256];
        CU_ASSERT_EQUAL_FATAL(so_pt_enum(pr, 1e7, &ex, msg, sizeof msg), SO_OK);
        so_pt_frontier_window(&ex, pr);
        so_front_point *ref = malloc((ex.n ? ex.n : 1) * sizeof *ref);
        for (size_t i = 0; i < ex.n; i++)
            ref[i] = (so_front_point){ex.pts[i].makespan, ex.pts[i].budget};
        for (int h = 0; h < 3; h++) {
            so_pt_frontier f;
            so_pt_frontier_init(&f, pr->n_jobs);
            if (h < 2) {
                so_pt_greedy_opts o = {h, 0, SO_PT_TUNE_NONE, 1, 1};
                CU_ASSERT_EQUAL(so_pt_greedy(pr, &o, &f), SO_OK);
            } else {
                so_pt_nsga2_opts o = {12, 10, 0.9, 0, 5};
                CU_ASSERT_EQUAL(so_pt_nsga2(pr, &o, &f), SO_OK);
            }
            so_pt_frontier_window(&f, pr);
            check_heuristic(p, &f, ref, ex.n);
            for (size_t i = 0; i < f.n; i++)
                for (size_t j = 0; j < pr->n_jobs; j++)
                    CU_ASSERT(so_pt_vms(pr, f.pts[i].plan[j].ms, f.pts[i].plan[j].rs) <=
                              pr->max_vms);
            points += (int)f.n;
            so_pt_frontier_free(&f);
        }
        free(ref);
        so_pt_frontier_free(&ex);
        so_problem_free(p);
    }
    CU_ASSERT(points > 50);
}

static CU_TestInfo tests[] = {
    {"Algorithm 1 + 2 traced by hand; Algorithm 3 steps", test_hand_trace},
    {"heuristic points feasible, weakly dominated", test_weakly_dominated},
    {"Algorithm 4: task adjustment", test_task_adjustment},
    {"Algorithm 5, NLopt and grid buffer tuning", test_buffer_tuning},
    {"task adjustment and tuning keep plans feasible", test_options_feasible},
    {"tuned search dominated by the tuned exact frontier", test_tuned_dominated},
    {"under a VM cap: within it, weakly dominated", test_capped},
    CU_TEST_INFO_NULL,
};
SO_SUITE("pareto_heuristics", tests)
