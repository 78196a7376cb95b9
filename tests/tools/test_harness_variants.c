/* test_harness_variants.c — named backends with their own options in solve
 * scenarios ({"name", "backend", "options"}): read strictly (errors at
 * their key paths), usable as the reference, and a cell equal to `slotopt
 * solve --opt` with the same options. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/tools/harness_testing.h"

#define TAIL " \"inputs\": [{\"family\": \"knapsack\", \"count\": 1}]}\n"

static void test_read(void)
{
    so_hconfig c;
    so_hinsts s;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(harness_read_scenario("v.json",
        "{\"backends\": [\"kp-greedy\", {\"name\": \"bnb-short\", \"backend\": \"kp-bnb\","
        " \"options\": {\"time_limit_check\": 64}}],\n \"reference\": \"bnb-short\",\n" TAIL,
        &c, &s, &err), SO_EINVAL); /* not an option of kp-bnb */
    CU_ASSERT_STRING_EQUAL(err.key, "backends[1].options.time_limit_check");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "not an option of backend 'kp-bnb'"));
    CU_ASSERT_EQUAL_FATAL(harness_read_scenario("v.json",
        "{\"backends\": [{\"name\": \"slots-adjust\", \"backend\": \"pareto-slots\","
        " \"options\": {\"tasks\": \"adjust\"}}, \"pareto-vms\"],\n"
        " \"reference\": \"slots-adjust\",\n"
        " \"inputs\": [{\"family\": \"pareto-taobao\", \"count\": 1}]}\n", &c, &s, &err), SO_OK);
    CU_ASSERT_EQUAL(c.n_variants, 1);
    CU_ASSERT_EQUAL(c.n_backends, 2);
    CU_ASSERT_STRING_EQUAL(c.backends[0]->name, "slots-adjust");
    CU_ASSERT_PTR_EQUAL(c.refs[0], c.backends[0]);
    CU_ASSERT_PTR_EQUAL(c.backends[0]->solve, so_backend_find("pareto-slots")->solve);
    const so_params *o = so_hconfig_options(&c, c.backends[0]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    CU_ASSERT_STRING_EQUAL(so_params_get(o, "tasks"), "adjust");
    CU_ASSERT_PTR_NULL(so_hconfig_options(&c, c.backends[1]));
    so_hinsts_free(&s);
    static const struct {
        const char *entry, *key, *words;
    } bad[] = {
        {"{\"name\": \"kp-dp\", \"backend\": \"kp-bnb\"}", "backends[0].name",
         "registered backend"},
        {"{\"name\": \"x\", \"backend\": \"kp-nope\"}", "backends[0].backend",
         "unknown backend"},
        {"{\"name\": \"x\"}", "backends[0].backend", ""},
        {"{\"name\": \"x\", \"backend\": \"kp-dp\", \"opts\": {}}", "backends[0].opts",
         "unknown"},
        {"{\"name\": \"x\", \"backend\": \"kp-dp\", \"options\": {\"a\": [1]}}",
         "backends[0].options.a", "a string or a number"},
        {"{\"name\": \"x\", \"backend\": \"kp-dp\"}, {\"name\": \"x\", \"backend\": \"kp-bnb\"}",
         "backends[1].name", "given twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1000];
        snprintf(text, sizeof text, "{\"backends\": [%s],\n \"reference\": \"kp-dp\",\n" TAIL,
                 bad[i].entry);
        CU_ASSERT_EQUAL(harness_read_scenario("v.json", text, &c, &s, &err), SO_EINVAL);
        CU_ASSERT_STRING_EQUAL(err.key, bad[i].key);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, bad[i].words));
        if (strcmp(err.key, bad[i].key) || !strstr(err.message, bad[i].words))
            fprintf(stderr, "\n  entry %zu: key '%s': %s\n", i, err.key, err.message);
    }
}

static void test_cell_is_solve(void)
{
    char args[1400], *out = NULL;
    const char *dir = so_test_tmpdir();
    char *w = so_test_slurp("instances/pareto/puma-twitter.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    const char *inst = so_test_write("v-twitter.json", w);
    free(w);
    char sc[1200];
    snprintf(sc, sizeof sc,
             "{\"backends\": [\"pareto-slots\", {\"name\": \"slots-adjust\", \"backend\":"
             " \"pareto-slots\", \"options\": {\"tasks\": \"adjust\"}}],\n"
             " \"reference\": \"pareto-sweep\",\n \"inputs\": [{\"path\": \"%s\"}],\n"
             " \"table\": {\"rows\": [\"policy\"]}}\n", inst);
    const char *path = so_test_write("v-run.json", sc);
    snprintf(args, sizeof args, "bench --scenario %s --db %s/v.db", path, dir);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "report --scenario %s --db %s/v.db --format json --compact",
             path, dir);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, NULL), 0);
    json_t *rep = json_loads(out, 0, NULL);
    json_t *rows = json_object_get(json_array_get(json_object_get(rep, "tables"), 0), "rows");
    CU_ASSERT_EQUAL_FATAL(json_array_size(rows), 3);
    double v[3];
    for (size_t i = 0; i < 3; i++) {
        json_t *vals = json_object_get(json_array_get(rows, i), "values");
        v[i] = json_number_value(json_object_get(json_object_iter_value(json_object_iter(vals)),
                                                 "mean"));
    }
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(rows, 1), "label")),
                           "slots-adjust");
    snprintf(args, sizeof args, "solve --backend pareto-slots %s", inst);
    CU_ASSERT_DOUBLE_EQUAL(v[0], harness_run_number(args, "objective"), 1e-6);
    snprintf(args, sizeof args, "solve --backend pareto-slots --opt tasks=adjust %s", inst);
    CU_ASSERT_DOUBLE_EQUAL(v[1], harness_run_number(args, "objective"), 1e-6);
    CU_ASSERT(fabs(v[0] - v[1]) > 1); /* the option acted */
    json_decref(rep);
    free(out);
}

static CU_TestInfo tests[] = {
    {"named backends read strictly", test_read},
    {"a named backend's cell is solve --opt", test_cell_is_solve},
    CU_TEST_INFO_NULL,
};

SO_SUITE("harness-variants", tests)
