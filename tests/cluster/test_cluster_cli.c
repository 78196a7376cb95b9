/* test_cluster_cli.c — `slotopt sim`: report formats, atomic outputs (report,
 * event log, plot), usage errors and input errors with their line. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/test_util.h"

static const char *two_jobs =
    "{\"cluster\": {\"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 1}],\n"
    " \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},\n"
    " \"jobs\": [{\"name\": \"A\", \"submit\": 0, \"slowstart\": 1,\n"
    "   \"maps\": [3, 3], \"reduces\": [{\"reduce\": 2}]},\n"
    "  {\"name\": \"B\", \"submit\": 1, \"maps\": [1]}]}\n";

static void test_json_report(void)
{
    const char *in = so_test_write("two.json", two_jobs);
    char args[1024], *out = NULL;
    snprintf(args, sizeof args, "sim %s --scheduler fifo", in);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, NULL), 0);
    json_error_t jerr;
    json_t *j = json_loads(out, 0, &jerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(j, "makespan")), 8, 1e-9);
    json_t *resp = json_object_get(j, "response");
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(resp, "mean")), 7, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(resp, "p95")), 8, 1e-9);
    json_t *b = json_array_get(json_object_get(j, "jobs"), 1);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(b, "name")), "B");
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(b, "start")), 6, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(b, "response")), 6, 1e-9);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "speculation")), "none");
    CU_ASSERT_PTR_NOT_NULL(json_object_get(j, "speculation_counts"));
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(
                               json_object_get(j, "utilisation"), "map")),
                           0.875, 1e-9);
    json_decref(j);
    free(out);
}

static void test_table_and_files(void)
{
    const char *in = so_test_write("two2.json", two_jobs);
    char rep[600], ev[600], plot[600], args[4096], *out = NULL;
    snprintf(rep, sizeof rep, "%s/report.txt", so_test_tmpdir());
    snprintf(ev, sizeof ev, "%s/events.log", so_test_tmpdir());
    snprintf(plot, sizeof plot, "%s/util.svg", so_test_tmpdir());
    snprintf(args, sizeof args,
             "sim %s --scheduler fair --speculation late --seed 3 --format table"
             " -o %s --events-out %s --plot %s --plot-step 1",
             in, rep, ev, plot);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_STRING_EQUAL(out, "");
    free(out);
    char *text = so_test_slurp(rep);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "makespan     8.000 s"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "scheduler    fair, speculation late, seed 3"));
    free(text);
    char *log = so_test_slurp(ev);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    CU_ASSERT_PTR_NOT_NULL(strstr(log, "0.000000 launch job=0 task=0 attempt=0 node=0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(log, "8.000000 job-finish job=0"));
    free(log);
    char *svg = so_test_slurp(plot);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "<svg"));
    free(svg);
}

/* The plot's title names the workload file: a quote in that name must
 * neither break the gnuplot script nor end its string. */
static void test_plot_quoted_name(void)
{
    const char *in = so_test_write("it's.json", two_jobs);
    char plot[600], args[4096];
    snprintf(plot, sizeof plot, "%s/quoted.svg", so_test_tmpdir());
    snprintf(args, sizeof args, "sim \"%s\" --scheduler fifo --plot %s --plot-step 1",
             in, plot);
    char *out = NULL, *err = NULL;
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    char *svg = so_test_slurp(plot);
    CU_ASSERT_PTR_NOT_NULL(svg);
    CU_ASSERT_PTR_NOT_NULL(svg && strstr(svg, "<svg"));
    free(svg);
    free(out);
    free(err);
}

static void test_usage_errors(void)
{
    const char *in = so_test_write("two3.json", two_jobs);
    const char *bad[][2] = {
        {"--scheduler lottery", "unknown scheduler"},
        {"--scheduler fifo --speculation maybe", "--speculation"},
        {"", "--scheduler is required"},
        {"--scheduler fifo --format xml", "--format"},
        {"--scheduler fifo --seed -4", "--seed"},
        {"--scheduler fifo --opt colour=blue", "colour"},
        {"--scheduler fifo --opt min_share_timeout=5", "min_share_timeout"},
        {"--scheduler fair --opt epoch=-1", "epoch"},
        {"--scheduler fifo --plot-step 0", "--plot-step"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[1024], *err = NULL;
        snprintf(args, sizeof args, "sim %s %s", in, bad[i][0]);
        CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
        CU_ASSERT_PTR_NOT_NULL(err && strstr(err, bad[i][1]));
        free(err);
    }
    char *err = NULL;
    CU_ASSERT_EQUAL(so_test_run("sim --scheduler fifo", NULL, &err), 2);
    free(err);
    char *out = NULL;
    CU_ASSERT_EQUAL(so_test_run("sim --help", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "slow_nodes"));
    free(out);
}

/* A bad workload: the error names file, line and key; no output file. */
static void test_input_errors(void)
{
    const char *in = so_test_write("bad.json",
                                   "{\"cluster\": {\"nodes\": [{}]},\n"
                                   " \"jobs\": [{\"submit\": 0,\n"
                                   "  \"maps\": [1, \"two\"]}]}\n");
    const char *tsv = so_test_write("bad.tsv", "j1\t1\t0\t5\t0\t0\nj2\t1\t0\n");
    char rep[600], ev[600], args[2048], *err = NULL;
    snprintf(rep, sizeof rep, "%s/never.json", so_test_tmpdir());
    snprintf(ev, sizeof ev, "%s/never.log", so_test_tmpdir());
    snprintf(args, sizeof args, "sim %s --scheduler fifo -o %s --events-out %s",
             in, rep, ev);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "bad.json:3:"));
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "jobs[0].maps[1]"));
    free(err);
    CU_ASSERT_EQUAL(access(rep, F_OK), -1);
    CU_ASSERT_EQUAL(access(ev, F_OK), -1);
    snprintf(args, sizeof args, "sim %s --scheduler fair -o %s", tsv, rep);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "bad.tsv:2:1"));
    free(err);
    CU_ASSERT_EQUAL(access(rep, F_OK), -1);
    CU_ASSERT_EQUAL(so_test_run("sim /nonexistent.json --scheduler fifo", NULL, &err), 2);
    free(err);
    /* a failure after the log was opened leaves neither it nor its temporary */
    const char *good = so_test_write("good.json", two_jobs);
    snprintf(args, sizeof args,
             "sim %s --scheduler fair --opt epoch=-1 --events-out %s", good, ev);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "epoch"));
    free(err);
    CU_ASSERT_EQUAL(access(ev, F_OK), -1);
    snprintf(args, sizeof args, "ls %s | grep -c never.log.tmp", so_test_tmpdir());
    FILE *ls = popen(args, "r");
    char count[16] = "";
    CU_ASSERT_PTR_NOT_NULL_FATAL(ls);
    CU_ASSERT_PTR_NOT_NULL(fgets(count, sizeof count, ls));
    pclose(ls);
    CU_ASSERT_STRING_EQUAL(count, "0\n");
}

/* The shipped SWIM sample replays end to end (5,894 jobs, every task). */
static void test_swim_replay(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(
        so_test_run("sim instances/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"
                    " --scheduler fair --opt nodes=50",
                    &out, NULL),
        0);
    json_error_t jerr;
    json_t *j = json_loads(out, 0, &jerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "jobs")), 5894);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "tasks")), 406005 + 15584);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "nodes")), 50);
    json_decref(j);
    free(out);
}

/* Files in dir whose name starts with prefix. */
static int files_named(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d)
        closedir(d);
    return n;
}

/* `sim` stopped by a signal while it writes the event log of the SWIM
 * sample (hundreds of megabytes) leaves no file behind, not even the
 * temporary one the log streams into. */
static void test_signal_leaves_no_log(void)
{
    const int sigs[] = {SIGTERM, SIGINT};
    for (size_t k = 0; k < 2; k++) {
        char dir[600], log[700];
        snprintf(dir, sizeof dir, "%s/sig%zu", so_test_tmpdir(), k);
        CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0777), 0);
        snprintf(log, sizeof log, "%s/events.log", dir);
        pid_t pid = fork();
        CU_ASSERT_FATAL(pid >= 0);
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            dup2(null, STDOUT_FILENO);
            execl(SO_BINARY, SO_BINARY, "sim",
                  "instances/traces/swim/FB-2009_samples_24_times_1hr_0.tsv",
                  "--scheduler", "fifo", "--events-out", log, (char *)NULL);
            _exit(127);
        }
        /* wait until the run is under way: its temporary log exists */
        for (int i = 0; i < 20000 && files_named(dir, "events.log") == 0; i++)
            usleep(500);
        usleep(20000);
        kill(pid, sigs[k]);
        int status = 0;
        waitpid(pid, &status, 0);
        CU_ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sigs[k]);
        CU_ASSERT_EQUAL(files_named(dir, "events.log"), 0);
    }
}

/* No jobs: a valid, empty replay whose response statistics are null. */
static void test_empty_workload(void)
{
    const char *in = so_test_write("empty.json",
                                   "{\"cluster\": {\"nodes\": [{}]}, \"jobs\": []}");
    char args[1024], *out = NULL;
    snprintf(args, sizeof args, "sim %s --scheduler fair --speculation hadoop", in);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, NULL), 0);
    json_error_t jerr;
    json_t *j = json_loads(out, 0, &jerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT(json_is_null(json_object_get(json_object_get(j, "response"), "mean")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "events")), 0);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "jobs")), 0);
    json_decref(j);
    free(out);
    /* its utilisation plot is a flat line, not an error */
    char plot[600];
    snprintf(plot, sizeof plot, "%s/empty.svg", so_test_tmpdir());
    snprintf(args, sizeof args, "sim %s --scheduler fifo --plot %s", in, plot);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    char *svg = so_test_slurp(plot);
    CU_ASSERT_PTR_NOT_NULL(svg && strstr(svg, "<svg"));
    free(svg);
}

/* The shipped example uses every feature of the format. */
static void test_shipped_example(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(so_test_run("sim instances/cluster/two_pools.json"
                                      " --scheduler fair --speculation late"
                                      " --opt locality_delay=4.5 --opt min_share_timeout=20",
                                      &out, NULL),
                          0);
    json_error_t jerr;
    json_t *j = json_loads(out, 0, &jerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "tasks")), 196);
    json_t *cpu = json_object_get(json_object_get(j, "resources"), "cpu");
    CU_ASSERT(json_real_value(json_object_get(cpu, "utilisation")) > 0);
    CU_ASSERT(json_real_value(json_object_get(json_object_get(j, "locality"),
                                              "fraction_local")) > 0.5);
    json_decref(j);
    free(out);
}

static CU_TestInfo tests[] = {
    {"shipped example workload", test_shipped_example},
    {"empty workload", test_empty_workload},
    {"json report values", test_json_report},
    {"table, -o, --events-out, --plot", test_table_and_files},
    {"plot of a workload with a quote in its name", test_plot_quoted_name},
    {"usage errors exit 2", test_usage_errors},
    {"input errors: line, key, no output", test_input_errors},
    {"SWIM sample replay", test_swim_replay},
    {"a signal mid-run leaves no event log", test_signal_leaves_no_log},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-cli", tests)
