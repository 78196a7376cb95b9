/* test_export_scratch.c — issue 26 item 5: `export` killed by SIGTERM
 * leaves no scratch model behind (it once left /tmp/slotopt-export-XXXXXX/
 * model, whatever TMPDIR said): the model is written to an anonymous memory
 * file; without /proc (a mount namespace with an empty /proc) the scratch
 * folder is made in $TMPDIR. The export is held at its output, a FIFO
 * nobody reads, killed there, and every place a scratch file could be is
 * searched for the model's unique name. Plots (sim --plot, frontier
 * --plot) draw in a private folder in $TMPDIR too. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tests/test_util.h"

#define KP "instances/knapsack/pisinger/knapPI_1_100_1000_1.kp"

/* 1 when a file under folder `dir` (or /tmp/slotopt-export-*) holds text. */
static int found(const char *dir, const char *text)
{
    char cmd[2000];
    snprintf(cmd, sizeof cmd,
             "grep -rqs -- '%s' '%s' /tmp/slotopt-export-* 2>/dev/null", text, dir);
    return system(cmd) == 0;
}

/* 1 when the folder holds no entry besides . and .. */
static int empty_folder(const char *dir)
{
    char cmd[1000];
    snprintf(cmd, sizeof cmd, "[ -z \"$(ls -A '%s')\" ]", dir);
    return system(cmd) == 0;
}

/* Starts `slotopt export --format lp -o FIFO inst` with TMPDIR=tmpdir (in a
 * mount namespace without /proc when no_proc), kills it with sig once it
 * waits at the FIFO; its wait status. */
static int export_killed(const char *inst, const char *fifo, const char *tmpdir, int no_proc,
                         int sig)
{
    pid_t pid = fork();
    if (pid == 0) {
        setenv("TMPDIR", tmpdir, 1);
        /* a suite started in the background inherits SIGINT ignored, which
         * the program rightly keeps (a shell's background job): the test
         * is of a program that can be interrupted */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        if (no_proc)
            execlp("unshare", "unshare", "-m", "sh", "-c",
                   "mount -t tmpfs none /proc && exec \"$0\" \"$@\"", SO_BINARY, "export",
                   "--format", "lp", "-o", fifo, inst, (char *)NULL);
        else
            execl(SO_BINARY, SO_BINARY, "export", "--format", "lp", "-o", fifo, inst,
                  (char *)NULL);
        _exit(127);
    }
    /* the model (100 items) is written in milliseconds; then the program
     * waits for a reader of the FIFO */
    struct timespec pause = {1, 0};
    nanosleep(&pause, NULL);
    kill(pid, sig);
    int st = 0;
    waitpid(pid, &st, 0);
    return st;
}

static void test_killed_export(void)
{
    char name[64], inst[700], fifo[700], tmpdir[700], text[100];
    snprintf(name, sizeof name, "scratch-%ld", (long)getpid());
    snprintf(inst, sizeof inst, "%s/%s.kp", so_test_tmpdir(), name);
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "cp %s '%s'", KP, inst);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    snprintf(fifo, sizeof fifo, "%s/export.fifo", so_test_tmpdir());
    snprintf(tmpdir, sizeof tmpdir, "%s/export-tmp", so_test_tmpdir());
    mkdir(tmpdir, 0700);
    unlink(fifo);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    snprintf(text, sizeof text, "Problem: %s", name); /* the LP file's header */
    int sigs[] = {SIGTERM, SIGINT};
    for (int i = 0; i < 2; i++) {
        int st = export_killed(inst, fifo, tmpdir, 0, sigs[i]);
        CU_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i]); /* it was waiting */
        CU_ASSERT(!found(tmpdir, text));
        CU_ASSERT(empty_folder(tmpdir));
    }
    /* the export itself still works, and leaves nothing in TMPDIR */
    char out[800];
    snprintf(out, sizeof out, "%s/model.lp", so_test_tmpdir());
    snprintf(cmd, sizeof cmd, "export --format lp -o %s %s", out, inst);
    CU_ASSERT_EQUAL(so_test_run(cmd, NULL, NULL), 0);
    char *lp = so_test_slurp(out);
    CU_ASSERT_PTR_NOT_NULL(lp && strstr(lp, text) && strstr(lp, "Maximize"));
    free(lp);
    CU_ASSERT(empty_folder(tmpdir));
    unlink(fifo);
}

/* Without /proc (no memory file to name) the scratch folder is made in
 * $TMPDIR: a TMPDIR that does not exist is an error naming it; an existing
 * one is left empty after the export. */
static void test_no_proc_uses_tmpdir(void)
{
#ifdef __SANITIZE_ADDRESS__
    /* ASan's runtime reads /proc/self/maps at start: no run without /proc */
    fprintf(stderr, "\n  (ASan build: the TMPDIR fallback without /proc not tested) ");
    return;
#endif
    if (geteuid() != 0 || system("unshare -m true 2>/dev/null") != 0) {
        fprintf(stderr, "\n  (no mount namespace: the TMPDIR fallback not tested) ");
        return;
    }
    char tmpdir[700], out[700], cmd[3000], efile[700];
    snprintf(tmpdir, sizeof tmpdir, "%s/no-proc-tmp", so_test_tmpdir());
    snprintf(out, sizeof out, "%s/no-proc.lp", so_test_tmpdir());
    snprintf(efile, sizeof efile, "%s/no-proc.err", so_test_tmpdir());
    mkdir(tmpdir, 0700);
    const char *base = "TMPDIR='%s%s' unshare -m sh -c 'mount -t tmpfs none /proc &&"
                       " exec \"$0\" \"$@\"' %s export --format lp -o %s " KP " 2>%s";
    snprintf(cmd, sizeof cmd, base, tmpdir, "", SO_BINARY, out, efile);
    CU_ASSERT_EQUAL(system(cmd), 0);
    char *lp = so_test_slurp(out);
    CU_ASSERT_PTR_NOT_NULL(lp && strstr(lp, "Maximize"));
    free(lp);
    CU_ASSERT(empty_folder(tmpdir));
    snprintf(cmd, sizeof cmd, base, tmpdir, "/missing", SO_BINARY, out, efile);
    int st = system(cmd);
    CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 2);
    char *err = so_test_slurp(efile);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "no-proc-tmp/missing/slotopt-export-"));
    free(err);
}

/* sim --plot and frontier --plot draw in a private folder in $TMPDIR (not
 * always /tmp): a TMPDIR that does not exist is an error naming it; in an
 * existing one nothing is left. */
static void test_plots_use_tmpdir(void)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "\n  (no gnuplot: the plots' TMPDIR not tested) ");
        return;
    }
    char tmpdir[700], out[700], args[2400];
    snprintf(tmpdir, sizeof tmpdir, "%s/plot-tmp", so_test_tmpdir());
    snprintf(out, sizeof out, "%s/scratch-plot.svg", so_test_tmpdir());
    mkdir(tmpdir, 0700);
    const char *cmds[] = {"sim instances/cluster/two_pools.json --scheduler fair --plot %s",
                          "frontier instances/pareto/two-jobs.json --plot %s"};
    for (int i = 0; i < 2; i++) {
        char cmd[1200];
        snprintf(cmd, sizeof cmd, cmds[i], out);
        snprintf(args, sizeof args, "%s >/dev/null", cmd);
        char line[6000];
        snprintf(line, sizeof line, "TMPDIR='%s' %s %s", tmpdir, SO_BINARY, args);
        CU_ASSERT_EQUAL(system(line), 0);
        char *svg = so_test_slurp(out);
        CU_ASSERT_PTR_NOT_NULL(svg && strstr(svg, "<svg"));
        free(svg);
        CU_ASSERT(empty_folder(tmpdir));
        char efile[700];
        snprintf(efile, sizeof efile, "%s/plot-tmp.err", so_test_tmpdir());
        snprintf(line, sizeof line, "TMPDIR='%s/missing' %s %s 2>%s", tmpdir, SO_BINARY,
                 args, efile);
        int st = system(line);
        CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 2);
        char *err = so_test_slurp(efile);
        CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "plot-tmp/missing/slotopt-plot-"));
        free(err);
    }
}

static CU_TestInfo tests[] = {
    {"sim --plot and frontier --plot draw in $TMPDIR", test_plots_use_tmpdir},
    {"export killed by SIGTERM or SIGINT leaves no scratch model", test_killed_export},
    {"without /proc the scratch folder is in $TMPDIR", test_no_proc_uses_tmpdir},
    CU_TEST_INFO_NULL,
};
SO_SUITE("export-scratch", tests)
