/* test_cluster_rates.c — variable-rate attempts: a rate change mid-task,
 * stale end events, processor-sharing contention with hard resources
 * refused at launch, a reduce's shuffle then reduce demand, and
 * conservation under random rate changes. Times are hand-computed in the
 * comments. */
#include <math.h>
#include <stdlib.h>
#include "tests/test_util.h"
#include "tests/cluster/cluster_test.h"
#include "cluster/sim_internal.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9)

/* A node policy for the first test: when job 1 arrives, attempt 0 runs at
 * half speed. */
static void halve_first(void *state, so_cl_sim *sim, int job)
{
    (void)state;
    if (job == 1)
        CU_ASSERT_EQUAL(so_cl_set_rate_factor(sim, 0, 0.5), 0);
}

/* One map slot. A: one 10 s map from 0; B (one 1 s map) arrives at 4 and
 * halves A's rate: 4 s of work done, 6 left at 0.5 -> A ends at 16 (not
 * 10). B runs 16-17. The end event at 10 is stale: never handled, never
 * counted. Bad factors are refused. */
static void test_rate_change_mid_task(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 0}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"jobs\": [{\"submit\": 0, \"maps\": [10]},"
        "  {\"submit\": 4, \"maps\": [1]}]}";
    so_cl_hooks hooks = {0};
    hooks.job_arrive = halve_first;
    FILE *log = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    cl_run r = cl_simulate_hooks(json, "fifo", NULL, NULL, 1, log, &hooks, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 16);
    NEAR(so_cl_sim_job(r.sim, 1)->start, 16);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 17);
    const so_cl_stats *st = so_cl_sim_stats(r.sim);
    CU_ASSERT_EQUAL(st->stale_events, 1);
    CU_ASSERT_EQUAL(st->events_by_kind[SO_CL_EV_END], 2);
    NEAR(st->work_done, 11);
    CU_ASSERT_EQUAL(so_cl_set_rate_factor(r.sim, 0, 2), -1); /* done */
    rewind(log);
    char line[256];
    int ends = 0;
    while (fgets(line, sizeof line, log))
        ends += strstr(line, " task-done ") != NULL;
    CU_ASSERT_EQUAL(ends, 2);
    fclose(log);
    cl_done(&r);
}

static void test_bad_factor(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 0}]},"
        " \"jobs\": [{\"submit\": 0, \"maps\": [1]}]}";
    cl_run r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_EQUAL(so_cl_set_rate_factor(r.sim, 0, 0), -1);
    CU_ASSERT_EQUAL(so_cl_set_rate_factor(r.sim, 0, NAN), -1);
    CU_ASSERT_EQUAL(so_cl_set_rate_factor(r.sim, 7, 1), -1);
    cl_done(&r);
}

/* Contention "share", cpu shared (capacity 1), mem hard (capacity 2); three
 * one-map jobs of 4, 6 and 3 s, each demanding cpu 1 and mem 1; three map
 * slots. At 0: J0 and J1 start (mem full: J2 refused at launch), cpu demand
 * 2 > 1 -> each runs at 1/2. J0 ends at 8 (4 / 0.5); J1 has 4 done. At 8
 * J2 starts; J1 (2 left) and J2 share the cpu: J1 ends at 12; J2 has 2
 * done, 1 left at full speed: ends at 13. Rate changes: J0 at J1's launch,
 * J1 at 8 (alone), J1 at J2's launch, J2 at 12: 4 stale ends. Without
 * contention every resource is hard: one map at a time, J0 0-4, J1 4-10,
 * J2 10-13. */
static void test_contention_hand(void)
{
    const char *fmt =
        "{\"cluster\": {\"resources\": [\"cpu\", \"mem\"],"
        " \"nodes\": [{\"map_slots\": 3, \"reduce_slots\": 0,"
        " \"capacity\": [1, 2]}], \"heartbeat\": 1,"
        " \"heartbeat_phase\": \"aligned\"%s},"
        " \"jobs\": [{\"submit\": 0, \"maps\": [4], \"map_demand\": [1, 1]},"
        "  {\"submit\": 0, \"maps\": [6], \"map_demand\": [1, 1]},"
        "  {\"submit\": 0, \"maps\": [3], \"map_demand\": [1, 1]}]}";
    char json[1024];
    snprintf(json, sizeof json, fmt,
             ", \"contention\": {\"model\": \"share\", \"hard\": [\"mem\"]}");
    cl_run r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 8);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 12);
    NEAR(so_cl_sim_job(r.sim, 2)->start, 8);
    NEAR(so_cl_sim_job(r.sim, 2)->finish, 13);
    const so_cl_stats *st = so_cl_sim_stats(r.sim);
    CU_ASSERT_EQUAL(st->stale_events, 4);
    CU_ASSERT_EQUAL(st->events_by_kind[SO_CL_EV_END], 3);
    NEAR(st->work_done, 13);
    cl_done(&r);
    snprintf(json, sizeof json, fmt, "");
    r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 4);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 10);
    NEAR(so_cl_sim_job(r.sim, 2)->start, 10);
    NEAR(so_cl_sim_job(r.sim, 2)->finish, 13);
    CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->stale_events, 0);
    cl_done(&r);
}

/* A reduce demands net while it copies, then cpu. One node: net 1, cpu 1,
 * both shared; one map slot, two reduce slots. Each job has one 1 s map
 * (J0's 0-1, J1's 1-2: one map slot) and one reduce, slowstart 1. J0's reduce starts at 1 (heartbeat after its map): copy 2 (net 1),
 * reduce 2 (cpu 1). J1's map runs 1-2, its reduce starts at 2: copy 2,
 * reduce 2. 1-2: R0 copies alone (1 of 2 done). 2-4: R0 and R1 both copy,
 * net demand 2 -> 1/2 each: R0's copy (1 left) ends at 4, R1 has 1 done.
 * 4-5: R0 reduces on cpu, R1 copies on net: no contention; R1's copy ends
 * at 5, R0 has 1 of 2 reduce done. 5-7: both on cpu, 1/2 each: R0 ends at
 * 7; R1 has 1 done, 1 left at full speed: ends at 8. */
static void test_shuffle_then_reduce_demand(void)
{
    const char *json =
        "{\"cluster\": {\"resources\": [\"net\", \"cpu\"],"
        " \"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 2,"
        " \"capacity\": [1, 1]}], \"heartbeat\": 1,"
        " \"heartbeat_phase\": \"aligned\", \"contention\": {\"model\": \"share\"}},"
        " \"jobs\": [{\"submit\": 0, \"slowstart\": 1, \"maps\": [1],"
        "   \"reduces\": [{\"copy\": 2, \"reduce\": 2}],"
        "   \"shuffle_demand\": [1, 0], \"reduce_demand\": [0, 1]},"
        "  {\"submit\": 0, \"slowstart\": 1, \"maps\": [1],"
        "   \"reduces\": [{\"copy\": 2, \"reduce\": 2}],"
        "   \"shuffle_demand\": [1, 0], \"reduce_demand\": [0, 1]}]}";
    cl_run r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 7);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 8);
    NEAR(so_cl_sim_stats(r.sim)->work_done, 2 * (1 + 2 + 2));
    cl_done(&r);
}

/* ---- conservation under random rate changes ------------------------------ */

typedef struct chaos {
    so_rng rng;
    int changes;
} chaos;

/* Sets random factors in [0.25, 4) on a random attempt of the node. */
static void shake(void *state, so_cl_sim *sim, int node)
{
    chaos *c = state;
    const so_cl_nodert *nd = &sim->nodes[node];
    if (nd->n_running == 0)
        return;
    int id = nd->running[so_rng_int(&c->rng, 0, nd->n_running - 1)];
    double f = 0.25 * pow(16.0, so_rng_uniform(&c->rng));
    CU_ASSERT_EQUAL(so_cl_set_rate_factor(sim, id, f), 0);
    c->changes++;
}

static void shake_job(void *state, so_cl_sim *sim, int job)
{
    (void)job;
    for (int n = 0; n < sim->w->n_nodes; n++)
        shake(state, sim, n);
}

/* Random jobs of maps and reduces (some reduces launched before the last
 * map, some after: chained), speeds 1 and 2, with and without contention,
 * every scheduler and speculation: each task completes once, the winners'
 * integrated work equals the workload's work, no stale event counted. */
static void test_conservation_random_rates(void)
{
    const char *scheds[] = {"fifo", "fair", "flex"};
    const char *specs[] = {NULL, "hadoop", "late"};
    int changes = 0;
    uint64_t stale = 0;
    for (int it = 0; it < 18; it++) {
        so_rng rng;
        so_rng_seed(&rng, 100 + (uint64_t)it);
        char json[8192];
        int len = snprintf(
            json, sizeof json,
            "{\"cluster\": {\"resources\": [\"cpu\"], \"nodes\": ["
            "{\"count\": 2, \"map_slots\": 2, \"reduce_slots\": 1,"
            " \"capacity\": [2]},"
            " {\"count\": 1, \"map_slots\": 3, \"reduce_slots\": 2, \"speed\": 2,"
            " \"capacity\": [3]}], \"heartbeat\": 1%s}, \"jobs\": [",
            it % 2 ? ", \"contention\": {\"model\": \"share\"}" : "");
        double total = 0;
        int jobs = 2 + it % 4;
        for (int j = 0; j < jobs; j++) {
            len += snprintf(json + len, sizeof json - (size_t)len,
                            "%s{\"submit\": %d, \"slowstart\": %.2f, \"maps\": [",
                            j ? ", " : "", (int)so_rng_int(&rng, 0, 20),
                            so_rng_uniform(&rng));
            int maps = (int)so_rng_int(&rng, 1, 6), reds = (int)so_rng_int(&rng, 0, 3);
            for (int i = 0; i < maps; i++) {
                int w = (int)so_rng_int(&rng, 1, 30);
                total += w;
                len += snprintf(json + len, sizeof json - (size_t)len, "%s%d",
                                i ? ", " : "", w);
            }
            len += snprintf(json + len, sizeof json - (size_t)len,
                            "], \"map_demand\": [1], \"reduces\": [");
            for (int i = 0; i < reds; i++) {
                int c = (int)so_rng_int(&rng, 1, 9), s = (int)so_rng_int(&rng, 0, 4),
                    rd = (int)so_rng_int(&rng, 1, 9);
                total += c + s + rd;
                len += snprintf(json + len, sizeof json - (size_t)len,
                                "%s{\"copy\": %d, \"sort\": %d, \"reduce\": %d}",
                                i ? ", " : "", c, s, rd);
            }
            len += snprintf(json + len, sizeof json - (size_t)len,
                            "], \"reduce_demand\": [1]}");
        }
        snprintf(json + len, sizeof json - (size_t)len, "]}");
        chaos c;
        so_rng_seed(&c.rng, (uint64_t)it);
        c.changes = 0;
        so_cl_hooks hooks = {0};
        hooks.node_change = shake;
        hooks.job_arrive = shake_job;
        cl_run r = cl_simulate_hooks(json, scheds[it % 3], specs[(it / 3) % 3],
                                     NULL, (uint64_t)it, NULL, &hooks, &c);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        for (size_t t = 0; t < so_cl_sim_task_count(r.sim); t++)
            CU_ASSERT_EQUAL(so_cl_sim_task_completions(r.sim, t), 1);
        const so_cl_stats *st = so_cl_sim_stats(r.sim);
        CU_ASSERT_EQUAL(st->tasks_done, so_cl_sim_task_count(r.sim));
        CU_ASSERT_EQUAL(st->events_by_kind[SO_CL_EV_END], st->tasks_done);
        CU_ASSERT_DOUBLE_EQUAL(st->work_done, total, 1e-9 * total);
        changes += c.changes;
        stale += st->stale_events;
        cl_done(&r);
    }
    CU_ASSERT(changes > 100);
    CU_ASSERT(stale > 100);
}

static CU_TestInfo tests[] = {
    {"rate change mid-task: hand-computed end, stale end", test_rate_change_mid_task},
    {"bad rate factors refused", test_bad_factor},
    {"contention: shared cpu, hard mem (hand-computed)", test_contention_hand},
    {"contention: shuffle demand, then reduce demand", test_shuffle_then_reduce_demand},
    {"conservation under random rate changes", test_conservation_random_rates},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-rates", tests)
