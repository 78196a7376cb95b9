/* test_suggest.c — issue 29 item 3: "did you mean" for every name a user
 * types (commands, families, backends, schedulers, --opt and JSON keys),
 * with every choice listed; and JSON lines on stdin wherever `gen --out -`
 * writes them (solve, bench), `export -` reading a result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/common/suggest.h"
#include "tests/test_util.h"

static void test_closest(void)
{
    static const char *const families[] = {"knapsack", "knapsack-jooken", "flex-paper",
                                           "swim-synth", NULL};
    static const char *const scheds[] = {"fifo", "fair", "flex", "ras", "wpbs", NULL};
    CU_ASSERT_STRING_EQUAL(so_suggest("knapsak", families), "knapsack");
    CU_ASSERT_STRING_EQUAL(so_suggest("KNAPSACK-JOOKEN", families), "knapsack-jooken");
    CU_ASSERT_STRING_EQUAL(so_suggest("swim-synt", families), "swim-synth");
    CU_ASSERT_STRING_EQUAL(so_suggest("fiar", scheds), "fair"); /* a swap is one edit */
    CU_ASSERT_STRING_EQUAL(so_suggest("wbps", scheds), "wpbs");
    CU_ASSERT_STRING_EQUAL(so_suggest("fifi", scheds), "fifo");
    /* too far to be a typo: nothing */
    CU_ASSERT_PTR_NULL(so_suggest("lottery", scheds));
    CU_ASSERT_PTR_NULL(so_suggest("xy", scheds));
    CU_ASSERT_PTR_NULL(so_suggest("", scheds));
    CU_ASSERT_PTR_NULL(so_suggest("fair", (const char *const[]){NULL}));
    char buf[256];
    CU_ASSERT_STRING_EQUAL(so_suggest_text(buf, sizeof buf, "fiar", scheds),
                           "did you mean 'fair'? choices: fifo, fair, flex, ras, wpbs");
    CU_ASSERT_STRING_EQUAL(so_suggest_text(buf, sizeof buf, "zzzzzz", scheds),
                           "choices: fifo, fair, flex, ras, wpbs");
    CU_ASSERT_STRING_EQUAL(so_suggest_text(buf, 16, "zzzzzz", scheds), "choices: fif...");
}

/* A mistyped name exits 2 with the suggestion and the choices on stderr. */
static void typo(const char *args, const char *want)
{
    char *out = NULL, *err = NULL;
    int code = so_test_run(args, &out, &err);
    CU_ASSERT_EQUAL(code, 2);
    int ok = err && strstr(err, want);
    CU_ASSERT(ok);
    if (!ok)
        fprintf(stderr, "\n%s: want '%s' in: %s\n", args, want, err ? err : "(null)");
    free(out);
    free(err);
}

static void test_cli_typos(void)
{
    typo("slove x", "unknown command 'slove'; did you mean 'solve'?");
    typo("gen knapsak", "unknown family 'knapsak'; did you mean 'knapsack'? choices: knapsack,");
    typo("gen knapsak --out -", "did you mean 'knapsack'?");
    typo("sim instances/cluster/two_pools.json --scheduler fiar",
         "unknown scheduler 'fiar'; did you mean 'fair'? choices: fifo, fair, flex, ras, wpbs");
    typo("solve --backend kp-dpp instances/knapsack/pisinger/knapPI_1_100_1000_1.kp",
         "unknown backend 'kp-dpp'; did you mean 'kp-dp'? choices: kp-dp,");
    typo("solve --backend kp-dp --opt max_state=3 instances/knapsack/pisinger/knapPI_1_100_1000_1.kp",
         "key 'max_state': unknown option for backend 'kp-dp'; did you mean 'max_states'?"
         " choices: max_states");
    typo("bench --backends kp-grredy --reference kp-dp"
         " instances/knapsack/pisinger/knapPI_1_100_1000_1.kp", "did you mean 'kp-greedy'?");
    typo("bench --policies fiar --workload instances/cluster/two_pools.json",
         "unknown scheduler 'fiar'; did you mean 'fair'?");
    typo("gen wpbs-paper --set laod=1 --out -", "did you mean 'load'?");
    typo("bench --scenario knapsak", "unknown scenario 'knapsak'; did you mean 'knapsack'?"
         " choices: fair-fifo-3000, flex-cluster,");
    /* a JSON key: the closest allowed key beside the list */
    const char *bad = so_test_write("typo-key.json",
                                    "{\"problem\": \"knapsack\", \"version\": 1,\n"
                                    " \"capacty\": 10, \"profits\": [1], \"weights\": [1]}");
    char args[600];
    snprintf(args, sizeof args, "solve %s", bad);
    typo(args, "unknown key; did you mean 'capacity'?");
}

static int count_lines(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* gen --count 3 --out - | solve -: three results, one per line, each the
 * result of solving that instance's own file. */
static void test_solve_json_lines(void)
{
    char args[2000], *out = NULL, *err = NULL;
    snprintf(args, sizeof args,
             "--version >/dev/null; (%s gen knapsack --count 3 --seed 5 --set n=25 --out - |"
             " %s solve - --backend kp-dp)", SO_BINARY, SO_BINARY);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT_EQUAL(count_lines(out, "\n"), 3);
    for (int k = 1; k <= 3; k++) {
        char name[64];
        snprintf(name, sizeof name, "\"instance\":\"stdin:%d\"", k);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, name));
    }
    /* each line's objective = solve on the file gen writes */
    snprintf(args, sizeof args, "gen knapsack --count 3 --seed 5 --set n=25 --out %s/jl --force",
             so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    char *line = out;
    for (int k = 0; k < 3 && line; k++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        json_t *piped = json_loads(line, 0, NULL);
        char *filed = NULL;
        snprintf(args, sizeof args, "solve %s/jl/knapsack-n=25-5-%d.json --backend kp-dp",
                 so_test_tmpdir(), k);
        CU_ASSERT_EQUAL(so_test_run(args, &filed, NULL), 0);
        json_t *fj = filed ? json_loads(filed, 0, NULL) : NULL;
        CU_ASSERT_PTR_NOT_NULL(piped);
        CU_ASSERT_PTR_NOT_NULL(fj);
        CU_ASSERT(json_number_value(json_object_get(piped, "objective")) > 0);
        CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(piped, "objective")),
                               json_number_value(json_object_get(fj, "objective")), 0);
        json_decref(piped);
        json_decref(fj);
        free(filed);
        line = nl ? nl + 1 : NULL;
    }
    free(out);
    free(err);
    /* a bad document names its line in the whole stream; nothing printed */
    const char *bad = so_test_write("lines.json",
                                    "{\"problem\": \"knapsack\", \"version\": 1, \"capacity\": 3,"
                                    " \"profits\": [1], \"weights\": [1]}\n"
                                    "{\"problem\": \"knapsack\", \"version\": 1,\n"
                                    " \"capacity\": -3, \"profits\": [1], \"weights\": [1]}\n");
    snprintf(args, sizeof args, "solve %s --backend kp-dp", bad);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "lines.json:3:"));
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "capacity"));
    CU_ASSERT(out && !out[0]);
    free(out);
    free(err);
}

/* bench - takes the same stream: three instances. */
static void test_bench_json_lines(void)
{
    char args[2000], *out = NULL;
    snprintf(args, sizeof args,
             "--version >/dev/null; (%s gen knapsack --count 3 --set n=20 --out - |"
             " %s bench --backends kp-greedy --reference kp-dp --format csv --db %s/jl.db -)",
             SO_BINARY, SO_BINARY, so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "knapsack,kp-dp,3,3,3,0,0,100"));
    free(out);
}

/* solve --backend flex X | export --format capacity-scheduler - = the
 * export of the saved result; a workload on stdin exports too. */
static void test_export_stdin(void)
{
    char args[2000], *piped = NULL, *filed = NULL;
    snprintf(args, sizeof args, "gen flex-paper --seed 3 --out %s/fx --force", so_test_tmpdir());
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "solve --backend flex %s/fx/flex-paper-3-0.json -o %s/fx.res",
             so_test_tmpdir(), so_test_tmpdir());
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "export --format capacity-scheduler %s/fx.res", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &filed, NULL), 0);
    snprintf(args, sizeof args,
             "--version >/dev/null; (%s solve --backend flex %s/fx/flex-paper-3-0.json |"
             " %s export --format capacity-scheduler -)", SO_BINARY, so_test_tmpdir(), SO_BINARY);
    CU_ASSERT_EQUAL(so_test_run(args, &piped, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(filed && strstr(filed, "yarn.scheduler.capacity.root.queues"));
    CU_ASSERT(piped && filed && !strcmp(piped, filed));
    free(piped);
    free(filed);
    snprintf(args, sizeof args, "--version >/dev/null; (%s export --format fair-scheduler -"
             " < instances/cluster/two_pools.json)", SO_BINARY);
    CU_ASSERT_EQUAL(so_test_run(args, &piped, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(piped && strstr(piped, "<allocations>"));
    free(piped);
}

static CU_TestInfo tests[] = {
    {"closest name: edits, swaps, case, too far", test_closest},
    {"typos get a suggestion and the choices", test_cli_typos},
    {"gen --out - | solve -: JSON lines", test_solve_json_lines},
    {"gen --out - | bench -: JSON lines", test_bench_json_lines},
    {"solve | export -: a result on stdin", test_export_stdin},
    CU_TEST_INFO_NULL,
};

SO_SUITE("suggest-streams", tests)
