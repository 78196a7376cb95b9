/* test_reader_hangs.c — issue 26 item 1: every reader advances on odd
 * whitespace and control bytes (a form feed or vertical tab once looped for
 * ever in the Jooken knapsack reader), and `bench` reads its inputs within
 * the time limit of a cell (it reads them before any worker starts, so a
 * file that never ends, such as a FIFO without a writer, hung it). Every
 * run is under `timeout -s KILL`: a hang is exit 137, not a stuck suite. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tests/test_util.h"
#include "tools/harness/harness.h"

#define KP "instances/knapsack/pisinger/knapPI_1_100_1000_1.kp"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* solve, export and sim on odd bytes: each returns (exit 0 or 2 as
 * expected), an error names the file. */
static void test_odd_bytes(void)
{
    static const struct {
        const char *name, *text, *cmd;
        int code;
    } cases[] = {
        {"ff.kp", "\f", "solve", 2},
        {"vt.kp", "\v", "solve", 2},
        {"ff-line.kp", "\f\n\f\n", "solve", 2},
        {"ff-first.kp", "2\f\n0 1 2\n1 3 4\n5\n", "solve", 0},
        {"vt-mid.kp", "2\n0 1\v2\n1 3 4\n5\n", "solve", 0},
        {"ff-tail.kp", "2\n0 1 2\n1 3 4\n5\f", "solve", 0},
        {"ctl.kp", "2\n0 1 2\x01\n1 3 4\n5\n", "solve", 2},
        {"ff-export.kp", "\f", "export --format lp", 2},
        {"ff.tsv", "\f", "sim --scheduler fifo", 2},
        {"vt.tsv", "j1\t0\t0\t1\v\t0\t0\n", "sim --scheduler fifo", 2},
        {"ff-rumen.json", "{\"jobID\": \"j\", \"submitTime\": 0}\f{", "sim --scheduler fifo", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = so_test_write(cases[i].name, cases[i].text);
        char args[800], *out = NULL, *err = NULL;
        snprintf(args, sizeof args, "%s %s", cases[i].cmd, path);
        int code = so_test_run_timeout(20, args, &out, &err);
        if (code != cases[i].code)
            fprintf(stderr, "\n  %s: exit %d: %s", cases[i].name, code, err ? err : "");
        CU_ASSERT_EQUAL(code, cases[i].code);
        if (cases[i].code == 2)
            CU_ASSERT_PTR_NOT_NULL(err && strstr(err, cases[i].name));
        free(out);
        free(err);
    }
    /* the Jooken file with a vertical tab between id and profit: items
     * (1, 2) and (3, 4), capacity 5: the optimum takes the second alone */
    char *out = NULL;
    const char *vt = so_test_write("vt-mid2.kp", "2\n0 1\v2\n1 3 4\n5\n");
    char args[700];
    snprintf(args, sizeof args, "solve %s", vt);
    CU_ASSERT_EQUAL(so_test_run_timeout(20, args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\"objective\": 3"));
    free(out);
}

/* bench on the form-feed file: an error naming it, at once. */
static void test_bench_odd_file(void)
{
    const char *kp = so_test_write("bench-ff.kp", "\f");
    char args[1600], db[700], *err = NULL;
    snprintf(db, sizeof db, "%s/bench-ff.db", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --backends kp-greedy --reference kp-dp --db %s %s",
             db, kp);
    CU_ASSERT_EQUAL(so_test_run_timeout(20, args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "bench-ff.kp"));
    free(err);
    CU_ASSERT_NOT_EQUAL(access(db, F_OK), 0); /* no database for bad inputs */
}

/* bench on an input that never ends (a FIFO nobody writes): reading it is
 * bounded by the cell's limit (S + min(S, 1) s, at least 1 s: 2 s at
 * --time-limit 1), then exit 2 naming the file; before, bench waited for
 * ever. The same bound from a scenario's "time_limit" (0.5: 1 s). */
static void test_bench_input_bounded(void)
{
    char fifo[700], db[700], args[2000], *err = NULL;
    snprintf(fifo, sizeof fifo, "%s/never.kp", so_test_tmpdir());
    snprintf(db, sizeof db, "%s/never.db", so_test_tmpdir());
    unlink(fifo);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    snprintf(args, sizeof args, "bench --backends kp-greedy --reference kp-dp"
             " --time-limit 1 --db %s %s", db, fifo);
    double t0 = now();
    int code = so_test_run_timeout(30, args, NULL, &err);
    double dt = now() - t0;
    CU_ASSERT_EQUAL(code, 2);
    CU_ASSERT(dt >= 1.9 && dt < 8);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "never.kp") && strstr(err, "time limit") &&
                           strstr(err, "--time-limit 1"));
    free(err);
    CU_ASSERT_NOT_EQUAL(access(db, F_OK), 0);
    /* a workload (simulation cells) the same */
    snprintf(args, sizeof args, "bench --policies fifo --workload %s --time-limit 1 --db %s",
             fifo, db);
    t0 = now();
    code = so_test_run_timeout(30, args, NULL, &err);
    dt = now() - t0;
    CU_ASSERT_EQUAL(code, 2);
    CU_ASSERT(dt >= 1.9 && dt < 8);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "never.kp"));
    free(err);
    /* a scenario's time_limit bounds its inputs too */
    char scen[700], text[1600];
    snprintf(text, sizeof text,
             "{\"backends\": [\"kp-greedy\"], \"reference\": [\"kp-dp\"],"
             " \"time_limit\": 0.5, \"inputs\": [{\"path\": \"%s\"}]}", fifo);
    snprintf(scen, sizeof scen, "%s", so_test_write("never-scenario.json", text));
    snprintf(args, sizeof args, "bench --scenario %s --db %s", scen, db);
    t0 = now();
    code = so_test_run_timeout(30, args, NULL, &err);
    dt = now() - t0;
    CU_ASSERT_EQUAL(code, 2);
    CU_ASSERT(dt >= 0.9 && dt < 8);
    /* the message says where the limit came from */
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "never.kp") &&
                           strstr(err, "the scenario's time_limit 0.5") &&
                           !strstr(err, "--time-limit"));
    free(err);
    /* and --time-limit on the command line wins over the scenario's */
    snprintf(args, sizeof args, "bench --scenario %s --time-limit 2 --db %s", scen, db);
    t0 = now();
    code = so_test_run_timeout(30, args, NULL, NULL);
    dt = now() - t0;
    CU_ASSERT_EQUAL(code, 2);
    CU_ASSERT(dt >= 2.9 && dt < 10);
    unlink(fifo);
}


/* Only inputs that can wait for ever are guarded: not a regular file (its
 * size bounds it, however long it takes to parse), not a folder (refused),
 * not standard input (its writer is the user's own pipeline). */
static void test_guarded_kinds(void)
{
    const char *fifo = so_test_path("kinds.fifo");
    unlink(fifo);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    CU_ASSERT_EQUAL(so_hread_guarded(KP), 0);
    CU_ASSERT_EQUAL(so_hread_guarded("-"), 0);
    CU_ASSERT_EQUAL(so_hread_guarded(so_test_tmpdir()), 0);
    CU_ASSERT_EQUAL(so_hread_guarded(fifo), 1);
    CU_ASSERT_EQUAL(so_hread_guarded("/dev/null"), 1);
    unlink(fifo);
}

/* Runs the shell command cmd under a 60 s limit; its exit code and wall
 * time (*dt). */
static int shell(const char *cmd, double *dt)
{
    char full[6000];
    snprintf(full, sizeof full, "timeout -s KILL 60 sh -c '%s' >/dev/null 2>&1 </dev/null",
             cmd);
    double t0 = now();
    int st = system(full);
    *dt = now() - t0;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The guard bounds the time without input, not the time to read: a FIFO
 * whose writer sends the instance in three parts 1.2 s apart (2.4 s in
 * all) is read at --time-limit 1 (no input for 2 s ends it), and a pipe on
 * standard input whose writer starts after 1.5 s is read at --time-limit
 * 0.2 (stdin is not guarded: `gen --out - | bench -`). */
static void test_bench_slow_writers(void)
{
    char fifo[700], db[700], cmd[5000];
    snprintf(fifo, sizeof fifo, "%s/slow.kp", so_test_tmpdir());
    snprintf(db, sizeof db, "%s/slow.db", so_test_tmpdir());
    unlink(fifo);
    unlink(db);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    snprintf(cmd, sizeof cmd,
             "(head -c 300 " KP "; sleep 1.2; tail -c +301 " KP " | head -c 300; sleep 1.2;"
             " tail -c +601 " KP ") > %s & %s bench --backends kp-greedy --reference kp-dp"
             " --time-limit 1 --db %s %s; s=$?; wait; exit $s",
             fifo, SO_BINARY, db, fifo);
    double dt;
    int code = shell(cmd, &dt);
    CU_ASSERT_EQUAL(code, 0);
    CU_ASSERT(dt >= 2.4);
    unlink(fifo);
    unlink(db);
    snprintf(cmd, sizeof cmd,
             "(sleep 1.5; cat " KP ") | %s bench --backends kp-greedy --reference kp-dp"
             " --time-limit 0.2 --db %s -", SO_BINARY, db);
    code = shell(cmd, &dt);
    CU_ASSERT_EQUAL(code, 0);
    CU_ASSERT(dt >= 1.5);
    unlink(db);
}

/* A SIGALRM blocked by the parent (a mask survives exec) does not disable
 * the guard: bench on a FIFO nobody writes still exits 2 after 1 s. */
static void test_guard_alarm_blocked(void)
{
    char fifo[700], db[700];
    snprintf(fifo, sizeof fifo, "%s/blocked.kp", so_test_tmpdir());
    snprintf(db, sizeof db, "%s/blocked.db", so_test_tmpdir());
    unlink(fifo);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        sigset_t alrm;
        sigemptyset(&alrm);
        sigaddset(&alrm, SIGALRM);
        sigprocmask(SIG_BLOCK, &alrm, NULL);
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(126);
        execl(SO_BINARY, "slotopt", "bench", "--backends", "kp-greedy", "--reference",
              "kp-dp", "--time-limit", "0.2", "--db", db, fifo, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    pid_t got = 0;
    for (int i = 0; i < 300 && got == 0; i++) { /* 15 s at most */
        got = waitpid(pid, &status, WNOHANG);
        if (got == 0)
            usleep(50000);
    }
    if (got == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    CU_ASSERT_EQUAL(got, pid);
    CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 2);
    unlink(fifo);
}

static CU_TestInfo tests[] = {
    {"form feeds, vertical tabs, control bytes: every reader returns", test_odd_bytes},
    {"bench on a form-feed file: exit 2 at once", test_bench_odd_file},
    {"bench reads its inputs within the time limit", test_bench_input_bounded},
    {"only inputs that can wait for ever are guarded", test_guarded_kinds},
    {"slow writers on a FIFO and on stdin are read", test_bench_slow_writers},
    {"a blocked SIGALRM does not disable the guard", test_guard_alarm_blocked},
    CU_TEST_INFO_NULL,
};
SO_SUITE("reader-hangs", tests)
