/* test_cluster_physics_options.c — issue 32, item 1: no option silently
 * does nothing (cluster/run_checks.c) and every report records the options
 * that shaped it (cluster/report.c). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include "tests/cluster/cluster_test.h"

/* Runs `sim ARGS`; returns the exit code, the parsed report in *j (NULL
 * when the output is no JSON) and stderr in *err (caller frees). */
static int sim_json(const char *args, json_t **j, char **err)
{
    char cmd[4096], *out = NULL;
    snprintf(cmd, sizeof cmd, "sim %s", args);
    int rc = so_test_run(cmd, &out, err);
    *j = out ? json_loads(out, 0, NULL) : NULL;
    free(out);
    return rc;
}

static const char *trace(void)
{
    static char path[2048];
    if (!path[0]) {
        const char *p = cl_fb2009_head(60, "fb60.tsv");
        snprintf(path, sizeof path, "%s", p ? p : "");
    }
    return path;
}

static int has_warning(const json_t *j, const char *needle)
{
    const json_t *w = json_object_get(j, "warnings");
    for (size_t i = 0; i < json_array_size(w); i++)
        if (strstr(json_string_value(json_array_get(w, i)), needle))
            return 1;
    return 0;
}

static void test_stealing_without_fraction(void)
{
    char args[4096], *err = NULL;
    json_t *j = NULL;
    snprintf(args, sizeof args, "%s --scheduler fair --stealing even --opt nodes=4",
             trace());
    CU_ASSERT_EQUAL(sim_json(args, &j, &err), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "warning: --stealing even: no job"
                                              " has a parallel fraction"));
    CU_ASSERT(has_warning(j, "no job has a parallel fraction"));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "stealing")), "even");
    json_decref(j);
    free(err);
    /* with a fraction: no warning, no "warnings" key */
    snprintf(args, sizeof args, "%s --scheduler fair --stealing even --opt nodes=4"
             " --opt map_parallel=0.5", trace());
    CU_ASSERT_EQUAL(sim_json(args, &j, &err), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_PTR_NULL(json_object_get(j, "warnings"));
    CU_ASSERT(!err || !strstr(err, "warning"));
    json_decref(j);
    free(err);
}

static void test_preemption_one_pool(void)
{
    char args[4096], *err = NULL;
    json_t *j = NULL;
    snprintf(args, sizeof args, "%s --scheduler fair --opt nodes=4"
             " --opt fair_share_timeout=10", trace());
    CU_ASSERT_EQUAL(sim_json(args, &j, &err), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT(has_warning(j, "fair_share_timeout: every job is in one pool"
                             " ('default')"));
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "warning: fair_share_timeout"));
    json_decref(j);
    free(err);
    /* two pools: preemption can act, no warning */
    CU_ASSERT_EQUAL(sim_json("instances/cluster/two_pools.json --scheduler fair"
                             " --opt min_share_timeout=5", &j, &err), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_PTR_NULL(json_object_get(j, "warnings"));
    json_decref(j);
    free(err);
}

static void test_locality_delay_needs_replicas(void)
{
    char args[4096], *err = NULL;
    json_t *j = NULL;
    snprintf(args, sizeof args, "%s --scheduler fair --opt nodes=4"
             " --opt locality_delay=4.5", trace());
    CU_ASSERT_EQUAL(sim_json(args, &j, &err), 2);
    CU_ASSERT_PTR_NULL(j);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "'locality_delay'") &&
                           strstr(err, "no locality model"));
    json_decref(j);
    free(err);
    snprintf(args, sizeof args, "%s --scheduler fair --opt nodes=4"
             " --opt locality_delay=4.5 --opt replicas=3", trace());
    CU_ASSERT_EQUAL(sim_json(args, &j, &err), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    /* a locality model: reported, node-local + remote = map attempts */
    json_t *loc = json_object_get(j, "locality");
    CU_ASSERT_PTR_NOT_NULL_FATAL(loc);
    CU_ASSERT(json_integer_value(json_object_get(loc, "node_local")) > 0);
    json_decref(j);
    free(err);
}

/* Without a locality model there is no locality to report (it used to say
 * fraction_local 1.0). */
static void test_no_locality_without_model(void)
{
    char args[4096], *err = NULL, *out = NULL;
    json_t *j = NULL;
    snprintf(args, sizeof args, "%s --scheduler fifo --opt nodes=4", trace());
    CU_ASSERT_EQUAL(sim_json(args, &j, &err), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_PTR_NULL(json_object_get(j, "locality"));
    json_decref(j);
    free(err);
    snprintf(args, sizeof args, "sim %s --scheduler fifo --opt nodes=4"
             " --format table --summary", trace());
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NULL(strstr(out, "locality"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "options      stealing none, nodes=4\n"));
    free(out);
}

/* A saved report names everything that shaped it: rerunning from its
 * fields gives the same report. */
static void test_report_reruns(void)
{
    char args[4096], *err = NULL;
    json_t *a = NULL, *b = NULL;
    snprintf(args, sizeof args, "%s --scheduler fair --speculation late --seed 7"
             " --stealing ltm --opt nodes=4 --opt map_parallel=0.5"
             " --opt slow_nodes=1 --summary", trace());
    CU_ASSERT_EQUAL(sim_json(args, &a, &err), 0);
    free(err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    int n = snprintf(args, sizeof args, "%s --scheduler %s --speculation %s"
                     " --seed %lld --stealing %s --summary", trace(),
                     json_string_value(json_object_get(a, "scheduler")),
                     json_string_value(json_object_get(a, "speculation")),
                     (long long)json_integer_value(json_object_get(a, "seed")),
                     json_string_value(json_object_get(a, "stealing")));
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(a, "options"), key, v)
        n += snprintf(args + n, sizeof args - (size_t)n, " --opt %s=%s", key,
                      json_string_value(v));
    CU_ASSERT_EQUAL(json_object_size(json_object_get(a, "options")), 3);
    CU_ASSERT_EQUAL(sim_json(args, &b, &err), 0);
    free(err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    json_object_del(a, "seconds");
    json_object_del(a, "events_per_second");
    json_object_del(b, "seconds");
    json_object_del(b, "events_per_second");
    CU_ASSERT(json_equal(a, b));
    json_decref(a);
    json_decref(b);
}

/* A physical-model parameter on a workload without resources, or under
 * another contention model, cannot act: a warning; under physical none. */
static void test_physics_option_cannot_act(void)
{
    char args[4096], *err = NULL, *out = NULL;
    json_t *j = NULL;
    snprintf(args, sizeof args, "%s --scheduler fair --opt nodes=4 --opt swap_penalty=5",
             trace());
    CU_ASSERT_EQUAL(sim_json(args, &j, &err), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT(has_warning(j, "swap_penalty: only the physical contention model reads it,"
                             " and the workload names no resources"));
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "warning: swap_penalty"));
    json_decref(j);
    free(err);
    snprintf(args, sizeof args, "gen ras-gridmix-workload --set goals=none --out %s/pras",
             so_test_tmpdir());
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, NULL), 0);
    char *nl = out ? strchr(out, '\n') : NULL;
    if (nl)
        *nl = '\0';
    snprintf(args, sizeof args, "%s --scheduler fair --opt map_slots=4 --opt contention=share"
             " --opt profile_headroom=2", out ? out : "");
    CU_ASSERT_EQUAL(sim_json(args, &j, &err), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT(has_warning(j, "profile_headroom: only the physical contention model reads"
                             " it, and this run's model is not physical"));
    json_decref(j);
    free(err);
    snprintf(args, sizeof args, "%s --scheduler fair --opt map_slots=4"
             " --opt profile_headroom=2", out ? out : "");
    CU_ASSERT_EQUAL(sim_json(args, &j, &err), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_PTR_NULL(json_object_get(j, "warnings"));
    json_decref(j);
    free(err);
    free(out);
}

static CU_TestInfo tests[] = {
    {"a physical-model option that cannot act warns", test_physics_option_cannot_act},
    {"stealing without a parallel fraction warns", test_stealing_without_fraction},
    {"preemption with one pool warns", test_preemption_one_pool},
    {"locality_delay without replicas is an error", test_locality_delay_needs_replicas},
    {"no locality without a model", test_no_locality_without_model},
    {"a report reruns from its own fields", test_report_reruns},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-physics-options", tests)
