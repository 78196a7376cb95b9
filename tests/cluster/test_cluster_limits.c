/* test_cluster_limits.c — simulations have an end (issue 26, item 4):
 * workloads whose replay needs too many events or too much memory are
 * refused at the key that asks for it, before anything large is allocated
 * (each run through the binary in a 512 MiB address space, so that a
 * regression cannot eat the machine); --time-limit stops a long replay on
 * time with a report marked partial; a bench cell at its limit is stored
 * as time limit, not killed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/tools/harness_testing.h"
#include "cluster/run_limits.h"
#include "cluster/workload_build.h"

#define FB2009 "instances/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"

/* Runs the binary with args (after `env`, variable assignments or ""), in
 * an address space of 512 MiB (not under ASan, whose shadow memory needs
 * more); exit code, stdout and stderr as so_test_run. */
static int run_capped(const char *env, const char *args, char **out, char **err)
{
    char o[600], e[600], cmd[8192];
    snprintf(o, sizeof o, "%s/capped.out", so_test_tmpdir());
    snprintf(e, sizeof e, "%s/capped.err", so_test_tmpdir());
#ifdef __SANITIZE_ADDRESS__
    const char *cap = "";
#else
    const char *cap = "ulimit -v 524288; ";
#endif
    snprintf(cmd, sizeof cmd, "(%s%s %s %s) >%s 2>%s </dev/null", cap, env,
             SO_BINARY, args, o, e);
    int st = system(cmd);
    *out = so_test_slurp(o);
    *err = so_test_slurp(e);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The inputs, each a small file: exit 2, nothing on stdout, the
 * key (and the place) in the message, the estimate and the limit too. */
static void test_refused_inputs(void)
{
    const char *slow = so_test_write(
        "slow.json", "{\"cluster\": {\"nodes\": [{\"speed\": 1e-6}]},\n"
                     " \"jobs\": [{\"submit\": 0, \"maps\": [1e9]}]}\n");
    const char *share = so_test_write(
        "share.json",
        "{\"cluster\": {\"resources\": [\"cpu\"], \"contention\": {\"model\":"
        " \"share\"},\n \"nodes\": [{\"capacity\": [1]}]},\n \"jobs\":"
        " [{\"submit\": 0, \"maps\": [10], \"map_demand\": [4.29e9]}]}\n");
    const char *tasks = so_test_write(
        "tasks.json",
        "{\"cluster\": {\"nodes\": [{\"count\": 10}]}, \"jobs\": [\n"
        "{\"submit\": 0, \"maps\": {\"count\": 10000000, \"duration\": 1}},\n"
        "{\"submit\": 0, \"maps\": {\"count\": 10000000, \"duration\": 1}},\n"
        "{\"submit\": 0, \"maps\": {\"count\": 10000000, \"duration\": 1}},\n"
        "{\"submit\": 0, \"maps\": {\"count\": 10000000, \"duration\": 1}},\n"
        "{\"submit\": 0, \"maps\": {\"count\": 10000000, \"duration\": 1}}]}\n");
    const char *reduces = so_test_write(
        "reduces.json",
        "{\"cluster\": {\"nodes\": [{\"count\": 10}]}, \"jobs\": [{\"submit\":"
        " 0, \"maps\": [1],\n \"reduces\": {\"count\": 10000000, \"reduce\":"
        " 1}}]}\n");
    const char *nodes = so_test_write(
        "nodes.json",
        "{\"cluster\": {\"nodes\": [{\"count\": 1000000, \"map_slots\":"
        " 1000}]},\n \"jobs\": [{\"submit\": 0, \"maps\": [1]}]}\n");
    const char *scenario = so_test_write(
        "count.json",
        "{\"policies\": [\"fifo\"], \"sim_reference\": \"fifo\",\n"
        " \"inputs\": [{\"family\": \"swim-synth\", \"params\": {\"jobs\":"
        " 1000}, \"count\": 1000000}]}\n");
    char a[12][1024];
    struct {
        const char *env, *args, *where, *key, *also;
    } cases[] = {
        {"", a[0], "slow.json:1:34:", "cluster.nodes[0].speed", "3.5e+15 events"},
        {"", a[1], "share.json:3:53:", "jobs[0].map_demand", "above max_events = 1e+09"},
        {"SLOTOPT_MAX_MEMORY_MB=1024", a[2], "tasks.json:3:33:", "jobs[1].maps.count",
         "1068.1 MiB to read and replay, above the memory limit of 1024.0 MiB"},
        {"", a[3], "reduces.json:2:23:", "jobs[0].reduces.count",
         "534.1 MiB to read and replay, above the memory limit of 256.0 MiB"},
        {"SLOTOPT_MAX_MEMORY_MB=1024", a[4], "nodes.json:1:34:",
         "cluster.nodes[0].count", "4043.6 MiB to read and replay, above the memory"
         " limit of 1024.0 MiB"},
        {"", a[5], FB2009 ":", "slow_speed", "node of speed 1e-06"},
        {"", a[6], FB2009 ":", "heartbeat", "1e+08 heartbeats"},
        {"", a[7], "count.json:2:73:", "inputs[0].count",
         "1000000 instances of about 243 KiB each"},
        {"", a[8], "", "map_slots", "1000000 nodes of 10002 slots each: an"
         " estimated 38375.9 MiB"},
        {"SLOTOPT_MAX_MEMORY_MB=1024", a[9], "big.tsv:2:7:", "field 4 (map input bytes)",
         "an estimated 1068.1 MiB to read and replay"},
    };
    snprintf(a[0], sizeof a[0], "sim %s --scheduler fifo", slow);
    snprintf(a[1], sizeof a[1], "sim %s --scheduler fair", share);
    snprintf(a[2], sizeof a[2], "sim %s --scheduler fifo", tasks);
    snprintf(a[3], sizeof a[3], "sim %s --scheduler fifo --opt max_memory_mb=256",
             reduces);
    snprintf(a[4], sizeof a[4], "sim %s --scheduler fifo", nodes);
    snprintf(a[5], sizeof a[5], "sim " FB2009 " --scheduler fifo --opt slow_nodes=100"
             " --opt slow_speed=0.000001");
    snprintf(a[6], sizeof a[6], "sim " FB2009 " --scheduler fifo --opt nodes=1000000"
             " --opt heartbeat=0.01");
    snprintf(a[7], sizeof a[7], "bench --scenario %s --db %s/count.db", scenario,
             so_test_tmpdir());
    /* a SWIM trace of 5 jobs of 10^7 maps each, task limits raised */
    const char *swim = so_test_write("big.tsv", "a\t0\t0\t671088640000000\t0\t0\n"
                                                "b\t0\t0\t671088640000000\t0\t0\n"
                                                "c\t0\t0\t671088640000000\t0\t0\n"
                                                "d\t0\t0\t671088640000000\t0\t0\n"
                                                "e\t0\t0\t671088640000000\t0\t0\n");
    snprintf(a[9], sizeof a[9], "sim %s --scheduler fifo --opt max_tasks_per_job="
             "10000000 --opt max_tasks=50000000", swim);
    /* 10^6 nodes of the default 2 + 2 slots, then 10,000 map slots each */
    snprintf(a[8], sizeof a[8], "sim %s --scheduler fifo --opt map_slots=10000",
             so_test_write("million.json", "{\"cluster\": {\"nodes\": [{\"count\":"
                           " 1000000}]}, \"jobs\": [{\"submit\": 0, \"maps\": [1]}]}"));
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *out = NULL, *err = NULL;
        int code = run_capped(cases[k].env, cases[k].args, &out, &err);
        char key[200];
        snprintf(key, sizeof key, "key '%s'", cases[k].key);
        int ok = code == 2 && out && !out[0] && err && strstr(err, key) &&
                 strstr(err, cases[k].where) && strstr(err, cases[k].also);
        if (!ok)
            fprintf(stderr, "\ncase %zu: exit %d: %s", k, code, err ? err : "");
        CU_ASSERT_EQUAL(code, 2);
        CU_ASSERT(out && out[0] == '\0');
        CU_ASSERT(err && strstr(err, key) != NULL);
        CU_ASSERT(err && strstr(err, cases[k].where) != NULL);
        CU_ASSERT(err && strstr(err, cases[k].also) != NULL);
        free(out);
        free(err);
    }
}

/* The memory estimate against the measured peaks (10^7 reduces of one job,
 * all active at once: 515 MiB; 10^6 nodes of 1,002 slots: 4.13 GB), within
 * 5 %: both are within the default limit, which the documented 15.7 M-task
 * day (778 MiB measured at most, with 3 replicas per map) also fits. */
static void test_memory_estimate(void)
{
    double tasks = so_cl_memory_estimate(10, 40, 1, 10000001, 0);
    double nodes = so_cl_memory_estimate(1e6, 1.002e9, 1, 1, 0);
    CU_ASSERT(fabs(tasks / (515.0 * 1048576) - 1) < 0.05);
    CU_ASSERT(fabs(nodes / 4.23e9 - 1) < 0.05);
    double day = so_cl_memory_estimate(100, 400, 25000, 15671806, 3 * 15.5e6);
    CU_ASSERT(day < SO_CL_DEFAULT_MEMORY_MB * 1048576.0);
    CU_ASSERT(day > 778.0 * 1048576); /* and not below what it takes */
    so_cl_limits lim = {1024.0 * 1048576, 1e9, 0.5};
    char msg[400];
    CU_ASSERT_FALSE(so_cl_memory_over(&lim, 1024.0 * 1048576, "x", msg, sizeof msg));
    CU_ASSERT_TRUE(so_cl_memory_over(&lim, 1025.0 * 1048576, "x", msg, sizeof msg));
    CU_ASSERT(strstr(msg, "x: an estimated 1025.0 MiB") != NULL);
}

/* Busy periods add up: nodes beat while any submitted job is unfinished.
 * 100 jobs, each one 1e5 s map, submitted 200,000 s apart on 10 nodes
 * (a beat per 3 s): 100 busy periods of 1.05e5 s, about
 * 1.05e7 x (10/3 + 2) = 5.6e7 events, refused at max_events 1e7; the longest
 * attempt plus the drain saw 6e5 s (3.2e6 events, admitted). A job's longest map and longest reduce
 * are chained (its reduce starts after its maps). */
static void test_busy_periods(void)
{
    char *t = malloc(20000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    size_t n = (size_t)snprintf(t, 20000, "{\"cluster\": {\"nodes\": [{\"count\":"
                                " 10}]}, \"jobs\": [");
    for (int j = 0; j < 100; j++)
        n += (size_t)snprintf(t + n, 20000 - n, "%s{\"submit\": %d, \"maps\": [1e5]}",
                              j ? ", " : "", j * 200000);
    snprintf(t + n, 20000 - n, "]}");
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse(t, strlen(t), "p.json", NULL, 1, &w,
                                               &err), SO_OK);
    so_cl_limits lim = {1e9, 1e9, 0.5};
    so_cl_event_estimate e;
    so_cl_events_estimate(w, &lim, &e);
    /* each period: its job's work over 10 x 2 map slots, plus its longest
     * attempt */
    CU_ASSERT_DOUBLE_EQUAL(e.horizon, 100 * (1e5 + 1e5 / 20), 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(e.events, e.horizon * (10.0 / 3 + 2), 1e-3);
    so_cl_workload_free(w);
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "max_events", "1e7");
    w = NULL;
    CU_ASSERT_EQUAL(so_cl_workload_parse(t, strlen(t), "p.json", &prm, 1, &w, &err),
                    SO_EINVAL);
    CU_ASSERT_PTR_NULL(w);
    /* chained phases: a 10 s map then a 7 s reduce on one node */
    const char *c = "{\"cluster\": {\"nodes\": [{\"count\": 1}], \"heartbeat\": 3},"
                    " \"jobs\": [{\"submit\": 5, \"maps\": [10],"
                    " \"reduces\": [{\"copy\": 1, \"sort\": 1, \"reduce\": 5}]}]}";
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse(c, strlen(c), "c.json", NULL, 1, &w,
                                               &err), SO_OK);
    so_cl_events_estimate(w, &lim, &e);
    /* drain max(10 / 2, 7 / 2) = 5 s, chain 10 + 7 = 17 s */
    CU_ASSERT_DOUBLE_EQUAL(e.horizon, 5 + 17, 1e-9);
    so_cl_workload_free(w);
    free(t);
}

/* A malformed SLOTOPT_MAX_MEMORY_MB is refused by name, not ignored (it
 * would silently keep 4096 MiB); a good one sets the bound. */
static void test_memory_env(void)
{
    const char *t = "{\"cluster\": {\"nodes\": [{\"count\": 1}]},"
                    " \"jobs\": [{\"submit\": 0, \"maps\": [1]}]}";
    const char *bad[] = {"abc", "2x", "0", "-5", "1e10", "nan"};
    so_cl_workload *w = NULL;
    so_error err;
    so_cl_limits lim;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("SLOTOPT_MAX_MEMORY_MB", bad[i], 1);
        CU_ASSERT_EQUAL(so_cl_limits_read(NULL, &lim, &err), SO_EINVAL);
        CU_ASSERT_STRING_EQUAL(err.key, "SLOTOPT_MAX_MEMORY_MB");
        CU_ASSERT_EQUAL(so_cl_workload_parse(t, strlen(t), "m.json", NULL, 1, &w,
                                             &err), SO_EINVAL);
        CU_ASSERT_PTR_NULL(w);
    }
    setenv("SLOTOPT_MAX_MEMORY_MB", "12", 1);
    CU_ASSERT_EQUAL(so_cl_limits_read(NULL, &lim, &err), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(lim.max_bytes, 12 * 1048576.0, 1e-6);
    unsetenv("SLOTOPT_MAX_MEMORY_MB");
    CU_ASSERT_EQUAL(so_cl_limits_read(NULL, &lim, &err), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(lim.max_bytes, SO_CL_DEFAULT_MEMORY_MB * 1048576.0, 1e-6);
}

/* The engine counts a phase's slots in an int: nodes x slots above
 * INT_MAX is refused at the key even when the memory limit is raised to
 * admit it (10^6 nodes x 10,002 slots: 38,376 MiB). */
static void test_slot_count_cap(void)
{
    so_cl_limits lim = {1073741824.0 * 1048576, 1e9, 0.5};
    so_error err;
    CU_ASSERT_EQUAL(so_cl_workload_check_nodes(&lim, 1000000, 10002, "map_slots",
                                               &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "map_slots");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "2147483647"));
    CU_ASSERT_EQUAL(so_cl_workload_check_nodes(&lim, 214748, 10000, "nodes", &err),
                    SO_OK);
    CU_ASSERT_EQUAL(so_cl_workload_check_nodes(&lim, 214749, 10000, "nodes", &err),
                    SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "nodes");
}

/* The event estimate by hand: one node of speed 0.5 (2 map slots,
 * heartbeat 3 s), maps of 10 and 4 s: the longest attempt 10 / 0.5 = 20 s,
 * the drain 14 / (0.5 x 2) = 14 s, busy time 34 s, events 34 x (1/3 + 2). */
static void test_event_estimate(void)
{
    so_cl_workload *w = NULL;
    so_error err;
    const char *t = "{\"cluster\": {\"nodes\": [{\"speed\": 0.5}], \"heartbeat\": 3},"
                    " \"jobs\": [{\"submit\": 0, \"maps\": [10, 4]}]}";
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse(t, strlen(t), "e.json", NULL, 1, &w,
                                               &err), SO_OK);
    so_cl_event_estimate e;
    so_cl_limits big = {1e9, 1e9, 0.5}, small = {1e9, 10, 0.5};
    so_cl_events_estimate(w, &big, &e);
    CU_ASSERT_DOUBLE_EQUAL(e.longest, 20, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(e.drain, 14, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(e.horizon, 34, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(e.events, 34 * (1.0 / 3 + 2), 1e-9);
    CU_ASSERT_EQUAL(e.cause, SO_CL_CAUSE_NONE);
    CU_ASSERT_EQUAL(e.job, 0);
    CU_ASSERT_EQUAL(e.task, 0);
    /* under a bound of 10 events: the work is the cause (speed 0.5 is no
     * straggler), and the reader names the longest map */
    so_cl_events_estimate(w, &small, &e);
    CU_ASSERT_EQUAL(e.cause, SO_CL_CAUSE_WORK);
    so_cl_workload_free(w);
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "max_events", "1000");
    const char *t2 = "{\"cluster\": {\"nodes\": [{\"speed\": 0.5}]},\n"
                     " \"jobs\": [{\"submit\": 0, \"maps\": [10, 4000]}]}";
    CU_ASSERT_EQUAL(so_cl_workload_parse(t2, strlen(t2), "e.json", &prm, 1, &w,
                                         &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "jobs[0].maps[1]");
    CU_ASSERT_EQUAL(err.line, 2);
    CU_ASSERT_PTR_NULL(w);
    /* the epoch counts: one 2.5e8 s map on one node (a beat per 3 s) is
     * 2.5e8 x (1/3 + 2) = 5.8e8 events at the default 0.5 s, admitted;
     * 2.5e8 x (1/3 + 100) = 2.5e10 at --opt epoch=0.01, refused */
    const char *t4 = "{\"cluster\": {\"nodes\": [{\"count\": 1}]},\n"
                     " \"jobs\": [{\"submit\": 0, \"maps\": [2.5e8]}]}";
    so_params ep;
    so_params_init(&ep);
    CU_ASSERT_EQUAL(so_cl_workload_parse(t4, strlen(t4), "e.json", &ep, 1, &w,
                                         &err), SO_OK);
    so_cl_workload_free(w);
    w = NULL;
    so_params_set(&ep, "epoch", "0.01");
    CU_ASSERT_EQUAL(so_cl_workload_parse(t4, strlen(t4), "e.json", &ep, 1, &w,
                                         &err), SO_EINVAL);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT(strstr(err.message, "max_events") != NULL);
    /* a heartbeat that Hadoop's rule would not need is the cause */
    const char *t3 = "{\"cluster\": {\"nodes\": [{\"count\": 1000}], \"heartbeat\":"
                     " 0.01},\n \"jobs\": [{\"submit\": 0, \"maps\": [100]}]}";
    so_params_set(&prm, "max_events", "1e5"); /* 1e4 at Hadoop's 10 s */
    CU_ASSERT_EQUAL(so_cl_workload_parse(t3, strlen(t3), "e.json", &prm, 1, &w,
                                         &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "cluster.heartbeat");
    /* raised, the same workloads are read */
    so_params_set(&prm, "max_events", "1e8");
    CU_ASSERT_EQUAL(so_cl_workload_parse(t3, strlen(t3), "e.json", &prm, 1, &w,
                                         &err), SO_OK);
    so_cl_workload_free(w);
}

/* A replay refused at the default bound runs once max_events is raised,
 * and --time-limit 1 stops it within 0.7 s (the whole command, on a loaded
 * machine),
 * exit 0, with the report marked partial and a note on stderr. */
static void test_time_limit_stops(void)
{
    const char *wl = so_test_write(
        "long.json", "{\"cluster\": {\"nodes\": [{\"count\": 2}], \"heartbeat\":"
                     " 0.01},\n \"jobs\": [{\"submit\": 0, \"maps\": [1]}, {\"submit\": 0,"
                     " \"maps\": {\"count\": 1000, \"duration\": 1e6}}]}\n");
    char args[1024], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "sim %s --scheduler fifo --compact", wl);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT(err && strstr(err, "cluster.heartbeat") != NULL);
    free(out);
    free(err);
    snprintf(args, sizeof args,
             "sim %s --scheduler fair --compact --opt max_events=1e12"
             " --time-limit 1", wl);
    double t0 = so_now();
    int code = so_test_run(args, &out, &err);
    double took = so_now() - t0;
    CU_ASSERT_EQUAL(code, 0);
    CU_ASSERT(took >= 1.0 && took <= 1.7); /* +0.5 s: a loaded machine */
    if (took > 1.7)
        fprintf(stderr, "\n--time-limit 1 took %.3f s\n", took);
    json_t *j = out ? json_loads(out, 0, NULL) : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "status")),
                           "time_limit");
    CU_ASSERT(json_is_true(json_object_get(j, "partial")));
    double simulated = json_real_value(json_object_get(j, "simulated_time"));
    CU_ASSERT(simulated > 1 && simulated < 1e6);
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(j, "makespan")),
                           simulated, 1e-9);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "jobs_finished")), 1);
    json_t *jobs = json_object_get(j, "jobs");
    CU_ASSERT(json_is_null(json_object_get(json_array_get(jobs, 1), "finish")));
    CU_ASSERT(json_is_null(json_object_get(json_array_get(jobs, 1), "response")));
    CU_ASSERT(json_is_number(json_object_get(json_array_get(jobs, 0), "finish")));
    /* the response statistics are over the finished job only */
    double resp = json_real_value(json_object_get(json_array_get(jobs, 0), "response"));
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(
                               json_object_get(j, "response"), "max")), resp, 1e-12);
    double sec = json_real_value(json_object_get(j, "seconds")); /* the run */
    CU_ASSERT(sec > 0.5 && sec <= 1.6);
    CU_ASSERT(err && strstr(err, "time limit of 1 s reached") != NULL);
    CU_ASSERT(err && strstr(err, "partial") != NULL);
    json_decref(j);
    free(out);
    free(err);
    /* the table says so too */
    snprintf(args, sizeof args, "sim %s --scheduler fifo --format table"
             " --opt max_events=1e12 --time-limit 0.3", wl);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT(out && strstr(out, "status       time limit (0.3 s) reached:"
                                 " partial") != NULL);
    free(out);
    free(err);
}

/* A run that ends by itself carries no status or partial key (complete
 * reports are unchanged), even under a time limit. */
static void test_complete_report_unchanged(void)
{
    const char *wl = so_test_write(
        "short.json", "{\"cluster\": {\"nodes\": [{\"count\": 2}]}, \"jobs\":"
                      " [{\"submit\": 0, \"maps\": [5, 5]}]}");
    char args[1024], *out = NULL, *plain = NULL;
    snprintf(args, sizeof args, "sim %s --scheduler fifo --compact --time-limit 100", wl);
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    snprintf(args, sizeof args, "sim %s --scheduler fifo --compact", wl);
    CU_ASSERT_EQUAL(so_test_run(args, &plain, NULL), 0);
    CU_ASSERT(out && !strstr(out, "partial") && !strstr(out, "\"status\""));
    /* the same report but for the measured seconds */
    CU_ASSERT(out && plain && strncmp(out, plain, (size_t)(strstr(plain, "\"seconds\"") - plain)) == 0);
    free(out);
    free(plain);
}

/* Engine level: a configured time limit stops so_cl_sim_run, marks the
 * statistics stopped, makespan = time simulated since the first submit. */
static void test_engine_stops(void)
{
    so_cl_workload *w = NULL;
    so_error err;
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "max_events", "1e15");
    const char *t = "{\"cluster\": {\"nodes\": [{\"count\": 1}], \"heartbeat\": 0.01},"
                    " \"jobs\": [{\"submit\": 2, \"maps\": [1e8]}]}";
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse(t, strlen(t), "e.json", &prm, 1, &w,
                                               &err), SO_OK);
    so_cl_config cfg = {0};
    cfg.scheduler = so_cl_scheduler_find("fifo");
    cfg.time_limit = 0.2;
    so_cl_sim *sim = NULL;
    CU_ASSERT_EQUAL_FATAL(so_cl_sim_new(w, &cfg, &sim, &err), SO_OK);
    double t0 = so_now();
    CU_ASSERT_EQUAL(so_cl_sim_run(sim), SO_OK);
    double took = so_now() - t0;
    const so_cl_stats *st = so_cl_sim_stats(sim);
    CU_ASSERT(took >= 0.2 && took < 0.7);
    CU_ASSERT_EQUAL(st->stopped, 1);
    CU_ASSERT_EQUAL(st->jobs_done, 0);
    CU_ASSERT(st->stopped_at > 2 && st->stopped_at < 1e8);
    CU_ASSERT_DOUBLE_EQUAL(st->makespan, st->stopped_at - 2, 1e-9);
    CU_ASSERT(so_cl_sim_job(sim, 0)->finish < 0);
    so_cl_sim_free(sim);
    so_cl_workload_free(w);
}

/* A run whose jobs are all done ends normally even when the deadline has
 * passed while the last queued heartbeats drain: not stopped, the makespan
 * of the finished job. The deadline is long past, so the first clock look
 * (after SO_CL_CLOCK_EVENTS events: the job is done by then, 100 nodes
 * still have a heartbeat queued) finds it passed. */
static void test_engine_finished_not_stopped(void)
{
    so_cl_workload *w = NULL;
    so_error err;
    const char *t = "{\"cluster\": {\"nodes\": [{\"count\": 100}]},"
                    " \"jobs\": [{\"submit\": 0, \"maps\": [0.001]}]}";
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse(t, strlen(t), "f.json", NULL, 1, &w,
                                               &err), SO_OK);
    double full = -1;
    for (int limited = 0; limited < 2; limited++) {
        so_cl_config cfg = {0};
        cfg.scheduler = so_cl_scheduler_find("fifo");
        if (limited)
            cfg.deadline = 1e-300; /* passed at the first look */
        so_cl_sim *sim = NULL;
        CU_ASSERT_EQUAL_FATAL(so_cl_sim_new(w, &cfg, &sim, &err), SO_OK);
        CU_ASSERT_EQUAL(so_cl_sim_run(sim), SO_OK);
        const so_cl_stats *st = so_cl_sim_stats(sim);
        CU_ASSERT_EQUAL(st->jobs_done, 1);
        CU_ASSERT_EQUAL(st->stopped, 0);
        CU_ASSERT(st->events > SO_CL_CLOCK_EVENTS);
        CU_ASSERT(st->makespan > 0.001 && st->makespan < 0.5);
        if (limited)
            CU_ASSERT_DOUBLE_EQUAL(st->makespan, full, 1e-12);
        full = st->makespan;
        so_cl_sim_free(sim);
    }
    so_cl_workload_free(w);
}

/* A bench cell that reaches the scenario's time limit stops itself: it is
 * stored as "time limit" with the partial extras, not killed. */
static void test_bench_cell_time_limited(void)
{
    const char *wl = so_test_write(
        "longcell.json", "{\"cluster\": {\"nodes\": [{\"count\": 2}], \"heartbeat\":"
                         " 0.01}, \"jobs\": [{\"submit\": 0, \"maps\": {\"count\":"
                         " 100, \"duration\": 1e6}}]}\n");
    char scen[2048], db[600], args[2048];
    snprintf(scen, sizeof scen,
             "{\"policies\": [{\"name\": \"fifo\", \"policy\": \"fifo\","
             " \"options\": {\"max_events\": 1e12}}], \"sim_reference\": \"fifo\","
             " \"time_limit\": 0.5, \"inputs\": [{\"workload\": \"%s\"}]}", wl);
    const char *sp = so_test_write("tl-scenario.json", scen);
    snprintf(db, sizeof db, "%s/tl.db", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --scenario %s --db %s", sp, db);
    char *out = NULL, *err = NULL;
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    char *rows = harness_db_rows(db, "SELECT status, json_extract(extras,"
                                     " '$.partial') FROM cells", NULL);
    CU_ASSERT(rows && strcmp(rows, "time limit|1|\n") == 0);
    if (rows && strcmp(rows, "time limit|1|\n"))
        fprintf(stderr, "\nrows: %s\n%s", rows, err ? err : "");
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT seconds < 1.0 FROM cells"), 1);
    free(rows);
    free(out);
    free(err);
}

static CU_TestInfo tests[] = {
    {"endless and oversized inputs refused at their key", test_refused_inputs},
    {"memory estimate against measured peaks", test_memory_estimate},
    {"event estimate by hand, its cause and key", test_event_estimate},
    {"busy periods add up, phases chain", test_busy_periods},
    {"nodes x slots above INT_MAX refused at the key", test_slot_count_cap},
    {"a malformed SLOTOPT_MAX_MEMORY_MB is refused by name", test_memory_env},
    {"--time-limit stops a long replay, report partial", test_time_limit_stops},
    {"a complete report is unchanged by --time-limit", test_complete_report_unchanged},
    {"engine: time limit stops the run", test_engine_stops},
    {"engine: a finished run is not stopped by a passed deadline",
     test_engine_finished_not_stopped},
    {"bench: a sim cell at its limit is stored as time limit", test_bench_cell_time_limited},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-limits", tests)
