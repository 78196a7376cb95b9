/* test_pareto_exact.c — the three exact frontier backends agree point for
 * point on random tiny instances (fixed seeds), match a hand-computed
 * frontier, and refuse what they cannot solve with a clear message. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/solvers/pareto_tiny.h"
#include "solvers/pareto_exact.h"

static int same(double a, double b) { return fabs(a - b) <= 1e-9 * (1 + fabs(b)); }

/* Identical point sets (both sorted by makespan by the window). */
static int same_frontier(const so_pt_frontier *a, const so_pt_frontier *b)
{
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++)
        if (!same(a->pts[i].makespan, b->pts[i].makespan) ||
            !same(a->pts[i].budget, b->pts[i].budget))
            return 0;
    return 1;
}

/* Each point's plan is valid and re-evaluates to the point. */
static int plans_match(const so_pareto *pr, const so_pt_frontier *f)
{
    for (size_t i = 0; i < f->n; i++) {
        double m, b;
        if (!so_pt_plan_valid(pr, f->pts[i].plan) ||
            so_pt_plan_eval(pr, f->pts[i].plan, NULL, &m, &b) ||
            !same(m, f->pts[i].makespan) || !same(b, f->pts[i].budget))
            return 0;
    }
    return 1;
}

static void test_agree_on_random_tiny(void)
{
    so_rng rng;
    so_rng_seed(&rng, 2024);
    so_params prm;
    so_params_init(&prm);
    int compared = 0, nonempty = 0;
    for (int it = 0; it < 100; it++) {
        so_pareto *pr = so_test_pareto_random(&rng, 4, 5, it % 2);
        so_pt_frontier fs, fe, fg;
        so_pt_frontier_init(&fs, pr->n_jobs);
        so_pt_frontier_init(&fe, pr->n_jobs);
        so_pt_frontier_init(&fg, pr->n_jobs);
        char msg[256] = "";
        CU_ASSERT_EQUAL(so_pt_sweep(pr, &fs, msg, sizeof msg), SO_OK);
        CU_ASSERT_EQUAL(so_pt_enum(pr, 1e7, &fe, msg, sizeof msg), SO_OK);
        CU_ASSERT_EQUAL(so_pt_glpk(pr, &prm, 1e5, &fg, msg, sizeof msg), SO_OK);
        so_pt_frontier_window(&fs, pr);
        so_pt_frontier_window(&fe, pr);
        so_pt_frontier_window(&fg, pr);
        CU_ASSERT(same_frontier(&fs, &fe));
        CU_ASSERT(same_frontier(&fs, &fg));
        CU_ASSERT(plans_match(pr, &fs));
        CU_ASSERT(plans_match(pr, &fe));
        CU_ASSERT(plans_match(pr, &fg));
        compared++;
        nonempty += fs.n > 1;
        so_pt_frontier_free(&fs);
        so_pt_frontier_free(&fe);
        so_pt_frontier_free(&fg);
        so_pareto_free(pr);
    }
    CU_ASSERT_EQUAL(compared, 100);
    CU_ASSERT(nonempty >= 50); /* the comparison is not vacuous */
}

/* Integer task times on 1-4 slots per VM: many plans whose makespans or
 * budgets are equal in exact arithmetic but differ in the last bits of the
 * doubles (12.666666666666666 and 12.666666666666668). All three backends
 * must still succeed and report the same frontier, with no point that
 * another point dominates up to that rounding. */
static void test_agree_on_near_ties(void)
{
    so_rng rng;
    so_rng_seed(&rng, 6);
    so_params prm;
    so_params_init(&prm);
    int multi = 0;
    for (int it = 0; it < 200; it++) {
        so_pareto *pr = so_test_pareto_random(&rng, 3, 6, it % 2);
        pr->map_slots_per_vm = so_rng_int(&rng, 1, 4);
        pr->reduce_slots_per_vm = so_rng_int(&rng, 1, 4);
        pr->vm_cost_per_hour = 3600;
        for (size_t j = 0; j < pr->n_jobs; j++) {
            pr->jobs[j].has_output = 0;
            for (int ph = 0; ph < SO_PT_PHASES; ph++) {
                so_pt_profile *pf = &pr->jobs[j].phase[ph];
                pf->avg = (so_pt_curve){(double)so_rng_int(&rng, 0, 3), 0};
                pf->max = (so_pt_curve){pf->avg.a + (double)so_rng_int(&rng, 0, 2), 0};
            }
        }
        so_pt_frontier fs, fe, fg;
        so_pt_frontier_init(&fs, pr->n_jobs);
        so_pt_frontier_init(&fe, pr->n_jobs);
        so_pt_frontier_init(&fg, pr->n_jobs);
        char msg[256] = "";
        CU_ASSERT_EQUAL(so_pt_sweep(pr, &fs, msg, sizeof msg), SO_OK);
        CU_ASSERT_EQUAL(so_pt_enum(pr, 1e7, &fe, msg, sizeof msg), SO_OK);
        CU_ASSERT_EQUAL(so_pt_glpk(pr, &prm, 1e5, &fg, msg, sizeof msg), SO_OK);
        so_pt_frontier_window(&fs, pr);
        so_pt_frontier_window(&fe, pr);
        so_pt_frontier_window(&fg, pr);
        CU_ASSERT(same_frontier(&fs, &fe));
        CU_ASSERT(same_frontier(&fs, &fg));
        for (size_t i = 1; i < fs.n; i++)
            CU_ASSERT(!same(fs.pts[i].makespan, fs.pts[i - 1].makespan) &&
                      !same(fs.pts[i].budget, fs.pts[i - 1].budget));
        multi += fs.n > 1;
        so_pt_frontier_free(&fs);
        so_pt_frontier_free(&fe);
        so_pt_frontier_free(&fg);
        so_pareto_free(pr);
    }
    CU_ASSERT(multi >= 50);
}

/* One job, 2 map tasks of 10 s (max 10 s), 1 reduce task of 0 s, one slot
 * of each kind per VM, $3600 per VM-hour (so budget = VMs * jtime):
 *   ms = 1: low 20, up 1*10 + 10 = 20 -> 20 s on 1 VM, $20
 *   ms = 2: low 10, up 0.5*10 + 10 = 15 -> 12.5 s on 2 VMs, $25 */
static so_pareto *hand_instance(void)
{
    so_pareto *pr = calloc(1, sizeof *pr);
    pr->map_slots_per_vm = pr->reduce_slots_per_vm = 1;
    pr->vm_cost_per_hour = 3600;
    pr->io_request_bytes = 4096;
    pr->budget_max = pr->deadline = INFINITY;
    pr->n_jobs = 1;
    pr->jobs = calloc(1, sizeof *pr->jobs);
    pr->jobs[0].map_tasks = 2;
    pr->jobs[0].reduce_tasks = 1;
    pr->jobs[0].phase[SO_PT_MAP] = (so_pt_profile){{10, 0}, {10, 0}};
    return pr;
}

static void test_hand_frontier(void)
{
    so_pareto *pr = hand_instance();
    so_pt_frontier f;
    so_pt_frontier_init(&f, 1);
    char msg[256];
    CU_ASSERT_EQUAL_FATAL(so_pt_sweep(pr, &f, msg, sizeof msg), SO_OK);
    so_pt_frontier_window(&f, pr);
    CU_ASSERT_EQUAL_FATAL(f.n, 2);
    CU_ASSERT_DOUBLE_EQUAL(f.pts[0].makespan, 12.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(f.pts[0].budget, 25, 1e-12);
    CU_ASSERT_EQUAL(f.pts[0].plan[0].ms, 2);
    CU_ASSERT_DOUBLE_EQUAL(f.pts[1].makespan, 20, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(f.pts[1].budget, 20, 1e-12);
    so_pt_frontier_free(&f);
    /* the window: budget_min 21 cuts the slow point, deadline 15 keeps
     * the fast one, budget_max 24 removes it */
    pr->budget_min = 21;
    so_pt_frontier_init(&f, 1);
    so_pt_sweep(pr, &f, msg, sizeof msg);
    so_pt_frontier_window(&f, pr);
    CU_ASSERT_EQUAL(f.n, 1);
    so_pt_frontier_free(&f);
    pr->budget_min = 0;
    pr->budget_max = 24;
    so_pt_frontier_init(&f, 1);
    so_pt_sweep(pr, &f, msg, sizeof msg);
    so_pt_frontier_window(&f, pr);
    CU_ASSERT_EQUAL_FATAL(f.n, 1);
    CU_ASSERT_DOUBLE_EQUAL(f.pts[0].makespan, 20, 1e-12);
    so_pt_frontier_free(&f);
    so_pareto_free(pr);
}

/* Job times near 1e8 s differing by 0.75 s: ms = 1 gives 100000002 s on
 * one VM ($100000002), ms = 2 gives 100000001.25 s on two VMs. GLPK's
 * tolerances on a makespan row with coefficients near 1e8 lost the second
 * point (the MILP with M <= 100000001.625 came back infeasible) while the
 * backend still claimed the frontier optimal. */
static void test_glpk_large_times(void)
{
    so_pareto *pr = hand_instance();
    pr->jobs[0].phase[SO_PT_MAP] = (so_pt_profile){{1, 0}, {1, 0}};
    pr->jobs[0].phase[SO_PT_REDUCE] = (so_pt_profile){{1e8, 0}, {1e8, 0}};
    so_params prm;
    so_params_init(&prm);
    so_pt_frontier fs, fg;
    so_pt_frontier_init(&fs, 1);
    so_pt_frontier_init(&fg, 1);
    char msg[256] = "";
    CU_ASSERT_EQUAL(so_pt_sweep(pr, &fs, msg, sizeof msg), SO_OK);
    CU_ASSERT_EQUAL(so_pt_glpk(pr, &prm, 1e5, &fg, msg, sizeof msg), SO_OK);
    so_pt_frontier_window(&fs, pr);
    so_pt_frontier_window(&fg, pr);
    CU_ASSERT_EQUAL(fs.n, 2);
    CU_ASSERT_EQUAL_FATAL(fg.n, 2);
    CU_ASSERT_DOUBLE_EQUAL(fg.pts[0].makespan, 100000001.25, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(fg.pts[0].budget, 200000002.5, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(fg.pts[1].makespan, 100000002, 1e-6);
    CU_ASSERT(same_frontier(&fs, &fg));
    so_pt_frontier_free(&fs);
    so_pt_frontier_free(&fg);
    so_pareto_free(pr);
}

static void test_refusals(void)
{
    so_pareto *pr = hand_instance();
    so_params prm;
    so_params_init(&prm);
    so_pt_frontier f;
    so_pt_frontier_init(&f, 1);
    char msg[256] = "";
    pr->max_vms = 1;
    CU_ASSERT_EQUAL(so_pt_sweep(pr, &f, msg, sizeof msg), SO_EUNSUPPORTED);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "max_vms"));
    CU_ASSERT_EQUAL(so_pt_glpk(pr, &prm, 1e5, &f, msg, sizeof msg), SO_EUNSUPPORTED);
    /* enum handles the cap: 2 slots would need 2 VMs, over the cap */
    CU_ASSERT_EQUAL(so_pt_enum(pr, 1e6, &f, msg, sizeof msg), SO_OK);
    so_pt_frontier_window(&f, pr);
    CU_ASSERT_EQUAL_FATAL(f.n, 1);
    CU_ASSERT_DOUBLE_EQUAL(f.pts[0].makespan, 20, 1e-12);
    so_pt_frontier_free(&f);
    pr->max_vms = 0;
    CU_ASSERT_EQUAL(so_pt_enum(pr, 1, &f, msg, sizeof msg), SO_EUNSUPPORTED);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "over the limit"));
    CU_ASSERT_EQUAL(so_pt_glpk(pr, &prm, 1, &f, msg, sizeof msg), SO_EUNSUPPORTED);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "over the limit"));
    so_pt_frontier_free(&f);
    so_pareto_free(pr);
}

/* Under a VM cap the enumeration still yields non-dominated, valid plans
 * whose values re-evaluate with waves. */
static void test_enum_with_cap(void)
{
    so_rng rng;
    so_rng_seed(&rng, 77);
    for (int it = 0; it < 20; it++) {
        so_pareto *pr = so_test_pareto_random(&rng, 3, 3, 0);
        pr->max_vms = so_rng_int(&rng, 1, 3);
        so_pt_frontier f;
        so_pt_frontier_init(&f, pr->n_jobs);
        char msg[256];
        CU_ASSERT_EQUAL(so_pt_enum(pr, 1e7, &f, msg, sizeof msg), SO_OK);
        so_pt_frontier_window(&f, pr);
        CU_ASSERT(f.n >= 1);
        CU_ASSERT(plans_match(pr, &f));
        for (size_t i = 1; i < f.n; i++)
            CU_ASSERT(f.pts[i].makespan > f.pts[i - 1].makespan &&
                      f.pts[i].budget < f.pts[i - 1].budget);
        so_pt_frontier_free(&f);
        so_pareto_free(pr);
    }
}

/* The reference frontier for quality: budget_min lifted to 0 for the run,
 * then budgets under it raised to it (the window's clipped frontier). */
static void test_reference_clipped(void)
{
    so_pareto *pr = hand_instance();
    pr->budget_min = 22;
    so_problem *p = so_test_pareto_problem(pr);
    so_params prm;
    so_params_init(&prm);
    so_front_point *pts = NULL;
    size_t n = 0;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_pt_reference_frontier(p, "pareto-enum", &prm, &pts, &n, &err),
                          SO_OK);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_DOUBLE_EQUAL(pts[0].makespan, 12.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(pts[0].budget, 25, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(pts[1].makespan, 20, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(pts[1].budget, 22, 1e-12);
    free(pts);
    CU_ASSERT_EQUAL(so_pt_reference_frontier(p, "pareto-slots", &prm, &pts, &n, &err),
                    SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "reference");
    /* the instance's own reference point: (largest job time, largest
     * full-VM budget) without a deadline or budget_max */
    so_front_point ref = so_pt_reference_point(so_pareto_of(p));
    CU_ASSERT_DOUBLE_EQUAL(ref.makespan, 20, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ref.budget, 25, 1e-12);
    so_problem_free(p);
}

/* The result's io_cost_mean is the mean over the frontier's plans of their
 * jobs' I/O costs (the plans as the solution lists them). */
static void test_io_cost_mean(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(so_test_run("solve --backend pareto-slots --opt buffer=random"
                                      " instances/pareto/puma-wordcount.json", &out, NULL), 0);
    json_t *j = json_loads(out, 0, NULL), *pts = json_object_get(json_object_get(j,
                                                                   "solution"), "points");
    double sum = 0;
    size_t i, k;
    json_t *p, *job;
    json_array_foreach(pts, i, p) json_array_foreach(json_object_get(p, "jobs"), k, job)
        sum += json_number_value(json_object_get(job, "io_cost"));
    CU_ASSERT_FATAL(json_array_size(pts) > 1);
    CU_ASSERT(sum > 0);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "io_cost_mean")),
                           sum / (double)json_array_size(pts), 1e-9);
    json_decref(j);
    free(out);
}

static CU_TestInfo tests[] = {
    {"io_cost_mean: the mean I/O cost of the frontier's plans", test_io_cost_mean},
    {"sweep = enum = glpk on random tiny instances", test_agree_on_random_tiny},
    {"sweep = enum = glpk on near-equal times (integer profiles)", test_agree_on_near_ties},
    {"hand-computed frontier and window", test_hand_frontier},
    {"pareto-glpk with job times near 1e8 s", test_glpk_large_times},
    {"VM cap and size limits refused clearly", test_refusals},
    {"enumeration under a VM cap", test_enum_with_cap},
    {"reference frontier clipped to the window", test_reference_clipped},
    CU_TEST_INFO_NULL,
};
SO_SUITE("pareto_exact", tests)
