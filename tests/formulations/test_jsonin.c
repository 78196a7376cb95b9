/* test_jsonin.c — key-path location and strict JSON reading. */
#include <stdio.h>
#include <stdlib.h>
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

/* Keys holding dots, brackets, escaped quotes or \u escapes, strings
 * holding brackets and braces: every value is still found at its place. */
static void test_locate_tricky_keys(void)
{
    const char *t = "{\"s\": \"]}[{\\\"\",\n"
                    " \"a.b\": 1,\n"
                    " \"a\": {\"b\": 2, \"c\": [[1, \"]\"], [3]]},\n"
                    " \"q\\\"k\": 4,\n"
                    " \"w\\u0065ights\": 5,\n"
                    " \"x[0]\": 6, \".d\": 7}\n";
    const struct {
        const char *path;
        int at_key, line, col;
    } cases[] = {
        {"a.b", 0, 2, 9},      {"a.b", 1, 2, 2},      {"a", 1, 3, 2},
        {"a.b", 0, 2, 9},      {"a.c[0][1]", 0, 3, 26}, {"a.c[1][0]", 0, 3, 33},
        {"q\"k", 0, 4, 10},    {"weights", 1, 5, 2},  {"x[0]", 0, 6, 10},
        {".d", 0, 6, 19},      {"s", 0, 1, 7},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int line, col;
        so_json_locate(t, cases[k].path, cases[k].at_key, &line, &col);
        if (line != cases[k].line || col != cases[k].col)
            fprintf(stderr, "%s: %d:%d\n", cases[k].path, line, col);
        CU_ASSERT_EQUAL(line, cases[k].line);
        CU_ASSERT_EQUAL(col, cases[k].col);
    }
    /* "a.b" names the key "a.b"; "a" then "b" when there is no such key */
    int line, col;
    so_json_locate("{\"a\":\n {\"b\": 2}}", "a.b", 0, &line, &col);
    CU_ASSERT_EQUAL(line, 2);
    CU_ASSERT_EQUAL(col, 8);
    /* \u escapes (a surrogate pair among them) against UTF-8 paths */
    so_json_locate("{\"\\u00e9\": 1,\n \"\\ud83d\\ude00\\/\": 2}", "\xf0\x9f\x98\x80/", 0,
                   &line, &col);
    CU_ASSERT_EQUAL(line, 2);
    CU_ASSERT_EQUAL(col, 20);
    /* a key holding \u0000 is no prefix of anything */
    char *path = strdup("a");
    so_json_locate("{\"a\\u0000bc\": 1,\n \"a\": 2}", path, 0, &line, &col);
    CU_ASSERT_EQUAL(line, 2);
    CU_ASSERT_EQUAL(col, 7);
    free(path);
    /* an unknown key with a dot is reported at its own line */
    so_error err;
    so_problem *p = NULL;
    CU_ASSERT_EQUAL(so_problem_parse("{\"problem\": \"knapsack\", \"version\": 1,\n"
                                     " \"capacity\": 5, \"profits\": [1],\n"
                                     " \"weights\": [1], \"weights.x\": [2]}",
                                     "t.json", &p, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "weights.x");
    CU_ASSERT_EQUAL(err.line, 3);
    CU_ASSERT_EQUAL(err.column, 18);
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
    {"locate keys with dots, brackets, escapes", test_locate_tricky_keys},
    {"unknown key is an error at its position", test_unknown_key},
    CU_TEST_INFO_NULL,
};
SO_SUITE("jsonin", tests)
