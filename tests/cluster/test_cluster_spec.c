/* test_cluster_spec.c — speculation plug-ins: hand-computed useful and
 * non-beneficial copies under Hadoop's rule and LATE, and LATE's slow-node
 * filter. */
#include <stdlib.h>
#include "tests/test_util.h"
#include "tests/cluster/cluster_test.h"
#include "cluster/speculation.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9)

/* Node 0: speed 1, two map slots; node 1: speed s, one map slot. Three
 * 100 s maps: m0, m1 on node 0 (0-100), m2 on node 1 (ends 100 / s). */
static const char *straggler =
    "{\"cluster\": {\"nodes\": [{\"map_slots\": 2, \"reduce_slots\": 0},"
    " {\"map_slots\": 1, \"reduce_slots\": 0, \"speed\": %g}],"
    " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
    " \"jobs\": [{\"submit\": 0, \"maps\": [100, 100, 100]}]}";

/* s = 0.25. At 100 the rates are 0.01, 0.01 (done) and 0.0025 (m2, 25%
 * done): Hadoop's mean - sd = 0.0075 - 0.0035355 > 0.0025, so m2 is slow
 * and is copied on node 0 at 100; the copy ends at 200, before the
 * original (400): one useful copy, the job ends at 200. LATE: the
 * interpolated 25th percentile of {0.0025, 0.01, 0.01} is 0.00625 > 0.0025;
 * node 0's score 2 is above the nodes' 25th percentile (0.6875): same copy. */
static void test_useful_copy(void)
{
    char json[1024];
    snprintf(json, sizeof json, straggler, 0.25);
    const char *specs[] = {"hadoop", "late"};
    for (int k = 0; k < 2; k++) {
        cl_run r = cl_simulate(json, "fifo", specs[k], NULL, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        const so_cl_stats *st = so_cl_sim_stats(r.sim);
        NEAR(so_cl_sim_job(r.sim, 0)->finish, 200);
        CU_ASSERT_EQUAL(st->spec_launched, 1);
        CU_ASSERT_EQUAL(st->spec_useful, 1);
        CU_ASSERT_EQUAL(st->spec_nonbeneficial, 0);
        /* m0, m1 100 s each; m2's original 0-200 (killed), its copy 100-200 */
        NEAR(st->busy[SO_CL_MAP], 100 + 100 + 200 + 100);
        cl_done(&r);
    }
    cl_run r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 400);
    CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->spec_launched, 0);
    cl_done(&r);
}

/* s = 0.6: m2 is 60% done at 100 (rate 0.006); Hadoop's threshold
 * 0.008667 - 0.001886 = 0.00678 marks it slow and copies it, but the
 * original ends at 166.67, before the copy (200): a non-beneficial copy,
 * killed at 166.67; the job ends as without speculation. */
static void test_nonbeneficial_copy(void)
{
    char json[1024];
    snprintf(json, sizeof json, straggler, 0.6);
    cl_run r = cl_simulate(json, "fifo", "hadoop", NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    const so_cl_stats *st = so_cl_sim_stats(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 100 / 0.6);
    CU_ASSERT_EQUAL(st->spec_launched, 1);
    CU_ASSERT_EQUAL(st->spec_useful, 0);
    CU_ASSERT_EQUAL(st->spec_nonbeneficial, 1);
    NEAR(st->busy[SO_CL_MAP], 200 + 100 / 0.6 + (100 / 0.6 - 100));
    cl_done(&r);
}

/* Equal tasks on equal nodes: no task is slower than the others, so neither
 * rule copies anything. */
static void test_no_copy_when_uniform(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"count\": 3, \"map_slots\": 1,"
        " \"reduce_slots\": 0}]},"
        " \"jobs\": [{\"submit\": 0, \"maps\": {\"count\": 7, \"duration\": 90}}]}";
    const char *specs[] = {"hadoop", "late"};
    for (int k = 0; k < 2; k++) {
        cl_run r = cl_simulate(json, "fair", specs[k], NULL, 4, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->spec_launched, 0);
        cl_done(&r);
    }
}

/* LATE never launches a copy on a slow node. Node 0 (speed 0.5), nodes
 * 1-6 (speed 1), node 7 (speed 0.1, the straggler), one map slot each;
 * fourteen 100 s maps. Nodes 1-6 run two maps each (0-100, 100-200), node 0
 * one (0-200), node 7 m7 (0-1000). At 200 m7's rate 0.001 is below the
 * tasks' 25th percentile (0.01). Node scores are 1 (node 0), 2 (nodes 1-6)
 * and 0.2: their 25th percentile is 1.75, so node 0, which beats first, is
 * slow and gets no copy; node 1 copies m7 (200-300). Hadoop's rule has no
 * node filter: node 0 copies m7 (200-400). */
static void test_late_slow_node(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": ["
        " {\"map_slots\": 1, \"reduce_slots\": 0, \"speed\": 0.5},"
        " {\"count\": 6, \"map_slots\": 1, \"reduce_slots\": 0},"
        " {\"map_slots\": 1, \"reduce_slots\": 0, \"speed\": 0.1}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"jobs\": [{\"submit\": 0, \"maps\": {\"count\": 14, \"duration\": 100}}]}";
    const char *specs[] = {"late", "hadoop"};
    const char *where[] = {"200.000000 launch-speculative job=0 task=7 attempt=14 node=1",
                           "200.000000 launch-speculative job=0 task=7 attempt=14 node=0"};
    double finish[] = {300, 400};
    for (int k = 0; k < 2; k++) {
        FILE *log = tmpfile();
        cl_run r = cl_simulate(json, "fifo", specs[k], NULL, 1, log);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        rewind(log);
        char line[256];
        int copies = 0, found = 0;
        while (fgets(line, sizeof line, log)) {
            copies += strstr(line, "launch-speculative") != NULL;
            found |= strncmp(line, where[k], strlen(where[k])) == 0;
        }
        CU_ASSERT_EQUAL(copies, 1);
        CU_ASSERT(found);
        NEAR(so_cl_sim_job(r.sim, 0)->finish, finish[k]);
        CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->spec_useful, 1);
        fclose(log);
        cl_done(&r);
    }
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The selection-based quantile equals the one read off a sorted copy. */
static void test_quantile(void)
{
    double x[] = {0.01, 0.0025, 0.01};
    NEAR(so_cl_quantile(x, 3, 0.25), 0.00625);
    so_rng rng;
    so_rng_seed(&rng, 9);
    for (int it = 0; it < 3000; it++) {
        int n = (int)so_rng_int(&rng, 1, 40);
        double a[40], b[40];
        for (int i = 0; i < n; i++)
            a[i] = b[i] = (double)so_rng_int(&rng, 0, 6);
        double q = (double)so_rng_int(&rng, 0, 100) / 100;
        qsort(b, (size_t)n, sizeof *b, by_value);
        double pos = q * (n - 1);
        int lo = (int)pos;
        double expect = lo >= n - 1 ? b[n - 1] : b[lo] + (pos - lo) * (b[lo + 1] - b[lo]);
        NEAR(so_cl_quantile(a, n, q), expect);
    }
}

static CU_TestInfo tests[] = {
    {"interpolated quantile by selection", test_quantile},
    {"a useful copy (hadoop, late)", test_useful_copy},
    {"a non-beneficial copy (hadoop)", test_nonbeneficial_copy},
    {"no copy when all tasks progress alike", test_no_copy_when_uniform},
    {"late: no copy on a slow node", test_late_slow_node},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-spec", tests)
