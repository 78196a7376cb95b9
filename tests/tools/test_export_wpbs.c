/* test_export_wpbs.c — Hadoop pools from WPBS shares (cluster/wpbs_snapshot.c,
 * tools/export/export_wpbs.c, `slotopt export` on a cluster workload).
 *
 * tests/corpus/hadoop/wpbs-workload.json, by hand: 2 nodes of 4 map and 2
 * reduce slots (8 + 4), heartbeat 1 s; at 0 alice submits 6 maps and 1
 * reduce, "bob smith" 12 maps and 3 reduces, both slowstart 0, tasks of
 * 10 s and 5 s. Up to 1 s (the default time: last submission + one
 * heartbeat) no task has completed, so every task time is estimated at
 * 1 s and eq. 7's sizes are the task counts. Eq. 8 with alpha 1, F = S / 2:
 *   maps (F 4, sizes 6 and 12): su = 4 x 2 x (1/6) / (1/6 + 1/12) = 16/3
 *     and 8/3; demands 6 and 12 cap nothing;
 *   reduces (F 2, sizes 1 and 3): su = 3 and 1; alice's demand 1 caps her
 *     at 1, the surplus goes to bob: min(3, r x 1) with 1 + r = 4, r = 3.
 * Pools: alice minMaps 5, minReduces 1, weight 16/3 + 1 = 6.33333; bob_smith
 * (the blank replaced) 2, 3, 8/3 + 3 = 5.66667; one job each, so both keep
 * the initial FIFO scheme. Capacity: 6 and 5 slots of 1024 MiB plus one
 * ApplicationMaster of 1536 MiB allocated as 2048 each, 8192 and 7168 MiB
 * -> 53.33 / 46.67. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include "tests/test_util.h"
#include "cluster/wpbs_snapshot.h"
#include "tools/export/export_wpbs.h"

#define WORKLOAD "tests/corpus/hadoop/wpbs-workload.json"
/* Users named with periods, one without demand: early.bird's one-second
 * job (submitted at 0) has finished by the default time 11 s (the last
 * submission, 10 s, plus one heartbeat); john.doe runs two jobs. */
#define USERS "tests/corpus/hadoop/wpbs-users-workload.json"

static void test_snapshot(void)
{
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_read(WORKLOAD, NULL, 1, &w, &err), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_wpbs_default_at(w), 1, 1e-12);
    so_cl_wpbs_snapshot s;
    CU_ASSERT_EQUAL_FATAL(so_cl_wpbs_snapshot_at(w, NULL, 1, 1, &s, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(s.n_users, 2);
    CU_ASSERT(s.time >= 0 && s.time <= 1);
    CU_ASSERT_EQUAL(s.total_slots[SO_CL_MAP], 8);
    CU_ASSERT_EQUAL(s.total_slots[SO_CL_REDUCE], 4);
    CU_ASSERT_STRING_EQUAL(s.users[0].name, "alice");
    CU_ASSERT_STRING_EQUAL(s.users[1].name, "bob smith");
    CU_ASSERT_DOUBLE_EQUAL(s.users[0].su[SO_CL_MAP], 16.0 / 3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.users[1].su[SO_CL_MAP], 8.0 / 3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.users[0].share[SO_CL_MAP], 16.0 / 3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.users[0].su[SO_CL_REDUCE], 3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.users[1].su[SO_CL_REDUCE], 1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.users[0].share[SO_CL_REDUCE], 1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.users[1].share[SO_CL_REDUCE], 3, 1e-9);
    CU_ASSERT_EQUAL(s.users[0].fifo, 1);
    so_cl_wpbs_snapshot_free(&s);
    /* after the end (maps 10-20 s, reduces 5 s) nobody waits */
    CU_ASSERT_EQUAL_FATAL(so_cl_wpbs_snapshot_at(w, NULL, 1, 1000, &s, &err), SO_OK);
    CU_ASSERT(s.time > 20 && s.time <= 1000);
    for (int u = 0; u < s.n_users; u++)
        CU_ASSERT_EQUAL(s.users[u].share[SO_CL_MAP] + s.users[u].share[SO_CL_REDUCE], 0);
    so_cl_wpbs_snapshot_free(&s);
    CU_ASSERT_EQUAL(so_cl_wpbs_snapshot_at(w, NULL, 1, -1, &s, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "at");
    so_cl_workload_free(w);
}

static const struct {
    int format;
    const char *file;
} GOLDEN[] = {
    {SO_HC_FAIR, "fair-scheduler.xml"},
    {SO_HC_YARN_FAIR, "yarn-fair.xml"},
    {SO_HC_CAPACITY, "capacity-scheduler.xml"},
};

/* The shares written in each format equal tests/corpus/hadoop/PREFIX-FORMAT.xml,
 * and parse back. */
static void check_golden(const so_hc_shares *shares, const char *prefix)
{
    so_error err;
    so_hc_shares copy = *shares, *sh = &copy;
    copy.alloc_mb = 1024; /* as slotopt export: YARN's default allocation step */
    for (size_t i = 0; i < sizeof GOLDEN / sizeof GOLDEN[0]; i++) {
        char *text = NULL, path[200];
        snprintf(path, sizeof path, "tests/corpus/hadoop/%s-%s", prefix, GOLDEN[i].file);
        CU_ASSERT_EQUAL_FATAL(so_hc_write(sh, GOLDEN[i].format, &text, &err), SO_OK);
        char *golden = so_test_slurp(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(golden);
        CU_ASSERT_STRING_EQUAL(text, golden);
        xmlDocPtr doc = xmlReadMemory(text, (int)strlen(text), "wpbs.xml", NULL,
                                      XML_PARSE_NONET | XML_PARSE_NOERROR);
        CU_ASSERT_PTR_NOT_NULL(doc);
        xmlFreeDoc(doc);
        free(golden);
        free(text);
    }
}

static void test_golden(void)
{
    so_hc_shares sh;
    so_error err;
    double used = -1;
    CU_ASSERT_EQUAL_FATAL(so_export_wpbs_shares(WORKLOAD, NAN, 1024, 1536, 1024, &sh, &used, &err), SO_OK);
    CU_ASSERT(used >= 0 && used <= 1);
    CU_ASSERT_EQUAL_FATAL(sh.n, 2);
    CU_ASSERT_STRING_EQUAL(sh.pools[0].name, "alice");
    CU_ASSERT_STRING_EQUAL(sh.pools[1].name, "bob_smith");
    CU_ASSERT_STRING_EQUAL(sh.pools[1].user, "bob smith"); /* for the routing */
    CU_ASSERT_EQUAL(sh.pools[0].min_maps, 5);
    CU_ASSERT_EQUAL(sh.pools[0].min_reduces, 1);
    CU_ASSERT_EQUAL(sh.pools[1].min_maps, 2);
    CU_ASSERT_EQUAL(sh.pools[1].min_reduces, 3);
    CU_ASSERT_EQUAL(sh.pools[0].max_maps, SO_HC_UNSET);
    CU_ASSERT_DOUBLE_EQUAL(sh.pools[0].weight, 19.0 / 3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sh.pools[1].weight, 17.0 / 3, 1e-9);
    CU_ASSERT_EQUAL(sh.pools[0].fifo, 1);
    CU_ASSERT_EQUAL(sh.cluster_slots, 12);
    CU_ASSERT_EQUAL(sh.container_mb, 1024);
    CU_ASSERT_EQUAL(sh.alloc_mb, 1024);
    check_golden(&sh, "wpbs");
    free(sh.pools);
}

/* Every user of the workload keeps a pool: one without demand at the time
 * (early.bird) gets minima 0 and the smallest weight among the users with
 * demand, so its jobs are accepted and served like the least-entitled
 * user's; names keep their periods here (the writer maps them per format). */
static void test_every_user(void)
{
    so_hc_shares sh;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_export_wpbs_shares(USERS, NAN, 1024, 1536, 512, &sh, NULL, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(sh.n, 3);
    CU_ASSERT_STRING_EQUAL(sh.pools[0].name, "alice");
    CU_ASSERT_STRING_EQUAL(sh.pools[1].name, "early.bird");
    CU_ASSERT_STRING_EQUAL(sh.pools[2].name, "john.doe");
    CU_ASSERT_STRING_EQUAL(sh.pools[2].user, "john.doe");
    CU_ASSERT_EQUAL(sh.pools[1].min_maps, 0);
    CU_ASSERT_EQUAL(sh.pools[1].min_reduces, 0);
    CU_ASSERT_EQUAL(sh.pools[1].max_maps, SO_HC_UNSET);
    CU_ASSERT(sh.pools[0].weight > 0 && sh.pools[2].weight > 0);
    CU_ASSERT_DOUBLE_EQUAL(sh.pools[1].weight, fmin(sh.pools[0].weight, sh.pools[2].weight),
                           1e-12);
    CU_ASSERT(sh.pools[0].min_maps + sh.pools[0].min_reduces > 0);
    CU_ASSERT(sh.pools[2].min_maps + sh.pools[2].min_reduces > 0);
    /* one ApplicationMaster per job running at the time: john.doe runs two */
    CU_ASSERT_EQUAL(sh.pools[0].ams, 1);
    CU_ASSERT_EQUAL(sh.pools[1].ams, 0);
    CU_ASSERT_EQUAL(sh.pools[2].ams, 2);
    CU_ASSERT_EQUAL(sh.am_mb, 1536);
    CU_ASSERT_EQUAL(sh.alloc_mb, 512); /* as so_export_shares: the caller's step */
    check_golden(&sh, "wpbs-users");
    free(sh.pools);
}

static void test_cli(void)
{
    char *out = NULL, *err = NULL;
    CU_ASSERT_EQUAL(so_test_run("export --format fair-scheduler " WORKLOAD, &out, &err), 0);
    char *golden = so_test_slurp("tests/corpus/hadoop/wpbs-fair-scheduler.xml");
    CU_ASSERT_STRING_EQUAL(out, golden ? golden : "");
    free(golden);
    free(out);
    free(err);
    CU_ASSERT_EQUAL(so_test_run("export --format yarn-fair --opt at=1000 " WORKLOAD, &out, &err),
                    2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "'at'"));
    CU_ASSERT_STRING_EQUAL(out, "");
    free(out);
    free(err);
    CU_ASSERT_EQUAL(so_test_run("export --format yarn-fair --opt at=-1 " WORKLOAD, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "at=-1"));
    free(out);
    free(err);
}

/* The export replays a workload only up to the snapshot time, so it takes
 * workloads whose whole replay the simulator would refuse (one 1e9 s map:
 * about 1e9 x 2 epochs per second, above the default max_events). */
static void test_long_workload(void)
{
    const char *t = "{\"cluster\": {\"nodes\": [{\"count\": 2}]}, \"jobs\":"
                    " [{\"submit\": 0, \"user\": \"ann\", \"maps\": [1e9]}]}";
    so_hc_shares sh;
    so_error err;
    int rc = so_export_wpbs_shares_text(t, strlen(t), "long.json", 10, 1024, 1536,
                                        1024, &sh, NULL, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    CU_ASSERT_EQUAL(sh.n, 1);
    CU_ASSERT_STRING_EQUAL(sh.pools[0].name, "ann");
    CU_ASSERT_EQUAL(sh.pools[0].min_maps, 1);
    free(sh.pools);
}

static CU_TestInfo tests[] = {
    {"WPBS shares at a time (hand-computed eq. 8)", test_snapshot},
    {"golden files from a hand-made workload", test_golden},
    {"every user kept, periods in names (wpbs-users-workload.json)", test_every_user},
    {"slotopt export on a cluster workload", test_cli},
    {"a workload too long to replay in full is exported", test_long_workload},
    CU_TEST_INFO_NULL,
};
SO_SUITE("export_wpbs", tests)
