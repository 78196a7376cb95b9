/* test_cluster_physics.c — the "physical" contention model (issue 32, item
 * 2; cluster/physics.c, cluster/physics_rates.c) on hand-computed cases:
 * the curves, two and three streams on one disk, a swapping node, a task
 * above its profile on an idle node (and the one-core limit), a reducer's
 * memory across the shuffle-to-reduce switch, the settings and their
 * errors. */
#include <stdio.h>
#include <string.h>
#include "cluster/physics.h"
#include "tests/cluster/cluster_test.h"

static so_cl_physics defaults(void)
{
    so_cl_physics ph;
    so_cl_physics_defaults(&ph);
    return ph;
}

static void test_curves(void)
{
    so_cl_physics ph = defaults();
    /* disk: slice q = max(min(100, 300 / k), 16) ms, seek 12 ms */
    CU_ASSERT_DOUBLE_EQUAL(so_cl_physics_disk(&ph, 1), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_physics_disk(&ph, 2), 100.0 / 112, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_physics_disk(&ph, 3), 100.0 / 112, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_physics_disk(&ph, 4), 75.0 / 87, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_physics_disk(&ph, 30), 16.0 / 28, 1e-12);
    ph.disk_target_ms = 0; /* slices not scaled (pre-2.6.33 CFQ) */
    CU_ASSERT_DOUBLE_EQUAL(so_cl_physics_disk(&ph, 30), 100.0 / 112, 1e-12);
    ph = defaults();
    /* cpu: slice max(12 / x, 1.5) ms, switch 0.1 ms */
    CU_ASSERT_DOUBLE_EQUAL(so_cl_physics_cpu(&ph, 0.5), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_physics_cpu(&ph, 1), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_physics_cpu(&ph, 2), 6.0 / 6.1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_physics_cpu(&ph, 16), 1.5 / 1.6, 1e-12);
    /* swap: 1 / (1 + 10 x (D - C) / D) */
    CU_ASSERT_DOUBLE_EQUAL(so_cl_physics_swap(&ph, 100, 100), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_physics_swap(&ph, 150, 100),
                           1 / (1 + 10 * 50.0 / 150), 1e-12);
}

/* One node, one job of `maps` equal maps of work 10 s at time 0 (aligned
 * heartbeats: all launch at 0); resources and demands as given. */
static double one_job(const char *resources, const char *capacity,
                      const char *contention, const char *demand, int maps,
                      const so_params *prm)
{
    char json[4096];
    snprintf(json, sizeof json,
             "{\"problem\": \"cluster\", \"version\": 1, \"cluster\": {"
             "\"nodes\": [{\"count\": 1, \"map_slots\": 4, \"reduce_slots\": 1,"
             " \"capacity\": %s}], \"heartbeat_phase\": \"aligned\","
             " \"resources\": %s, \"contention\": %s},"
             " \"jobs\": [{\"submit\": 0, \"map_demand\": %s,"
             " \"maps\": {\"count\": %d, \"duration\": 10}}]}",
             capacity, resources, contention, demand, maps);
    cl_run r = cl_simulate(json, "fifo", NULL, prm, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL(r.sim);
    double finish = r.sim ? so_cl_sim_job(r.sim, 0)->finish : -1;
    cl_done(&r);
    return finish;
}

#define PHYS "{\"model\": \"physical\"}"
#define SHARE "{\"model\": \"share\"}"

/* k maps of io demand 60 on one disk of 100: the disk delivers
 * 100 x disk(k), split in proportion: each runs at 100 x disk(k) / (60 k). */
static void test_streams_on_one_disk(void)
{
    double e2 = 100.0 / 112; /* 2 and 3 streams: slice 100 ms, seek 12 */
    CU_ASSERT_DOUBLE_EQUAL(one_job("[\"io\"]", "[100]", PHYS, "[60]", 2, NULL),
                           10 / (100 * e2 / 120), 1e-9); /* 13.44 s */
    CU_ASSERT_DOUBLE_EQUAL(one_job("[\"io\"]", "[100]", PHYS, "[60]", 3, NULL),
                           10 / (100 * e2 / 180), 1e-9); /* 20.16 s */
    /* share: over-commitment free, 12 and 18 s */
    CU_ASSERT_DOUBLE_EQUAL(one_job("[\"io\"]", "[100]", SHARE, "[60]", 2, NULL),
                           12, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(one_job("[\"io\"]", "[100]", SHARE, "[60]", 3, NULL),
                           18, 1e-9);
    /* a resource named "disk0" is a disk; a kind can be set explicitly */
    CU_ASSERT_DOUBLE_EQUAL(
        one_job("[\"disk0\"]", "[100]", PHYS, "[60]", 2, NULL),
        10 / (100 * e2 / 120), 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(
        one_job("[\"spindle\"]", "[100]",
                "{\"model\": \"physical\", \"kinds\": {\"spindle\": \"other\"}}",
                "[60]", 2, NULL),
        12, 1e-9);
}

/* Two maps of 75 % memory on a node of 100: not checked at launch (Hadoop
 * 1), both run and swap: each at 1 / (1 + 10 x 50 / 150) = 3 / 13. */
static void test_swapping_node(void)
{
    CU_ASSERT_DOUBLE_EQUAL(
        one_job("[\"memory\"]", "[100]", PHYS, "[75]", 2, NULL),
        10 * (1 + 10 * 50.0 / 150), 1e-9); /* 43.33 s */
    /* share with memory hard: the second waits for the first (10 s, then
     * the heartbeat at 12 s, done at 22 s) */
    CU_ASSERT_DOUBLE_EQUAL(
        one_job("[\"memory\"]", "[100]",
                "{\"model\": \"share\", \"hard\": [\"memory\"]}", "[75]", 2,
                NULL),
        22, 1e-9);
    /* swap_penalty from --opt: 1 + 4 x 1/3 */
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "swap_penalty", "4");
    CU_ASSERT_DOUBLE_EQUAL(
        one_job("[\"memory\"]", "[100]", PHYS, "[75]", 2, &prm),
        10 * (1 + 4 * 50.0 / 150), 1e-9);
}

/* A task alone on an idle node runs faster than its profile: up to
 * profile_headroom (1.5), and a cpu task by at most one core of cpu_cores
 * (2): 50 % of the node. */
static void test_above_profile(void)
{
    /* cpu 20 %, io 30 %: min(1.5, 100/20, 50/20, 100/30) = 1.5 */
    CU_ASSERT_DOUBLE_EQUAL(
        one_job("[\"cpu\", \"io\"]", "[100, 100]", PHYS, "[20, 30]", 1, NULL),
        10 / 1.5, 1e-9);
    /* cpu 40 %: one core is 50 %, min(1.5, 50/40) = 1.25 */
    CU_ASSERT_DOUBLE_EQUAL(
        one_job("[\"cpu\", \"io\"]", "[100, 100]", PHYS, "[40, 30]", 1, NULL),
        10 / 1.25, 1e-9);
    /* headroom 1: the profile speed, as under share */
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "profile_headroom", "1");
    CU_ASSERT_DOUBLE_EQUAL(
        one_job("[\"cpu\", \"io\"]", "[100, 100]", PHYS, "[20, 30]", 1, &prm),
        10, 1e-9);
    /* memory alone paces nothing: speed 1 */
    CU_ASSERT_DOUBLE_EQUAL(
        one_job("[\"memory\"]", "[100]", PHYS, "[30]", 1, NULL), 10, 1e-9);
    /* two cpu tasks of 60 % on 100: x = 1.2, slice max(10, 1.5) = 10 ms,
     * the cpu delivers 100 x 10 / 10.1; each min(1.5, that / 120, 50/60) */
    double g = 100 * (10 / 10.1) / 120;
    CU_ASSERT_DOUBLE_EQUAL(
        one_job("[\"cpu\"]", "[100]", PHYS, "[60]", 2, NULL),
        10 / (g < 50.0 / 60 ? g : 50.0 / 60), 1e-9);
}

/* A reducer holds its shuffle buffers (10 %) while it copies and its
 * reduce memory (80 %) from the switch on. One map (10 s, memory 50) and
 * one reduce (copy 2, reduce 10; slow-start 0) launch at 0: 50 + 10 fits,
 * no swap; the copy waits for the map (10 s), then the reduce runs alone
 * with 80: done at 20 s. Holding 80 from launch would swap the map. */
static void test_reducer_memory_across_switch(void)
{
    const char *fmt =
        "{\"problem\": \"cluster\", \"version\": 1, \"cluster\": {"
        "\"nodes\": [{\"count\": 1, \"map_slots\": 1, \"reduce_slots\": 1,"
        " \"capacity\": [100]}], \"heartbeat_phase\": \"aligned\","
        " \"resources\": [\"memory\"], \"contention\": %s},"
        " \"jobs\": [{\"submit\": 0, \"slowstart\": 0, \"map_demand\": [50],"
        " \"reduce_demand\": [80], \"shuffle_demand\": [%s],"
        " \"maps\": [10], \"reduces\": [{\"copy\": 2, \"reduce\": 10}]}]}";
    char json[2048];
    snprintf(json, sizeof json, fmt, PHYS, "10");
    cl_run r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish, 20, 1e-9);
    cl_done(&r);
    /* shuffle memory 80 (the reduce profile from launch): 130 on 100
     * swaps the map, 1 / (1 + 10 x 30 / 130) until it ends at
     * 10 x (1 + 300 / 130) = 33.08 s; the reduce then runs alone */
    snprintf(json, sizeof json, fmt, PHYS, "80");
    r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish,
                           10 * (1 + 300.0 / 130) + 10, 1e-9);
    cl_done(&r);
    /* share, memory hard: the reducer is held at max(10, 80) from launch
     * and cannot start beside the map: heartbeat at 12 s, 2 + 10 more */
    snprintf(json, sizeof json, fmt,
             "{\"model\": \"share\", \"hard\": [\"memory\"]}", "10");
    r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish, 24, 1e-9);
    cl_done(&r);
}

/* --opt contention picks the model of any workload with resources; bad
 * values and settings are errors naming the key. */
static void test_settings(void)
{
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "contention", "physical");
    CU_ASSERT_DOUBLE_EQUAL(
        one_job("[\"io\"]", "[100]", SHARE, "[60]", 2, &prm),
        10 / (100 * (100.0 / 112) / 120), 1e-9);
    so_params_set(&prm, "contention", "share");
    CU_ASSERT_DOUBLE_EQUAL(
        one_job("[\"io\"]", "[100]", PHYS, "[60]", 2, &prm), 12, 1e-9);
    /* share on a physical workload checks memory at launch (share has no
     * swapping): the second map waits, 22 s as in test_swapping_node */
    CU_ASSERT_DOUBLE_EQUAL(
        one_job("[\"memory\"]", "[100]", PHYS, "[75]", 2, &prm), 22, 1e-9);
    char *err = NULL;
    const char *w = "instances/cluster/two_pools.json --scheduler fair";
    char args[512];
    snprintf(args, sizeof args, "sim %s --opt contention=bogus", w);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "'contention'"));
    free(err);
    snprintf(args, sizeof args, "sim %s --opt contention=physical"
             " --opt disk_seek_ms=-1", w);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "'disk_seek_ms'"));
    free(err);
    /* JSON: memory cannot be hard under physical; physical settings need
     * the model */
    const char *bad[] = {
        "{\"model\": \"physical\", \"hard\": [\"memory\"]}",
        "{\"model\": \"share\", \"swap_penalty\": 3}",
        "{\"model\": \"physical\", \"kinds\": {\"memory\": \"gpu\"}}",
        "{\"model\": \"physical\", \"profile_headroom\": 0.5}",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char json[1024];
        snprintf(json, sizeof json,
                 "{\"problem\": \"cluster\", \"version\": 1, \"cluster\": {"
                 "\"nodes\": [{\"capacity\": [100]}], \"resources\":"
                 " [\"memory\"], \"contention\": %s}, \"jobs\": [{\"submit\":"
                 " 0, \"maps\": [1]}]}", bad[k]);
        so_cl_workload *wl = NULL;
        so_error e;
        CU_ASSERT_EQUAL(so_cl_workload_parse(json, strlen(json), "t.json",
                                             NULL, 1, &wl, &e), SO_EINVAL);
        CU_ASSERT_PTR_NOT_NULL(strstr(e.key, "cluster.contention"));
        so_cl_workload_free(wl);
    }
}

static CU_TestInfo tests[] = {
    {"curves", test_curves},
    {"two and three streams on one disk", test_streams_on_one_disk},
    {"a swapping node", test_swapping_node},
    {"a task above its profile on an idle node", test_above_profile},
    {"reducer memory across the switch", test_reducer_memory_across_switch},
    {"settings and errors", test_settings},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-physics", tests)
