/* test_flex_compare.c — the Fig. 5 comparison: the base case's acceptance
 * figures on a small sample, and the flex-compare command. */
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tools/cli/flex_compare.h"

static void test_base_case(void)
{
    so_params set;
    so_params_init(&set);
    const char *b[] = {"fifo", "fair", "flex-generic", "flex"};
    so_flex_cmp_row row;
    so_error err;
    so_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(so_flex_compare(&set, 1, 30, b, 4, "flex-exact", 60,
                                          &row, &err), SO_OK);
    CU_ASSERT_EQUAL(row.used, 30);
    CU_ASSERT(row.mean[0] > 1.5 && row.mean[0] < 2.5);   /* FIFO, paper 2.07 */
    CU_ASSERT(row.worst[0] > 2.5);                       /* paper 3.24 */
    CU_ASSERT(row.mean[1] > 1.45 && row.mean[1] < 1.65); /* FAIR, paper 1.54 */
    CU_ASSERT(row.worst[1] < 1.75);                      /* paper 1.61 */
    CU_ASSERT(row.mean[2] >= 1 && row.mean[2] <= 1.01);  /* RAP order */
    CU_ASSERT(row.mean[3] >= 1 && row.mean[3] <= 1.01);  /* acceptance */
    CU_ASSERT(row.worst[3] <= 1.05);
    CU_ASSERT(row.worst[3] <= row.worst[2]);
}

static void test_command(void)
{
    char *out = NULL, *err = NULL;
    CU_ASSERT_EQUAL(so_test_run("flex-compare --instances 4 --sweep slack=0.25,0.75"
                                " --backends fair,flex", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "| slack | used | skipped opt<=0 | skipped unproven |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n|---|---:|---:|---:|"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "| 0.25 | 4 | 0 | 0 |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "| 0.75 | 4 | 0 | 0 |"));
    free(out);
    CU_ASSERT_EQUAL(so_test_run("flex-compare --sweep slack", NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "KEY=V1,V2"));
    free(err);
    err = NULL;
    CU_ASSERT_EQUAL(so_test_run("flex-compare --instances 1 --backends nope", NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "unknown backend 'nope'"));
    free(err);
    err = NULL;
    CU_ASSERT_EQUAL(so_test_run("flex-compare --instances 1 --set slack=2", NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "slack"));
    free(err);
    err = NULL;
    CU_ASSERT_EQUAL(so_test_run("flex-compare --instances 1 --sweep colour=1,2", &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "colour"));
    CU_ASSERT(out == NULL || out[0] == '\0'); /* no partial table */
    free(out);
    free(err);
}

static CU_TestInfo tests[] = {
    {"base case: FIFO, FAIR near the paper, FLEX <= 1.01 / 1.05", test_base_case},
    {"flex-compare command and its errors", test_command},
    CU_TEST_INFO_NULL,
};
SO_SUITE("flex-compare", tests)
