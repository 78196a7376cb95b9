/* test_knapsack_read.c — the knapsack readers: both Pisinger text formats,
 * JSON, decimals, round trip, every input error with its line (the corpus in
 * tests/corpus/knapsack/, expected line in the name: NAME.L<line>.ext), and
 * a deterministic mutation fuzz of both formats. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/test_util.h"
#include "formulations/knapsack.h"

static so_problem *parse_ok(const char *text)
{
    so_problem *p = NULL;
    so_error err;
    int rc = so_problem_parse(text, "t", &p, &err);
    if (rc) {
        char buf[1024];
        fprintf(stderr, "unexpected error: %s\n", so_error_format(&err, buf, sizeof buf));
    }
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    return p;
}

static void test_text_formats(void)
{
    /* "n c" on one line, CRLF line ends, solution line */
    so_problem *p = parse_ok("3 10\r\n5 4\r\n6 5\r\n3 2\r\n1 0 1\r\n");
    const so_kp *kp = so_kp_of(p);
    CU_ASSERT_EQUAL(kp->n, 3);
    CU_ASSERT_EQUAL(kp->capacity, 10);
    CU_ASSERT_EQUAL(kp->profit[1], 6);
    CU_ASSERT_EQUAL(kp->weight[2], 2);
    CU_ASSERT_EQUAL(kp->decimals, 0);
    so_problem_free(p);
    /* n and c on two lines, no solution line */
    p = parse_ok("2\n7\n1 1\n2 2\n");
    CU_ASSERT_EQUAL(so_kp_of(p)->capacity, 7);
    so_problem_free(p);
}

static void test_decimals(void)
{
    so_problem *p = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_problem_read("instances/knapsack/pisinger/f5_l-d_kp_15_375.kp",
                                          &p, &err), SO_OK);
    const so_kp *kp = so_kp_of(p);
    CU_ASSERT_EQUAL(kp->decimals, 6);
    CU_ASSERT_EQUAL(kp->capacity, 375000000);
    CU_ASSERT_EQUAL(kp->profit[0], 125126);   /* 0.125126 */
    CU_ASSERT_EQUAL(kp->weight[0], 56358531); /* 56.358531 */
    so_problem_free(p);
    p = parse_ok("{\"problem\":\"knapsack\",\"version\":1,\"capacity\":2.5,"
                 "\"profits\":[1.25,3],\"weights\":[0.5,2]}");
    kp = so_kp_of(p);
    CU_ASSERT_EQUAL(kp->decimals, 2);
    CU_ASSERT_EQUAL(kp->capacity, 250);
    CU_ASSERT_EQUAL(kp->profit[0], 125);
    CU_ASSERT_EQUAL(kp->weight[1], 200);
    so_problem_free(p);
}

/* A value is scaled only when it has at most d decimals exactly: 9.9999999
 * needs 7 (not 0 by rounding to 10), 1e-9 needs 9; a value no power
 * 10^d <= 10^9 makes integral (within double precision) is an error, never
 * rounded. */
static void test_decimals_exact(void)
{
    const char *cases[][2] = {
        /* capacity, expected scaled capacity ("" = error) */
        {"9.9999999", "99999999"},    {"1e-9", "1"},
        {"1234567890.123", "1234567890123"}, {"0.1", "1"},
        {"1.0000000001", ""},         {"2.5e-10", ""},
        {"1000000000000000.5", ""},   {"0.30000000000000004", ""},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char text[256];
        snprintf(text, sizeof text, "{\"problem\":\"knapsack\",\"version\":1,"
                 "\"capacity\":%s,\"profits\":[1],\"weights\":[1]}", cases[k][0]);
        so_problem *p = NULL;
        so_error err;
        int rc = so_problem_parse(text, "d.json", &p, &err);
        if (!*cases[k][1]) {
            CU_ASSERT_EQUAL(rc, SO_EINVAL);
            if (rc == SO_EINVAL)
                CU_ASSERT_STRING_EQUAL(err.key, "capacity");
        } else {
            CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
            CU_ASSERT_EQUAL(so_kp_of(p)->capacity, atoll(cases[k][1]));
        }
        so_problem_free(p);
    }
    /* the item of weight 10 does not fit a capacity of 9.9999999 */
    so_problem *p = parse_ok("{\"problem\":\"knapsack\",\"version\":1,"
                             "\"capacity\":9.9999999,\"profits\":[1],\"weights\":[10]}");
    so_params prm;
    so_params_init(&prm);
    so_result *r = NULL;
    so_error err;
    CU_ASSERT_EQUAL(so_solve(so_backend_find("kp-dp"), p, &prm, &r, &err), SO_OPTIMAL);
    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), 0.0, 1e-12);
    so_result_free(r);
    so_problem_free(p);
}

static void test_round_trip(void)
{
    so_problem *p = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_problem_read("instances/knapsack/pisinger/knapPI_2_100_1000_1.kp",
                                          &p, &err), SO_OK);
    json_t *j = so_problem_to_json(p);
    so_problem *q = NULL;
    CU_ASSERT_EQUAL_FATAL(so_problem_from_json(j, "rt", &q, &err), SO_OK);
    const so_kp *a = so_kp_of(p), *b = so_kp_of(q);
    CU_ASSERT_EQUAL(a->n, b->n);
    CU_ASSERT_EQUAL(a->capacity, b->capacity);
    CU_ASSERT_EQUAL(memcmp(a->profit, b->profit, a->n * sizeof *a->profit), 0);
    CU_ASSERT_EQUAL(memcmp(a->weight, b->weight, a->n * sizeof *a->weight), 0);
    json_decref(j);
    so_problem_free(p);
    so_problem_free(q);
}

/* Every corpus file is rejected with SO_EINVAL at the line in its name, with
 * the file name and a message in the error. */
static void test_corpus(void)
{
    const char *dir = "tests/corpus/knapsack";
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    struct dirent *e;
    int seen = 0;
    while ((e = readdir(d))) {
        const char *l = strstr(e->d_name, ".L");
        if (!l)
            continue;
        int want = atoi(l + 2);
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        so_problem *p = NULL;
        so_error err;
        int rc = so_problem_read(path, &p, &err);
        if (rc != SO_EINVAL || err.line != want)
            fprintf(stderr, "%s: rc %d line %d (%s)\n", e->d_name, rc, err.line,
                    err.message);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        CU_ASSERT_EQUAL(err.line, want);
        CU_ASSERT_TRUE(err.column >= 1);
        CU_ASSERT_STRING_EQUAL(err.file, path);
        CU_ASSERT_TRUE(strlen(err.message) > 10);
        CU_ASSERT_PTR_NULL(p);
        seen++;
    }
    closedir(d);
    CU_ASSERT_TRUE(seen >= 20);
}

static void test_error_details(void)
{
    so_problem *p = NULL;
    so_error err;
    so_problem_parse("{\"problem\":\"knapsack\",\"version\":1,\n\"capacity\":3,\n"
                     "\"profits\":[1,2],\n\"weights\":[1,\n  -2]}", "x.json", &p, &err);
    CU_ASSERT_STRING_EQUAL(err.key, "weights[1]");
    CU_ASSERT_EQUAL(err.line, 5);
    CU_ASSERT_EQUAL(err.column, 3);
    so_problem_parse("{\"problem\":\"knapsack\",\"version\":1,\"profits\":[],\"weights\":[]}",
                     "x.json", &p, &err);
    CU_ASSERT_STRING_EQUAL(err.key, "capacity");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "missing"));
    /* old Mac line ends (CR alone) count as lines too; tabs, form feeds */
    so_problem_parse("2\r10\r1\t2\f\r3 oops\r", "x.kp", &p, &err);
    CU_ASSERT_STRING_EQUAL(err.key, "weight[1]");
    CU_ASSERT_EQUAL(err.line, 4);
    CU_ASSERT_EQUAL(err.column, 3);
    so_problem_parse("2\n10\n1 2\n3 oops\n", "x.kp", &p, &err);
    CU_ASSERT_STRING_EQUAL(err.key, "weight[1]");
    CU_ASSERT_EQUAL(err.line, 4);
    CU_ASSERT_EQUAL(err.column, 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "oops"));
}

/* A short file announcing 1e8 items is a truncated file (exit 2 with its
 * line), not an allocation for 1e8 items (6 GB): in a process allowed 512 MB
 * more address space the reader still answers with the line. (Not under ASan,
 * whose shadow memory needs the address space.) */
static void test_huge_count_in_small_file(void)
{
#ifndef __SANITIZE_ADDRESS__
    pid_t pid = fork();
    CU_ASSERT_TRUE_FATAL(pid >= 0);
    if (pid == 0) {
        long pages = 0; /* the address space in use, plus 512 MB */
        FILE *fp = fopen("/proc/self/statm", "r");
        if (!fp || fscanf(fp, "%ld", &pages) != 1)
            _exit(2);
        fclose(fp);
        rlim_t cap = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)512 << 20);
        struct rlimit lim = {cap, cap};
        setrlimit(RLIMIT_AS, &lim);
        so_problem *p = NULL;
        so_error err;
        int rc = so_problem_parse("100000000 5\n1 2\n", "big.kp", &p, &err);
        _exit(rc == SO_EINVAL && err.line == 3 ? 0 : 1);
    }
    int st = 0;
    CU_ASSERT_EQUAL(waitpid(pid, &st, 0), pid);
    CU_ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
#endif
}

/* Mutations (byte changes, cuts, insertions) of valid inputs: the reader
 * answers SO_OK or SO_EINVAL, never anything else, never crashes. */
static void fuzz_one(const char *seed_text, uint64_t seed, int rounds)
{
    static const char alphabet[] = "0123456789-.eE{}[],:\" \n\tx\r";
    size_t len = strlen(seed_text);
    char *buf = malloc(len + 64);
    so_rng rng;
    so_rng_seed(&rng, seed);
    for (int t = 0; t < rounds; t++) {
        memcpy(buf, seed_text, len + 1);
        size_t n = len;
        int edits = (int)so_rng_int(&rng, 1, 4);
        for (int k = 0; k < edits; k++) {
            size_t at = (size_t)so_rng_int(&rng, 0, (int64_t)(n ? n - 1 : 0));
            char c = alphabet[so_rng_int(&rng, 0, (int64_t)sizeof alphabet - 2)];
            switch (so_rng_int(&rng, 0, 2)) {
            case 0: buf[at] = c; break;
            case 1: buf[at] = '\0'; n = at; break;
            default:
                if (n + 1 < len + 64) {
                    memmove(buf + at + 1, buf + at, n - at + 1);
                    buf[at] = c;
                    n++;
                }
            }
        }
        so_problem *p = NULL;
        so_error err;
        int rc = so_problem_parse(buf, "fuzz", &p, &err);
        CU_ASSERT_TRUE(rc == SO_OK || rc == SO_EINVAL);
        if (rc == SO_OK) {
            const so_kp *kp = so_kp_of(p);
            for (size_t i = 0; i < kp->n; i++)
                CU_ASSERT_TRUE(kp->profit[i] >= 0 && kp->weight[i] >= 0);
            so_problem_free(p);
        } else {
            CU_ASSERT_TRUE(err.message[0] != '\0');
        }
    }
    free(buf);
}

static void test_fuzz(void)
{
    fuzz_one("4\n20\n9 6\n11 5\n13 9\n15 7\n0 1 1 0\n", 1, 3000);
    fuzz_one("{\"problem\": \"knapsack\", \"version\": 1, \"capacity\": 20,\n"
             " \"profits\": [9, 11.5, 13], \"weights\": [6, 5, 9]}\n", 2, 3000);
}

static CU_TestInfo tests[] = {
    {"Pisinger's two text formats (and CRLF)", test_text_formats},
    {"decimal values are scaled exactly", test_decimals},
    {"decimals are exact, never rounded", test_decimals_exact},
    {"JSON round trip", test_round_trip},
    {"malformed corpus: error at the named line", test_corpus},
    {"error key paths, lines and columns", test_error_details},
    {"a huge item count in a short file", test_huge_count_in_small_file},
    {"mutation fuzz of text and JSON", test_fuzz},
    CU_TEST_INFO_NULL,
};
SO_SUITE("knapsack-read", tests)
