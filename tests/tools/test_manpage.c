/* test_manpage.c — issue 29 item 3: slotopt(1) has SYNOPSIS (every
 * command's usage), COMMANDS, ENVIRONMENT (every SLOTOPT_* variable the
 * program reads), EXAMPLES and SEE ALSO. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"

#define MAN SO_BUILD_DIR "/slotopt.1"

static char *section(const char *page, const char *name)
{
    char head[64];
    snprintf(head, sizeof head, ".SH %s\n", name);
    const char *at = strstr(page, head);
    if (!at)
        return NULL;
    at += strlen(head);
    const char *end = strstr(at, "\n.SH ");
    return strndup(at, end ? (size_t)(end - at) : strlen(at));
}

static void test_sections(void)
{
    char *page = so_test_slurp(MAN);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    char *syn = section(page, "SYNOPSIS"), *env = section(page, "ENVIRONMENT");
    char *ex = section(page, "EXAMPLES"), *cmds = section(page, "COMMANDS");
    CU_ASSERT_PTR_NOT_NULL_FATAL(syn);
    CU_ASSERT_PTR_NOT_NULL_FATAL(env);
    CU_ASSERT_PTR_NOT_NULL(ex);
    CU_ASSERT_PTR_NOT_NULL(cmds);
    CU_ASSERT_PTR_NOT_NULL(strstr(page, ".SH \"SEE ALSO\""));
    /* every command of `slotopt --help` has its usage in the synopsis */
    char *help = NULL;
    CU_ASSERT_EQUAL(so_test_run("--help", &help, NULL), 0);
    int n = 0;
    for (char *line = help ? strtok(help, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        char cmd[64], want[96];
        if (sscanf(line, "  %63[a-z-]", cmd) != 1 || strncmp(line, "  ", 2) || line[2] == ' ')
            continue;
        snprintf(want, sizeof want, "slotopt %s", cmd);
        n++;
        int ok = strstr(syn, want) != NULL;
        CU_ASSERT(ok);
        if (!ok)
            fprintf(stderr, "\nSYNOPSIS lacks '%s'\n", want);
    }
    CU_ASSERT(n >= 10);
    /* every SLOTOPT_* variable the program reads (test hooks aside) */
    char *vars = NULL;
    CU_ASSERT_EQUAL(so_test_run("--version >/dev/null; (grep -rhoE 'getenv\\(\"SLOTOPT_[A-Z_]+\"' "
                                "tools formulations solvers heuristics cluster | grep -v _TEST_ |"
                                " sed 's/.*\"\\(SLOTOPT_[A-Z_]*\\)\"/\\1/' | sort -u)",
                                &vars, NULL), 0);
    int nv = 0;
    for (char *v = vars ? strtok(vars, "\n") : NULL; v; v = strtok(NULL, "\n"), nv++) {
        char want[96];
        snprintf(want, sizeof want, ".B %s\n", v);
        int ok = strstr(env, want) != NULL;
        CU_ASSERT(ok);
        if (!ok)
            fprintf(stderr, "\nENVIRONMENT lacks %s\n", v);
    }
    CU_ASSERT(nv >= 3);
    free(vars);
    free(help);
    free(syn);
    free(env);
    free(ex);
    free(cmds);
    free(page);
}

/* The README lists every Debian package `make deps` installs. */
static void test_readme_packages(void)
{
    char *pkgs = NULL;
    CU_ASSERT_EQUAL(so_test_run("--version >/dev/null; (unset MAKEFLAGS MAKELEVEL MFLAGS;"
                                " make -s --no-print-directory print-deps)", &pkgs, NULL), 0);
    char *readme = so_test_slurp("README.md");
    CU_ASSERT_PTR_NOT_NULL_FATAL(readme);
    int n = 0;
    for (char *p = pkgs ? strtok(pkgs, " \n") : NULL; p; p = strtok(NULL, " \n"), n++) {
        int ok = strstr(readme, p) != NULL;
        CU_ASSERT(ok);
        if (!ok)
            fprintf(stderr, "\nREADME.md does not list the package %s\n", p);
    }
    CU_ASSERT(n >= 10);
    free(pkgs);
    free(readme);
}

static CU_TestInfo tests[] = {
    {"SYNOPSIS, COMMANDS, ENVIRONMENT, EXAMPLES, SEE ALSO", test_sections},
    {"README lists every Debian package of make deps", test_readme_packages},
    CU_TEST_INFO_NULL,
};

SO_SUITE("manpage", tests)
