/* test_harness_claims.c — a table's claims (issue 32, item 4): hand-made
 * cells under three settings (docs/harness.md, "Settings") whose per-seed
 * ratios and 95 % intervals are computed by hand give holds / unclear /
 * fails per setting, holds in part over settings, a conjunction failing on
 * one row, the paper's number (keyed without the setting) with a band;
 * difference columns; every bad claim an error at its key. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/tools/harness_testing.h"
#include "tools/harness/harness_table.h"
#include "tools/output/output_format.h"

#define HEAD "{\"policies\": [\"fifo\", \"fair\"], \"sim_reference\": \"fair\",\n" \
             " \"inputs\": [{\"workload\": \"cw.json\"}],\n"
#define PHYS " \"settings\": [{\"name\": \"a\"}, {\"name\": \"b\", \"options\":" \
             " {\"noise_cv\": 0.2}}, {\"name\": \"c\"}],\n"

static int load(const char *text, so_hconfig *c, so_hscenario *sc, so_error *err)
{
    char *w = so_test_slurp("instances/cluster/two_pools.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    so_test_write("cw.json", w);
    free(w);
    char name[64];
    static int k;
    snprintf(name, sizeof name, "claims-%d.json", k++);
    return harness_load_scenario(name, text, 0, c, sc, err);
}

/* A cell of the input under setting k (0, 1, 2: a, b, c), as the harness
 * makes it: an instance of its own with "setting" among its parameters. */
static so_hrow cell(const char *policy, int k, int rep, double v)
{
    static const char *const hash[] = {"ha", "hb", "hc"};
    static const char *const params[] = {"{\"setting\": \"a\"}", "{\"setting\": \"b\"}",
                                         "{\"setting\": \"c\"}"};
    so_hrow r;
    memset(&r, 0, sizeof r);
    r.instance = r.hash = (char *)hash[k];
    r.problem = (char *)"sim";
    r.backend = (char *)policy;
    r.rep = rep;
    r.status = (char *)"simulated";
    r.objective = v;
    r.params = (char *)params[k];
    r.bound = r.seconds = NAN;
    return r;
}

/* fifo over fair per seed: setting a 2.1, 2.2, 2.3 (mean 2.2, sd 0.1, 95 %
 * interval 2.2 +- 4.303 x 0.1 / sqrt 3 = [1.952, 2.448]); b 0.9, 1.1, 1.0
 * ([0.752, 1.248]); c 0.5 three times ([0.5, 0.5]). */
static void build(const char *table, so_hscenario *sc, so_htable *t)
{
    char text[3000];
    snprintf(text, sizeof text, HEAD PHYS " \"table\": %s}\n", table);
    static so_hconfig c;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(load(text, &c, sc, &err), SO_OK);
    static so_hrow v[18];
    static const double fifo[3][3] = {{21, 22, 23}, {9, 11, 10}, {5, 5, 5}};
    size_t n = 0;
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++) {
            v[n++] = cell("fifo", k, r, fifo[k][r]);
            v[n++] = cell("fair", k, r, 10);
        }
    so_hrows rows = {v, n, n};
    CU_ASSERT_EQUAL_FATAL(so_htable_build(&sc->tables[0], &rows, &c, sc->reference, t, &err),
                          SO_OK);
}

static void test_verdicts(void)
{
    so_hscenario sc;
    so_htable t;
    build("{\"rows\": [\"setting\", \"policy\"], \"statistic\": \"mean_ci95\",\n"
          "  \"ratios\": [{\"name\": \"over fair\", \"to\": \"fair\"},\n"
          "              {\"name\": \"minus fair\", \"to\": \"fair\", \"kind\": \"difference\"}],\n"
          "  \"paper\": {\"fifo\": {\"over fair\": 2}},\n"
          "  \"claims\": [\n"
          "   {\"claim\": \"fifo slower\", \"column\": \"over fair\", \"above\": 1,"
          "    \"by\": \"setting\", \"rows\": {\"policy\": [\"fifo\"]}},\n"
          "   {\"claim\": \"fifo slower anywhere\", \"column\": \"over fair\", \"above\": 1,"
          "    \"rows\": {\"policy\": [\"fifo\"]}},\n"
          "   {\"claim\": \"every row below 2\", \"column\": \"over fair\", \"below\": 2,"
          "    \"all\": true, \"by\": \"setting\"},\n"
          "   {\"claim\": \"the paper's 2x\", \"column\": \"over fair\", \"paper_within\": 0.5,"
          "    \"by\": \"setting\"}]}",
          &sc, &t);
    CU_ASSERT_EQUAL_FATAL(t.n_rows, 6);
    CU_ASSERT_STRING_EQUAL(t.rows[0].label, "a/fifo");
    CU_ASSERT_STRING_EQUAL(t.rows[0].keys[1], "fifo");
    CU_ASSERT_DOUBLE_EQUAL(t.rows[0].ratios[0].mean, 2.2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[0].ratios[0].lo, 2.2 - 4.303 * 0.1 / sqrt(3), 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[0].ratios[1].mean, 12, 1e-12); /* 11, 12, 13 */
    CU_ASSERT_DOUBLE_EQUAL(t.rows[2].ratios[0].mean, 1.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[4].ratios[0].sd, 0, 1e-12);
    /* the paper's number reaches the row under every setting */
    CU_ASSERT_PTR_NOT_NULL(t.rows[2].paper);
    /* claims: 3 settings, 1 group, 3 settings, 3 settings */
    CU_ASSERT_EQUAL_FATAL(t.n_verdicts, 10);
    CU_ASSERT_STRING_EQUAL(t.verdicts[0].group, "a");
    CU_ASSERT_EQUAL(t.verdicts[0].verdict, SO_HV_HOLDS);
    CU_ASSERT_EQUAL(t.verdicts[1].verdict, SO_HV_UNCLEAR);
    CU_ASSERT_EQUAL(t.verdicts[2].verdict, SO_HV_FAILS);
    CU_ASSERT_STRING_EQUAL(t.verdicts[2].where, "fails at fifo (0.5)");
    /* over the settings: one holds, one unclear, one fails */
    CU_ASSERT_EQUAL(t.verdicts[3].verdict, SO_HV_PART);
    CU_ASSERT_EQUAL(t.verdicts[3].n_holds, 1);
    CU_ASSERT_EQUAL(t.verdicts[3].n_fails, 1);
    CU_ASSERT_STRING_EQUAL(t.verdicts[3].where,
                           "unclear at setting=b/fifo (1); fails at setting=c/fifo (0.5)");
    /* a conjunction: a's fifo [1.95, 2.45] straddles 2 (fair's 1 holds):
     * unclear; b and c hold on every row */
    CU_ASSERT_EQUAL(t.verdicts[4].verdict, SO_HV_UNCLEAR);
    CU_ASSERT_EQUAL(t.verdicts[5].verdict, SO_HV_HOLDS);
    CU_ASSERT_EQUAL(t.verdicts[6].verdict, SO_HV_HOLDS);
    /* the paper's 2 +- 0.5: a [1.95, 2.45] holds; b and c miss the band
     * (the fair rows have no paper number and are skipped) */
    CU_ASSERT_EQUAL(t.verdicts[7].verdict, SO_HV_HOLDS);
    CU_ASSERT_EQUAL(t.verdicts[7].n_holds, 1);
    CU_ASSERT_EQUAL(t.verdicts[8].verdict, SO_HV_FAILS);
    CU_ASSERT_EQUAL(t.verdicts[9].verdict, SO_HV_FAILS);
    CU_ASSERT_STRING_EQUAL(so_hverdict_word(SO_HV_PART), "holds in part");
    /* printed: markdown rows and JSON */
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    so_htable_print(fp, &t, SO_HF_MARKDOWN);
    fclose(fp);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "| fifo slower | over fair > 1 | a | **holds** |  |\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "|  |  | c | **fails** | fails at fifo (0.5) |\n"));
    free(buf);
    json_t *j = so_htable_json(&t);
    json_t *first = json_array_get(json_object_get(j, "claims"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(first, "verdict")), "holds");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(first, "setting")), "a");
    json_decref(j);
    so_htable_free(&t);
    so_hscenario_free(&sc);
}

static void test_bad_claims(void)
{
    static const struct {
        const char *claim, *key, *words;
    } bad[] = {
        {"{\"claim\": \"x\", \"column\": \"nope\", \"above\": 1}", "table.claims[0].column",
         "one of the table's ratios"},
        {"{\"claim\": \"x\", \"column\": \"r\", \"above\": 1, \"below\": 2}", "table.claims[0]",
         "exactly one of"},
        {"{\"claim\": \"x\", \"column\": \"r\"}", "table.claims[0]", "exactly one of"},
        {"{\"claim\": \"x\", \"column\": \"r\", \"above\": 1, \"by\": \"load\"}",
         "table.claims[0].by", "row keys"},
        {"{\"claim\": \"x\", \"column\": \"r\", \"paper_within\": 0.1}", "table.claims[0]",
         "needs the table's \"paper\""},
        {"{\"claim\": \"x\", \"column\": \"r\", \"above\": 1, \"all\": 1}",
         "table.claims[0].all", "true or false"},
        {"{\"claim\": \"x\", \"column\": \"r\", \"above\": 1, \"rows\": {\"seed\": [1]}}",
         "table.claims[0].rows.seed", "row keys"},
        {"{\"claim\": \"\", \"column\": \"r\", \"above\": 1}", "table.claims[0].claim",
         "characters"},
        {"{\"claim\": \"x\", \"column\": \"r\", \"above\": 1, \"colour\": 2}",
         "table.claims[0].colour", "unknown"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1500];
        snprintf(text, sizeof text, HEAD " \"table\": {\"rows\": [\"policy\"], \"ratios\":"
                 " [{\"name\": \"r\", \"to\": \"fair\"}], \"claims\": [%s]}}\n", bad[i].claim);
        so_hconfig c;
        so_hscenario sc;
        so_error err;
        CU_ASSERT_EQUAL(load(text, &c, &sc, &err), SO_EINVAL);
        CU_ASSERT_STRING_EQUAL(err.key, bad[i].key);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, bad[i].words));
    }
    so_hconfig c;
    so_hscenario sc;
    so_error err;
    CU_ASSERT_EQUAL(load(HEAD " \"table\": {\"rows\": [\"policy\"], \"ratios\": [{\"name\":"
                         " \"r\", \"kind\": \"quotient\"}]}}\n", &c, &sc, &err),
                    SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "table.ratios[0].kind");
}

/* "columns": "policy": a claim's column is checked against the ratios and
 * the scenario's (or the table's) policies at read. */
static void test_claim_names(void)
{
    static const struct {
        const char *table, *key;
    } cases[] = {
        {"\"rows\": [\"instance\"], \"columns\": \"policy\", \"claims\": [{\"claim\":"
         " \"x\", \"column\": \"fiar\", \"below\": 1}]", "table.claims[0].column"},
        {"\"rows\": [\"instance\"], \"columns\": \"policy\", \"policies\": [\"fair\"],"
         " \"claims\": [{\"claim\": \"x\", \"column\": \"fifo\", \"below\": 1}]",
         "table.claims[0].column"},
        {"\"rows\": [\"instance\"], \"columns\": \"policy\", \"claims\": [{\"claim\":"
         " \"x\", \"column\": \"fair\", \"below\": 1}]", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1500];
        snprintf(text, sizeof text, HEAD " \"table\": {\"ratios\": [{\"name\": \"r\","
                 " \"of\": \"fifo\", \"to\": \"fair\"}], %s}}\n", cases[i].table);
        so_hconfig c;
        so_hscenario sc;
        so_error err;
        int rc = load(text, &c, &sc, &err);
        if (!cases[i].key) {
            CU_ASSERT_EQUAL(rc, SO_OK);
            if (!rc)
                so_hscenario_free(&sc);
            continue;
        }
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        CU_ASSERT_STRING_EQUAL(err.key, cases[i].key);
    }
}

/* A claim whose rows match no data is "no data", counted for report's
 * exit status; a row of one seed is unclear, never a verdict, with n. */
static void test_nodata_and_one_seed(void)
{
    so_hscenario sc;
    so_htable t;
    build("{\"rows\": [\"setting\", \"policy\"], \"statistic\": \"mean_ci95\",\n"
          "  \"ratios\": [{\"name\": \"over fair\", \"to\": \"fair\"}],\n"
          "  \"claims\": [{\"claim\": \"none\", \"column\": \"over fair\", \"above\": 1,"
          "    \"rows\": {\"setting\": [\"z\"]}},\n"
          "   {\"claim\": \"some\", \"column\": \"over fair\", \"above\": 1,"
          "    \"rows\": {\"setting\": [\"a\"], \"policy\": [\"fifo\"]}}]}",
          &sc, &t);
    CU_ASSERT_EQUAL_FATAL(t.n_verdicts, 2);
    CU_ASSERT_EQUAL(t.verdicts[0].verdict, SO_HV_NODATA);
    CU_ASSERT_EQUAL(t.verdicts[1].verdict, SO_HV_HOLDS);
    CU_ASSERT_EQUAL(so_htable_nodata(&t, NULL, ""), 1);
    so_htable_free(&t);
    so_hscenario_free(&sc);
    /* one seed: setting a's fifo/fair is 2.1 alone */
    so_hconfig c;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(load(HEAD PHYS " \"table\": {\"rows\": [\"setting\", \"policy\"],"
                               " \"statistic\": \"mean_ci95\", \"ratios\": [{\"name\": \"r\","
                               " \"to\": \"fair\"}], \"claims\": [{\"claim\": \"x\", \"column\":"
                               " \"r\", \"above\": 1, \"rows\": {\"policy\": [\"fifo\"]}}]}}\n",
                               &c, &sc, &err), SO_OK);
    so_hrow v[2] = {cell("fifo", 0, 0, 21), cell("fair", 0, 0, 10)};
    so_hrows rows = {v, 2, 2};
    CU_ASSERT_EQUAL_FATAL(so_htable_build(&sc.tables[0], &rows, &c, sc.reference, &t, &err),
                          SO_OK);
    CU_ASSERT_EQUAL_FATAL(t.n_verdicts, 1);
    CU_ASSERT_EQUAL(t.verdicts[0].verdict, SO_HV_UNCLEAR);
    CU_ASSERT_STRING_EQUAL(t.verdicts[0].where, "unclear at setting=a/fifo (2.1, n=1)");
    so_htable_free(&t);
    so_hscenario_free(&sc);
}

static CU_TestInfo tests[] = {
    {"claim columns and rows named at read", test_claim_names},
    {"no data counted; one seed unclear", test_nodata_and_one_seed},
    {"claims: holds, in part, unclear, fails", test_verdicts},
    {"bad claims at their keys", test_bad_claims},
    CU_TEST_INFO_NULL,
};
SO_SUITE("harness-claims", tests)
