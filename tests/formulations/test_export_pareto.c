/* test_export_pareto.c — a pareto instance exports one epsilon-constraint
 * MILP (least budget at makespan <= T): GLPK re-reads it (MPS and LP) and
 * its optimum is the exact frontier's least budget within T, for every T
 * where the frontier changes and between; bad settings are refused. */
#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/formulations/glpk_reread.h"

/* The re-read model's optimum; NAN unless it minimises (the budget). */
static double reread_optimum(const char *path, int format)
{
    int dir = 0;
    double z = glpk_reread_optimum(path, format, &dir);
    return dir == GLP_MIN ? z : NAN;
}

static double export_optimum(const so_problem *p, double bound, int format)
{
    so_params prm;
    so_params_init(&prm);
    char text[64], path[600];
    snprintf(text, sizeof text, "%.17g", bound);
    so_params_set(&prm, "deadline", text);
    snprintf(path, sizeof path, "%s/pareto.%s", so_test_tmpdir(),
             format == SO_FORMAT_MPS ? "mps" : "lp");
    so_error err;
    if (so_problem_export_params(p, path, format, &prm, &err) != SO_OK)
        return NAN;
    return reread_optimum(path, format);
}

/* The least budget among the exact frontier's points of makespan <= T. */
static double frontier_least(json_t *points, double bound)
{
    double best = INFINITY;
    size_t i;
    json_t *pt;
    json_array_foreach(points, i, pt)
        if (json_real_value(json_object_get(pt, "makespan")) <= bound)
            best = fmin(best, json_number_value(json_object_get(pt, "budget")));
    return best;
}

static void check_instance(const char *file)
{
    so_problem *p = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_problem_read(file, &p, &err), SO_OK);
    so_result *r = NULL;
    CU_ASSERT_EQUAL_FATAL(so_solve(so_backend_find("pareto-sweep"), p, NULL, &r, &err),
                          SO_OPTIMAL);
    json_t *points = json_object_get(so_result_solution(r), "points");
    CU_ASSERT_FATAL(json_array_size(points) >= 2);
    size_t i;
    json_t *pt;
    int checked = 0;
    size_t stride = json_array_size(points) / 12 + 1; /* about 12 points */
    json_array_foreach(points, i, pt) {
        if (i % stride)
            continue;
        double t = json_number_value(json_object_get(pt, "makespan"));
        /* at the point's makespan and just above it (a bound between points) */
        double bounds[2] = {t * (1 + 1e-9), t * 1.0001};
        for (int k = 0; k < 2; k++) {
            double want = frontier_least(points, bounds[k]);
            double mps = export_optimum(p, bounds[k], SO_FORMAT_MPS);
            double lp = export_optimum(p, bounds[k], SO_FORMAT_LP);
            CU_ASSERT_DOUBLE_EQUAL(mps, want, 1e-6 * fmax(1, want));
            CU_ASSERT_DOUBLE_EQUAL(lp, want, 1e-6 * fmax(1, want));
            checked++;
        }
    }
    CU_ASSERT(checked >= 4);
    so_result_free(r);
    so_problem_free(p);
}

static void test_frontier_points(void)
{
    check_instance("instances/pareto/two-jobs.json");
    check_instance("instances/pareto/puma-sort.json");
}

/* two-jobs by hand: job A costs 40, 45, 60, 55 $ with 1..4 map slots (job
 * times 40, 22.5, over 20, 13.75 s), job B 16, 20 $ with 1..2 (16, 10 s).
 * At the deadline 50 s every allocation fits: 40 + 16 = 56. At 20 s A
 * needs 4 slots (55), B either (16): 71. At 14 s also B needs 2: 55 + 20 =
 * 75. */
static void test_by_hand(void)
{
    so_problem *p = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_problem_read("instances/pareto/two-jobs.json", &p, &err), SO_OK);
    char path[600];
    snprintf(path, sizeof path, "%s/deadline.mps", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_problem_export(p, path, SO_FORMAT_MPS, &err), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(reread_optimum(path, SO_FORMAT_MPS), 56, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(export_optimum(p, 20, SO_FORMAT_LP), 71, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(export_optimum(p, 14, SO_FORMAT_MPS), 75, 1e-9);
    so_problem_free(p);
}

static void test_refusals(void)
{
    char *err = NULL;
    const char *f = "instances/pareto/two-jobs.json";
    char args[300];
    snprintf(args, sizeof args, "export --format lp --opt deadline=5 %s", f);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "over the makespan bound 5 s"));
    free(err);
    snprintf(args, sizeof args, "export --format lp --opt deadline=-1 %s", f);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "expected seconds > 0"));
    free(err);
    snprintf(args, sizeof args, "export --format lp --opt budget=3 %s", f);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "'budget'"));
    free(err);
    /* no deadline in the instance and none given */
    const char *nodl = so_test_write(
        "nodl.json",
        "{\"problem\": \"pareto\", \"version\": 1,\n"
        " \"cluster\": {\"map_slots_per_vm\": 1, \"reduce_slots_per_vm\": 1,\n"
        "             \"vm_cost_per_hour\": 3600},\n"
        " \"workload\": {\"budget_max\": 100},\n"
        " \"jobs\": [{\"map_tasks\": 2, \"reduce_tasks\": 1,\n"
        "   \"map\": {\"avg\": [8, 0], \"max\": [8, 0]},\n"
        "   \"reduce\": {\"avg\": [0, 0], \"max\": [0, 0]}}]}\n");
    snprintf(args, sizeof args, "export --format mps %s", nodl);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "--opt deadline=SECONDS"));
    free(err);
    char *out = NULL;
    snprintf(args, sizeof args, "export --format lp --opt deadline=16 %s", nodl);
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "x_0_1_1") && strstr(out, "x_0_2_1"));
    free(out);
    /* other models take no options */
    snprintf(args, sizeof args, "export --format lp --opt deadline=9 "
                                "instances/knapsack/pisinger/f3_l-d_kp_4_20.kp");
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "takes no options"));
    free(err);
}

static CU_TestInfo tests[] = {
    {"GLPK re-reads the model: optimum = frontier's least budget within T",
     test_frontier_points},
    {"two-jobs optima by hand at 50, 20 and 10 s", test_by_hand},
    {"no deadline, bad or unknown options, infeasible bound refused", test_refusals},
    CU_TEST_INFO_NULL,
};
SO_SUITE("pareto-export", tests)
