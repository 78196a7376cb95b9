/* test_harness_table.c — scenario tables: the statistic, per-seed ratios and
 * the paper column on hand-made cells; the quick form; strict reading of
 * the "table" object (every error at its key path); report --scenario's
 * exit status on failed cells; slotopt scenarios' formats. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/tools/harness_testing.h"
#include "tools/harness/harness_table.h"

#define HEAD "{\"policies\": [\"fifo\", \"fair\"], \"sim_reference\": \"fair\",\n" \
             " \"inputs\": [{\"workload\": \"tw.json\"}],\n"

/* The scenarios' workload: a copy of instances/cluster/two_pools.json. */
static void workload(void)
{
    char *w = so_test_slurp("instances/cluster/two_pools.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    so_test_write("tw.json", w);
    free(w);
}

static int load(const char *text, int quick, so_hconfig *c, so_hscenario *sc, so_error *err)
{
    workload();
    char name[64];
    static int k;
    snprintf(name, sizeof name, "table-%d.json", k++);
    return harness_load_scenario(name, text, quick, c, sc, err);
}

/* A simulation cell: policy, instance hash, rep, objective, load param. */
static so_hrow cell(const char *policy, const char *hash, int rep, double v, const char *params)
{
    so_hrow r;
    memset(&r, 0, sizeof r);
    r.instance = (char *)hash;
    r.hash = (char *)hash;
    r.problem = (char *)"sim";
    r.backend = (char *)policy;
    r.rep = rep;
    r.status = (char *)"simulated";
    r.objective = v;
    r.params = (char *)params;
    r.bound = r.seconds = NAN;
    return r;
}

static void test_statistic_and_ratios(void)
{
    so_hconfig c;
    so_hscenario sc;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(load(HEAD " \"table\": {\"rows\": [\"load\"], \"columns\": \"policy\",\n"
                               "  \"ratios\": [{\"name\": \"fifo/fair\", \"of\": \"fifo\"}],\n"
                               "  \"paper\": {\"1\": {\"fifo/fair\": 2}}}}\n",
                               0, &c, &sc, &err),
                          SO_OK);
    CU_ASSERT_EQUAL_FATAL(sc.n_tables, 1);
    CU_ASSERT_STRING_EQUAL(sc.reference, "fair");
    /* load 1: three seeds; fifo 10, 20, 30; fair 5, 10, 10 -> ratios 2, 2, 3 */
    const char *p1 = "{\"load\": 1}", *p2 = "{\"load\": 2}";
    so_hrow v[] = {cell("fifo", "a", 0, 10, p1), cell("fifo", "a", 1, 20, p1),
                   cell("fifo", "a", 2, 30, p1), cell("fair", "a", 0, 5, p1),
                   cell("fair", "a", 1, 10, p1), cell("fair", "a", 2, 10, p1),
                   cell("fifo", "b", 0, 4, p2), cell("fair", "b", 0, 8, p2)};
    v[7].status = (char *)"killed"; /* a failed cell: no sample, counted */
    so_hrows rows = {v, 8, 8};
    so_htable t;
    CU_ASSERT_EQUAL_FATAL(so_htable_build(&sc.tables[0], &rows, &c, sc.reference, &t, &err),
                          SO_OK);
    CU_ASSERT_EQUAL_FATAL(t.n_rows, 2);
    CU_ASSERT_EQUAL_FATAL(t.n_cols, 2);
    CU_ASSERT_STRING_EQUAL(t.cols[0], "fifo");
    CU_ASSERT_STRING_EQUAL(t.rows[0].label, "1");
    CU_ASSERT_EQUAL(t.rows[0].cells[0].n, 3);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[0].cells[0].mean, 20, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[0].cells[0].sd, 10, 1e-12);
    /* 95 % interval: 20 +- t(0.975, 2) 10 / sqrt(3) = 20 +- 24.842 */
    CU_ASSERT_DOUBLE_EQUAL(t.rows[0].cells[0].hi, 20 + 4.303 * 10 / sqrt(3), 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[0].ratios[0].mean, 7.0 / 3, 1e-12);
    CU_ASSERT_EQUAL(t.rows[0].ratios[0].n, 3);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(t.rows[0].paper, "fifo/fair")), 2,
                           0);
    /* load 2: fair failed: a missing value, a failed cell, no ratio */
    CU_ASSERT_EQUAL(t.failed, 1);
    CU_ASSERT_EQUAL(t.missing, 1);
    CU_ASSERT_EQUAL(t.rows[1].cells[1].n, 0);
    CU_ASSERT_EQUAL(t.rows[1].ratios[0].n, 0);
    CU_ASSERT_EQUAL(t.n_paper_cols, 1);
    so_htable_free(&t);
    so_hscenario_free(&sc);
    CU_ASSERT_DOUBLE_EQUAL(so_t975(1), 12.706, 0);
    CU_ASSERT_DOUBLE_EQUAL(so_t975(9), 2.262, 0);
    /* exact 0.975 quantiles, within 1e-3 past the table */
    static const struct {
        size_t df;
        double t;
    } q[] = {{2, 4.303}, {10, 2.228}, {30, 2.042}, {31, 2.0395}, {40, 2.0211},
             {60, 2.0003}, {120, 1.9799}, {1000, 1.9623}};
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        CU_ASSERT_DOUBLE_EQUAL(so_t975(q[i].df), q[i].t, 1e-3);
}

/* "mean_max": the mean and the largest sample (a ratio's worst case). */
static void test_mean_max(void)
{
    so_hconfig c;
    so_hscenario sc;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(load(HEAD " \"table\": {\"rows\": [\"load\"], \"columns\": \"policy\",\n"
                               "  \"statistic\": \"mean_max\",\n"
                               "  \"ratios\": [{\"name\": \"fifo/fair\", \"of\": \"fifo\"}]}}\n",
                               0, &c, &sc, &err),
                          SO_OK);
    const char *p1 = "{\"load\": 1}";
    so_hrow v[] = {cell("fifo", "a", 0, 10, p1), cell("fifo", "a", 1, 20, p1),
                   cell("fifo", "a", 2, 30, p1), cell("fair", "a", 0, 5, p1),
                   cell("fair", "a", 1, 10, p1), cell("fair", "a", 2, 10, p1)};
    so_hrows rows = {v, 6, 6};
    so_htable t;
    CU_ASSERT_EQUAL_FATAL(so_htable_build(&sc.tables[0], &rows, &c, sc.reference, &t, &err),
                          SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[0].cells[0].max, 30, 0);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[0].cells[1].max, 10, 0);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[0].ratios[0].max, 3, 0); /* ratios 2, 2, 3 */
    char *buf = NULL;
    size_t size = 0;
    FILE *fp = open_memstream(&buf, &size);
    so_htable_print(fp, &t, SO_HF_MARKDOWN);
    fclose(fp);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "| 1 | 20.0 (max 30.0) | 8.33 (max 10.00) | 2.33 (max 3.00) |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "mean (max) over the seeds"));
    free(buf);
    json_t *j = so_htable_json(&t);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "statistic")), "mean_max");
    json_t *row = json_array_get(json_object_get(j, "rows"), 0);
    CU_ASSERT_DOUBLE_EQUAL(
        json_real_value(json_object_get(json_object_get(json_object_get(row, "values"), "fifo"),
                                        "max")),
        30, 0);
    json_decref(j);
    so_htable_free(&t);
    so_hscenario_free(&sc);
}

/* A boolean extra as the value: 1 when true, 0 when false, so the mean
 * is the share of cells where it holds (offline-opt's offline.proved). */
static void test_boolean_value(void)
{
    so_hconfig c;
    so_hscenario sc;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(load(HEAD " \"table\": {\"rows\": [\"policy\"],\n"
                               "  \"value\": \"offline.proved\"}}\n",
                               0, &c, &sc, &err),
                          SO_OK);
    so_hrow v[] = {cell("fifo", "a", 0, 10, NULL), cell("fifo", "b", 0, 20, NULL),
                   cell("fifo", "c", 0, 30, NULL), cell("fifo", "d", 0, 30, NULL)};
    v[0].extras = (char *)"{\"offline\": {\"proved\": true}}";
    v[1].extras = (char *)"{\"offline\": {\"proved\": false}}";
    v[2].extras = (char *)"{\"offline\": {\"proved\": true}}";
    v[3].extras = (char *)"{\"offline\": {\"proved\": true}}";
    so_hrows rows = {v, 4, 4};
    so_htable t;
    CU_ASSERT_EQUAL_FATAL(so_htable_build(&sc.tables[0], &rows, &c, sc.reference, &t, &err),
                          SO_OK);
    CU_ASSERT_EQUAL_FATAL(t.rows[0].cells[0].n, (size_t)4);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[0].cells[0].mean, 0.75, 1e-12);
    so_htable_free(&t);
    so_hscenario_free(&sc);
}

static void test_quick_form(void)
{
    so_hconfig c;
    so_hscenario sc;
    so_error err;
    const char *text = HEAD " \"repetitions\": 5, \"table\": {\"rows\": [\"policy\"]},\n"
                            " \"quick\": {\"repetitions\": 1, \"policies\": [\"fifo\"],"
                            " \"sim_reference\": \"fifo\"}}\n";
    CU_ASSERT_EQUAL_FATAL(load(text, 0, &c, &sc, &err), SO_OK);
    CU_ASSERT_EQUAL(c.reps, 5);
    CU_ASSERT_EQUAL(c.n_policies, 2);
    so_hscenario_free(&sc);
    CU_ASSERT_EQUAL_FATAL(load(text, 1, &c, &sc, &err), SO_OK);
    CU_ASSERT_EQUAL(c.reps, 1);
    CU_ASSERT_EQUAL(c.n_policies, 1);
    CU_ASSERT_STRING_EQUAL(sc.reference, "fifo");
    so_hscenario_free(&sc);
    /* a quick form cannot change the table */
    CU_ASSERT_EQUAL(load(HEAD " \"quick\": {\"table\": {}}}\n", 1, &c, &sc, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "quick.table");
}

static void test_bad_tables(void)
{
    static const struct {
        const char *table, *key, *words;
    } bad[] = {
        {"{\"rows\": [\"policy\"], \"colour\": 1}", "table.colour", "unknown"},
        {"{\"rows\": []}", "table.rows", ""},
        {"{\"rows\": [\"load\"]}", "table.rows", "\"policy\" must be a row key"},
        {"{\"rows\": [\"policy\", \"policy\"]}", "table.rows[1]", "given twice"},
        {"{\"rows\": [\"load\"], \"columns\": \"policy\", \"statistic\": \"median\"}",
         "table.statistic", "mean_sd, mean_ci95 or mean_max"},
        {"{\"rows\": [\"load\"], \"columns\": \"policy\", \"ratios\": [{\"name\": \"r\"}]}",
         "table.ratios[0]", "must be a row key"},
        {"{\"rows\": [\"policy\"], \"columns\": \"policy\"}", "table.columns", "row key already"},
        {"{\"rows\": [\"policy\"], \"figure\": {\"x\": \"load\"}}", "table.figure.x",
         "one of the row keys"},
        {"{\"rows\": [\"policy\"], \"paper\": {\"fifo\": [1]}}", "table.paper.fifo",
         "a number, a text or an object"},
        {"{\"rows\": [\"policy\"], \"where\": {\"load\": 1}}", "table.where.load",
         "non-empty array"},
        {"{\"rows\": [\"policy\"], \"decimals\": 9}", "table.decimals", ""},
        {"{\"rows\": [\"policy\", \"time\"]}", "table.value", "with a \"time\" key"},
        {"{\"rows\": [\"policy\"], \"value\": \"maps\"}", "table.value", "need a \"time\" key"},
        {"{\"rows\": [\"policy\"], \"where\": {\"time\": [1]}}", "table.where.time",
         "a key of the cells"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1200];
        snprintf(text, sizeof text, HEAD " \"table\": %s}\n", bad[i].table);
        so_hconfig c;
        so_hscenario sc;
        so_error err;
        CU_ASSERT_EQUAL(load(text, 0, &c, &sc, &err), SO_EINVAL);
        CU_ASSERT_STRING_EQUAL(err.key, bad[i].key);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, bad[i].words));
        CU_ASSERT(err.line >= 3);
    }
    /* names the table gives must be the scenario's: an error at build */
    so_hconfig c;
    so_hscenario sc;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(load(HEAD " \"table\": {\"rows\": [\"policy\"], \"policies\":"
                               " [\"flex\"]}}\n", 0, &c, &sc, &err),
                          SO_OK);
    so_hrows rows = {NULL, 0, 0};
    so_htable t;
    CU_ASSERT_EQUAL(so_htable_build(&sc.tables[0], &rows, &c, "fair", &t, &err), SO_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'flex' is not one of the scenario's"));
    so_hscenario_free(&sc);
}

static void test_report_and_list(void)
{
    char args[1400], *out = NULL, *err = NULL;
    /* a scenario whose cell fails (a SWIM setting on a JSON workload, an
     * error when the cell parses it): report prints the table, exits 3 */
    workload();
    const char *sc = so_test_write("fails.json",
                                   "{\"policies\": [{\"name\": \"fifo\", \"policy\": \"fifo\","
                                   " \"options\": {\"map_parallel\": 0.5}}], \"inputs\":"
                                   " [{\"workload\": \"tw.json\"}], \"table\": {\"rows\":"
                                   " [\"policy\"]}}\n");
    snprintf(args, sizeof args, "bench --scenario %s --db %s/fails.db --metric bogus", sc,
             so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 2);
    snprintf(args, sizeof args, "bench --scenario %s --db %s/fails.db", sc, so_test_tmpdir());
    so_test_run(args, &out, &err); /* bench says the cell failed */
    free(out);
    free(err);
    snprintf(args, sizeof args, "report --scenario %s --db %s/fails.db --format csv", sc,
             so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 3);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "1 failed cells, 1 missing values"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "policy,mean_response (s) n,"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\nfifo,0,,,,\n"));
    free(out);
    free(err);
    /* another scenario's database: none of its cells, said, exit 3 */
    snprintf(args, sizeof args, "report --scenario knapsack --db %s/fails.db", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 3);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "scenario knapsack: 0 of its 48 cells are stored"));
    free(out);
    free(err);
    /* usage errors */
    CU_ASSERT_EQUAL(so_test_run("report --quick --db x.db", NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "--quick needs --scenario"));
    free(err);
    CU_ASSERT_EQUAL(so_test_run("bench --quick --backends kp-dp --reference kp-dp x", NULL, &err),
                    2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "--quick needs --scenario"));
    free(err);
    /* slotopt scenarios: every format, bad format an error */
    CU_ASSERT_EQUAL(so_test_run("scenarios --format markdown", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "| wpbs-table2 | WPBS Table II, Fig. 2 |"));
    free(out);
    CU_ASSERT_EQUAL(so_test_run("scenarios --format csv", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "scenario,figure,tables,full,quick\n"));
    free(out);
    CU_ASSERT_EQUAL(so_test_run("scenarios --format yaml", NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "--format: expected"));
    free(err);
}

static CU_TestInfo tests[] = {
    {"mean, sd, interval, per-seed ratios, paper, failed cells", test_statistic_and_ratios},
    {"mean_max: the mean and the worst sample", test_mean_max},
    {"a boolean extra as the value: the share", test_boolean_value},
    {"the quick form replaces top-level fields", test_quick_form},
    {"bad table definitions: errors at their key paths", test_bad_tables},
    {"report --scenario exit status; scenarios formats", test_report_and_list},
    CU_TEST_INFO_NULL,
};

SO_SUITE("harness-table", tests)
