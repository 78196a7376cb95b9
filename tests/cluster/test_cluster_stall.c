/* test_cluster_stall.c — a run that can no longer progress ends with an
 * error (cluster/stall.c): reduces launched at slow-start hold the room
 * their job's maps need; a long map beside a waiting reduce is no stall;
 * the option and the command's exit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/cluster/cluster_test.h"

/* One node of 1 map slot, 2 reduce slots and cpu 4, beats every second at
 * 0, 1, ...: B's map (5 s, no demand) runs 0..5 while A's two reduces
 * (demand 2 each, slow-start 0) take the cpu; A's maps (demand 4) never fit,
 * and the reduces wait for them. The last progress is B's map ending at 5. */
static const char stalled[] = CL_STALLED_HEAD "]}";

/* Runs json under sched with the options "key=value" (NULL-terminated) and
 * seed; the run's return code, its error message into msg, jobs finished
 * into done, the last job's finish into last (-1 if one is unfinished). */
static int run_opts(const char *json, const char *sched, const char *const *opts, uint64_t seed,
                    char *msg, size_t size, int *done, double *last)
{
    so_params prm;
    so_params_init(&prm);
    for (int k = 0; opts[k]; k++) {
        char key[64];
        const char *eq = strchr(opts[k], '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - opts[k]), opts[k]);
        so_params_set(&prm, key, eq + 1);
    }
    so_cl_workload *w = NULL;
    so_error err;
    memset(&err, 0, sizeof err);
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse(json, strlen(json), "t.json", &prm, seed, &w, &err),
                          SO_OK);
    so_cl_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.scheduler = so_cl_scheduler_find(sched);
    cfg.params = &prm;
    cfg.seed = seed;
    cfg.time_limit = 20; /* a run heartbeating for ever: stopped, a failure */
    so_cl_sim *sim = NULL;
    int rc = so_cl_sim_new(w, &cfg, &sim, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    rc = so_cl_sim_failure(sim, so_cl_sim_run(sim), &err);
    CU_ASSERT_FALSE(so_cl_sim_stats(sim)->stopped);
    snprintf(msg, size, "%s", rc ? err.message : "");
    *done = 0;
    *last = 0;
    for (int j = 0; j < w->n_jobs; j++) {
        double finish = so_cl_sim_job(sim, j)->finish;
        *done += finish >= 0;
        *last = *last < 0 || finish < 0 ? -1 : fmax(*last, finish);
    }
    so_cl_sim_free(sim);
    so_cl_workload_free(w);
    return rc;
}

/* Seed 1 and stall_limit (NULL: the default). */
static int run(const char *json, const char *sched, const char *limit, char *msg,
               size_t size, int *done)
{
    char opt[64];
    snprintf(opt, sizeof opt, "stall_limit=%s", limit ? limit : "3600");
    const char *const opts[] = {opt, NULL};
    double last;
    return run_opts(json, sched, opts, 1, msg, size, done, &last);
}

/* The last job's finish, -1 if the run failed (its message printed). */
static double last_finish(const char *json, const char *sched, const char *const *opts,
                          uint64_t seed)
{
    char msg[600];
    int done;
    double last;
    if (run_opts(json, sched, opts, seed, msg, sizeof msg, &done, &last)) {
        printf("\n  %s: %s\n", sched, msg);
        return -1;
    }
    return last;
}

static void test_stalled(void)
{
    static const char *const scheds[] = {"fifo", "fair", "priority", "flex", "wpbs"};
    for (size_t i = 0; i < sizeof scheds / sizeof *scheds; i++) {
        char msg[600];
        int done = -1;
        CU_ASSERT_EQUAL(run(stalled, scheds[i], NULL, msg, sizeof msg, &done), SO_EBACKEND);
        CU_ASSERT_EQUAL(done, 1); /* B */
        CU_ASSERT_PTR_NOT_NULL(strstr(msg, "stalled: no task finished for 3600 s"));
        CU_ASSERT_PTR_NOT_NULL(strstr(msg, "job 'A' has 2 maps pending"));
    }
    /* fifo: the last progress at 5 (B's map ends), the first beat more than
     * 100 s later at 106 */
    char msg[600];
    int done;
    CU_ASSERT_EQUAL(run(stalled, "fifo", "100", msg, sizeof msg, &done), SO_EBACKEND);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "for 100 s of simulated time (at 106.000 s, 1 of 2"));
}

/* A map of 500 s beside a reduce waiting for it (slow-start 0): nothing
 * starts or ends from 0 to 500 (the reduce's copy work is done at 1, then it
 * waits), more than a stall_limit of 100, but the map can end: the run goes
 * on and the job finishes at 500 (sort and reduce 0). */
static void test_long_map(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 1}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"jobs\": [{\"name\": \"L\", \"submit\": 0, \"maps\": [500],"
        "   \"reduces\": [{\"copy\": 1, \"sort\": 0, \"reduce\": 0}], \"slowstart\": 0}]}";
    char msg[600];
    int done = 0;
    CU_ASSERT_EQUAL(run(json, "fifo", "100", msg, sizeof msg, &done), SO_OK);
    CU_ASSERT_EQUAL(done, 1);
    cl_run r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish, 500, 1e-9);
    so_cl_sim_free(r.sim);
    so_cl_workload_free(r.w);
}

/* The two-node case of delay scheduling: B's map (local to node 0, 5 s)
 * and A's two reduces (cpu 2 + 2, slow-start 0) fill node 0 at 0 and 1; A's
 * maps (cpu 4) are local to node 0 only, where the reduces hold the cpu, so
 * fair skips A on node 1 for locality_delay = 5000 s since it was first
 * skipped at its first beat, 1: A's maps run remotely on node 1 at 5001 and
 * 5002 and A ends at 5003. No start or stop from 5 to 5001, every running
 * attempt a waiting reduce, but a map could launch on node 1 all along: no
 * stall. */
static const char delayed[] =
    "{\"cluster\": {\"resources\": [\"cpu\"], \"replicas\": 1,"
    " \"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 2, \"capacity\": [4]},"
    "             {\"map_slots\": 1, \"reduce_slots\": 0, \"capacity\": [4]}],"
    " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
    " \"jobs\": [{\"name\": \"B\", \"submit\": 0, \"maps\": [{\"duration\": 5, \"replicas\": [0]}]},"
    "  {\"name\": \"A\", \"submit\": 0.5, \"maps\": [{\"duration\": 1, \"replicas\": [0]},"
    "   {\"duration\": 1, \"replicas\": [0]}], \"map_demand\": [4],"
    "   \"reduces\": [{\"copy\": 1, \"sort\": 0, \"reduce\": 0},"
    "                {\"copy\": 1, \"sort\": 0, \"reduce\": 0}],"
    "   \"reduce_demand\": [2], \"slowstart\": 0}]}";

/* A scheduler that idles on purpose for longer than stall_limit while a
 * pending task could launch is no stall (its wait raises the limit): delay
 * scheduling (above), RAS
 * with a control cycle of 5000 s (Y, submitted at 10 after the cycle at 0,
 * waits for the cycle at 5000), tasks=planned when P's map runs faster than
 * planned (noise; Q's map waits for its planned beat, 20000). */
static void test_idle_on_purpose(void)
{
    static const char *const delay[] = {"locality_delay=5000", NULL};
    CU_ASSERT_DOUBLE_EQUAL(last_finish(delayed, "fair", delay, 1), 5003, 1e-9);
    const char *ras =
        "{\"cluster\": {\"resources\": [\"cpu\"], \"nodes\": [{\"map_slots\": 1,"
        " \"reduce_slots\": 1, \"capacity\": [4]}], \"heartbeat\": 1,"
        " \"heartbeat_phase\": \"aligned\"},"
        " \"jobs\": [{\"name\": \"X\", \"submit\": 0, \"maps\": [1], \"map_demand\": [1]},"
        "  {\"name\": \"Y\", \"submit\": 10, \"maps\": [1], \"map_demand\": [1]}]}";
    static const char *const cycle[] = {"cycle=5000", NULL};
    CU_ASSERT_DOUBLE_EQUAL(last_finish(ras, "ras", cycle, 1), 5002, 1e-9);
    const char *plan =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 1}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"jobs\": [{\"name\": \"P\", \"submit\": 0, \"maps\": [20000]},"
        "  {\"name\": \"Q\", \"submit\": 1, \"maps\": [1]}]}";
    static const char *const planned[] = {"tasks=planned", "noise_cv=0.5", NULL};
    for (uint64_t seed = 1; seed <= 4; seed++) /* seeds 2 and 4: P ends before 16400 */
        CU_ASSERT(last_finish(plan, "priority", planned, seed) > 20000);
}

/* Fair's preemption frees the room after its timeouts, however long: the
 * stalled case with C (pool P2, minimum share 2 reduces, submitted at 10):
 * C's map runs 10..11, its reduces find both reduce slots held by A's
 * waiting reduces, and once P2 has been below its minimum share for
 * min_share_timeout, fair kills A's reduces; C's reduces run, then A's maps
 * (the cpu free) and A's reduces again. The kill comes long after
 * stall_limit, with nothing started or ended since 11. */
static void test_preemption_after_the_limit(void)
{
    const char *json =
        "{\"cluster\": {\"resources\": [\"cpu\"], \"nodes\": [{\"map_slots\": 1,"
        " \"reduce_slots\": 2, \"capacity\": [4]}], \"heartbeat\": 1,"
        " \"heartbeat_phase\": \"aligned\"},"
        " \"pools\": [{\"name\": \"P1\"}, {\"name\": \"P2\", \"min_reduces\": 2}],"
        " \"jobs\": [{\"name\": \"B\", \"pool\": \"P1\", \"submit\": 0, \"maps\": [5]},"
        "  {\"name\": \"A\", \"pool\": \"P1\", \"submit\": 0, \"maps\": [1, 1],"
        "   \"map_demand\": [4], \"reduces\": [{\"copy\": 1, \"sort\": 0, \"reduce\": 0},"
        "   {\"copy\": 1, \"sort\": 0, \"reduce\": 0}], \"reduce_demand\": [2], \"slowstart\": 0},"
        "  {\"name\": \"C\", \"pool\": \"P2\", \"submit\": 10, \"maps\": [1], \"reduces\": [1, 1]}]}";
    static const char *const min_share[] = {"min_share_timeout=5000", NULL};
    static const char *const fair_share[] = {"fair_share_timeout=5000", NULL};
    static const char *const interval[] = {"min_share_timeout=30", "preemption_interval=5000",
                                           NULL};
    static const char *const quick[] = {"min_share_timeout=60", NULL};
    /* the kill at the first check (every preemption_interval, 15 s) past
     * 11 + 5000: 5025; A's map and C's reduces 5026..5027, A's other map
     * 5027..5028, A's reduces again 5028..5029 */
    CU_ASSERT_DOUBLE_EQUAL(last_finish(json, "fair", min_share, 1), 5029, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(last_finish(json, "fair", fair_share, 1), 5029, 1e-9);
    /* checks at 0, 5000: the kill at 5000 */
    CU_ASSERT_DOUBLE_EQUAL(last_finish(json, "fair", interval, 1), 5004, 1e-9);
    /* the kill at 75, past 11 + 60 */
    CU_ASSERT_DOUBLE_EQUAL(last_finish(json, "fair", quick, 1), 79, 1e-9);
}

/* A run of json under sched and opts (seed 1) that stalls with `done`
 * jobs finished and a message holding both texts. */
static void expect_stall(const char *json, const char *sched, const char *const *opts,
                         int done, const char *when, const char *why)
{
    char msg[600];
    int finished = -1;
    double last;
    CU_ASSERT_EQUAL(run_opts(json, sched, opts, 1, msg, sizeof msg, &finished, &last),
                    SO_EBACKEND);
    CU_ASSERT_EQUAL(finished, done);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, when));
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, why));
}

/* A livelock is a stall: B's map (0..5) and A's reduce (cpu 3) take node
 * 0, so neither A's map nor E's (cpu 4) fits anywhere; E's reduce (cpu 1)
 * takes node 1 at 1; C's reduce (pool P1, minimum share 1 reduce, cpu 2)
 * fits nowhere. P1 starved, fair kills P0's newest reduce, E's, every 15 s
 * from 45 on; C's reduce does not fit the room freed, E's reduce launches
 * again. Kills and launches for ever, no task ends after 5. */
static void test_livelock(void)
{
    const char *json =
        "{\"cluster\": {\"resources\": [\"cpu\"], \"nodes\": [{\"map_slots\": 1,"
        " \"reduce_slots\": 1, \"capacity\": [4]}, {\"map_slots\": 1, \"reduce_slots\": 1,"
        " \"capacity\": [1]}], \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"pools\": [{\"name\": \"P0\"}, {\"name\": \"P1\", \"min_reduces\": 1}],"
        " \"jobs\": [{\"name\": \"B\", \"pool\": \"P0\", \"submit\": 0, \"maps\": [5]},"
        "  {\"name\": \"A\", \"pool\": \"P0\", \"submit\": 0, \"maps\": [1], \"map_demand\": [4],"
        "   \"reduces\": [{\"copy\": 1, \"sort\": 0, \"reduce\": 0}], \"reduce_demand\": [3],"
        "   \"slowstart\": 0},"
        "  {\"name\": \"C\", \"pool\": \"P1\", \"submit\": 1, \"maps\": [1], \"reduces\": [1],"
        "   \"reduce_demand\": [2]},"
        "  {\"name\": \"E\", \"pool\": \"P0\", \"submit\": 1, \"maps\": [1], \"map_demand\": [4],"
        "   \"reduces\": [{\"copy\": 1, \"sort\": 0, \"reduce\": 0}], \"reduce_demand\": [1],"
        "   \"slowstart\": 0}]}";
    static const char *const opts[] = {"min_share_timeout=30", "stall_limit=100", NULL};
    /* the last task ended at 5 (B's map), the first beat more than 100 s on */
    expect_stall(json, "fair", opts, 1, "for 100 s of simulated time (at 106.000 s, 1 of 4",
                 "job 'A' has 1 maps pending that no node can launch");
}

/* A scheduler that never launches a task some node could take is stalled
 * too, once past its own waits: J's map (cpu 6 hard, mem 3 shared) fits
 * node 1 only with its mem over-committed, which the engine allows
 * (contention share) and RAS's placement never does. Nothing runs after
 * K's map (launched at the beat after the cycle at 0: 1..2); RAS's wait, a
 * cycle of 10 s, is below the limit of 100 s. */
static void test_never_launched(void)
{
    const char *json =
        "{\"cluster\": {\"resources\": [\"cpu\", \"mem\"], \"nodes\": [{\"map_slots\": 1,"
        " \"reduce_slots\": 1, \"capacity\": [3, 5]}, {\"map_slots\": 1, \"reduce_slots\": 1,"
        " \"capacity\": [6, 2]}], \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\","
        " \"contention\": {\"model\": \"share\", \"hard\": [\"cpu\"]}},"
        " \"jobs\": [{\"name\": \"K\", \"submit\": 0, \"maps\": [1], \"map_demand\": [1, 1]},"
        "  {\"name\": \"J\", \"submit\": 0, \"maps\": [9], \"map_demand\": [6, 3]}]}";
    static const char *const opts[] = {"stall_limit=100", NULL};
    /* K's map ends at 2, the first beat more than 100 s later at 103 */
    expect_stall(json, "ras", opts, 1, "for 100 s of simulated time (at 103.000 s, 1 of 2",
                 "job 'J' has 1 maps pending that node 1 could take, but the scheduler"
                 " 'ras' launches none");
    /* the same for a reduce (cpu 5, mem 4) once R's map (1..2) is done */
    json = "{\"cluster\": {\"resources\": [\"cpu\", \"mem\"], \"nodes\": [{\"map_slots\": 1,"
           " \"reduce_slots\": 1, \"capacity\": [3, 4]}, {\"map_slots\": 1, \"reduce_slots\": 1,"
           " \"capacity\": [5, 3]}], \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\","
           " \"contention\": {\"model\": \"share\", \"hard\": [\"cpu\"]}},"
           " \"jobs\": [{\"name\": \"R\", \"submit\": 0, \"maps\": [1], \"reduces\": [1],"
           "  \"reduce_demand\": [5, 4]}]}";
    expect_stall(json, "ras", opts, 0, "for 100 s of simulated time (at 103.000 s, 0 of 1",
                 "job 'R' has 1 reduces pending that node 1 could take, but the scheduler"
                 " 'ras' launches none");
}

/* The command: exit 3 with the message, no output file; a bad limit exit 2
 * naming the key. */
static void test_command(void)
{
    const char *path = so_test_write("stalled.json", stalled);
    char out_path[700], args[1600];
    snprintf(out_path, sizeof out_path, "%s/stalled-report.json", so_test_tmpdir());
    snprintf(args, sizeof args, "sim %s --scheduler fifo -o %s", path, out_path);
    char *out = NULL, *err = NULL;
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 3);
    CU_ASSERT_PTR_NOT_NULL(err ? strstr(err, "the run stalled") : NULL);
    FILE *f = fopen(out_path, "r");
    CU_ASSERT_PTR_NULL(f);
    if (f)
        fclose(f);
    free(out);
    free(err);
    snprintf(args, sizeof args, "sim %s --scheduler fifo --opt stall_limit=0", path);
    out = err = NULL;
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err ? strstr(err, "stall_limit") : NULL);
    free(out);
    free(err);
}

static CU_TestInfo tests[] = {
    {"reduces holding their maps' room: an error, not a hang", test_stalled},
    {"a long map beside a waiting reduce is no stall", test_long_map},
    {"a scheduler idling on purpose beside a launchable task: no stall", test_idle_on_purpose},
    {"fair's preemption after stall_limit: no stall", test_preemption_after_the_limit},
    {"kills and launches for ever: a stall", test_livelock},
    {"a task no scheduler launches: a stall past the scheduler's waits", test_never_launched},
    {"the command: exit 3, no report; a bad limit", test_command},
    CU_TEST_INFO_NULL,
};

SO_SUITE("cluster-stall", tests)
