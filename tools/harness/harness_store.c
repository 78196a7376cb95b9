/* harness_store.c — the results database (SQLite): one row per instance x
 * backend x repetition, UNIQUE(instance_hash, backend, rep), and per
 * problem kind the reference and grouping of the latest bench. Each row is
 * its own transaction in WAL mode, so a run killed at any moment keeps every
 * cell it finished; synchronous=NORMAL survives process kills (a power loss
 * may drop the last commits). Closing a writer turns the journal back to
 * DELETE mode, so a finished database is one file that opens from a
 * read-only folder; a reader that cannot open a WAL database there (a
 * killed run's) reads it as an immutable file. Rows are checked on reading:
 * NULL or wrongly typed columns are an error naming the row and column.
 *
 * A run that fails leaves a database it created only when it holds
 * something: rows it committed (--resume continues from them) or anything
 * another process wrote; an empty new database is removed with its
 * sidecar files, unless another process has it open. Paths are files,
 * never SQLite's special names: '' is refused, and a relative path reaches
 * SQLite as "./PATH" (neither ":memory:" nor a "file:" URI). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tools/harness/harness.h"

struct so_hstore {
    sqlite3 *db;
    char *path; /* as the user gave it, for messages */
    char *file; /* links resolved, "./" before a relative path: SQLite's */
    sqlite3_stmt *put, *has, *get;
    int write;
    int created;   /* this run created the file (O_EXCL): maybe removed */
    size_t stored; /* rows this run committed */
};

#define COLUMNS                                                               \
    "instance, instance_hash, problem, sense, family, params, seed,"         \
    " instance_index, backend, exact, rep, version, status, objective,"      \
    " bound, seconds, time_limit, frontier, extras, message, id"

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS cells("
    " id INTEGER PRIMARY KEY,"
    " instance TEXT NOT NULL,"
    " instance_hash TEXT NOT NULL,"
    " problem TEXT NOT NULL,"
    " sense INTEGER NOT NULL,"
    " family TEXT, params TEXT, seed INTEGER, instance_index INTEGER,"
    " backend TEXT NOT NULL,"
    " exact INTEGER NOT NULL,"
    " rep INTEGER NOT NULL,"
    " version TEXT NOT NULL,"
    " status TEXT NOT NULL,"
    " objective REAL, bound REAL,"
    " seconds REAL NOT NULL,"
    " time_limit REAL,"
    " frontier TEXT, extras TEXT, message TEXT,"
    " finished TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),"
    " UNIQUE(instance_hash, backend, rep));"
    "CREATE TABLE IF NOT EXISTS kinds("
    " problem TEXT PRIMARY KEY, reference TEXT NOT NULL,"
    " group_by TEXT NOT NULL DEFAULT '');";

static const char *type_name(int t)
{
    switch (t) {
    case SQLITE_NULL: return "NULL";
    case SQLITE_INTEGER: return "an integer";
    case SQLITE_FLOAT: return "a real";
    case SQLITE_TEXT: return "text";
    default: return "a blob";
    }
}

static int db_error(so_hstore *st, so_error *err, const char *what)
{
    so_error_setf(err, st->path, 0, 0, NULL, "%s: %s", what, sqlite3_errmsg(st->db));
    return SO_EIO;
}

/* 1 when the schema of an opened database can be read. */
static int readable(sqlite3 *db)
{
    return sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) ==
           SQLITE_OK;
}

/* Opens path read-only through a file: URI with immutable=1 (no locks, no
 * -wal or -shm files). */
static int open_immutable(const char *path, sqlite3 **db)
{
    size_t n = strlen(path);
    char *uri = malloc(3 * n + 32);
    if (!uri)
        return SQLITE_NOMEM;
    char *o = uri + sprintf(uri, "file:");
    for (const char *c = path; *c; c++)
        o += strchr("%?#", *c) ? sprintf(o, "%%%02X", (unsigned char)*c)
                               : sprintf(o, "%c", *c);
    strcpy(o, "?immutable=1");
    int rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    free(uri);
    return rc;
}

/* The database and its sidecar files removed (a new one that failed). */
static void remove_database(const char *path)
{
    static const char *const ext[] = {"", "-journal", "-wal", "-shm"};
    size_t size = strlen(path) + 16;
    char *p = malloc(size);
    for (int i = 0; p && i < 4; i++) {
        snprintf(p, size, "%s%s", path, ext[i]);
        unlink(p);
    }
    free(p);
}

/* 1 when another process holds a lock on path: SQLite keeps a shared lock
 * on PATH-shm for as long as a connection in WAL mode is open, and locks
 * PATH itself during a transaction. F_GETLK reports only the locks of
 * other processes. */
static int locked_by_other(const char *path)
{
    int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    int other = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
    close(fd);
    return other;
}

static int in_use(const char *file)
{
    size_t size = strlen(file) + 8;
    char *shm = malloc(size);
    if (!shm)
        return 1;
    snprintf(shm, size, "%s-shm", file);
    int used = locked_by_other(file) || locked_by_other(shm);
    free(shm);
    return used;
}

/* The first integer that sql returns, or -1. */
static long long count_of(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *s = NULL;
    long long n = -1;
    if (db && sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return n;
}

/* The path SQLite is given: symbolic links resolved (a dangling one to its
 * target, which this run then creates and may remove), "./" before a
 * relative path. NULL: out of memory, or *loop set for too many links. */
static char *resolve(const char *path, int *loop)
{
    char *p = strdup(path);
    *loop = 0;
    for (int hops = 0; p; hops++) {
        struct stat ls;
        if (lstat(p, &ls) != 0 || !S_ISLNK(ls.st_mode))
            break;
        if (hops == 40) {
            *loop = 1;
            free(p);
            return NULL;
        }
        char target[4096];
        ssize_t n = readlink(p, target, sizeof target - 1);
        if (n <= 0)
            break;
        target[n] = '\0';
        const char *slash = strrchr(p, '/');
        size_t dir = target[0] == '/' || !slash ? 0 : (size_t)(slash - p) + 1;
        char *next = malloc(dir + (size_t)n + 1);
        if (next) {
            memcpy(next, p, dir);
            memcpy(next + dir, target, (size_t)n + 1);
        }
        free(p);
        p = next;
    }
    if (p && p[0] != '/') {
        char *rel = malloc(strlen(p) + 3);
        if (rel)
            sprintf(rel, "./%s", p);
        free(p);
        p = rel;
    }
    return p;
}

/* A database is a regular file (a link to one is followed) or, to write, a
 * path that does not exist yet, created here with O_EXCL (*created = 1:
 * of two runs on one new path, only one created it). SQLite itself opens
 * anything and writes PATH-journal beside it: /dev/null-journal in /dev,
 * or blocks for ever on a FIFO. path: as given; file: links resolved. */
static int check_target(const char *path, const char *file, int write, int *created,
                        so_error *err)
{
    struct stat st;
    *created = 0;
    if (write && stat(file, &st) != 0 && errno == ENOENT) {
        int fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            close(fd);
            *created = 1;
            return SO_OK;
        }
        if (errno != EEXIST) {
            so_error_setf(err, path, 0, 0, NULL, "cannot open the results database: %s",
                          strerror(errno));
            return SO_EIO;
        }
    }
    if (stat(file, &st) == 0) {
        if (S_ISREG(st.st_mode))
            return SO_OK;
        const char *what = S_ISDIR(st.st_mode)   ? "a folder"
                           : S_ISFIFO(st.st_mode) ? "a FIFO"
                           : S_ISCHR(st.st_mode)  ? "a character device"
                           : S_ISBLK(st.st_mode)  ? "a block device"
                           : S_ISSOCK(st.st_mode) ? "a socket"
                                                  : "not a file";
        so_error_setf(err, path, 0, 0, NULL, "not a regular file (%s): the results"
                      " database must be a file (or a new path)", what);
        return SO_EIO;
    }
    so_error_setf(err, path, 0, 0, NULL, "cannot open the results database: %s",
                  strerror(errno));
    return SO_EIO;
}

int so_hstore_open(const char *path, int write, so_hstore **out, so_error *err)
{
    *out = NULL;
    if (!path || !*path) {
        so_error_setf(err, NULL, 0, 0, NULL, "--db: an empty path: the results database"
                      " must be a file");
        return SO_EINVAL;
    }
    int loop = 0;
    char *file = resolve(path, &loop);
    if (!file) {
        if (!loop)
            return SO_ENOMEM;
        so_error_setf(err, path, 0, 0, NULL, "cannot open the results database: %s",
                      strerror(ELOOP));
        return SO_EIO;
    }
    int created = 0;
    int bad = check_target(path, file, write, &created, err);
    if (bad) {
        free(file);
        return bad;
    }
    so_hstore *st = calloc(1, sizeof *st);
    if (!st || !(st->path = strdup(path))) {
        if (created)
            unlink(file);
        free(file);
        free(st);
        return SO_ENOMEM;
    }
    st->file = file;
    st->write = write;
    st->created = created;
    int rc = sqlite3_open_v2(file, &st->db,
                             write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                   : SQLITE_OPEN_READONLY,
                             NULL);
    if (rc == SQLITE_OK && !write && !readable(st->db)) {
        /* A database left in WAL mode (a killed run) in a folder we cannot
         * write: SQLite cannot create its -shm index. Nothing can change it
         * under us then, so read it as an immutable file. */
        sqlite3_close(st->db);
        st->db = NULL;
        rc = open_immutable(file, &st->db);
        /* commits still in the -wal file are invisible to an immutable
         * reader: say so rather than report fewer rows in silence */
        char wal[600];
        struct stat ws;
        snprintf(wal, sizeof wal, "%s-wal", file);
        if (rc == SQLITE_OK && stat(wal, &ws) == 0 && ws.st_size > 0)
            fprintf(stderr, "slotopt: warning: %s: %lld bytes of commits in %s-wal cannot"
                            " be read from a folder this user cannot write; copy both"
                            " files to a writable folder to see every row\n",
                    path, (long long)ws.st_size, path);
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_busy_timeout(st->db, 10000);
    if (rc == SQLITE_OK && write)
        rc = sqlite3_exec(st->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                          NULL, NULL, NULL);
    if (rc == SQLITE_OK && write)
        rc = sqlite3_exec(st->db, schema, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(
            st->db,
            "INSERT OR REPLACE INTO cells(instance, instance_hash, problem, sense,"
            " family, params, seed, instance_index, backend, exact, rep, version,"
            " status, objective, bound, seconds, time_limit, frontier, extras,"
            " message) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            -1, &st->put, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(st->db,
                                "SELECT 1 FROM cells WHERE instance_hash=? AND"
                                " backend=? AND rep=?",
                                -1, &st->has, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(st->db,
                                "SELECT " COLUMNS " FROM cells WHERE instance_hash=?"
                                " AND backend=? AND rep=?",
                                -1, &st->get, NULL);
    if (rc != SQLITE_OK) {
        int code = db_error(st, err, "cannot open the results database");
        so_hstore_discard(st);
        return code;
    }
    *out = st;
    return SO_OK;
}

/* After a failure: a database this run created goes when it holds
 * nothing (no row of this run or another, no table but the store's) and no
 * other process has it open; one with rows stays for --resume. */
void so_hstore_discard(so_hstore *st)
{
    if (!st)
        return;
    if (!st->created || !st->write) {
        so_hstore_close(st);
        return;
    }
    long long rows = count_of(st->db, "SELECT count(*) FROM cells");
    long long tables = count_of(st->db, "SELECT count(*) FROM sqlite_master WHERE name"
                                        " NOT IN ('cells', 'kinds') AND name NOT LIKE"
                                        " 'sqlite_autoindex_%'");
    long long kept = rows > (long long)st->stored ? rows : (long long)st->stored;
    int keep = kept > 0 || tables > 0;
    if (kept > 0)
        fprintf(stderr, "slotopt: %s: %lld cells kept; --resume continues\n", st->path,
                kept);
    else if (tables > 0)
        fprintf(stderr, "slotopt: %s: kept: another program wrote tables into it\n",
                st->path);
    char *file = st->file;
    st->file = NULL; /* kept past the close */
    so_hstore_close(st);
    if (!keep && !in_use(file))
        remove_database(file);
    free(file);
}

void so_hstore_close(so_hstore *st)
{
    if (!st)
        return;
    sqlite3_finalize(st->put);
    sqlite3_finalize(st->has);
    sqlite3_finalize(st->get);
    /* Back to a rollback journal once the run is over: a finished database
     * is one self-contained file, readable from a read-only folder or
     * medium (WAL needs a writable -shm file beside it). Another process
     * still using the database keeps it in WAL mode (the pragma fails). */
    if (st->write && st->db) {
        sqlite3_busy_timeout(st->db, 0);
        sqlite3_exec(st->db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL);
    }
    sqlite3_close(st->db);
    free(st->path);
    free(st->file);
    free(st);
}

static void bind_text(sqlite3_stmt *s, int i, const char *t)
{
    if (t)
        sqlite3_bind_text(s, i, t, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(s, i);
}

static void bind_real(sqlite3_stmt *s, int i, double x)
{
    if (isfinite(x))
        sqlite3_bind_double(s, i, x);
    else
        sqlite3_bind_null(s, i);
}

int so_hstore_put(so_hstore *st, const so_hrow *r, so_error *err)
{
    sqlite3_stmt *s = st->put;
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    bind_text(s, 1, r->instance);
    bind_text(s, 2, r->hash);
    bind_text(s, 3, r->problem);
    sqlite3_bind_int(s, 4, r->sense);
    bind_text(s, 5, r->family);
    bind_text(s, 6, r->params);
    if (r->has_seed) {
        sqlite3_bind_int64(s, 7, r->seed);
        sqlite3_bind_int64(s, 8, r->index);
    }
    bind_text(s, 9, r->backend);
    sqlite3_bind_int(s, 10, r->exact);
    sqlite3_bind_int(s, 11, r->rep);
    bind_text(s, 12, r->version);
    bind_text(s, 13, r->status);
    bind_real(s, 14, r->objective);
    bind_real(s, 15, r->bound);
    sqlite3_bind_double(s, 16, isfinite(r->seconds) ? r->seconds : 0);
    bind_real(s, 17, r->time_limit);
    bind_text(s, 18, r->frontier);
    bind_text(s, 19, r->extras);
    bind_text(s, 20, r->message);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc != SQLITE_DONE)
        return db_error(st, err, "cannot store a result");
    st->stored++;
    return SO_OK;
}

int so_hstore_has(so_hstore *st, const char *hash, const char *backend,
                  int rep, so_error *err)
{
    sqlite3_stmt *s = st->has;
    sqlite3_reset(s);
    sqlite3_bind_text(s, 1, hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 2, backend, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s, 3, rep);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc == SQLITE_ROW)
        return 1;
    return rc == SQLITE_DONE ? 0 : db_error(st, err, "cannot query");
}

int so_hstore_set_kind(so_hstore *st, const so_hkind *k, so_error *err)
{
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(st->db,
                                "INSERT OR REPLACE INTO kinds(problem, reference, group_by)"
                                " VALUES (?, ?, ?)", -1, &s, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(s, 1, k->problem, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s, 2, k->reference, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s, 3, k->group_by, -1, SQLITE_TRANSIENT);
        rc = sqlite3_step(s) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    }
    sqlite3_finalize(s);
    return rc == SQLITE_OK ? SO_OK : db_error(st, err, "cannot store the reference");
}

int so_hstore_kinds(so_hstore *st, so_hkinds *out, so_error *err)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(st->db, "SELECT problem, reference, group_by FROM kinds"
                                   " ORDER BY problem", -1, &s, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot read the results database");
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        so_hkind *v = realloc(out->v, (out->n + 1) * sizeof *v);
        if (!v) {
            sqlite3_finalize(s);
            so_hkinds_free(out);
            return SO_ENOMEM;
        }
        out->v = v;
        so_hkind *k = &v[out->n++];
        const char *t[3];
        for (int i = 0; i < 3; i++)
            if (sqlite3_column_type(s, i) != SQLITE_TEXT ||
                !(t[i] = (const char *)sqlite3_column_text(s, i))) {
                so_error_setf(err, st->path, 0, 0, NULL,
                              "damaged results database: kinds row %zu: column %s"
                              " holds %s, expected text", out->n,
                              i == 0 ? "problem" : i == 1 ? "reference" : "group_by",
                              type_name(sqlite3_column_type(s, i)));
                sqlite3_finalize(s);
                so_hkinds_free(out);
                return SO_EIO;
            }
        snprintf(k->problem, sizeof k->problem, "%s", t[0]);
        snprintf(k->reference, sizeof k->reference, "%s", t[1]);
        snprintf(k->group_by, sizeof k->group_by, "%s", t[2]);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE) {
        so_hkinds_free(out);
        return db_error(st, err, "cannot read the results database");
    }
    return SO_OK;
}

void so_hkinds_free(so_hkinds *k)
{
    free(k->v);
    memset(k, 0, sizeof *k);
}

void so_hrow_free(so_hrow *r)
{
    free(r->instance);
    free(r->hash);
    free(r->problem);
    free(r->family);
    free(r->params);
    free(r->backend);
    free(r->version);
    free(r->status);
    free(r->frontier);
    free(r->extras);
    free(r->message);
    memset(r, 0, sizeof *r);
}

void so_hrows_free(so_hrows *rows)
{
    for (size_t i = 0; i < rows->n; i++)
        so_hrow_free(&rows->v[i]);
    free(rows->v);
    memset(rows, 0, sizeof *rows);
}

static so_hrow *push(so_hrows *rows)
{
    if (rows->n == rows->cap) {
        size_t cap = rows->cap ? 2 * rows->cap : 256;
        so_hrow *v = realloc(rows->v, cap * sizeof *v);
        if (!v)
            return NULL;
        rows->v = v;
        rows->cap = cap;
    }
    so_hrow *r = &rows->v[rows->n++];
    memset(r, 0, sizeof *r);
    return r;
}

static char *col_text(sqlite3_stmt *s, int i)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    return t ? strdup((const char *)t) : NULL;
}

static double col_real(sqlite3_stmt *s, int i)
{
    return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

/* A database written by another program, damaged or edited by hand may hold
 * NULL or another type where a row needs a value: such a row is refused with
 * the column named, never read as a null string. Text columns that a row
 * may lack (family, params, frontier, extras, message) accept NULL; numbers
 * must be numbers (REAL columns accept integers). */
static const char *const column_names[] = {
    "instance", "instance_hash", "problem", "sense", "family", "params", "seed",
    "instance_index", "backend", "exact", "rep", "version", "status", "objective",
    "bound", "seconds", "time_limit", "frontier", "extras", "message"};
enum { REQ_TEXT, OPT_TEXT, REQ_INT, OPT_INT, REQ_REAL, OPT_REAL };
static const unsigned char column_kinds[] = {
    REQ_TEXT, REQ_TEXT, REQ_TEXT, REQ_INT, OPT_TEXT, OPT_TEXT, OPT_INT,
    OPT_INT, REQ_TEXT, REQ_INT, REQ_INT, REQ_TEXT, REQ_TEXT, OPT_REAL,
    OPT_REAL, REQ_REAL, OPT_REAL, OPT_TEXT, OPT_TEXT, OPT_TEXT};

static int check_row(so_hstore *st, sqlite3_stmt *s, so_error *err)
{
    for (int i = 0; i < 20; i++) {
        int t = sqlite3_column_type(s, i), k = column_kinds[i], ok;
        if (k == REQ_TEXT || k == OPT_TEXT)
            ok = t == SQLITE_TEXT || (k == OPT_TEXT && t == SQLITE_NULL);
        else if (k == REQ_INT || k == OPT_INT)
            ok = t == SQLITE_INTEGER || (k == OPT_INT && t == SQLITE_NULL);
        else
            ok = t == SQLITE_INTEGER || t == SQLITE_FLOAT ||
                 (k == OPT_REAL && t == SQLITE_NULL);
        if (!ok) {
            so_error_setf(err, st->path, 0, 0, NULL,
                          "damaged results database: cells row id %lld: column %s"
                          " holds %s, expected %s%s",
                          (long long)sqlite3_column_int64(s, 20), column_names[i],
                          type_name(t),
                          k <= OPT_TEXT ? "text" : k <= OPT_INT ? "an integer" : "a number",
                          k == OPT_TEXT || k == OPT_INT || k == OPT_REAL ? " or NULL" : "");
            return SO_EIO;
        }
    }
    int sense = sqlite3_column_int(s, 3);
    if (sense != SO_MINIMIZE && sense != SO_MAXIMIZE) {
        so_error_setf(err, st->path, 0, 0, NULL,
                      "damaged results database: cells row id %lld: sense %d is"
                      " neither %d (minimise) nor %d (maximise)",
                      (long long)sqlite3_column_int64(s, 20), sense, SO_MINIMIZE,
                      SO_MAXIMIZE);
        return SO_EIO;
    }
    return SO_OK;
}

static int read_row(so_hstore *st, sqlite3_stmt *s, so_hrow *r, so_error *err)
{
    int rc = check_row(st, s, err);
    if (rc)
        return rc;
    r->instance = col_text(s, 0);
    r->hash = col_text(s, 1);
    r->problem = col_text(s, 2);
    r->sense = sqlite3_column_int(s, 3);
    r->family = col_text(s, 4);
    r->params = col_text(s, 5);
    r->has_seed = sqlite3_column_type(s, 6) != SQLITE_NULL;
    r->seed = sqlite3_column_int64(s, 6);
    r->index = sqlite3_column_int64(s, 7);
    r->backend = col_text(s, 8);
    r->exact = sqlite3_column_int(s, 9);
    r->rep = sqlite3_column_int(s, 10);
    r->version = col_text(s, 11);
    r->status = col_text(s, 12);
    r->objective = col_real(s, 13);
    r->bound = col_real(s, 14);
    r->seconds = col_real(s, 15);
    r->time_limit = col_real(s, 16);
    r->frontier = col_text(s, 17);
    r->extras = col_text(s, 18);
    r->message = col_text(s, 19);
    if (!r->instance || !r->hash || !r->problem || !r->backend || !r->version ||
        !r->status || (!r->family) != (sqlite3_column_type(s, 4) == SQLITE_NULL) ||
        (!r->params) != (sqlite3_column_type(s, 5) == SQLITE_NULL) ||
        (!r->frontier) != (sqlite3_column_type(s, 17) == SQLITE_NULL) ||
        (!r->extras) != (sqlite3_column_type(s, 18) == SQLITE_NULL) ||
        (!r->message) != (sqlite3_column_type(s, 19) == SQLITE_NULL))
        return SO_ENOMEM;
    return SO_OK;
}

/* Appends the rows of statement s (reset by the caller) to rows. */
static int append_rows(so_hstore *st, sqlite3_stmt *s, so_hrows *rows, so_error *err)
{
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        so_hrow *r = push(rows);
        if (!r)
            return SO_ENOMEM;
        int bad = read_row(st, s, r, err);
        if (bad) {
            so_hrow_free(r);
            rows->n--;
            return bad;
        }
    }
    return rc == SQLITE_DONE ? SO_OK : db_error(st, err, "cannot read the results database");
}

static int load(so_hstore *st, const char *sql, so_hrows *rows, so_error *err)
{
    memset(rows, 0, sizeof *rows);
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot read the results database");
    int rc = append_rows(st, s, rows, err);
    sqlite3_finalize(s);
    if (rc)
        so_hrows_free(rows);
    return rc;
}

int so_hstore_get(so_hstore *st, const char *hash, const char *backend,
                  int rep, so_hrows *rows, so_error *err)
{
    sqlite3_stmt *s = st->get;
    sqlite3_reset(s);
    sqlite3_bind_text(s, 1, hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 2, backend, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s, 3, rep);
    int rc = append_rows(st, s, rows, err);
    sqlite3_reset(s);
    return rc;
}

int so_hstore_load(so_hstore *st, so_hrows *rows, so_error *err)
{
    return load(st,
                "SELECT " COLUMNS " FROM cells ORDER BY problem, family, params,"
                " seed, instance_index, instance, instance_hash, backend, rep",
                rows, err);
}
