/* harness_timeline.c — a simulation cell's timeline read from its event log
 * (cluster/engine.c writes "T EVENT job=J task=K attempt=A node=N" lines,
 * cluster/sched_ras.c one "T ras-cycle job=J utility=U ..." line per job and
 * control cycle): the running tasks of each job, user and the whole cluster
 * at every multiple of the step, and each job's utility in the last control
 * cycle before it. What the RAS paper draws as Figs. 4-6 (running tasks per
 * application, per TaskTracker, utilities per job over time). Tasks are
 * numbered job by job, maps then reduces (cluster/engine.c), so a task's
 * phase is its index against its job's first reduce. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/harness/harness_timeline.h"

enum { MAPS, REDUCES, TASKS, UTILITY, PER_NODE = UTILITY, SERIES };
static const char *const job_fields[SERIES] = {"maps", "reduces", "tasks", "utility"};
static const char *const all_fields[SERIES] = {"maps", "reduces", "tasks", "per_node"};

typedef struct tl {
    const so_cl_workload *w;
    int *first;        /* n_jobs + 1: each job's first task */
    int *user_of;      /* per job: index of its user (first seen order) */
    int n_users;
    long *running;     /* per job: maps, reduces */
    double *util;      /* per job: utility in the current cycle (NAN: not in it) */
    double cycle;      /* time of the current cycle */
    double last;       /* time of the last line */
    int has_cycles;
    json_t **job, **user; /* per job / user: SERIES arrays each */
    json_t *all[SERIES];
} tl;

static void tl_free(tl *s)
{
    size_t n = ((size_t)s->w->n_jobs + 1) * SERIES; /* as tl_init made them */
    for (size_t k = 0; k < n; k++) {
        if (s->job)
            json_decref(s->job[k]);
        if (s->user)
            json_decref(s->user[k]);
    }
    for (int k = 0; k < SERIES; k++)
        json_decref(s->all[k]);
    free(s->first);
    free(s->user_of);
    free(s->running);
    free(s->util);
    free(s->job);
    free(s->user);
}

static int tl_init(tl *s, const so_cl_workload *w)
{
    memset(s, 0, sizeof *s);
    s->w = w;
    size_t n = (size_t)w->n_jobs + 1;
    s->first = calloc(n, sizeof *s->first);
    s->user_of = calloc(n, sizeof *s->user_of);
    s->running = calloc(2 * n, sizeof *s->running);
    s->util = calloc(n, sizeof *s->util);
    s->job = calloc(n * SERIES, sizeof *s->job);
    s->user = calloc(n * SERIES, sizeof *s->user);
    s->cycle = -1;
    int ok = s->first && s->user_of && s->running && s->util && s->job && s->user;
    for (int j = 0; ok && j < w->n_jobs; j++) {
        s->first[j + 1] = s->first[j] + w->jobs[j].n_maps + w->jobs[j].n_reduces;
        s->util[j] = NAN;
        int u = 0;
        while (u < j && strcmp(w->jobs[u].user, w->jobs[j].user))
            u++;
        s->user_of[j] = u < j ? s->user_of[u] : s->n_users++;
    }
    for (size_t k = 0; ok && k < n * SERIES; k++)
        ok = (s->job[k] = json_array()) && (s->user[k] = json_array());
    for (int k = 0; ok && k < SERIES; k++)
        ok = (s->all[k] = json_array()) != NULL;
    return ok ? SO_OK : SO_ENOMEM;
}

/* Appends the point of the current state to every series. */
static void point(tl *s)
{
    const so_cl_workload *w = s->w;
    long all[2] = {0, 0};
    for (int u = 0; u < s->n_users; u++)
        for (int k = MAPS; k <= TASKS; k++)
            json_array_append_new(s->user[u * SERIES + k], json_integer(0));
    for (int j = 0; j < w->n_jobs; j++) {
        long v[3] = {s->running[2 * j], s->running[2 * j + 1], 0};
        v[TASKS] = v[MAPS] + v[REDUCES];
        json_t **js = &s->job[j * SERIES], **us = &s->user[s->user_of[j] * SERIES];
        for (int k = MAPS; k <= TASKS; k++) {
            json_array_append_new(js[k], json_integer(v[k]));
            json_t *last = json_array_get(us[k], json_array_size(us[k]) - 1);
            json_integer_set(last, json_integer_value(last) + v[k]);
        }
        json_array_append_new(js[UTILITY], isnan(s->util[j]) ? json_null()
                                                             : json_real(s->util[j]));
        all[0] += v[MAPS];
        all[1] += v[REDUCES];
    }
    json_array_append_new(s->all[MAPS], json_integer(all[0]));
    json_array_append_new(s->all[REDUCES], json_integer(all[1]));
    json_array_append_new(s->all[TASKS], json_integer(all[0] + all[1]));
    json_array_append_new(s->all[PER_NODE],
                          json_real(w->n_nodes ? (double)(all[0] + all[1]) / w->n_nodes : 0));
}

/* The number after "KEY=" in line (up to end), or NAN. */
static double field(const char *line, const char *end, const char *key)
{
    size_t k = strlen(key);
    for (const char *p = line; p + k < end; p++)
        if ((p == line || p[-1] == ' ') && !strncmp(p, key, k) && p[k] == '=')
            return strtod(p + k + 1, NULL);
    return NAN;
}

/* One line of the log. */
static int line(tl *s, const char *p, const char *end, double step, size_t *points)
{
    char *rest;
    double t = strtod(p, &rest);
    if (rest == p || *rest != ' ')
        return SO_OK;
    s->last = fmax(s->last, t);
    const char *ev = rest + 1;
    size_t len = strcspn(ev, " \n");
    int d = 0, cycle = 0;
    if ((len == 6 && !strncmp(ev, "launch", 6)) || (len == 18 && !strncmp(ev, "launch-speculative", 18)))
        d = 1;
    else if ((len == 9 && !strncmp(ev, "task-done", 9)) || (len == 4 && !strncmp(ev, "kill", 4)) ||
             (len == 14 && !strncmp(ev, "kill-redundant", 14)))
        d = -1;
    else if (len == 9 && !strncmp(ev, "ras-cycle", 9))
        cycle = 1;
    else
        return SO_OK;
    while ((double)*points * step < t) { /* the points before this event */
        point(s);
        ++*points;
    }
    double jd = field(ev, end, "job");
    int j = isfinite(jd) ? (int)jd : -1;
    if (j < 0 || j >= s->w->n_jobs || jd != j)
        return SO_EINVAL;
    if (cycle) {
        if (t != s->cycle) { /* a new control cycle: jobs not in it have none */
            for (int k = 0; k < s->w->n_jobs; k++)
                s->util[k] = NAN;
            s->cycle = t;
        }
        double u = field(ev, end, "utility"); /* "-inf" reads as -inf */
        s->util[j] = isnan(u) ? NAN : fmax(u, SO_HTIMELINE_UTILITY_FLOOR);
        s->has_cycles = 1;
        return SO_OK;
    }
    double kd = field(ev, end, "task");
    if (!(kd >= s->first[j] && kd < s->first[j + 1]))
        return SO_EINVAL;
    int phase = kd - s->first[j] >= s->w->jobs[j].n_maps;
    s->running[2 * j + phase] += d;
    return SO_OK;
}

static json_t *series(json_t **v, const char *const *names, int with_last)
{
    json_t *o = json_object();
    for (int k = 0; k < SERIES - !with_last; k++)
        json_object_set(o, names[k], v[k]);
    return o;
}

int so_htimeline_read(const so_cl_workload *w, const char *log, size_t len, double step,
                      json_t **out)
{
    *out = NULL;
    if (!(step > 0))
        return SO_EINVAL;
    tl s;
    int rc = tl_init(&s, w);
    size_t points = 0;
    for (const char *p = log, *end = log + len; !rc && p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        rc = line(&s, p, e, step, &points);
        p = nl ? nl + 1 : end;
    }
    while (!rc && (double)points * step <= s.last) { /* up to the end of the run */
        point(&s);
        points++;
    }
    if (!rc) {
        json_t *o = json_object(), *users = json_object(), *jobs = json_object();
        json_object_set_new(o, "step", json_real(step));
        json_object_set_new(o, "points", json_integer((json_int_t)points));
        json_object_set_new(o, "all", series(s.all, all_fields, 1));
        for (int j = 0; j < w->n_jobs; j++) {
            const char *u = w->jobs[j].user[0] ? w->jobs[j].user : "-";
            if (!json_object_get(users, u))
                json_object_set_new(users, u, series(&s.user[s.user_of[j] * SERIES],
                                                     job_fields, 0));
            char name[96];
            snprintf(name, sizeof name, "%s", w->jobs[j].name[0] ? w->jobs[j].name : "job");
            if (json_object_get(jobs, name) || !w->jobs[j].name[0])
                snprintf(name, sizeof name, "%.63s#%d", w->jobs[j].name, j);
            json_object_set_new(jobs, name, series(&s.job[j * SERIES], job_fields,
                                                   s.has_cycles));
        }
        json_object_set_new(o, "users", users);
        json_object_set_new(o, "jobs", jobs);
        *out = o;
    }
    tl_free(&s);
    return rc;
}

int so_htimeline_each(json_t *extras, const char *by, const char *field_name,
                      int (*fn)(void *ctx, const char *member, double time, double value),
                      void *ctx)
{
    json_t *tlj = json_object_get(extras, "timeline");
    double step = json_number_value(json_object_get(tlj, "step"));
    json_t *members;
    if (!strcmp(by, "user") || !strcmp(by, "job_name")) {
        members = json_object_get(tlj, by[0] == 'u' ? "users" : "jobs");
    } else {
        members = json_object();
        json_object_set(members, "all", json_object_get(tlj, "all"));
    }
    const char *name;
    json_t *m;
    int rc = 0;
    json_object_foreach(members, name, m) {
        json_t *arr = json_object_get(m, field_name);
        size_t i;
        json_t *v;
        json_array_foreach(arr, i, v) if (!rc && json_is_number(v))
            rc = fn(ctx, name, (double)i * step, json_number_value(v));
    }
    if (strcmp(by, "user") && strcmp(by, "job_name"))
        json_decref(members);
    return rc;
}
