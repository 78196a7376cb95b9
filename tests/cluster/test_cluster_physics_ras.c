/* test_cluster_physics_ras.c — RAS's reducer-first placement (issue 32,
 * item 4; cluster/sched_ras.c, option reduces=first) and RAS under the
 * physical model (never swaps: it checks memory itself). */
#include <stdio.h>
#include <string.h>
#include "cluster/sim_internal.h"
#include "tests/cluster/cluster_test.h"

/* One node of cpu 100; a job of 3 maps (cpu 50, 10 s) and one reducer
 * (cpu 50 while it copies, slow-start 0). The first task launched: the
 * reducer under reduces=first (then one map fits), a map under
 * slowstart (two maps take the cpu, the reducer waits). */
static int first_launch(const char *reduces)
{
    const char *json =
        "{\"problem\": \"cluster\", \"version\": 1, \"cluster\": {"
        "\"nodes\": [{\"count\": 1, \"capacity\": [100]}],"
        " \"heartbeat_phase\": \"aligned\", \"resources\": [\"cpu\"],"
        " \"contention\": {\"model\": \"share\"}},"
        " \"jobs\": [{\"submit\": 0, \"slowstart\": 0, \"map_demand\": [50],"
        " \"reduce_demand\": [50], \"shuffle_demand\": [50],"
        " \"maps\": {\"count\": 3, \"duration\": 10},"
        " \"reduces\": [{\"copy\": 1, \"reduce\": 5}]}]}";
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "reduces", reduces);
    char *buf = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&buf, &len);
    cl_run r = cl_simulate(json, "ras", NULL, &prm, 1, log);
    fclose(log);
    CU_ASSERT_PTR_NOT_NULL(r.sim);
    int task = -1;
    const char *l = buf ? strstr(buf, " launch ") : NULL;
    if (l)
        sscanf(strstr(l, "task=") + 5, "%d", &task);
    cl_done(&r);
    free(buf);
    return task;
}

static void test_reducer_first(void)
{
    CU_ASSERT_EQUAL(first_launch("first"), 3);     /* the reducer */
    CU_ASSERT_EQUAL(first_launch("slowstart"), 0); /* a map */
    CU_ASSERT_EQUAL(first_launch("switch"), 0);
    char *err = NULL;
    CU_ASSERT_EQUAL(so_test_run("sim instances/cluster/two_pools.json"
                                " --scheduler ras --opt reduces=later",
                                NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "switch, slowstart or first"));
    free(err);
}

/* The Gridmix workload under physical (the default): after every change
 * of a node's running set, RAS holds at most the node's memory (it checks
 * it before a launch); Fair with 8 map slots over-commits it, and swaps. */
typedef struct mem_check {
    int over, checks;
} mem_check;

static void check_memory(void *state, so_cl_sim *sim, int node)
{
    mem_check *c = state;
    const so_cl_nodert *nd = &sim->nodes[node];
    double used = 0;
    for (int k = 0; k < nd->n_running; k++)
        used += so_cl_current_demand(sim, &sim->attempts[nd->running[k]], 2);
    c->checks++;
    c->over += used > sim->w->nodes[node].capacity[2] + 1e-6;
}

static void test_ras_never_swaps(void)
{
    so_params set, prm;
    so_error err;
    so_params_init(&set);
    json_t *inst = NULL;
    CU_ASSERT_EQUAL_FATAL(so_family_generate(so_family_find("ras-gridmix-workload"),
                                             &set, 1, 0, &inst, &err), SO_OK);
    char *text = json_dumps(inst, 0);
    json_decref(inst);
    static const so_cl_hooks hooks = {.node_change = check_memory};
    const char *sched[2] = {"ras", "fair"};
    mem_check c[2] = {{0, 0}, {0, 0}};
    double makespan[2];
    for (int k = 0; k < 2; k++) {
        so_params_init(&prm);
        if (k == 1)
            so_params_set(&prm, "map_slots", "8");
        cl_run r = cl_simulate_hooks(text, sched[k], NULL, &prm, 1, NULL,
                                     &hooks, &c[k]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        makespan[k] = so_cl_sim_stats(r.sim)->makespan;
        cl_done(&r);
    }
    free(text);
    CU_ASSERT(c[0].checks > 1000 && c[1].checks > 1000);
    CU_ASSERT_EQUAL(c[0].over, 0);
    CU_ASSERT(c[1].over > 100);
    CU_ASSERT(makespan[0] < makespan[1]);
}

static CU_TestInfo tests[] = {
    {"reducers first (reduces=first)", test_reducer_first},
    {"RAS does not swap, Fair-8 does", test_ras_never_swaps},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-physics-ras", tests)
