/* test_rap_limits.c — issue 20 item 5 for rap-dp: the time limit is
 * honoured inside the DP's loops (stop within 10 % or 0.1 s of it, with a
 * feasible incumbent and status "time limit"), and an instance over the
 * DP's size limits is refused as unsupported ("exceed the limits", exit 2),
 * not as "out of memory" (exit 3). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tests/test_util.h"
#include "solvers/rap.h"

/* 10 jobs, S = 200000, M_j = 1500, response time: every slot count is a
 * candidate, so the DP makes 10 x 200001 x 1500 = 3e9 transitions (below
 * SO_RAP_DP_MAX_WORK, several seconds): a limit of 0.3 s must cut it. */
static const char *slow_instance(void)
{
    char text[2048];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "{\"problem\": \"rap\", \"version\": 1, \"slots\": 200000,"
                                " \"metric\": \"response\", \"jobs\": [");
    for (int j = 0; j < 10; j++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "%s{\"work\": %d, \"min\": 1, \"max\": 1500}", j ? ", " : "",
                              1000 * (j + 1));
    snprintf(text + n, sizeof text - n, "]}");
    return so_test_write("rap-slow.json", text);
}

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void test_time_limit(void)
{
    so_problem *p = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_problem_read(slow_instance(), &p, &err), SO_OK);
    so_params prm;
    so_params_init(&prm);
    prm.time_limit = 0.3;
    so_result *r = NULL;
    double cpu0 = thread_cpu();
    int rc = so_solve(so_backend_find("rap-dp"), p, &prm, &r, &err);
    double cpu = thread_cpu() - cpu0;
    CU_ASSERT_EQUAL_FATAL(rc, SO_TIMELIMIT); /* so_solve returns the status */
    /* The stop is measured in this thread's CPU time, which a loaded
     * machine cannot stretch (the DP computes until it reads the clock, so
     * a late check shows there too): within 10 % or 0.1 s of the limit.
     * The wall time gets a loose bound (the DP alone needs seconds). */
    double sec = so_result_seconds(r), allowed = fmax(1.1 * 0.3, 0.3 + 0.1);
    if (cpu > allowed || sec > 2)
        fprintf(stderr, "\n  rap-dp on a 0.3 s limit: %.3f s CPU, %.3f s wall ", cpu, sec);
    CU_ASSERT(cpu <= allowed);
    CU_ASSERT(sec < 2);
    CU_ASSERT_EQUAL(so_result_status(r), SO_TIMELIMIT);
    /* the incumbent: feasible (lo <= s <= M, sum <= S) and its objective */
    CU_ASSERT_TRUE(so_result_has_objective(r));
    json_t *slots = json_object_get(so_result_solution(r), "slots");
    CU_ASSERT_EQUAL_FATAL(json_array_size(slots), 10);
    const so_flex *f = so_flex_of(p);
    int64_t s[10], used = 0;
    for (size_t j = 0; j < 10; j++) {
        s[j] = json_integer_value(json_array_get(slots, j));
        CU_ASSERT(s[j] >= 1 && s[j] <= 1500);
        used += s[j];
    }
    CU_ASSERT(used <= f->slots);
    /* S is large enough for every job to have its maximum: the greedy
     * incumbent gives each its 1500 slots, the optimum */
    CU_ASSERT_EQUAL(used, 15000);
    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), so_rap_value(f, s), 1e-9);
    so_result_free(r);
    so_problem_free(p);
}

/* The command line: status "time limit", exit 0, within the limit. */
static void test_time_limit_cli(void)
{
    char args[1200], *out = NULL;
    snprintf(args, sizeof args, "solve -b rap-dp --time-limit 0.2 %s", slow_instance());
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    /* without the check inside the loops the DP ends "optimal" */
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\"status\": \"time limit\""));
    free(out);
}

/* A DP over its size limits: unsupported, exit 2, "exceed the limits". */
static void test_size_refusal(void)
{
    const char *path = so_test_write(
        "rap-huge.json",
        "{\"problem\": \"rap\", \"version\": 1, \"slots\": 1000000000000,"
        " \"metric\": \"tardy\", \"jobs\": ["
        " {\"work\": 5, \"deadline\": 1, \"max\": 1000000000000},"
        " {\"work\": 5, \"deadline\": 1, \"max\": 1000000000000}]}");
    char args[1200], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "solve -b rap-dp %s", path);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "exceed the limits"));
    CU_ASSERT_PTR_NULL(err && strstr(err, "out of memory"));
    if (err && !strstr(err, "exceed the limits"))
        fprintf(stderr, "\n  %s", err);
    free(out);
    free(err);
    /* the steps limit (cells fit, transitions do not) is refused alike */
    /* 20 x 900001 cells fit; 20 x 900001 x 10000 = 1.8e11 steps do not */
    so_flex *f = so_flex_new(20, 0);
    f->slots = 900000;
    f->metric = SO_FLEX_RESPONSE;
    for (size_t j = 0; j < 20; j++) {
        f->work[j] = 100;
        f->max[j] = 10000;
    }
    int64_t s[20];
    char why[256] = "";
    double t0 = thread_cpu();
    CU_ASSERT_EQUAL(so_rap_dp(f, s, why, sizeof why), SO_EUNSUPPORTED);
    CU_ASSERT(thread_cpu() - t0 < 1); /* refused before the DP starts */
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "steps exceed the limits"));
    so_flex_free(f);
}

static CU_TestInfo tests[] = {
    {"rap-dp stops at its time limit with a feasible incumbent", test_time_limit},
    {"solve -b rap-dp --time-limit: status time limit", test_time_limit_cli},
    {"over the DP's limits: unsupported, exit 2", test_size_refusal},
    CU_TEST_INFO_NULL,
};

SO_SUITE("rap-limits", tests)
