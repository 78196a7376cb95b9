/* test_flex_check.c — `slotopt flex-check`: solve outputs and bare
 * schedules, FIFO's schedules with --ignore-minima, and input errors. */
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"

static const char *three =
    "{\"problem\": \"flex\", \"version\": 1, \"slots\": 10,"
    " \"metric\": \"response\", \"jobs\": ["
    " {\"work\": 20, \"min\": 2, \"max\": 6},"
    " {\"work\": 30, \"min\": 2, \"max\": 10},"
    " {\"work\": 8, \"min\": 1, \"max\": 4}]}";

static int check(const char *opts, const char *schedule_path, char **out, char **err)
{
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "flex-check %s %s %s", opts,
             so_test_write("check3.json", three), schedule_path);
    return so_test_run(cmd, out, err);
}

static void test_check(void)
{
    char cmd[1200], *out = NULL, *err = NULL;
    const char *inst = so_test_write("check3.json", three);
    const char *sol = so_test_write("fifo-out.json", "");
    snprintf(cmd, sizeof cmd, "solve -b fifo -o %s %s", sol, inst);
    CU_ASSERT_EQUAL_FATAL(so_test_run(cmd, NULL, NULL), 0);
    /* FIFO leaves job 2 without its minimum: infeasible unless minima are
     * ignored; then its objective is 46/3 (test_flex_mps.c) */
    CU_ASSERT_EQUAL(check("", sol, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\"feasible\": false"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "job 2 holds 0 slots"));
    free(out);
    CU_ASSERT_EQUAL(check("--ignore-minima", sol, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\"feasible\": true"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "15.33333333333"));
    free(out);
    const char *bare = so_test_write("bare.json",
        "{\"intervals\": [{\"start\": 0, \"end\": 4, \"slots\": [4, 4, 2]},"
        " {\"start\": 4, \"end\": 5, \"slots\": [4, 4, 0]},"
        " {\"start\": 5, \"end\": 6, \"slots\": [0, 10, 0]}]}");
    CU_ASSERT_EQUAL(check("", bare, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\"objective\": 15"));
    free(out);
    static const struct {
        const char *text, *message;
    } bad[] = {
        {"{\"intervals\": [", "not JSON"},
        {"{\"intervals\": [], \"extra\": 1}", "extra"},
        {"{\"intervals\": [{\"start\": 0, \"end\": 1, \"slots\": [1, 2]}]}",
         "intervals[0].slots"},
        {"[]", "expected an object"},
        /* times where a penalty could overflow (the objective would be lost) */
        {"{\"intervals\": [{\"start\": 0, \"end\": 1e250, \"slots\": [2, 2, 1]}]}",
         "intervals[0].end"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        CU_ASSERT_EQUAL(check("", so_test_write("bad.json", bad[k].text), NULL, &err), 2);
        CU_ASSERT_PTR_NOT_NULL(err && strstr(err, bad[k].message));
        free(err);
        err = NULL;
    }
    snprintf(cmd, sizeof cmd, "flex-check %s %s",
             so_test_write("kp.json", "{\"problem\": \"knapsack\", \"version\": 1,"
                                      " \"capacity\": 1, \"profits\": [1], \"weights\": [1]}"),
             bare);
    CU_ASSERT_EQUAL(so_test_run(cmd, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "not a flex instance"));
    free(err);
}

static CU_TestInfo tests[] = {
    {"flex-check on solve outputs, bare schedules and bad input", test_check},
    CU_TEST_INFO_NULL,
};
SO_SUITE("flex-check", tests)
