/* test_cluster_bounds.c — nothing runs away (issue 20, item 4, cluster
 * parts): option values that would make a replay endless are refused with
 * the option's name; SWIM traces asking for millions of tasks are refused
 * at the job's line and column unless the limit is raised; the malformed
 * cluster corpus (tests/corpus/cluster/NAME.L<line>.ext) fails at its line;
 * the progress line appears only after a few seconds and ends cleanly. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "cluster/cluster.h"
#include "tools/cli/sim_progress.h"

/* 300 maps of 64 MiB: (a) job derives 300 maps, (b) 2 maps, no reduces */
static const char *small_trace(void)
{
    return so_test_write("bounds.tsv", "a\t0\t0\t20132659200\t0\t0\n"
                                       "b\t5\t5\t100000000\t0\t0\n");
}

/* Every tests/corpus/sim-options/NAME.KEY.args holds sim arguments that
 * must be refused (exit 2) with KEY in the message and nothing on stdout. */
static void test_option_corpus(void)
{
    const char *dir = "tests/corpus/sim-options";
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    const char *trace = small_trace();
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *dot = strchr(e->d_name, '.');
        const char *ext = strstr(e->d_name, ".args");
        if (!dot || !ext || ext == dot)
            continue;
        char key[64], path[512], args[1024];
        snprintf(key, sizeof key, "%.*s", (int)(ext - dot - 1), dot + 1);
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = so_test_slurp(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        text[strcspn(text, "\n")] = '\0';
        snprintf(args, sizeof args, "sim %s --scheduler fair %s", trace, text);
        char *out = NULL, *err = NULL;
        int code = so_test_run(args, &out, &err);
        if (code != 2 || !err || !strstr(err, key))
            fprintf(stderr, "\n%s: exit %d: %s\n", e->d_name, code, err ? err : "");
        CU_ASSERT_EQUAL(code, 2);
        CU_ASSERT(err && strstr(err, key) != NULL);
        CU_ASSERT(out && out[0] == '\0');
        free(text);
        free(out);
        free(err);
        files++;
    }
    closedir(d);
    CU_ASSERT(files >= 10);
}

/* Every tests/corpus/cluster/NAME.L<line>.ext is refused at FILE:line:. */
static void test_workload_corpus(void)
{
    const char *dir = "tests/corpus/cluster";
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *l = strstr(e->d_name, ".L");
        if (!l || e->d_name[0] == '.')
            continue;
        int line = atoi(l + 2);
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        so_cl_workload *w = NULL;
        so_error err;
        so_error_clear(&err);
        int rc = so_cl_workload_read(path, NULL, 1, &w, &err);
        if (rc != SO_EINVAL || err.line != line)
            fprintf(stderr, "\n%s: rc %d line %d: %s\n", e->d_name, rc, err.line,
                    err.message);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        CU_ASSERT_EQUAL(err.line, line);
        CU_ASSERT(err.column >= 1);
        CU_ASSERT_PTR_NULL(w);
        files++;
    }
    closedir(d);
    CU_ASSERT(files >= 3);
}

/* Job a derives 300 maps: refused at line 1, column 7 (its input bytes)
 * under max_tasks_per_job=299, accepted at 300; the trace's 302 tasks are
 * refused under max_tasks=301 at line 2 (job b), accepted at 302. */
static void test_task_limits(void)
{
    const char *trace = small_trace();
    struct {
        const char *opt;
        int code;
        const char *where;
    } cases[] = {
        {"--opt max_tasks_per_job=299", 2, "bounds.tsv:1:7:"},
        {"--opt max_tasks_per_job=300", 0, NULL},
        {"--opt max_tasks=301", 2, "bounds.tsv:2:7:"},
        {"--opt max_tasks=302", 0, NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char args[1024], *out = NULL, *err = NULL;
        snprintf(args, sizeof args, "sim %s --scheduler fifo --opt nodes=4 %s",
                 trace, cases[k].opt);
        CU_ASSERT_EQUAL(so_test_run(args, &out, &err), cases[k].code);
        if (cases[k].where) {
            CU_ASSERT(err && strstr(err, cases[k].where) != NULL);
            /* the option named: "max_tasks_per_job" or "max_tasks" */
            char key[64];
            snprintf(key, sizeof key, "%.*s", (int)strcspn(cases[k].opt + 6, "="),
                     cases[k].opt + 6);
            CU_ASSERT(err && strstr(err, key) != NULL);
        } else {
            CU_ASSERT(out && strstr(out, "\"jobs\"") != NULL);
            CU_ASSERT(err && err[0] == '\0'); /* no terminal: no progress */
        }
        free(out);
        free(err);
    }
}

/* The lowest accepted values still run (job b alone: 2 maps of 47.7 MiB,
 * 4,769 s each at map_rate 0.01 MiB/s). */
static void test_lowest_values_run(void)
{
    const char *trace = so_test_write("bounds-b.tsv", "b\t5\t5\t100000000\t0\t0\n");
    const char *opts[] = {"--opt epoch=0.01 --opt heartbeat=0.01",
                          "--opt map_rate=0.01 --plot-step 0.1"};
    for (int k = 0; k < 2; k++) {
        char args[1024], *out = NULL;
        snprintf(args, sizeof args, "sim %s --scheduler fair --opt nodes=4 %s",
                 trace, opts[k]);
        CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
        CU_ASSERT(out && strstr(out, "\"makespan\"") != NULL);
        free(out);
    }
}

static double fake_time;
static double fake_clock(void) { return fake_time; }

static void test_progress_line(void)
{
    char line[200];
    so_sim_progress_format(line, sizeof line, 3725.4, 12, 48, 2500000, 61);
    CU_ASSERT_STRING_EQUAL(line, "sim: 12/48 jobs (25.0 %), simulated 1:02:05,"
                                 " 2.5 M events, 1:01");
    FILE *fp = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    so_sim_progress p;
    so_sim_progress_init(&p, fp);
    p.clock = fake_clock;
    p.start = fake_time = 100;
    so_sim_progress_update(&p, 10, 1, 4, 65536); /* at 0 s: silent */
    fake_time = 102.9;
    so_sim_progress_update(&p, 20, 1, 4, 131072); /* 2.9 s: silent */
    CU_ASSERT_EQUAL(ftell(fp), 0);
    fake_time = 103;
    so_sim_progress_update(&p, 30, 2, 4, 196608); /* 3 s: drawn */
    fake_time = 103.2;
    so_sim_progress_update(&p, 40, 3, 4, 262144); /* 0.2 s later: not */
    so_sim_progress_end(&p);
    rewind(fp);
    char buf[400] = "";
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = '\0';
    CU_ASSERT_STRING_EQUAL(buf, "\rsim: 2/4 jobs (50.0 %), simulated 0:30,"
                                " 0.2 M events, 0:03\033[K\n");
    fclose(fp);
}

/* The engine calls the progress callback every SO_CL_PROGRESS_EVENTS
 * events and once at the end with all jobs done. */
typedef struct seen {
    int calls, last_done, n_jobs;
    uint64_t last_events;
    double last_now;
} seen;

static void count_progress(void *ctx, double now, int done, int n, uint64_t ev)
{
    seen *s = ctx;
    CU_ASSERT(ev >= s->last_events && now >= s->last_now && done >= s->last_done);
    s->calls++;
    s->last_done = done;
    s->n_jobs = n;
    s->last_events = ev;
    s->last_now = now;
}

static void test_engine_progress(void)
{
    so_cl_workload *w = NULL;
    so_error err;
    so_params prm;
    so_params_init(&prm);
    CU_ASSERT_EQUAL_FATAL(so_params_set_kv(&prm, "nodes=2", &err), 0);
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_read(small_trace(), &prm, 1, &w, &err), 0);
    so_cl_config cfg = {0};
    cfg.scheduler = so_cl_scheduler_find("fifo");
    seen s = {0};
    cfg.progress = count_progress;
    cfg.progress_ctx = &s;
    so_cl_sim *sim = NULL;
    CU_ASSERT_EQUAL_FATAL(so_cl_sim_new(w, &cfg, &sim, &err), 0);
    CU_ASSERT_EQUAL(so_cl_sim_run(sim), 0);
    uint64_t events = so_cl_sim_stats(sim)->events;
    CU_ASSERT_EQUAL(s.calls, 1 + (int)(events / SO_CL_PROGRESS_EVENTS));
    CU_ASSERT_EQUAL(s.last_done, 2);
    CU_ASSERT_EQUAL(s.n_jobs, 2);
    CU_ASSERT_EQUAL(s.last_events, events);
    so_cl_sim_free(sim);
    so_cl_workload_free(w);
}

static CU_TestInfo tests[] = {
    {"option values that run away are refused by name", test_option_corpus},
    {"malformed cluster corpus: error at the named line", test_workload_corpus},
    {"SWIM task limits per job and in total, raised by --opt",
     test_task_limits},
    {"the lowest accepted values run", test_lowest_values_run},
    {"progress line: silent at first, then drawn and ended", test_progress_line},
    {"engine progress callback", test_engine_progress},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-bounds", tests)
