/* test_cluster_fair.c — the fair scheduler: waterline shares computed by
 * hand, minimum shares, FIFO and fair pools, and preemption. */
#include "tests/test_util.h"
#include "tests/cluster/cluster_test.h"
#include "cluster/fair_share.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9)

static void check_waterline(int n, const double *w, const double *m,
                            const double *d, double slots, const double *expect)
{
    double share[8];
    so_cl_waterline(n, w, m, d, slots, share);
    for (int i = 0; i < n; i++)
        NEAR(share[i], expect[i]);
}

static void test_waterline_hand(void)
{
    /* job 3 saturates its demand 1 at r = 0.5; job 2's minimum 3 binds
     * until r = 3 (total 7); then r + r + 1 = 10 gives r = 4.5 */
    check_waterline(3, (double[]){1, 1, 2}, (double[]){0, 3, 0},
                    (double[]){10, 10, 1}, 10, (double[]){4.5, 4.5, 1});
    /* weights 1 : 3 split 8 slots 2 : 6 */
    check_waterline(2, (double[]){1, 3}, (double[]){0, 0}, (double[]){100, 100},
                    8, (double[]){2, 6});
    /* minima above the slots are scaled down (FLEX sec. 1 normalisation) */
    check_waterline(2, (double[]){1, 1}, (double[]){6, 12}, (double[]){10, 20},
                    9, (double[]){3, 6});
    /* a minimum above the demand counts as the demand */
    check_waterline(2, (double[]){1, 1}, (double[]){5, 0}, (double[]){2, 100},
                    10, (double[]){2, 8});
    /* total demand below the slots: everyone gets its demand */
    check_waterline(3, (double[]){1, 1, 1}, (double[]){0, 0, 0},
                    (double[]){2, 3, 0}, 10, (double[]){2, 3, 0});
    /* minimum binds while r < 4: shares max(4, r), r, r with 4 + 2r = 10 ... r = 3
     * is below the minimum, so the first keeps 4 and the others 3 each */
    check_waterline(3, (double[]){1, 1, 1}, (double[]){4, 0, 0},
                    (double[]){50, 50, 50}, 10, (double[]){4, 3, 3});
}

/* Randomised check of the waterline's defining properties. */
static void test_waterline_properties(void)
{
    so_rng rng;
    so_rng_seed(&rng, 5);
    for (int it = 0; it < 500; it++) {
        int n = (int)so_rng_int(&rng, 1, 8);
        double w[8], m[8], d[8], s[8], sum_d = 0, sum_s = 0;
        double slots = (double)so_rng_int(&rng, 1, 40);
        for (int i = 0; i < n; i++) {
            w[i] = (double)so_rng_int(&rng, 1, 4);
            m[i] = (double)so_rng_int(&rng, 0, 5);
            d[i] = (double)so_rng_int(&rng, 0, 20);
            sum_d += d[i];
        }
        so_cl_waterline(n, w, m, d, slots, s);
        double level = -1;
        for (int i = 0; i < n; i++) {
            sum_s += s[i];
            CU_ASSERT(s[i] <= d[i] + 1e-9);
            CU_ASSERT(s[i] >= -1e-9);
            /* a job strictly between its minimum and its demand sits at the
             * common water level s / w */
            double lo = m[i] < d[i] ? m[i] : d[i];
            if (s[i] > lo + 1e-9 && s[i] < d[i] - 1e-9) {
                if (level < 0)
                    level = s[i] / w[i];
                CU_ASSERT_DOUBLE_EQUAL(s[i] / w[i], level, 1e-7);
            }
        }
        NEAR(sum_s, slots < sum_d ? slots : sum_d);
    }
}

/* One node with 4 map slots. X (pool "batch") at 0: eight 10 s maps; Y
 * (pool "prod", min_maps 3) at 0.5: three 10 s maps. X fills the node 0-10.
 * With the minimum share the waterline gives prod 3 and batch 1: at 10 Y
 * takes 3 slots (done at 20), X one; X's last three run 20-30.
 * Without it the shares are 2 and 2: Y.m0, Y.m1 10-20, Y.m2 20-30. */
static const char *pools_json =
    "{\"cluster\": {\"nodes\": [{\"map_slots\": 4, \"reduce_slots\": 0}],"
    " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
    " \"pools\": [{\"name\": \"prod\", \"min_maps\": %d}],"
    " \"jobs\": [{\"name\": \"X\", \"pool\": \"batch\", \"submit\": 0,"
    "  \"maps\": {\"count\": 8, \"duration\": 10}},"
    "  {\"name\": \"Y\", \"pool\": \"prod\", \"submit\": 0.5,"
    "  \"maps\": {\"count\": 3, \"duration\": 10}}]}";

static void test_min_share(void)
{
    char json[1024];
    snprintf(json, sizeof json, pools_json, 3);
    cl_run r = cl_simulate(json, "fair", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 1)->start, 10);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 20);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 30);
    cl_done(&r);
    snprintf(json, sizeof json, pools_json, 0);
    r = cl_simulate(json, "fair", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 30);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 30);
    cl_done(&r);
}

/* The fair_pair workload of the engine tests inside one pool: mode fifo
 * reproduces the FIFO times (A 8, B 10), mode fair the fair ones (A 12,
 * B 8). */
static void test_pool_modes(void)
{
    const char *fmt =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 2, \"reduce_slots\": 1}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"pools\": [{\"name\": \"p\", \"mode\": \"%s\"}],"
        " \"jobs\": [{\"pool\": \"p\", \"submit\": 0, \"maps\": [4, 4, 4, 4]},"
        "  {\"pool\": \"p\", \"submit\": 0.5, \"maps\": [2, 2]}]}";
    char json[1024];
    snprintf(json, sizeof json, fmt, "fifo");
    cl_run r = cl_simulate(json, "fair", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 8);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 10);
    cl_done(&r);
    snprintf(json, sizeof json, fmt, "fair");
    r = cl_simulate(json, "fair", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 12);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 8);
    cl_done(&r);
}

/* Two 100 s maps of X hold both slots from 0. Y (pool prod, min 2) arrives
 * at 1. prod was last at its minimum at the epoch of 0.5; with a 5 s
 * timeout and checks every second, the epoch at 6 preempts both X attempts
 * (latest launched first). The heartbeat at 7 gives Y both slots (7-17);
 * X's maps rerun 17-117. Without preemption Y waits until 100. */
static void test_preemption(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 2, \"reduce_slots\": 0}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"pools\": [{\"name\": \"prod\", \"min_maps\": 2}],"
        " \"jobs\": [{\"name\": \"X\", \"submit\": 0, \"maps\": [100, 100]},"
        "  {\"name\": \"Y\", \"pool\": \"prod\", \"submit\": 1, \"maps\": [10, 10]}]}";
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "min_share_timeout", "5");
    so_params_set(&prm, "preemption_interval", "1");
    cl_run r = cl_simulate(json, "fair", NULL, &prm, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 1)->start, 7);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 17);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 117);
    /* the killed attempts' 6 s each are busy time too */
    NEAR(so_cl_sim_stats(r.sim)->busy[SO_CL_MAP], 2 * 6 + 2 * 10 + 2 * 100);
    CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->attempts, 6);
    CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->preempted, 2);
    for (size_t t = 0; t < so_cl_sim_task_count(r.sim); t++)
        CU_ASSERT_EQUAL(so_cl_sim_task_completions(r.sim, t), 1);
    cl_done(&r);
    r = cl_simulate(json, "fair", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 1)->start, 100);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 110);
    cl_done(&r);
}

/* Hadoop's update thread stamps a pool at its shares every update, also
 * while the cluster is idle (no demand: every pool is at its shares). Here
 * pool "a" is idle from 1 s to 100 s; B takes both slots at 100 and a's
 * job arrives at 100: a starves from 100, so with a 30 s timeout B loses a
 * slot at the check of 130 (checks every 15 s: 100, 115, 130), and a's job
 * starts at the next heartbeat, 131 — not at once as if a had starved
 * since 1 s. */
static void test_preemption_after_idle(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 2, \"reduce_slots\": 0}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"pools\": [{\"name\": \"a\", \"min_maps\": 2}, {\"name\": \"b\"}],"
        " \"jobs\": [{\"submit\": 0, \"pool\": \"a\", \"maps\": [1]},"
        "  {\"submit\": 99.9, \"pool\": \"b\", \"maps\": [50, 50]},"
        "  {\"submit\": 100, \"pool\": \"a\", \"maps\": [5]}]}";
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "min_share_timeout", "30");
    cl_run r = cl_simulate(json, "fair", NULL, &prm, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->preempted, 1);
    NEAR(so_cl_sim_job(r.sim, 2)->start, 131);
    NEAR(so_cl_sim_job(r.sim, 2)->finish, 136);
    cl_done(&r);
}

/* Two nodes with one map slot each; both maps' blocks are on node 0 only,
 * a remote map takes 3 times as long. Without delay scheduling node 1 runs
 * m1 remotely at 0 (0-30). With a 3 s delay node 1 gives up waiting at 3
 * (3-33). With a 15 s delay m1 waits for node 0 (10-20): every map local. */
static void test_delay_scheduling(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"count\": 2, \"map_slots\": 1,"
        " \"reduce_slots\": 0}], \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\","
        " \"replicas\": 1, \"remote_slowdown\": 3},"
        " \"jobs\": [{\"submit\": 0, \"maps\": [{\"duration\": 10, \"replicas\": [0]},"
        "  {\"duration\": 10, \"replicas\": [0]}]}]}";
    const char *delay[] = {"0", "3", "15"};
    double finish[] = {30, 33, 20};
    uint64_t local[] = {1, 1, 2};
    for (int k = 0; k < 3; k++) {
        so_params prm;
        so_params_init(&prm);
        so_params_set(&prm, "locality_delay", delay[k]);
        cl_run r = cl_simulate(json, "fair", NULL, &prm, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        NEAR(so_cl_sim_job(r.sim, 0)->finish, finish[k]);
        CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->local_maps, local[k]);
        CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->remote_maps, 2 - local[k]);
        cl_done(&r);
    }
}

/* FIFO takes the node-local pending map first (Hadoop's obtainNewMapTask):
 * node 0 runs m1 and node 1 runs m0, both local, although m0 comes first. */
static void test_fifo_prefers_local(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"count\": 2, \"map_slots\": 1,"
        " \"reduce_slots\": 0}], \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\","
        " \"replicas\": 1, \"remote_slowdown\": 3},"
        " \"jobs\": [{\"submit\": 0, \"maps\": [{\"duration\": 10, \"replicas\": [1]},"
        "  {\"duration\": 10, \"replicas\": [0]}]}]}";
    FILE *log = tmpfile();
    cl_run r = cl_simulate(json, "fifo", NULL, NULL, 1, log);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 10);
    CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->local_maps, 2);
    rewind(log);
    char line[256];
    int found = 0;
    while (fgets(line, sizeof line, log))
        found |= strncmp(line, "0.000000 launch job=0 task=1 attempt=0 node=0", 45) == 0;
    CU_ASSERT(found);
    fclose(log);
    cl_done(&r);
}

static void test_bad_options(void)
{
    char json[1024];
    snprintf(json, sizeof json, pools_json, 1);
    cl_run r = cl_simulate(json, "fair", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL(r.sim); /* the workload itself is fine */
    cl_done(&r);
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "preemption_interval", "0");
    r = cl_simulate(json, "fair", NULL, &prm, 1, NULL);
    CU_ASSERT_PTR_NULL(r.sim);
    cl_done(&r);
    so_params_init(&prm);
    so_params_set(&prm, "epoch", "abc");
    r = cl_simulate(json, "fair", NULL, &prm, 1, NULL);
    CU_ASSERT_PTR_NULL(r.sim);
    cl_done(&r);
    so_params_init(&prm);
    so_params_set(&prm, "locality_delay", "-2");
    r = cl_simulate(json, "fair", NULL, &prm, 1, NULL);
    CU_ASSERT_PTR_NULL(r.sim);
    cl_done(&r);
    so_params_init(&prm);
    so_params_set(&prm, "epoch", "0");
    r = cl_simulate(json, "fifo", NULL, &prm, 1, NULL);
    CU_ASSERT_PTR_NULL(r.sim);
    cl_done(&r);
}

/* Pool maxima (fair-scheduler.xml's maxMaps): one node of 3 map slots,
 * beats every second. A (pool a, max_maps 1): four 2 s maps; B (pool b):
 * two 3 s maps; both at 0. Pool a never runs more than one map, so A's
 * maps run back to back 0-2, 2-4, 4-6, 6-8 (slots left idle after B ends
 * at 3); B runs 0-3. Fair and FLEX (which uses fair's assignment layer)
 * agree; without the maximum A ends before 8. */
static void test_pool_maxima(void)
{
    const char *fmt =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 3, \"reduce_slots\": 0}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"pools\": [{\"name\": \"a\"%s}, {\"name\": \"b\"}],"
        " \"jobs\": [{\"submit\": 0, \"pool\": \"a\", \"maps\": [2, 2, 2, 2]},"
        "  {\"submit\": 0, \"pool\": \"b\", \"maps\": [3, 3]}]}";
    const char *scheds[] = {"fair", "flex"};
    char json[1024];
    for (int k = 0; k < 2; k++) {
        snprintf(json, sizeof json, fmt, ", \"max_maps\": 1");
        FILE *log = tmpfile();
        CU_ASSERT_PTR_NOT_NULL_FATAL(log);
        cl_run r = cl_simulate(json, scheds[k], NULL, NULL, 1, log);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish, 8, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 1)->finish, 3, 1e-9);
        /* at most one running map of job 0 at any time */
        rewind(log);
        char line[256];
        int running = 0, most = 0;
        while (fgets(line, sizeof line, log)) {
            if (strstr(line, " launch job=0 "))
                running++;
            else if (strstr(line, " task-done job=0 "))
                running--;
            most = running > most ? running : most;
        }
        CU_ASSERT_EQUAL(most, 1);
        fclose(log);
        cl_done(&r);
        snprintf(json, sizeof json, fmt, "");
        r = cl_simulate(json, scheds[k], NULL, NULL, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        CU_ASSERT(so_cl_sim_job(r.sim, 0)->finish < 8 - 1e-9);
        cl_done(&r);
    }
}

static CU_TestInfo tests[] = {
    {"pool maxima in fair and flex", test_pool_maxima},
    {"waterline shares computed by hand", test_waterline_hand},
    {"waterline: capped, common level, sums", test_waterline_properties},
    {"pool minimum share", test_min_share},
    {"pool modes fifo and fair", test_pool_modes},
    {"preemption after the min-share timeout", test_preemption},
    {"preemption timeout counts from the end of an idle spell", test_preemption_after_idle},
    {"delay scheduling waits for a local map", test_delay_scheduling},
    {"fifo prefers node-local maps", test_fifo_prefers_local},
    {"bad scheduler options", test_bad_options},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-fair", tests)
