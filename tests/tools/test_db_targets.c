/* test_db_targets.c — issue 26 item 2: the results database (--db of
 * bench, report, tour) is an output like the others. What is not a regular
 * file (a device, a FIFO, a folder) is refused by name before SQLite opens
 * it: /dev/null and /dev/full stay as they are and no /dev/null-journal
 * appears; a FIFO is refused at once, not waited on. A new database that
 * cannot be written (a full disk: a 64 KiB tmpfs, and a file-size limit)
 * is removed with its -journal, -wal and -shm files unless it holds rows
 * (then kept for --resume) or another process uses it; SQLite's special
 * names ('', :memory:, file:) are refused or plain files. Every run is
 * under `timeout -s KILL`. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/test_util.h"
#include "tools/harness/harness.h"

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
    /* rows committed before the disk filled stay (said so), readable */
    int kept = err && strstr(err, "cells kept; --resume continues");
    if (code != 2 || (leftovers(dir) && !kept))
        fprintf(stderr, "\n  full disk (%s): exit %d: %s", limit[0] ? "rlimit" : "tmpfs",
                code, err ? err : "");
    CU_ASSERT_EQUAL(code, 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "new.db"));
    free(err);
    if (kept) {
        CU_ASSERT_EQUAL(run(NULL, "report --db %s/new.db", dir), 0);
        snprintf(cmd, sizeof cmd, "rm -f '%s'/new.db*", dir);
        CU_ASSERT_EQUAL(system(cmd), 0);
    }
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


/* Removes path and its sidecar files. */
static void remove_db(const char *path)
{
    static const char *const ext[] = {"", "-journal", "-wal", "-shm"};
    for (int i = 0; i < 4; i++) {
        char p[900];
        snprintf(p, sizeof p, "%s%s", path, ext[i]);
        unlink(p);
    }
}

/* Another process using a database: forked before this one opens any
 * (a child forked from a process with open SQLite connections shares
 * SQLite's idea of which locks are held), it waits for go(), then opens
 * path, runs sql, says so, and keeps the connection open (hold) or closes
 * it at once, until end(). */
typedef struct {
    pid_t pid;
    int go, ready, release;
} other_conn;

static other_conn other_start(const char *path, const char *sql, int hold)
{
    int go[2], ready[2], release[2];
    CU_ASSERT_FATAL(pipe(go) == 0 && pipe(ready) == 0 && pipe(release) == 0);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        close(go[1]);
        close(ready[0]);
        close(release[1]);
        char b;
        if (read(go[0], &b, 1) != 1)
            _exit(1);
        sqlite3 *db = NULL;
        int ok = sqlite3_open(path, &db) == SQLITE_OK &&
                 sqlite3_busy_timeout(db, 10000) == SQLITE_OK &&
                 sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK;
        if (!hold)
            sqlite3_close(db);
        char c = ok ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1)
            _exit(1);
        while (read(release[0], &b, 1) > 0)
            ;
        _exit(0);
    }
    close(go[0]);
    close(ready[1]);
    close(release[0]);
    return (other_conn){pid, go[1], ready[0], release[1]};
}

/* Lets the other process open the database; returns once it did. */
static void other_go(other_conn *o)
{
    char c = 'g';
    CU_ASSERT_EQUAL(write(o->go, &c, 1), 1);
    c = 0;
    CU_ASSERT_EQUAL(read(o->ready, &c, 1), 1);
    CU_ASSERT_EQUAL(c, 'y');
}

static void other_end(other_conn *o)
{
    close(o->go);
    close(o->ready);
    close(o->release);
    int status;
    CU_ASSERT_EQUAL(waitpid(o->pid, &status, 0), o->pid);
}

static int cells_in(const char *path)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    int n = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT count(*) FROM cells", -1, &s, NULL) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return n;
}

/* A new database that a failed run discards is not removed while another
 * process has it open (it may have written into it), nor when another
 * process wrote its own tables into it; removed when nobody else did. */
/* A new database at db, discarded after another process ran sql in it
 * (keeping it open: hold); 1 when db is still there. */
static int discarded_beside(const char *db, const char *sql, int hold)
{
    so_error err;
    so_hstore *st = NULL;
    remove_db(db);
    other_conn o = other_start(db, sql, hold);
    CU_ASSERT_EQUAL_FATAL(so_hstore_open(db, 1, &st, &err), SO_OK);
    other_go(&o);
    so_hstore_discard(st);
    int there = exists(db);
    other_end(&o);
    return there;
}

static void test_discard_in_use(void)
{
    const char *db = tpath("shared.db");
    /* another connection open (in WAL mode, as the store sets it) */
    CU_ASSERT(discarded_beside(db, "SELECT count(*) FROM cells", 1));
    /* another process committed a table of its own, then closed */
    CU_ASSERT(discarded_beside(db, "CREATE TABLE mine(x); INSERT INTO mine VALUES (1)", 0));
    /* another process only read it and closed: the new, empty database
     * goes, with its sidecars */
    CU_ASSERT(!discarded_beside(db, "SELECT count(*) FROM cells", 0));
    CU_ASSERT(no_sidecars(db));
    remove_db(db);
}

/* A failed run that committed rows keeps the new database (each row is
 * its own commit; --resume continues): only an empty one is removed. */
static void test_discard_keeps_rows(void)
{
    const char *db = tpath("kept-rows.db");
    remove_db(db);
    so_error err;
    so_hstore *st = NULL;
    CU_ASSERT_EQUAL_FATAL(so_hstore_open(db, 1, &st, &err), SO_OK);
    so_hrow r = {.instance = "a", .hash = "00000000000000aa", .problem = "knapsack",
                 .sense = SO_MAXIMIZE, .backend = "kp-dp", .exact = 1, .rep = 0,
                 .version = "0", .status = "optimal", .objective = 10, .bound = 10,
                 .seconds = 0.5, .time_limit = NAN};
    CU_ASSERT_EQUAL(so_hstore_put(st, &r, &err), SO_OK);
    so_hstore_discard(st);
    CU_ASSERT(exists(db));
    CU_ASSERT_EQUAL(cells_in(db), 1);
    CU_ASSERT(no_sidecars(db));
    remove_db(db);
}

/* Runs `cd TMPDIR && slotopt ARGS` under a 60 s limit; stderr in *err. */
static int run_in_tmp(char **err, const char *args)
{
    static char prog[4096], cmd[9000];
    CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(SO_BINARY, prog));
    char efile[800];
    snprintf(efile, sizeof efile, "%s/in-tmp.err", so_test_tmpdir());
    snprintf(cmd, sizeof cmd, "cd '%s' && timeout -s KILL 60 %s %s >/dev/null 2>%s"
             " </dev/null", so_test_tmpdir(), prog, args, efile);
    int st = system(cmd);
    if (err)
        *err = so_test_slurp(efile);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* SQLite's special names are paths like others: '' is refused; ':memory:'
 * and 'file:x.db' are files of those names in the current folder (not an
 * in-memory database that stores nothing, nor a URI); 'file:/dev/null' is
 * a path in a folder 'file:' that does not exist (and no
 * /dev/null-journal appears). */
static void test_special_names(void)
{
    char kp[4096], args[9000];
    CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(KP, kp));
    char *err = NULL;
    CU_ASSERT_EQUAL(run(&err, BENCH " --db '' " KP), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "empty"));
    free(err);
    CU_ASSERT_EQUAL(run(&err, "report --db ''"), 2);
    free(err);
    const char *mem = tpath(":memory:"), *fx = tpath("file:x.db"), *x = tpath("x.db");
    remove_db(mem);
    remove_db(fx);
    remove_db(x);
    snprintf(args, sizeof args, BENCH " --db :memory: %s", kp);
    CU_ASSERT_EQUAL(run_in_tmp(NULL, args), 0);
    CU_ASSERT_EQUAL(cells_in(mem), 2);
    CU_ASSERT_EQUAL(run_in_tmp(NULL, "report --db :memory:"), 0);
    snprintf(args, sizeof args, BENCH " --db file:x.db %s", kp);
    CU_ASSERT_EQUAL(run_in_tmp(NULL, args), 0);
    CU_ASSERT_EQUAL(cells_in(fx), 2);
    CU_ASSERT(!exists(x));
    int had_journal = exists("/dev/null-journal");
    snprintf(args, sizeof args, BENCH " --db file:/dev/null %s", kp);
    CU_ASSERT_EQUAL(run_in_tmp(&err, args), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "file:/dev/null"));
    free(err);
    if (!had_journal)
        CU_ASSERT(no_sidecars("/dev/null"));
    remove_db(mem);
    remove_db(fx);
}

/* A dangling link as --db: its target is created (and, when the run
 * fails before storing a row, removed again: no partial database at the
 * target); the link stays. */
static void test_dangling_link(void)
{
    const char *target = tpath("dangling-target.db"), *link = tpath("dangling.db");
    remove_db(target);
    unlink(link);
    CU_ASSERT_EQUAL_FATAL(symlink("dangling-target.db", link), 0);
    char *err = NULL;
    so_error e;
    so_hstore *st = NULL;
    CU_ASSERT_EQUAL_FATAL(so_hstore_open(link, 1, &st, &e), SO_OK);
    CU_ASSERT(exists(target));
    so_hstore_discard(st);
    CU_ASSERT(!exists(target));
    CU_ASSERT(no_sidecars(target));
    struct stat ls;
    CU_ASSERT(lstat(link, &ls) == 0 && S_ISLNK(ls.st_mode));
    CU_ASSERT_EQUAL(run(&err, BENCH " --db %s " KP, link), 0);
    free(err);
    CU_ASSERT_EQUAL(cells_in(target), 2);
    remove_db(target);
    unlink(link);
}

static CU_TestInfo tests[] = {
    {"--db on a device, FIFO or folder: refused by name, untouched", test_not_regular},
    {"report on a missing database: refused, not created", test_report_missing},
    {"--db through a link to a regular file", test_link_to_file},
    {"a full disk (64 KiB tmpfs) leaves no partial database", test_full_tmpfs},
    {"a file-size limit leaves no partial database", test_full_rlimit},
    {"a discarded new database in use by another process stays", test_discard_in_use},
    {"a discarded new database with committed rows stays", test_discard_keeps_rows},
    {"'', :memory: and file: names are plain paths", test_special_names},
    {"a dangling link: the target created, removed on failure", test_dangling_link},
    CU_TEST_INFO_NULL,
};
SO_SUITE("db-targets", tests)
