/* test_cluster_swim_parallel.c — per-job parallel fractions of a SWIM trace
 * (--opt parallel_model, cluster/workload_swim.c; issue 32, item 2): each
 * job's fraction computed by hand from its bytes (the byte time's share of
 * its tasks' work times the stealing paper's class fraction), the option
 * against map_parallel, and --stealing acting on a trace with it. */
#include <jansson.h>
#include <math.h>
#include <string.h>
#include "tests/cluster/cluster_test.h"

#define MB "1048576"
/* job a: 128 MiB in, map-only: 2 maps of 1 + 64 / 20 = 4.2 s each;
 * job b: 10 MiB in, 100 MiB shuffle, 10 MiB out: 1 map of 1 + 10 / 20 s,
 * 1 reduce of copy 100 / 20 + sort 100 / 100 + reduce 1 + 110 / 20 = 12.5 s;
 * job c: 1 byte in: a map of 1 s overhead and nothing else. */
static const char trace_text[] =
    "a\t0\t0\t134217728\t0\t0\n"
    "b\t1\t1\t10485760\t104857600\t10485760\n"
    "c\t2\t1\t1\t0\t0\n";

static so_cl_workload *parse(const char *kv1, const char *kv2, so_error *err)
{
    so_params p;
    so_params_init(&p);
    if (kv1)
        so_params_set_kv(&p, kv1, err);
    if (kv2)
        so_params_set_kv(&p, kv2, err);
    so_cl_workload *w = NULL;
    if (so_cl_workload_parse_swim(trace_text, strlen(trace_text), "t.tsv", &p, &w, err))
        return NULL;
    return w;
}

static void test_fractions_by_hand(void)
{
    so_error err;
    so_error_clear(&err);
    so_cl_workload *w = parse("parallel_model=io-bound", NULL, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL_FATAL(w->n_jobs, 3);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].parallel[SO_CL_MAP], 0.1 * 6.4 / 8.4, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].parallel[SO_CL_REDUCE], 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[1].parallel[SO_CL_MAP], 0.1 * 0.5 / 1.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[1].parallel[SO_CL_REDUCE], 0.1 * 11.5 / 12.5, 1e-12);
    /* one byte: all overhead, nothing for threads to share (1 byte at
     * 20 MiB/s is 4.8e-8 s) */
    CU_ASSERT(w->jobs[2].parallel[SO_CL_MAP] < 1e-8);
    so_cl_workload_free(w);
    w = parse("parallel_model=compute-bound", NULL, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].parallel[SO_CL_MAP], 0.95 * 6.4 / 8.4, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[1].parallel[SO_CL_REDUCE], 0.95 * 11.5 / 12.5, 1e-12);
    so_cl_workload_free(w);
    /* none (the default): map_parallel for every job */
    w = parse("map_parallel=0.5", NULL, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[2].parallel[SO_CL_MAP], 0.5, 0);
    so_cl_workload_free(w);
}

static void test_bad_model(void)
{
    so_error err;
    so_error_clear(&err);
    CU_ASSERT_PTR_NULL(parse("parallel_model=cpu", NULL, &err));
    CU_ASSERT_STRING_EQUAL(err.key, "parallel_model");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "none, io-bound or compute-bound"));
    so_error_clear(&err);
    CU_ASSERT_PTR_NULL(parse("parallel_model=io-bound", "reduce_parallel=0.3", &err));
    CU_ASSERT_STRING_EQUAL(err.key, "reduce_parallel");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "give one or the other"));
}

/* On FB-2009's first 60 jobs (4 nodes): stealing without a fraction warns
 * and changes nothing; with parallel_model it acts, no warning. */
static void test_stealing_acts(void)
{
    const char *t = cl_fb2009_head(60, "fb60p.tsv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    char cmd[4096], *out = NULL, *err = NULL;
    double mean[3];
    const char *extra[3] = {"--stealing none", "--stealing even",
                            "--stealing even --opt parallel_model=compute-bound"};
    for (int k = 0; k < 3; k++) {
        snprintf(cmd, sizeof cmd, "sim %s --scheduler fair --opt nodes=4 --summary --compact %s",
                 t, extra[k]);
        CU_ASSERT_EQUAL_FATAL(so_test_run(cmd, &out, &err), 0);
        json_t *j = json_loads(out, 0, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(j);
        mean[k] = json_number_value(json_object_get(json_object_get(j, "response"), "mean"));
        CU_ASSERT_EQUAL(json_object_get(j, "warnings") != NULL, k == 1);
        CU_ASSERT_EQUAL(err && strstr(err, "parallel_model=io-bound|compute-bound") != NULL,
                        k == 1);
        json_decref(j);
        free(out);
        free(err);
    }
    CU_ASSERT_DOUBLE_EQUAL(mean[1], mean[0], 1e-9);
    CU_ASSERT(mean[2] < mean[0]);
}

static CU_TestInfo tests[] = {
    {"fractions per job from its bytes", test_fractions_by_hand},
    {"bad model, model with a fraction", test_bad_model},
    {"stealing acts on a trace with a model", test_stealing_acts},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-swim-parallel", tests)
