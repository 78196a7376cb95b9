/* test_cli_options.c — a refused option gets one message naming it. */
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"

/* Runs args; the exit code is 2 and stderr holds `want` once and exactly
 * one "slotopt" message line. */
static void refused(const char *args, const char *want)
{
    char *err = NULL;
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    const char *hit = strstr(err, want);
    CU_ASSERT_PTR_NOT_NULL(hit);
    if (hit)
        CU_ASSERT_PTR_NULL(strstr(hit + 1, want));
    int lines = 0;
    for (const char *c = err; *c; c++)
        lines += *c == '\n';
    CU_ASSERT_EQUAL(lines, 2); /* the message and the --help pointer */
    free(err);
}

static void test_one_message(void)
{
    refused("solve --bogus x.json", "unknown option '--bogus'");
    refused("sim --plot", "option '--plot' needs a value");
    refused("gen -Z", "'-Z'");
    refused("bench --nope", "unknown option '--nope'");
    refused("report --nope", "unknown option '--nope'");
    refused("export --format", "option '--format' needs a value");
}

static CU_TestInfo tests[] = {
    {"a refused option: one message that names it", test_one_message},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cli-options", tests)
