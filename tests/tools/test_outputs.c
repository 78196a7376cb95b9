/* test_outputs.c — issue 20 items 1-2: outputs never replace what is not a
 * regular file (symbolic links keep pointing at their target, which is
 * written; FIFOs and character devices are written in place; a folder is an
 * error), and every write failure is exit 2 with a message (standard output
 * or an output file on /dev/full). Links, FIFOs and devices are made in the
 * test's temporary folder; the system's /dev is used only for /dev/full. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/test_util.h"

#define KP "instances/knapsack/pisinger/knapPI_1_100_1000_1.kp"
#define WORKLOAD "instances/cluster/two_pools.json"
#define PARETO "instances/pareto/two-jobs.json"

/* Runs a shell command line (printf-style; the binary is SO_BINARY), its
 * stderr captured into *err (caller frees) when err is not NULL. */
static int run_sh(char **err, const char *fmt, ...)
{
    char line[6000], cmd[8000], efile[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    snprintf(efile, sizeof efile, "%s/outputs.err", so_test_tmpdir());
    snprintf(cmd, sizeof cmd, "%s 2>%s", line, efile);
    int st = system(cmd);
    if (err)
        *err = so_test_slurp(efile);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define tpath so_test_path

static int is_link(const char *p)
{
    struct stat st;
    return lstat(p, &st) == 0 && S_ISLNK(st.st_mode);
}

/* No "<name>.tmp*" file is left beside path's target. */
static int no_temporaries(void)
{
    char cmd[900];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q '\\.tmp'", so_test_tmpdir());
    return system(cmd) != 0;
}

/* Every output option writes through a symbolic link, which stays a link. */
static void test_links_followed(void)
{
    struct {
        const char *args, *expect;
    } cases[] = {
        {"solve " KP " -o %s", "\"objective\""},
        {"sim " WORKLOAD " --scheduler fair -o %s", "\"makespan\""},
        {"sim " WORKLOAD " --scheduler fair --events-out %s", "launch job="},
        {"frontier " PARETO " -o %s", "\"frontiers\""},
        {"export --format lp " KP " -o %s", "Maximize"},
        {"sim " WORKLOAD " --scheduler fair --plot %s", "<svg"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char target[64], link[64], args[1200];
        /* a plot's type follows the extension: the plot case uses .svg */
        const char *ext = i == 5 ? ".svg" : "";
        snprintf(target, sizeof target, "link-target-%zu%s", i, i == 5 ? ".svg" : ".txt");
        snprintf(link, sizeof link, "link-%zu%s", i, ext);
        unlink(tpath(link));
        unlink(tpath(target));
        /* relative link, dangling at first: its target is created */
        CU_ASSERT_EQUAL_FATAL(symlink(target, tpath(link)), 0);
        snprintf(args, sizeof args, cases[i].args, tpath(link));
        char *err = NULL;
        int code = run_sh(&err, "%s %s >/dev/null", SO_BINARY, args);
        if (code && i == 5 && err && strstr(err, "gnuplot")) {
            fprintf(stderr, "\n  (no gnuplot: --plot through a link not tested) ");
            free(err);
            continue;
        }
        CU_ASSERT_EQUAL(code, 0);
        free(err);
        CU_ASSERT(is_link(tpath(link)));
        char *text = so_test_slurp(tpath(target));
        CU_ASSERT_PTR_NOT_NULL(text && strstr(text, cases[i].expect));
        free(text);
        /* and again, now that the target exists: replaced atomically */
        CU_ASSERT_EQUAL(run_sh(NULL, "%s %s >/dev/null", SO_BINARY, args), 0);
        CU_ASSERT(is_link(tpath(link)));
        text = so_test_slurp(tpath(target));
        CU_ASSERT_PTR_NOT_NULL(text && strstr(text, cases[i].expect));
        free(text);
    }
    CU_ASSERT(no_temporaries());
}

/* The case: a link to /proc/self/fd/1 writes to whatever standard
 * output is (here a pipe) and stays a link. */
static void test_link_to_stdout(void)
{
    const char *link = tpath("to-stdout");
    unlink(link);
    if (symlink("/proc/self/fd/1", link) != 0 || access("/proc/self/fd/1", F_OK) != 0) {
        fprintf(stderr, "\n  (no /proc/self/fd: test skipped) ");
        return;
    }
    const char *got = tpath("to-stdout.read");
    CU_ASSERT_EQUAL(run_sh(NULL, "%s solve %s -o %s | cat > %s", SO_BINARY, KP, link, got),
                    0);
    char *text = so_test_slurp(got);
    CU_ASSERT_PTR_NOT_NULL(text && strstr(text, "\"objective\": 9147"));
    free(text);
    CU_ASSERT(is_link(link));
    /* and when standard output is a regular file: that file gets it */
    CU_ASSERT_EQUAL(run_sh(NULL, "%s solve %s -o %s > %s", SO_BINARY, KP, link, got), 0);
    text = so_test_slurp(got);
    CU_ASSERT_PTR_NOT_NULL(text && strstr(text, "\"objective\": 9147"));
    free(text);
    CU_ASSERT(is_link(link));
}

/* A FIFO is written in place: the reader gets the output, the FIFO stays. */
static void test_fifo(void)
{
    const char *fifo = tpath("out.fifo");
    unlink(fifo);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    const char *args[] = {"solve " KP " -o %s",
                          "sim " WORKLOAD " --scheduler fair --events-out %s",
                          "export --format mps " KP " -o %s"};
    const char *expect[] = {"\"objective\"", "launch job=", "ROWS"};
    const char *got = tpath("fifo.read");
    for (size_t i = 0; i < 3; i++) {
        char a[1200];
        snprintf(a, sizeof a, args[i], fifo);
        /* a reader in the background, the program writes into the FIFO */
        CU_ASSERT_EQUAL(run_sh(NULL, "timeout 20 cat %s > %s & %s %s >/dev/null; wait", fifo, got,
                               SO_BINARY, a), 0);
        char *text = so_test_slurp(got);
        CU_ASSERT_PTR_NOT_NULL(text && strstr(text, expect[i]));
        free(text);
        struct stat st;
        CU_ASSERT(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    }
    CU_ASSERT(no_temporaries());
}

/* A character device made in the temporary folder (mknod needs root) is
 * written, never replaced: a null device swallows the output, a full one
 * makes the command fail with exit 2. */
static void test_char_device(void)
{
    if (geteuid() != 0) {
        fprintf(stderr, "\n  (not root: mknod unavailable, device test skipped) ");
        return;
    }
    const char *null = tpath("null.dev"), *full = tpath("full.dev");
    unlink(null);
    unlink(full);
    if (mknod(null, S_IFCHR | 0666, makedev(1, 3)) != 0 ||
        mknod(full, S_IFCHR | 0666, makedev(1, 7)) != 0) {
        fprintf(stderr, "\n  (mknod refused: %s; device test skipped) ", strerror(errno));
        return;
    }
    const char *cmds[] = {"solve " KP " -o %s", "sim " WORKLOAD " --scheduler fair -o %s",
                          "sim " WORKLOAD " --scheduler fair --events-out %s",
                          "frontier " PARETO " -o %s", "export --format mps " KP " -o %s"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char a[1200];
        snprintf(a, sizeof a, cmds[i], null);
        CU_ASSERT_EQUAL(run_sh(NULL, "%s %s >/dev/null", SO_BINARY, a), 0);
        struct stat st;
        CU_ASSERT(lstat(null, &st) == 0 && S_ISCHR(st.st_mode));
        snprintf(a, sizeof a, cmds[i], full);
        char *err = NULL;
        CU_ASSERT_EQUAL(run_sh(&err, "%s %s >/dev/null", SO_BINARY, a), 2);
        CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "No space left on device"));
        free(err);
        CU_ASSERT(lstat(full, &st) == 0 && S_ISCHR(st.st_mode));
    }
    CU_ASSERT(no_temporaries());
}

/* A folder as an output is an error naming it; nothing is written in it. */
static void test_folder_refused(void)
{
    const char *dir = tpath("outdir");
    mkdir(dir, 0777);
    char *err = NULL;
    CU_ASSERT_EQUAL(run_sh(&err, "%s solve %s -o %s >/dev/null", SO_BINARY, KP, dir), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "is a folder"));
    free(err);
    CU_ASSERT_EQUAL(run_sh(&err, "%s export --format lp %s -o %s >/dev/null", SO_BINARY,
                           KP, dir), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "is a folder"));
    free(err);
    struct stat st;
    CU_ASSERT(stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
    CU_ASSERT_EQUAL(rmdir(dir), 0); /* still empty */
}

/* Standard output on a full device: every command says so, exit 2. */
static void test_stdout_full(void)
{
    if (access("/dev/full", W_OK) != 0) {
        fprintf(stderr, "\n  (no /dev/full: full-device test skipped) ");
        return;
    }
    const char *db = tpath("full.db");
    char bench[1500], report[900];
    snprintf(bench, sizeof bench,
             "bench --backends kp-greedy --reference kp-dp --db %s " KP, db);
    snprintf(report, sizeof report, "report --db %s", db);
    const char *cmds[] = {"sim " WORKLOAD " --scheduler fair",
                          "sim " WORKLOAD " --scheduler fair --format table",
                          "frontier " PARETO,
                          "families",
                          "backends",
                          bench,
                          report,
                          "solve " KP,
                          "export --format mps " KP,
                          "export --format lp " KP,
                          "gen knapsack --set n=5 --out -",
                          "--help"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char *err = NULL;
        int code = run_sh(&err, "%s %s >/dev/full", SO_BINARY, cmds[i]);
        if (code != 2 || !err || !strstr(err, "cannot write"))
            fprintf(stderr, "\n  '%s' > /dev/full: exit %d, %s", cmds[i], code,
                    err ? err : "");
        CU_ASSERT_EQUAL(code, 2);
        CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "cannot write"));
        CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "No space left on device"));
        free(err);
    }
}

/* The library: a dropped output leaves nothing; a kept one is complete. */
static void test_library_output(void)
{
    so_error err;
    so_output *o = NULL;
    const char *p = tpath("lib-out.txt");
    unlink(p);
    CU_ASSERT_EQUAL_FATAL(so_output_open(p, &o, &err), SO_OK);
    CU_ASSERT_PTR_NOT_NULL(so_output_temp_path(o));
    fputs("partial", so_output_file(o));
    CU_ASSERT_EQUAL(so_output_close(o, 0, &err), SO_OK);
    CU_ASSERT_NOT_EQUAL(access(p, F_OK), 0);
    CU_ASSERT(no_temporaries());
    CU_ASSERT_EQUAL_FATAL(so_output_open(p, &o, &err), SO_OK);
    fputs("whole\n", so_output_file(o));
    CU_ASSERT_EQUAL(access(p, F_OK) == 0, 0); /* not there until closed */
    CU_ASSERT_EQUAL(so_output_close(o, 1, &err), SO_OK);
    char *text = so_test_slurp(p);
    CU_ASSERT_STRING_EQUAL(text ? text : "", "whole\n");
    free(text);
    /* an existing file's mode is kept */
    CU_ASSERT_EQUAL(chmod(p, 0640), 0);
    CU_ASSERT_EQUAL(so_write_file_atomic(p, "again\n", 6, &err), SO_OK);
    struct stat st;
    CU_ASSERT(stat(p, &st) == 0 && (st.st_mode & 0777) == 0640);
    /* a link loop is an error, not a hang */
    const char *loop = tpath("loop");
    unlink(loop);
    CU_ASSERT_EQUAL(symlink("loop", loop), 0);
    CU_ASSERT_EQUAL(so_output_open(loop, &o, &err), SO_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "link"));
    CU_ASSERT_EQUAL(so_output_open(NULL, &o, &err), SO_EINVAL);
    if (access("/dev/full", W_OK) == 0) {
        CU_ASSERT_EQUAL(so_write_file_atomic("/dev/full", "x\n", 2, &err), SO_EIO);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "No space left on device"));
    }
}

/* report --plot DIR: a plot that is a link in DIR stays a link. */
static void test_report_plot_link(void)
{
    const char *db = tpath("plot.db"), *dir = tpath("plots");
    mkdir(dir, 0777);
    CU_ASSERT_EQUAL_FATAL(run_sh(NULL, "%s bench --backends kp-greedy --reference kp-dp"
                                 " --db %s %s >/dev/null", SO_BINARY, db, KP), 0);
    const char *link = tpath("plots/gaps-knapsack.svg");
    unlink(link);
    CU_ASSERT_EQUAL_FATAL(symlink("../plot-target.svg", link), 0);
    char *err = NULL;
    int code = run_sh(&err, "%s report --db %s --plot %s >/dev/null", SO_BINARY, db, dir);
    if (code == 0 && err && strstr(err, "gnuplot") && strstr(err, "skipped")) {
        fprintf(stderr, "\n  (no gnuplot: report --plot link not tested) ");
        free(err);
        return;
    }
    CU_ASSERT_EQUAL(code, 0);
    free(err);
    CU_ASSERT(is_link(link));
    char *text = so_test_slurp(tpath("plot-target.svg"));
    CU_ASSERT_PTR_NOT_NULL(text && strstr(text, "<svg"));
    free(text);
}

/* report --plot DIR writes its data, scripts and gnuplot's output in a
 * private folder and renames them into DIR: links planted in DIR under
 * those names (NAME.dat, NAME.gp, the old scratch name NAME.svg.tmp) are
 * replaced or left alone, their targets untouched; with gnuplot and
 * without. The published script writes NAME.svg (no scratch name). */
static void test_report_plot_planted(void)
{
    char db[700];
    snprintf(db, sizeof db, "%s", tpath("planted.db"));
    CU_ASSERT_EQUAL_FATAL(run_sh(NULL, "%s bench --backends kp-greedy --reference kp-dp"
                                 " --db %s %s >/dev/null", SO_BINARY, db, KP), 0);
    static const char *const names[] = {"gaps-knapsack.dat", "gaps-knapsack.gp",
                                        "gaps-knapsack.svg.tmp"};
    for (int with_gnuplot = 0; with_gnuplot < 2; with_gnuplot++) {
        char dir[700], cmd[2000];
        snprintf(dir, sizeof dir, "%s", tpath(with_gnuplot ? "planted-g" : "planted-n"));
        mkdir(dir, 0700);
        for (int i = 0; i < 3; i++) {
            char link[800], target[800], rel[300], tname[64];
            snprintf(tname, sizeof tname, "planted-target-%d", i);
            snprintf(target, sizeof target, "%s", tpath(tname));
            snprintf(link, sizeof link, "%s/%s", dir, names[i]);
            snprintf(rel, sizeof rel, "../%s", tname);
            FILE *fp = fopen(target, "w");
            CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
            fputs("KEEP\n", fp);
            fclose(fp);
            unlink(link);
            CU_ASSERT_EQUAL_FATAL(symlink(rel, link), 0);
        }
        char *err = NULL;
        int code = run_sh(&err, "%s %s report --db %s --plot %s >/dev/null",
                          with_gnuplot ? "" : "SLOTOPT_GNUPLOT=/nonexistent/gnuplot",
                          SO_BINARY, db, dir);
        int drawn = with_gnuplot && !(err && strstr(err, "skipped"));
        if (code != 0)
            fprintf(stderr, "\n  report --plot: exit %d: %s", code, err ? err : "");
        free(err);
        CU_ASSERT_EQUAL(code, 0);
        for (int i = 0; i < 3; i++) {
            char tname[64];
            snprintf(tname, sizeof tname, "planted-target-%d", i);
            char *text = so_test_slurp(tpath(tname));
            CU_ASSERT_PTR_NOT_NULL(text && !strcmp(text, "KEEP\n"));
            free(text);
        }
        /* the data and script are DIR's own files now */
        for (int i = 0; i < 2; i++) {
            char path[800];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            struct stat st;
            CU_ASSERT(lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0);
        }
        /* the published script draws NAME.svg itself: re-run in DIR, it
         * writes no fixed scratch name a link could be planted as */
        char gp_path[800];
        snprintf(gp_path, sizeof gp_path, "%s/gaps-knapsack.gp", dir);
        char *gp = so_test_slurp(gp_path);
        CU_ASSERT_PTR_NOT_NULL(gp && strstr(gp, "set output 'gaps-knapsack.svg'\n") &&
                               !strstr(gp, ".tmp"));
        free(gp);
        if (drawn) {
            char svg[800];
            snprintf(svg, sizeof svg, "%s/gaps-knapsack.svg", dir);
            char *text = so_test_slurp(svg);
            CU_ASSERT_PTR_NOT_NULL(text && strstr(text, "<svg"));
            free(text);
        }
        /* no private folder left behind */
        snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -q '^\\.slotopt-plot'", dir);
        CU_ASSERT_NOT_EQUAL(system(cmd), 0);
    }
}

static CU_TestInfo tests[] = {
    {"report --plot: links planted in DIR are not written through", test_report_plot_planted},
    {"report --plot keeps a link in its folder", test_report_plot_link},
    {"-o, --events-out, --plot, export -o write through links", test_links_followed},
    {"a FIFO is written in place", test_fifo},
    {"a link to /proc/self/fd/1 writes stdout", test_link_to_stdout},
    {"a character device is written, never replaced", test_char_device},
    {"a folder as output is an error", test_folder_refused},
    {"stdout on /dev/full: exit 2 for every command", test_stdout_full},
    {"so_output: dropped leaves nothing, mode kept", test_library_output},
    CU_TEST_INFO_NULL,
};

SO_SUITE("outputs", tests)
