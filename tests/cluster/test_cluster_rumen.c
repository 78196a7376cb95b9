/* test_cluster_rumen.c — Hadoop Rumen job traces (workload_rumen.c): a
 * hand-made two-job trace is read into the recorded durations and replays
 * to hand-computed times; the cluster comes from the options or the hosts;
 * malformed traces fail at their line and column (the corpus
 * tests/corpus/cluster/rumen-*, checked by suite cluster-bounds, and the
 * cases below). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "cluster/cluster.h"
#include "tests/cluster/rumen_hosts_trace.h"

/* Job A (queue prod) at 1,000 s since the epoch: maps of 10 s and 4 s (the
 * second after a failed attempt), one reduce copying 3 s, sorting 1 s,
 * reducing 2 s; job B (no queue) 5 s later: one map of 6 s. Hosts h1, h2. */
static const char *hand_trace =
    "{\n"
    "  \"jobID\" : \"job_A\", \"user\" : \"alice\", \"queue\" : \"prod\",\n"
    "  \"submitTime\" : 1000000, \"finishTime\" : 1012000,\n"
    "  \"mapTasks\" : [ {\n"
    "    \"taskID\" : \"task_A_m_0\", \"taskType\" : \"MAP\",\n"
    "    \"attempts\" : [ { \"hostName\" : \"/rack/h1\", \"result\" : \"SUCCESS\",\n"
    "      \"startTime\" : 1000500, \"finishTime\" : 1010500,\n"
    "      \"shuffleFinished\" : -1, \"sortFinished\" : -1 } ]\n"
    "  }, {\n"
    "    \"taskID\" : \"task_A_m_1\", \"taskType\" : \"MAP\",\n"
    "    \"attempts\" : [ { \"hostName\" : \"/rack/h2\", \"result\" : \"FAILED\",\n"
    "      \"startTime\" : 1000500, \"finishTime\" : 1001000 },\n"
    "      { \"hostName\" : \"/rack/h1\", \"result\" : \"SUCCESS\",\n"
    "      \"startTime\" : 1001000, \"finishTime\" : 1005000 } ]\n"
    "  } ],\n"
    "  \"reduceTasks\" : [ {\n"
    "    \"taskID\" : \"task_A_r_0\", \"taskType\" : \"REDUCE\",\n"
    "    \"attempts\" : [ { \"hostName\" : \"/rack/h2\", \"result\" : \"SUCCESS\",\n"
    "      \"startTime\" : 1006000, \"shuffleFinished\" : 1009000,\n"
    "      \"sortFinished\" : 1010000, \"finishTime\" : 1012000 } ]\n"
    "  } ],\n"
    "  \"otherTasks\" : [ ]\n"
    "}\n"
    "{\n"
    "  \"jobID\" : \"job_B\", \"user\" : \"bob\", \"submitTime\" : 1005000,\n"
    "  \"mapTasks\" : [ { \"taskID\" : \"task_B_m_0\", \"taskType\" : \"MAP\",\n"
    "    \"attempts\" : [ { \"hostName\" : \"/rack/h2\", \"result\" : \"SUCCESS\",\n"
    "      \"startTime\" : 1005500, \"finishTime\" : 1011500 } ] } ],\n"
    "  \"reduceTasks\" : [ ]\n"
    "}\n";

static so_cl_workload *read_trace(const char *text, const char *const *opts,
                                  so_error *err, int *rc)
{
    so_params prm;
    so_params_init(&prm);
    for (; opts && *opts; opts++)
        so_params_set_kv(&prm, *opts, err);
    so_cl_workload *w = NULL;
    *rc = so_cl_workload_parse(text, strlen(text), "hand.rumen.json", &prm, 1, &w,
                               err);
    return w;
}

static void test_hand_trace_read(void)
{
    so_error err;
    int rc;
    so_cl_workload *w = read_trace(hand_trace, NULL, &err, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    CU_ASSERT_EQUAL(w->n_jobs, 2);
    CU_ASSERT_EQUAL(w->n_nodes, 2); /* hosts h1 and h2 */
    CU_ASSERT_EQUAL(w->nodes[0].slots[SO_CL_MAP], 2);
    const so_cl_job_spec *a = &w->jobs[0], *b = &w->jobs[1];
    CU_ASSERT_STRING_EQUAL(a->name, "job_A");
    CU_ASSERT_STRING_EQUAL(a->user, "alice");
    CU_ASSERT_STRING_EQUAL(w->pools[a->pool].name, "prod");
    CU_ASSERT_STRING_EQUAL(w->pools[b->pool].name, "default");
    CU_ASSERT_DOUBLE_EQUAL(a->submit, 0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b->submit, 5, 1e-12);
    CU_ASSERT_EQUAL(a->n_maps, 2);
    CU_ASSERT_EQUAL(a->n_reduces, 1);
    CU_ASSERT_DOUBLE_EQUAL(a->map_work[0], 10, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(a->map_work[1], 4, 1e-12); /* the successful one */
    CU_ASSERT_DOUBLE_EQUAL(a->reduce_work[0].copy, 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(a->reduce_work[0].sort, 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(a->reduce_work[0].reduce, 2, 1e-12);
    CU_ASSERT_EQUAL(b->n_maps, 1);
    CU_ASSERT_EQUAL(b->n_reduces, 0);
    CU_ASSERT_DOUBLE_EQUAL(b->map_work[0], 6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(a->slowstart, 0.05, 1e-12);
    so_cl_workload_free(w);
}

/* One node of 2 map + 1 reduce slots, heartbeats at k x 1 s, no padding,
 * fifo. t=0: A's maps start (end at 10 and 4). t=4: the 4 s map ends, one
 * map of two is Hadoop's ceil(0.05 x 2) = 1 for slow-start, the reduce
 * starts at the beat; its 3 s copy is done at 7 but waits for the last map
 * (10), then sorts 1 s and reduces 2 s: A ends at 13. t=5: B arrives and
 * its 6 s map takes the free map slot at the beat: B ends at 11. */
static void test_hand_trace_replay(void)
{
    const char *opts[] = {"nodes=1", "map_slots=2", "reduce_slots=1",
                          "heartbeat=1", NULL};
    so_error err;
    int rc;
    so_cl_workload *w = read_trace(hand_trace, opts, &err, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    CU_ASSERT_EQUAL(w->n_nodes, 1);
    w->aligned = 1;
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "padding", "0");
    so_cl_config cfg = {0};
    cfg.scheduler = so_cl_scheduler_find("fifo");
    cfg.params = &prm;
    so_cl_sim *sim = NULL;
    CU_ASSERT_EQUAL_FATAL(so_cl_sim_new(w, &cfg, &sim, &err), SO_OK);
    CU_ASSERT_EQUAL(so_cl_sim_run(sim), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(sim, 0)->start, 0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(sim, 0)->finish, 13, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(sim, 1)->start, 5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(sim, 1)->finish, 11, 1e-9);
    so_cl_sim_free(sim);
    so_cl_workload_free(w);
}

/* Errors inside the second job object (line 25 of the file) are located in
 * the file: the value's column, or for a syntax error jansson's (the end of
 * the unexpected token). */
static void test_located_errors(void)
{
    static const struct {
        const char *second; /* replaces job B's submitTime line */
        int line, column;
        const char *key;
    } cases[] = {
        {"  \"jobID\" : \"job_B\", \"user\" : \"bob\", \"submitTime\" : -5,\n", 25, 53,
         "submitTime"},
        {"  \"jobID\" : \"job_B\", \"user\" : 7, \"submitTime\" : 5,\n", 25, 31,
         "user"},
        {"  \"jobID\" : \"job_B\", \"user\" : \"bob\" \"submitTime\" : 5,\n", 25, 48,
         NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char text[8192];
        const char *b = strstr(hand_trace, "  \"jobID\" : \"job_B\"");
        const char *eol = strchr(b, '\n') + 1;
        snprintf(text, sizeof text, "%.*s%s%s", (int)(b - hand_trace), hand_trace,
                 cases[k].second, eol);
        so_error err;
        int rc;
        so_cl_workload *w = read_trace(text, NULL, &err, &rc);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        CU_ASSERT_PTR_NULL(w);
        if (err.line != cases[k].line || err.column != cases[k].column)
            fprintf(stderr, "\ncase %zu: %d:%d %s\n", k, err.line, err.column,
                    err.message);
        CU_ASSERT_EQUAL(err.line, cases[k].line);
        CU_ASSERT_EQUAL(err.column, cases[k].column);
        if (cases[k].key)
            CU_ASSERT_STRING_EQUAL(err.key, cases[k].key);
        CU_ASSERT_STRING_EQUAL(err.file, "hand.rumen.json");
    }
}

/* SWIM's byte-to-duration settings are refused by name for a Rumen trace. */
static void test_swim_rates_refused(void)
{
    const char *opts[] = {"nodes=2", "map_rate=5", NULL};
    so_error err;
    int rc;
    so_cl_workload *w = read_trace(hand_trace, opts, &err, &rc);
    CU_ASSERT_EQUAL(rc, SO_EINVAL);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_STRING_EQUAL(err.key, "map_rate");
}

/* The CLI replays a Rumen file: `slotopt sim FILE --scheduler fair`. */
static void test_cli(void)
{
    const char *path = so_test_write("hand.rumen.json", hand_trace);
    char args[1024], *out = NULL;
    snprintf(args, sizeof args, "sim %s --scheduler fair --opt nodes=3", path);
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT(out && strstr(out, "\"job_B\"") != NULL);
    free(out);
}

/* 20,000 hosts, each named twice: 20,000 nodes (the count of distinct
 * names); with the former linear lookup per attempt this took 1.57 s, now
 * 0.26 s (the timing is in make bench BENCHES=rumen-hosts). And 3 hosts:
 * 3 nodes. */
static void test_many_hosts(void)
{
    size_t len = 0;
    char *text = so_test_rumen_hosts_trace(20000, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    so_error err;
    int rc;
    so_cl_workload *w = read_trace(text, NULL, &err, &rc);
    CU_ASSERT_EQUAL(rc, SO_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->n_nodes, 20000);
    CU_ASSERT_EQUAL(w->n_jobs, 20000);
    so_cl_workload_free(w);
    free(text);
    text = so_test_rumen_hosts_trace(3, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    w = read_trace(text, NULL, &err, &rc);
    CU_ASSERT_EQUAL(rc, SO_OK);
    CU_ASSERT(w && w->n_nodes == 3);
    so_cl_workload_free(w);
    free(text);
}

static CU_TestInfo tests[] = {
    {"20,000 distinct hosts: 20,000 nodes", test_many_hosts},
    {"hand-made trace: recorded durations, pools, hosts", test_hand_trace_read},
    {"hand-made trace replays to hand-computed times", test_hand_trace_replay},
    {"errors in the second job: file line and column", test_located_errors},
    {"SWIM rate settings refused for a Rumen trace", test_swim_rates_refused},
    {"slotopt sim reads a Rumen trace", test_cli},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-rumen", tests)
