/* test_library.c — libslotopt as others use it: NULL arguments are errors,
 * and an installed tree builds and runs a program through pkg-config. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"

static void test_null_arguments(void)
{
    so_error err;
    so_result *r = (so_result *)1;
    so_problem *p = NULL;
    CU_ASSERT_EQUAL(so_solve(so_backend_find("nope"), NULL, NULL, &r, &err), SO_EINVAL);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "NULL backend"));
    CU_ASSERT_EQUAL(so_problem_parse("{\"problem\": \"knapsack\", \"version\": 1,"
                                     " \"capacity\": 1, \"profits\": [1], \"weights\": [1]}",
                                     "x", &p, &err), SO_OK);
    CU_ASSERT_EQUAL(so_solve(so_backend_find("kp-dp"), p, NULL, NULL, &err), SO_EINVAL);
    CU_ASSERT_EQUAL(so_solve(so_backend_find("kp-dp"), NULL, NULL, &r, NULL), SO_EINVAL);
    so_problem_free(p);
    CU_ASSERT_EQUAL(so_problem_read(NULL, &p, &err), SO_EINVAL);
    CU_ASSERT_EQUAL(so_problem_parse(NULL, "x", &p, &err), SO_EINVAL);
    CU_ASSERT_EQUAL(so_problem_from_json(NULL, "x", &p, &err), SO_EINVAL);
    CU_ASSERT_EQUAL(so_problem_export(NULL, "x.lp", 0, &err), SO_EINVAL);
    json_t *inst = (json_t *)1;
    CU_ASSERT_EQUAL(so_family_generate(so_family_find("nope"), NULL, 1, 0, &inst, &err),
                    SO_EINVAL);
    CU_ASSERT_PTR_NULL(inst);
    CU_ASSERT_PTR_NULL(so_backend_find(NULL));
    CU_ASSERT_PTR_NULL(so_family_find(NULL));
    CU_ASSERT_PTR_NULL(so_backend_default(NULL));
    CU_ASSERT_EQUAL(so_write_file_atomic(NULL, "", 0, &err), SO_EINVAL);
    CU_ASSERT_EQUAL(so_write_json_atomic("x", NULL, &err), SO_EINVAL);
}

static void test_installed_tree(void)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "sh tests/tools/install_check.sh '%s/prefix' '%s' '%s' '%s' >'%s/install.log' 2>&1",
             so_test_tmpdir(), SO_BUILD_DIR, SO_BIN_DIR, SO_SANITIZE, so_test_tmpdir());
    int st = system(cmd);
    if (st != 0) {
        char log[600];
        snprintf(log, sizeof log, "%s/install.log", so_test_tmpdir());
        char *text = so_test_slurp(log);
        fprintf(stderr, "\ninstall check failed:\n%s\n", text ? text : "(no log)");
        free(text);
    }
    CU_ASSERT_EQUAL(st, 0);
}

/* The layout holds: the core library includes nothing of the program's
 * rooms, and every room says what it owns. */
static void test_layout(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(so_test_run("--version >/dev/null; (grep -rln '#include \"tools/'"
                                " formulations solvers heuristics cluster include || true)",
                                &out, NULL), 0);
    CU_ASSERT(out && !out[0]);
    if (out && out[0])
        fprintf(stderr, "\nthe core includes tools/: %s\n", out);
    free(out);
    static const char *const readmes[] = {"tools/README.md", "tools/cli/README.md",
                                          "tools/harness/README.md", "tools/export/README.md",
                                          "tools/output/README.md"};
    for (size_t i = 0; i < sizeof readmes / sizeof readmes[0]; i++) {
        char *text = so_test_slurp(readmes[i]);
        CU_ASSERT_PTR_NOT_NULL(text);
        free(text);
    }
}

static CU_TestInfo tests[] = {
    {"NULL arguments are errors", test_null_arguments},
    {"core includes nothing of tools/; rooms have READMEs", test_layout},
    {"install, pkg-config example (shared, static), uninstall", test_installed_tree},
    CU_TEST_INFO_NULL,
};
SO_SUITE("library", tests)
