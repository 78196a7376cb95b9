/* test_harness_claims.c — a scenario's physics settings (policies times
 * settings, names P@S, options merged, the reference moved) and a table's
 * claims (issue 32, item 4): hand-made cells whose per-seed ratios and
 * 95 % intervals are computed by hand give holds / unclear / fails per
 * setting, holds in part over settings, a conjunction failing on one row,
 * the paper's number with a band; difference columns; every bad claim or
 * setting an error at its key. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tools/harness/harness_table.h"
#include "tools/output/output_format.h"

#define HEAD "{\"policies\": [\"fifo\", \"fair\"], \"sim_reference\": \"fair\",\n" \
             " \"inputs\": [{\"workload\": \"cw.json\"}],\n"
#define PHYS " \"physics\": [{\"name\": \"a\"}, {\"name\": \"b\", \"options\":" \
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
    const char *path = so_test_write(name, text);
    so_hconfig_init(c);
    so_hinsts s = {0};
    int rc = so_scenario_load(path, 0, c, &s, sc, err);
    so_hinsts_free(&s);
    return rc;
}

static so_hrow cell(const char *policy, int rep, double v)
{
    so_hrow r;
    memset(&r, 0, sizeof r);
    r.instance = r.hash = (char *)"h";
    r.problem = (char *)"sim";
    r.backend = (char *)policy;
    r.rep = rep;
    r.status = (char *)"simulated";
    r.objective = v;
    r.params = (char *)"{}";
    r.bound = r.seconds = NAN;
    return r;
}

static void test_physics_expand(void)
{
    so_hconfig c;
    so_hscenario sc;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(load(HEAD PHYS " \"table\": {\"rows\": [\"policy\"]}}\n", &c, &sc,
                               &err),
                          SO_OK);
    CU_ASSERT_EQUAL_FATAL(c.n_policies, 6);
    const char *want[] = {"fifo@a", "fifo@b", "fifo@c", "fair@a", "fair@b", "fair@c"};
    for (int i = 0; i < 6; i++)
        CU_ASSERT_STRING_EQUAL(c.policies[i].name, want[i]);
    CU_ASSERT_STRING_EQUAL(c.sim_reference, "fair@a");
    CU_ASSERT_STRING_EQUAL(sc.reference, "fair@a");
    CU_ASSERT_STRING_EQUAL(so_params_get(&c.policies[1].options, "noise_cv"), "0.2");
    CU_ASSERT_PTR_NULL(so_params_get(&c.policies[0].options, "noise_cv"));
    so_hscenario_free(&sc);
    char base[64];
    so_hphysics_base(base, sizeof base, "fair-3@swap=3");
    CU_ASSERT_STRING_EQUAL(base, "fair-3");
    CU_ASSERT_STRING_EQUAL(so_hphysics_of("fair-3@swap=3"), "swap=3");
    CU_ASSERT_STRING_EQUAL(so_hphysics_of("fair"), "-");

    static const struct {
        const char *text, *key, *words;
    } bad[] = {
        {" \"physics\": [{\"name\": \"x@y\"}]", "physics[0].name", "without '@'"},
        {" \"physics\": [{\"name\": \"x\"}, {\"name\": \"x\"}]", "physics[1].name",
         "given twice"},
        {" \"physics\": [{\"name\": \"x\", \"options\": {\"alpha\": 1}}]",
         "physics[0].options.alpha", "not a simulator option"},
        {" \"physics\": [{\"name\": \"x\", \"colour\": 1}]", "physics[0].colour", "unknown"},
        {" \"physics\": []", "physics", ""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1200];
        snprintf(text, sizeof text, HEAD "%s}\n", bad[i].text);
        CU_ASSERT_EQUAL(load(text, &c, &sc, &err), SO_EINVAL);
        CU_ASSERT_STRING_EQUAL(err.key, bad[i].key);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, bad[i].words));
    }
    /* a policy and its setting set the same option */
    CU_ASSERT_EQUAL(load("{\"policies\": [{\"name\": \"f\", \"policy\": \"fifo\", \"options\":"
                         " {\"noise_cv\": 0.1}}], \"inputs\": [{\"workload\": \"cw.json\"}],"
                         PHYS " \"metric\": \"makespan\"}\n", &c, &sc, &err),
                    SO_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "sets 'noise_cv' itself"));
    /* settings need simulation policies */
    CU_ASSERT_EQUAL(load("{\"backends\": \"kp-dp\", \"reference\": \"kp-dp\", \"inputs\":"
                         " [{\"family\": \"knapsack\", \"params\": {\"n\": 5}}]," PHYS
                         " \"time_limit\": 5}\n",
                         &c, &sc, &err),
                    SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "physics");
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
    static const char *const names[2][3] = {{"fifo@a", "fifo@b", "fifo@c"},
                                            {"fair@a", "fair@b", "fair@c"}};
    size_t n = 0;
    for (int s = 0; s < 3; s++)
        for (int r = 0; r < 3; r++) {
            v[n++] = cell(names[0][s], r, fifo[s][r]);
            v[n++] = cell(names[1][s], r, 10);
        }
    so_hrows rows = {v, n, n};
    CU_ASSERT_EQUAL_FATAL(so_htable_build(&sc->tables[0], &rows, &c, sc->reference, t, &err),
                          SO_OK);
}

static void test_verdicts(void)
{
    so_hscenario sc;
    so_htable t;
    build("{\"rows\": [\"physics\", \"policy\"], \"statistic\": \"mean_ci95\",\n"
          "  \"ratios\": [{\"name\": \"over fair\", \"to\": \"fair\"},\n"
          "              {\"name\": \"minus fair\", \"to\": \"fair\", \"kind\": \"difference\"}],\n"
          "  \"paper\": {\"fifo\": {\"over fair\": 2}},\n"
          "  \"claims\": [\n"
          "   {\"claim\": \"fifo slower\", \"column\": \"over fair\", \"above\": 1,"
          "    \"by\": \"physics\", \"rows\": {\"policy\": [\"fifo\"]}},\n"
          "   {\"claim\": \"fifo slower anywhere\", \"column\": \"over fair\", \"above\": 1,"
          "    \"rows\": {\"policy\": [\"fifo\"]}},\n"
          "   {\"claim\": \"every row below 2\", \"column\": \"over fair\", \"below\": 2,"
          "    \"all\": true, \"by\": \"physics\"},\n"
          "   {\"claim\": \"the paper's 2x\", \"column\": \"over fair\", \"paper_within\": 0.5,"
          "    \"by\": \"physics\"}]}",
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
                           "unclear at physics=b/fifo (1); fails at physics=c/fifo (0.5)");
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
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(first, "physics")), "a");
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

/* bench's summary: each cell against the reference under its own setting
 * (fair@b for fifo@b), not the first setting's */
static void test_summary_reference(void)
{
    so_hrow v[] = {cell("fifo@a", 0, 20), cell("fair@a", 0, 10), cell("fifo@b", 0, 30),
                   cell("fair@b", 0, 15)};
    so_hrows rows = {v, 4, 4};
    so_hkind k = {"sim", "fair@a", ""};
    so_hkinds kinds = {&k, 1};
    so_htables t;
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, "", &t), SO_OK);
    CU_ASSERT_EQUAL_FATAL(t.n_cells, 4);
    for (size_t i = 0; i < t.n_cells; i++) {
        const char *b = t.cells[i].row->backend;
        CU_ASSERT_DOUBLE_EQUAL(t.cells[i].gap.ratio, b[1] == 'i' ? 2 : 1, 1e-12);
        CU_ASSERT_STRING_EQUAL(t.cells[i].ref->backend, b[4] == 'a' || b[5] == 'a'
                                                            ? "fair@a" : "fair@b");
    }
    so_htables_free(&t);
}

static CU_TestInfo tests[] = {
    {"bench's summary: the reference under the cell's setting", test_summary_reference},
    {"physics settings multiply the policies", test_physics_expand},
    {"claims: holds, in part, unclear, fails", test_verdicts},
    {"bad claims at their keys", test_bad_claims},
    CU_TEST_INFO_NULL,
};
SO_SUITE("harness-claims", tests)
