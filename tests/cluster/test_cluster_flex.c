/* test_cluster_flex.c — the flex scheduler (FLEX allocation layer feeding
 * the fair assignment layer): hand-computed event times where FLEX and fair
 * differ, the pool minimum share as FLEX's m_j, another metric, bad options,
 * determinism, conservation, and flex against fair on simultaneous jobs. */
#include <stdlib.h>
#include "tests/test_util.h"
#include "tests/cluster/cluster_test.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9)

/* One node, 2 map slots, heartbeats at 1, 2, 3, ... Both jobs arrive at
 * 0.5 (epoch 0.5 runs right after): A has two 9.5 s maps, B two 1.5 s maps.
 * The remaining work is 19 and 3 slot-seconds.
 * fair: targets 1 and 1. Beat 1: A.m0 1-10.5, B.m0 1-2.5; beat 3: B.m1
 *   3-4.5 (B's deficit 1 beats A's 0); beat 5: A.m1 5-14.5.
 *   Responses A 14, B 4.
 * flex (response time): B first costs 1.5 + 11 = 12.5, A first 9.5 + 11 =
 *   20.5, so B gets both slots: beat 1: B.m0, B.m1 1-2.5; beat 3: A.m0,
 *   A.m1 3-12.5. Responses A 12, B 2.
 * %s: A's pool, %d its minimum map share; %g A's weight. */
static const char *pair_fmt =
    "{\"cluster\": {\"nodes\": [{\"map_slots\": 2, \"reduce_slots\": 0}],"
    " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
    " \"pools\": [{\"name\": \"prod\", \"min_maps\": %d}],"
    " \"jobs\": [{\"name\": \"A\", \"pool\": \"%s\", \"submit\": 0.5,"
    "  \"weight\": %g, \"maps\": [9.5, 9.5]},"
    "  {\"name\": \"B\", \"submit\": 0.5, \"maps\": [1.5, 1.5]}]}";

/* prm NULL: the oracle (true task work), as the times above assume. */
static void check_pair(const char *sched, const so_params *prm, int min_maps,
                       double weight, const double expect[4])
{
    char json[1024];
    snprintf(json, sizeof json, pair_fmt, min_maps, "prod", weight);
    so_params oracle;
    so_params_init(&oracle);
    so_params_set(&oracle, "oracle", "1");
    if (!prm && !strcmp(sched, "flex"))
        prm = &oracle;
    cl_run r = cl_simulate(json, sched, NULL, prm, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->start, expect[0]);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, expect[1]);
    NEAR(so_cl_sim_job(r.sim, 1)->start, expect[2]);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, expect[3]);
    cl_done(&r);
}

static void test_flex_differs_from_fair(void)
{
    check_pair("fair", NULL, 0, 1, (double[]){1, 14.5, 1, 4.5});
    check_pair("flex", NULL, 0, 1, (double[]){3, 12.5, 1, 2.5});
}

/* Without the oracle (the default) FLEX knows no task time at 0.5: both
 * jobs estimate 1 s per task (no job has one), both are learning, so
 * m_A = m_B = 1: beat 1 A.m0 1-10.5, B.m0 1-2.5. From 2.5 B's task time is
 * 1.5 s, A's the mean of the known ones (1.5) with 9.5 - elapsed left on
 * its running map (progress score), and A still learns (m_A = 1): B's
 * last map gets the other slot, 3-4.5, then A.m1 5-14.5 — fair's times:
 * the price of learning is 2 s of mean response here (9 against 7). */
static void test_flex_estimates(void)
{
    so_params prm;
    so_params_init(&prm);
    check_pair("flex", &prm, 0, 1, (double[]){1, 14.5, 1, 4.5});
    so_params_set(&prm, "oracle", "0");
    check_pair("flex", &prm, 0, 1, (double[]){1, 14.5, 1, 4.5});
}

/* With prod's minimum of 1 map slot, m_A = 1: FLEX keeps one slot for A
 * and gives B the other, so the times are fair's (A 1-10.5 and 5-14.5,
 * B 1-2.5 and 3-4.5). */
static void test_min_share(void)
{
    check_pair("flex", NULL, 1, 1, (double[]){1, 14.5, 1, 4.5});
}

/* Weighted response with w_A = 10: A first costs 10 x 9.5 + 11 = 106, B
 * first 1.5 + 10 x 11 = 111.5; A takes both slots 1-10.5, B runs 11-12.5. */
static void test_weighted_metric(void)
{
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "metric", "weighted-response");
    so_params_set(&prm, "oracle", "1");
    check_pair("flex", &prm, 0, 10, (double[]){1, 10.5, 11, 12.5});
    /* plain response time ignores the weight */
    check_pair("flex", NULL, 0, 10, (double[]){3, 12.5, 1, 2.5});
    /* the local search keeps the same (optimal) order here */
    so_params_set(&prm, "local_search", "1");
    check_pair("flex", &prm, 0, 10, (double[]){1, 10.5, 11, 12.5});
}

/* slotopt sim --scheduler flex: the same times through the command (mean
 * response (12 + 2) / 2 = 7); a refused metric exits 2 naming the key. */
static void test_cli(void)
{
    char json[1024], args[1024], *out = NULL, *errout = NULL;
    snprintf(json, sizeof json, pair_fmt, 0, "prod", 1.0);
    const char *in = so_test_write("flex_pair.json", json);
    snprintf(args, sizeof args, "sim %s --scheduler flex --opt epoch=0.5"
             " --opt oracle=1", in);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, NULL), 0);
    json_error_t jerr;
    json_t *j = json_loads(out, 0, &jerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "scheduler")),
                           "flex");
    json_t *resp = json_object_get(j, "response");
    NEAR(json_real_value(json_object_get(resp, "mean")), 7);
    NEAR(json_real_value(json_object_get(j, "makespan")), 12);
    json_decref(j);
    free(out);
    snprintf(args, sizeof args, "sim %s --scheduler flex --opt metric=tardy", in);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &errout), 2);
    CU_ASSERT_PTR_NOT_NULL(errout && strstr(errout, "'metric'"));
    free(errout);
    errout = NULL;
    snprintf(args, sizeof args, "sim %s --scheduler flex --opt resolve_epochs=0",
             in);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &errout), 2);
    CU_ASSERT_PTR_NOT_NULL(errout && strstr(errout, "'resolve_epochs'"));
    free(errout);
}

static void test_bad_options(void)
{
    char json[1024];
    snprintf(json, sizeof json, pair_fmt, 0, "prod", 1.0);
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(
        so_cl_workload_parse(json, strlen(json), "t.json", NULL, 1, &w, &err),
        SO_OK);
    const char *bad[][2] = {{"metric", "tardiness"}, {"metric", "sla"},
                            {"metric", "nope"}, {"local_search", "2"},
                            {"local_search", "x"}, {"oracle", "2"}};
    const char *what[] = {"deadline", "deadline", "nope", "0 or 1", "x", "0 or 1"};
    for (int i = 0; i < 6; i++) {
        so_params prm;
        so_params_init(&prm);
        so_params_set(&prm, bad[i][0], bad[i][1]);
        so_cl_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.scheduler = so_cl_scheduler_find("flex");
        cfg.params = &prm;
        so_cl_sim *sim = NULL;
        memset(&err, 0, sizeof err);
        CU_ASSERT_EQUAL(so_cl_sim_new(w, &cfg, &sim, &err), SO_EINVAL);
        CU_ASSERT_PTR_NULL(sim);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, what[i]));
    }
    so_cl_workload_free(w);
}

/* Three pools (one with minimum shares above the slots), sampled
 * durations, a straggler, reduces, locality. */
static const char *mixed =
    "{\"cluster\": {\"nodes\": [{\"count\": 4, \"map_slots\": 2, \"reduce_slots\": 1},"
    " {\"count\": 1, \"map_slots\": 2, \"reduce_slots\": 1, \"speed\": 0.3}],"
    " \"replicas\": 2, \"remote_slowdown\": 1.5},"
    " \"pools\": [{\"name\": \"p\", \"min_maps\": 4, \"min_reduces\": 9},"
    "  {\"name\": \"q\", \"min_maps\": 9, \"weight\": 2}],"
    " \"jobs\": ["
    "  {\"submit\": 0, \"pool\": \"p\", \"maps\": {\"count\": 30, \"duration\":"
    "   {\"dist\": \"exponential\", \"mean\": 40}}, \"reduces\": {\"count\": 3,"
    "   \"copy\": {\"dist\": \"uniform\", \"lo\": 1, \"hi\": 9}, \"sort\": 2,"
    "   \"reduce\": 30}},"
    "  {\"submit\": 5, \"pool\": \"q\", \"maps\": {\"count\": 12, \"duration\":"
    "   {\"dist\": \"normal\", \"mean\": 70, \"sd\": 30}}, \"reduces\": [20, 30]},"
    "  {\"submit\": 7, \"pool\": \"q\", \"maps\": [90, 10, 10],"
    "   \"reduces\": [{\"copy\": 3, \"reduce\": 5}]},"
    "  {\"submit\": 50, \"user\": \"u\", \"maps\": {\"count\": 25, \"duration\": 65}},"
    "  {\"submit\": 51, \"pool\": \"p\", \"maps\": {\"count\": 8, \"duration\": 120},"
    "   \"reduces\": {\"count\": 2, \"reduce\": 40}}]}";

static char *run_log(const char *spec, uint64_t seed)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    cl_run r = cl_simulate(mixed, "flex", spec, NULL, seed, mem);
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
    const char *specs[] = {NULL, "late"};
    for (int p = 0; p < 2; p++) {
        char *a = run_log(specs[p], 4), *b = run_log(specs[p], 4);
        char *c = run_log(specs[p], 5);
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

static double total_work(const so_cl_workload *w, int phase)
{
    double sum = 0;
    for (int j = 0; j < w->n_jobs; j++) {
        const so_cl_job_spec *js = &w->jobs[j];
        if (phase == SO_CL_MAP)
            for (int i = 0; i < js->n_maps; i++)
                sum += js->map_work[i];
        else
            for (int i = 0; i < js->n_reduces; i++)
                sum += js->reduce_work[i].copy + js->reduce_work[i].sort +
                       js->reduce_work[i].reduce;
    }
    return sum;
}

/* Unit-speed nodes, reduces after all maps: every task completes once and
 * the busy slot-seconds equal the task work; with a straggler and LATE,
 * every task still completes once and every copy is counted once. */
static void test_conservation(void)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        char json[2048];
        snprintf(json, sizeof json,
                 "{\"cluster\": {\"nodes\": [{\"count\": 3, \"map_slots\": 2,"
                 " \"reduce_slots\": 2}]},"
                 " \"pools\": [{\"name\": \"p\", \"min_maps\": 3, \"min_reduces\": 1}],"
                 " \"jobs\": ["
                 "  {\"submit\": 0, \"slowstart\": 1, \"maps\": {\"count\": 17,"
                 "   \"duration\": {\"dist\": \"exponential\", \"mean\": 20}},"
                 "   \"reduces\": {\"count\": 4, \"copy\": {\"dist\": \"uniform\","
                 "   \"lo\": 0, \"hi\": 5}, \"sort\": 1, \"reduce\": 7}},"
                 "  {\"submit\": %d, \"pool\": \"p\", \"slowstart\": 1,"
                 "   \"maps\": {\"count\": 9, \"duration\": {\"dist\": \"lognormal\","
                 "   \"mu\": 2, \"sigma\": 1}}, \"reduces\": [3, {\"copy\": 2,"
                 "   \"sort\": 2, \"reduce\": 2}]},"
                 "  {\"submit\": 13, \"user\": \"v\", \"maps\": [5, 6, 7]}]}",
                 (int)seed * 3);
        cl_run r = cl_simulate(json, "flex", NULL, NULL, seed, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        const so_cl_stats *st = so_cl_sim_stats(r.sim);
        CU_ASSERT_DOUBLE_EQUAL(st->busy[SO_CL_MAP], total_work(r.w, SO_CL_MAP), 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(st->busy[SO_CL_REDUCE],
                               total_work(r.w, SO_CL_REDUCE), 1e-6);
        CU_ASSERT_EQUAL(so_cl_sim_task_count(r.sim), 17 + 4 + 9 + 2 + 3);
        for (size_t t = 0; t < so_cl_sim_task_count(r.sim); t++)
            CU_ASSERT_EQUAL(so_cl_sim_task_completions(r.sim, t), 1);
        CU_ASSERT_EQUAL(st->tasks_done, so_cl_sim_task_count(r.sim));
        cl_done(&r);

        r = cl_simulate(mixed, "flex", seed % 2 ? "late" : "hadoop", NULL, seed,
                        NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        st = so_cl_sim_stats(r.sim);
        for (size_t t = 0; t < so_cl_sim_task_count(r.sim); t++)
            CU_ASSERT_EQUAL(so_cl_sim_task_completions(r.sim, t), 1);
        CU_ASSERT_EQUAL(st->spec_launched, st->spec_useful +
                                               st->spec_nonbeneficial +
                                               st->spec_killed);
        CU_ASSERT_EQUAL(st->attempts, st->tasks_done + st->spec_launched);
        cl_done(&r);
    }
}

/* A random small cluster (one slow node), two pools whose minima often
 * exceed the slots, up to max_jobs jobs with exponential map times and a
 * few reduces. */
static void random_json(so_rng *rng, char *json, size_t size, int max_jobs)
{
    int len = snprintf(json, size,
                       "{\"cluster\": {\"nodes\": [{\"count\": %d,"
                       " \"map_slots\": %d, \"reduce_slots\": %d},"
                       " {\"map_slots\": 1, \"reduce_slots\": 1,"
                       " \"speed\": 0.4}]},"
                       " \"pools\": [{\"name\": \"p\", \"min_maps\": %d,"
                       " \"min_reduces\": %d, \"weight\": 2},"
                       " {\"name\": \"q\", \"min_maps\": %d, \"mode\": \"fifo\"}],"
                       " \"jobs\": [",
                       (int)so_rng_int(rng, 1, 3), (int)so_rng_int(rng, 1, 3),
                       (int)so_rng_int(rng, 0, 2), (int)so_rng_int(rng, 0, 12),
                       (int)so_rng_int(rng, 0, 6), (int)so_rng_int(rng, 0, 12));
    int n = (int)so_rng_int(rng, 1, max_jobs);
    for (int j = 0; j < n; j++)
        len += snprintf(json + len, size - (size_t)len,
                        "%s{\"submit\": %d, \"pool\": \"%s\", \"weight\": %d,"
                        " \"maps\": {\"count\": %d, \"duration\": {\"dist\":"
                        " \"exponential\", \"mean\": 20}}, \"reduces\": {\"count\":"
                        " %d, \"copy\": 3, \"reduce\": 9}}",
                        j ? ", " : "", (int)so_rng_int(rng, 0, 40),
                        (const char *[]){"p", "q", "r"}[so_rng_int(rng, 0, 2)],
                        (int)so_rng_int(rng, 1, 4), (int)so_rng_int(rng, 1, 25),
                        (int)so_rng_int(rng, 0, 4));
    snprintf(json + len, size - (size_t)len, "]}");
}

/* Random small clusters, pools whose minima often exceed the slots, every
 * metric, speculation on and off: the FLEX instance is always valid (the
 * run would fail otherwise) and every task completes exactly once. */
static void test_random_workloads(void)
{
    const char *metrics[] = {"response", "weighted-response", "stretch",
                             "makespan"};
    const char *specs[] = {NULL, "hadoop", "late"};
    so_rng rng;
    so_rng_seed(&rng, 21);
    for (int it = 0; it < 40; it++) {
        char json[8192];
        random_json(&rng, json, sizeof json, 7);
        so_params prm;
        so_params_init(&prm);
        so_params_set(&prm, "metric", metrics[it % 4]);
        so_params_set(&prm, "local_search", it % 5 ? "0" : "1");
        cl_run r = cl_simulate(json, "flex", specs[it % 3], &prm,
                               (uint64_t)it, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        for (size_t t = 0; t < so_cl_sim_task_count(r.sim); t++)
            CU_ASSERT_EQUAL(so_cl_sim_task_completions(r.sim, t), 1);
        cl_done(&r);
    }
}

/* The instance a solve builds from what the hooks keep (listable jobs,
 * job views refreshed from the touched jobs, targets reset through nz)
 * against one rebuilt from the phase list and the engine's state at every
 * solve (--opt verify=1 fails the run on any difference), on random
 * workloads with pools, speculation, every metric, the oracle, and both
 * re-solve rules; the verified run's jobs start and finish at the same
 * times as the plain run's. */
static void test_incremental_instance(void)
{
    const char *metrics[] = {"response", "weighted-response", "stretch",
                             "makespan"};
    const char *specs[] = {NULL, "hadoop", "late"};
    so_rng rng;
    so_rng_seed(&rng, 22);
    for (int it = 0; it < 60; it++) {
        char json[16384];
        random_json(&rng, json, sizeof json, 40);
        so_params prm;
        so_params_init(&prm);
        so_params_set(&prm, "metric", metrics[it % 4]);
        so_params_set(&prm, "resolve_epochs", it % 2 ? "1" : "8");
        if (it % 7 == 3)
            so_params_set(&prm, "oracle", "1");
        cl_run a = cl_simulate(json, "flex", specs[it % 3], &prm,
                               (uint64_t)it, NULL);
        so_params_set(&prm, "verify", "1");
        cl_run b = cl_simulate(json, "flex", specs[it % 3], &prm,
                               (uint64_t)it, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a.sim);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b.sim);
        for (int j = 0; j < a.w->n_jobs; j++) {
            CU_ASSERT_EQUAL(so_cl_sim_job(a.sim, j)->start,
                            so_cl_sim_job(b.sim, j)->start);
            CU_ASSERT_EQUAL(so_cl_sim_job(a.sim, j)->finish,
                            so_cl_sim_job(b.sim, j)->finish);
        }
        cl_done(&a);
        cl_done(&b);
    }
}

static double mean_response(const cl_run *r)
{
    double sum = 0;
    for (int j = 0; j < r->w->n_jobs; j++)
        sum += so_cl_sim_job(r->sim, j)->finish - so_cl_sim_job(r->sim, j)->submit;
    return sum / r->w->n_jobs;
}

/* Ten jobs submitted together, sizes spread over two orders of magnitude:
 * FLEX (average response time) is never worse than fair, seed by seed. */
static void test_simultaneous_jobs(void)
{
    int better = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        so_rng rng;
        so_rng_seed(&rng, seed);
        char json[4096];
        int len = snprintf(json, sizeof json,
                           "{\"cluster\": {\"nodes\": [{\"count\": 4,"
                           " \"map_slots\": 2, \"reduce_slots\": 1}]}, \"jobs\": [");
        for (int j = 0; j < 10; j++)
            len += snprintf(json + len, sizeof json - (size_t)len,
                            "%s{\"submit\": 0, \"maps\": {\"count\": %d,"
                            " \"duration\": {\"dist\": \"uniform\", \"lo\": 5,"
                            " \"hi\": 15}}, \"reduces\": {\"count\": %d,"
                            " \"reduce\": 10}}",
                            j ? ", " : "", (int)so_rng_int(&rng, 1, 60),
                            (int)so_rng_int(&rng, 1, 4));
        snprintf(json + len, sizeof json - (size_t)len, "]}");
        cl_run fair = cl_simulate(json, "fair", NULL, NULL, seed, NULL);
        cl_run flex = cl_simulate(json, "flex", NULL, NULL, seed, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(fair.sim);
        CU_ASSERT_PTR_NOT_NULL_FATAL(flex.sim);
        double a = mean_response(&fair), b = mean_response(&flex);
        CU_ASSERT(b <= a);
        better += b < 0.9 * a;
        cl_done(&fair);
        cl_done(&flex);
    }
    CU_ASSERT(better >= 3);
}

static CU_TestInfo tests[] = {
    {"instance kept incrementally = rebuilt from the engine", test_incremental_instance},
    {"flex and fair differ: times by hand", test_flex_differs_from_fair},
    {"pool minimum share is FLEX's minimum", test_min_share},
    {"flex estimates task times (default): times by hand", test_flex_estimates},
    {"weighted response metric, local search", test_weighted_metric},
    {"bad flex options", test_bad_options},
    {"slotopt sim --scheduler flex", test_cli},
    {"same seed, same event log under flex", test_determinism},
    {"conservation under flex", test_conservation},
    {"random workloads, every metric", test_random_workloads},
    {"flex no worse than fair on simultaneous jobs", test_simultaneous_jobs},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-flex", tests)
