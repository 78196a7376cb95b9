/* test_gnuplot.c — issue 29 item 1: one gnuplot runner (no shell, errors
 * reported with gnuplot's own words, SLOTOPT_GNUPLOT honoured by sim and
 * frontier too, temporary files under TMPDIR and removed). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "formulations/common/gnuplot.h"
#include "tests/test_util.h"

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return d ? n : -1;
}

static void test_run(void)
{
    so_error err;
    so_error_clear(&err);
    if (!so_gp_available()) {
        CU_FAIL("gnuplot is a dependency of the build (make deps) and must be on PATH");
        return;
    }
    char out[600];
    snprintf(out, sizeof out, "%s/ok.svg", so_test_tmpdir());
    char text[1400];
    snprintf(text, sizeof text, "set terminal svg\nset output '%s'\nplot x\n", out);
    const char *ok = so_test_write("ok.gp", text);
    CU_ASSERT_EQUAL(so_gp_run(NULL, ok, "ok.svg", &err), SO_OK);
    struct stat st;
    CU_ASSERT(stat(out, &st) == 0 && st.st_size > 0);
    /* gnuplot's complaint reaches the message; relative to dir */
    so_test_write("bad.gp", "set terminal svg\nset output '/dev/null'\nplot x with nosuchstyle\n");
    CU_ASSERT_EQUAL(so_gp_run(so_test_tmpdir(), "bad.gp", "bad.svg", &err), SO_EIO);
    CU_ASSERT_STRING_EQUAL(err.file, "bad.svg");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "gnuplot failed on bad.gp (exit 1): "));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "nosuchstyle"));
    /* the program named by SLOTOPT_GNUPLOT; one that cannot be run says so */
    setenv("SLOTOPT_GNUPLOT", "/nonexistent/gp", 1);
    CU_ASSERT_STRING_EQUAL(so_gp_program(), "/nonexistent/gp");
    CU_ASSERT_FALSE(so_gp_available());
    CU_ASSERT_EQUAL(so_gp_run(NULL, ok, "ok.svg", &err), SO_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "cannot run /nonexistent/gp"));
    setenv("SLOTOPT_GNUPLOT", "", 1); /* empty: the default */
    CU_ASSERT_STRING_EQUAL(so_gp_program(), "gnuplot");
    unsetenv("SLOTOPT_GNUPLOT");
}

/* sim and frontier honour SLOTOPT_GNUPLOT and TMPDIR, and leave nothing. */
static void test_commands(void)
{
    char args[4000], *err = NULL;
    snprintf(args, sizeof args, "--version >/dev/null; SLOTOPT_GNUPLOT=/nonexistent/gp %s sim"
             " instances/cluster/two_pools.json --scheduler fair --summary --plot %s/u.png",
             SO_BINARY, so_test_tmpdir());
    CU_ASSERT_NOT_EQUAL(so_test_run(args, NULL, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "/nonexistent/gp is not installed"));
    free(err);
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s/private-tmp", so_test_tmpdir());
    CU_ASSERT_EQUAL_FATAL(mkdir(tmp, 0700), 0);
    snprintf(args, sizeof args, "--version >/dev/null; (TMPDIR=%s %s sim"
             " instances/cluster/two_pools.json --scheduler fair --summary --plot %s/u.png &&"
             " TMPDIR=%s %s frontier instances/pareto/two-jobs.json --plot %s/f.svg)",
             tmp, SO_BINARY, so_test_tmpdir(), tmp, SO_BINARY, so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    CU_ASSERT_EQUAL(entries(tmp), 0);
    char path[700];
    snprintf(path, sizeof path, "%s/u.png", so_test_tmpdir());
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
    snprintf(path, sizeof path, "%s/f.svg", so_test_tmpdir());
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
    /* a TMPDIR that does not exist is an error naming it */
    snprintf(args, sizeof args, "--version >/dev/null; TMPDIR=/nonexistent/t %s sim"
             " instances/cluster/two_pools.json --scheduler fair --summary --plot %s/v.png",
             SO_BINARY, so_test_tmpdir());
    CU_ASSERT_NOT_EQUAL(so_test_run(args, NULL, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "/nonexistent/t/slotopt-plot-") && strstr(err, "cannot create"));
    free(err);
}

static CU_TestInfo tests[] = {
    {"so_gp_run: no shell, gnuplot's words, SLOTOPT_GNUPLOT", test_run},
    {"sim and frontier: SLOTOPT_GNUPLOT, TMPDIR, nothing left", test_commands},
    CU_TEST_INFO_NULL,
};

SO_SUITE("gnuplot", tests)
