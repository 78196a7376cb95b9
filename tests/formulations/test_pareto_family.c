/* test_pareto_family.c — the pareto-yahoo, pareto-taobao and pareto-puma
 * families: valid, reproducible instances with the paper's parameters,
 * profiles that the least-squares fit recovers, and parameter errors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "formulations/pareto.h"

static so_problem *generate(const char *family, so_params *set, uint64_t index,
                            char **text, int *rc)
{
    json_t *j = NULL;
    so_error err;
    so_problem *p = NULL;
    *rc = so_family_generate(so_family_find(family), set, 1, index, &j, &err);
    if (*rc)
        return NULL;
    if (text)
        *text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
    *rc = so_problem_from_json(j, family, &p, &err);
    json_decref(j);
    return p;
}

static void test_trace_families(void)
{
    static const char *const fams[] = {"pareto-yahoo", "pareto-taobao"};
    for (int f = 0; f < 2; f++) {
        so_params set;
        so_params_init(&set);
        so_params_set(&set, "jobs", "40");
        char *a = NULL, *b = NULL;
        int rc;
        so_problem *p = generate(fams[f], &set, 3, &a, &rc);
        CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
        so_problem *q = generate(fams[f], &set, 3, &b, &rc);
        CU_ASSERT_STRING_EQUAL(a, b); /* same seed and index, same instance */
        const so_pareto *pr = so_pareto_of(p);
        CU_ASSERT_EQUAL(pr->n_jobs, 40);
        CU_ASSERT_EQUAL(pr->deadline, f ? 3000 : 4000);
        CU_ASSERT_EQUAL(pr->budget_min, 10);
        CU_ASSERT_EQUAL(pr->budget_max, 80);
        CU_ASSERT_EQUAL(pr->vm_cost_per_hour, 1.0);
        CU_ASSERT_DOUBLE_EQUAL(pr->io_cost_per_request, 0.05e-6, 1e-15);
        double sum_mt = 0;
        for (size_t j = 0; j < pr->n_jobs; j++) {
            const so_pt_job *jb = &pr->jobs[j];
            CU_ASSERT(jb->map_tasks >= 1 && jb->reduce_tasks >= 1);
            sum_mt += (double)jb->map_tasks;
            /* t(N) = t0 > 0 with a = 0.1 t0 */
            double t0 = so_pt_curve_at(jb->phase[SO_PT_MAP].avg, (double)jb->map_tasks);
            CU_ASSERT(t0 > 0);
            CU_ASSERT_DOUBLE_EQUAL(jb->phase[SO_PT_MAP].avg.a, 0.1 * t0, 1e-9 * t0);
            CU_ASSERT(jb->phase[SO_PT_MAP].max.a >= jb->phase[SO_PT_MAP].avg.a);
            CU_ASSERT_DOUBLE_EQUAL(jb->phase[SO_PT_SHUFFLE].avg.b,
                                   0.3 * jb->phase[SO_PT_REDUCE].avg.b,
                                   1e-9 * jb->phase[SO_PT_REDUCE].avg.b);
            CU_ASSERT_EQUAL(jb->has_output, 0);
        }
        /* lognormal with mean 154 (draw=lognormal; truncated normals: about 480) */
        CU_ASSERT(sum_mt / 40 > 150 && sum_mt / 40 < 1200);
        free(a);
        free(b);
        so_problem_free(p);
        so_problem_free(q);
    }
}

/* With no jitter the history lies on startup + MB / (n rate): the fit gives
 * Twitter's map profile 3 + 1200 / (4 n) = 3 + 300 / n exactly. */
static void test_puma(void)
{
    so_params set;
    so_params_init(&set);
    so_params_set(&set, "jitter", "0");
    so_params_set(&set, "workload", "twitter-wordcount");
    int rc;
    so_problem *p = generate("pareto-puma", &set, 0, NULL, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    const so_pareto *pr = so_pareto_of(p);
    CU_ASSERT_EQUAL(pr->n_jobs, 3);
    CU_ASSERT_EQUAL(pr->deadline, 1000);
    CU_ASSERT_EQUAL(pr->budget_max, 20);
    CU_ASSERT_EQUAL(pr->jobs[0].map_tasks, 20);
    CU_ASSERT_EQUAL(pr->jobs[1].map_tasks, 47);
    CU_ASSERT_EQUAL(pr->jobs[2].reduce_tasks, 10);
    CU_ASSERT_DOUBLE_EQUAL(pr->jobs[0].phase[SO_PT_MAP].avg.a, 3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(pr->jobs[0].phase[SO_PT_MAP].avg.b, 300, 1e-7);
    /* map output: 0.6 of 1.2 GB (MiB-based) in 40-byte records */
    CU_ASSERT_DOUBLE_EQUAL(pr->jobs[0].out_bytes.b, 0.6 * 1200 * 1048576, 1);
    CU_ASSERT_DOUBLE_EQUAL(pr->jobs[0].out_records.b, 0.6 * 1200 * 1048576 / 40, 1e-3);
    CU_ASSERT(pr->jobs[0].has_output);
    so_problem_free(p);
}

static void expect_bad(const char *family, const char *key, const char *value)
{
    so_params set;
    so_params_init(&set);
    so_params_set(&set, key, value);
    json_t *j = NULL;
    so_error err;
    so_error_clear(&err);
    CU_ASSERT_EQUAL(so_family_generate(so_family_find(family), &set, 1, 0, &j, &err),
                    SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, key);
    CU_ASSERT_PTR_NULL(j);
}

static void test_bad_parameters(void)
{
    expect_bad("pareto-yahoo", "jobs", "0");
    expect_bad("pareto-yahoo", "budget_min", "100");
    expect_bad("pareto-taobao", "overhead", "1");
    expect_bad("pareto-taobao", "deadline", "-5");
    expect_bad("pareto-yahoo", "slots_per_vm", "x");
    expect_bad("pareto-puma", "workload", "grep");
    expect_bad("pareto-puma", "history", "1");
    expect_bad("pareto-puma", "jitter", "0.9");
    expect_bad("pareto-puma", "max_vms", "-1");
}

static CU_TestInfo tests[] = {
    {"Yahoo! and Taobao: reproducible, the paper's parameters", test_trace_families},
    {"PUMA: Table 2 workloads, fitted history", test_puma},
    {"bad family parameters", test_bad_parameters},
    CU_TEST_INFO_NULL,
};
SO_SUITE("pareto_family", tests)
