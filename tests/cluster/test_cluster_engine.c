/* test_cluster_engine.c — the event engine: hand-computed event times under
 * fifo and fair, reduce copy phase and slow-start, the heartbeat rule, the
 * heap's stable tie-break, determinism, conservation, and the Makespan
 * Theorem bounds for one job on k slots. */
#include <math.h>
#include <stdlib.h>
#include "tests/test_util.h"
#include "tests/cluster/cluster_test.h"
#include "cluster/event_heap.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9)

/* 1 node, 1 map + 1 reduce slot, heartbeat every second at integer times.
 * A: maps 3, 3 then a 2 s reduce (slowstart 1); B at t = 1: one 1 s map.
 * fifo: A.m0 0-3, A.m1 3-6 (B waits behind A), at 6 B.m0 6-7 and A.r0
 * 6-8 (maps done). */
static const char *two_jobs =
    "{\"cluster\": {\"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 1}],\n"
    " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},\n"
    " \"jobs\": [{\"name\": \"A\", \"submit\": 0, \"slowstart\": 1,\n"
    "   \"maps\": [3, 3], \"reduces\": [{\"reduce\": 2}]},\n"
    "  {\"name\": \"B\", \"submit\": 1, \"maps\": [1]}]}";

static void test_fifo_hand(void)
{
    cl_run r = cl_simulate(two_jobs, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    const so_cl_job_result *a = so_cl_sim_job(r.sim, 0), *b = so_cl_sim_job(r.sim, 1);
    NEAR(a->start, 0);
    NEAR(a->finish, 8);
    NEAR(b->submit, 1);
    NEAR(b->start, 6);
    NEAR(b->finish, 7);
    const so_cl_stats *st = so_cl_sim_stats(r.sim);
    NEAR(st->makespan, 8);
    NEAR(st->busy[SO_CL_MAP], 7);
    NEAR(st->busy[SO_CL_REDUCE], 2);
    NEAR(st->utilisation[SO_CL_MAP], 7.0 / 8);
    NEAR(st->utilisation[SO_CL_REDUCE], 2.0 / 8);
    CU_ASSERT_EQUAL(st->tasks_done, 4);
    cl_done(&r);
}

/* 1 node with 2 map slots. A at 0: four 4 s maps; B at 0.5: two 2 s maps.
 * fifo: A takes both slots 0-4 and 4-8, B runs 8-10.
 * fair (epoch 0.5, one pool): from the epoch at 0.5 the waterline gives A
 * and B one slot each (demands 4 and 2, 2 slots). At 4 both slots free:
 * deficits 1, 1, tie by job order -> A.m2 (4-8), then B.m0 (4-6); at 6
 * B.m1 (6-8); at 8 A.m3 (8-12). */
static const char *fair_pair =
    "{\"cluster\": {\"nodes\": [{\"map_slots\": 2, \"reduce_slots\": 1}],\n"
    " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},\n"
    " \"jobs\": [{\"name\": \"A\", \"submit\": 0, \"maps\": [4, 4, 4, 4]},\n"
    "  {\"name\": \"B\", \"submit\": 0.5, \"maps\": [2, 2]}]}";

static void test_fair_vs_fifo_hand(void)
{
    cl_run r = cl_simulate(fair_pair, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 8);
    NEAR(so_cl_sim_job(r.sim, 1)->start, 8);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 10);
    cl_done(&r);
    r = cl_simulate(fair_pair, "fair", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 12);
    NEAR(so_cl_sim_job(r.sim, 1)->start, 4);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 8);
    NEAR(so_cl_sim_stats(r.sim)->makespan, 12);
    cl_done(&r);
}

/* Reduce launched at 0 (slowstart 0): its 1 s copy work is done at 1 but
 * the copy phase ends with the last map at 5; sort + reduce (1 + 2 s) end
 * at 8. The slot is held 8 s for 4 s of work. */
static void test_reduce_waits_for_maps(void)
{
    const char *j =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 1}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"jobs\": [{\"submit\": 0, \"slowstart\": 0, \"maps\": [5],"
        " \"reduces\": [{\"copy\": 1, \"sort\": 1, \"reduce\": 2}]}]}";
    cl_run r = cl_simulate(j, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 8);
    NEAR(so_cl_sim_stats(r.sim)->busy[SO_CL_REDUCE], 8);
    cl_done(&r);
}

/* slowstart 0.5 of 4 maps on one map slot: reduces may start once 2 maps
 * are done (t = 2), the copy ends with the last map (t = 4), reduce 4-5. */
static void test_slowstart(void)
{
    const char *j =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 1}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"jobs\": [{\"submit\": 0, \"slowstart\": 0.5, \"maps\": [1, 1, 1, 1],"
        " \"reduces\": [1]}]}";
    FILE *log = tmpfile();
    cl_run r = cl_simulate(j, "fifo", NULL, NULL, 1, log);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 5);
    NEAR(so_cl_sim_stats(r.sim)->busy[SO_CL_REDUCE], 3);
    rewind(log);
    char line[256];
    int found = 0;
    while (fgets(line, sizeof line, log))
        found |= strncmp(line, "2.000000 launch job=0 task=4", 28) == 0;
    CU_ASSERT(found);
    fclose(log);
    cl_done(&r);
}

/* Multi-resource node: cpu 4, mem 8; A's maps need (3, 2), B's map (1, 6).
 * Two map slots, but two A maps do not fit together: at 0 A.m0 (0-5) and,
 * in the second slot, B.m0 (0-2); A.m1 waits for the cpu until 5 (5-10).
 * Slots only: A.m0 and A.m1 at 0, B at 5 (5-7). */
static void test_resources(void)
{
    const char *fmt =
        "{\"cluster\": {%s\"nodes\": [{\"map_slots\": 2, \"reduce_slots\": 1%s}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"jobs\": [{\"submit\": 0, \"maps\": [5, 5]%s},"
        "  {\"submit\": 0, \"maps\": [2]%s}]}";
    char json[1024];
    snprintf(json, sizeof json, fmt, "\"resources\": [\"cpu\", \"mem\"], ",
             ", \"capacity\": [4, 8]", ", \"map_demand\": [3, 2]",
             ", \"map_demand\": [1, 6]");
    cl_run r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 10);
    NEAR(so_cl_sim_job(r.sim, 1)->start, 0);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 2);
    NEAR(so_cl_sim_stats(r.sim)->resource_busy[0], 3 * 5 + 1 * 2 + 3 * 5);
    NEAR(so_cl_sim_stats(r.sim)->resource_busy[1], 2 * 5 + 6 * 2 + 2 * 5);
    cl_done(&r);
    snprintf(json, sizeof json, fmt, "", "", "", "");
    r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 5);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 7);
    cl_done(&r);
}

static void test_heartbeat_rule(void)
{
    so_cl_workload w;
    memset(&w, 0, sizeof w);
    w.n_nodes = 100;
    NEAR(so_cl_heartbeat_interval(&w), 3);
    w.n_nodes = 1000;
    NEAR(so_cl_heartbeat_interval(&w), 10);
    /* Hadoop rounds up: one more second per started 100 nodes */
    w.n_nodes = 450;
    NEAR(so_cl_heartbeat_interval(&w), 5);
    w.n_nodes = 301;
    NEAR(so_cl_heartbeat_interval(&w), 4);
    w.n_nodes = 300;
    NEAR(so_cl_heartbeat_interval(&w), 3);
    w.heartbeat = 0.75;
    NEAR(so_cl_heartbeat_interval(&w), 0.75);
}

/* Twenty maps of 30 s on one slot, beats every 3 s at a seeded phase: each
 * map ends on a beat (ten intervals after its launch) and the next starts
 * at that beat, so the job is done 600 s after its first beat, on every
 * seed. Before ends were put on their beat (rates.c, on_beat) an end a
 * rounding error after the beat missed it: 1 to 3 beats were lost on 6 of
 * these 10 seeds (608.1 s on seed 1). */
static void test_end_on_beat(void)
{
    char json[1024];
    int len = snprintf(json, sizeof json,
                       "{\"cluster\": {\"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 1}],"
                       " \"heartbeat\": 3}, \"jobs\": [{\"name\": \"A\", \"submit\": 0,"
                       " \"maps\": [30");
    for (int i = 1; i < 20; i++)
        len += snprintf(json + len, sizeof json - (size_t)len, ", 30");
    snprintf(json + len, sizeof json - (size_t)len, "]}]}");
    for (uint64_t seed = 1; seed <= 10; seed++) {
        cl_run r = cl_simulate(json, "fifo", NULL, NULL, seed, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        const so_cl_job_result *a = so_cl_sim_job(r.sim, 0);
        double phase;
        so_cl_heartbeat_phases(r.w, seed, &phase);
        NEAR(a->start, phase);
        NEAR(a->finish, phase + 600);
        cl_done(&r);
    }
}

/* An end is never put on a beat that has passed: node 0 (one map slot)
 * runs a map from its first beat that ends 3e-10 s after node 1's sixth
 * beat; node 1's reduce (slow-start 0, launched at its first beat) copies
 * 5 s + 4e-10 s and has no sort or reduce, so once the map is done it ends
 * with its copy, 4e-10 s after that beat. When that end was put on the
 * beat, the job finished (and time went back) 3e-10 s before its own map
 * ended. */
static void test_end_not_in_past(void)
{
    static const char *head =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 0},"
        " {\"map_slots\": 0, \"reduce_slots\": 1}], \"heartbeat\": 1}, \"jobs\":"
        " [{\"name\": \"A\", \"submit\": 0, \"slowstart\": 0, \"maps\": [%.17g],"
        " \"reduces\": [{\"copy\": %.17g, \"sort\": 0, \"reduce\": 0}]}]}";
    for (uint64_t seed = 1; seed <= 3; seed++) {
        char json[512];
        snprintf(json, sizeof json, head, 1.0, 1.0);
        cl_run r = cl_simulate(json, "fifo", NULL, NULL, seed, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        double phase[2];
        so_cl_heartbeat_phases(r.w, seed, phase);
        cl_done(&r);
        double map = phase[1] + 5 - phase[0] + 3e-10;
        snprintf(json, sizeof json, head, map, 5 + 4e-10);
        r = cl_simulate(json, "fifo", NULL, NULL, seed, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        const so_cl_job_result *a = so_cl_sim_job(r.sim, 0);
        CU_ASSERT(a->finish >= phase[0] + map);
        NEAR(a->finish, phase[1] + 5 + 4e-10);
        cl_done(&r);
    }
}

/* Events come out by time; at equal times the leading ones first, each
 * group in insertion order. */
static void test_heap_stable(void)
{
    so_cl_heap h;
    so_cl_heap_init(&h);
    so_rng rng;
    so_rng_seed(&rng, 7);
    int leads = 0;
    for (int i = 0; i < 2000; i++) {
        int lead = so_rng_int(&rng, 0, 3) == 0;
        leads += lead;
        CU_ASSERT_EQUAL(so_cl_heap_push(&h, (double)so_rng_int(&rng, 0, 9), 0, i, lead), 0);
    }
    CU_ASSERT(leads > 300 && leads < 700);
    so_cl_event prev = {-1, 0, 0, -1, 1}, e;
    int n = 0, lead_after = 0;
    while (so_cl_heap_pop(&h, &e)) {
        CU_ASSERT(e.time > prev.time ||
                  (e.time == prev.time && (e.lead < prev.lead ||
                                           (e.lead == prev.lead && e.id > prev.id))));
        lead_after += e.time == prev.time && e.lead && !prev.lead;
        prev = e;
        n++;
    }
    CU_ASSERT_EQUAL(n, 2000);
    CU_ASSERT_EQUAL(lead_after, 0);
    so_cl_heap_free(&h);
}

/* A random mixed workload: three pools, sampled durations, a straggler. */
static const char *mixed =
    "{\"cluster\": {\"nodes\": [{\"count\": 5, \"map_slots\": 2, \"reduce_slots\": 1},"
    " {\"count\": 1, \"map_slots\": 2, \"reduce_slots\": 1, \"speed\": 0.3}],"
    " \"replicas\": 3, \"remote_slowdown\": 1.5},"
    " \"pools\": [{\"name\": \"p\", \"min_maps\": 4, \"weight\": 2},"
    "  {\"name\": \"q\", \"mode\": \"fifo\"}],"
    " \"jobs\": ["
    "  {\"submit\": 0, \"pool\": \"p\", \"maps\": {\"count\": 30, \"duration\":"
    "   {\"dist\": \"exponential\", \"mean\": 40}}, \"reduces\": {\"count\": 3,"
    "   \"copy\": {\"dist\": \"uniform\", \"lo\": 1, \"hi\": 9}, \"sort\": 2,"
    "   \"reduce\": {\"dist\": \"lognormal\", \"mu\": 3, \"sigma\": 0.5}}},"
    "  {\"submit\": 5, \"pool\": \"q\", \"maps\": {\"count\": 12, \"duration\":"
    "   {\"dist\": \"normal\", \"mean\": 70, \"sd\": 30}}, \"reduces\": [20, 30]},"
    "  {\"submit\": 7, \"pool\": \"q\", \"slowstart\": 1, \"maps\": [90, 10, 10],"
    "   \"reduces\": [{\"copy\": 3, \"reduce\": 5}]},"
    "  {\"submit\": 50, \"user\": \"u\", \"maps\": {\"count\": 25, \"duration\": 65}},"
    "  {\"submit\": 51, \"maps\": {\"count\": 8, \"duration\": {\"dist\": \"fixed\","
    "   \"value\": 120}}, \"reduces\": {\"count\": 2, \"reduce\": 40}}]}";

static char *run_log(const char *sched, const char *spec, uint64_t seed)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    cl_run r = cl_simulate(mixed, sched, spec, NULL, seed, mem);
    fclose(mem);
    if (!r.sim) {
        free(buf);
        buf = NULL;
    }
    cl_done(&r);
    return buf;
}

static void test_determinism(void)
{
    const char *scheds[] = {"fifo", "fair"}, *specs[] = {NULL, "hadoop", "late"};
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < 3; p++) {
            char *a = run_log(scheds[s], specs[p], 11);
            char *b = run_log(scheds[s], specs[p], 11);
            char *c = run_log(scheds[s], specs[p], 12);
            CU_ASSERT_PTR_NOT_NULL_FATAL(a);
            CU_ASSERT_PTR_NOT_NULL_FATAL(b);
            CU_ASSERT_PTR_NOT_NULL_FATAL(c);
            CU_ASSERT(strlen(a) > 1000);
            CU_ASSERT_STRING_EQUAL(a, b);
            CU_ASSERT(strcmp(a, c) != 0);
            free(a);
            free(b);
            free(c);
        }
}

/* Unit-speed nodes, reduces only after all maps (slowstart 1), no
 * speculation: every task completes once and the busy slot-seconds are the
 * sum of the task durations, phase by phase. */
static void test_conservation(void)
{
    char json[2048];
    const char *scheds[] = {"fifo", "fair"};
    for (int seed = 1; seed <= 5; seed++)
        for (int s = 0; s < 2; s++) {
            snprintf(json, sizeof json,
                     "{\"cluster\": {\"nodes\": [{\"count\": 3, \"map_slots\": 2,"
                     " \"reduce_slots\": 2}], \"replicas\": 2},"
                     " \"jobs\": ["
                     "  {\"submit\": 0, \"slowstart\": 1, \"maps\": {\"count\": 17,"
                     "   \"duration\": {\"dist\": \"exponential\", \"mean\": 20}},"
                     "   \"reduces\": {\"count\": 4, \"copy\": {\"dist\": \"uniform\","
                     "   \"lo\": 0, \"hi\": 5}, \"sort\": 1, \"reduce\": 7}},"
                     "  {\"submit\": %d, \"slowstart\": 1, \"maps\": {\"count\": 9,"
                     "   \"duration\": {\"dist\": \"lognormal\", \"mu\": 2, \"sigma\": 1}},"
                     "   \"reduces\": [3, {\"copy\": 2, \"sort\": 2, \"reduce\": 2}]},"
                     "  {\"submit\": 13, \"user\": \"v\", \"maps\": [5, 6, 7]}]}",
                     seed * 3);
            cl_run r = cl_simulate(json, scheds[s], NULL, NULL, (uint64_t)seed, NULL);
            CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
            double work[SO_CL_PHASES] = {0, 0};
            for (int j = 0; j < r.w->n_jobs; j++) {
                const so_cl_job_spec *js = &r.w->jobs[j];
                for (int i = 0; i < js->n_maps; i++)
                    work[SO_CL_MAP] += js->map_work[i];
                for (int i = 0; i < js->n_reduces; i++)
                    work[SO_CL_REDUCE] += js->reduce_work[i].copy +
                                          js->reduce_work[i].sort +
                                          js->reduce_work[i].reduce;
            }
            const so_cl_stats *st = so_cl_sim_stats(r.sim);
            CU_ASSERT_DOUBLE_EQUAL(st->busy[SO_CL_MAP], work[SO_CL_MAP], 1e-6);
            CU_ASSERT_DOUBLE_EQUAL(st->busy[SO_CL_REDUCE], work[SO_CL_REDUCE], 1e-6);
            CU_ASSERT_EQUAL(so_cl_sim_task_count(r.sim), 17 + 4 + 9 + 2 + 3);
            for (size_t t = 0; t < so_cl_sim_task_count(r.sim); t++)
                CU_ASSERT_EQUAL(so_cl_sim_task_completions(r.sim, t), 1);
            CU_ASSERT_EQUAL(st->tasks_done, so_cl_sim_task_count(r.sim));
            cl_done(&r);
        }
}

/* With speculation and a straggler, each task still completes exactly once
 * and every speculative attempt is counted once. */
static void test_conservation_speculation(void)
{
    const char *scheds[] = {"fifo", "fair"}, *specs[] = {"hadoop", "late"};
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < 2; p++) {
            cl_run r = cl_simulate(mixed, scheds[s], specs[p], NULL, 3, NULL);
            CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
            for (size_t t = 0; t < so_cl_sim_task_count(r.sim); t++)
                CU_ASSERT_EQUAL(so_cl_sim_task_completions(r.sim, t), 1);
            const so_cl_stats *st = so_cl_sim_stats(r.sim);
            CU_ASSERT(st->spec_launched > 0);
            CU_ASSERT_EQUAL(st->spec_launched, st->spec_useful +
                                                   st->spec_nonbeneficial +
                                                   st->spec_killed);
            CU_ASSERT_EQUAL(st->attempts, st->tasks_done + st->spec_launched);
            cl_done(&r);
        }
}

/* Preemption with speculation: tasks still complete once, and copies
 * killed by preemption are counted apart. */
static void test_conservation_preemption(void)
{
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "min_share_timeout", "1");
    so_params_set(&prm, "fair_share_timeout", "2");
    so_params_set(&prm, "preemption_interval", "1");
    so_params_set(&prm, "locality_delay", "4");
    uint64_t preempted = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        cl_run r = cl_simulate(mixed, "fair", seed % 2 ? "late" : "hadoop", &prm,
                               seed, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        for (size_t t = 0; t < so_cl_sim_task_count(r.sim); t++)
            CU_ASSERT_EQUAL(so_cl_sim_task_completions(r.sim, t), 1);
        const so_cl_stats *st = so_cl_sim_stats(r.sim);
        CU_ASSERT_EQUAL(st->spec_launched, st->spec_useful +
                                               st->spec_nonbeneficial +
                                               st->spec_killed);
        CU_ASSERT_EQUAL(st->attempts,
                        st->tasks_done + st->spec_launched + st->preempted -
                            st->spec_killed);
        preempted += st->preempted;
        cl_done(&r);
    }
    CU_ASSERT(preempted > 0);
}

/* Makespan Theorem (Verma, Cherkasova, Campbell, ARIA, ICAC 2011): n tasks
 * of mean a and maximum m greedily on k slots end within
 * [n a / k, (n - 1) a / k + m]. Equal tasks d with slots refilled at once
 * (out-of-band heartbeats) take exactly ceil(n / k) d. */
static void test_makespan_theorem(void)
{
    int ns[] = {1, 5, 12, 13, 40}, ks[] = {1, 3, 4, 7};
    char json[512];
    for (size_t a = 0; a < 5; a++)
        for (size_t b = 0; b < 4; b++) {
            int n = ns[a], k = ks[b];
            double d = 7.5;
            snprintf(json, sizeof json,
                     "{\"cluster\": {\"nodes\": [{\"count\": %d, \"map_slots\": 1,"
                     " \"reduce_slots\": 0}], \"heartbeat\": 2,"
                     " \"heartbeat_phase\": \"aligned\", \"outofband\": true},"
                     " \"jobs\": [{\"submit\": 0, \"maps\": {\"count\": %d,"
                     " \"duration\": %g}}]}", k, n, d);
            const char *scheds[] = {"fifo", "fair"};
            for (int s = 0; s < 2; s++) {
                cl_run r = cl_simulate(json, scheds[s], NULL, NULL, 1, NULL);
                CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
                double m = so_cl_sim_stats(r.sim)->makespan;
                CU_ASSERT(m >= n * d / k - 1e-9);
                CU_ASSERT(m <= (n - 1) * d / k + d + 1e-9);
                NEAR(m, ceil((double)n / k) * d);
                cl_done(&r);
            }
        }
}

/* Hadoop 1.x load-factor padding on the resource-stealing paper's shape:
 * 56 map tasks of 300 s on 32 nodes x 7 map slots. Load = 56 / 224 = 0.25,
 * so a tracker takes at most ceil(0.25 x 7) = 2 tasks: 28 nodes run 2
 * each, 4 none, and the job ends after one wave (300 s after the last
 * launch). Without padding the first nodes to beat fill all 7 slots. */
static void test_padding_spreads(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"count\": 32, \"map_slots\": 7,"
        " \"reduce_slots\": 0}]},"
        " \"jobs\": [{\"submit\": 0, \"maps\": {\"count\": 56, \"duration\": 300}}]}";
    const char *pad[] = {"1", "0"};
    for (int k = 0; k < 2; k++) {
        so_params prm;
        so_params_init(&prm);
        so_params_set(&prm, "padding", pad[k]);
        FILE *log = tmpfile();
        CU_ASSERT_PTR_NOT_NULL_FATAL(log);
        cl_run r = cl_simulate(json, "fifo", NULL, &prm, 5, log);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        int per_node[32] = {0};
        char line[256];
        rewind(log);
        while (fgets(line, sizeof line, log)) {
            int node;
            const char *at = strstr(line, " launch ");
            if (at && sscanf(strstr(at, "node="), "node=%d", &node) == 1 &&
                node >= 0 && node < 32)
                per_node[node]++;
        }
        int most = 0, used = 0, total = 0;
        for (int n = 0; n < 32; n++) {
            most = per_node[n] > most ? per_node[n] : most;
            used += per_node[n] > 0;
            total += per_node[n];
        }
        CU_ASSERT_EQUAL(total, 56);
        if (k == 0) {
            CU_ASSERT_EQUAL(most, 2);
            CU_ASSERT_EQUAL(used, 28);
        } else {
            CU_ASSERT_EQUAL(most, 7);
            CU_ASSERT_EQUAL(used, 8);
        }
        fclose(log);
        cl_done(&r);
    }
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "padding", "2");
    cl_run r = cl_simulate(json, "fifo", NULL, &prm, 5, NULL);
    CU_ASSERT_PTR_NULL(r.sim);
    cl_done(&r);
}

static CU_TestInfo tests[] = {
    {"fifo: hand-computed event times", test_fifo_hand},
    {"fair vs fifo: hand-computed event times", test_fair_vs_fifo_hand},
    {"reduce copy phase ends with the last map", test_reduce_waits_for_maps},
    {"slow-start opens reduces after ceil(f * maps)", test_slowstart},
    {"multi-resource capacities", test_resources},
    {"heartbeat interval rule", test_heartbeat_rule},
    {"event heap: time order, leading then FIFO among ties", test_heap_stable},
    {"an end on a beat frees its slot at that beat", test_end_on_beat},
    {"an end is never put on a passed beat", test_end_not_in_past},
    {"same seed, same event log", test_determinism},
    {"conservation: tasks once, busy = work", test_conservation},
    {"conservation with speculation", test_conservation_speculation},
    {"conservation with preemption", test_conservation_preemption},
    {"single job on k slots: Makespan Theorem", test_makespan_theorem},
    {"load-factor padding: 56 tasks, at most 2 per node", test_padding_spreads},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-engine", tests)
