/*
 * workload_rumen.c — Hadoop Rumen job traces as cluster workloads: the
 * format Hadoop's Rumen TraceBuilder writes from JobHistory logs and that
 * Gridmix and YARN's Scheduler Load Simulator read (Hadoop's
 * hadoop-tools/hadoop-rumen LoggedJob / LoggedTask / LoggedTaskAttempt; the
 * SLS sample 2jobs2min-rumen-jh.json): a sequence of JSON objects, one per
 * job, written one after another (not an array). Times are milliseconds.
 *
 * Read per job: "jobID" (the name), "user", "queue" (the pool; "default"
 * when absent), "submitTime" (required); "mapTasks" and "reduceTasks"
 * (arrays of tasks, each with "attempts"). Everything else (counters,
 * memory samples, "launchTime", "finishTime", "outcome", ...) is ignored.
 * A task's duration is the one its cluster measured: its successful attempt
 * ("result": "SUCCESS"; the last one when several claim it), finishTime -
 * startTime. A reduce's phases come from its attempt's "shuffleFinished"
 * and "sortFinished" when both are set (> 0, in order): copy = shuffle end
 * - start, sort = sort end - shuffle end, reduce = finish - sort end;
 * otherwise its whole duration is the reduce phase. Choices (docs/cluster.md,
 * "Rumen traces"):
 *   - a task without a successful attempt is an error (a failed job's
 *     trace has no duration to replay), as is an attempt ending before it
 *     starts; a duration below 1 ms is raised to 1 ms;
 *   - submit times are relative to the first job's submitTime;
 *   - the trace names no cluster: `--opt nodes` (default: the number of
 *     distinct attempt hostNames, at least 1), `map_slots`, `reduce_slots`
 *     (2 and 2), `heartbeat` (0: Hadoop's rule), `outofband` and
 *     `slowstart` (0.05) are read as for SWIM traces; all nodes run at
 *     speed 1 and no locality model is built (hostNames only count nodes,
 *     in a hash set: linear in the trace, whatever the number of hosts);
 *   - "otherTasks" (setup / cleanup) are ignored, as are tasks whose
 *     "taskType" is neither MAP nor REDUCE.
 * Errors carry the file, line and column of the offending value (the
 * object's place in the file is added to its position inside it).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "cluster/name_set.h"
#include "cluster/workload_build.h"
#include "formulations/common/jsonin.h"

/* Where one job object starts in the file. */
typedef struct chunk {
    size_t at;
    int line, column;
} chunk;

/* Moves an error located inside the chunk to its place in the file. */
static int relocate(so_error *err, const chunk *c, int rc)
{
    if (rc == SO_EINVAL && err->line > 0) {
        if (err->line == 1)
            err->column += c->column - 1;
        err->line += c->line - 1;
    }
    return rc;
}

/* The successful attempt of a task (its last, if several) and its times. */
static int task_times(so_jin *in, json_t *task, const char *path, so_cl_name_set *h,
                      int reduce, double t[4])
{
    json_t *attempts = NULL, *won = NULL;
    char p[256], wp[256] = "";
    int rc = so_jin_array(in, task, path, "attempts", SO_REQUIRED, 0, &attempts);
    if (rc)
        return rc;
    so_jin_path(p, sizeof p, path, "attempts");
    for (size_t k = 0; k < json_array_size(attempts); k++) {
        json_t *a;
        char ap[256];
        so_jin_index(ap, sizeof ap, p, k);
        if ((rc = so_jin_object_at(in, attempts, p, k, &a)))
            return rc;
        const char *result = "", *host = NULL;
        if ((rc = so_jin_str(in, a, ap, "result", SO_OPTIONAL, &result)) ||
            (rc = so_jin_str(in, a, ap, "hostName", SO_OPTIONAL, &host)))
            return rc;
        if (host && so_cl_name_set_add(h, host) < 0)
            return SO_ENOMEM;
        if (!strcmp(result, "SUCCESS")) {
            won = a;
            snprintf(wp, sizeof wp, "%s", ap);
        }
    }
    if (!won)
        return so_jin_fail(in, path, 0, "no attempt with \"result\":"
                                        " \"SUCCESS\": no duration to replay");
    double start = 0, finish = 0, shuffle = -1, sort = -1;
    rc = so_jin_num(in, won, wp, "startTime", SO_REQUIRED, 0, 1e15, &start);
    if (!rc)
        rc = so_jin_num(in, won, wp, "finishTime", SO_REQUIRED, 0, 1e15, &finish);
    if (!rc && reduce)
        rc = so_jin_num(in, won, wp, "shuffleFinished", SO_OPTIONAL, -1, 1e15,
                        &shuffle);
    if (!rc && reduce)
        rc = so_jin_num(in, won, wp, "sortFinished", SO_OPTIONAL, -1, 1e15, &sort);
    if (rc)
        return rc;
    char fp[300];
    snprintf(fp, sizeof fp, "%s.finishTime", wp);
    if (finish < start)
        return so_jin_fail(in, fp, 0, "the attempt ends (%.0f ms) before it"
                                      " starts (%.0f ms)", finish, start);
    t[0] = start;
    t[1] = finish;
    int phases = shuffle > 0 && sort > 0 && start <= shuffle &&
                 shuffle <= sort && sort <= finish;
    t[2] = phases ? shuffle : start;
    t[3] = phases ? sort : start;
    return SO_OK;
}

static double seconds(double ms)
{
    return fmax(ms / 1000.0, 1e-3);
}

/* The tasks of one phase ("mapTasks" or "reduceTasks") of a job. */
static int read_phase(so_jin *in, json_t *job, const char *key, int reduce,
                      so_cl_job_spec *spec, so_cl_name_set *h, int64_t *total)
{
    json_t *tasks = NULL;
    int rc = so_jin_array(in, job, "", key, SO_OPTIONAL, 0, &tasks);
    if (rc || !tasks)
        return rc;
    size_t n = json_array_size(tasks);
    if (n > SO_CL_MAX_TASKS_PER_JOB || *total + (int64_t)n > SO_CL_MAX_TASKS)
        return so_jin_fail(in, key, 0, "too many tasks (at most %d per job,"
                                       " %d in all)", SO_CL_MAX_TASKS_PER_JOB,
                           SO_CL_MAX_TASKS);
    if (reduce)
        spec->reduce_work = calloc(n + 1, sizeof *spec->reduce_work);
    else
        spec->map_work = calloc(n + 1, sizeof *spec->map_work);
    if (reduce ? !spec->reduce_work : !spec->map_work)
        return SO_ENOMEM;
    int m = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *task;
        char p[256];
        so_jin_index(p, sizeof p, key, i);
        if ((rc = so_jin_object_at(in, tasks, key, i, &task)))
            return rc;
        const char *type = reduce ? "REDUCE" : "MAP";
        if ((rc = so_jin_str(in, task, p, "taskType", SO_OPTIONAL, &type)))
            return rc;
        if (strcmp(type, reduce ? "REDUCE" : "MAP"))
            continue;
        double t[4] = {0, 0, 0, 0};
        if ((rc = task_times(in, task, p, h, reduce, t)))
            return rc;
        if (!reduce) {
            spec->map_work[m++] = seconds(t[1] - t[0]);
        } else {
            so_cl_reduce_work *r = &spec->reduce_work[m++];
            r->copy = (t[2] - t[0]) / 1000.0;
            r->sort = (t[3] - t[2]) / 1000.0;
            r->reduce = (t[1] - t[3]) / 1000.0;
            if (r->copy + r->sort + r->reduce < 1e-3)
                r->reduce = 1e-3;
        }
    }
    if (reduce)
        spec->n_reduces = m;
    else
        spec->n_maps = m;
    *total += m;
    return SO_OK;
}

static int read_job(so_jin *in, json_t *job, so_cl_workload *w, so_cl_name_set *h,
                    int64_t *total, double slowstart)
{
    if (!json_is_object(job))
        return so_jin_fail(in, "", 0, "expected a Rumen job object");
    so_cl_job_spec *spec = &w->jobs[w->n_jobs];
    memset(spec, 0, sizeof *spec);
    const char *id = "job", *user = "default", *queue = "default";
    double submit = 0;
    int rc = so_jin_num(in, job, "", "submitTime", SO_REQUIRED, 0, 1e15, &submit);
    if (!rc)
        rc = so_jin_str(in, job, "", "jobID", SO_OPTIONAL, &id);
    if (!rc)
        rc = so_jin_str(in, job, "", "user", SO_OPTIONAL, &user);
    if (!rc)
        rc = so_jin_str(in, job, "", "queue", SO_OPTIONAL, &queue);
    if (rc)
        return rc;
    w->n_jobs++; /* owns what read_phase allocates from here on */
    snprintf(spec->name, sizeof spec->name, "%s", id);
    snprintf(spec->user, sizeof spec->user, "%s", user);
    int pool = so_cl_workload_pool(w, queue);
    if (pool < 0)
        return SO_ENOMEM;
    spec->pool = pool;
    spec->submit = submit; /* ms for now: made relative after the last job */
    spec->weight = 1;
    spec->slowstart = slowstart;
    rc = read_phase(in, job, "mapTasks", 0, spec, h, total);
    if (!rc)
        rc = read_phase(in, job, "reduceTasks", 1, spec, h, total);
    if (!rc && spec->n_maps == 0)
        rc = so_jin_fail(in, "mapTasks", 0, "a job needs at least one map task");
    return rc;
}

/* The cluster: nodes and slots from the options (SWIM's keys). */
static int read_cluster(const so_params *prm, size_t n_hosts, so_cl_workload *w,
                        double *slowstart, so_cl_limits *lim, so_error *err)
{
    const so_option_doc *d = so_cl_swim_options;
    long long nodes = n_hosts > 0 ? (long long)n_hosts : 1, ms = 2, rs = 2, oob = 0;
    double hb = 0;
    int rc = so_params_int(prm, d, "nodes", nodes, &nodes, err);
    if (!so_params_get(prm, "nodes"))
        nodes = n_hosts > 0 ? (long long)n_hosts : 1;
    if (!rc) rc = so_params_int(prm, d, "map_slots", 2, &ms, err);
    if (!rc) rc = so_params_int(prm, d, "reduce_slots", 2, &rs, err);
    if (!rc) rc = so_params_double(prm, d, "heartbeat", 0, &hb, err);
    if (!rc) rc = so_params_int(prm, d, "outofband", 0, &oob, err);
    if (!rc) rc = so_params_double(prm, d, "slowstart", 0.05, slowstart, err);
    if (rc)
        return rc;
    const char *bad = NULL;
    if (nodes < 1 || nodes > SO_CL_MAX_NODES) bad = "nodes";
    else if (ms < 1 || ms > SO_CL_MAX_SLOTS) bad = "map_slots";
    else if (rs < 1 || rs > SO_CL_MAX_SLOTS) bad = "reduce_slots";
    else if (!(hb == 0 || (hb >= SO_CL_MIN_HEARTBEAT && hb <= 3600))) bad = "heartbeat";
    else if (oob != 0 && oob != 1) bad = "outofband";
    else if (!(*slowstart >= 0 && *slowstart <= 1)) bad = "slowstart";
    if (bad)
        return so_error_setf(err, NULL, 0, 0, bad, "value out of range");
    rc = so_cl_workload_trace_limits(prm, nodes, ms + rs, lim, err);
    if (!rc)
        rc = so_cl_workload_nodes(w, nodes, (int)ms, (int)rs);
    if (rc)
        return rc;
    w->heartbeat = hb;
    w->outofband = (int)oob;
    w->remote_slowdown = 1;
    return SO_OK;
}

/* SWIM keys that derive durations from bytes mean nothing here: refused,
 * not ignored. */
static int only_cluster_settings(const so_params *prm, const char *file,
                                 so_error *err)
{
    static const char *const used[] = {"nodes", "map_slots", "reduce_slots",
                                       "heartbeat", "outofband", "slowstart",
                                       NULL};
    for (int i = 0; prm && i < prm->n_options; i++)
        for (const so_option_doc *d = so_cl_swim_options; d->key; d++) {
            if (strcmp(prm->options[i].key, d->key))
                continue;
            int ok = 0;
            for (int k = 0; used[k]; k++)
                ok |= !strcmp(d->key, used[k]);
            if (!ok)
                return so_error_setf(err, file, 0, 0, d->key,
                                     "a SWIM trace setting; a Rumen trace"
                                     " carries its task durations (it takes"
                                     " nodes, map_slots, reduce_slots,"
                                     " heartbeat, outofband, slowstart)");
        }
    return SO_OK;
}

int so_cl_workload_is_rumen(const char *text, size_t len)
{
    size_t n = len < 65536 ? len : 65536;
    return memmem(text, n, "\"jobID\"", 7) && !memmem(text, n, "\"problem\"", 9);
}

int so_cl_workload_parse_rumen(const char *text, size_t len, const char *file,
                               const so_params *prm, so_cl_workload **out,
                               so_error *err)
{
    so_cl_workload *w = so_cl_workload_begin(file, out, err);
    if (!w)
        return SO_ENOMEM;
    size_t cap = 0;
    for (size_t i = 0; i < len; i++) /* every job object holds "jobID" */
        cap += text[i] == '{';
    w->jobs = calloc(cap + 1, sizeof *w->jobs);
    so_params defaults;
    so_params_init(&defaults);
    double slowstart = 0.05;
    so_cl_name_set h = {0};
    int rc = w->jobs ? only_cluster_settings(prm, file, err) : SO_ENOMEM;
    so_jin in = {file, NULL, err};
    int64_t total = 0;
    chunk c = {0, 1, 1};
    while (!rc) {
        while (c.at < len && strchr(" \t\r\n", text[c.at])) {
            if (text[c.at] == '\n') {
                c.line++;
                c.column = 1;
            } else {
                c.column++;
            }
            c.at++;
        }
        if (c.at == len)
            break;
        json_error_t jerr;
        json_t *job = json_loadb(text + c.at, len - c.at,
                                 JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES,
                                 &jerr);
        if (!job) {
            int col = jerr.line == 1 ? jerr.column + c.column - 1 : jerr.column;
            rc = so_error_setf(err, file, jerr.line + c.line - 1, col, NULL,
                               "Rumen trace: %s", jerr.text);
            break;
        }
        in.text = text + c.at;
        rc = relocate(err, &c, read_job(&in, job, w, &h, &total, slowstart));
        json_decref(job);
        for (size_t i = 0; i < (size_t)jerr.position && c.at < len; i++, c.at++) {
            if (text[c.at] == '\n') {
                c.line++;
                c.column = 1;
            } else {
                c.column++;
            }
        }
    }
    if (!rc && w->n_jobs == 0)
        rc = so_error_setf(err, file, 1, 1, NULL, "no jobs in the Rumen trace");
    so_cl_limits lim;
    if (!rc)
        rc = read_cluster(prm ? prm : &defaults, h.n, w, &slowstart, &lim, err);
    if (!rc) {
        double first = INFINITY;
        for (int j = 0; j < w->n_jobs; j++)
            first = fmin(first, w->jobs[j].submit);
        for (int j = 0; j < w->n_jobs; j++) {
            w->jobs[j].submit = (w->jobs[j].submit - first) / 1000.0;
            w->jobs[j].slowstart = slowstart;
        }
        rc = so_cl_events_check_trace(w, &lim, file, NULL, NULL, err);
    }
    so_cl_name_set_free(&h);
    return so_cl_workload_finish(w, rc, out);
}
