/* test_jsonin.c — key-path location and strict JSON reading. */
#include <string.h>
#include "tests/test_util.h"
#include "formulations/common/jsonin.h"

static void test_locate(void)
{
    const char *t = "{\n  \"a\": 1,\n  \"jobs\": [\n    {\"w\": 2},\n"
                    "    {\"w\": \"x\", \"d\": 3}\n  ]\n}\n";
    int line, col;
    so_json_locate(t, "jobs[1].w", 0, &line, &col);
    CU_ASSERT_EQUAL(line, 5);
    CU_ASSERT_EQUAL(col, 11);
    so_json_locate(t, "jobs[1].d", 1, &line, &col);
    CU_ASSERT_EQUAL(line, 5);
    CU_ASSERT_EQUAL(col, 16);
    so_json_locate(t, "a", 0, &line, &col);
    CU_ASSERT_EQUAL(line, 2);
    CU_ASSERT_EQUAL(col, 8);
    /* a missing element falls back to the deepest part found */
    so_json_locate(t, "jobs[7].w", 0, &line, &col);
    CU_ASSERT_EQUAL(line, 3);
    CU_ASSERT_EQUAL(col, 11);
}

static void test_unknown_key(void)
{
    so_error err;
    so_problem *p = NULL;
    int rc = so_problem_parse("{\"problem\": \"knapsack\", \"version\": 1,\n"
                              " \"capacity\": 5, \"profits\": [1],\n"
                              " \"weights\": [1], \"wieghts\": [2]}",
                              "t.json", &p, &err);
    CU_ASSERT_EQUAL(rc, SO_EINVAL);
    CU_ASSERT_EQUAL(err.line, 3);
    CU_ASSERT_EQUAL(err.column, 18);
    CU_ASSERT_STRING_EQUAL(err.key, "wieghts");
    CU_ASSERT_PTR_NULL(p);
}

static CU_TestInfo tests[] = {
    {"locate values and keys", test_locate},
    {"unknown key is an error at its position", test_unknown_key},
    CU_TEST_INFO_NULL,
};
SO_SUITE("jsonin", tests)
