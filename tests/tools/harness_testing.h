/* harness_testing.h — shared helpers of the harness test suites: reading
 * the cells table of a results database, and killing a run part-way. */
#ifndef SO_HARNESS_TESTING_H
#define SO_HARNESS_TESTING_H
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/test_util.h"
#include "tools/harness/harness.h"
#include "tools/harness/harness_table.h"

/* Writes text as <tmpdir>/name and reads it as a scenario into c and s
 * (both set up here; s freed when the reading fails). */
static inline int harness_read_scenario(const char *name, const char *text, so_hconfig *c,
                                        so_hinsts *s, so_error *err)
{
    const char *path = so_test_write(name, text);
    so_hconfig_init(c);
    memset(s, 0, sizeof *s);
    int rc = so_scenario_read(path, c, s, err);
    if (rc)
        so_hinsts_free(s);
    return rc;
}

/* Writes text as <tmpdir>/name and loads it as a scenario (its quick form
 * with quick) into c and sc, its inputs read and freed. */
static inline int harness_load_scenario(const char *name, const char *text, int quick,
                                        so_hconfig *c, so_hscenario *sc, so_error *err)
{
    const char *path = so_test_write(name, text);
    so_hconfig_init(c);
    so_hinsts s = {0};
    int rc = so_scenario_load(path, quick, c, &s, sc, err);
    so_hinsts_free(&s);
    return rc;
}

/* Runs `slotopt args` (it must exit 0) and returns the number at key of
 * the JSON object it prints (NAN when missing). */
static inline double harness_run_number(const char *args, const char *key)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    json_t *j = json_loads(out ? out : "", 0, NULL);
    json_t *v = json_object_get(j, key);
    double x = json_is_number(v) ? json_number_value(v) : NAN;
    json_decref(j);
    free(out);
    return x;
}

/* <tmpdir>/name (a ring of 4 static buffers). */
static inline char *harness_tmp_path(const char *name)
{
    static char paths[4][700];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 700, "%s/%s", so_test_tmpdir(), name);
    return p;
}

/* The first column of the first row of `sql` on db as a number; -1 when
 * the database cannot be read or the query fails. */
static inline long long harness_db_int(const char *db, const char *sql)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *s = NULL;
    long long n = -1;
    if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_busy_timeout(h, 2000) == SQLITE_OK && /* a writer's lock: wait */
        sqlite3_prepare_v2(h, sql, -1, &s, NULL) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(h);
    return n;
}

/* The rows of `sql` on db as text: each column followed by '|', a line a
 * row; rows whose first column is `skip` (unless NULL) left out. The
 * caller frees it. */
static inline char *harness_db_rows(const char *db, const char *sql,
                                    const char *skip)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *s = NULL;
    char *out = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&out, &len);
    if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_busy_timeout(h, 2000) == SQLITE_OK &&
        sqlite3_prepare_v2(h, sql, -1, &s, NULL) == SQLITE_OK)
        while (sqlite3_step(s) == SQLITE_ROW) {
            if (skip && strcmp((const char *)sqlite3_column_text(s, 0), skip) == 0)
                continue;
            for (int i = 0; i < sqlite3_column_count(s); i++)
                fprintf(fp, "%s|", (const char *)sqlite3_column_text(s, i));
            fputc('\n', fp);
        }
    sqlite3_finalize(s);
    sqlite3_close(h);
    fclose(fp);
    return out;
}

/* The cells' rows without their timings, one line each, in key order; the
 * row with key `skip` ("hash|backend|rep") left out. */
static inline char *harness_rows_text(const char *db, const char *skip)
{
    return harness_db_rows(db, "SELECT instance_hash || '|' || backend || '|' || rep, instance,"
                               " problem, status, printf('%.12g', objective), printf('%.12g', bound),"
                               " json_remove(extras, '$.sim_seconds'), message, params"
                               " FROM cells ORDER BY instance_hash, backend, rep", skip);
}

/* Waits (up to 20 s) until `count_sql` on db reaches `rows`, then kills
 * pid with SIGKILL and reaps it; returns its wait status. */
static inline int harness_kill_at(pid_t pid, const char *db,
                                  const char *count_sql, long long rows)
{
    long long stored = -1;
    for (int i = 0; i < 20000 && stored < rows; i++) {
        usleep(1000);
        stored = harness_db_int(db, count_sql);
    }
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    return status;
}

#endif
