/*
 * workload_swim.c — SWIM traces (Chen, Ganapathi, Griffith, Katz, "The Case
 * for Evaluating MapReduce Performance Using Workload Suites", MASCOTS 2011;
 * github.com/SWIMProjectUCB/SWIM). One job per line, tab-separated, no
 * header: job id, submit time (s), gap to the previous job (s), map input
 * bytes, shuffle bytes, reduce output bytes.
 *
 * The trace has no task counts or durations; they are derived (every rate and
 * constant is a --opt key, defaults and sources in docs/cluster.md):
 *   maps    m = max(1, ceil(input / block)); map i reads a full block except
 *           the last, which reads the remainder (HDFS splits);
 *   map work = overhead + bytes_i / map_rate, plus, for map-only jobs
 *           (shuffle 0), the map's share of the output / map_rate;
 *           map_output_mib C > 0: a map-only job has at least
 *           ceil(output / C) maps, and when that raises its count every
 *           map reads input / m (cluster/swim_maps.h; 0, the default, is
 *           SWIM's replay, one map per input block whatever the output);
 *   reduces r = 0 if shuffle = 0, else min(max_reduces,
 *           max(1, ceil(shuffle / reduce_bytes))) (Hive's rule);
 *   reduce  copy = (shuffle / r) / shuffle_rate, sort = (shuffle / r) /
 *           sort_rate, reduce = overhead + (shuffle + output) / r /
 *           reduce_rate.
 * The trace is read twice: first only the task counts, checked against
 * the task limits and the memory estimate (cluster/run_limits.h), then
 * the tasks. Bounds (issue 20): every rate at least 0.01 MiB/s, a
 * heartbeat of 0 (Hadoop's rule) or at least 10 ms, at most max_tasks_per_job tasks per
 * job and max_tasks in the trace (--opt keys, raised up to 10 M and 200 M),
 * each refused with the option's name (and the line and column of the job).
 * The cluster is `nodes` nodes with Hadoop's default slots, of speed 1 except
 * the first `slow_nodes` (stragglers, speed `slow_speed`); every job is in
 * the pool "default".
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/swim_maps.h"
#include "cluster/workload_build.h"

#define MIB 1048576.0

const so_option_doc so_cl_swim_options[] = {
    {"nodes", "100", "SWIM: number of nodes"},
    {"map_slots", "2", "map slots per node (SWIM: default 2, Hadoop 1.x;"
     " a JSON workload: overrides every node's map slots)"},
    {"reduce_slots", "2", "SWIM: reduce slots per node (Hadoop 1.x default)"},
    {"block_mib", "64", "SWIM: HDFS block size, MiB (Hadoop 1.x default)"},
    {"map_rate", "20", "SWIM: map processing rate, MiB/s per slot"},
    {"shuffle_rate", "20", "SWIM: copy (shuffle) rate, MiB/s per reduce"},
    {"sort_rate", "100", "SWIM: merge-sort rate, MiB/s per reduce"},
    {"reduce_rate", "20", "SWIM: reduce processing rate, MiB/s per reduce"},
    {"task_overhead", "1", "SWIM: seconds added to every task (JVM start)"},
    {"reduce_bytes", "1000000000",
     "SWIM: shuffle bytes per reduce task (Hive's bytes.per.reducer)"},
    {"max_reduces", "999", "SWIM: most reduce tasks per job (Hive's default)"},
    {"map_output_mib", "0",
     "SWIM: most output MiB one map of a map-only job writes (more maps,"
     " the input split evenly); 0 = no cap (SWIM's replay: one map per"
     " input block writes it all)"},
    {"slowstart", "0.05",
     "SWIM: fraction of maps done before reduces start (Hadoop default)"},
    {"slow_nodes", "0", "SWIM: nodes 0..k-1 are stragglers"},
    {"slow_speed", "0.25", "SWIM: speed of a straggler node (others: 1)"},
    {"replicas", "0",
     "SWIM: replicas of each input block (HDFS: 3); 0 = no locality model"},
    {"remote_slowdown", "1", "SWIM: work factor of a map away from its data"},
    {"heartbeat", "0", "SWIM: heartbeat seconds; 0 = Hadoop's rule"},
    {"outofband", "0", "SWIM: 1 = heartbeat when an attempt ends"},
    {"map_parallel", "0", "SWIM: Amdahl parallel fraction of every map"
                          " (extra threads of resource stealing), 0..1"},
    {"reduce_parallel", "0", "SWIM: the same for every reduce, 0..1"},
    {"parallel_model", "none",
     "SWIM: per-job parallel fractions from each job's bytes: io-bound (0.1,"
     " the stealing paper's I/O-bound jobs) or compute-bound (0.95, its"
     " compute-bound jobs) of every task's byte-processing time, the"
     " task_overhead serial; none: map_parallel / reduce_parallel for all"},
    {"max_tasks_per_job", "1000000",
     "SWIM: most tasks (maps + reduces) one job may derive; a larger job is"
     " an error (up to 10000000)"},
    {"max_tasks", "20000000",
     "SWIM: most tasks of the whole trace (the FB-2010 day derives 16.4 M;"
     " up to 200000000)"},
    {NULL, NULL, NULL},
};

typedef struct swim_rates {
    double block, map_rate, shuffle_rate, sort_rate, reduce_rate, overhead;
    double reduce_bytes, slowstart;
    double map_output; /* map_output_mib in bytes; 0: no cap */
    double parallel[SO_CL_PHASES];
    double class_f; /* parallel_model: the fraction of byte-processing time
                       extra threads speed up; 0: none (parallel[] as given) */
    long long max_reduces;
    long long max_tasks_per_job, max_tasks;
    so_cl_limits lim;
    double slots; /* of the whole cluster */
} swim_rates;

/* --opt parallel_model (docs/stealing.md, "Parallel fractions of a
 * trace"): the SWIM trace gives no task efficiency, and its derived task
 * work is task_overhead (JVM start and set-up: serial, Amdahl's serial
 * part) plus bytes / rate. A job's phase gets fraction c x (its tasks'
 * byte time / their work), c the parallel fraction the stealing paper
 * measured for its job classes (Guo et al., IEEE Cluster 2012, sec. IV;
 * docs/cluster.md, stealing-paper): 0.1 for I/O-bound jobs (word count and
 * text extraction from local files, "only slightly better", 1.09x from 7
 * threads), 0.95 for compute-bound ones (5.4x from 7 threads). So small
 * jobs, whose tasks are mostly overhead, gain less than large ones.
 * Giving map_parallel or reduce_parallel too is an error (one would be
 * ignored). */
static int parallel_model(const so_params *prm, swim_rates *r, so_error *err)
{
    const char *m = prm ? so_params_get(prm, "parallel_model") : NULL;
    r->class_f = 0;
    if (!m || !strcmp(m, "none"))
        return SO_OK;
    if (!strcmp(m, "io-bound"))
        r->class_f = 0.1;
    else if (!strcmp(m, "compute-bound"))
        r->class_f = 0.95;
    else
        return so_error_setf(err, NULL, 0, 0, "parallel_model",
                             "expected none, io-bound or compute-bound, found"
                             " '%s'", m);
    const char *given = so_params_get(prm, "map_parallel") ? "map_parallel"
                        : so_params_get(prm, "reduce_parallel") ? "reduce_parallel"
                                                                : NULL;
    if (given)
        return so_error_setf(err, NULL, 0, 0, given, "parallel_model %s sets every"
                             " job's fractions itself: give one or the other", m);
    return SO_OK;
}

/* The phase's fraction under parallel_model: class_f x byte time / work. */
static double class_fraction(const swim_rates *r, double work, int tasks)
{
    if (!(work > 0))
        return 0;
    return r->class_f * fmax(0, work - r->overhead * tasks) / work;
}

static int read_settings(const so_params *prm, so_cl_workload *w,
                         swim_rates *r, so_error *err)
{
    const so_option_doc *d = so_cl_swim_options;
    long long nodes = 100, ms = 2, rs = 2, oob = 0, slow = 0, replicas = 0;
    double block = 64, hb = 0, slow_speed = 0.25;
    int rc = so_params_int(prm, d, "nodes", 100, &nodes, err);
    if (!rc) rc = so_params_int(prm, d, "map_slots", 2, &ms, err);
    if (!rc) rc = so_params_int(prm, d, "reduce_slots", 2, &rs, err);
    if (!rc) rc = so_params_double(prm, d, "block_mib", 64, &block, err);
    if (!rc) rc = so_params_double(prm, d, "map_rate", 20, &r->map_rate, err);
    if (!rc) rc = so_params_double(prm, d, "shuffle_rate", 20, &r->shuffle_rate, err);
    if (!rc) rc = so_params_double(prm, d, "sort_rate", 100, &r->sort_rate, err);
    if (!rc) rc = so_params_double(prm, d, "reduce_rate", 20, &r->reduce_rate, err);
    if (!rc) rc = so_params_double(prm, d, "task_overhead", 1, &r->overhead, err);
    if (!rc) rc = so_params_double(prm, d, "reduce_bytes", 1e9, &r->reduce_bytes, err);
    if (!rc) rc = so_params_int(prm, d, "max_reduces", 999, &r->max_reduces, err);
    if (!rc) rc = so_params_double(prm, d, "map_output_mib", 0, &r->map_output, err);
    if (!rc) rc = so_params_double(prm, d, "slowstart", 0.05, &r->slowstart, err);
    if (!rc) rc = so_params_int(prm, d, "slow_nodes", 0, &slow, err);
    if (!rc) rc = so_params_double(prm, d, "slow_speed", 0.25, &slow_speed, err);
    if (!rc) rc = so_params_int(prm, d, "replicas", 0, &replicas, err);
    if (!rc) rc = so_params_double(prm, d, "remote_slowdown", 1, &w->remote_slowdown, err);
    if (!rc) rc = so_params_double(prm, d, "heartbeat", 0, &hb, err);
    if (!rc) rc = so_params_int(prm, d, "outofband", 0, &oob, err);
    if (!rc) rc = so_params_double(prm, d, "map_parallel", 0, &r->parallel[SO_CL_MAP], err);
    if (!rc) rc = so_params_double(prm, d, "reduce_parallel", 0, &r->parallel[SO_CL_REDUCE], err);
    if (!rc) rc = parallel_model(prm, r, err);
    if (!rc) rc = so_params_int(prm, d, "max_tasks_per_job", 1000000,
                                &r->max_tasks_per_job, err);
    if (!rc) rc = so_params_int(prm, d, "max_tasks", 20000000, &r->max_tasks, err);
    if (rc)
        return rc;
    static const char *const rate_keys[4] = {"map_rate", "shuffle_rate",
                                             "sort_rate", "reduce_rate"};
    const double rates[4] = {r->map_rate, r->shuffle_rate, r->sort_rate,
                             r->reduce_rate};
    for (int k = 0; k < 4; k++)
        if (!(rates[k] >= SO_CL_MIN_SWIM_RATE) || rates[k] > 1e9)
            return so_error_setf(err, NULL, 0, 0, rate_keys[k],
                                 "expected MiB/s in [%g, 1e9], found %g",
                                 SO_CL_MIN_SWIM_RATE, rates[k]);
    if (!(hb == 0 || (hb >= SO_CL_MIN_HEARTBEAT && hb <= 3600)))
        return so_error_setf(err, NULL, 0, 0, "heartbeat",
                             "expected 0 (Hadoop's rule) or seconds in [%g,"
                             " 3600], found %g", SO_CL_MIN_HEARTBEAT, hb);
    if (r->max_tasks_per_job < 1 || r->max_tasks_per_job > SO_CL_MAX_TASKS_PER_JOB)
        return so_error_setf(err, NULL, 0, 0, "max_tasks_per_job",
                             "expected 1 to %d, found %lld",
                             SO_CL_MAX_TASKS_PER_JOB, r->max_tasks_per_job);
    if (r->max_tasks < 1 || r->max_tasks > SO_CL_MAX_TASKS)
        return so_error_setf(err, NULL, 0, 0, "max_tasks",
                             "expected 1 to %d, found %lld", SO_CL_MAX_TASKS,
                             r->max_tasks);
    const char *bad = NULL;
    if (nodes < 1 || nodes > SO_CL_MAX_NODES) bad = "nodes";
    else if (ms < 1 || ms > SO_CL_MAX_SLOTS) bad = "map_slots";
    else if (rs < 1 || rs > SO_CL_MAX_SLOTS) bad = "reduce_slots";
    else if (!(block > 0) || block > 1e6) bad = "block_mib";
    else if (!(r->overhead >= 0) || r->overhead > 1e6) bad = "task_overhead";
    else if (!(r->reduce_bytes >= 1)) bad = "reduce_bytes";
    else if (!(r->map_output >= 0 && r->map_output <= 1e9)) bad = "map_output_mib";
    else if (r->max_reduces < 1 || r->max_reduces > SO_CL_MAX_TASKS_PER_JOB)
        bad = "max_reduces";
    else if (!(r->slowstart >= 0 && r->slowstart <= 1)) bad = "slowstart";
    else if (slow < 0 || slow > nodes) bad = "slow_nodes";
    else if (!(slow_speed > 0 && slow_speed <= 1e6)) bad = "slow_speed";
    else if (replicas < 0 || replicas > SO_CL_MAX_REPLICAS || replicas > nodes)
        bad = "replicas";
    else if (!(w->remote_slowdown >= 1 && w->remote_slowdown <= 100))
        bad = "remote_slowdown";
    else if (oob != 0 && oob != 1) bad = "outofband";
    else if (!(r->parallel[SO_CL_MAP] >= 0 && r->parallel[SO_CL_MAP] <= 1))
        bad = "map_parallel";
    else if (!(r->parallel[SO_CL_REDUCE] >= 0 && r->parallel[SO_CL_REDUCE] <= 1))
        bad = "reduce_parallel";
    if (bad)
        return so_error_setf(err, NULL, 0, 0, bad, "value out of range");
    rc = so_cl_workload_trace_limits(prm, nodes, ms + rs, &r->lim, err);
    if (rc)
        return rc;
    r->slots = (double)nodes * (double)(ms + rs);
    r->block = block * MIB;
    r->map_output *= MIB;
    r->map_rate *= MIB;
    r->shuffle_rate *= MIB;
    r->sort_rate *= MIB;
    r->reduce_rate *= MIB;
    w->heartbeat = hb;
    w->outofband = (int)oob;
    w->replicas = (int)replicas;
    rc = so_cl_workload_nodes(w, nodes, (int)ms, (int)rs);
    if (rc)
        return rc;
    for (long long n = 0; n < slow; n++)
        w->nodes[n].speed = slow_speed;
    return so_cl_workload_pool(w, "default") < 0 ? SO_ENOMEM : SO_OK;
}

/* ---- one line ------------------------------------------------------------ */

static const char *const field_names[6] = {
    "job id", "submit time", "gap", "map input bytes", "shuffle bytes",
    "reduce output bytes"};

typedef struct swim_line {
    const char *file;
    int line;
    int col_input; /* column of the map input bytes field */
    int col_output; /* column of the reduce output bytes field */
    so_error *err;
    int64_t maps;  /* maps derived so far */
    int dry;       /* 1: derive and check the counts only, allocate nothing */
} swim_line;

static int fail(swim_line *l, int col, int field, const char *fmt, const char *s,
                size_t n)
{
    char key[64] = "";
    if (field >= 0)
        snprintf(key, sizeof key, "field %d (%s)", field + 1, field_names[field]);
    char shown[48];
    snprintf(shown, sizeof shown, "%.*s", (int)(n < 40 ? n : 40), s);
    return so_error_setf(l->err, l->file, l->line, col, key[0] ? key : NULL,
                         fmt, shown);
}

/* A non-negative decimal number occupying the whole field. */
static int parse_number(swim_line *l, int col, int field, const char *s,
                        size_t n, double max, double *out)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return fail(l, col, field, "expected a non-negative number, found '%s'",
                    s, n);
    memcpy(buf, s, n);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)buf[i]) && buf[i] != '.')
            return fail(l, col, field,
                        "expected a non-negative number, found '%s'", s, n);
    char *end;
    errno = 0;
    double x = strtod(buf, &end);
    if (*end || errno || !(x >= 0) || x > max)
        return fail(l, col, field,
                    "expected a non-negative number in range, found '%s'", s, n);
    *out = x;
    return SO_OK;
}

static int derive_job(const swim_rates *r, const double v[6],
                      const so_cl_workload *w, so_cl_job_spec *job,
                      int64_t *total, swim_line *l)
{
    double input = v[3], shuffle = v[4], output = v[5];
    double maps = so_cl_swim_maps(input, shuffle, output, r->block,
                                  r->map_output);
    double reduces = shuffle > 0 ? fmin((double)r->max_reduces,
                                        fmax(1.0, ceil(shuffle / r->reduce_bytes)))
                                 : 0;
    /* the output cap, not the input's blocks, set the map count */
    int by_output = so_cl_swim_even_split(input, r->block, maps);
    if (maps + reduces > (double)r->max_tasks_per_job)
        return so_error_setf(l->err, l->file, l->line,
                             by_output ? l->col_output : l->col_input,
                             by_output ? "field 6 (reduce output bytes)"
                                       : "field 4 (map input bytes)",
                             "too many tasks: the job derives %.0f map and %.0f"
                             " reduce tasks, more"
                             " than max_tasks_per_job = %lld (raise it with"
                             " --opt max_tasks_per_job=N, or %s)",
                             maps, reduces, r->max_tasks_per_job,
                             by_output ? "map_output_mib" : "block_mib");
    if ((double)*total + maps + reduces > (double)r->max_tasks)
        return so_error_setf(l->err, l->file, l->line, l->col_input,
                             "field 4 (map input bytes)",
                             "too many tasks: the trace derives more than"
                             " max_tasks = %lld"
                             " tasks by this job (raise it with --opt"
                             " max_tasks=N)", r->max_tasks);
    double bytes = so_cl_memory_estimate(
        w->n_nodes, r->slots, w->n_jobs, (double)*total + maps + reduces,
        ((double)l->maps + maps) * w->replicas);
    char msg[400];
    if (so_cl_memory_over(&r->lim, bytes, "the trace's tasks up to this job",
                          msg, sizeof msg))
        return so_error_setf(l->err, l->file, l->line, l->col_input,
                             "field 4 (map input bytes)", "%s", msg);
    *total += (int64_t)(maps + reduces);
    l->maps += (int64_t)maps;
    if (l->dry)
        return SO_OK;
    job->n_maps = (int)maps;
    job->n_reduces = (int)reduces;
    job->map_work = malloc((size_t)job->n_maps * sizeof(double));
    job->reduce_work = malloc(((size_t)job->n_reduces + 1) * sizeof *job->reduce_work);
    if (!job->map_work || !job->reduce_work)
        return SO_ENOMEM;
    double out_per_map = shuffle > 0 ? 0 : output / maps;
    int even = so_cl_swim_even_split(input, r->block, maps);
    for (int i = 0; i < job->n_maps; i++) {
        double bytes = even               ? input / maps
                       : i + 1 < job->n_maps ? r->block
                                             : input - r->block * (maps - 1);
        job->map_work[i] =
            r->overhead + (fmax(bytes, 0) + out_per_map) / r->map_rate;
        if (!(job->map_work[i] > 0))
            job->map_work[i] = 1e-3; /* zero overhead and no bytes */
    }
    for (int i = 0; i < job->n_reduces; i++) {
        double in = shuffle / reduces, out = output / reduces;
        job->reduce_work[i].copy = in / r->shuffle_rate;
        job->reduce_work[i].sort = in / r->sort_rate;
        job->reduce_work[i].reduce = r->overhead + (in + out) / r->reduce_rate;
    }
    if (r->class_f > 0) {
        double mw = 0, rw = 0;
        for (int i = 0; i < job->n_maps; i++)
            mw += job->map_work[i];
        for (int i = 0; i < job->n_reduces; i++)
            rw += job->reduce_work[i].copy + job->reduce_work[i].sort +
                  job->reduce_work[i].reduce;
        job->parallel[SO_CL_MAP] = class_fraction(r, mw, job->n_maps);
        job->parallel[SO_CL_REDUCE] = class_fraction(r, rw, job->n_reduces);
    }
    return SO_OK;
}

static int parse_line(swim_line *l, const char *s, size_t n,
                      const swim_rates *r, so_cl_workload *w, int64_t *total)
{
    const char *f[6];
    size_t len[6];
    int nf = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || s[i] == '\t') {
            if (nf < 6) {
                f[nf] = s + start;
                len[nf] = i - start;
            }
            nf++;
            start = i + 1;
        }
    }
    if (nf != 6) {
        char msg[96];
        snprintf(msg, sizeof msg,
                 "expected 6 tab-separated fields (SWIM), found %d", nf);
        return so_error_setf(l->err, l->file, l->line, 1, NULL, "%s", msg);
    }
    so_cl_job_spec *job = &w->jobs[w->n_jobs];
    memset(job, 0, sizeof *job);
    if (len[0] == 0 || len[0] >= sizeof job->name)
        return fail(l, 1, 0, "expected a job id of 1 to 63 characters, found '%s'",
                    f[0], len[0]);
    double v[6] = {0};
    for (int k = 1; k < 6; k++) {
        int rc = parse_number(l, (int)(f[k] - s) + 1, k, f[k], len[k],
                              k < 3 ? 1e9 : 1e18, &v[k]);
        if (rc)
            return rc;
    }
    l->col_input = (int)(f[3] - s) + 1;
    l->col_output = (int)(f[5] - s) + 1;
    w->n_jobs++;
    memcpy(job->name, f[0], len[0]);
    job->name[len[0]] = '\0';
    snprintf(job->user, sizeof job->user, "default");
    job->pool = 0;
    job->submit = v[1];
    job->weight = 1;
    job->slowstart = r->slowstart;
    job->parallel[SO_CL_MAP] = r->parallel[SO_CL_MAP];
    job->parallel[SO_CL_REDUCE] = r->parallel[SO_CL_REDUCE];
    return derive_job(r, v, w, job, total, l);
}

int so_cl_workload_parse_swim(const char *text, size_t len, const char *file,
                              const so_params *prm, so_cl_workload **out,
                              so_error *err)
{
    so_cl_workload *w = so_cl_workload_begin(file, out, err);
    if (!w)
        return SO_ENOMEM;
    swim_rates r;
    so_params defaults;
    so_params_init(&defaults);
    int rc = read_settings(prm ? prm : &defaults, w, &r, err);
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    int *where = NULL; /* line, column of each job's map input bytes */
    if (!rc) {
        w->jobs = calloc(lines, sizeof *w->jobs);
        where = malloc(2 * lines * sizeof *where);
        if (!w->jobs || !where)
            rc = SO_ENOMEM;
    }
    /* two passes: the first derives every job's task counts and checks
     * them against the limits without allocating any task (a refused
     * trace allocates nothing for its tasks), the second builds them */
    for (int dry = 1; dry >= 0 && !rc; dry--) {
        swim_line l = {file, 0, 1, 1, err, 0, dry};
        int64_t total = 0;
        size_t pos = 0;
        w->n_jobs = 0;
        while (!rc && pos < len) {
            size_t end = pos;
            while (end < len && text[end] != '\n')
                end++;
            size_t n = end - pos;
            if (n > 0 && text[pos + n - 1] == '\r')
                n--;
            l.line++;
            int blank = 1;
            for (size_t i = 0; i < n && blank; i++)
                blank = text[pos + i] == ' ' || text[pos + i] == '\t';
            if (!blank && !(rc = parse_line(&l, text + pos, n, &r, w, &total))) {
                where[w->n_jobs - 1] = l.line;
                where[lines + (size_t)w->n_jobs - 1] = l.col_input;
            }
            pos = end + 1;
        }
    }
    if (!rc && w->n_jobs == 0)
        rc = so_error_setf(err, file, 1, 1, NULL, "no jobs in the SWIM trace");
    if (!rc)
        rc = so_cl_events_check_trace(w, &r.lim, file, where, where + lines, err);
    free(where);
    return so_cl_workload_finish(w, rc, out);
}
