/* test_util.h — self-registering CUnit suites and small test helpers.
 *
 * A test file lists its tests and says SO_SUITE("name", tests); the runner
 * (tests/runner.c) registers every suite before running them. */
#ifndef SO_TEST_UTIL_H
#define SO_TEST_UTIL_H
#include <CUnit/CUnit.h>
#include "slotopt.h"

void so_test_add_suite(const char *name, CU_TestInfo *tests);

#define SO_SUITE(name, tests)                                                 \
    __attribute__((constructor)) static void so_register_suite_(void)         \
    {                                                                         \
        so_test_add_suite(name, tests);                                       \
    }

/* A fresh temporary directory (removed by the runner at exit). */
const char *so_test_tmpdir(void);
/* <tmpdir>/name (a ring of 8 static buffers). */
const char *so_test_path(const char *name);
/* Writes text to <tmpdir>/name and returns the path (static buffer ring). */
const char *so_test_write(const char *name, const char *text);
/* Runs the slotopt binary with args (a shell fragment); returns its exit
 * code; stdout and stderr are captured into *out / *errout if not NULL
 * (caller frees). */
int so_test_run(const char *args, char **out, char **errout);
/* The same under `timeout -s KILL seconds` (0: no limit): a program that
 * does not return in time gives 137, so a test of a hang cannot hang. */
int so_test_run_timeout(int seconds, const char *args, char **out, char **errout);
/* Reads a whole file (caller frees); NULL if it cannot. */
char *so_test_slurp(const char *path);

#endif
