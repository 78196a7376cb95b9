/* test_harness_timeline.c — a simulation cell's timeline from an event log
 * written by hand (hand-counted running tasks per job, user and cluster,
 * RAS utilities with -inf floored and jobs outside a cycle null), logs that
 * name jobs or tasks the workload lacks, so_htimeline_each, and a RAS run's
 * timeline against its own statistics. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tools/harness/harness_timeline.h"

/* Job A (user u1): 2 maps, 1 reduce (tasks 0-2); job B (user u2): 1 map
 * (task 3); 2 nodes. */
static const char *const workload =
    "{\"problem\": \"cluster\", \"version\": 1,"
    " \"cluster\": {\"nodes\": [{\"count\": 2, \"map_slots\": 2, \"reduce_slots\": 1}]},"
    " \"jobs\": [{\"name\": \"A\", \"user\": \"u1\", \"submit\": 0, \"maps\": [5, 5],"
    " \"reduces\": [{\"copy\": 1, \"sort\": 1, \"reduce\": 1}]},"
    " {\"name\": \"B\", \"user\": \"u2\", \"submit\": 1, \"maps\": [3]}]}";

static const char *const events =
    "0.500000 launch job=0 task=0 attempt=0 node=0\n"
    "0.500000 launch job=0 task=1 attempt=1 node=1\n"
    "0.700000 heartbeat job=-1 task=-1 attempt=-1 node=0\n"
    "1.000000 ras-cycle job=0 utility=0.5 s_req=1\n"
    "1.000000 ras-cycle job=1 utility=-inf s_req=1\n"
    "2.000000 launch job=1 task=3 attempt=2 node=0\n"
    "2.500000 task-done job=0 task=0 attempt=0 node=0\n"
    "3.000000 launch job=0 task=2 attempt=3 node=0\n"
    "3.000000 ras-cycle job=0 utility=0.9 s_req=0\n"
    "4.500000 task-done job=0 task=1 attempt=1 node=1\n"
    "5.000000 task-done job=0 task=2 attempt=3 node=0\n"
    "5.000000 task-done job=1 task=3 attempt=2 node=0\n";

static so_cl_workload *load(void)
{
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL(so_cl_workload_parse(workload, strlen(workload), "w.json", NULL, 1, &w,
                                         &err), SO_OK);
    return w;
}

/* Whether array a holds exactly the n numbers of want (NAN: null). */
static int series_is(json_t *a, const double *want, size_t n)
{
    if (json_array_size(a) != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(a, i);
        if (isnan(want[i]) ? !json_is_null(v) : fabs(json_number_value(v) - want[i]) > 1e-9)
            return 0;
    }
    return 1;
}

static int sum_cb(void *ctx, const char *member, double time, double value)
{
    double *acc = ctx;
    acc[0] += value;
    acc[1] += time;
    acc[2] += !strcmp(member, "u1");
    return 0;
}

static void test_hand_log(void)
{
    so_cl_workload *w = load();
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    json_t *tl = NULL;
    CU_ASSERT_EQUAL_FATAL(so_htimeline_read(w, events, strlen(events), 1, &tl), SO_OK);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(tl, "points")), 6);
    json_t *a = json_object_get(json_object_get(tl, "jobs"), "A");
    json_t *b = json_object_get(json_object_get(tl, "jobs"), "B");
    const double am[] = {0, 2, 2, 1, 1, 0}, ar[] = {0, 0, 0, 1, 1, 0};
    const double bm[] = {0, 0, 1, 1, 1, 0};
    const double au[] = {NAN, 0.5, 0.5, 0.9, 0.9, 0.9};
    const double bu[] = {NAN, -3, -3, NAN, NAN, NAN};
    CU_ASSERT(series_is(json_object_get(a, "maps"), am, 6));
    CU_ASSERT(series_is(json_object_get(a, "reduces"), ar, 6));
    CU_ASSERT(series_is(json_object_get(b, "maps"), bm, 6));
    CU_ASSERT(series_is(json_object_get(a, "utility"), au, 6));
    CU_ASSERT(series_is(json_object_get(b, "utility"), bu, 6));
    const double u1[] = {0, 2, 2, 2, 2, 0}, tasks[] = {0, 2, 3, 3, 3, 0};
    const double per_node[] = {0, 1, 1.5, 1.5, 1.5, 0};
    CU_ASSERT(series_is(json_object_get(json_object_get(json_object_get(tl, "users"), "u1"),
                                        "tasks"), u1, 6));
    json_t *all = json_object_get(tl, "all");
    CU_ASSERT(series_is(json_object_get(all, "tasks"), tasks, 6));
    CU_ASSERT(series_is(json_object_get(all, "per_node"), per_node, 6));
    CU_ASSERT_PTR_NULL(json_object_get(all, "utility"));
    /* each: per user, per job, whole cluster */
    json_t *extras = json_pack("{s:O}", "timeline", tl);
    double acc[3] = {0, 0, 0};
    CU_ASSERT_EQUAL(so_htimeline_each(extras, "user", "tasks", sum_cb, acc), 0);
    CU_ASSERT_DOUBLE_EQUAL(acc[0], 11, 1e-9); /* u1 8 + u2 3 */
    CU_ASSERT_DOUBLE_EQUAL(acc[1], 30, 1e-9); /* 2 x (0 + 1 + ... + 5) */
    CU_ASSERT_DOUBLE_EQUAL(acc[2], 6, 1e-9);
    memset(acc, 0, sizeof acc);
    CU_ASSERT_EQUAL(so_htimeline_each(extras, "job_name", "utility", sum_cb, acc), 0);
    CU_ASSERT_DOUBLE_EQUAL(acc[0], 0.5 + 0.5 + 0.9 * 3 - 6, 1e-9); /* nulls skipped */
    memset(acc, 0, sizeof acc);
    CU_ASSERT_EQUAL(so_htimeline_each(extras, "", "per_node", sum_cb, acc), 0);
    CU_ASSERT_DOUBLE_EQUAL(acc[0], 5.5, 1e-9);
    json_decref(extras);
    json_decref(tl);
    /* a coarser step: points at 0 and 2 and 4 */
    CU_ASSERT_EQUAL_FATAL(so_htimeline_read(w, events, strlen(events), 2, &tl), SO_OK);
    const double coarse[] = {0, 2, 1};
    CU_ASSERT(series_is(json_object_get(json_object_get(json_object_get(tl, "jobs"), "A"),
                                        "maps"), coarse, 3));
    json_decref(tl);
    so_cl_workload_free(w);
}

static void test_bad_logs(void)
{
    so_cl_workload *w = load();
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    static const char *const bad[] = {
        "1.0 launch job=2 task=0 attempt=0 node=0\n",  /* no job 2 */
        "1.0 launch job=1 task=0 attempt=0 node=0\n",  /* task 0 is A's */
        "1.0 launch job=0 task=3 attempt=0 node=0\n",  /* task 3 is B's */
        "1.0 ras-cycle job=-1 utility=1\n",
        "1.0 task-done task=1 attempt=0 node=0\n",     /* no job */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *tl = NULL;
        CU_ASSERT_EQUAL(so_htimeline_read(w, bad[i], strlen(bad[i]), 1, &tl), SO_EINVAL);
        CU_ASSERT_PTR_NULL(tl);
    }
    json_t *tl = NULL;
    CU_ASSERT_EQUAL(so_htimeline_read(w, events, strlen(events), 0, &tl), SO_EINVAL);
    /* an empty log: one point, nothing running */
    CU_ASSERT_EQUAL_FATAL(so_htimeline_read(w, "", 0, 1, &tl), SO_OK);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(tl, "points")), 1);
    json_decref(tl);
    so_cl_workload_free(w);
}

/* A RAS run through bench: its timeline's mean running tasks per node,
 * sampled every second, is the run's running_per_node within sampling. */
static void test_ras_run(void)
{
    const char *sc = so_test_write("tl-ras.json",
        "{\"policies\": [\"ras\"], \"metric\": \"makespan\", \"timeline\": 1,\n"
        " \"inputs\": [{\"family\": \"ras-gridmix-workload\", \"count\": 1}],\n"
        " \"table\": {\"rows\": [\"policy\", \"time\"], \"value\": \"per_node\"}}\n");
    char args[1200], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "bench --scenario %s --db %s/tl.db --format json --cells", sc,
             so_test_tmpdir());
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, &err), 0);
    free(out);
    free(err);
    snprintf(args, sizeof args, "report --scenario %s --db %s/tl.db --format json --compact",
             sc, so_test_tmpdir());
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, &err), 0);
    json_t *rep = json_loads(out, 0, NULL), *rows = json_object_get(
        json_array_get(json_object_get(rep, "tables"), 0), "rows");
    double sum = 0;
    size_t i, n = json_array_size(rows);
    json_t *r;
    json_array_foreach(rows, i, r)
        sum += json_number_value(json_object_get(json_object_get(json_object_get(r, "values"),
                                                                 "per_node"), "mean"));
    CU_ASSERT(n > 4000); /* one row per second of a makespan over 4000 s */
    /* busy slot-seconds / (20 x makespan) of the same run: RAS's 3.1-3.3 */
    CU_ASSERT(sum / (double)n > 2.9 && sum / (double)n < 3.6);
    json_decref(rep);
    free(out);
    free(err);
}

static CU_TestInfo tests[] = {
    {"running tasks and utilities from a hand-made log", test_hand_log},
    {"logs naming jobs or tasks the workload lacks", test_bad_logs},
    {"a RAS run's timeline through bench and report", test_ras_run},
    CU_TEST_INFO_NULL,
};

SO_SUITE("harness-timeline", tests)
