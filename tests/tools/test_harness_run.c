/* test_harness_run.c — the worker pool: a run killed with SIGKILL part-way
 * and resumed has exactly one row per cell and the summary of an
 * uninterrupted run; a hanging backend is killed at its limit, a crashing
 * or failing one is recorded, and the run goes on. The test-only backends
 * below exist only in this file: the harness takes backend descriptions,
 * so they need no registry row. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sqlite3.h>
#include "tests/test_util.h"
#include "tests/tools/harness_testing.h"
#include "tools/harness/harness.h"

static int slow_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    usleep(100000); /* long enough to be killed part-way, even under ASan and load */
    return so_backend_find("kp-greedy")->solve(p, prm, r);
}

static int hang_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)p, (void)prm, (void)r;
    for (;;)
        pause();
    return SO_OK; /* not reached */
}

static int crash_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)p, (void)prm, (void)r;
    abort();
}

static int refuse_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)p, (void)prm;
    so_result_set_message(r, "not for this instance");
    return SO_EUNSUPPORTED;
}

/* A frontier backend as the Pareto kind will have one: its frontier and
 * its hypervolume ratio as extras. */
static int frontier_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)p, (void)prm;
    so_result_set_status(r, SO_FEASIBLE);
    so_result_set_extra(r, "frontier", json_pack("[[f,f],[f,f],[f,f]]", 1.0, 9.0, 2.0,
                                                 4.0, 5.0, 1.5));
    so_result_set_extra(r, "hypervolume_ratio", json_real(0.8));
    so_result_set_extra(r, "iterations", json_integer(7));
    return SO_OK;
}

static const so_backend slow = {"test-slow", "knapsack", 0, "greedy after 100 ms", slow_solve, NULL};
static const so_backend hang = {"test-hang", "knapsack", 0, "never returns", hang_solve, NULL};
static const so_backend crash = {"test-crash", "knapsack", 0, "aborts", crash_solve, NULL};
static const so_backend refuse = {"test-refuse", "knapsack", 0, "fails", refuse_solve, NULL};
static const so_backend front = {"test-frontier", "knapsack", 0, "a fixed frontier",
                                 frontier_solve, NULL};

static void instances(so_hinsts *s, uint64_t count)
{
    so_params set;
    so_params_init(&set);
    so_params_set(&set, "n", "15");
    so_error err;
    memset(s, 0, sizeof *s);
    CU_ASSERT_EQUAL_FATAL(so_hinsts_add_family(s, so_family_find("knapsack"), &set, 7,
                                               count, &err), SO_OK);
}

static void config(so_hconfig *c, const so_backend *extra)
{
    so_error err;
    so_hconfig_init(c);
    CU_ASSERT_EQUAL_FATAL(so_hconfig_add_reference(c, "kp-glpk", &err), SO_OK);
    c->backends[c->n_backends++] = extra;
    c->jobs = 2;
    c->time_limit = 20;
}

static const char *db_path(const char *name)
{
    static char paths[4][600];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 600, "%s/%s", so_test_tmpdir(), name);
    return p;
}

static int run(const so_hconfig *c, const so_hinsts *s, const char *db, size_t *ran)
{
    so_hstore *st = NULL;
    so_error err;
    int rc = so_hstore_open(db, 1, &st, &err);
    if (!rc)
        rc = so_harness_run(c, s, st, ran, &err);
    so_hstore_close(st);
    return rc;
}

static void tables(const char *db, so_htables *t, so_hrows *rows, so_hkinds *kinds)
{
    so_hstore *st = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_hstore_open(db, 1, &st, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(so_hstore_load(st, rows, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(so_hstore_kinds(st, kinds, &err), SO_OK);
    so_hstore_close(st);
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(rows, kinds, NULL, t), SO_OK);
}

#define CELLS 32 /* 16 instances x {kp-glpk, test-slow} */

static void test_kill_and_resume(void)
{
    so_hinsts s;
    so_hconfig c;
    instances(&s, CELLS / 2);
    config(&c, &slow);
    const char *db = db_path("run-killed.db"), *whole = db_path("run-whole.db");
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        size_t ran;
        _exit(run(&c, &s, db, &ran) ? 1 : 0);
    }
    int status = harness_kill_at(pid, db, "SELECT count(*) FROM cells", 6);
    CU_ASSERT_TRUE(WIFSIGNALED(status));
    long long before = harness_db_int(db, "SELECT count(*) FROM cells");
    CU_ASSERT_TRUE(before >= 6 && before < CELLS);

    c.resume = 1;
    size_t ran = 0;
    CU_ASSERT_EQUAL_FATAL(run(&c, &s, db, &ran), SO_OK);
    CU_ASSERT_EQUAL(ran, CELLS - before);
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(*) FROM cells"), CELLS);
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(DISTINCT instance_hash || backend || rep) FROM cells"),
                    CELLS);
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(*) FROM cells WHERE status NOT IN"
                              " ('optimal', 'feasible')"), 0);
    CU_ASSERT_EQUAL(run(&c, &s, db, &ran), SO_OK);
    CU_ASSERT_EQUAL(ran, 0);
    /* the resumed database has the summary of an uninterrupted run */
    c.resume = 0;
    CU_ASSERT_EQUAL_FATAL(run(&c, &s, whole, &ran), SO_OK);
    so_htables a, b;
    so_hrows ra, rb;
    so_hkinds fa, fb;
    tables(db, &a, &ra, &fa);
    tables(whole, &b, &rb, &fb);
    CU_ASSERT_EQUAL_FATAL(a.n_sums, 2);
    CU_ASSERT_EQUAL_FATAL(b.n_sums, 2);
    for (size_t k = 0; k < 2; k++) {
        const so_hsummary *x = &a.sums[k], *y = &b.sums[k];
        CU_ASSERT_STRING_EQUAL(x->backend, y->backend);
        CU_ASSERT_EQUAL(x->instances, CELLS / 2);
        CU_ASSERT_EQUAL(x->instances, y->instances);
        CU_ASSERT_EQUAL(x->cells, y->cells);
        CU_ASSERT_EQUAL(x->solved, y->solved);
        CU_ASSERT_EQUAL(x->optimal, y->optimal);
        CU_ASSERT_EQUAL(x->with_ratio, CELLS / 2);
        CU_ASSERT_EQUAL(x->mean_ratio, y->mean_ratio);
        CU_ASSERT_EQUAL(x->median_ratio, y->median_ratio);
        CU_ASSERT_EQUAL(x->worst_ratio, y->worst_ratio);
    }
    /* the greedy is never better than the exact optimum */
    CU_ASSERT_STRING_EQUAL(a.sums[1].backend, "test-slow");
    CU_ASSERT_TRUE(a.sums[1].mean_ratio >= 1 && a.sums[1].worst_ratio >= a.sums[1].mean_ratio);
    CU_ASSERT_EQUAL(a.sums[0].optimal, CELLS / 2);
    /* without --resume every cell runs again and replaces its row */
    CU_ASSERT_EQUAL(run(&c, &s, db, &ran), SO_OK);
    CU_ASSERT_EQUAL(ran, CELLS);
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(*) FROM cells"), CELLS);

    so_htables_free(&a);
    so_htables_free(&b);
    so_hrows_free(&ra);
    so_hkinds_free(&fa);
    so_hrows_free(&rb);
    so_hkinds_free(&fb);
    so_hinsts_free(&s);
}

static void test_hang_crash_error(void)
{
    so_hinsts s;
    so_hconfig c;
    instances(&s, 3);
    config(&c, &hang);
    c.backends[c.n_backends++] = &crash;
    c.backends[c.n_backends++] = &refuse;
    c.time_limit = 0.2; /* killed 0.4 s after the start */
    const char *db = db_path("run-hang.db");
    size_t ran = 0;
    CU_ASSERT_EQUAL_FATAL(run(&c, &s, db, &ran), SO_OK);
    CU_ASSERT_EQUAL(ran, 12);
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(*) FROM cells"), 12);
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(*) FROM cells WHERE backend = 'test-hang'"
                              " AND status = 'killed' AND seconds >= 0.4 AND seconds < 5"
                              " AND message LIKE 'no answer 0.4 s after the start%'"), 3);
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(*) FROM cells WHERE backend = 'test-crash'"
                              " AND status = 'crashed' AND message LIKE '%signal 6%'"), 3);
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(*) FROM cells WHERE backend = 'test-refuse'"
                              " AND status = 'error' AND message ="
                              " 'unsupported: test-refuse: not for this instance'"), 3);
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(*) FROM cells WHERE backend = 'kp-glpk'"
                              " AND status = 'optimal' AND objective > 0"), 3);
    /* what each row records about its instance and the program */
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(*) FROM cells WHERE family = 'knapsack'"
                              " AND seed = 7 AND instance_index BETWEEN 0 AND 2"
                              " AND json_extract(params, '$.n') = 15"
                              " AND version = '" SO_VERSION "' AND length(instance_hash) = 16"
                              " AND time_limit = 0.2"), 12);
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(DISTINCT instance_hash) FROM cells"), 3);
    /* the unique key makes a duplicate row impossible */
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(*) FROM sqlite_master WHERE sql LIKE"
                              " '%UNIQUE(instance_hash, backend, rep)%'"), 1);
    sqlite3 *h;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
    int rc = sqlite3_exec(h, "INSERT INTO cells(instance, instance_hash, problem, sense,"
                             " backend, exact, rep, version, status, seconds)"
                             " SELECT instance, instance_hash, problem, sense, backend,"
                             " exact, rep, version, status, seconds FROM cells LIMIT 1",
                          NULL, NULL, NULL);
    CU_ASSERT_EQUAL(rc, SQLITE_CONSTRAINT);
    sqlite3_close(h);
    so_hinsts_free(&s);
}

static void test_repetitions(void)
{
    so_hinsts s;
    so_hconfig c;
    instances(&s, 2);
    config(&c, so_backend_find("kp-greedy"));
    c.reps = 3;
    c.jobs = 1;
    const char *db = db_path("run-reps.db");
    size_t ran = 0;
    CU_ASSERT_EQUAL_FATAL(run(&c, &s, db, &ran), SO_OK);
    CU_ASSERT_EQUAL(ran, 12);
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(DISTINCT rep) FROM cells"), 3);
    so_hstore *st;
    so_error err;
    so_hrows rows;
    so_hkinds kinds;
    CU_ASSERT_EQUAL_FATAL(so_hstore_open(db, 1, &st, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(so_harness_select(&c, &s, st, &rows, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(so_hstore_kinds(st, &kinds, &err), SO_OK);
    so_hstore_close(st);
    CU_ASSERT_EQUAL(rows.n, 12);
    CU_ASSERT_EQUAL_FATAL(kinds.n, 1);
    CU_ASSERT_STRING_EQUAL(kinds.v[0].problem, "knapsack");
    CU_ASSERT_STRING_EQUAL(kinds.v[0].reference, "kp-glpk");
    CU_ASSERT_STRING_EQUAL(kinds.v[0].group_by, "");
    so_htables t;
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, NULL, &t), SO_OK);
    CU_ASSERT_EQUAL(t.sums[1].instances, 2);
    CU_ASSERT_EQUAL(t.sums[1].cells, 6);
    so_htables_free(&t);
    so_hrows_free(&rows);
    so_hkinds_free(&kinds);
    so_hinsts_free(&s);
}

static void test_frontier_rows_and_plots(void)
{
    so_hinsts s;
    so_hconfig c;
    instances(&s, 2);
    config(&c, &front);
    const char *db = db_path("run-frontier.db");
    size_t ran = 0;
    CU_ASSERT_EQUAL_FATAL(run(&c, &s, db, &ran), SO_OK);
    CU_ASSERT_EQUAL(harness_db_int(db, "SELECT count(*) FROM cells WHERE backend = 'test-frontier'"
                              " AND frontier = '[[1.0,9.0],[2.0,4.0],[5.0,1.5]]'"
                              " AND json_extract(extras, '$.hypervolume_ratio') = 0.8"
                              " AND json_extract(extras, '$.iterations') = 7"
                              " AND objective IS NULL"), 2);
    so_htables t;
    so_hrows rows;
    so_hkinds kinds;
    tables(db, &t, &rows, &kinds);
    CU_ASSERT_STRING_EQUAL(t.sums[1].backend, "test-frontier");
    CU_ASSERT_DOUBLE_EQUAL(t.sums[1].mean_ratio, 1.25, 1e-12);
    CU_ASSERT_EQUAL(t.sums[1].optimal, 0);
    char dir[600];
    snprintf(dir, sizeof dir, "%s/frontier-plots", so_test_tmpdir());
    mkdir(dir, 0777);
    int plotted = -1, skipped = -1;
    so_error err;
    CU_ASSERT_EQUAL(so_harness_plot(&t, dir, &plotted, &skipped, &err), SO_OK);
    CU_ASSERT_EQUAL(skipped, 0);
    CU_ASSERT_EQUAL(plotted, 3); /* the gaps and two frontiers */
    char path[900];
    snprintf(path, sizeof path, "%s/frontier-%s-%.8s.dat", dir, rows.v[0].instance,
             rows.v[0].hash);
    char *dat = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL(dat);
    CU_ASSERT_STRING_EQUAL(dat ? dat : "", "# test-frontier\n1 9\n2 4\n5 1.5\n\n\n");
    free(dat);
    snprintf(path, sizeof path, "%s/frontier-%s-%.8s.svg", dir, rows.v[0].instance,
             rows.v[0].hash);
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
    so_htables_free(&t);
    so_hrows_free(&rows);
    so_hkinds_free(&kinds);
    so_hinsts_free(&s);
}

static void test_cell_checks(void)
{
    so_hinsts s;
    so_hconfig c;
    so_error err;
    instances(&s, 1);
    so_hconfig_init(&c);
    CU_ASSERT_EQUAL(so_hconfig_add_backend(&c, "kp-greedy", &err), SO_OK);
    so_hcell *cells = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL(so_harness_cells(&c, &s, &cells, &n, &err), SO_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "no reference backend for 'knapsack'"));
    CU_ASSERT_EQUAL(so_hconfig_add_backend(&c, "no-such", &err), SO_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "unknown backend 'no-such'"));
    CU_ASSERT_EQUAL(so_hconfig_add_backend_list(&c, ",", 1, &err), SO_EINVAL);
    CU_ASSERT_EQUAL(so_hconfig_add_backend_list(&c, "kp-glpk,kp-greedy", 1, &err), SO_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "two references for 'knapsack'"));
    static const so_backend other = {"test-other", "other-kind", 1, "", refuse_solve, NULL};
    c.backends[c.n_backends++] = &other;
    CU_ASSERT_EQUAL(so_harness_cells(&c, &s, &cells, &n, &err), SO_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "backend 'test-other' solves 'other-kind'"));
    c.n_backends--;
    CU_ASSERT_EQUAL_FATAL(so_harness_cells(&c, &s, &cells, &n, &err), SO_OK);
    CU_ASSERT_EQUAL(n, 2); /* kp-greedy and the reference kp-glpk */
    CU_ASSERT_PTR_EQUAL(cells[0].backend, so_backend_find("kp-greedy"));
    CU_ASSERT_PTR_EQUAL(cells[1].backend, so_backend_find("kp-glpk"));
    free(cells);
    so_hinsts_free(&s);
    so_hinsts empty = {0};
    CU_ASSERT_EQUAL(so_harness_cells(&c, &empty, &cells, &n, &err), SO_EINVAL);
}

static CU_TestInfo tests[] = {
    {"SIGKILL part-way, resume: one row per cell, same summary", test_kill_and_resume},
    {"hanging backend killed at its limit, crash and error recorded", test_hang_crash_error},
    {"repetitions are cells of their own", test_repetitions},
    {"frontier extras stored, gap from the hypervolume, plots", test_frontier_rows_and_plots},
    {"cells need a reference and a matching instance", test_cell_checks},
    CU_TEST_INFO_NULL,
};
SO_SUITE("harness-run", tests)
