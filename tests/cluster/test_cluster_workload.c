/* test_cluster_workload.c — workload readers: native JSON (node groups,
 * pools, explicit and sampled durations), SWIM (task derivation from bytes),
 * the shipped FB-2009 trace, every error path with its line, and a
 * deterministic fuzz of both readers (run under ASan by make check-asan). */
#include <math.h>
#include <stdlib.h>
#include "tests/test_util.h"
#include "tests/cluster/cluster_test.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9)
#define MIB 1048576.0

static int parse(const char *text, const so_params *prm, so_cl_workload **w,
                 so_error *err)
{
    return so_cl_workload_parse(text, strlen(text), "w.json", prm, 1, w, err);
}

static void test_json_valid(void)
{
    const char *t =
        "{\"problem\": \"cluster\", \"version\": 1,\n"
        " \"cluster\": {\"nodes\": [{\"count\": 3}, {\"map_slots\": 4,"
        " \"reduce_slots\": 1, \"speed\": 0.5}], \"heartbeat\": 2},\n"
        " \"pools\": [{\"name\": \"prod\", \"weight\": 2, \"min_maps\": 5,"
        " \"min_reduces\": 1, \"mode\": \"fifo\"}],\n"
        " \"jobs\": [{\"name\": \"late\", \"submit\": 9, \"user\": \"ann\","
        " \"maps\": [1, 2]},\n"
        "  {\"name\": \"early\", \"submit\": 1, \"pool\": \"prod\", \"weight\": 3,"
        " \"slowstart\": 0.5, \"maps\": {\"count\": 4, \"duration\": 7},"
        " \"reduces\": [5, {\"copy\": 1, \"sort\": 2}]},\n"
        "  {\"name\": \"tie\", \"submit\": 9, \"maps\": {\"count\": 50, \"duration\":"
        " {\"dist\": \"uniform\", \"lo\": 2, \"hi\": 4}}}]}\n";
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(parse(t, NULL, &w, &err), SO_OK);
    CU_ASSERT_EQUAL(w->n_nodes, 4);
    CU_ASSERT_EQUAL(w->nodes[0].slots[SO_CL_MAP], 2);
    CU_ASSERT_EQUAL(w->nodes[3].slots[SO_CL_MAP], 4);
    NEAR(w->nodes[3].speed, 0.5);
    NEAR(so_cl_heartbeat_interval(w), 2);
    CU_ASSERT_FALSE(w->aligned);
    CU_ASSERT_EQUAL(w->n_jobs, 3);
    /* sorted by submit, file order among ties */
    CU_ASSERT_STRING_EQUAL(w->jobs[0].name, "early");
    CU_ASSERT_STRING_EQUAL(w->jobs[1].name, "late");
    CU_ASSERT_STRING_EQUAL(w->jobs[2].name, "tie");
    /* pools: prod, then one per user without a pool ("ann", "default") */
    CU_ASSERT_EQUAL(w->n_pools, 3);
    CU_ASSERT_STRING_EQUAL(w->pools[w->jobs[0].pool].name, "prod");
    CU_ASSERT_STRING_EQUAL(w->pools[w->jobs[1].pool].name, "ann");
    CU_ASSERT_STRING_EQUAL(w->pools[w->jobs[2].pool].name, "default");
    CU_ASSERT(w->pools[0].fifo);
    CU_ASSERT_EQUAL(w->pools[0].min_share[SO_CL_MAP], 5);
    NEAR(w->pools[0].weight, 2);
    NEAR(w->jobs[0].weight, 3);
    NEAR(w->jobs[0].slowstart, 0.5);
    NEAR(w->jobs[1].slowstart, 0.05);
    CU_ASSERT_EQUAL(w->jobs[0].n_maps, 4);
    NEAR(w->jobs[0].map_work[3], 7);
    CU_ASSERT_EQUAL(w->jobs[0].n_reduces, 2);
    NEAR(w->jobs[0].reduce_work[0].reduce, 5);
    NEAR(w->jobs[0].reduce_work[1].copy, 1);
    NEAR(w->jobs[0].reduce_work[1].sort, 2);
    NEAR(w->jobs[0].reduce_work[1].reduce, 0);
    double lo = 10, hi = 0, first = w->jobs[2].map_work[0];
    for (int i = 0; i < 50; i++) {
        lo = fmin(lo, w->jobs[2].map_work[i]);
        hi = fmax(hi, w->jobs[2].map_work[i]);
    }
    CU_ASSERT(lo >= 2 && hi < 4 && hi - lo > 1);
    so_cl_workload_free(w);
    /* the same seed draws the same durations, another seed others */
    CU_ASSERT_EQUAL_FATAL(parse(t, NULL, &w, &err), SO_OK);
    NEAR(w->jobs[2].map_work[0], first);
    so_cl_workload_free(w);
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse(t, strlen(t), "w", NULL, 2, &w, &err), SO_OK);
    CU_ASSERT(w->jobs[2].map_work[0] != first);
    so_cl_workload_free(w);
}

typedef struct bad_case {
    const char *text;
    int line;
    const char *key;     /* NULL: not checked */
    const char *message; /* a part of it */
} bad_case;

#define NODES "\"cluster\": {\"nodes\": [{}]}"

static const bad_case json_bad[] = {
    {"{\"cluster\": {\"nodes\": [{}],\n \"hartbeat\": 3}, \"jobs\": []}", 2,
     "cluster.hartbeat", "unknown key"},
    {"{" NODES ",\n \"jobs\": [{\"maps\": [1]}]}", 2, "jobs[0].submit",
     "missing required key"},
    {"{" NODES ",\n \"jobs\": [{\"submit\": 0,\n \"maps\": [3, -1]}]}", 3,
     "jobs[0].maps[1]", "expected seconds"},
    {"{" NODES ",\n \"jobs\": [{\"submit\": 0, \"maps\": {\"count\": 2,\n"
     " \"duration\": {\"dist\": \"gamma\"}}}]}", 3, "jobs[0].maps.duration.dist",
     "expected fixed, uniform"},
    {"{" NODES ",\n \"jobs\": [{\"submit\": 0, \"maps\": {\"count\": 2,\n"
     " \"duration\": {\"dist\": \"uniform\", \"lo\": 5, \"hi\": 1}}}]}", 3,
     "jobs[0].maps.duration.hi", NULL},
    {"{" NODES ",\n \"jobs\": [{\"submit\": 0, \"maps\": [1],\n \"reduces\": [0]}]}",
     3, "jobs[0].reduces[0]", "work > 0"},
    {"{\"cluster\": {\"nodes\": [{\"reduce_slots\": 0}]},\n \"jobs\": [{\"submit\":"
     " 0, \"maps\": [1], \"reduces\": [1]}]}", 2, "jobs[0].reduces",
     "no node has a reduce slot"},
    {"{" NODES ", \"pools\": [{\"name\": \"a\"},\n {\"name\": \"a\"}], \"jobs\": []}",
     2, "pools[1].name", "defined twice"},
    {"{\"cluster\": {\"nodes\": [{}],\n \"heartbeat_phase\": \"sometimes\"}, \"jobs\": []}",
     2, "cluster.heartbeat_phase", "aligned"},
    {"{" NODES ",\n \"jobs\": [{\"submit\": 0, \"maps\": [1], \"name\":"
     " \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}]}",
     2, "jobs[0].name", "1 to 63"},
    {"{\"problem\": \"knapsack\", " NODES ", \"jobs\": []}", 1, "problem", "cluster"},
    {"{" NODES ",\n \"jobs\": [{\"submit\": 0,\n \"maps\": {\"count\": 20000000,"
     " \"duration\": 1}}]}", 3, "jobs[0].maps.count", NULL},
    {"{" NODES ",\n \"jobs\": [{\"submit\": 0, \"maps\": \"many\"}]}", 2,
     "jobs[0].maps", "expected an array"},
    {"{" NODES ",\n \"jobs\": [{\"submit\": 0, \"maps\": [1],\n \"reduces\": 3}]}", 3,
     "jobs[0].reduces", "expected an array"},
    {"{\"cluster\": {\"nodes\": []}, \"jobs\": []}", 1, "cluster.nodes", NULL},
    {"{\"cluster\": {\"nodes\": [{\"speed\": 0}]}, \"jobs\": []}", 1,
     "cluster.nodes[0].speed", NULL},
    {"{" NODES ",\n \"pools\": [{\"name\": \"p\", \"mode\": \"lottery\"}], \"jobs\": []}",
     2, "pools[0].mode", "fifo"},
    {"{" NODES ",\n \"jobs\": [{\"submit\": 0,\n \"maps\": [1], }]}", 3, NULL,
     "invalid JSON"},
    {"  \n\n", 1, NULL, "empty file"},
    {"{\"cluster\": {\"nodes\": [{\"count\": 2}],\n \"replicas\": 3}, \"jobs\": []}", 2,
     "cluster.replicas", "at most one per node"},
    {"{\"cluster\": {\"nodes\": [{\"count\": 3}], \"replicas\": 2},\n \"jobs\":"
     " [{\"submit\": 0,\n \"maps\": [{\"duration\": 1, \"replicas\": [0]}]}]}", 3,
     "jobs[0].maps[0].replicas", "expected 2 nodes"},
    {"{\"cluster\": {\"nodes\": [{\"count\": 3}], \"replicas\": 2},\n \"jobs\":"
     " [{\"submit\": 0,\n \"maps\": [{\"duration\": 1, \"replicas\": [2, 2]}]}]}", 3,
     "jobs[0].maps[0].replicas[1]", "twice"},
    {"{\"cluster\": {\"nodes\": [{\"count\": 3}], \"replicas\": 2},\n \"jobs\":"
     " [{\"submit\": 0,\n \"maps\": [{\"duration\": 1, \"replicas\": [0, 3]}]}]}", 3,
     "jobs[0].maps[0].replicas[1]", NULL},
    {"{\"cluster\": {\"nodes\": [{}],\n \"remote_slowdown\": 0.5}, \"jobs\": []}", 2,
     "cluster.remote_slowdown", NULL},
    {"{\"cluster\": {\"nodes\": [{\"capacity\": [4]}]},\n \"jobs\": []}", 1,
     "cluster.nodes[0].capacity", "needs cluster.resources"},
    {"{\"cluster\": {\"resources\": [\"cpu\", \"mem\"],\n \"nodes\": [{\"capacity\": [4]}]},"
     " \"jobs\": []}", 2, "cluster.nodes[0].capacity", "2 amounts"},
    {"{\"cluster\": {\"resources\": [\"cpu\", \"cpu\"],\n \"nodes\": [{}]}, \"jobs\": []}",
     1, "cluster.resources[1]", "twice"},
    {"{\"cluster\": {\"resources\": [\"cpu\"],\n \"nodes\": [{}]}, \"jobs\": []}", 2,
     "cluster.nodes[0].capacity", "missing"},
    {"{\"cluster\": {\"resources\": [\"cpu\"], \"nodes\": [{\"capacity\": [4]}]},\n"
     " \"jobs\": [{\"submit\": 0, \"maps\": [1],\n \"map_demand\": [5]}]}", 3,
     "jobs[0].map_demand", "no node has a map slot and room"},
    {"{\"cluster\": {\"resources\": [\"cpu\"], \"nodes\": [{\"capacity\": [4]}]},\n"
     " \"jobs\": [{\"submit\": 0, \"maps\": [1],\n \"map_demand\": [-1]}]}", 3,
     "jobs[0].map_demand[0]", NULL},
    {"{\"cluster\": {\"nodes\": [{}],\n \"contention\": {\"model\": \"share\"}},"
     " \"jobs\": []}", 2, "cluster.contention", "needs cluster.resources"},
    {"{\"cluster\": {\"resources\": [\"cpu\"], \"nodes\": [{\"capacity\": [4]}],\n"
     " \"contention\": {\"model\": \"fluid\"}}, \"jobs\": []}", 2,
     "cluster.contention.model", "\"share\""},
    {"{\"cluster\": {\"resources\": [\"cpu\"], \"nodes\": [{\"capacity\": [4]}],\n"
     " \"contention\": {\"model\": \"share\", \"hard\": [\"mem\"]}}, \"jobs\": []}",
     2, "cluster.contention.hard[0]", "one of cluster.resources"},
    {"{\"cluster\": {\"resources\": [\"cpu\"], \"nodes\": [{\"capacity\": [4]}],\n"
     " \"contention\": {\"model\": \"none\", \"hard\": []}}, \"jobs\": []}",
     2, "cluster.contention.hard", "needs model"},
    {"{\"cluster\": {\"resources\": [\"cpu\", \"mem\"], \"nodes\": [{\"capacity\":"
     " [4, 4]}],\n \"contention\": {\"model\": \"share\", \"hard\": [\"mem\"]}},\n"
     " \"jobs\": [{\"submit\": 0, \"maps\": [1], \"reduces\": [1],\n"
     " \"shuffle_demand\": [9, 5]}]}", 4, "jobs[0].shuffle_demand",
     "no node has a reduce slot and room"},
    {"{\"cluster\": {\"resources\": [\"cpu\"],\n \"contention\": {\"model\": \"share\"},\n"
     " \"nodes\": [{\"capacity\": [0]}]}, \"jobs\": []}", 3,
     "cluster.nodes[0].capacity", "needs a capacity above 0"},
    {"{" NODES ",\n \"pools\": [{\"name\": \"p\", \"max_maps\": -1}], \"jobs\": []}",
     2, "pools[0].max_maps", NULL},
    {"{" NODES ",\n \"jobs\": [{\"submit\": 0, \"maps\": [1],\n \"goal\": -5}]}", 3,
     "jobs[0].goal", NULL},
    {"{" NODES ",\n \"jobs\": [{\"submit\": 0, \"maps\": [1],\n"
     " \"map_parallel\": 1.5}]}", 3, "jobs[0].map_parallel", NULL},
    {"{" NODES ",\n \"jobs\": [{\"submit\": 0, \"maps\": [1],\n"
     " \"shuffle_demand\": [1]}]}", 3, "jobs[0].shuffle_demand",
     "needs cluster.resources"},
};

/* The keys for contention, pool maxima, goals, shuffle demand and extra
 * threads: values stored, defaults when absent. */
static void test_json_online_keys(void)
{
    const char *t =
        "{\"cluster\": {\"resources\": [\"cpu\", \"io\", \"mem\"],\n"
        "  \"nodes\": [{\"capacity\": [4, 2, 8]}],\n"
        "  \"contention\": {\"model\": \"share\", \"hard\": [\"mem\"]}},\n"
        " \"pools\": [{\"name\": \"a\", \"max_maps\": 3, \"max_reduces\": 0}],\n"
        " \"jobs\": [{\"submit\": 0, \"pool\": \"a\", \"goal\": 600,\n"
        "   \"map_parallel\": 0.9, \"reduce_parallel\": 0.25,\n"
        "   \"map_demand\": [6, 1, 2], \"reduce_demand\": [1, 1, 4],\n"
        "   \"shuffle_demand\": [0.5, 3, 4], \"maps\": [1], \"reduces\": [2]},\n"
        "  {\"submit\": 1, \"maps\": [1], \"reduce_demand\": [1, 2, 3]}]}";
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(parse(t, NULL, &w, &err), SO_OK);
    CU_ASSERT_EQUAL(w->contention, SO_CL_CONTENTION_SHARE);
    CU_ASSERT(!w->hard[0] && !w->hard[1] && w->hard[2]);
    CU_ASSERT_EQUAL(w->pools[0].max_share[SO_CL_MAP], 3);
    CU_ASSERT_EQUAL(w->pools[0].max_share[SO_CL_REDUCE], 0);
    CU_ASSERT_EQUAL(w->pools[1].max_share[SO_CL_MAP], -1); /* user's pool */
    NEAR(w->jobs[0].goal, 600);
    NEAR(w->jobs[0].parallel[SO_CL_MAP], 0.9);
    NEAR(w->jobs[0].parallel[SO_CL_REDUCE], 0.25);
    NEAR(w->jobs[0].shuffle_demand[1], 3);
    NEAR(w->jobs[1].goal, 0);
    NEAR(w->jobs[1].parallel[SO_CL_MAP], 0);
    NEAR(w->jobs[1].shuffle_demand[2], 3); /* = reduce demand */
    so_cl_workload_free(w);
    /* without a contention model every resource is checked at launch */
    CU_ASSERT_EQUAL_FATAL(parse("{\"cluster\": {\"resources\": [\"cpu\"], \"nodes\":"
                                " [{\"capacity\": [1]}]}, \"jobs\": []}", NULL, &w,
                                &err), SO_OK);
    CU_ASSERT_EQUAL(w->contention, SO_CL_CONTENTION_NONE);
    CU_ASSERT(w->hard[0]);
    so_cl_workload_free(w);
}

static void test_json_errors(void)
{
    for (size_t i = 0; i < sizeof json_bad / sizeof json_bad[0]; i++) {
        so_cl_workload *w = NULL;
        so_error err;
        int rc = parse(json_bad[i].text, NULL, &w, &err);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        CU_ASSERT_PTR_NULL(w);
        CU_ASSERT_EQUAL(err.line, json_bad[i].line);
        CU_ASSERT_STRING_EQUAL(err.file, "w.json");
        if (json_bad[i].key)
            CU_ASSERT_STRING_EQUAL(err.key, json_bad[i].key);
        if (json_bad[i].message)
            CU_ASSERT_PTR_NOT_NULL(strstr(err.message, json_bad[i].message));
        if (err.line != json_bad[i].line || rc != SO_EINVAL)
            fprintf(stderr, "case %zu: %d:%d %s: %s\n", i, err.line, err.column,
                    err.key, err.message);
    }
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL(so_cl_workload_parse("{}\0x", 4, "w.json", NULL, 1, &w, &err),
                    SO_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "NUL"));
    /* a SWIM derivation setting would change nothing in a JSON workload:
     * an error naming it, not a silent no-op */
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "nodes", "5");
    CU_ASSERT_EQUAL(parse("{\"cluster\": {\"nodes\": [{}]}, \"jobs\": []}", &prm,
                          &w, &err), SO_EINVAL);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_STRING_EQUAL(err.key, "nodes");
    CU_ASSERT_STRING_EQUAL(err.file, "w.json");
    so_cl_workload_free(w);
}

static void test_swim_derivation(void)
{
    const char *t = "j1\t10\t0\t134217728\t0\t0\n"
                    "j2\t5\t5\t100\t2500000000\t3000000\r\n"
                    "\n"
                    "j3\t7\t2\t67108864\t0\t20971520\n"
                    "j4\t8\t1\t0\t0\t0\n";
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse(t, strlen(t), "t.tsv", NULL, 1, &w, &err),
                          SO_OK);
    CU_ASSERT_EQUAL(w->n_nodes, 100);
    CU_ASSERT_EQUAL(w->nodes[99].slots[SO_CL_MAP], 2);
    CU_ASSERT_EQUAL(w->nodes[0].slots[SO_CL_REDUCE], 2);
    NEAR(so_cl_heartbeat_interval(w), 3);
    CU_ASSERT_EQUAL(w->n_jobs, 4);
    CU_ASSERT_STRING_EQUAL(w->jobs[0].name, "j2");
    CU_ASSERT_STRING_EQUAL(w->jobs[1].name, "j3");
    CU_ASSERT_STRING_EQUAL(w->jobs[3].name, "j1");
    /* j1: 128 MiB = 2 blocks, 1 s + 64 MiB / 20 MiB/s each, map-only */
    CU_ASSERT_EQUAL(w->jobs[3].n_maps, 2);
    CU_ASSERT_EQUAL(w->jobs[3].n_reduces, 0);
    NEAR(w->jobs[3].map_work[1], 4.2);
    NEAR(w->jobs[3].submit, 10);
    /* j2: 3 reduces of 2.5e9 / 3 bytes */
    CU_ASSERT_EQUAL(w->jobs[0].n_maps, 1);
    NEAR(w->jobs[0].map_work[0], 1 + 100 / (20 * MIB));
    CU_ASSERT_EQUAL(w->jobs[0].n_reduces, 3);
    double in = 2.5e9 / 3;
    NEAR(w->jobs[0].reduce_work[2].copy, in / (20 * MIB));
    NEAR(w->jobs[0].reduce_work[2].sort, in / (100 * MIB));
    NEAR(w->jobs[0].reduce_work[2].reduce, 1 + (in + 1e6) / (20 * MIB));
    NEAR(w->jobs[0].slowstart, 0.05);
    /* j3: map-only, the map also writes the 20 MiB output */
    NEAR(w->jobs[1].map_work[0], 1 + 84 / 20.0);
    /* j4: no input, one map of the overhead */
    CU_ASSERT_EQUAL(w->jobs[2].n_maps, 1);
    NEAR(w->jobs[2].map_work[0], 1);
    so_cl_workload_free(w);

    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "max_reduces", "2");
    so_params_set(&prm, "block_mib", "128");
    so_params_set(&prm, "nodes", "7");
    so_params_set(&prm, "slow_nodes", "2");
    so_params_set(&prm, "slow_speed", "0.5");
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse(t, strlen(t), "t.tsv", &prm, 1, &w, &err),
                          SO_OK);
    CU_ASSERT_EQUAL(w->jobs[0].n_reduces, 2);
    CU_ASSERT_EQUAL(w->jobs[3].n_maps, 1);
    CU_ASSERT_EQUAL(w->n_nodes, 7);
    NEAR(w->nodes[1].speed, 0.5);
    NEAR(w->nodes[2].speed, 1);
    so_cl_workload_free(w);
}

/* map_output_mib: a map-only job's output over enough maps that none writes
 * more than the cap; the input is then split evenly; shuffling jobs and
 * jobs whose blocks already need more maps keep SWIM's rule. */
static void test_swim_map_output_cap(void)
{
    const char *t = "tiny\t0\t0\t1024\t0\t10737418240\n"      /* 1 KiB in, 10 GiB out */
                    "big\t1\t1\t671088640\t0\t1048576\n"      /* 10 blocks, 1 MiB out */
                    "shuf\t2\t1\t1024\t5000000\t10737418240\n"; /* reduces write */
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse(t, strlen(t), "t.tsv", NULL, 1, &w, &err),
                          SO_OK);
    /* default: SWIM's replay, one map writes the 10 GiB */
    CU_ASSERT_EQUAL(w->jobs[0].n_maps, 1);
    NEAR(w->jobs[0].map_work[0], 1 + (1024 + 10240 * MIB) / (20 * MIB));
    so_cl_workload_free(w);

    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "map_output_mib", "1024");
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse(t, strlen(t), "t.tsv", &prm, 1, &w, &err),
                          SO_OK);
    /* tiny: 10 maps of 1 GiB out and 102.4 bytes in each: 52.2 s + a hair */
    CU_ASSERT_EQUAL(w->jobs[0].n_maps, 10);
    NEAR(w->jobs[0].map_work[9], 1 + (102.4 + 1024 * MIB) / (20 * MIB));
    NEAR(w->jobs[0].map_work[0], w->jobs[0].map_work[9]);
    /* big: its 10 blocks need more maps than its output: unchanged, 4.2 s
     * + 0.1 MiB each */
    CU_ASSERT_EQUAL(w->jobs[1].n_maps, 10);
    NEAR(w->jobs[1].map_work[3], 1 + (64 * MIB + 0.1 * MIB) / (20 * MIB));
    /* shuf: the reduces write the output, one map */
    CU_ASSERT_EQUAL(w->jobs[2].n_maps, 1);
    CU_ASSERT_EQUAL(w->jobs[2].n_reduces, 1);
    so_cl_workload_free(w);

    /* a map count the output cap sets, over max_tasks_per_job: the output
     * field and the option named */
    so_params_set(&prm, "map_output_mib", "0.001");
    CU_ASSERT_EQUAL(so_cl_workload_parse(t, strlen(t), "t.tsv", &prm, 1, &w, &err),
                    SO_EINVAL);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_STRING_EQUAL(err.key, "field 6 (reduce output bytes)");
    CU_ASSERT_EQUAL(err.line, 1);
    CU_ASSERT_EQUAL(err.column, 17);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "map_output_mib"));
    so_params_set(&prm, "map_output_mib", "-1");
    CU_ASSERT_EQUAL(so_cl_workload_parse(t, strlen(t), "t.tsv", &prm, 1, &w, &err),
                    SO_EINVAL);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_STRING_EQUAL(err.key, "map_output_mib");
}

/* The shipped FB-2009 sample: 5,894 jobs; with 64 MiB blocks 406,005 maps
 * and (1 GB per reduce, at most 999) 15,584 reduces. */
static void test_swim_shipped(void)
{
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(
        so_cl_workload_read("instances/traces/swim/FB-2009_samples_24_times_1hr_0.tsv",
                            NULL, 1, &w, &err),
        SO_OK);
    CU_ASSERT_EQUAL(w->n_jobs, 5894);
    long maps = 0, reduces = 0;
    for (int j = 0; j < w->n_jobs; j++) {
        maps += w->jobs[j].n_maps;
        reduces += w->jobs[j].n_reduces;
        if (j > 0)
            CU_ASSERT(w->jobs[j].submit >= w->jobs[j - 1].submit);
    }
    CU_ASSERT_EQUAL(maps, 406005);
    CU_ASSERT_EQUAL(reduces, 15584);
    so_cl_workload_free(w);
}

static const bad_case swim_bad[] = {
    {"j1\t1\t0\t5\t0\t0\nj2\t10\t0\t5\t0\n", 2, NULL, "6 tab-separated fields"},
    {"j1\t1\t0\t5\t0\t0\n\nj2\t1x\t0\t5\t0\t0\n", 3, "field 2 (submit time)",
     "'1x'"},
    {"j1\t10\t0\t-5\t0\t0\n", 1, "field 4 (map input bytes)", "non-negative"},
    {"\t10\t0\t5\t0\t0\n", 1, "field 1 (job id)", "job id"},
    {"j1\t10\t0\t5\t0\t0\t7\n", 1, NULL, "found 7"},
    {"j1\t10\t0\t999999999999999999\t0\t0\n", 1, "field 4 (map input bytes)",
     "too many"},
    {"j1\t10\t0\t5\t\t0\n", 1, "field 5 (shuffle bytes)", NULL},
    {"hello world\n", 1, NULL, "SWIM"},
};

static void test_swim_errors(void)
{
    for (size_t i = 0; i < sizeof swim_bad / sizeof swim_bad[0]; i++) {
        so_cl_workload *w = NULL;
        so_error err;
        int rc = so_cl_workload_parse(swim_bad[i].text, strlen(swim_bad[i].text),
                                      "t.tsv", NULL, 1, &w, &err);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        CU_ASSERT_PTR_NULL(w);
        CU_ASSERT_EQUAL(err.line, swim_bad[i].line);
        if (swim_bad[i].key)
            CU_ASSERT_STRING_EQUAL(err.key, swim_bad[i].key);
        if (swim_bad[i].message)
            CU_ASSERT_PTR_NOT_NULL(strstr(err.message, swim_bad[i].message));
        if (err.line != swim_bad[i].line || rc != SO_EINVAL)
            fprintf(stderr, "swim case %zu: %d:%d %s: %s\n", i, err.line,
                    err.column, err.key, err.message);
    }
    /* the column of the bad field */
    so_cl_workload *w = NULL;
    so_error err;
    const char *t = "job7\t12\t0\t5\tx\t0\n";
    so_cl_workload_parse(t, strlen(t), "t.tsv", NULL, 1, &w, &err);
    CU_ASSERT_EQUAL(err.column, 13);
    /* bad settings name their key */
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "nodes", "0");
    t = "j1\t10\t0\t5\t0\t0\n";
    CU_ASSERT_EQUAL(so_cl_workload_parse(t, strlen(t), "t.tsv", &prm, 1, &w, &err),
                    SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "nodes");
    so_params_init(&prm);
    so_params_set(&prm, "map_rate", "fast");
    CU_ASSERT_EQUAL(so_cl_workload_parse(t, strlen(t), "t.tsv", &prm, 1, &w, &err),
                    SO_EINVAL);
    CU_ASSERT_EQUAL(so_cl_workload_read("/nonexistent/x.tsv", NULL, 1, &w, &err),
                    SO_EIO);
}

/* ---- fuzz ---------------------------------------------------------------- */

static const char *fuzz_json =
    "{\"cluster\": {\"resources\": [\"cpu\"], \"nodes\": [{\"count\": 2,"
    " \"map_slots\": 2, \"reduce_slots\": 1, \"capacity\": [3]},"
    " {\"speed\": 0.5, \"capacity\": [8]}], \"heartbeat\": 1, \"outofband\": true, \"replicas\": 2,"
    " \"remote_slowdown\": 2},"
    " \"pools\": [{\"name\": \"p\", \"min_maps\": 1, \"mode\": \"fifo\"}],"
    " \"jobs\": [{\"submit\": 0, \"pool\": \"p\", \"maps\": [3,"
    " {\"duration\": 4, \"replicas\": [2, 0]}, 5],"
    " \"reduces\": [{\"copy\": 1, \"sort\": 1, \"reduce\": 2}]},"
    " {\"submit\": 2, \"slowstart\": 1, \"map_demand\": [2], \"reduce_demand\": [1],"
    " \"maps\": {\"count\": 4, \"duration\":"
    " {\"dist\": \"exponential\", \"mean\": 3}}, \"reduces\": {\"count\": 2,"
    " \"reduce\": {\"dist\": \"normal\", \"mean\": 4, \"sd\": 1}}}]}";

static const char *fuzz_swim =
    "job0\t49\t49\t740773\t2339561\t627471\n"
    "job1\t101\t52\t736346\t1700537\t432269\n"
    "job2\t122\t21\t267631\t594312\t233549\n"
    "job3\t197\t75\t233422\t42\t37\n"
    "job4\t208\t11\t3623279\t0\t9838062\n";

static char *mutate(const char *base, so_rng *rng, size_t *len)
{
    static const char pool[] = "0123456789-.e{}[]\",:\t\n xa";
    size_t n = strlen(base);
    char *s = malloc(2 * n + 64);
    memcpy(s, base, n);
    int edits = (int)so_rng_int(rng, 1, 4);
    int numbers_only = so_rng_int(rng, 0, 1); /* keeps the syntax valid */
    for (int k = 0; k < edits && n > 0; k++) {
        size_t at = (size_t)so_rng_int(rng, 0, (int64_t)n - 1);
        if (numbers_only) {
            if (s[at] >= '0' && s[at] <= '9') {
                memmove(s + at + 1, s + at, n - at);
                s[at] = (char)('0' + so_rng_int(rng, 0, 9));
                n++;
            }
            continue;
        }
        switch (so_rng_int(rng, 0, 4)) {
        case 0: s[at] = pool[so_rng_int(rng, 0, sizeof pool - 2)]; break;
        case 1: memmove(s + at, s + at + 1, n - at - 1); n--; break;
        case 2:
            memmove(s + at + 1, s + at, n - at);
            s[at] = pool[so_rng_int(rng, 0, sizeof pool - 2)];
            n++;
            break;
        case 3: n = at; break;
        default: { /* duplicate a short run */
            size_t run = (size_t)so_rng_int(rng, 1, 12);
            if (at + run > n)
                run = n - at;
            if (n + run < 2 * n + 60) {
                memmove(s + at + run, s + at, n - at);
                n += run;
            }
        }
        }
    }
    s[n] = '\0';
    *len = n;
    return s;
}

/* Simulates a parsed workload when it is small enough to finish quickly. */
static void simulate_small(const so_cl_workload *w)
{
    double work = 0, slowest = 1e300, last = 0;
    long tasks = 0;
    for (int n = 0; n < w->n_nodes; n++)
        slowest = fmin(slowest, w->nodes[n].speed);
    for (int j = 0; j < w->n_jobs; j++) {
        const so_cl_job_spec *js = &w->jobs[j];
        last = fmax(last, js->submit);
        tasks += js->n_maps + js->n_reduces;
        for (int i = 0; i < js->n_maps; i++)
            work += js->map_work[i];
        for (int i = 0; i < js->n_reduces; i++)
            work += js->reduce_work[i].copy + js->reduce_work[i].sort +
                    js->reduce_work[i].reduce;
    }
    double horizon = last + work / slowest;
    if (tasks > 500 || w->n_nodes > 50 ||
        horizon / so_cl_heartbeat_interval(w) * w->n_nodes > 2e4)
        return;
    const char *scheds[] = {"fifo", "fair"}, *specs[] = {"hadoop", "late"};
    for (int k = 0; k < 2; k++) {
        so_cl_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.scheduler = so_cl_scheduler_find(scheds[k]);
        cfg.speculation = so_cl_speculation_find(specs[k]);
        cfg.series_step = 1;
        so_params prm;
        so_params_init(&prm);
        so_params_set(&prm, "locality_delay", "2");
        so_params_set(&prm, "min_share_timeout", "3");
        cfg.params = k ? &prm : NULL;
        so_cl_sim *sim = NULL;
        so_error err;
        CU_ASSERT_EQUAL_FATAL(so_cl_sim_new(w, &cfg, &sim, &err), SO_OK);
        CU_ASSERT_EQUAL(so_cl_sim_run(sim), SO_OK);
        CU_ASSERT_EQUAL(so_cl_sim_stats(sim)->tasks_done, (uint64_t)tasks);
        so_cl_sim_free(sim);
    }
}

static void fuzz(const char *base, uint64_t seed, int rounds)
{
    so_rng rng;
    so_rng_seed(&rng, seed);
    int ok = 0;
    for (int i = 0; i < rounds; i++) {
        size_t len;
        char *s = mutate(base, &rng, &len);
        so_cl_workload *w = NULL;
        so_error err;
        int rc = so_cl_workload_parse(s, len, "fuzz", NULL, (uint64_t)i, &w, &err);
        CU_ASSERT(rc == SO_OK || rc == SO_EINVAL);
        if (rc == SO_OK) {
            ok++;
            simulate_small(w);
        } else {
            CU_ASSERT(err.message[0] != '\0');
        }
        so_cl_workload_free(w);
        free(s);
    }
    CU_ASSERT(ok > 0);
}

static void test_fuzz_json(void) { fuzz(fuzz_json, 17, 3000); }
static void test_fuzz_swim(void) { fuzz(fuzz_swim, 23, 3000); }

static CU_TestInfo tests[] = {
    {"json: node groups, pools, durations, order", test_json_valid},
    {"json: every error has its line and key", test_json_errors},
    {"json: contention, pool maxima, goals, threads", test_json_online_keys},
    {"swim: maps, reduces and durations from bytes", test_swim_derivation},
    {"swim: map_output_mib spreads a map-only job's output", test_swim_map_output_cap},
    {"swim: the shipped FB-2009 sample", test_swim_shipped},
    {"swim: every error has its line and field", test_swim_errors},
    {"fuzz: json reader and engine", test_fuzz_json},
    {"fuzz: swim reader and engine", test_fuzz_swim},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-workload", tests)
