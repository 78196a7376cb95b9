/* test_cluster_stealing.c — resource stealing (cluster/stealing.c) and BASE
 * (cluster/spec_base.c): a node where a task steals 2 idle slots and gives
 * one back at a launch (end times hand-computed under the efficiency
 * curve), the six residue policies of the paper's Table I on a hand-worked
 * node, BASE refusing a copy that cannot win and launching one that can,
 * conservation with every scheduler and speculation, stealing "none"
 * identical to no node policy, determinism. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "tests/test_util.h"
#include "tests/cluster/cluster_test.h"
#include "cluster/sim_internal.h"
#include "cluster/speculation.h"
#include "cluster/stealing.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9)

static cl_run run_stealing(const char *json, const char *sched,
                           const char *spec, const so_params *prm,
                           int policy, FILE *log)
{
    so_cl_stealing *st = NULL;
    CU_ASSERT_EQUAL(so_cl_stealing_new(policy, &st), SO_OK);
    cl_run r = cl_simulate_hooks(json, sched, spec, prm, 1, log,
                                 &so_cl_stealing_hooks, st);
    so_cl_stealing_free(st);
    return r;
}

/* One node of 3 map slots, parallel fraction 1/2: k threads run
 * 1 / (1/2 + 1/(2k)) times as fast: k=1: 1, k=2: 4/3, k=3: 3/2.
 * A (300 s of work) starts at 0 alone: steals the 2 idle slots, 3 threads,
 * rate 1.5. B (200 s) lands at 100 (heartbeats every second): A has done
 * 150; one idle slot left, Even gives it to the earlier task A: A 2 threads
 * (rate 4/3), B 1 thread (rate 1): A hands one thread back. A ends at
 * 100 + 150 / (4/3) = 212.5; B has done 112.5 and steals both idle slots:
 * 87.5 / 1.5 = 58.333..., ends at 270.8333... Rate changes: A at 0 and
 * 100, B at 212.5: 3 stale end events. Without stealing: A 0-300, B
 * 100-300 (B waits for no slot: 3 slots). */
static void test_steal_and_give_back(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 3, \"reduce_slots\": 0}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"jobs\": [{\"submit\": 0, \"maps\": [300], \"map_parallel\": 0.5},"
        "  {\"submit\": 100, \"maps\": [200], \"map_parallel\": 0.5}]}";
    cl_run r = run_stealing(json, "fifo", NULL, NULL, SO_CL_STEAL_EVEN, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 212.5);
    NEAR(so_cl_sim_job(r.sim, 1)->start, 100);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 100 + 112.5 + 87.5 / 1.5);
    const so_cl_stats *st = so_cl_sim_stats(r.sim);
    CU_ASSERT_EQUAL(st->stale_events, 3);
    NEAR(st->work_done, 500);
    cl_done(&r);
    /* the same under FCM (A is first) and without stealing */
    r = run_stealing(json, "fifo", NULL, NULL, SO_CL_STEAL_FCM, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 212.5);
    cl_done(&r);
    r = run_stealing(json, "fifo", NULL, NULL, SO_CL_STEAL_NONE, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 300);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 300);
    CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->stale_events, 0);
    cl_done(&r);
    /* LTLM: at 100, B has no progress yet (no estimate: the longest time
     * left) and takes the idle slot; A drops to 1 thread: 150 left at rate
     * 1 -> A ends at 250; B runs 2 threads (4/3) from 100: 200 done at 250?
     * 150 x 4/3 = 200: B ends at 250 too. */
    r = run_stealing(json, "fifo", NULL, NULL, SO_CL_STEAL_LTLM, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 250);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 250);
    cl_done(&r);
}

/* Speed-up curve: Amdahl, 1 / ((1 - f) + f / k). */
static void test_speedup_curve(void)
{
    NEAR(so_cl_steal_speedup(0.5, 3), 1.5);
    NEAR(so_cl_steal_speedup(1, 7), 7);
    NEAR(so_cl_steal_speedup(0, 7), 1);
    NEAR(so_cl_steal_speedup(0.875, 7), 4); /* the paper's reduce: 4x */
    NEAR(so_cl_steal_speedup(0.9, 1), 1);
}

/* Table I on one node: 4 running tasks, residue 5 idle slots.
 *   task  id  start  left  speculative  fastness
 *   t0    10    5     20       no         0.5
 *   t1    11    2     30       yes        0.0
 *   t2    12    8    200       no         0.1
 *   t3    13    2    inf       yes        0.75
 * Launch order: t1 (2, id 11), t3 (2, id 13), t0, t2.
 *   even  5 = 4 x 1 + 1: the first launched (t1) one more: 1 2 1 1
 *   fcm   all to t1: 0 5 0 0
 *   stlm  shortest left t0: 5 0 0 0
 *   ltlm  longest left t3 (no estimate): 0 0 0 5
 *   stm   speculative t1, t3: 2 each + 1 to t1: 0 3 0 2
 *   ltm   laggards (fastness < 0.25) t1, t2: 2 each + 1 to t1: 0 3 2 0 */
static void test_table_one_policies(void)
{
    so_cl_steal_task t[4] = {
        {10, 5, 20, 0, 0.5},
        {11, 2, 30, 1, 0.0},
        {12, 8, 200, 0, 0.1},
        {13, 2, INFINITY, 1, 0.75},
    };
    static const int want[SO_CL_STEAL_POLICIES][4] = {
        {0, 0, 0, 0}, /* none */
        {1, 2, 1, 1}, {0, 5, 0, 0}, {5, 0, 0, 0},
        {0, 0, 0, 5}, {0, 3, 0, 2}, {0, 3, 2, 0},
    };
    for (int p = 0; p < SO_CL_STEAL_POLICIES; p++) {
        int extra[4] = {-1, -1, -1, -1};
        so_cl_steal_distribute(p, t, 4, 5, extra);
        for (int i = 0; i < 4; i++)
            CU_ASSERT_EQUAL(extra[i], want[p][i]);
        CU_ASSERT_EQUAL(so_cl_steal_find(so_cl_steal_name(p)), p);
    }
    /* no speculative copy / no laggard: both fall back to Even */
    for (int i = 0; i < 4; i++) {
        t[i].speculative = 0;
        t[i].fastness = 0.5;
    }
    for (int p = SO_CL_STEAL_STM; p <= SO_CL_STEAL_LTM; p++) {
        int extra[4];
        so_cl_steal_distribute(p, t, 4, 5, extra);
        CU_ASSERT(extra[0] == 1 && extra[1] == 2 && extra[2] == 1 &&
                  extra[3] == 1);
    }
    /* no residue: nobody steals */
    int extra[4];
    so_cl_steal_distribute(SO_CL_STEAL_EVEN, t, 4, 0, extra);
    CU_ASSERT(extra[0] == 0 && extra[1] == 0 && extra[2] == 0 && extra[3] == 0);
    CU_ASSERT_EQUAL(so_cl_steal_find("nope"), -1);
    CU_ASSERT_PTR_NULL(so_cl_steal_name(SO_CL_STEAL_POLICIES));
}

/* LTM end to end: two nodes of 2 map slots, f = 1 (k threads: k times as
 * fast). Job 0 has maps of 100 and 40 s; with padding off, fifo puts both
 * on node 0 at time 0 (node 0 beats first: aligned, lower index first);
 * node 1 stays empty. At 0 neither has progress (no estimate, both
 * "infinitely" far: neither ends later than the other, fastness 0 < 0.25):
 * both laggards, no residue anyway (2 slots full). At 40 the short map
 * ends: the long one (40 done) steals the idle slot: 60 / 2 = 30 more,
 * ends at 70. */
static void test_ltm_end_to_end(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"count\": 2, \"map_slots\": 2,"
        " \"reduce_slots\": 0}], \"heartbeat\": 1, \"heartbeat_phase\":"
        " \"aligned\"}, \"jobs\": [{\"submit\": 0, \"maps\": [100, 40],"
        " \"map_parallel\": 1}]}";
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "padding", "0");
    cl_run r = run_stealing(json, "fifo", NULL, &prm, SO_CL_STEAL_LTM, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 70);
    cl_done(&r);
}

/* BASE's test on hand-made rates: the paper's example (sec. III.C): A is
 * 90 % done at rate 1 % per second (10 s left), a copy would progress at
 * B's 5 % per second (20 s): refused. An original with 100 s left and a
 * copy of 1/80 per second (80 s) wins by 20 > 10 s: launched; by 5 s (95
 * s): refused (threshold 10 s); no rate estimate: refused. */
static void test_base_worth(void)
{
    CU_ASSERT_FALSE(so_cl_base_worth(0.1 / 0.01, 0.05));
    CU_ASSERT_TRUE(so_cl_base_worth(100, 1.0 / 80));
    CU_ASSERT_FALSE(so_cl_base_worth(100, 1.0 / 95));
    CU_ASSERT_FALSE(so_cl_base_worth(100, 0));
}

/* Two nodes of one map slot: node 0 speed 1, node 1 speed 0.55. A job's two
 * maps: map 0 (50 s) on node 0, 0-50; map 1 on node 1. At 60 (Hadoop's
 * 60 s lag) node 0 is free and map 1 is LATE's slow task (rate below the
 * 25th percentile of {its rate, map 0's 1/50}).
 *  - map 1 of 40: done 60 x 0.55 = 33 of 40, 7 / 0.55 = 12.73 s left; a
 *    copy on node 0 is estimated from map 0 there (1/50 per s: 50 s):
 *    cannot win. LATE launches it (a non-beneficial copy, the original
 *    ends at 72.73); BASE does not.
 *  - map 1 of 100: 33 done, 67 / 0.55 = 121.8 s left vs 50: BASE launches
 *    it as LATE does; the copy (100 s on node 0) ends at 160, before the
 *    original (181.8): useful. */
static void test_base_refuses_and_launches(void)
{
    char json[512];
    const char *fmt =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 0},"
        " {\"map_slots\": 1, \"reduce_slots\": 0, \"speed\": 0.55}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"jobs\": [{\"submit\": 0, \"maps\": [50, %d]}]}";
    snprintf(json, sizeof json, fmt, 40);
    cl_run r = cl_simulate(json, "fifo", "late", NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->spec_launched, 1);
    CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->spec_nonbeneficial, 1);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 40 / 0.55);
    cl_done(&r);
    r = cl_simulate(json, "fifo", "base", NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->spec_launched, 0);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 40 / 0.55);
    cl_done(&r);
    snprintf(json, sizeof json, fmt, 100);
    for (int k = 0; k < 2; k++) {
        r = cl_simulate(json, "fifo", k ? "base" : "late", NULL, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        const so_cl_stats *st = so_cl_sim_stats(r.sim);
        CU_ASSERT_EQUAL(st->spec_launched, 1);
        CU_ASSERT_EQUAL(st->spec_useful, 1);
        NEAR(so_cl_sim_job(r.sim, 0)->finish, 160);
        cl_done(&r);
    }
}

/* BASE's copy-rate estimate: step 1 (the job's tasks on the node) and
 * step 2 (the job's mean normalised by node speed). Three nodes of one map
 * slot, speeds 1, 0.5, 2; maps of 10 (node 0: 0-10), 20 (node 1: 0-40),
 * 40 (node 2: 0-20). At 40 all are done; rates 1/10, 1/40, 1/20. Step 1
 * on node 1: 1/40, on node 0: 1/10. Step 2: with map 0's attempt moved to
 * node 2 (speed 2), node 0 has no task of the job: the normalised mean is
 * ((1/10) / 2 + (1/40) / 0.5 + (1/20) / 2) / 3 = (0.05 + 0.05 + 0.025) / 3
 * = 0.041667, times node 0's speed 1. */
static void copy_rate_probe(void *state, so_cl_sim *sim, int job)
{
    (void)job;
    double *out = state;
    out[0] = so_cl_base_copy_rate(sim, 0, 1, SO_CL_MAP);
    out[1] = so_cl_base_copy_rate(sim, 0, 0, SO_CL_MAP);
}

static void test_base_copy_rate(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 0},"
        " {\"map_slots\": 1, \"reduce_slots\": 0, \"speed\": 0.5},"
        " {\"map_slots\": 1, \"reduce_slots\": 0, \"speed\": 2}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"jobs\": [{\"submit\": 0, \"maps\": [10, 20, 40]},"
        "  {\"submit\": 50, \"maps\": [1]}]}";
    double got[2] = {-1, -1};
    so_cl_hooks hooks = {0};
    hooks.job_arrive = copy_rate_probe;
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "padding", "0");
    /* job 0's probe at its own arrival: nothing ran, no estimate */
    cl_run r = cl_simulate_hooks(json, "fifo", NULL, &prm, 1, NULL, &hooks, got);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    /* the last probe ran at 50, when job 1 arrived */
    NEAR(got[0], 1.0 / 40);
    NEAR(got[1], 1.0 / 10);
    /* no task of job 0 on a node: step 2; node speeds 1, 0.5, 2 */
    so_cl_sim *sim = r.sim;
    so_cl_jobrt *job = &sim->jobs[0];
    /* pretend map 0 ran on node 2 instead: node 0 has no task of the job */
    sim->tasks[job->first_task[SO_CL_MAP]].winner_node = 2;
    NEAR(so_cl_base_copy_rate(sim, 0, 0, SO_CL_MAP),
         ((1.0 / 10) / 2 + (1.0 / 40) / 0.5 + (1.0 / 20) / 2) / 3 * 1);
    cl_done(&r);
}

/* A mixed workload for the property tests: 4 nodes (speeds 1, 1, 0.5, 2)
 * of 3 map + 2 reduce slots, jobs of maps and reduces with parallel
 * fractions. */
static void mixed_json(char *json, size_t cap, int seed)
{
    so_rng rng;
    so_rng_seed(&rng, 500 + (uint64_t)seed);
    int len = snprintf(
        json, cap,
        "{\"cluster\": {\"nodes\": [{\"count\": 2, \"map_slots\": 3,"
        " \"reduce_slots\": 2}, {\"map_slots\": 3, \"reduce_slots\": 2,"
        " \"speed\": 0.5}, {\"map_slots\": 3, \"reduce_slots\": 2, \"speed\":"
        " 2}], \"heartbeat\": 3}, \"jobs\": [");
    for (int j = 0; j < 5; j++) {
        len += snprintf(json + len, cap - (size_t)len,
                        "%s{\"submit\": %d, \"map_parallel\": %.2f,"
                        " \"reduce_parallel\": %.2f, \"maps\": [",
                        j ? ", " : "", (int)so_rng_int(&rng, 0, 200),
                        so_rng_uniform(&rng), so_rng_uniform(&rng));
        int maps = (int)so_rng_int(&rng, 1, 12);
        for (int i = 0; i < maps; i++)
            len += snprintf(json + len, cap - (size_t)len, "%s%d", i ? ", " : "",
                            (int)so_rng_int(&rng, 20, 300));
        len += snprintf(json + len, cap - (size_t)len, "], \"reduces\": [");
        int reds = (int)so_rng_int(&rng, 0, 3);
        for (int i = 0; i < reds; i++)
            len += snprintf(json + len, cap - (size_t)len,
                            "%s{\"copy\": %d, \"sort\": %d, \"reduce\": %d}",
                            i ? ", " : "", (int)so_rng_int(&rng, 5, 50),
                            (int)so_rng_int(&rng, 0, 20),
                            (int)so_rng_int(&rng, 10, 200));
        len += snprintf(json + len, cap - (size_t)len, "]}");
    }
    snprintf(json + len, cap - (size_t)len, "]}");
}

static double workload_work(const so_cl_workload *w)
{
    double total = 0;
    for (int j = 0; j < w->n_jobs; j++) {
        const so_cl_job_spec *s = &w->jobs[j];
        for (int i = 0; i < s->n_maps; i++)
            total += s->map_work[i];
        for (int i = 0; i < s->n_reduces; i++)
            total += s->reduce_work[i].copy + s->reduce_work[i].sort +
                     s->reduce_work[i].reduce;
    }
    return total;
}

/* Every policy x scheduler x speculation (incl. BASE): each task done once,
 * the winners' work equals the workload's, and a second run gives the same
 * report byte for byte (determinism). */
static void test_conservation_and_determinism(void)
{
    const char *scheds[] = {"fifo", "fair", "flex"};
    const char *specs[] = {NULL, "hadoop", "late", "base", "base-hadoop"};
    char json[8192];
    int runs = 0;
    for (int p = 0; p < SO_CL_STEAL_POLICIES; p++)
        for (int s = 0; s < 3; s++)
            for (int q = 0; q < 5; q++) {
                if ((p + s + q) % 2)
                    continue; /* half the grid keeps the suite fast */
                mixed_json(json, sizeof json, p * 15 + s * 5 + q);
                char *rep[2] = {NULL, NULL};
                for (int k = 0; k < 2; k++) {
                    cl_run r = run_stealing(json, scheds[s], specs[q], NULL, p,
                                            NULL);
                    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
                    for (size_t t = 0; t < so_cl_sim_task_count(r.sim); t++)
                        CU_ASSERT_EQUAL(so_cl_sim_task_completions(r.sim, t), 1);
                    const so_cl_stats *st = so_cl_sim_stats(r.sim);
                    double total = workload_work(r.w);
                    CU_ASSERT_DOUBLE_EQUAL(st->work_done, total, 1e-9 * total);
                    CU_ASSERT_EQUAL(st->spec_launched,
                                    st->spec_useful + st->spec_nonbeneficial +
                                        st->spec_killed);
                    so_cl_config cfg = {0};
                    cfg.scheduler = so_cl_scheduler_find(scheds[s]);
                    cfg.speculation =
                        specs[q] ? so_cl_speculation_find(specs[q]) : NULL;
                    json_t *j = so_cl_report_json(r.sim, r.w, &cfg);
                    rep[k] = json_dumps(j, JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
                    json_decref(j);
                    cl_done(&r);
                }
                CU_ASSERT_PTR_NOT_NULL_FATAL(rep[0]);
                CU_ASSERT_PTR_NOT_NULL_FATAL(rep[1]);
                CU_ASSERT_STRING_EQUAL(rep[0], rep[1]);
                free(rep[0]);
                free(rep[1]);
                runs++;
            }
    CU_ASSERT(runs > 40);
}

/* Stealing "none" changes nothing: the event log and report equal those
 * of a run without node policy (byte for byte). And stealing makes the
 * mixed workloads faster on average (the idle slots are put to work). */
static char *slurp_log(FILE *fp)
{
    long n = ftell(fp);
    rewind(fp);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
        free(buf);
        return NULL;
    }
    if (buf)
        buf[n] = 0;
    return buf;
}

static void test_none_is_identity(void)
{
    char json[8192];
    double with = 0, without = 0;
    for (int seed = 0; seed < 4; seed++) {
        mixed_json(json, sizeof json, 100 + seed);
        FILE *a = tmpfile(), *b = tmpfile();
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        cl_run r0 = cl_simulate(json, "fair", "late", NULL, 1, a);
        cl_run r1 = run_stealing(json, "fair", "late", NULL, SO_CL_STEAL_NONE, b);
        cl_run r2 = run_stealing(json, "fair", "late", NULL, SO_CL_STEAL_EVEN, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r0.sim);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r1.sim);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r2.sim);
        char *la = slurp_log(a), *lb = slurp_log(b);
        CU_ASSERT_PTR_NOT_NULL_FATAL(la);
        CU_ASSERT_PTR_NOT_NULL_FATAL(lb);
        CU_ASSERT(strlen(la) > 100);
        CU_ASSERT_STRING_EQUAL(la, lb);
        free(la);
        free(lb);
        fclose(a);
        fclose(b);
        for (int j = 0; j < r0.w->n_jobs; j++) {
            without += so_cl_sim_job(r0.sim, j)->finish - so_cl_sim_job(r0.sim, j)->submit;
            with += so_cl_sim_job(r2.sim, j)->finish - so_cl_sim_job(r2.sim, j)->submit;
        }
        cl_done(&r0);
        cl_done(&r1);
        cl_done(&r2);
    }
    CU_ASSERT(with < without);
}

/* The command: --stealing and --speculation base run; a bad policy name
 * is refused with a message naming the option and exit code 2; a bad SWIM
 * parallel fraction names its key. */
static void test_cli(void)
{
    const char *in = so_test_write(
        "steal.json",
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 3, \"reduce_slots\": 0}],"
        " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"jobs\": [{\"submit\": 0, \"maps\": [300], \"map_parallel\": 0.5}]}");
    char args[1024], *out = NULL, *err = NULL;
    snprintf(args, sizeof args,
             "sim %s --scheduler fair --stealing even --speculation base", in);
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"makespan\": 200")); /* 300 / 1.5 */
    free(out);
    snprintf(args, sizeof args, "sim %s --scheduler fifo --stealing most", in);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "--stealing"));
    free(err);
    const char *trace = so_test_write("t.tsv", "job0\t0\t0\t67108864\t0\t0\n");
    snprintf(args, sizeof args,
             "sim %s --scheduler fifo --opt map_parallel=1.5", trace);
    err = NULL;
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "map_parallel"));
    free(err);
}

static CU_TestInfo tests[] = {
    {"slotopt sim --stealing / --speculation base; bad values refused", test_cli},
    {"steal 2 idle slots, give one back at a launch (hand-computed)",
     test_steal_and_give_back},
    {"efficiency curve (Amdahl)", test_speedup_curve},
    {"Table I: six residue policies on a hand-worked node",
     test_table_one_policies},
    {"LTM end to end (hand-computed)", test_ltm_end_to_end},
    {"BASE benefit test on hand-made rates", test_base_worth},
    {"BASE refuses a copy that cannot win, launches one that can",
     test_base_refuses_and_launches},
    {"BASE copy rate: node history, else normalised job mean",
     test_base_copy_rate},
    {"conservation and determinism: policies x schedulers x speculation",
     test_conservation_and_determinism},
    {"stealing none is the identity; even is faster", test_none_is_identity},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-stealing", tests)
