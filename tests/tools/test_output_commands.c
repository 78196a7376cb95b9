/* test_output_commands.c — every command that prints results takes the same
 * --format and -o: the bytes written to -o FILE are the bytes printed on
 * standard output (outputs with timings compared with their numbers
 * masked), each format parses (JSON through jansson, CSV the header's
 * number of fields on every row, markdown the header's number of cells on
 * every row under a |---| line), an unknown format is refused with the
 * choices and a suggestion, and a failed command leaves no -o file. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/test_util.h"

#define KP "instances/knapsack/pisinger/f10_l-d_kp_20_879.kp"
#define WORKLOAD "instances/cluster/two_pools.json"
#define PARETO "instances/pareto/puma-sort.json"

/* The fields of one CSV record starting at *s (RFC 4180: quoted fields may
 * hold commas, quotes doubled, line breaks); *s moves past its line end.
 * -1 on a malformed record. */
static int csv_fields(const char **s)
{
    const char *p = *s;
    int n = 1;
    for (;;) {
        if (*p == '"') {
            for (p++;; p++) {
                if (!*p)
                    return -1;
                if (*p == '"' && p[1] == '"')
                    p++;
                else if (*p == '"')
                    break;
            }
            p++;
            if (*p != ',' && *p != '\n')
                return -1;
        }
        while (*p && *p != ',' && *p != '\n' && *p != '"')
            p++;
        if (*p == '"')
            return -1;
        if (*p == ',') {
            n++;
            p++;
            continue;
        }
        *s = *p ? p + 1 : p;
        return n;
    }
}

/* Every record has as many fields as the header; at least one row. */
static int csv_ok(const char *text)
{
    const char *s = text;
    int head = csv_fields(&s), rows = 0;
    if (head < 1)
        return 0;
    while (*s) {
        if (csv_fields(&s) != head)
            return 0;
        rows++;
    }
    return rows > 0;
}

/* The unescaped pipes of one line. */
static int pipes(const char *line, size_t len)
{
    int n = 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '\\') {
            i++;
            continue;
        }
        n += line[i] == '|';
    }
    return n;
}

/* A markdown table: header, a |---| line, rows with as many cells. */
static int markdown_ok(const char *text)
{
    const char *s = strstr(text, "| ");
    if (!s || (s != text && s[-1] != '\n'))
        return 0;
    int head = -1, line = 0;
    while (*s == '|') {
        const char *end = strchr(s, '\n');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        int n = pipes(s, len);
        if (line == 0)
            head = n;
        else if (n != head || (line == 1 && strncmp(s, "|---", 4)))
            return 0;
        line++;
        s += len + (end != NULL);
    }
    return head > 1 && line >= 3;
}

/* The numbers of text as "N" and runs of blanks as one: outputs that hold
 * timings compare by their structure and texts. */
static char *masked(const char *text)
{
    char *out = malloc(strlen(text) + 1), *o = out;
    for (const char *p = text; out && *p;) {
        if (isdigit((unsigned char)*p) ||
            ((*p == '-' || *p == '.') && isdigit((unsigned char)p[1]))) {
            while (isdigit((unsigned char)*p) || *p == '.' || *p == 'e' || *p == '-' ||
                   *p == '+')
                p++;
            *o++ = 'N';
        } else if (*p == ' ') {
            while (*p == ' ' || *p == '-')
                p++;
            *o++ = ' ';
        } else {
            *o++ = *p++;
        }
    }
    if (out)
        *o = '\0';
    return out;
}

typedef struct command {
    const char *args;  /* the command without --format and -o */
    const char *formats[4];
    int timed;         /* its output holds run times: compared masked */
} command;

static void check(const command *c, const char *format)
{
    char args[2000], file[700], *out = NULL, *err = NULL;
    snprintf(file, sizeof file, "%s/out-%d.txt", so_test_tmpdir(), (int)getpid());
    unlink(file);
    snprintf(args, sizeof args, "%s --format %s", c->args, format);
    int code = so_test_run(args, &out, &err);
    if (code != 0)
        fprintf(stderr, "\n  %s: exit %d: %s", args, code, err ? err : "");
    CU_ASSERT_EQUAL(code, 0);
    free(err);
    snprintf(args, sizeof args, "%s --format %s -o %s", c->args, format, file);
    char *quiet = NULL;
    CU_ASSERT_EQUAL(so_test_run(args, &quiet, NULL), 0);
    CU_ASSERT_STRING_EQUAL(quiet ? quiet : "x", ""); /* nothing on stdout */
    free(quiet);
    char *written = so_test_slurp(file);
    CU_ASSERT_PTR_NOT_NULL_FATAL(written);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    if (c->timed) {
        char *a = masked(out), *b = masked(written);
        CU_ASSERT_STRING_EQUAL(a, b);
        free(a);
        free(b);
    } else {
        if (strcmp(out, written))
            fprintf(stderr, "\n  %s: -o differs from stdout", args);
        CU_ASSERT_STRING_EQUAL(out, written);
    }
    if (!strcmp(format, "json")) {
        json_error_t je;
        json_t *j = json_loads(written, 0, &je);
        if (!j)
            fprintf(stderr, "\n  %s: not JSON: %s", args, je.text);
        CU_ASSERT_PTR_NOT_NULL(j);
        json_decref(j);
    } else if (!strcmp(format, "csv")) {
        if (!csv_ok(written))
            fprintf(stderr, "\n  %s: bad CSV:\n%s", args, written);
        CU_ASSERT(csv_ok(written));
    } else if (!strcmp(format, "markdown")) {
        if (!markdown_ok(written))
            fprintf(stderr, "\n  %s: bad markdown:\n%s", args, written);
        CU_ASSERT(markdown_ok(written));
    } else if (strncmp(c->args, "solve", 5) && strncmp(c->args, "sim", 3)) {
        /* dashes under a header (solve: labelled lines; sim: the cluster
         * model's report) */
        CU_ASSERT_PTR_NOT_NULL(strstr(written, "\n--"));
    }
    free(out);
    free(written);
    unlink(file);
}

static void test_every_command(void)
{
    char db[700], bench[1500], report[900];
    snprintf(db, sizeof db, "%s/out-cmd.db", so_test_tmpdir());
    unlink(db);
    /* the cells stored once: --resume then prints the stored cells */
    snprintf(bench, sizeof bench, "bench --backends kp-greedy --reference kp-dp --db %s " KP,
             db);
    CU_ASSERT_EQUAL_FATAL(so_test_run(bench, NULL, NULL), 0);
    snprintf(bench, sizeof bench,
             "bench --resume --cells --backends kp-greedy --reference kp-dp --db %s " KP, db);
    snprintf(report, sizeof report, "report --cells --db %s", db);
    const command cmds[] = {
        {"solve " KP, {"json", "table", "csv", "markdown"}, 1},
        {"sim " WORKLOAD " --scheduler fair", {"json", "table", "csv", "markdown"}, 1},
        {"sim " WORKLOAD " --scheduler fair --summary", {"csv", "markdown"}, 1},
        {"frontier --reference none " PARETO, {"json", "table", "csv", "markdown"}, 1},
        {bench, {"table", "csv", "json", "markdown"}, 0},
        {report, {"table", "csv", "json", "markdown"}, 0},
        {"flex-compare --instances 2 --backends fifo,flex", {"markdown", "table", "csv", "json"},
         1},
        {"execute " PARETO, {"json", "table", "csv", "markdown"}, 0},
        {"execute --all " PARETO, {"table", "csv", "markdown"}, 0},
        {"backends", {"table", "csv", "json", "markdown"}, 0},
        {"backends -v --problem flex", {"table", "csv", "json", "markdown"}, 0},
        {"families", {"table", "csv", "json", "markdown"}, 0},
        {"scenarios", {"table", "csv", "json", "markdown"}, 0},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        for (int f = 0; f < 4 && cmds[i].formats[f]; f++)
            check(&cmds[i], cmds[i].formats[f]);
}

/* The same refusal of an unknown format everywhere, and no -o file left. */
static void test_unknown_format(void)
{
    const char *cmds[] = {"solve " KP, "sim " WORKLOAD " --scheduler fair", "frontier " PARETO,
                          "flex-compare", "execute " PARETO, "backends", "families",
                          "scenarios", "report --db none.db",
                          "bench --backends kp-greedy --reference kp-dp " KP};
    char file[700];
    snprintf(file, sizeof file, "%s/never.txt", so_test_tmpdir());
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char args[1500], *err = NULL, *out = NULL;
        snprintf(args, sizeof args, "%s --format markdwn -o %s", cmds[i], file);
        CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
        CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "--format: expected json, table, "));
        CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "found 'markdwn'; did you mean 'markdown'?"));
        CU_ASSERT_STRING_EQUAL(out ? out : "x", "");
        CU_ASSERT_NOT_EQUAL(access(file, F_OK), 0);
        free(err);
        free(out);
    }
    /* the same message for the other choices */
    const char *other[][2] = {
        {"export --format mpss " KP, "--format: expected lp, mps, fair-scheduler, yarn-fair or"
                                     " capacity-scheduler, found 'mpss'; did you mean 'mps'?"},
        {"sim " WORKLOAD " --scheduler fair --stealing evn",
         "--stealing: expected none, even, fcm, stlm, ltlm, stm or ltm, found 'evn'; did you"
         " mean 'even'?"},
        {"report --db x.db --plot-type pgn", "--plot-type: expected svg, png or pdf, found"
                                             " 'pgn'; did you mean 'png'?"}};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        char *err = NULL;
        CU_ASSERT_EQUAL(so_test_run(other[i][0], NULL, &err), 2);
        if (!err || !strstr(err, other[i][1]))
            fprintf(stderr, "\n  %s: %s", other[i][0], err ? err : "");
        CU_ASSERT_PTR_NOT_NULL(err && strstr(err, other[i][1]));
        free(err);
    }
}

/* A command that fails leaves no -o file; a stream of instances gives one
 * row per instance. */
static void test_no_partial_file(void)
{
    const char *stream = so_test_write(
        "two-kp.jsonl", "{\"problem\":\"knapsack\",\"version\":1,\"capacity\":5,"
                        "\"profits\":[3],\"weights\":[2]}\n"
                        "{\"problem\":\"knapsack\",\"version\":1,\"capacity\":5,"
                        "\"profits\":[3],\"weights\":[2]}\n");
    char file[700], args[1500];
    snprintf(file, sizeof file, "%s/partial.csv", so_test_tmpdir());
    unlink(file);
    snprintf(args, sizeof args, "solve --backend kp-dp --opt nosuch=1 --format csv -o %s %s",
             file, stream);
    CU_ASSERT_NOT_EQUAL(so_test_run(args, NULL, NULL), 0);
    CU_ASSERT_NOT_EQUAL(access(file, F_OK), 0);
    /* and the stream's rows, one per instance */
    snprintf(args, sizeof args, "solve --backend kp-dp --format csv -o %s %s", file, stream);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    char *text = so_test_slurp(file);
    CU_ASSERT_PTR_NOT_NULL(text && strstr(text, "two-kp.jsonl:2,kp-dp,yes,optimal,3,3,0,"));
    CU_ASSERT(text && csv_ok(text));
    free(text);
    unlink(file);
}

/* The commands that write one document without --format: -o the same
 * bytes as standard output too. */
static void test_other_outputs(void)
{
    const char *flex = so_test_write(
        "oc-flex.json", "{\"problem\": \"flex\", \"version\": 1, \"slots\": 10,"
                        " \"metric\": \"response\", \"jobs\": ["
                        " {\"work\": 20, \"min\": 2, \"max\": 6},"
                        " {\"work\": 8, \"min\": 1, \"max\": 4}]}");
    char sol[700], file[700], cmd[2000];
    snprintf(sol, sizeof sol, "%s/oc-flex-sol.json", so_test_tmpdir());
    snprintf(file, sizeof file, "%s/oc-out.txt", so_test_tmpdir());
    snprintf(cmd, sizeof cmd, "solve -b flex -o %s %s", sol, flex);
    CU_ASSERT_EQUAL_FATAL(so_test_run(cmd, NULL, NULL), 0);
    char check[1500], lp[900];
    snprintf(check, sizeof check, "flex-check %s %s", flex, sol);
    snprintf(lp, sizeof lp, "export --format lp %s", KP);
    const char *cmds[] = {check, lp};
    for (int i = 0; i < 2; i++) {
        char *out = NULL, *quiet = NULL;
        unlink(file);
        CU_ASSERT_EQUAL(so_test_run(cmds[i], &out, NULL), 0);
        snprintf(cmd, sizeof cmd, "%s -o %s", cmds[i], file);
        CU_ASSERT_EQUAL(so_test_run(cmd, &quiet, NULL), 0);
        CU_ASSERT_STRING_EQUAL(quiet ? quiet : "x", "");
        char *written = so_test_slurp(file);
        CU_ASSERT_PTR_NOT_NULL(out && strlen(out) > 10);
        CU_ASSERT_STRING_EQUAL(out ? out : "", written ? written : "x");
        free(out);
        free(quiet);
        free(written);
    }
    unlink(file);
}

/* The checkers themselves. */
static void test_checkers(void)
{
    CU_ASSERT(csv_ok("a,b\n1,\"x,\"\"y\"\"\"\n"));
    CU_ASSERT(!csv_ok("a,b\n1,2,3\n"));
    CU_ASSERT(!csv_ok("a,b\n1,\"x\n"));
    CU_ASSERT(markdown_ok("| a | b |\n|---|---:|\n| x \\| y | 2 |\n"));
    CU_ASSERT(!markdown_ok("| a | b |\n|---|---:|\n| x | y | 2 |\n"));
    char *m = masked("seconds  0.0012\nx   12.5e-05 ab1");
    CU_ASSERT_STRING_EQUAL(m, "seconds N\nx N abN");
    free(m);
}

static CU_TestInfo tests[] = {
    {"csv, markdown and mask checkers", test_checkers},
    {"every command: --format F and -o FILE alike, each format parses", test_every_command},
    {"an unknown --format: the choices and a suggestion, no file", test_unknown_format},
    {"no partial -o file on error; a stream's rows", test_no_partial_file},
    {"flex-check and export: -o as stdout", test_other_outputs},
    CU_TEST_INFO_NULL,
};
SO_SUITE("output-commands", tests)
