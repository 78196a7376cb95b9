/* test_harness_store.c — the results database when it is damaged or on a
 * read-only folder: NULL or wrongly typed columns, a file that is no
 * database, byte mutations (report exits 0 or 2, never crashes), the
 * journal mode a finished run leaves, and reading from a folder the reader
 * cannot write (as an unprivileged user when the tests run as root). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/test_util.h"
#include "tools/harness/harness.h"

/* The schema of the store without its NOT NULL constraints, so that a test
 * can write what a damaged or hand-edited database may hold. */
static const char loose_schema[] =
    "CREATE TABLE cells(id INTEGER PRIMARY KEY, instance, instance_hash, problem,"
    " sense, family, params, seed, instance_index, backend, exact, rep, version,"
    " status, objective, bound, seconds, time_limit, frontier, extras, message,"
    " finished);"
    "CREATE TABLE kinds(problem, reference, group_by);";

static const char good_rows[] =
    "INSERT INTO cells VALUES (1, 'a', '00000000000000aa', 'knapsack', 1, NULL,"
    " NULL, NULL, NULL, 'kp-dp', 1, 0, '0.1', 'optimal', 10, 10, 0.5, 1, NULL,"
    " NULL, NULL, '2026');"
    "INSERT INTO cells VALUES (2, 'a', '00000000000000aa', 'knapsack', 1, NULL,"
    " NULL, NULL, NULL, 'kp-greedy', 0, 0, '0.1', 'feasible', 8, NULL, 0.25, 1,"
    " NULL, '{\"x\": 1}', NULL, '2026');"
    "INSERT INTO kinds VALUES ('knapsack', 'kp-dp', '');";

/* Creates a database at path from the loose schema, the good rows and then
 * `damage` (SQL, may be NULL). */
static void make_db(const char *path, const char *damage)
{
    unlink(path);
    sqlite3 *db = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &db), SQLITE_OK);
    CU_ASSERT_EQUAL(sqlite3_exec(db, loose_schema, NULL, NULL, NULL), SQLITE_OK);
    CU_ASSERT_EQUAL(sqlite3_exec(db, good_rows, NULL, NULL, NULL), SQLITE_OK);
    if (damage)
        CU_ASSERT_EQUAL(sqlite3_exec(db, damage, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

#define path_in_tmp so_test_path

/* Runs `report --db path` and returns its exit code; stderr into *err. */
static int report(const char *path, char **err)
{
    char args[800];
    snprintf(args, sizeof args, "report --cells --db '%s'", path);
    char *out = NULL;
    int rc = so_test_run(args, &out, err);
    free(out);
    return rc;
}

static void test_intact(void)
{
    const char *db = path_in_tmp("store-good.db");
    make_db(db, NULL);
    char *err = NULL;
    CU_ASSERT_EQUAL(report(db, &err), 0);
    free(err);
}

/* Each damage, and the words the error must contain. */
static void test_damaged_columns(void)
{
    static const struct {
        const char *sql, *expect;
    } cases[] = {
        {"UPDATE cells SET status = NULL WHERE id = 2", "row id 2: column status holds NULL, expected text"},
        {"UPDATE cells SET instance_hash = NULL WHERE id = 1", "row id 1: column instance_hash holds NULL"},
        {"UPDATE cells SET backend = NULL", "column backend holds NULL"},
        {"UPDATE cells SET problem = 7 WHERE id = 1", "column problem holds an integer, expected text"},
        {"UPDATE cells SET instance = x'00ff' WHERE id = 1", "column instance holds a blob"},
        {"UPDATE cells SET version = NULL", "column version holds NULL"},
        {"UPDATE cells SET objective = 'ten' WHERE id = 1", "column objective holds text, expected a number or NULL"},
        {"UPDATE cells SET seconds = NULL WHERE id = 2", "column seconds holds NULL, expected a number"},
        {"UPDATE cells SET rep = 0.5 WHERE id = 2", "column rep holds a real, expected an integer"},
        {"UPDATE cells SET sense = 'max'", "column sense holds text"},
        {"UPDATE cells SET sense = 3 WHERE id = 1", "sense 3 is neither"},
        {"UPDATE cells SET extras = 5 WHERE id = 2", "column extras holds an integer, expected text or NULL"},
        {"UPDATE kinds SET reference = NULL", "kinds row 1: column reference holds NULL"},
        {"UPDATE kinds SET group_by = NULL", "column group_by holds NULL"},
        {"UPDATE kinds SET problem = 1", "column problem holds an integer"},
        {"DROP TABLE kinds", "no such table: kinds"},
        {"ALTER TABLE cells DROP COLUMN message", "has no column named message"},
    };
    const char *db = path_in_tmp("store-damaged.db");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        make_db(db, cases[i].sql);
        char *err = NULL;
        int rc = report(db, &err);
        if (rc != 2 || !err || !strstr(err, cases[i].expect))
            fprintf(stderr, "\n%s -> exit %d: %s", cases[i].sql, rc, err ? err : "");
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT_PTR_NOT_NULL(err ? strstr(err, cases[i].expect) : NULL);
        free(err);
    }
}

static void test_not_a_database(void)
{
    const char *texts[] = {"", "not a database at all\n",
                           "SQLite format 3\0 this header lies about the rest"};
    const char *db = path_in_tmp("store-text.db");
    for (size_t i = 0; i < 3; i++) {
        FILE *fp = fopen(db, "wb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
        fwrite(texts[i], 1, i == 2 ? 48 : strlen(texts[i]), fp);
        fclose(fp);
        char *err = NULL;
        CU_ASSERT_EQUAL(report(db, &err), 2);
        CU_ASSERT_PTR_NOT_NULL(err ? strstr(err, "store-text.db") : NULL);
        free(err);
    }
}

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* 40 copies of a good database with 1 to 4 bytes overwritten at seeded
 * places: report reads or refuses each one, exit 0 or 2, no signal. The
 * fixed files of tests/corpus/results-db/ come first. */
static void test_mutations(void)
{
    const char *good = path_in_tmp("store-mut-src.db");
    make_db(good, NULL);
    char *bytes = NULL;
    long size = 0;
    FILE *fp = fopen(good, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    fseek(fp, 0, SEEK_END);
    size = ftell(fp);
    rewind(fp);
    bytes = malloc((size_t)size);
    CU_ASSERT_FATAL(bytes && fread(bytes, 1, (size_t)size, fp) == (size_t)size);
    fclose(fp);
    const char *db = path_in_tmp("store-mut.db");
    uint64_t x = 0x9e3779b97f4a7c15u;
    size_t refused = 0;
    for (int i = 0; i < 40; i++) {
        char *copy = malloc((size_t)size);
        CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
        memcpy(copy, bytes, (size_t)size);
        int flips = 1 + (int)(next(&x) % 4);
        for (int f = 0; f < flips; f++) {
            /* half in the header and first page, where the schema lives */
            long at = (long)(next(&x) % (uint64_t)(f % 2 ? size : 4096 < size ? 4096 : size));
            copy[at] = (char)next(&x);
        }
        fp = fopen(db, "wb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
        fwrite(copy, 1, (size_t)size, fp);
        fclose(fp);
        free(copy);
        int rc = report(db, NULL);
        if (rc != 0 && rc != 2)
            fprintf(stderr, "\nmutant %d: exit %d\n", i, rc);
        CU_ASSERT_TRUE(rc == 0 || rc == 2);
        refused += rc == 2;
    }
    CU_ASSERT_TRUE(refused > 0); /* the mutations did reach something */
    free(bytes);
}

/* Every file of tests/corpus/results-db/: NAME.exit<code>.db. */
static void test_corpus(void)
{
    static const char *const files[] = {
        "null-status.exit2.db", "text-objective.exit2.db", "null-reference.exit2.db",
        "truncated.exit2.db", "wal-mode.exit0.db", "good.exit0.db", "odd-json.exit0.db",
    };
    setenv("SLOTOPT_GNUPLOT", "/nonexistent/gnuplot", 1);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char src[300];
        snprintf(src, sizeof src, "tests/corpus/results-db/%s", files[i]);
        /* a copy: reading must not change the corpus file */
        const char *db = path_in_tmp("store-corpus.db");
        char cmd[1000];
        snprintf(cmd, sizeof cmd, "cp '%s' '%s' && rm -f '%s-wal' '%s-shm'", src, db, db, db);
        CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
        int want = strstr(files[i], ".exit2.") ? 2 : 0;
        int rc = report(db, NULL);
        if (rc != want)
            fprintf(stderr, "\n%s: exit %d, expected %d\n", files[i], rc, want);
        CU_ASSERT_EQUAL(rc, want);
        /* the plot data too, and every format */
        const char *extra[] = {"--format json", "--format markdown", "--format csv"};
        for (int f = 0; f < 3; f++) {
            snprintf(cmd, sizeof cmd, "report --cells %s --plot '%s/store-plots' --db '%s'",
                     extra[f], so_test_tmpdir(), db);
            CU_ASSERT_EQUAL(so_test_run(cmd, NULL, NULL), want);
        }
    }
    unsetenv("SLOTOPT_GNUPLOT");
}

/* A bench run leaves its database in rollback-journal mode, one file. */
static void test_finished_run_mode(void)
{
    const char *db = path_in_tmp("store-run.db");
    const char *scenario = so_test_write(
        "store-run.json",
        "{\"backends\": [\"kp-greedy\"], \"reference\": \"kp-dp\",\n"
        " \"inputs\": [{\"family\": \"knapsack\", \"params\": {\"n\": 10},"
        " \"count\": 2, \"seed\": 1}]}\n");
    char args[800];
    snprintf(args, sizeof args, "bench --scenario '%s' --db '%s'", scenario, db);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
    char wal[700];
    snprintf(wal, sizeof wal, "%s-wal", db);
    CU_ASSERT_EQUAL(access(wal, F_OK), -1);
    sqlite3 *h = NULL;
    sqlite3_stmt *s = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    CU_ASSERT_EQUAL(sqlite3_prepare_v2(h, "PRAGMA journal_mode", -1, &s, NULL), SQLITE_OK);
    CU_ASSERT_EQUAL(sqlite3_step(s), SQLITE_ROW);
    const char *mode = (const char *)sqlite3_column_text(s, 0);
    CU_ASSERT_STRING_EQUAL(mode ? mode : "", "delete");
    sqlite3_finalize(s);
    sqlite3_close(h);
}

/* Runs `report --db db` in a child as an unprivileged user when we are
 * root (permissions bind it), else as ourselves; returns the exit code. */
/* The program as user 65534 runs it: a copy in the test's world-readable
 * folder (the checkout may sit in a folder only root can enter, as
 * mktemp -d makes them). */
static char reader_binary[700];

static int report_without_write(const char *db, char *err, size_t size)
{
    int fds[2];
    if (pipe(fds))
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (getuid() == 0 && (setgid(65534) || setuid(65534)))
            _exit(100);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(fds[1], 2);
        close(fds[0]);
        execl(reader_binary, reader_binary, "report", "--db", db, (char *)NULL);
        _exit(101);
    }
    close(fds[1]);
    size_t len = 0;
    ssize_t got;
    while (len + 1 < size && (got = read(fds[0], err + len, size - 1 - len)) > 0)
        len += (size_t)got;
    err[len] = '\0';
    close(fds[0]);
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A database in a folder the reader cannot write: in rollback mode (as a
 * run leaves it) and in WAL mode (as a killed run leaves it). */
static void test_read_only_folder(void)
{
    char dir[] = "/tmp/slotopt-ro-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char db[600], cmd[4000];
    snprintf(db, sizeof db, "%s/r.db", dir);
    chmod(dir, 0755);
    snprintf(reader_binary, sizeof reader_binary, "%s/slotopt", dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && chmod 755 '%s'", SO_BINARY,
             reader_binary, reader_binary);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    for (int wal = 0; wal < 2; wal++) {
        chmod(dir, 0755);
        unlink(db);
        make_db(db, wal ? "PRAGMA journal_mode=WAL" : NULL);
        chmod(db, 0444);
        chmod(dir, 0555);
        char err[2000];
        int rc = report_without_write(db, err, sizeof err);
        if (rc != 0)
            fprintf(stderr, "\nread-only folder, wal=%d: exit %d: %s\n", wal, rc, err);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_PTR_NULL(strstr(err, "warning"));
    }
    /* a killed run's commits still in its -wal file: read what can be read,
     * and say that the rest cannot */
    chmod(dir, 0755);
    unlink(db);
    const char *src = path_in_tmp("store-wal-src.db");
    make_db(src, "PRAGMA journal_mode=WAL");
    sqlite3 *h = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(src, &h), SQLITE_OK);
    CU_ASSERT_EQUAL(sqlite3_exec(h, "PRAGMA wal_autocheckpoint=0;"
                                    " UPDATE cells SET objective = 9 WHERE id = 2", NULL, NULL,
                                 NULL), SQLITE_OK);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && cp '%s-wal' '%s-wal' && chmod 444 '%s' '%s-wal'",
             src, db, src, db, db, db);
    CU_ASSERT_EQUAL(system(cmd), 0);
    sqlite3_close(h);
    chmod(dir, 0555);
    char err[2000];
    CU_ASSERT_EQUAL(report_without_write(db, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "-wal cannot be read from a folder this user cannot write"));
    chmod(dir, 0755);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static CU_TestInfo tests[] = {
    {"an intact hand-made database reports", test_intact},
    {"NULL or wrongly typed columns: exit 2 naming row and column", test_damaged_columns},
    {"empty, text and lying files: exit 2", test_not_a_database},
    {"byte mutations: exit 0 or 2, never a crash", test_mutations},
    {"the results-db corpus", test_corpus},
    {"a finished run leaves a rollback-journal database", test_finished_run_mode},
    {"a database in a read-only folder opens", test_read_only_folder},
    CU_TEST_INFO_NULL,
};
SO_SUITE("harness-store", tests)
