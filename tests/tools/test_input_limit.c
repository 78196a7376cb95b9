/* test_input_limit.c — issue 20 item 4 (input size): every input file goes
 * through so_read_input, which refuses a folder by name and anything over
 * the documented limit (256 MiB; SLOTOPT_MAX_INPUT_MB overrides) with a
 * located error, for regular files (size checked first) and for endless
 * streams alike (standard input fed by `yes`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "tests/test_util.h"

static const char *big_file(const char *name, size_t bytes)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", so_test_tmpdir(), name);
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return NULL;
    for (size_t i = 0; i < bytes; i++)
        fputc(i + 1 == bytes ? '\n' : ' ', fp);
    fclose(fp);
    static char keep[4][700];
    static int k;
    k = (k + 1) % 4;
    snprintf(keep[k], sizeof keep[k], "%s", path);
    return keep[k];
}

static void test_limit_value(void)
{
    unsetenv("SLOTOPT_MAX_INPUT_MB");
    CU_ASSERT_EQUAL(so_input_limit(), (size_t)256 << 20);
    setenv("SLOTOPT_MAX_INPUT_MB", "3", 1);
    CU_ASSERT_EQUAL(so_input_limit(), (size_t)3 << 20);
    /* a value that is not a positive integer keeps the default */
    const char *bad[] = {"0", "-1", "abc", "2x", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("SLOTOPT_MAX_INPUT_MB", bad[i], 1);
        CU_ASSERT_EQUAL(so_input_limit(), (size_t)256 << 20);
    }
    unsetenv("SLOTOPT_MAX_INPUT_MB");
}

/* Exactly the limit is read; one byte more is refused, naming the file. */
static void test_boundary(void)
{
    setenv("SLOTOPT_MAX_INPUT_MB", "1", 1);
    const char *at = big_file("at-limit.txt", (size_t)1 << 20);
    const char *over = big_file("over-limit.txt", ((size_t)1 << 20) + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at && over);
    char *text = NULL;
    size_t len = 0;
    so_error err;
    CU_ASSERT_EQUAL(so_read_input(at, &text, &len, &err), SO_OK);
    CU_ASSERT_EQUAL(len, (size_t)1 << 20);
    CU_ASSERT_PTR_NOT_NULL(text && text[len] == '\0');
    free(text);
    CU_ASSERT_EQUAL(so_read_input(over, &text, &len, &err), SO_EINVAL);
    CU_ASSERT_PTR_NULL(text);
    CU_ASSERT_STRING_EQUAL(err.file, over);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "input limit of 1 MiB"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "SLOTOPT_MAX_INPUT_MB"));
    unsetenv("SLOTOPT_MAX_INPUT_MB");
    /* a folder is named as one; a missing file says why */
    CU_ASSERT_EQUAL(so_read_input(so_test_tmpdir(), &text, &len, &err), SO_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "is a folder"));
    char missing[700];
    snprintf(missing, sizeof missing, "%s/no-such-file", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_read_input(missing, &text, &len, &err), SO_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "No such file"));
}

/* Every command that reads a file applies the limit: solve, sim, export,
 * flex-check, bench --scenario, and an endless stream on stdin. */
static void test_commands(void)
{
    const char *over = big_file("over-2.json", ((size_t)1 << 20) + 10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(over);
    const char *cmds[] = {"solve %s", "sim %s --scheduler fair", "export --format lp %s",
                          "frontier %s", "bench --scenario %s --db /nonexistent/x.db"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char args[1500], *err = NULL;
        snprintf(args, sizeof args, cmds[i], over);
        setenv("SLOTOPT_MAX_INPUT_MB", "1", 1);
        int code = so_test_run(args, NULL, &err);
        unsetenv("SLOTOPT_MAX_INPUT_MB");
        CU_ASSERT_EQUAL(code, 2);
        CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "over-2.json"));
        CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "input limit of 1 MiB"));
        if (!err || !strstr(err, "input limit"))
            fprintf(stderr, "\n  %s: %s", args, err ? err : "");
        free(err);
    }
    /* an endless stream stops at the limit (yes never ends by itself) */
    char cmd[1200], efile[700];
    snprintf(efile, sizeof efile, "%s/yes.err", so_test_tmpdir());
    snprintf(cmd, sizeof cmd, "yes | SLOTOPT_MAX_INPUT_MB=1 %s solve - >/dev/null 2>%s",
             SO_BINARY, efile);
    int st = system(cmd);
    CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 2);
    char *err = so_test_slurp(efile);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "stdin: larger than the input limit of 1 MiB"));
    free(err);
    /* a folder as the instance */
    char args[900];
    snprintf(args, sizeof args, "solve %s", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "is a folder"));
    free(err);
}

static CU_TestInfo tests[] = {
    {"limit: 256 MiB, SLOTOPT_MAX_INPUT_MB overrides", test_limit_value},
    {"exactly the limit read, one byte more refused", test_boundary},
    {"every reading command, and an endless stdin", test_commands},
    CU_TEST_INFO_NULL,
};

SO_SUITE("input-limit", tests)
