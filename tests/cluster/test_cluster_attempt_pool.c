/* test_cluster_attempt_pool.c — memory that follows the running attempts
 * and the active jobs: the attempt pool (cluster/attempt_pool.c) reuses
 * slots, so the records a run holds follow its running attempts, not its
 * length; every slot is free at the end; the event log numbers the attempts
 * 0, 1, 2, ... in launch order as before the pool; a job's tasks take
 * memory from its arrival to its finish (cluster/task_store.c). (That
 * reports and logs are the same as before: suites cluster-scale,
 * cluster-fair-old.) */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tests/test_util.h"
#include "tests/cluster/cluster_test.h"
#include "cluster/sim_internal.h"

/* 3 nodes of 2 map + 1 reduce slots; 4 jobs of 400 equal maps (durations 1
 * to 4 s) and 2 reduces each: 1,608 tasks in sequence through 9 slots. */
static const char *sequential =
    "{\"cluster\": {\"nodes\": [{\"count\": 3, \"map_slots\": 2,"
    " \"reduce_slots\": 1}], \"heartbeat\": 1},"
    " \"jobs\": ["
    "  {\"submit\": 0, \"maps\": {\"count\": 400, \"duration\": 1},"
    "   \"reduces\": {\"count\": 2, \"copy\": 1, \"sort\": 1, \"reduce\": 3}},"
    "  {\"submit\": 5, \"maps\": {\"count\": 400, \"duration\": 2},"
    "   \"reduces\": {\"count\": 2, \"copy\": 1, \"sort\": 1, \"reduce\": 3}},"
    "  {\"submit\": 9, \"maps\": {\"count\": 400, \"duration\": 3},"
    "   \"reduces\": {\"count\": 2, \"copy\": 1, \"sort\": 1, \"reduce\": 3}},"
    "  {\"submit\": 20, \"maps\": {\"count\": 400, \"duration\": 4},"
    "   \"reduces\": {\"count\": 2, \"copy\": 1, \"sort\": 1, \"reduce\": 3}}]}";

/* Equal maps end in launch order: a job's launch window never holds an
 * ended attempt behind a running one, so the slots in use never exceed the
 * running attempts (9 slots), against 1,608 attempts launched. */
static void test_slots_follow_running(void)
{
    cl_run r = cl_simulate(sequential, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    const so_cl_stats *st = so_cl_sim_stats(r.sim);
    CU_ASSERT_EQUAL(st->jobs_done, 4);
    CU_ASSERT_EQUAL(st->attempts, 1608);
    CU_ASSERT(r.sim->n_attempts <= 9);
    CU_ASSERT(r.sim->n_attempts >= 6); /* both phases ran side by side */
    CU_ASSERT_EQUAL(r.sim->n_free, r.sim->n_attempts); /* all returned */
    cl_done(&r);
}

/* Speculative copies, redundant kills and noisy durations (ended attempts
 * wait in their job's launch window behind older running ones): the pool
 * stays a small multiple of the 9 slots over 1,600+ attempts, every slot
 * comes back, and the log numbers the launches 0, 1, 2, ... with each
 * task-done and kill naming a launched attempt of that task. */
static void test_reuse_with_kills(void)
{
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "noise_cv", "0.8");
    char *buf = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    cl_run r = cl_simulate(sequential, "fair", "late", &prm, 3, log);
    fclose(log);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    const so_cl_stats *st = so_cl_sim_stats(r.sim);
    CU_ASSERT_EQUAL(st->jobs_done, 4);
    CU_ASSERT(st->spec_launched > 0);
    CU_ASSERT(st->attempts >= 1608 + st->spec_launched);
    CU_ASSERT(r.sim->n_attempts <= 4 * 9);
    CU_ASSERT_EQUAL(r.sim->n_free, r.sim->n_attempts);
    int *task_of = calloc((size_t)st->attempts, sizeof *task_of);
    CU_ASSERT_PTR_NOT_NULL_FATAL(task_of);
    long next = 0, bad = 0, ends = 0;
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        char what[32];
        int job, task, attempt, node;
        double t;
        if (sscanf(line, "%lf %31s job=%d task=%d attempt=%d node=%d", &t, what,
                   &job, &task, &attempt, &node) == 6 && attempt >= 0) {
            if (!strncmp(what, "launch", 6)) {
                bad += attempt != next;
                if (attempt == next && next < (long)st->attempts)
                    task_of[next] = task;
                next++;
            } else if (strcmp(what, "copy-end") != 0) {
                bad += attempt >= next || task_of[attempt] != task;
                ends++;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    CU_ASSERT_EQUAL(next, (long)st->attempts);
    CU_ASSERT_EQUAL(ends, (long)st->attempts); /* each ended once */
    CU_ASSERT_EQUAL(bad, 0);
    free(task_of);
    free(buf);
    cl_done(&r);
}

/* Resident pages among the whole pages of tasks [first, first + n). */
static long resident_pages(const so_cl_sim *sim, size_t first, size_t n)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)(sim->tasks + first), hi = (uintptr_t)(sim->tasks + first + n);
    lo = (lo + ps - 1) / ps * ps;
    hi = hi / ps * ps;
    if (hi <= lo)
        return 0;
    size_t pages = (hi - lo) / ps;
    unsigned char *vec = malloc(pages);
    long in = -1;
    if (vec && mincore((void *)lo, hi - lo, vec) == 0) {
        in = 0;
        for (size_t k = 0; k < pages; k++)
            in += vec[k] & 1;
    }
    free(vec);
    return in;
}

typedef struct residency {
    long job0_at_1, job1_at_1, job2_at_1;
} residency;

static void probe_arrival(void *state, so_cl_sim *sim, int job)
{
    residency *r = state;
    if (job != 1)
        return;
    size_t n0 = (size_t)sim->jobs[0].n[SO_CL_MAP];
    r->job0_at_1 = resident_pages(sim, 0, n0);
    r->job1_at_1 = resident_pages(sim, n0, n0);
    r->job2_at_1 = resident_pages(sim, 2 * n0, n0);
}

/* Three jobs of 20,000 maps (480 KB of tasks each) one after the other:
 * when the second arrives, the first has finished and its task pages are
 * given back, the second's are written, the third's not yet touched. */
static void test_tasks_follow_jobs(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"count\": 100, \"map_slots\": 100}],"
        " \"heartbeat\": 1},"
        " \"jobs\": [{\"submit\": 0, \"maps\": {\"count\": 20000, \"duration\": 1}},"
        "  {\"submit\": 100, \"maps\": {\"count\": 20000, \"duration\": 1}},"
        "  {\"submit\": 200, \"maps\": {\"count\": 20000, \"duration\": 1}}]}";
    residency r = {-2, -2, -2};
    so_cl_hooks hooks = {0};
    hooks.job_arrive = probe_arrival;
    cl_run run = cl_simulate_hooks(json, "fifo", NULL, NULL, 1, NULL, &hooks, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(run.sim);
    CU_ASSERT_EQUAL(so_cl_sim_stats(run.sim)->jobs_done, 3);
    if (run.sim->tasks_mapped) {
        CU_ASSERT_EQUAL(r.job0_at_1, 0);
        CU_ASSERT(r.job1_at_1 >= 100); /* 117 whole pages of 4 KiB */
        CU_ASSERT_EQUAL(r.job2_at_1, 0);
    }
    for (size_t t = 0; t < so_cl_sim_task_count(run.sim); t++)
        if (so_cl_sim_task_completions(run.sim, t) != 1)
            CU_FAIL("a task did not complete once");
    cl_done(&run);
}

static CU_TestInfo tests[] = {
    {"slots follow the running attempts", test_slots_follow_running},
    {"reuse with kills, log numbers unchanged", test_reuse_with_kills},
    {"task pages from arrival to finish", test_tasks_follow_jobs},
    CU_TEST_INFO_NULL,
};

SO_SUITE("cluster-attempt-pool", tests)
