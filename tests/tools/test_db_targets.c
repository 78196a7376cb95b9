/* test_db_targets.c — issue 26 item 2: the results database (--db of
 * bench, report, tour) is an output like the others. What is not a regular
 * file (a device, a FIFO, a folder) is refused by name before SQLite opens
 * it: /dev/null and /dev/full stay as they are and no /dev/null-journal
 * appears; a FIFO is refused at once, not waited on. A new database that
 * cannot be written (a full disk: a 64 KiB tmpfs, and a file-size limit)
 * is removed with its -journal, -wal and -shm files. Every run is under
 * `timeout -s KILL`. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/test_util.h"

#define KP "instances/knapsack/pisinger/knapPI_1_100_1000_1.kp"
#define BENCH "bench --backends kp-greedy --reference kp-dp"

#define tpath so_test_path

/* Runs "slotopt ARGS" (printf-style) under a 60 s limit; stderr in *err. */
static int run(char **err, const char *fmt, ...)
{
    char args[4000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return so_test_run_timeout(60, args, NULL, err);
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* No PATH-journal, PATH-wal or PATH-shm (removed if found, so that a
 * failing run leaves /dev clean). */
static int no_sidecars(const char *path)
{
    static const char *const ext[] = {"-journal", "-wal", "-shm"};
    int none = 1;
    for (int i = 0; i < 3; i++) {
        char side[800];
        snprintf(side, sizeof side, "%s%s", path, ext[i]);
        if (exists(side)) {
            fprintf(stderr, "\n  %s left behind", side);
            unlink(side);
            none = 0;
        }
    }
    return none;
}

/* bench, report and tour on a device, a FIFO and a folder: exit 2, the
 * path and "not a regular file" in the message, the target unchanged. */
static void test_not_regular(void)
{
    const char *fifo = tpath("db.fifo"), *dir = tpath("db.dir");
    unlink(fifo);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    mkdir(dir, 0700);
    const char *targets[] = {"/dev/null", "/dev/full", fifo, dir};
    const char *cmds[] = {BENCH " --db %s " KP, "report --db %s", "tour --db %s",
                          "bench --scenario knapsack --db %s"};
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        if (t < 2 && access(targets[t], W_OK) != 0)
            continue;
        struct stat before;
        CU_ASSERT_EQUAL_FATAL(stat(targets[t], &before), 0);
        for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
            char *err = NULL;
            char fmt[200];
            snprintf(fmt, sizeof fmt, "%s", cmds[c]);
            int code = run(&err, fmt, targets[t]);
            if (code != 2 || !err || !strstr(err, targets[t]) ||
                !strstr(err, "not a regular file"))
                fprintf(stderr, "\n  %s on %s: exit %d: %s", cmds[c], targets[t], code,
                        err ? err : "");
            CU_ASSERT_EQUAL(code, 2);
            CU_ASSERT_PTR_NOT_NULL(err && strstr(err, targets[t]) &&
                                   strstr(err, "not a regular file"));
            free(err);
            struct stat after;
            CU_ASSERT(lstat(targets[t], &after) == 0 &&
                      (after.st_mode & S_IFMT) == (before.st_mode & S_IFMT) &&
                      after.st_rdev == before.st_rdev);
            CU_ASSERT(no_sidecars(targets[t]));
        }
    }
    unlink(fifo);
    rmdir(dir);
}

/* report on a database that does not exist: exit 2 naming it, and it is
 * not created. */
static void test_report_missing(void)
{
    const char *db = tpath("missing.db");
    unlink(db);
    char *err = NULL;
    CU_ASSERT_EQUAL(run(&err, "report --db %s", db), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, db));
    free(err);
    CU_ASSERT(!exists(db));
    CU_ASSERT(no_sidecars(db));
}

/* A symbolic link to a regular file is the file: bench writes it, report
 * reads it, the link stays. */
static void test_link_to_file(void)
{
    const char *db = tpath("linked-target.db"), *link = tpath("linked.db");
    unlink(db);
    unlink(link);
    CU_ASSERT_EQUAL_FATAL(symlink("linked-target.db", link), 0);
    CU_ASSERT_EQUAL(run(NULL, BENCH " --db %s " KP, link), 0);
    struct stat st;
    CU_ASSERT(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    CU_ASSERT(stat(db, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0);
    CU_ASSERT_EQUAL(run(NULL, "report --db %s", link), 0);
}

/* The files of folder dir whose name starts with "new.db". */
static int leftovers(const char *dir)
{
    char cmd[900];
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -q '^new\\.db'", dir);
    return system(cmd) == 0;
}

/* bench --db DIR/new.db where the disk fills: exit 2, no new.db* left.
 * limit: "" or a `ulimit -f` in 512-byte blocks for the program. */
static void full_disk_case(const char *dir, const char *limit)
{
    char cmd[3000], efile[800];
    snprintf(efile, sizeof efile, "%s/full-disk.err", so_test_tmpdir());
    /* a folder of instances: a few dozen rows, more than 64 KiB of WAL;
     * SIGXFSZ ignored, so that a write past the limit fails (EFBIG) */
    snprintf(cmd, sizeof cmd,
             "timeout -s KILL 120 sh -c 'trap \"\" XFSZ; %s%s exec \"$0\" \"$@\"' %s"
             " " BENCH " --db %s/new.db instances/knapsack/pisinger >/dev/null 2>%s"
             " </dev/null",
             limit[0] ? "ulimit -f " : "", limit[0] ? limit : "", SO_BINARY, dir, efile);
    int st = system(cmd);
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    char *err = so_test_slurp(efile);
    if (code != 2 || leftovers(dir))
        fprintf(stderr, "\n  full disk (%s): exit %d: %s", limit[0] ? "rlimit" : "tmpfs",
                code, err ? err : "");
    CU_ASSERT_EQUAL(code, 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "new.db"));
    free(err);
    CU_ASSERT(!leftovers(dir));
}

/* A 64 KiB tmpfs (root), then 16 KiB of it free, then none: a new
 * database that cannot be written is removed with its sidecar files. */
static void test_full_tmpfs(void)
{
    const char *dir = tpath("small-fs");
    mkdir(dir, 0700);
    if (mount("tmpfs", dir, "tmpfs", 0, "size=64k") != 0) {
        /* not silent: the file-size limit test below covers the same path */
        fprintf(stderr, "\n  (mount tmpfs: %s; the full disk is tested with a"
                        " file-size limit only) ", strerror(errno));
        CU_ASSERT(errno == EPERM || errno == EACCES || errno == ENODEV);
        rmdir(dir);
        return;
    }
    full_disk_case(dir, "");
    /* nearly full, then full: the database cannot even be created */
    const long fill[] = {48 * 1024, 64 * 1024};
    for (int i = 0; i < 2; i++) {
        char filler[800], cmd[1200];
        snprintf(filler, sizeof filler, "%s/filler", dir);
        snprintf(cmd, sizeof cmd, "head -c %ld /dev/zero > '%s' 2>/dev/null", fill[i],
                 filler);
        CU_ASSERT(system(cmd) >= 0);
        full_disk_case(dir, "");
        unlink(filler);
    }
    CU_ASSERT_EQUAL(umount(dir), 0);
    rmdir(dir);
}

/* The same with RLIMIT_FSIZE (SIGXFSZ ignored: writes past 40 KiB fail
 * with EFBIG), which needs no privilege. */
static void test_full_rlimit(void)
{
    const char *dir = tpath("fsize");
    mkdir(dir, 0700);
    full_disk_case(dir, "80;");
    /* an existing database is kept whatever happens (only a new one is
     * removed): one instance stored, then the folder fails at the limit */
    char db[800], cmd[3000];
    snprintf(db, sizeof db, "%s/kept.db", dir);
    CU_ASSERT_EQUAL(run(NULL, BENCH " --db %s " KP, db), 0);
    snprintf(cmd, sizeof cmd,
             "timeout -s KILL 120 sh -c 'trap \"\" XFSZ; ulimit -f 80; exec \"$0\" \"$@\"' %s"
             " " BENCH " --db %s instances/knapsack/pisinger >/dev/null 2>&1 </dev/null",
             SO_BINARY, db);
    int st = system(cmd);
    CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 2);
    CU_ASSERT(exists(db));
    CU_ASSERT_EQUAL(run(NULL, "report --db %s", db), 0);
}

static CU_TestInfo tests[] = {
    {"--db on a device, FIFO or folder: refused by name, untouched", test_not_regular},
    {"report on a missing database: refused, not created", test_report_missing},
    {"--db through a link to a regular file", test_link_to_file},
    {"a full disk (64 KiB tmpfs) leaves no partial database", test_full_tmpfs},
    {"a file-size limit leaves no partial database", test_full_rlimit},
    CU_TEST_INFO_NULL,
};
SO_SUITE("db-targets", tests)
