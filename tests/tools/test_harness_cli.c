/* test_harness_cli.c — `slotopt bench` and `slotopt report` end to end:
 * tables in every format, resume, plots with and without gnuplot, and every
 * usage error. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sqlite3.h>
#include "tests/test_util.h"
#include "tests/tools/harness_testing.h"
#include "tools/harness/harness.h"

static char dir[600], db[600];

static void setup(void)
{
    if (dir[0])
        return;
    snprintf(dir, sizeof dir, "%s/cli-inst", so_test_tmpdir());
    snprintf(db, sizeof db, "%s/cli.db", so_test_tmpdir());
    char args[1400];
    snprintf(args, sizeof args, "gen knapsack --count 4 --seed 3 --set n=20 --out %s", dir);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
}

static int bench(const char *extra, char **out, char **err)
{
    char args[2000];
    snprintf(args, sizeof args, "bench --backends kp-greedy --reference kp-glpk --db %s %s %s",
             db, extra, dir);
    return so_test_run(args, out, err);
}

static void test_bench_and_resume(void)
{
    setup();
    char *out, *err;
    CU_ASSERT_EQUAL(bench("--format csv --jobs 2", &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "problem,backend,instances,cells,solved,ref infeasible,ref unproven,% optimal,"
                                       "mean ratio,median ratio,worst ratio,mean diff,worst diff,mean s,max s\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "knapsack,kp-glpk,4,4,4,0,0,100,1,1,1,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "knapsack,kp-greedy,4,4,4,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "8 cells run, 0 already stored"));
    CU_ASSERT_PTR_NULL(strstr(err, "elapsed")); /* no progress bar off a terminal */
    CU_ASSERT_PTR_NULL(strstr(err, "no usable result"));
    free(out);
    free(err);
    CU_ASSERT_EQUAL(bench("--resume --format json --cells", &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "0 cells run, 8 already stored"));
    json_t *j = json_loads(out, 0, NULL);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "cells")), 8);
    json_t *cell;
    size_t i;
    json_array_foreach(json_object_get(j, "cells"), i, cell) {
        double ratio = json_real_value(json_object_get(cell, "ratio"));
        double obj = json_real_value(json_object_get(cell, "objective"));
        double ref = json_real_value(json_object_get(cell, "reference"));
        CU_ASSERT_TRUE(obj > 0 && ref >= obj);
        CU_ASSERT_DOUBLE_EQUAL(ratio, ref / obj, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(cell, "difference")), ref - obj,
                               1e-9);
    }
    json_decref(j);
    free(out);
    free(err);
    /* without --resume the cells run again; still one row each */
    CU_ASSERT_EQUAL(bench("--format markdown --cells --time-limit 5 --repetitions 1", &out, &err),
                    0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "8 cells run, 0 already stored"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "| problem | instance | backend | rep | status |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "| knapsack | knapsack-n=20-3-0 | kp-glpk | 0 | optimal |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "| knapsack | kp-glpk | 4 | 4 | 4 | 0 | 0 | 100.0 | 1.0000 |"));
    free(out);
    free(err);

    char args[1400];
    snprintf(args, sizeof args, "report --db %s --format markdown", db);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "| knapsack | kp-glpk | 4 | 4 | 100.0 | 1.0000 | 1.0000 |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "| knapsack | kp-greedy | 4 | 4 |"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "report --db %s --format csv --cells", db);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT_EQUAL(strncmp(out, "problem,instance,backend,rep,status,objective,reference,"
                                 "ref status,ratio,difference,seconds\n", 92), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "knapsack,knapsack-n=20-3-0,kp-glpk,0,optimal,"));
    CU_ASSERT_PTR_NULL(strstr(out, "instances")); /* the cells only */
    free(out);
    free(err);
    snprintf(args, sizeof args, "report --db %s --group-by n", db);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "n=20"));
    free(out);
    free(err);
}

static void test_plots(void)
{
    setup();
    CU_ASSERT_EQUAL_FATAL(bench("--resume", NULL, NULL), 0);
    char args[1400], path[1400], *out, *err;
    snprintf(args, sizeof args, "report --db %s --plot %s/plots", db, so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "1 plots in"));
    snprintf(path, sizeof path, "%s/plots/gaps-knapsack.svg", so_test_tmpdir());
    char *svg = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL(svg);
    CU_ASSERT_PTR_NOT_NULL(svg ? strstr(svg, "<svg") : NULL);
    free(svg);
    snprintf(path, sizeof path, "%s/plots/gaps-knapsack.dat", so_test_tmpdir());
    char *dat = so_test_slurp(path);
    /* the greedy's curve; the reference (ratio 1 by definition) is not a
     * curve but the guide line of the script */
    CU_ASSERT_PTR_NOT_NULL(dat ? strstr(dat, "# kp-greedy\n") : NULL);
    CU_ASSERT_PTR_NULL(dat ? strstr(dat, "# kp-glpk") : "");
    free(dat);
    snprintf(path, sizeof path, "%s/plots/gaps-knapsack.gp", so_test_tmpdir());
    char *gp = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL(gp ? strstr(gp, "title 'kp-glpk (reference)'") : NULL);
    free(gp);
    free(out);
    free(err);
    /* without gnuplot: data and scripts, no svg, exit 0 */
    setenv("SLOTOPT_GNUPLOT", "/nonexistent/gnuplot", 1);
    snprintf(args, sizeof args, "report --db %s --plot %s/noplots", db, so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    unsetenv("SLOTOPT_GNUPLOT");
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "gnuplot not found: plots skipped"));
    snprintf(path, sizeof path, "%s/noplots/gaps-knapsack.gp", so_test_tmpdir());
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
    snprintf(path, sizeof path, "%s/noplots/gaps-knapsack.svg", so_test_tmpdir());
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    free(out);
    free(err);
}

static void test_scenarios(void)
{
    char args[1400], *out, *err;
    snprintf(args, sizeof args, "bench --scenario knapsack --db %s/knapsack.db", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "class=subset-sum"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "48 cells run"));
    free(out);
    free(err);
    /* report groups as the scenario did */
    snprintf(args, sizeof args, "report --db %s/knapsack.db", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "class=subset-sum"));
    free(out);
    free(err);
    so_test_write("tiny.json", "{\"backends\": \"kp-greedy\", \"reference\": \"kp-glpk\","
                               " \"inputs\": [{\"family\": \"knapsack\", \"count\": 2,"
                               " \"params\": {\"n\": 8}}]}");
    snprintf(args, sizeof args, "bench --scenario %s/tiny.json --db %s/tiny.db --format csv",
             so_test_tmpdir(), so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "knapsack,kp-greedy,2,2,2,"));
    free(out);
    free(err);
}

/* The number of cells; -1 when a cell is stored twice. */
#define COUNT_ROWS "SELECT CASE WHEN count(*) = count(DISTINCT instance_hash || backend" \
                   " || rep) THEN count(*) ELSE -1 END FROM cells"

static long long count_rows(const char *path)
{
    return harness_db_int(path, COUNT_ROWS);
}

/* The CSV summary without its two timing columns. */
static void strip_seconds(char *csv)
{
    char *out = csv;
    for (char *line = csv; *line;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        int commas = 0;
        size_t keep = len;
        for (size_t i = len; i-- > 0 && commas < 2;)
            if (line[i] == ',' && ++commas == 2)
                keep = i;
        memmove(out, line, keep);
        out += keep;
        *out++ = '\n';
        line += len + (end != NULL);
    }
    *out = '\0';
}

/* The slotopt program itself, killed with SIGKILL part-way, then resumed. */
static void test_kill_the_program(void)
{
    char inst[700], killed[700], whole[700], args[2400];
    snprintf(inst, sizeof inst, "%s/kill-inst", so_test_tmpdir());
    snprintf(killed, sizeof killed, "%s/cli-kill.db", so_test_tmpdir());
    snprintf(whole, sizeof whole, "%s/cli-whole.db", so_test_tmpdir());
    snprintf(args, sizeof args, "gen knapsack --count 60 --seed 5 --set n=400 --out %s", inst);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        execl(SO_BINARY, SO_BINARY, "bench", "--backends", "kp-greedy", "--reference",
              "kp-glpk", "--db", killed, inst, (char *)NULL);
        _exit(127);
    }
    int status = harness_kill_at(pid, killed, COUNT_ROWS, 10);
    CU_ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    long long before = count_rows(killed);
    CU_ASSERT_TRUE(before >= 10 && before < 120);

    char *out, *err, *out2, *err2, expect[80];
    snprintf(args, sizeof args, "bench --backends kp-greedy --reference kp-glpk --db %s"
             " --resume --format csv %s", killed, inst);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    snprintf(expect, sizeof expect, "%lld cells run, %lld already stored", 120 - before, before);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, expect));
    CU_ASSERT_EQUAL(count_rows(killed), 120);
    snprintf(args, sizeof args, "bench --backends kp-greedy --reference kp-glpk --db %s"
             " --format csv %s", whole, inst);
    CU_ASSERT_EQUAL(so_test_run(args, &out2, &err2), 0);
    strip_seconds(out);
    strip_seconds(out2);
    CU_ASSERT_STRING_EQUAL(out, out2);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "knapsack,kp-glpk,60,60,60,0,0,100,1,1,1,0,0\n"));
    free(out);
    free(err);
    free(out2);
    free(err2);
}

static void expect_usage(const char *args, const char *msg)
{
    char *out, *err;
    int code = so_test_run(args, &out, &err);
    CU_ASSERT_EQUAL(code, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, msg));
    if (!strstr(err, msg))
        fprintf(stderr, "\n  %s -> %s\n", args, err);
    CU_ASSERT_STRING_EQUAL(out, "");
    free(out);
    free(err);
}

static void test_errors(void)
{
    setup();
    char args[2000];
    snprintf(args, sizeof args, "bench --backends zz --reference kp-glpk %s", dir);
    expect_usage(args, "unknown backend 'zz'");
    snprintf(args, sizeof args, "bench --backends kp-greedy %s", dir);
    expect_usage(args, "expected --backends and --reference");
    expect_usage("bench --backends kp-greedy --reference kp-glpk", "expected INPUTS");
    snprintf(args, sizeof args, "bench --backends kp-greedy --reference kp-glpk --format xml %s", dir);
    expect_usage(args, "--format: expected json, table, csv or markdown");
    snprintf(args, sizeof args, "bench --backends kp-greedy --reference kp-glpk --jobs 0 %s", dir);
    expect_usage(args, "--jobs: expected 1..256");
    snprintf(args, sizeof args, "bench --backends kp-greedy --reference kp-glpk --time-limit x %s", dir);
    expect_usage(args, "--time-limit");
    expect_usage("bench --scenario knapsack --backends kp-greedy", "--scenario takes no");
    expect_usage("bench --scenario no-such", "unknown scenario 'no-such'; choices: ");
    const char *bad = so_test_write("bad.json", "{\"problem\": \"knapsack\", \"version\": 1,\n"
                                                " \"capacity\": \"x\", \"profits\": [1], \"weights\": [1]}");
    snprintf(args, sizeof args, "bench --backends kp-greedy --reference kp-glpk --db %s %s", db, bad);
    expect_usage(args, "bad.json:2:");
    snprintf(args, sizeof args, "report --db %s/none.db", so_test_tmpdir());
    expect_usage(args, "cannot read the database");
    snprintf(args, sizeof args, "report --db %s --format xml", db);
    expect_usage(args, "--format");
    snprintf(args, sizeof args, "report --db %s extra", db);
    expect_usage(args, "unexpected argument 'extra'");
    snprintf(args, sizeof args, "bench --scenario %s", so_test_write("bad-sc.json", "{\"backends\": 1}"));
    expect_usage(args, "bad-sc.json:1:14: key 'backends'");
    snprintf(args, sizeof args, "bench --backends kp-greedy --reference kp-glpk"
             " --db /nonexistent/dir/x.db %s", dir);
    expect_usage(args, "/nonexistent/dir/x.db: cannot open the results database");
    snprintf(args, sizeof args, "report --db %s", so_test_write("text.db", "not a database\n"));
    expect_usage(args, "file is not a database");
    snprintf(args, sizeof args, "%s/empty.db", so_test_tmpdir());
    FILE *fp = fopen(args, "w");
    if (fp)
        fclose(fp);
    snprintf(args, sizeof args, "report --db %s/empty.db", so_test_tmpdir());
    expect_usage(args, "cannot open the results database: no such table: cells");
    /* the tables, no row */
    snprintf(args, sizeof args, "%s/norows.db", so_test_tmpdir());
    so_hstore *st = NULL;
    so_error e;
    CU_ASSERT_EQUAL(so_hstore_open(args, 1, &st, &e), SO_OK);
    so_hstore_close(st);
    snprintf(args, sizeof args, "report --db %s/norows.db", so_test_tmpdir());
    expect_usage(args, "no result stored");
}

static CU_TestInfo tests[] = {
    {"bench in every format, resume, report", test_bench_and_resume},
    {"report --plot with and without gnuplot", test_plots},
    {"bench --scenario", test_scenarios},
    {"slotopt bench killed with SIGKILL, resumed: same summary", test_kill_the_program},
    {"usage and input errors", test_errors},
    CU_TEST_INFO_NULL,
};
SO_SUITE("harness-cli", tests)
