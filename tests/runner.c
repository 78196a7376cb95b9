/* runner.c — runs every registered CUnit suite, or the ones named on the
 * command line. Exit status: 0 when every test passed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <CUnit/Basic.h>
#include "tests/test_util.h"

#define MAX_SUITES 256
static struct {
    const char *name;
    CU_TestInfo *tests;
} suites[MAX_SUITES];
static int n_suites;

void so_test_add_suite(const char *name, CU_TestInfo *tests)
{
    if (n_suites < MAX_SUITES) {
        suites[n_suites].name = name;
        suites[n_suites].tests = tests;
        n_suites++;
    }
}

static char tmpdir[256];

const char *so_test_tmpdir(void)
{
    if (!tmpdir[0]) {
        snprintf(tmpdir, sizeof tmpdir, "/tmp/slotopt-test-XXXXXX");
        if (!mkdtemp(tmpdir))
            abort();
    }
    return tmpdir;
}

const char *so_test_path(const char *name)
{
    static char paths[8][700];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 700, "%s/%s", so_test_tmpdir(), name);
    return p;
}

const char *so_test_write(const char *name, const char *text)
{
    static char paths[8][512];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 512, "%s/%s", so_test_tmpdir(), name);
    FILE *fp = fopen(p, "wb");
    if (!fp)
        abort();
    fputs(text, fp);
    fclose(fp);
    return p;
}

char *so_test_slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf) {
        size_t got = fread(buf, 1, (size_t)n, fp);
        buf[got] = '\0';
    }
    fclose(fp);
    return buf;
}

int so_test_run(const char *args, char **out, char **errout)
{
    return so_test_run_timeout(0, args, out, errout);
}

int so_test_run_timeout(int seconds, const char *args, char **out, char **errout)
{
    char o[600], e[600], cmd[8192], limit[64] = "";
    snprintf(o, sizeof o, "%s/run.out", so_test_tmpdir());
    snprintf(e, sizeof e, "%s/run.err", so_test_tmpdir());
    if (seconds > 0)
        snprintf(limit, sizeof limit, "timeout -s KILL %d ", seconds);
    snprintf(cmd, sizeof cmd, "%s%s %s >%s 2>%s </dev/null", limit, SO_BINARY, args, o, e);
    int st = system(cmd);
    if (out)
        *out = so_test_slurp(o);
    if (errout)
        *errout = so_test_slurp(e);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void cleanup(void)
{
    if (tmpdir[0]) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", tmpdir);
    }
}

int main(int argc, char **argv)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    atexit(cleanup);
    for (int s = 0; s < n_suites; s++) {
        int wanted = argc < 2;
        for (int a = 1; a < argc && !wanted; a++)
            wanted = strcmp(argv[a], suites[s].name) == 0;
        if (!wanted)
            continue;
        CU_pSuite suite = CU_add_suite(suites[s].name, NULL, NULL);
        for (CU_TestInfo *t = suites[s].tests; t && t->pName; t++)
            CU_add_test(suite, t->pName, t->pTestFunc);
    }
    CU_basic_set_mode(CU_BRM_NORMAL);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned ran = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    if (ran == 0) {
        fprintf(stderr, "no test ran\n");
        return 1;
    }
    return failed ? 1 : 0;
}
