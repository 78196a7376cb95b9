/* test_harness_settings.c — a scenario's "settings": each simulation input
 * once per setting (name, params, hash, options, first seed), errors at
 * their key paths, and a setting's run equal to `slotopt sim` with its
 * options and seed; tables order the settings as the scenario lists them. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/tools/harness_testing.h"
#include "tools/harness/harness.h"

#define SIM "{\"policies\": [\"fair\", {\"name\": \"ras\", \"policy\": \"ras\"}],\n" \
            " \"metric\": \"makespan\",\n" \
            " \"inputs\": [{\"family\": \"ras-gridmix-workload\", \"count\": 1}],\n"

static int read_text(const char *text, so_hconfig *c, so_hinsts *s, so_error *err)
{
    return harness_read_scenario("settings.json", text, c, s, err);
}

static void test_expansion(void)
{
    so_hconfig c;
    so_hinsts s;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(read_text(SIM " \"settings\": [{\"name\": \"z-base\"},\n"
                                    "  {\"name\": \"a-noisy\", \"seed\": 6, \"options\":"
                                    " {\"noise_cv\": 0.3, \"swap_penalty\": 3}}]}\n",
                                    &c, &s, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(s.n, 2);
    CU_ASSERT_EQUAL(c.n_settings, 2);
    CU_ASSERT_STRING_EQUAL(c.settings[0], "z-base");
    CU_ASSERT_PTR_NOT_NULL(strstr(s.v[0].name, "@z-base"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s.v[1].name, "@a-noisy"));
    CU_ASSERT_STRING_NOT_EQUAL(s.v[0].hash, s.v[1].hash);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.v[1].params, "\"setting\":\"a-noisy\""));
    CU_ASSERT_EQUAL(s.v[0].first_seed, 1);
    CU_ASSERT_EQUAL(s.v[1].first_seed, 6);
    CU_ASSERT_EQUAL_FATAL(s.v[1].options->n_options, 2);
    CU_ASSERT_STRING_EQUAL(so_params_get(s.v[1].options, "noise_cv"), "0.3");
    CU_ASSERT_EQUAL(s.v[0].options->n_options, 0);
    CU_ASSERT_STRING_EQUAL(s.v[0].workload, s.v[1].workload);
    so_hinsts_free(&s);
}

static void expect(const char *settings, const char *key, const char *words)
{
    char text[2000];
    snprintf(text, sizeof text, SIM " \"settings\": %s}\n", settings);
    so_hconfig c;
    so_hinsts s;
    so_error err;
    CU_ASSERT_EQUAL(read_text(text, &c, &s, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, key);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, words));
    if (strcmp(err.key, key) || !strstr(err.message, words))
        fprintf(stderr, "\n  got key '%s': %s\n", err.key, err.message);
}

static void test_errors(void)
{
    expect("[{\"name\": \"a\", \"options\": {\"cycle\": 3}}]", "settings[0].options.cycle",
           "not an option of policy 'fair'"); /* RAS's only */
    expect("[{\"name\": \"a\"}, {\"name\": \"a\"}]", "settings[1].name", "given twice");
    expect("[{\"name\": \"a/b\"}]", "settings[0].name", "no '/'");
    expect("[{\"name\": \"a\", \"seed\": 0}]", "settings[0].seed", "");
    expect("[{\"name\": \"a\", \"colour\": 1}]", "settings[0].colour", "unknown");
    expect("[]", "settings", "");
    so_hconfig c;
    so_hinsts s;
    so_error err;
    CU_ASSERT_EQUAL(read_text("{\"backends\": \"kp-greedy\", \"reference\": \"kp-dp\",\n"
                              " \"inputs\": [{\"family\": \"knapsack\", \"count\": 1}],\n"
                              " \"settings\": [{\"name\": \"a\"}]}\n", &c, &s, &err),
                    SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "settings");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "simulation cells"));
}

static void test_runs_as_sim(void)
{
    char args[1400], *out = NULL;
    const char *dir = so_test_tmpdir();
    snprintf(args, sizeof args, "gen ras-gridmix-workload --out %s/st-w", dir);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
    const char *sc = so_test_write("st.json",
        SIM " \"settings\": [{\"name\": \"zz-plain\"},\n"
        "  {\"name\": \"s6\", \"seed\": 6, \"options\": {\"swap_penalty\": 30}}],\n"
        " \"table\": {\"rows\": [\"setting\"], \"columns\": \"policy\"}}\n");
    snprintf(args, sizeof args, "bench --scenario %s --db %s/st.db", sc, dir);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "report --scenario %s --db %s/st.db --format json --compact", sc,
             dir);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, NULL), 0);
    json_t *rep = json_loads(out, 0, NULL);
    json_t *rows = json_object_get(json_array_get(json_object_get(rep, "tables"), 0), "rows");
    CU_ASSERT_EQUAL_FATAL(json_array_size(rows), 2);
    /* the scenario's order, not the names' */
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(rows, 0), "label")),
                           "zz-plain");
    double fair6 = json_number_value(json_object_get(json_object_get(
        json_object_get(json_array_get(rows, 1), "values"), "fair"), "mean"));
    double fair1 = json_number_value(json_object_get(json_object_get(
        json_object_get(json_array_get(rows, 0), "values"), "fair"), "mean"));
    snprintf(args, sizeof args, "sim %s/st-w/ras-gridmix-workload-1-0.json --scheduler fair"
             " --seed 6 --opt swap_penalty=30 --summary", dir);
    CU_ASSERT_DOUBLE_EQUAL(fair6, harness_run_number(args, "makespan"), 1e-6);
    snprintf(args, sizeof args, "sim %s/st-w/ras-gridmix-workload-1-0.json --scheduler fair"
             " --seed 1 --summary", dir);
    CU_ASSERT_DOUBLE_EQUAL(fair1, harness_run_number(args, "makespan"), 1e-6);
    CU_ASSERT(fabs(fair6 - fair1) > 1);
    json_decref(rep);
    free(out);
}

/* The run's seed is first_seed + rep; with noise or slow spells each
 * instance (its hash) draws its own, the same for every policy. */
static void test_run_seed(void)
{
    so_hinst a, b, c;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    a.has_seed = b.has_seed = 1;
    a.seed = 1, a.index = 3;       /* the 4th instance of generator seed 1 */
    b.seed = 5, b.index = 0;       /* the first of generator seed 5 */
    b.first_seed = 11;
    c.seed = 7, c.index = 2;       /* not generated (has_seed 0) */
    so_params none, noise, spells;
    so_params_init(&none);
    so_params_init(&noise);
    so_params_init(&spells);
    so_params_set(&none, "map_slots", "2");
    so_params_set(&noise, "noise_cv", "0.2");
    so_params_set(&spells, "slowdown_gap", "600");
    CU_ASSERT_EQUAL(so_harness_run_seed(&a, &none, 0), 1);
    CU_ASSERT_EQUAL(so_harness_run_seed(&a, &none, 2), 3);
    CU_ASSERT_EQUAL(so_harness_run_seed(&b, &none, 0), 11);
    CU_ASSERT_EQUAL(so_harness_run_seed(&a, &noise, 0), 1 + 3000);
    CU_ASSERT_EQUAL(so_harness_run_seed(&a, &noise, 1), 2 + 3000);
    CU_ASSERT_EQUAL(so_harness_run_seed(&b, &spells, 0), 11 + 4000);
    CU_ASSERT_EQUAL(so_harness_run_seed(&c, &noise, 0), 1);
    a.index = 0; /* the first instance of seed 1: the repetition's seed */
    CU_ASSERT_EQUAL(so_harness_run_seed(&a, &noise, 0), 1);
    so_params_set(&noise, "noise_cv", "0");
    b.index = 1;
    CU_ASSERT_EQUAL(so_harness_run_seed(&b, &noise, 0), 11);
}

static CU_TestInfo tests[] = {
    {"noise and spells draw per instance", test_run_seed},
    {"each input once per setting", test_expansion},
    {"settings errors at their key paths", test_errors},
    {"a setting's cell is slotopt sim with its options and seed", test_runs_as_sim},
    CU_TEST_INFO_NULL,
};

SO_SUITE("harness-settings", tests)
