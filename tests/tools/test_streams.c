/* test_streams.c — issue 19 item 1: "-" is standard input for every input
 * and standard output for every output; `gen --out -` writes one compact
 * JSON document per line; gen refuses to overwrite without --force, makes
 * its folder with parents, names files by the parameters set, and keeps
 * numbers in meta.params as JSON numbers; `solve DIR` names the folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tests/test_util.h"

#define KP "instances/knapsack/pisinger/knapPI_1_100_1000_1.kp"
#define WORKLOAD "instances/cluster/two_pools.json"

static double objective_of(const char *json)
{
    json_t *j = json ? json_loads(json, 0, NULL) : NULL;
    double v = json_number_value(json_object_get(j, "objective"));
    json_decref(j);
    return j ? v : -1;
}

/* gen --out - | solve - gives what solve gives on the file gen writes. */
static void test_gen_solve_round_trip(void)
{
    char args[2000], *out = NULL, *err = NULL;
    /* so_test_run ends the line with </dev/null: the pipe is run in a
     * subshell, whose stdin that is */
    snprintf(args, sizeof args,
             "--version >/dev/null; (%s gen knapsack --seed 4 --set n=30 --set class=weakly"
             " --out - | %s solve - --backend kp-dp)", SO_BINARY, SO_BINARY);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    double piped = objective_of(out);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\"instance\": \"stdin\""));
    free(out);
    free(err);
    snprintf(args, sizeof args, "gen knapsack --seed 4 --set n=30 --set class=weakly"
             " --out %s/rt", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "solve %s/rt/knapsack-n=30-class=weakly-4-0.json"
             " --backend kp-dp", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    double filed = objective_of(out);
    free(out);
    CU_ASSERT(piped > 0);
    CU_ASSERT_DOUBLE_EQUAL(piped, filed, 0);
    /* the same instance as a file piped through cat: solve - = solve FILE */
    snprintf(args, sizeof args, "solve " KP " --backend kp-dp");
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    double direct = objective_of(out);
    free(out);
    snprintf(args, sizeof args, "--version >/dev/null; (cat " KP " | %s solve - --backend kp-dp)",
             SO_BINARY);
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_DOUBLE_EQUAL(objective_of(out), direct, 0);
    CU_ASSERT_DOUBLE_EQUAL(direct, 9147, 0);
    free(out);
    /* bench takes "-" as one instance read from stdin */
    snprintf(args, sizeof args, "--version >/dev/null; (%s gen knapsack --set n=20 --out - |"
             " %s bench --backends kp-greedy --reference kp-dp --format csv --db %s/s.db -)",
             SO_BINARY, SO_BINARY, so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "knapsack,kp-dp,1,1,1,0,0,100"));
    free(out);
}

/* One compact document per line; meta.params numbers are numbers. */
static void test_gen_lines(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(so_test_run("gen knapsack --count 3 --seed 2 --set n=7 --set capacity=0.25"
                                " --out -", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    int lines = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        json_error_t je;
        json_t *j = json_loads(line, 0, &je);
        CU_ASSERT_PTR_NOT_NULL_FATAL(j);
        json_t *meta = json_object_get(j, "meta");
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(meta, "index")), lines);
        json_t *prm = json_object_get(meta, "params");
        CU_ASSERT(json_is_integer(json_object_get(prm, "n")));
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(prm, "n")), 7);
        CU_ASSERT(json_is_integer(json_object_get(prm, "R"))); /* a default */
        CU_ASSERT(json_is_real(json_object_get(prm, "capacity")));
        CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(prm, "capacity")), 0.25, 0);
        CU_ASSERT(json_is_string(json_object_get(prm, "class")));
        CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "weights")), 7);
        json_decref(j);
    }
    CU_ASSERT_EQUAL(lines, 3);
    free(out);
}

/* Existing files refused (nothing written), --force overwrites; two
 * classes in one folder have two names; the folder is made with parents. */
static void test_gen_files(void)
{
    char args[1500], path[1200], *out = NULL, *err = NULL;
    const char *d = so_test_tmpdir();
    snprintf(args, sizeof args, "gen knapsack --count 2 --set n=5 --set class=strongly"
             " --out %s/deep/er/gen", d);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "gen knapsack --count 2 --set n=5 --set class=subset-sum"
             " --out %s/deep/er/gen", d);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    snprintf(path, sizeof path, "%s/deep/er/gen/knapsack-n=5-class=strongly-1-1.json", d);
    char *a = so_test_slurp(path);
    snprintf(path, sizeof path, "%s/deep/er/gen/knapsack-n=5-class=subset-sum-1-1.json", d);
    char *b = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL(a && strstr(a, "\"class\": \"strongly\""));
    CU_ASSERT_PTR_NOT_NULL(b && strstr(b, "\"class\": \"subset-sum\""));
    free(b);
    /* a third instance would be new, but instances 0 and 1 exist: refused
     * before anything is written */
    snprintf(args, sizeof args, "gen knapsack --count 3 --seed 1 --set n=5"
             " --set class=strongly --out %s/deep/er/gen", d);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "knapsack-n=5-class=strongly-1-0.json exists"));
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "--force"));
    CU_ASSERT_STRING_EQUAL(out ? out : "?", "");
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/deep/er/gen/knapsack-n=5-class=strongly-1-2.json", d);
    struct stat st;
    CU_ASSERT_NOT_EQUAL(stat(path, &st), 0);
    /* --force: written again, the same bytes (same seed) */
    snprintf(args, sizeof args, "gen knapsack --count 3 --seed 1 --set n=5"
             " --set class=strongly --out %s/deep/er/gen --force", d);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    snprintf(path, sizeof path, "%s/deep/er/gen/knapsack-n=5-class=strongly-1-1.json", d);
    char *c = so_test_slurp(path);
    CU_ASSERT_STRING_EQUAL(a ? a : "", c ? c : "?");
    free(a);
    free(c);
    /* --out naming a file, not a folder */
    snprintf(args, sizeof args, "gen knapsack --out %s", path);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "cannot create the folder"));
    free(err);
}

/* -o -, --events-out -: standard output. */
static void test_dash_outputs(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(so_test_run("solve " KP " -o -", &out, NULL), 0);
    CU_ASSERT_DOUBLE_EQUAL(objective_of(out), 9147, 0);
    free(out);
    struct stat st;
    CU_ASSERT_NOT_EQUAL(stat("-", &st), 0); /* no file called "-" */
    char args[1200];
    snprintf(args, sizeof args, "sim " WORKLOAD " --scheduler fair --format table"
             " --events-out - -o %s/report.txt", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "launch job=0"));
    CU_ASSERT_PTR_NULL(out && strstr(out, "makespan")); /* report went to -o */
    free(out);
    CU_ASSERT_EQUAL(so_test_run("sim " WORKLOAD " --scheduler fair --format table -o -",
                                &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "makespan"));
    free(out);
    CU_ASSERT_EQUAL(so_test_run("export --format lp " KP " -o -", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "Maximize"));
    free(out);
    CU_ASSERT_NOT_EQUAL(stat("-", &st), 0);
}

static CU_TestInfo tests[] = {
    {"gen --out - | solve - = solve FILE", test_gen_solve_round_trip},
    {"gen --out -: one JSON per line, numeric params", test_gen_lines},
    {"gen: overwrite refused, --force, mkdir -p, names", test_gen_files},
    {"-o - and --events-out - write stdout", test_dash_outputs},
    CU_TEST_INFO_NULL,
};

SO_SUITE("streams", tests)
