/* test_cli.c — the slotopt program: exit codes, help, listing, generation
 * (determinism), export, atomic -o. */
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <unistd.h>
#include "tests/test_util.h"
#include "tools/cli/cli.h"

#define KP "instances/knapsack/pisinger/knapPI_1_100_1000_1.kp"

static void test_exit_codes(void)
{
    char *out, *err;
    CU_ASSERT_EQUAL(so_test_run("solve " KP, &out, &err), 0);
    json_error_t jerr;
    json_t *j = json_loads(out, 0, &jerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "objective")), 9147, 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "backend")), "kp-dp");
    json_decref(j);
    free(out);
    free(err);
    /* bad input: file, line, column, key on stderr, nothing on stdout */
    CU_ASSERT_EQUAL(so_test_run("solve tests/corpus/knapsack/negative-weight.L4.json", &out, &err), 2);
    CU_ASSERT_STRING_EQUAL(out, "");
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "negative-weight.L4.json:4:17: key 'weights[1]'"));
    free(out);
    free(err);
    CU_ASSERT_EQUAL(so_test_run("solve /nonexistent.json", NULL, NULL), 2);
    CU_ASSERT_EQUAL(so_test_run("solve --backend nope " KP, NULL, NULL), 2);
    CU_ASSERT_EQUAL(so_test_run("solve --backend kp-dp --opt bogus=1 " KP, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bogus"));
    free(err);
    CU_ASSERT_EQUAL(so_test_run("solve --time-limit -1 " KP, NULL, NULL), 2);
    /* out of range or signed seeds are errors, not 2^64 - 1 */
    CU_ASSERT_EQUAL(so_test_run("solve --seed 18446744073709551616 " KP, NULL, NULL), 2);
    CU_ASSERT_EQUAL(so_test_run("solve --seed ' -1' " KP, NULL, NULL), 2);
    CU_ASSERT_EQUAL(so_test_run("solve --seed 18446744073709551615 " KP, NULL, NULL), 0);
    uint64_t seed = 0;
    CU_ASSERT_EQUAL(so_cli_parse_u64("18446744073709551615", &seed), 0);
    CU_ASSERT_EQUAL(seed, UINT64_MAX);
    CU_ASSERT_EQUAL(so_cli_parse_u64("18446744073709551616", &seed), -1);
    CU_ASSERT_EQUAL(so_cli_parse_u64(" 7", &seed), -1);
    CU_ASSERT_EQUAL(so_cli_parse_u64("+7", &seed), -1);
    CU_ASSERT_EQUAL(so_test_run("solve --format xml " KP, NULL, NULL), 2);
    CU_ASSERT_EQUAL(so_test_run("solve", NULL, NULL), 2);
    /* a result that cannot be written is not a success ('#' drops the
     * runner's own redirections) */
    CU_ASSERT_EQUAL(so_test_run("solve " KP " >/dev/full 2>/dev/null #", NULL, NULL), 2);
    CU_ASSERT_EQUAL(so_test_run("solve --format text " KP " >/dev/full 2>/dev/null #",
                                NULL, NULL), 2);
    CU_ASSERT_EQUAL(so_test_run("export --format lp " KP " >/dev/full 2>/dev/null #",
                                NULL, NULL), 2);
    CU_ASSERT_EQUAL(so_test_run("frobnicate", NULL, NULL), 2);
    CU_ASSERT_EQUAL(so_test_run("", NULL, NULL), 2);
    /* the mapping itself: solved outcomes 0, input 2, backend failures 3 */
    CU_ASSERT_EQUAL(so_cli_exit_code(SO_OPTIMAL), 0);
    CU_ASSERT_EQUAL(so_cli_exit_code(SO_INFEASIBLE), 0);
    CU_ASSERT_EQUAL(so_cli_exit_code(SO_TIMELIMIT), 0);
    CU_ASSERT_EQUAL(so_cli_exit_code(SO_EINVAL), 2);
    CU_ASSERT_EQUAL(so_cli_exit_code(SO_EIO), 2);
    CU_ASSERT_EQUAL(so_cli_exit_code(SO_EUNSUPPORTED), 2);
    CU_ASSERT_EQUAL(so_cli_exit_code(SO_EBACKEND), 3);
    CU_ASSERT_EQUAL(so_cli_exit_code(SO_ENOMEM), 3);
}

static void test_help_and_version(void)
{
    const char *cmds[] = {"solve", "backends", "families", "gen", "export"};
    for (size_t k = 0; k < 5; k++) {
        char args[64], *out;
        snprintf(args, sizeof args, "%s --help", cmds[k]);
        CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: slotopt"));
        free(out);
    }
    char *out;
    CU_ASSERT_EQUAL(so_test_run("--version", &out, NULL), 0);
    CU_ASSERT_STRING_EQUAL(out, "slotopt " SO_VERSION "\n");
    free(out);
}

static void test_listings(void)
{
    char *out;
    CU_ASSERT_EQUAL(so_test_run("backends --problem knapsack", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "kp-dp"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nkp-greedy  knapsack  heuristic  "));
    CU_ASSERT_PTR_NULL(strstr(out, "pareto"));
    free(out);
    CU_ASSERT_EQUAL(so_test_run("backends --problem nosuch", NULL, NULL), 2);
    CU_ASSERT_EQUAL(so_test_run("families --format csv", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && !strncmp(out, "family,problem,parameter,default,description\n", 45));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nknapsack,knapsack,class,uncorrelated,"));
    free(out);
    CU_ASSERT_EQUAL(so_test_run("backends -v --problem knapsack --format csv", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && !strncmp(out, "backend,problem,kind,option,default,description\n", 48));
    free(out);
    char *err = NULL; /* an unknown problem: the choices */
    CU_ASSERT_EQUAL(so_test_run("backends --problem knapsak", NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "unknown problem 'knapsak'; did you mean 'knapsack'?"));
    free(err);
}

static void test_gen_deterministic(void)
{
    char args[1024], *a, *b, *c;
    const char *dir = so_test_tmpdir();
    snprintf(args, sizeof args, "gen knapsack --count 2 --seed 9 --set n=20 "
             "--set class=strongly --out %s/g1", dir);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "gen knapsack --count 2 --seed 9 --set n=20 "
             "--set class=strongly --out %s/g2", dir);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "gen knapsack --count 2 --seed 10 --set n=20 "
             "--set class=strongly --out %s/g3", dir);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    char p[700];
    snprintf(p, sizeof p, "%s/g1/knapsack-n=20-class=strongly-9-1.json", dir);
    a = so_test_slurp(p);
    snprintf(p, sizeof p, "%s/g2/knapsack-n=20-class=strongly-9-1.json", dir);
    b = so_test_slurp(p);
    snprintf(p, sizeof p, "%s/g3/knapsack-n=20-class=strongly-10-1.json", dir);
    c = so_test_slurp(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT_STRING_NOT_EQUAL(a, c);
    CU_ASSERT_PTR_NOT_NULL(strstr(a, "\"class\": \"strongly\""));
    free(a);
    free(b);
    free(c);
    CU_ASSERT_EQUAL(so_test_run("gen knapsack --set class=nope --out /tmp", NULL, NULL), 2);
    CU_ASSERT_EQUAL(so_test_run("gen knapsack --set colour=red --out /tmp", NULL, NULL), 2);
    CU_ASSERT_EQUAL(so_test_run("gen nosuch --out /tmp", NULL, NULL), 2);
    /* seeds are stored in "meta" as signed 64-bit JSON integers */
    snprintf(args, sizeof args, "gen knapsack --seed 9223372036854775808 --out %s/g4", dir);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 2);
    snprintf(args, sizeof args, "gen knapsack --seed 9223372036854775807 --set n=3 --out %s/g4", dir);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    snprintf(p, sizeof p, "%s/g4/knapsack-n=3-9223372036854775807-0.json", dir);
    a = so_test_slurp(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL(strstr(a, "\"seed\": 9223372036854775807"));
    free(a);
    CU_ASSERT_EQUAL(so_test_run("gen knapsack", NULL, NULL), 2);
}

static void test_export(void)
{
    char *out;
    CU_ASSERT_EQUAL(so_test_run("export --format lp instances/knapsack/pisinger/f3_l-d_kp_4_20.kp",
                                &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "Maximize"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "capacity: + 7 x3 + 9 x2 + 5 x1 + 6 x0 <= 20"));
    free(out);
    char args[1600];
    snprintf(args, sizeof args, "export --format mps instances/knapsack/pisinger/f3_l-d_kp_4_20.kp"
             " -o %s/m.mps", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    char path[700];
    snprintf(path, sizeof path, "%s/m.mps", so_test_tmpdir());
    out = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "ROWS"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "MARKER"));
    free(out);
    CU_ASSERT_EQUAL(so_test_run("export --format pdf " KP, NULL, NULL), 2);
}

/* Names of the /tmp/slotopt-export-* folders, newline-separated. */
static char *export_tmpdirs(void)
{
    size_t size = 1, len = 0;
    char *names = calloc(1, 1);
    DIR *d = opendir("/tmp");
    struct dirent *e;
    while (names && d && (e = readdir(d))) {
        if (strncmp(e->d_name, "slotopt-export-", 15))
            continue;
        size += strlen(e->d_name) + 1;
        char *grown = realloc(names, size);
        if (!grown)
            break;
        names = grown;
        len += (size_t)sprintf(names + len, "%s\n", e->d_name);
    }
    if (d)
        closedir(d);
    return names;
}

/* A folder of after not in before that is still there after a while. */
static int export_tmpdir_left(const char *before)
{
    for (int tries = 0; tries < 20; tries++) {
        char *after = export_tmpdirs(), *line = after, *nl;
        int left = 0;
        while (line && (nl = strchr(line, '\n'))) {
            *nl = '\0';
            char key[300];
            snprintf(key, sizeof key, "%s\n", line);
            left |= strstr(before, key) == NULL;
            line = nl + 1;
        }
        free(after);
        if (!left)
            return 0;
        usleep(50000); /* another process's export may be under way */
    }
    return 1;
}

/* Any file name exports (GLPK aborts on control characters in a problem
 * name), and a failed export to stdout leaves no temporary folder. */
static void test_export_errors(void)
{
    const char *kp = "{\"problem\":\"knapsack\",\"version\":1,\"capacity\":3,"
                     "\"profits\":[1,2],\"weights\":[2,2]}";
    char args[1600], *out;
    so_test_write("tab\tname.json", kp);
    snprintf(args, sizeof args, "export --format lp '%s/tab\tname.json'", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "Maximize"));
    free(out);
    so_problem *p = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_problem_parse(kp, "line\nbreak", &p, &err), SO_OK);
    char path[700];
    snprintf(path, sizeof path, "%s/nl.mps", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_problem_export(p, path, SO_FORMAT_MPS, &err), SO_OK);
    so_problem_free(p);
    char *before = export_tmpdirs();
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);
    CU_ASSERT_EQUAL(so_test_run("export --format lp --opt deadline=0.001 instances/pareto/puma-sort.json",
                                NULL, NULL), 2);
    CU_ASSERT_FALSE(export_tmpdir_left(before));
    free(before);
}

static void test_output_file(void)
{
    char args[1600], path[700];
    snprintf(path, sizeof path, "%s/r.json", so_test_tmpdir());
    snprintf(args, sizeof args, "solve --backend kp-greedy -o %s " KP, path);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    char *t = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"backend\": \"kp-greedy\""));
    free(t);
    /* a failing run leaves the previous file as it was */
    snprintf(args, sizeof args, "solve -o %s tests/corpus/knapsack/empty.L1.kp", path);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 2);
    t = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "kp-greedy"));
    free(t);
    char *out;
    CU_ASSERT_EQUAL(so_test_run("solve --format text --backend kp-bnb " KP, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "status       optimal"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "objective    9147\n"));
    free(out);
}

static CU_TestInfo tests[] = {
    {"exit codes: 0 solved, 2 bad input or usage, 3 backend failure", test_exit_codes},
    {"--help for every command, --version", test_help_and_version},
    {"backends and families listings", test_listings},
    {"gen: same seed same files", test_gen_deterministic},
    {"export LP and MPS by GLPK", test_export},
    {"export: any file name, no temporary folder left", test_export_errors},
    {"-o writes atomically; text format", test_output_file},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cli", tests)
