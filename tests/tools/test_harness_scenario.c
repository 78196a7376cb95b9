/* test_harness_scenario.c — scenario files (strict, located errors, a
 * mutation fuzz), scenario lookup, instance lists and content hashes. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include "tests/test_util.h"
#include "tests/tools/harness_testing.h"
#include "tools/harness/harness.h"

static const char *kp(int capacity)
{
    static char buf[4][200];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, 200, "{\"problem\": \"knapsack\", \"version\": 1, \"capacity\": %d,"
                     " \"profits\": [3, 4, 5], \"weights\": [2, 3, 4]}", capacity);
    return b;
}

static int read_scenario(const char *text, so_hconfig *c, so_hinsts *s, so_error *err)
{
    return harness_read_scenario("scenario.json", text, c, s, err);
}

static void test_valid(void)
{
    so_test_write("sc-a.json", kp(5));
    so_test_write("sc-b.json", kp(6));
    so_hconfig c;
    so_hinsts s;
    so_error err;
    int rc = read_scenario(
        "{\"description\": \"d\", \"backends\": [\"kp-greedy\"],\n"
        " \"reference\": \"kp-glpk\", \"time_limit\": 2.5, \"repetitions\": 2,\n"
        " \"jobs\": 3, \"group_by\": \"class\", \"inputs\": [\n"
        "  {\"family\": \"knapsack\", \"params\": {\"n\": 12, \"class\": \"strongly\","
        " \"capacity\": 0.25}, \"count\": 3, \"seed\": 5},\n"
        "  {\"family\": \"knapsack\", \"params\": {\"n\": 12, \"class\": \"strongly\","
        " \"capacity\": 0.25}, \"count\": 4, \"seed\": 5},\n"
        "  {\"path\": \"sc-a.json\"}, {\"path\": \"sc-b.json\"}, {\"path\": \"sc-a.json\"}]}\n",
        &c, &s, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    CU_ASSERT_EQUAL(c.n_backends, 2);
    CU_ASSERT_PTR_EQUAL(c.backends[0], so_backend_find("kp-greedy"));
    CU_ASSERT_PTR_EQUAL(c.backends[1], so_backend_find("kp-glpk"));
    CU_ASSERT_EQUAL(c.n_refs, 1);
    CU_ASSERT_DOUBLE_EQUAL(c.time_limit, 2.5, 0);
    CU_ASSERT_EQUAL(c.reps, 2);
    CU_ASSERT_EQUAL(c.jobs, 3);
    CU_ASSERT_STRING_EQUAL(c.group_by, "class");
    /* 4 generated (the first 3 repeat) + 2 files (one repeated) */
    CU_ASSERT_EQUAL_FATAL(s.n, 6);
    CU_ASSERT_STRING_EQUAL(s.v[0].name, "knapsack-n=12-class=strongly-capacity=0.25-s5-i0");
    CU_ASSERT_STRING_EQUAL(s.v[0].family, "knapsack");
    CU_ASSERT_TRUE(s.v[0].has_seed && s.v[0].seed == 5 && s.v[3].index == 3);
    json_t *params = json_loads(s.v[0].params, 0, NULL);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(params, "class")), "strongly");
    /* meta.params keeps numbers as JSON numbers (issue 19) */
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(params, "n")), 12);
    CU_ASSERT_TRUE(json_is_integer(json_object_get(params, "n")));
    json_decref(params);
    CU_ASSERT_STRING_EQUAL(s.v[4].name, "sc-a");
    CU_ASSERT_PTR_NULL(s.v[4].family);
    CU_ASSERT_FALSE(s.v[4].has_seed);
    CU_ASSERT_STRING_EQUAL(s.v[5].name, "sc-b");
    so_hinsts_free(&s);
}

/* text must fail with err.key == key at line (0: any) and a message
 * containing msg. */
static void expect_error(const char *text, const char *key, int line, const char *msg)
{
    so_hconfig c;
    so_hinsts s;
    so_error err;
    int rc = read_scenario(text, &c, &s, &err);
    CU_ASSERT_EQUAL(rc, SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, key);
    if (line)
        CU_ASSERT_EQUAL(err.line, line);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, msg));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.file, "scenario.json"));
    if (strcmp(err.key, key) || !strstr(err.message, msg))
        fprintf(stderr, "\n  got key '%s' line %d: %s\n", err.key, err.line, err.message);
}

#define HEAD "{\"backends\": [\"kp-greedy\"], \"reference\": \"kp-glpk\",\n"
#define FAM "{\"family\": \"knapsack\", \"count\": 1"

static void test_errors(void)
{
    expect_error(HEAD " \"input\": []}", "input", 2, "unknown key");
    expect_error(HEAD " \"inputs\": []}", "inputs", 2, "");
    expect_error("{\"backends\": [\"kp-greedy\", \"zz\"], \"reference\": \"kp-glpk\","
                 " \"inputs\": [" FAM "}]}", "backends[1]", 1, "unknown backend 'zz'");
    expect_error("{\"backends\": [], \"reference\": \"kp-glpk\", \"inputs\": [" FAM "}]}",
                 "backends", 1, "non-empty array");
    expect_error("{\"backends\": \"kp-greedy\", \"inputs\": [" FAM "}]}", "reference", 0,
                 "");
    expect_error(HEAD " \"inputs\": [\n" FAM ", \"path\": \"x\"}]}", "inputs[0]", 3,
                 "exactly one of");
    expect_error(HEAD " \"inputs\": [\n{\"family\": \"nope\", \"count\": 1}]}",
                 "inputs[0].family", 3, "unknown family 'nope'");
    expect_error(HEAD " \"inputs\": [\n" FAM ",\n \"params\": {\"class\": \"nope\"}}]}",
                 "inputs[0].params.class", 4, "unknown class 'nope'");
    expect_error(HEAD " \"inputs\": [\n" FAM ",\n \"params\": {\"colour\": 1}}]}",
                 "inputs[0].params.colour", 4, "unknown option for family");
    expect_error(HEAD " \"inputs\": [\n" FAM ",\n \"params\": {\"n\": true}}]}",
                 "inputs[0].params.n", 4, "expected a string or a number");
    expect_error(HEAD " \"inputs\": [\n{\"family\": \"knapsack\", \"count\": 0}]}",
                 "inputs[0].count", 3, "");
    expect_error(HEAD " \"time_limit\": -1, \"inputs\": [" FAM "}]}", "time_limit", 2, "");
    expect_error(HEAD " \"timeline\": 20, \"inputs\": [" FAM "}]}", "timeline", 2,
                 "needs simulation cells");
    expect_error(HEAD " \"timeline\": 0, \"inputs\": [" FAM "}]}", "timeline", 2, "");
    expect_error(HEAD " \"inputs\": [" FAM ", \"seed\": 1, \"path\": 3}]}",
                 "inputs[0].path", 2, "");
    expect_error(HEAD " \"inputs\": [{\"path\": \"x\", \"count\": 2}]}", "inputs[0].count",
                 2, "unknown key");
    expect_error("[1, 2]", "", 1, "expected a JSON object");
    so_hconfig c;
    so_hinsts s;
    so_error err;
    CU_ASSERT_EQUAL(read_scenario(HEAD " \"inputs\": [}", &c, &s, &err), SO_EINVAL);
    CU_ASSERT_EQUAL(err.line, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "invalid JSON"));
    /* an instance file's own error names that file */
    so_test_write("sc-bad.json", "{\"problem\": \"knapsack\", \"version\": 1,\n \"capacity\": -5,"
                                 " \"profits\": [1], \"weights\": [1]}");
    CU_ASSERT_EQUAL(read_scenario(HEAD " \"inputs\": [{\"path\": \"sc-bad.json\"}]}", &c, &s,
                                  &err), SO_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.file, "sc-bad.json"));
    CU_ASSERT_EQUAL(err.line, 2);
    CU_ASSERT_EQUAL(read_scenario(HEAD " \"inputs\": [{\"path\": \"sc-missing.json\"}]}", &c,
                                  &s, &err), SO_EIO);
    memset(&s, 0, sizeof s);
    CU_ASSERT_EQUAL(so_scenario_read("/nonexistent/x.json", &c, &s, &err), SO_EIO);
}

static void test_fuzz(void)
{
    const char *valid = HEAD " \"time_limit\": 3, \"repetitions\": 1, \"group_by\": \"n\",\n"
                             " \"inputs\": [{\"family\": \"knapsack\", \"params\": {\"n\": 6,"
                             " \"class\": \"weakly\"}, \"count\": 2, \"seed\": 9}]}";
    const char alphabet[] = "{}[]\":,0123456789-.eE tfnaxyz\\";
    size_t len = strlen(valid);
    char *text = malloc(len + 1);
    so_rng rng;
    so_rng_seed(&rng, 2026);
    int ok = 0;
    for (int iter = 0; iter < 600; iter++) {
        memcpy(text, valid, len + 1);
        int edits = (int)so_rng_int(&rng, 1, 4);
        for (int e = 0; e < edits; e++)
            text[so_rng_int(&rng, 0, (int64_t)len - 1)] =
                alphabet[so_rng_int(&rng, 0, (int64_t)sizeof alphabet - 2)];
        so_hconfig c;
        so_hinsts s;
        so_error err;
        int rc = read_scenario(text, &c, &s, &err);
        CU_ASSERT_TRUE(rc == SO_OK || rc == SO_EINVAL || rc == SO_EIO);
        if (rc == SO_OK) {
            ok++;
            so_hinsts_free(&s);
        }
    }
    CU_ASSERT_TRUE(ok > 0);
    free(text);
}

static void test_shipped_and_lookup(void)
{
    DIR *d = opendir("instances/scenarios");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".json"))
            continue;
        char path[600];
        snprintf(path, sizeof path, "instances/scenarios/%s", e->d_name);
        so_hconfig c;
        so_hinsts s = {0};
        so_error err;
        so_hconfig_init(&c);
        int rc = so_scenario_read(path, &c, &s, &err);
        CU_ASSERT_EQUAL(rc, SO_OK);
        if (rc) {
            char buf[1600];
            fprintf(stderr, "\n  %s\n", so_error_format(&err, buf, sizeof buf));
        }
        CU_ASSERT_TRUE(s.n > 0 && (c.n_refs > 0 || c.n_policies > 0)); /* solve or simulation cells */
        so_hinsts_free(&s);
        n++;
    }
    closedir(d);
    CU_ASSERT_TRUE(n >= 1);
    char path[4096];
    CU_ASSERT_EQUAL(so_scenario_find("knapsack", path, sizeof path), 0);
    CU_ASSERT_STRING_EQUAL(path, "instances/scenarios/knapsack.json");
    CU_ASSERT_EQUAL(so_scenario_find("no-such-scenario", path, sizeof path), -1);
    so_test_write("mine.json", "{}");
    setenv("SLOTOPT_SCENARIOS", so_test_tmpdir(), 1);
    CU_ASSERT_EQUAL(so_scenario_find("mine", path, sizeof path), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(path, "/mine.json"));
    unsetenv("SLOTOPT_SCENARIOS");
    CU_ASSERT_EQUAL(so_scenario_find(so_test_write("direct.json", "{}"), path, sizeof path), 0);
    /* a folder is not a scenario file (else a folder named like a scenario
     * in the working folder would shadow the scenario) */
    char sub[700];
    snprintf(sub, sizeof sub, "%s/mine", so_test_tmpdir());
    CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0777), 0);
    CU_ASSERT_EQUAL(so_scenario_find(sub, path, sizeof path), -1);
    CU_ASSERT_EQUAL(so_scenario_find(so_test_tmpdir(), path, sizeof path), -1);
}

static void test_inputs_and_hash(void)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/folder", so_test_tmpdir());
    mkdir(dir, 0777);
    so_test_write("folder/b.json", kp(7));
    so_test_write("folder/a.json", kp(8));
    so_test_write("folder/README.md", "notes");
    so_test_write("folder/optima.csv", "a,1");
    so_test_write("folder/.hidden", "x");
    /* same content as a.json with another name and a "meta": one hash */
    so_test_write("c-copy.json", "{\"problem\": \"knapsack\", \"version\": 1, \"meta\": {\"x\": 1},"
                                 " \"weights\": [2, 3, 4], \"capacity\": 8,"
                                 " \"profits\": [3, 4, 5]}");
    so_hinsts s = {0};
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_hinsts_add_path(&s, dir, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(s.n, 2);
    CU_ASSERT_STRING_EQUAL(s.v[0].name, "a");
    CU_ASSERT_STRING_EQUAL(s.v[1].name, "b");
    CU_ASSERT_STRING_NOT_EQUAL(s.v[0].hash, s.v[1].hash);
    CU_ASSERT_EQUAL(strlen(s.v[0].hash), 16);
    CU_ASSERT_EQUAL(so_hinsts_add_path(&s, so_test_write("d.json", kp(8)), &err), SO_OK);
    CU_ASSERT_EQUAL(s.n, 2);
    char path[600];
    snprintf(path, sizeof path, "%s/c-copy.json", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_hinsts_add_path(&s, path, &err), SO_OK);
    CU_ASSERT_EQUAL(s.n, 2);
    CU_ASSERT_EQUAL(so_hinsts_add_path(&s, so_test_write("e.json", kp(9)), &err), SO_OK);
    CU_ASSERT_EQUAL(s.n, 3);
    so_hinsts_free(&s);
    snprintf(path, sizeof path, "%s/empty", so_test_tmpdir());
    mkdir(path, 0777);
    CU_ASSERT_EQUAL(so_hinsts_add_path(&s, path, &err), SO_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "no instance file"));
    CU_ASSERT_EQUAL(so_hinsts_add_path(&s, "/nonexistent/file.json", &err), SO_EIO);
    so_hinsts_free(&s);
}

static CU_TestInfo tests[] = {
    {"a valid scenario: settings, families, files", test_valid},
    {"scenario errors carry file, line and key path", test_errors},
    {"mutated scenarios: ok or an error, never a crash", test_fuzz},
    {"shipped scenarios read; lookup by name", test_shipped_and_lookup},
    {"folders, duplicates and content hashes", test_inputs_and_hash},
    CU_TEST_INFO_NULL,
};
SO_SUITE("harness-scenario", tests)
