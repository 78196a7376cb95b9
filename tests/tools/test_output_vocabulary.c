/* test_output_vocabulary.c — one output vocabulary across the commands:
 * the --format names, --compact JSON on one line, CSV at 17 significant
 * digits, sim --summary, exact integer objectives, report --group-by keys,
 * and the gnuplot scripts (noenhanced, terminal by the extension). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "formulations/common/gnuplot.h"
#include "tests/test_util.h"
#include "tools/harness/harness.h"
#include "tools/output/output_format.h"

/* 2^60 - 1 as a profit: a double cannot hold it (2^60 - 1 rounds to 2^60) */
static const char *big_kp =
    "{\"problem\": \"knapsack\", \"version\": 1, \"capacity\": 10,\n"
    " \"profits\": [1152921504606846975, 3], \"weights\": [5, 6]}\n";

static const char *two_jobs =
    "{\"problem\": \"pareto\", \"version\": 1,\n"
    " \"cluster\": {\"map_slots_per_vm\": 1, \"reduce_slots_per_vm\": 1,\n"
    "             \"vm_cost_per_hour\": 3600},\n"
    " \"workload\": {\"budget_max\": 100, \"deadline\": 50},\n"
    " \"jobs\": [\n"
    "  {\"name\": \"a_b\", \"map_tasks\": 4, \"reduce_tasks\": 1,\n"
    "   \"map\": {\"avg\": [10, 0], \"max\": [10, 0]},\n"
    "   \"reduce\": {\"avg\": [0, 0], \"max\": [0, 0]}},\n"
    "  {\"map_tasks\": 2, \"reduce_tasks\": 1, \"map\": {\"avg\": [8, 0], \"max\": [8, 0]},\n"
    "   \"reduce\": {\"avg\": [0, 0], \"max\": [0, 0]}}]}\n";

/* `solve --format table FILE` succeeds and its output holds text. */
static void expect_table(const char *file, const char *text)
{
    char cmd[600], *out = NULL;
    snprintf(cmd, sizeof cmd, "solve --format table %s", file);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, text));
    free(out);
}

static int lines(const char *s)
{
    int n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

static void test_format_names(void)
{
    char buf[80];
    CU_ASSERT_STRING_EQUAL(so_oformat_names(SO_OF_JSON | SO_OF_TABLE, buf, sizeof buf),
                           "json or table");
    CU_ASSERT_STRING_EQUAL(so_oformat_names(SO_OF_JSON | SO_OF_CSV | SO_OF_MARKDOWN, buf,
                                            sizeof buf),
                           "json, csv or markdown");
    CU_ASSERT_EQUAL(so_oformat_parse("text", SO_OF_TABLE), SO_OF_TABLE);
    CU_ASSERT_EQUAL(so_oformat_parse("csv", SO_OF_JSON), 0);
    CU_ASSERT_EQUAL(so_oformat_parse("markdown", SO_OF_MARKDOWN), SO_OF_MARKDOWN);
    /* every command: a bad --format names the accepted names, all from the
     * one vocabulary, exit 2 */
    const char *kp = so_test_write("big.json", big_kp);
    const char *pt = so_test_write("two.json", two_jobs);
    const char *cmds[] = {"solve --format yaml %s", "frontier --format yaml %s",
                          "sim --format yaml --scheduler fifo %s",
                          "bench --format yaml --backends kp-greedy --reference kp-dp %s",
                          "report --format yaml --db %s", "flex-compare --format yaml%.0s"};
    const char *args[] = {kp, pt, "instances/cluster/two_pools.json", kp, "none.db", ""};
    const char *vocab[] = {"json", "table", "csv", "markdown"};
    for (int i = 0; i < 6; i++) {
        char cmd[600], *err = NULL;
        snprintf(cmd, sizeof cmd, cmds[i], args[i]);
        CU_ASSERT_EQUAL(so_test_run(cmd, NULL, &err), 2);
        const char *e = err ? strstr(err, "--format: expected ") : NULL;
        CU_ASSERT_PTR_NOT_NULL(e);
        if (e) {
            e += strlen("--format: expected ");
            int known = 0;
            for (int v = 0; v < 4; v++)
                known += strncmp(e, vocab[v], strlen(vocab[v])) == 0;
            CU_ASSERT_EQUAL(known, 1);
            CU_ASSERT_PTR_NOT_NULL(strstr(e, ", found 'yaml'"));
        }
        free(err);
    }
    expect_table(kp, "status       optimal\n");
}

static void test_compact(void)
{
    const char *kp = so_test_write("big.json", big_kp);
    const char *pt = so_test_write("two.json", two_jobs);
    char db[600];
    snprintf(db, sizeof db, "%s/compact.db", so_test_tmpdir());
    const char *fmt[] = {"solve --compact %s%.0s", "frontier --compact %s%.0s",
                         "sim --compact --scheduler fifo %s%.0s",
                         "bench --compact --format json --backends kp-greedy --reference kp-dp"
                         " --db %2$s %1$s",
                         "report --compact --format json --db %2$s%.0s"};
    const char *in[] = {kp, pt, "instances/cluster/two_pools.json", kp, kp};
    for (int i = 0; i < 5; i++) {
        char cmd[1400], *out = NULL;
        snprintf(cmd, sizeof cmd, fmt[i], in[i], db);
        CU_ASSERT_EQUAL(so_test_run(cmd, &out, NULL), 0);
        CU_ASSERT_EQUAL(lines(out), 1);
        json_t *j = out ? json_loads(out, 0, NULL) : NULL;
        CU_ASSERT_PTR_NOT_NULL(j);
        json_decref(j);
        free(out);
    }
    /* flex-check too */
    const char *flex = so_test_write(
        "vocab-flex.json", "{\"problem\": \"flex\", \"version\": 1, \"slots\": 10,"
                           " \"metric\": \"response\", \"jobs\": ["
                           " {\"work\": 20, \"min\": 2, \"max\": 6},"
                           " {\"work\": 8, \"min\": 1, \"max\": 4}]}");
    char sol[700], cmd[1600], *out = NULL;
    snprintf(sol, sizeof sol, "%s/vocab-flex-out.json", so_test_tmpdir());
    snprintf(cmd, sizeof cmd, "solve -b flex -o %s %s", sol, flex);
    CU_ASSERT_EQUAL_FATAL(so_test_run(cmd, NULL, NULL), 0);
    snprintf(cmd, sizeof cmd, "flex-check --compact %s %s", flex, sol);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, NULL), 0);
    CU_ASSERT_EQUAL(lines(out), 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "{\"feasible\":true,"));
    free(out);
}

static void test_flex_compare_formats(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(so_test_run("flex-compare --instances 2 --backends fifo,flex --format table",
                                &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && !strncmp(out, "instances  used  skipped opt<=0", 31));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\n---------  ----  "));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\nall           2               0"));
    free(out);
    CU_ASSERT_EQUAL(so_test_run("flex-compare --instances 2 --backends fifo,flex --format csv",
                                &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && !strncmp(out, "instances,used,skipped opt<=0,skipped unproven,", 47));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\nall,2,0,0,"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, ",1,1,")); /* flex: ratio exactly 1 */
    free(out);
    CU_ASSERT_EQUAL(so_test_run("flex-compare --instances 2 --backends fifo,flex --format json"
                                " --compact", &out, NULL), 0);
    CU_ASSERT_EQUAL(lines(out), 1);
    json_t *j = out ? json_loads(out, 0, NULL) : NULL;
    json_t *row = json_array_get(json_object_get(j, "rows"), 0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(row, "used")), 2);
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(
                               json_object_get(json_object_get(row, "backends"), "flex"), "mean")),
                           1.0, 1e-12);
    json_decref(j);
    free(out);
}

static void test_csv_precision(void)
{
    const char *pt = so_test_write("two.json", two_jobs);
    char cmd[600], *out = NULL;
    snprintf(cmd, sizeof cmd, "frontier --format csv %s", pt);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, NULL), 0);
    /* the buffer's meta_percent 0.05 and threshold 0.8 at 17 digits */
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, ",0.050000000000000003,0.80000000000000004\n"));
    free(out);
    /* the harness CSV: full precision (1/3 of 100 %) and integers as such */
    char buf[100];
    so_onumber(buf, sizeof buf, 1152921504606846976.0);
    CU_ASSERT_STRING_EQUAL(buf, "1152921504606846976");
    so_onumber(buf, sizeof buf, 0.1);
    CU_ASSERT_STRING_EQUAL(buf, "0.1");
    so_onumber(buf, sizeof buf, 1.0 / 3);
    CU_ASSERT_STRING_EQUAL(buf, "0.3333333333333333"); /* shortest exact */
}

static void test_sim_summary(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(so_test_run("sim --summary --scheduler fifo instances/cluster/two_pools.json",
                                &out, NULL), 0);
    json_t *j = out ? json_loads(out, 0, NULL) : NULL;
    CU_ASSERT_PTR_NOT_NULL(json_object_get(j, "makespan"));
    CU_ASSERT_PTR_NULL(json_object_get(j, "jobs"));
    json_decref(j);
    free(out);
    CU_ASSERT_EQUAL(so_test_run("sim --summary --format table --scheduler fifo "
                                "instances/cluster/two_pools.json", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "makespan "));
    CU_ASSERT_PTR_NULL(out ? strstr(out, "response\n") : NULL); /* the job table's header */
    CU_ASSERT_PTR_NULL(out ? strstr(out, "finish") : NULL);
    free(out);
    CU_ASSERT_EQUAL(so_test_run("sim --format table --scheduler fifo "
                                "instances/cluster/two_pools.json", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "finish"));
    free(out);
}

static void test_exact_integer_objective(void)
{
    const char *kp = so_test_write("big.json", big_kp);
    const char *backends[] = {"kp-dp", "kp-bnb", "kp-greedy"};
    for (int b = 0; b < 3; b++) {
        char cmd[600], *out = NULL;
        snprintf(cmd, sizeof cmd, "solve --compact --backend %s %s", backends[b], kp);
        CU_ASSERT_EQUAL(so_test_run(cmd, &out, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\"objective\":1152921504606846975,"));
        free(out);
        snprintf(cmd, sizeof cmd, "solve --format table --backend %s %s", backends[b], kp);
        CU_ASSERT_EQUAL(so_test_run(cmd, &out, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "objective    1152921504606846975\n"));
        free(out);
    }
    /* the library: exact getter, JSON integer */
    so_result *r = so_result_new();
    int64_t v = 0;
    CU_ASSERT_EQUAL(so_result_objective_int(r, &v), 0);
    so_result_set_objective_int(r, INT64_C(1152921504606846975));
    CU_ASSERT_EQUAL(so_result_objective_int(r, &v), 1);
    CU_ASSERT(v == INT64_C(1152921504606846975));
    json_t *j = so_result_to_json(r);
    CU_ASSERT(json_is_integer(json_object_get(j, "objective")));
    CU_ASSERT(json_integer_value(json_object_get(j, "objective")) ==
              INT64_C(1152921504606846975));
    json_decref(j);
    so_result_set_objective(r, 2.5); /* a double replaces the integer */
    CU_ASSERT_EQUAL(so_result_objective_int(r, &v), 0);
    so_result_free(r);
    /* the harness's cell table prints objectives digit for digit */
    const char *huge = so_test_write(
        "vocab-huge.json", "{\"problem\": \"knapsack\", \"version\": 1, \"capacity\": 10,"
                           " \"profits\": [3500000000000, 3], \"weights\": [5, 6]}");
    char bench[1400], *tab = NULL;
    snprintf(bench, sizeof bench, "bench --cells --backends kp-greedy --reference kp-dp"
                                  " --db %s/vocab-huge.db %s", so_test_tmpdir(), huge);
    CU_ASSERT_EQUAL(so_test_run(bench, &tab, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(tab && strstr(tab, "  3500000000000  3500000000000  "));
    CU_ASSERT_PTR_NULL(tab ? strstr(tab, "e+12") : "");
    free(tab);
    /* a pareto result's scalar is labelled by its name in text */
    const char *pt = so_test_write("two.json", two_jobs);
    expect_table(pt, "\nhypervolume  ");
}

static void test_group_by_key(void)
{
    const char *kp = so_test_write("big.json", big_kp);
    char db[600], cmd[1400], *err = NULL, *out = NULL;
    snprintf(db, sizeof db, "%s/group.db", so_test_tmpdir());
    snprintf(cmd, sizeof cmd, "gen knapsack --count 2 --set n=8 --out %s/vocab-fam",
             so_test_tmpdir());
    int gen = so_test_run(cmd, NULL, NULL);
    snprintf(cmd, sizeof cmd, "bench --backends kp-greedy --reference kp-dp --db %s %s%s%s",
             db, kp, gen == 0 ? " " : "", gen == 0 ? so_test_tmpdir() : "");
    if (gen == 0)
        strcat(cmd, "/vocab-fam");
    CU_ASSERT_EQUAL(so_test_run(cmd, NULL, NULL), 0);
    snprintf(cmd, sizeof cmd, "report --db %s --group-by nope", db);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "--group-by: unknown key 'nope'; accepted: "));
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "'' (no grouping)"));
    CU_ASSERT_STRING_EQUAL(out ? out : "x", ""); /* no partial output */
    if (gen == 0) /* the family's parameters are accepted, and named */
        CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "family, ") && strstr(err, "n, "));
    free(err);
    free(out);
    snprintf(cmd, sizeof cmd, "report --db %s --group-by ''", db);
    CU_ASSERT_EQUAL(so_test_run(cmd, NULL, NULL), 0);
    if (gen == 0) {
        snprintf(cmd, sizeof cmd, "report --db %s --group-by n", db);
        CU_ASSERT_EQUAL(so_test_run(cmd, &out, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "n=8"));
        free(out);
    }
}

static char *script_of(const char *path)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    so_gp_header(fp, path, "out.tmp", 800, 500, "it's a_b");
    fclose(fp);
    return buf;
}

static void test_plot_scripts(void)
{
    const char *paths[] = {"x.png", "x.svg", "x.PDF"};
    const char *terms[] = {"set terminal pngcairo ", "set terminal svg ",
                           "set terminal pdfcairo "};
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_PTR_NOT_NULL(so_gp_terminal(paths[i]));
        char *s = script_of(paths[i]);
        CU_ASSERT_PTR_NOT_NULL(s && strstr(s, terms[i]));
        CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "noenhanced"));
        CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "set title 'it''s a_b'\n"));
        free(s);
    }
    CU_ASSERT_PTR_NULL(so_gp_terminal("x.gif"));
    CU_ASSERT_PTR_NULL(so_gp_terminal("dir.png/x"));
    so_error err;
    CU_ASSERT_EQUAL(so_gp_check_path("x.jpeg", &err), SO_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, ".png, .svg or .pdf"));
    /* the commands refuse another extension before any work */
    char *e = NULL, *out = NULL;
    CU_ASSERT_EQUAL(so_test_run("sim --plot u.gif --scheduler fifo "
                                "instances/cluster/two_pools.json", &out, &e), 2);
    CU_ASSERT_PTR_NOT_NULL(e && strstr(e, ".png, .svg or .pdf"));
    CU_ASSERT_STRING_EQUAL(out ? out : "x", "");
    free(e);
    free(out);
    /* report's scripts: the terminal of --plot-type, noenhanced, titles */
    so_hrow v[2] = {
        {.instance = (char *)"i_1", .hash = (char *)"h", .problem = (char *)"p",
         .sense = SO_MAXIMIZE, .backend = (char *)"exact_one", .exact = 1,
         .status = (char *)"optimal", .objective = 10, .bound = NAN, .seconds = 1},
        {.instance = (char *)"i_1", .hash = (char *)"h", .problem = (char *)"p",
         .sense = SO_MAXIMIZE, .backend = (char *)"it's_heur", .exact = 0,
         .status = (char *)"feasible", .objective = 5, .bound = NAN, .seconds = 1},
    };
    so_hrows rows = {v, 2, 2};
    so_hkind kind = {"p", "exact_one", ""};
    so_hkinds kinds = {&kind, 1};
    so_htables t;
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, NULL, &t), SO_OK);
    char dir[600], path[700];
    snprintf(dir, sizeof dir, "%s/pngplots", so_test_tmpdir());
    mkdir(dir, 0777);
    setenv("SLOTOPT_GNUPLOT", "/nonexistent/gnuplot", 1);
    int plotted = -1, skipped = -1;
    CU_ASSERT_EQUAL(so_harness_plot_ext(&t, dir, "png", &plotted, &skipped, &err), SO_OK);
    unsetenv("SLOTOPT_GNUPLOT");
    snprintf(path, sizeof path, "%s/gaps-p.gp", dir);
    char *gp = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL(gp && strstr(gp, "set terminal pngcairo "));
    CU_ASSERT_PTR_NOT_NULL(gp && strstr(gp, "noenhanced"));
    CU_ASSERT_PTR_NOT_NULL(gp && strstr(gp, "set output 'gaps-p.png'\n"));
    CU_ASSERT_PTR_NOT_NULL(gp && strstr(gp, "set title 'p: distribution of the ratio to exact_one'"));
    CU_ASSERT_PTR_NOT_NULL(gp && strstr(gp, "title 'it''s_heur'"));
    free(gp);
    so_htables_free(&t);
}

/* With gnuplot installed: the file type follows the extension. */
static void test_plot_files(void)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        return;
    const char *pt = so_test_write("two.json", two_jobs);
    const char *ext[] = {"png", "svg", "pdf"};
    const char *magic[] = {"\x89PNG", "<?xml", "%PDF"};
    for (int i = 0; i < 3; i++) {
        char cmd[1400], path[700];
        snprintf(path, sizeof path, "%s/frontier.%s", so_test_tmpdir(), ext[i]);
        snprintf(cmd, sizeof cmd, "frontier --backend pareto-slots --plot %s %s", path, pt);
        CU_ASSERT_EQUAL(so_test_run(cmd, NULL, NULL), 0);
        char *f = so_test_slurp(path);
        CU_ASSERT_PTR_NOT_NULL(f && !strncmp(f, magic[i], strlen(magic[i])));
        free(f);
        snprintf(path, sizeof path, "%s/util.%s", so_test_tmpdir(), ext[i]);
        snprintf(cmd, sizeof cmd, "sim --scheduler fifo --plot %s "
                                  "instances/cluster/two_pools.json", path);
        CU_ASSERT_EQUAL(so_test_run(cmd, NULL, NULL), 0);
        f = so_test_slurp(path);
        CU_ASSERT_PTR_NOT_NULL(f && !strncmp(f, magic[i], strlen(magic[i])));
        free(f);
    }
}

/* The widest line of text. */
static size_t widest(const char *text)
{
    size_t w = 0;
    while (text && *text) {
        size_t n = strcspn(text, "\n"), chars = 0;
        for (size_t i = 0; i < n; i++) /* UTF-8: count the first bytes */
            chars += ((unsigned char)text[i] & 0xC0) != 0x80;
        w = chars > w ? chars : w;
        text += n + (text[n] == '\n');
    }
    return w;
}

/* bench on simulation cells speaks simulation: the metric in seconds, p95
 * and max beside it, "as good as ref" instead of "% optimal", no
 * infeasible or unproven reference, no "optimal" in the JSON; default
 * tables of both kinds fit 100 columns, --cells shows more. */
static void test_simulation_words(void)
{
    char args[1400], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "bench --workload instances/cluster/flex-fig6b --policies"
             " fair,flex,fifo,lower-bound --sim-reference fair --db %s/words.db",
             so_test_tmpdir());
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "mean_response (s)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "p95 (s)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "max (s)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "as good as ref"));
    CU_ASSERT_PTR_NULL(strstr(out, "optimal"));
    CU_ASSERT_PTR_NULL(strstr(out, "infeasible"));
    CU_ASSERT_PTR_NULL(strstr(out, "unproven"));
    /* lambda=0 fair is its own reference: 1/1 as good, ratio 1 */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "fair             1              824.9"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "1.000             1/1\n"));
    CU_ASSERT(widest(out) <= 100);
    free(out);
    free(err);
    snprintf(args, sizeof args, "report --db %s/words.db --format json", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "\"optimal\""));
    CU_ASSERT_PTR_NULL(strstr(out, "reference_unproven"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"at_least_as_good_as_reference\": true"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "report --db %s/words.db --cells", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "worst vs ref"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "sim s"));
    free(out);
    free(err);
    /* optimisation cells keep their honest columns, narrowed */
    const char *kp = so_test_write("words-kp.json", big_kp);
    snprintf(args, sizeof args, "bench --backends kp-greedy --reference kp-dp --db %s/wkp.db %s",
             so_test_tmpdir(), kp);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "% optimal"));
    CU_ASSERT_PTR_NULL(strstr(out, "ref unproven")); /* the reference proved it */
    CU_ASSERT(widest(out) <= 100);
    free(out);
    free(err);
}

static CU_TestInfo tests[] = {
    {"--format names from one vocabulary in every command", test_format_names},
    {"simulation cells in simulation words, tables within 100 columns",
     test_simulation_words},
    {"--compact: one JSON line in every JSON writer", test_compact},
    {"CSV numbers at 17 significant digits", test_csv_precision},
    {"flex-compare in table, csv and compact json", test_flex_compare_formats},
    {"sim --summary drops the per-job lines", test_sim_summary},
    {"integer objectives exact beyond 2^53 (JSON, text, library)",
     test_exact_integer_objective},
    {"report --group-by: unknown key is an error naming the accepted",
     test_group_by_key},
    {"gnuplot scripts: noenhanced, quoted titles, terminal by extension",
     test_plot_scripts},
    {"plot files: PNG, SVG, PDF by the extension", test_plot_files},
    CU_TEST_INFO_NULL,
};
SO_SUITE("output-vocabulary", tests)
