/* test_harness_sim.c — simulation cells of the harness: (workload, policy,
 * seed) through the cluster model. The program killed with SIGKILL and
 * resumed keeps one row per cell and the summary of an uninterrupted run;
 * the reference policy's ratio is 1; the lower bound never exceeds any
 * policy's mean, p95, max response or makespan; the bound by hand on a
 * one-job workload; a scenario with policies; bad policies. */
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
#include "tests/tools/harness_testing.h"
#include "tools/harness/harness.h"

#define WORKLOADS 6
#define POLICIES "fifo,fair,flex,lower-bound"
#define REPS 2
#define CELLS (WORKLOADS * 4 * REPS)

/* A folder of WORKLOADS workloads: 12 jobs with uniform map and reduce
 * times (seeded by the cell), arrivals 10 + 5 w seconds apart. */
static const char *workload_folder(void)
{
    static char dir[600];
    snprintf(dir, sizeof dir, "%s/sim-workloads", so_test_tmpdir());
    if (mkdir(dir, 0755))
        return dir; /* made by an earlier test */
    for (int w = 0; w < WORKLOADS; w++) {
        char *text = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&text, &len);
        fprintf(fp, "{\"problem\": \"cluster\", \"version\": 1, \"cluster\": {\"nodes\":"
                    " [{\"count\": 10, \"map_slots\": 2, \"reduce_slots\": 2}]},"
                    " \"jobs\": [");
        for (int j = 0; j < 12; j++)
            fprintf(fp, "%s{\"name\": \"j%d\", \"submit\": %d, \"maps\": {\"count\": %d,"
                        " \"duration\": {\"dist\": \"uniform\", \"lo\": 5, \"hi\": 15}},"
                        " \"reduces\": {\"count\": 4, \"copy\": 2, \"sort\": 1, \"reduce\":"
                        " {\"dist\": \"uniform\", \"lo\": 5, \"hi\": 10}}}",
                    j ? ", " : "", j, j * (10 + 5 * w), 60 + 20 * ((j * 7 + w) % 6));
        fprintf(fp, "]}\n");
        fclose(fp);
        char name[64];
        snprintf(name, sizeof name, "sim-workloads/w%d.json", w);
        so_test_write(name, text);
        free(text);
    }
    return dir;
}

static long long count_rows(const char *db)
{
    return harness_db_int(db, "SELECT count(*) FROM cells");
}

/* The rows without their timings, one text. */
static char *rows_text(const char *db)
{
    return harness_db_rows(db, "SELECT instance, instance_hash, problem, backend, rep, status,"
                               " printf('%.9g', objective), json_remove(extras, '$.sim_seconds'),"
                               " params FROM cells ORDER BY instance_hash, backend, rep", NULL);
}

static pid_t start_bench(const char *dir, const char *db)
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        execl(SO_BINARY, SO_BINARY, "bench", "--workload", dir, "--policies", POLICIES,
              "--sim-reference", "fair", "--repetitions", "2", "--db", db, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static void test_kill_and_resume(void)
{
    const char *dir = workload_folder();
    char killed[700], whole[700], args[2400];
    snprintf(killed, sizeof killed, "%s/sim-kill.db", so_test_tmpdir());
    snprintf(whole, sizeof whole, "%s/sim-whole.db", so_test_tmpdir());
    pid_t pid = start_bench(dir, killed);
    CU_ASSERT_FATAL(pid > 0);
    int status = harness_kill_at(pid, killed, "SELECT count(*) FROM cells", 5);
    CU_ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    long long before = count_rows(killed);
    CU_ASSERT_TRUE(before >= 5 && before < CELLS);

    char *out = NULL, *err = NULL, expect[80];
    snprintf(args, sizeof args, "bench --workload %s --policies " POLICIES " --sim-reference"
             " fair --repetitions 2 --db %s --resume --format csv", dir, killed);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    snprintf(expect, sizeof expect, "%lld cells run, %lld already stored", CELLS - before, before);
    CU_ASSERT_PTR_NOT_NULL(err ? strstr(err, expect) : NULL);
    free(out);
    free(err);
    CU_ASSERT_EQUAL(count_rows(killed), CELLS);
    snprintf(args, sizeof args, "bench --workload %s --policies " POLICIES " --sim-reference"
             " fair --repetitions 2 --db %s --format csv", dir, whole);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    char *a = rows_text(killed), *b = rows_text(whole);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT_PTR_NOT_NULL(strstr(a, "|simulated|"));
    CU_ASSERT_PTR_NOT_NULL(strstr(a, "|lower-bound|0|bound|"));
    free(a);
    free(b);
}

/* Reads the rows and tables of a database. */
static void load(const char *db, so_hrows *rows, so_hkinds *kinds, so_htables *t)
{
    so_hstore *st = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_hstore_open(db, 0, &st, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(so_hstore_load(st, rows, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(so_hstore_kinds(st, kinds, &err), SO_OK);
    so_hstore_close(st);
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(rows, kinds, NULL, t), SO_OK);
}

static double extra(const so_hrow *r, const char *a, const char *b)
{
    json_t *o = json_loads(r->extras ? r->extras : "{}", 0, NULL);
    json_t *v = json_object_get(o, a);
    if (b)
        v = json_object_get(v, b);
    double x = json_is_number(v) ? json_number_value(v) : NAN;
    json_decref(o);
    return x;
}

static void test_reference_and_bound(void)
{
    const char *dir = workload_folder();
    char db[700], args[2000];
    snprintf(db, sizeof db, "%s/sim-ref.db", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --workload %s --policies fifo,fair+late,flex,lower-bound"
             " --sim-reference fair+late --repetitions 2 --db %s", dir, db);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
    so_hrows rows;
    so_hkinds kinds;
    so_htables t;
    load(db, &rows, &kinds, &t);
    CU_ASSERT_EQUAL(rows.n, WORKLOADS * 4 * 2);
    size_t refs = 0, compared = 0;
    for (size_t i = 0; i < t.n_cells; i++) {
        const so_hcellgap *c = &t.cells[i];
        CU_ASSERT_STRING_EQUAL(c->row->problem, "sim");
        CU_ASSERT_PTR_NOT_NULL_FATAL(c->ref);
        CU_ASSERT_EQUAL(c->ref->rep, c->row->rep);
        if (!strcmp(c->row->backend, "fair+late")) {
            refs++;
            CU_ASSERT_EQUAL(c->gap.ratio, 1);
        }
        if (strcmp(c->row->backend, "lower-bound"))
            continue;
        /* the bound of the same workload and seed against every policy */
        for (size_t k = 0; k < t.n_cells; k++) {
            const so_hrow *p = t.cells[k].row;
            if (strcmp(p->hash, c->row->hash) || p->rep != c->row->rep || p == c->row)
                continue;
            compared++;
            CU_ASSERT_TRUE(c->row->objective <= p->objective + 1e-9);
            CU_ASSERT_TRUE(extra(c->row, "response", "p95") <= extra(p, "response", "p95") + 1e-9);
            CU_ASSERT_TRUE(extra(c->row, "response", "max") <= extra(p, "response", "max") + 1e-9);
            CU_ASSERT_TRUE(extra(c->row, "makespan", NULL) <= extra(p, "makespan", NULL) + 1e-9);
        }
        CU_ASSERT_TRUE(c->gap.ratio < 1);
    }
    CU_ASSERT_EQUAL(refs, WORKLOADS * 2);
    CU_ASSERT_EQUAL(compared, WORKLOADS * 2 * 3);
    /* grouped by workload: one summary per workload and policy */
    CU_ASSERT_EQUAL(t.n_sums, WORKLOADS * 4);
    CU_ASSERT_PTR_NOT_NULL(strstr(t.sums[0].group, "workload=w"));
    /* the plots' data: the mean metric per group and policy, CDFs */
    char plots[700];
    snprintf(plots, sizeof plots, "%s/sim-plots", so_test_tmpdir());
    snprintf(args, sizeof args, "report --db %s --plot %s", db, plots);
    setenv("SLOTOPT_GNUPLOT", "/nonexistent/gnuplot", 1);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    unsetenv("SLOTOPT_GNUPLOT");
    char path[800];
    snprintf(path, sizeof path, "%s/sim-metric.dat", plots);
    char *dat = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dat);
    /* policies in the order of the summaries (the database's: by name) */
    const char *head = "# group \"fair+late\" \"fifo\" \"flex\" \"lower-bound\"\n";
    CU_ASSERT_EQUAL(strncmp(dat, head, strlen(head)), 0);
    char expect[200];
    const so_hsummary *s0 = &t.sums[0];
    /* every group is "workload=...": the value on the axis, the key its label */
    CU_ASSERT_EQUAL(strncmp(s0->group, "workload=", 9), 0);
    snprintf(expect, sizeof expect, "\n\"%s\" %.12g ", s0->group + 9, s0->mean_objective);
    CU_ASSERT_PTR_NOT_NULL(strstr(dat, expect));
    free(dat);
    snprintf(path, sizeof path, "%s/sim-metric.gp", plots);
    dat = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL(dat ? strstr(dat, "set xlabel 'workload'\n") : NULL);
    free(dat);
    snprintf(path, sizeof path, "%s/sim-cdf-workload=w0.dat", plots);
    dat = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL(dat ? strstr(dat, "# lower-bound\n") : NULL);
    free(dat);
    so_htables_free(&t);
    so_hrows_free(&rows);
    so_hkinds_free(&kinds);
}

/* One job: 4 maps of 10 s on 2 nodes of 1 map slot at speed 2 (and one
 * at speed 1), 1 reduce (copy 2, sort 1, reduce 3). Bound by hand:
 * maps max(10 / 2, 40 / (3 x 2)) = 6.667, reduce (1 + 3) / 2 = 2: 8.667. */
static void test_bound_by_hand(void)
{
    const char *wl = so_test_write(
        "sim-one.json",
        "{\"problem\": \"cluster\", \"version\": 1, \"cluster\": {\"nodes\": ["
        "{\"count\": 2, \"map_slots\": 1, \"reduce_slots\": 1, \"speed\": 2},"
        "{\"count\": 1, \"map_slots\": 1, \"reduce_slots\": 1}]},"
        " \"jobs\": [{\"name\": \"a\", \"submit\": 5, \"maps\": [10, 10, 10, 10],"
        " \"reduces\": [{\"copy\": 2, \"sort\": 1, \"reduce\": 3}]}]}\n");
    char db[700], args[1400];
    snprintf(db, sizeof db, "%s/sim-one.db", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --workload %s --policies fair,lower-bound --db %s"
             " --metric makespan --cells --format csv", wl, db);
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "sim,sim-one,lower-bound,0,bound,8.66666666666666") : NULL);
    free(out);
}

static void test_scenario_and_errors(void)
{
    workload_folder();
    const char *sc = so_test_write(
        "sim-scenario.json",
        "{\"description\": \"test\", \"reproduces\": \"nothing\",\n"
        " \"policies\": [\"fair\", {\"name\": \"flex-avg\", \"policy\": \"flex\"}],\n"
        " \"sim_reference\": \"lower-bound\", \"metric\": \"p95_response\",\n"
        " \"inputs\": [{\"workload\": \"sim-workloads/w0.json\"}]}\n");
    char db[700], args[1400];
    snprintf(db, sizeof db, "%s/sim-scenario.db", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --scenario %s --db %s --format csv", sc, db);
    char *out = NULL, *err = NULL;
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    /* simulation words: the metric, p95 and max (s), the ratio, as good as
     * the reference; the reference's own ratio 1, on its 1 cell */
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "group,policy,cells,p95_response (s),p95 (s),"
                                             "max (s),vs ref,worst vs ref,as good as ref,"
                                             "sim s\n") : NULL);
    const char *lb = out ? strstr(out, "\nworkload=w0,lower-bound,1,") : NULL;
    CU_ASSERT_PTR_NOT_NULL(lb && strstr(lb, ",1,1,1,"));
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "\nworkload=w0,flex-avg,1,") : NULL);
    free(out);
    free(err);
    static const struct {
        const char *args, *expect;
    } bad[] = {
        {"--policies nosuch", "unknown scheduler 'nosuch'"},
        {"--policies fair+nosuch", "unknown speculation 'nosuch'"},
        {"--policies fair,fair", "policy 'fair' given twice"},
        {"--policies fair --sim-reference flex", "the simulation reference 'flex' is not one"},
        {"--policies fair --metric median", "expected mean_response"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "bench --workload %s/sim-workloads/w0.json %s --db %s",
                 so_test_tmpdir(), bad[i].args, db);
        CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
        if (!err || !strstr(err, bad[i].expect))
            fprintf(stderr, "\n%s: %s", bad[i].args, err ? err : "");
        CU_ASSERT_PTR_NOT_NULL(err ? strstr(err, bad[i].expect) : NULL);
        free(err);
    }
    snprintf(args, sizeof args, "bench --workload %s --policies fair --db %s",
             so_test_write("sim-bad.json", "{\"jobs\": 3}\n"), db);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err ? strstr(err, "sim-bad.json") : NULL);
    free(err);
}

/* A simulation cell past its limit stops itself (issue 26): a replay of
 * about 5e8 heartbeats (over 10 s) under a 0.3 s limit is stored as
 * "time limit", partial, well before the worker would be killed at 0.6 s;
 * the run goes on to the bound's cell. */
static void test_time_limit(void)
{
    char db[700], args[1400];
    const char *wl = so_test_write(
        "sim-long.json", "{\"cluster\": {\"nodes\": [{\"count\": 2}], \"heartbeat\":"
                         " 0.01}, \"jobs\": [{\"submit\": 0, \"maps\": {\"count\": 100,"
                         " \"duration\": 1e5}}]}\n");
    snprintf(db, sizeof db, "%s/sim-limit.db", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --workload %s --policies fifo,lower-bound"
             " --time-limit 0.3 --db %s --cells --format csv", wl, db);
    char *out = NULL;
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "sim,sim-long,fifo,0,time limit,") : NULL);
    if (!out || !strstr(out, "sim,sim-long,fifo,0,time limit,"))
        fprintf(stderr, "\n%s", out ? out : "");
    free(out);
    CU_ASSERT_EQUAL(count_rows(db), 2);
}

/* Options that cannot act are checked in bench cells as in `slotopt sim`
 * (cluster/run_checks.c): stealing on jobs without a parallel fraction is
 * kept with a warning in the cell's extras; delay scheduling without a
 * locality model fails the cell with the option named. */
static void test_options_that_cannot_act(void)
{
    workload_folder();
    char db[700], args[1400];
    snprintf(db, sizeof db, "%s/sim-cannot-act.db", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --workload %s/sim-workloads/w0.json --policies"
             " fair+none+even,fair --db %s", so_test_tmpdir(), db);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    char *w = harness_db_rows(db, "SELECT backend || ':' || coalesce(json_extract(extras,"
                                  " '$.warnings[0]'), '-') FROM cells ORDER BY backend", NULL);
    CU_ASSERT_PTR_NOT_NULL(w ? strstr(w, "fair:-") : NULL);
    CU_ASSERT_PTR_NOT_NULL(w ? strstr(w, "fair+none+even:--stealing even: no job has a"
                                         " parallel fraction") : NULL);
    free(w);
    snprintf(db, sizeof db, "%s/sim-cannot-act2.db", so_test_tmpdir());
    const char *sc = so_test_write(
        "sim-delay-scenario.json",
        "{\"description\": \"test\", \"reproduces\": \"nothing\",\n"
        " \"policies\": [{\"name\": \"fair-delay\", \"policy\": \"fair\","
        " \"options\": {\"locality_delay\": 4.5}}],\n"
        " \"inputs\": [{\"workload\": \"sim-workloads/w0.json\"}]}\n");
    snprintf(args, sizeof args, "bench --scenario %s --db %s", sc, db);
    so_test_run(args, NULL, NULL);
    char *m = harness_db_rows(db, "SELECT status || ':' || coalesce(message, '') FROM cells",
                              NULL);
    CU_ASSERT_PTR_NOT_NULL(m ? strstr(m, "locality_delay") : NULL);
    CU_ASSERT_PTR_NOT_NULL(m ? strstr(m, "no locality model") : NULL);
    free(m);
}

/* lp-bound and offline-opt hold only for the workload they read and for
 * runs that never go faster than a task's profile: a scenario comparing
 * them with a policy under task-time noise, or with a policy whose options
 * change the workload, is refused at its start with the option named;
 * noise set for every cell fails the bounds' cells. */
static void test_bounds_refused(void)
{
    workload_folder();
    static const struct {
        const char *policies, *expect;
    } bad[] = {
        {"\"fifo\", {\"name\": \"fifo-noise\", \"policy\": \"fifo\", \"options\":"
         " {\"noise_cv\": 1}}, \"lp-bound\"",
         "policy 'fifo-noise': noise_cv=1 lets a task finish faster"},
        {"{\"name\": \"fifo-noise\", \"policy\": \"fifo\", \"options\": {\"noise_cv\": 0.5}},"
         " \"offline-opt\"", "policy 'fifo-noise': noise_cv=0.5"},
        {"{\"name\": \"fifo3\", \"policy\": \"fifo\", \"options\": {\"map_slots\": 3}},"
         " \"lp-bound\"", "policy 'fifo3' sets map_slots=3 and 'lp-bound' does not"},
    };
    char db[700], args[1400], text[1200];
    snprintf(db, sizeof db, "%s/sim-refused.db", so_test_tmpdir());
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(text, sizeof text,
                 "{\"description\": \"test\", \"reproduces\": \"nothing\",\n"
                 " \"policies\": [%s],\n"
                 " \"inputs\": [{\"workload\": \"sim-workloads/w0.json\"}]}\n",
                 bad[i].policies);
        snprintf(args, sizeof args, "bench --scenario %s --db %s",
                 so_test_write("sim-refused.json", text), db);
        char *err = NULL;
        CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
        if (!err || !strstr(err, bad[i].expect))
            fprintf(stderr, "\n%s: %s", bad[i].policies, err ? err : "");
        CU_ASSERT_PTR_NOT_NULL(err ? strstr(err, bad[i].expect) : NULL);
        free(err);
    }
    /* slow-downs only slow a task: allowed */
    snprintf(text, sizeof text,
             "{\"description\": \"test\", \"reproduces\": \"nothing\",\n"
             " \"policies\": [{\"name\": \"fifo-slow\", \"policy\": \"fifo\", \"options\":"
             " {\"slowdown_gap\": 5}}, \"lp-bound\"],\n"
             " \"inputs\": [{\"workload\": \"sim-workloads/w0.json\"}]}\n");
    snprintf(db, sizeof db, "%s/sim-slowed.db", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --scenario %s --db %s",
             so_test_write("sim-slowed.json", text), db);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    /* noise for every cell: the bound's cell fails, naming it */
    snprintf(text, sizeof text,
             "{\"description\": \"test\", \"reproduces\": \"nothing\",\n"
             " \"policies\": [\"fifo\", \"lp-bound\"],\n"
             " \"settings\": [{\"name\": \"noisy\", \"options\": {\"noise_cv\": 1}}],\n"
             " \"inputs\": [{\"workload\": \"sim-workloads/w0.json\"}]}\n");
    snprintf(db, sizeof db, "%s/sim-noisy.db", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --scenario %s --db %s",
             so_test_write("sim-noisy.json", text), db);
    so_test_run(args, NULL, NULL);
    char *m = harness_db_rows(db, "SELECT backend || ':' || coalesce(message, '-') FROM cells"
                                  " ORDER BY backend", NULL);
    CU_ASSERT_PTR_NOT_NULL(m ? strstr(m, "fifo:-") : NULL);
    const char *msg = "lp-bound:invalid input: noise_cv=1 lets a task finish faster";
    CU_ASSERT_PTR_NOT_NULL(m ? strstr(m, msg) : NULL);
    if (!m || !strstr(m, msg))
        fprintf(stderr, "\n%s", m ? m : "");
    free(m);
}

/* Slow spells on generated instances: each instance's runs draw from its
 * own seed (so_harness_run_seed), and lp-bound's cell holds for the
 * heartbeat phases of that seed, the one its policies ran with. */
static void test_bound_run_seed(void)
{
    char db[700], args[1400];
    snprintf(db, sizeof db, "%s/sim-run-seed.db", so_test_tmpdir());
    const char *sc = so_test_write(
        "sim-run-seed.json",
        "{\"description\": \"test\", \"reproduces\": \"nothing\",\n"
        " \"policies\": [\"fifo\", \"lp-bound\"],\n"
        " \"settings\": [{\"name\": \"spells\", \"options\": {\"slowdown_gap\": 600}}],\n"
        " \"inputs\": [{\"family\": \"flex-cluster\", \"params\": {\"jobs\": 2},"
        " \"count\": 2, \"seed\": 1}]}\n");
    snprintf(args, sizeof args, "bench --scenario %s --db %s", sc, db);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    char *m = harness_db_rows(db, "SELECT backend || ':' || instance_index || ':' ||"
                                  " coalesce(json_extract(extras, '$.run_seed'), '-') FROM cells"
                                  " ORDER BY instance_index, backend", NULL);
    CU_ASSERT_PTR_NOT_NULL(m ? strstr(m, "fifo:0:-") : NULL);
    CU_ASSERT_PTR_NOT_NULL(m ? strstr(m, "lp-bound:0:-") : NULL);
    CU_ASSERT_PTR_NOT_NULL(m ? strstr(m, "fifo:1:1001") : NULL);
    CU_ASSERT_PTR_NOT_NULL(m ? strstr(m, "lp-bound:1:1001") : NULL);
    if (!m || !strstr(m, "lp-bound:1:1001"))
        fprintf(stderr, "\n%s", m ? m : "");
    free(m);
}

static CU_TestInfo tests[] = {
    {"a cell past its time limit stops itself and is recorded", test_time_limit},
    {"killed with SIGKILL, resumed: one row per cell, same rows", test_kill_and_resume},
    {"reference ratio 1, lower bound below every policy", test_reference_and_bound},
    {"lower bound by hand", test_bound_by_hand},
    {"bounds refused beside noise or other workloads", test_bounds_refused},
    {"lp-bound holds for its policies' run seed", test_bound_run_seed},
    {"options that cannot act: warned or refused per cell", test_options_that_cannot_act},
    {"a scenario with policies; bad policies and workloads", test_scenario_and_errors},
    CU_TEST_INFO_NULL,
};
SO_SUITE("harness-sim", tests)
