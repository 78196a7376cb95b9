/* test_cmd_frontier.c — `slotopt solve` on pareto instances (frontier as
 * the result, quality extras against a reference) and `slotopt frontier`
 * (JSON, CSV, gnuplot plot, errors). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/test_util.h"

/* Two jobs (the hand trace of test_pareto_heuristics.c): exact frontier
 * (13.75, 75), (16, 71), (22.5, 61), (40, 56). */
static const char *two_jobs =
    "{\"problem\": \"pareto\", \"version\": 1,\n"
    " \"cluster\": {\"map_slots_per_vm\": 1, \"reduce_slots_per_vm\": 1,\n"
    "             \"vm_cost_per_hour\": 3600},\n"
    " \"workload\": {\"budget_max\": 100, \"deadline\": 50},\n"
    " \"jobs\": [\n"
    "  {\"map_tasks\": 4, \"reduce_tasks\": 1, \"map\": {\"avg\": [10, 0], \"max\": [10, 0]},\n"
    "   \"reduce\": {\"avg\": [0, 0], \"max\": [0, 0]}},\n"
    "  {\"map_tasks\": 2, \"reduce_tasks\": 1, \"map\": {\"avg\": [8, 0], \"max\": [8, 0]},\n"
    "   \"reduce\": {\"avg\": [0, 0], \"max\": [0, 0]}}]}\n";

static json_t *run_json(const char *args, int *code)
{
    char *out = NULL, *err = NULL;
    *code = so_test_run(args, &out, &err);
    json_t *j = json_loads(out ? out : "", 0, NULL);
    free(out);
    free(err);
    return j;
}

static void test_solve_result(void)
{
    const char *f = so_test_write("two.json", two_jobs);
    char args[1024];
    snprintf(args, sizeof args, "solve --backend pareto-vms --opt reference=pareto-enum %s", f);
    int code;
    json_t *j = run_json(args, &code);
    CU_ASSERT_EQUAL(code, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "status")), "feasible");
    /* objective: hypervolume w.r.t. (deadline 50, budget_max 100) */
    json_t *sol = json_object_get(j, "solution");
    CU_ASSERT_EQUAL(json_number_value(json_object_get(json_object_get(sol, "reference_point"),
                                                      "makespan")), 50);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "frontier_size")),
                    (json_int_t)json_array_size(json_object_get(sol, "points")));
    /* the harness's "frontier" extra mirrors the points as [makespan, budget] */
    json_t *front = json_object_get(j, "frontier");
    CU_ASSERT_EQUAL(json_array_size(front), json_array_size(json_object_get(sol, "points")));
    json_t *p0 = json_array_get(json_object_get(sol, "points"), 0);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_array_get(json_array_get(front, 0), 0)),
                           json_number_value(json_object_get(p0, "makespan")), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_array_get(json_array_get(front, 0), 1)),
                           json_number_value(json_object_get(p0, "budget")), 1e-12);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "reference_size")), 4);
    double ratio = json_number_value(json_object_get(j, "hypervolume_ratio"));
    CU_ASSERT(ratio > 0 && ratio <= 1 + 1e-12);
    CU_ASSERT(json_number_value(json_object_get(j, "epsilon")) >= 0);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "makespan_gaps")), 4);
    /* the fastest point: job A on 4 slots: map low 10, up 0.75 * 10 + 10 */
    json_t *a = json_array_get(json_object_get(json_array_get(json_object_get(sol, "points"),
                                                               0), "jobs"), 0);
    json_t *map = json_object_get(json_object_get(a, "phases"), "map");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(a, "map_slots")), 4);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(map, "low")), 10, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(map, "up")), 17.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(a, "jtime")), 13.75, 1e-12);
    json_decref(j);
    /* the exact backend against itself: ratio 1, epsilon 0; objective =
     * (50-13.75)(100-75) + (50-16)(75-71) + (50-22.5)(71-61) + (50-40)(61-56) */
    snprintf(args, sizeof args, "solve --backend pareto-sweep --opt reference=pareto-glpk %s", f);
    j = run_json(args, &code);
    CU_ASSERT_EQUAL(code, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "status")), "optimal");
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "objective")),
                           36.25 * 25 + 34 * 4 + 27.5 * 10 + 10 * 5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "hypervolume_ratio")), 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "epsilon")), 0, 1e-12);
    json_decref(j);
}

static void test_solve_errors(void)
{
    const char *f = so_test_write("two.json", two_jobs);
    char args[1024], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "solve --backend pareto-slots --opt reference=pareto-vms %s", f);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "exact pareto backend"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "solve --backend pareto-slots --opt buffer=best %s", f);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "buffer"));
    free(out);
    free(err);
    /* a reference stopped by its time limit proves nothing to compare with
     * (1e-9 s: pareto-glpk finds its budget spent before its first MILP) */
    snprintf(args, sizeof args, "solve --backend pareto-vms --time-limit 1e-9"
             " --opt reference=pareto-glpk %s", f);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "ended with status 'time limit'"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "solve --backend pareto-enum --opt max_plans=1 %s", f);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "over the limit"));
    free(out);
    free(err);
    const char *bad = so_test_write("bad.json",
                                    "{\"problem\": \"pareto\", \"version\": 1,\n"
                                    " \"cluster\": {\"map_slots_per_vm\": 1,\n"
                                    "   \"reduce_slots_per_vm\": 1, \"vm_cost_per_hour\": -2},\n"
                                    " \"workload\": {}, \"jobs\": []}\n");
    snprintf(args, sizeof args, "solve %s", bad);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad.json:3:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cluster.vm_cost_per_hour"));
    free(out);
    free(err);
}

static void test_frontier_outputs(void)
{
    const char *f = so_test_write("two.json", two_jobs);
    char args[2048], *out = NULL, *err = NULL, path[1024], plot[1024];
    /* CSV: header + one row per point and job; the exact frontier has 4
     * points of 2 jobs */
    snprintf(path, sizeof path, "%s/front.csv", so_test_tmpdir());
    snprintf(args, sizeof args, "frontier --backend pareto-slots --format csv -o %s %s",
             path, f);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    char *csv = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
    CU_ASSERT(strncmp(csv, "backend,point,makespan,budget,", 30) == 0);
    int sweep_rows = 0;
    for (char *s = strstr(csv, "\npareto-sweep,"); s; s = strstr(s + 1, "\npareto-sweep,"))
        sweep_rows++;
    CU_ASSERT_EQUAL(sweep_rows, 8);
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, "\npareto-sweep,0,13.75,75,6,0,4,1,"));
    free(csv);
    /* JSON with a plot */
    snprintf(plot, sizeof plot, "%s/front.svg", so_test_tmpdir());
    snprintf(args, sizeof args,
             "frontier --backend pareto-vms --backend pareto-nsga2 --plot %s %s", plot, f);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, &err), 0);
    json_t *j = json_loads(out, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    json_t *fr = json_object_get(j, "frontiers");
    CU_ASSERT_EQUAL(json_array_size(fr), 3);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(fr, 0), "backend")),
                           "pareto-sweep");
    CU_ASSERT_PTR_NOT_NULL(json_object_get(json_array_get(fr, 2), "hypervolume_ratio"));
    json_decref(j);
    if (access("/usr/bin/gnuplot", X_OK) == 0) {
        char *svg = so_test_slurp(plot);
        CU_ASSERT_PTR_NOT_NULL(svg);
        CU_ASSERT(svg && strstr(svg, "<svg") != NULL);
        free(svg);
    }
    free(out);
    free(err);
    /* without gnuplot on PATH the plot is skipped with a note */
    snprintf(plot, sizeof plot, "%s/none.png", so_test_tmpdir());
    snprintf(args, sizeof args, "frontier --plot %s %s", plot, f);
    char env[2200];
    snprintf(env, sizeof env, "env PATH=/nonexistent %s %s 2>&1 >/dev/null", SO_BINARY,
             args);
    FILE *fp = popen(env, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    char buf[512] = "", line[256];
    while (fgets(line, sizeof line, fp))
        if (strlen(buf) + strlen(line) < sizeof buf)
            strcat(buf, line);
    CU_ASSERT_EQUAL(pclose(fp), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "gnuplot is not installed"));
    CU_ASSERT_NOT_EQUAL(access(plot, F_OK), 0);
}

static void test_frontier_errors(void)
{
    const char *f = so_test_write("two.json", two_jobs);
    char args[1024], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "frontier --plot x.gif %s", f);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, ".png, .svg or .pdf"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "frontier --backend nope %s", f);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown backend"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "frontier --format xml %s", f);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    free(out);
    free(err);
    const char *kp = so_test_write("kp.json", "{\"problem\": \"knapsack\", \"version\": 1,"
                                              " \"capacity\": 1, \"profits\": [1],"
                                              " \"weights\": [1]}");
    snprintf(args, sizeof args, "frontier %s", kp);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not 'pareto'"));
    free(out);
    free(err);
}

/* With buffer tuning the reference frontier in the output must be the one
 * the heuristic was measured against (the same tuned buffers): it was run
 * with Hadoop's default buffer, $19 dearer than the tuned frontier the
 * heuristic "beat". */
static void test_frontier_tuned_reference(void)
{
    const char *f = so_test_write(
        "io.json",
        "{\"problem\": \"pareto\", \"version\": 1,\n"
        " \"cluster\": {\"map_slots_per_vm\": 1, \"reduce_slots_per_vm\": 1,\n"
        "             \"vm_cost_per_hour\": 3600, \"io_cost_per_request\": 0.001},\n"
        " \"workload\": {},\n"
        " \"jobs\": [{\"map_tasks\": 3, \"reduce_tasks\": 1,\n"
        "   \"map\": {\"avg\": [10, 0], \"max\": [10, 0]},\n"
        "   \"reduce\": {\"avg\": [1, 0], \"max\": [1, 0]},\n"
        "   \"map_output\": {\"bytes\": [1000000000, 0], \"records\": [10000000, 0]}}]}\n");
    char args[1024];
    snprintf(args, sizeof args, "frontier --opt buffer=random --opt samples=200 %s", f);
    int code;
    json_t *j = run_json(args, &code);
    CU_ASSERT_EQUAL(code, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    json_t *fr = json_object_get(j, "frontiers");
    CU_ASSERT_EQUAL_FATAL(json_array_size(fr), 2);
    json_t *exact = json_object_get(json_array_get(fr, 0), "frontier");
    json_t *gaps = json_object_get(json_array_get(fr, 1), "makespan_gaps");
    CU_ASSERT_EQUAL_FATAL(json_array_size(exact), 3);
    CU_ASSERT_EQUAL_FATAL(json_array_size(gaps), 3);
    for (size_t i = 0; i < 3; i++) {
        json_t *g = json_array_get(gaps, i), *e = json_array_get(exact, i);
        CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_array_get(e, 0)),
                               json_number_value(json_object_get(g, "exact_makespan")), 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_array_get(e, 1)),
                               json_number_value(json_object_get(g, "budget")), 1e-9);
    }
    json_decref(j);
}

static CU_TestInfo tests[] = {
    {"frontier: the reference uses the tuned buffers", test_frontier_tuned_reference},
    {"solve: frontier result and quality extras", test_solve_result},
    {"solve: bad options and input", test_solve_errors},
    {"frontier: CSV, JSON, plot, no gnuplot", test_frontier_outputs},
    {"frontier: usage errors", test_frontier_errors},
    CU_TEST_INFO_NULL,
};
SO_SUITE("pareto_cli", tests)
