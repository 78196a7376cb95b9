/* harness_inputs.c — the instance list of a benchmark run: files, folders
 * and family batches, each instance identified by a hash of its content. */
#include <dirent.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tools/harness/harness.h"
#include "cluster/run_limits.h"

void so_hinsts_free(so_hinsts *s)
{
    for (size_t i = 0; i < s->n; i++) {
        so_problem_free(s->v[i].problem);
        free(s->v[i].name);
        free(s->v[i].family);
        free(s->v[i].params);
        free(s->v[i].workload);
        free(s->v[i].options);
    }
    free(s->v);
    free(s->seen);
    memset(s, 0, sizeof *s);
}

/* Adds h to the set of hashes; 1 if it was there, 0 if added, < 0 when out
 * of memory. The set stays at most half full. */
static int seen_add(so_hinsts *s, uint64_t h)
{
    h = h ? h : 1; /* 0 marks an empty slot */
    if (2 * (s->n + 1) > s->seen_cap) {
        size_t cap = s->seen_cap ? 2 * s->seen_cap : 256;
        uint64_t *t = calloc(cap, sizeof *t);
        if (!t)
            return SO_ENOMEM;
        for (size_t i = 0; i < s->seen_cap; i++)
            if (s->seen[i]) {
                size_t k = s->seen[i] & (cap - 1);
                while (t[k])
                    k = (k + 1) & (cap - 1);
                t[k] = s->seen[i];
            }
        free(s->seen);
        s->seen = t;
        s->seen_cap = cap;
    }
    size_t k = h & (s->seen_cap - 1);
    while (s->seen[k] && s->seen[k] != h)
        k = (k + 1) & (s->seen_cap - 1);
    if (s->seen[k])
        return 1;
    s->seen[k] = h;
    return 0;
}

/* FNV-1a, 64 bits, over the canonical text (sorted keys, compact, 17
 * significant digits): the same content hashes the same whatever its file
 * layout, name or "meta". */
int so_harness_hash(const so_problem *p, char out[17])
{
    json_t *j = so_problem_to_json(p);
    if (!j)
        return SO_ENOMEM;
    json_object_del(j, "meta");
    char *text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
    json_decref(j);
    if (!text)
        return SO_ENOMEM;
    uint64_t h = 14695981039346656037ULL;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        h ^= *c;
        h *= 1099511628211ULL;
    }
    free(text);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
    return SO_OK;
}

static int read_meta(so_hinst *in, json_t *meta)
{
    if (!meta)
        return SO_OK;
    json_t *fam = json_object_get(meta, "family");
    json_t *params = json_object_get(meta, "params");
    json_t *seed = json_object_get(meta, "seed");
    json_t *index = json_object_get(meta, "index");
    if (json_is_string(fam) && !(in->family = strdup(json_string_value(fam))))
        return SO_ENOMEM;
    if (params && !(in->params = json_dumps(params, JSON_COMPACT | JSON_PRESERVE_ORDER)))
        return SO_ENOMEM;
    if (json_is_integer(seed)) {
        in->has_seed = 1;
        in->seed = json_integer_value(seed);
        in->index = json_is_integer(index) ? json_integer_value(index) : 0;
    }
    return SO_OK;
}

/* Room for one more instance in s; SO_ENOMEM when out of memory. */
static int make_room(so_hinsts *s)
{
    if (s->n < s->cap)
        return SO_OK;
    size_t cap = s->cap ? 2 * s->cap : 64;
    so_hinst *v = realloc(s->v, cap * sizeof *v);
    if (!v)
        return SO_ENOMEM;
    s->v = v;
    s->cap = cap;
    return SO_OK;
}

int so_hinsts_add_problem(so_hinsts *s, so_problem *p, so_error *err)
{
    so_hinst in = {0};
    in.problem = p;
    int rc = so_harness_hash(p, in.hash);
    int dup = rc ? 0 : seen_add(s, strtoull(in.hash, NULL, 16));
    if (dup == 1) {
        so_problem_free(p);
        return SO_OK;
    }
    if (dup < 0)
        rc = dup;
    if (!rc && !(in.name = strdup(so_problem_name(p))))
        rc = SO_ENOMEM;
    if (!rc)
        rc = read_meta(&in, so_problem_meta(p));
    if (!rc)
        rc = make_room(s);
    if (rc) {
        so_error_setf(err, NULL, 0, 0, NULL, "instance %s: out of memory (or no JSON"
                      " form to hash)", so_problem_name(p));
        so_problem_free(p);
        free(in.name);
        free(in.family);
        free(in.params);
        return SO_ENOMEM;
    }
    s->v[s->n++] = in;
    return SO_OK;
}

static int skipped_name(const char *name)
{
    size_t n = strlen(name);
    return name[0] == '.' || (n > 3 && !strcmp(name + n - 3, ".md")) ||
           (n > 4 && !strcmp(name + n - 4, ".csv")) ||
           (n > 3 && !strcmp(name + n - 3, ".py")); /* generators kept beside */
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every instance of the file: one, or a stream of JSON lines. */
static int add_instance_file(so_hinsts *s, const char *file, so_error *err)
{
    so_problem **ps = NULL;
    size_t n = 0;
    char *text = NULL;
    size_t len = 0;
    int rc = so_hread_input(file, s->read_limit, s->read_limit_from, &text, &len, err);
    if (!rc)
        rc = so_problem_parse_all(text, len, strcmp(file, "-") ? file : "stdin", &ps, &n,
                                  err);
    free(text);
    for (size_t i = 0; i < n; i++) {
        if (!rc)
            rc = so_hinsts_add_problem(s, ps[i], err);
        else
            so_problem_free(ps[i]);
    }
    free(ps);
    return rc;
}

/* Calls add on every regular file of folder `path` (names as
 * skipped_name() allows, in name order), stopping at the first error; a
 * folder without any is an error naming `what` files. */
static int add_folder(so_hinsts *s, const char *path, const char *what,
                      int (*add)(so_hinsts *, const char *, so_error *), so_error *err)
{
    DIR *d = opendir(path);
    if (!d) {
        so_error_setf(err, path, 0, 0, NULL, "cannot open folder: %s", strerror(errno));
        return SO_EIO;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = SO_OK;
    struct dirent *e;
    while (!rc && (e = readdir(d))) {
        if (skipped_name(e->d_name))
            continue;
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        char *full = malloc(len);
        if (!full) {
            rc = SO_ENOMEM;
            break;
        }
        snprintf(full, len, "%s/%s", path, e->d_name);
        struct stat st;
        if (stat(full, &st) || !S_ISREG(st.st_mode)) {
            free(full);
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            char **v = realloc(names, cap * sizeof *v);
            if (!v) {
                free(full);
                rc = SO_ENOMEM;
                break;
            }
            names = v;
        }
        names[n++] = full;
    }
    closedir(d);
    if (!rc && n == 0)
        rc = so_error_setf(err, path, 0, 0, NULL, "no %s file in this folder", what);
    if (!rc)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        if (!rc)
            rc = add(s, names[i], err);
        free(names[i]);
    }
    free(names);
    return rc;
}

int so_hinsts_add_path(so_hinsts *s, const char *path, so_error *err)
{
    struct stat st;
    if (strcmp(path, "-") && stat(path, &st)) { /* "-": stdin */
        so_error_setf(err, path, 0, 0, NULL, "cannot read: %s", strerror(errno));
        return SO_EIO;
    }
    if (strcmp(path, "-") && S_ISDIR(st.st_mode))
        return add_folder(s, path, "instance", add_instance_file, err);
    return add_instance_file(s, path, err);
}

/* ---- workloads (simulation cells) ---------------------------------------- */

static uint64_t fnv(const char *text, size_t len)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= 1099511628211ULL;
    }
    return h;
}

int so_hinsts_add_workload(so_hinsts *s, const char *text, size_t len,
                           const char *name, const char *family,
                           const char *params, so_error *err)
{
    so_hinst in = {0};
    /* "w" before hashing: a workload never shares a hash with a problem */
    uint64_t h = fnv(text, len) ^ 0x77;
    snprintf(in.hash, sizeof in.hash, "%016llx", (unsigned long long)h);
    int dup = seen_add(s, h);
    if (dup == 1)
        return SO_OK;
    int rc = dup < 0 ? SO_ENOMEM : SO_OK;
    /* params: the family's, with the workload's name added (group by it) */
    json_t *pj = params ? json_loads(params, 0, NULL) : NULL;
    if (!json_is_object(pj)) {
        json_decref(pj);
        pj = json_object();
    }
    json_object_set_new(pj, "workload", json_string(name));
    if (!rc && !(in.params = json_dumps(pj, JSON_COMPACT | JSON_PRESERVE_ORDER)))
        rc = SO_ENOMEM;
    json_decref(pj);
    if (!rc && (!(in.name = strdup(name)) || (family && !(in.family = strdup(family))) ||
                !(in.workload = malloc(len + 1))))
        rc = SO_ENOMEM;
    if (!rc) {
        memcpy(in.workload, text, len);
        in.workload[len] = '\0';
        in.workload_len = len;
    }
    if (!rc)
        rc = make_room(s);
    if (rc) {
        free(in.name);
        free(in.family);
        free(in.params);
        free(in.workload);
        return so_error_setf(err, NULL, 0, 0, NULL, "workload %s: out of memory", name);
    }
    s->v[s->n++] = in;
    return SO_OK;
}

static int read_workload_file(so_hinsts *s, const char *path, so_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    int bad = so_hread_input(path, s->read_limit, s->read_limit_from, &buf, &len, err);
    if (bad)
        return bad;
    /* parsed once here, so that a bad workload is an error before any run;
     * the event bound is left to each cell, whose policy options may raise
     * it (max_events) */
    so_cl_workload *w = NULL;
    so_params any_events;
    so_params_init(&any_events);
    so_params_set(&any_events, "max_events", SO_CL_MAX_EVENTS_CEILING);
    int rc = so_cl_workload_parse(buf, len, path, &any_events, 1, &w, err);
    so_cl_workload_free(w);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char name[256];
    snprintf(name, sizeof name, "%s", base);
    char *dot = strrchr(name, '.');
    if (dot && dot != name)
        *dot = '\0';
    /* a JSON workload's "meta" (family, params) groups it like an instance */
    json_t *root = rc ? NULL : json_loadb(buf, len, 0, NULL);
    json_t *meta = json_object_get(root, "meta");
    json_t *fam = json_object_get(meta, "family"), *params = json_object_get(meta, "params");
    char *ptext = json_is_object(params) ? json_dumps(params, JSON_COMPACT | JSON_PRESERVE_ORDER)
                                         : NULL;
    if (!rc)
        rc = so_hinsts_add_workload(s, buf, len, name,
                                    json_is_string(fam) ? json_string_value(fam) : NULL,
                                    ptext, err);
    free(ptext);
    json_decref(root);
    free(buf);
    return rc;
}


int so_hinsts_add_workload_path(so_hinsts *s, const char *path, so_error *err)
{
    struct stat st;
    if (stat(path, &st)) {
        so_error_setf(err, path, 0, 0, NULL, "cannot read: %s", strerror(errno));
        return SO_EIO;
    }
    if (!S_ISDIR(st.st_mode))
        return read_workload_file(s, path, err);
    return add_folder(s, path, "workload", read_workload_file, err);
}

static int add_generated_workload(so_hinsts *s, json_t *inst, const char *name,
                                  const char *family, const so_params *settings,
                                  so_error *err)
{
    json_t *meta = json_object_get(inst, "meta");
    json_t *params = json_object_get(meta, "params");
    char *ptext = params ? json_dumps(params, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    if (!ptext) { /* the settings themselves */
        json_t *o = json_object();
        for (int k = 0; k < settings->n_options; k++)
            json_object_set_new(o, settings->options[k].key,
                                json_string(settings->options[k].value));
        ptext = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
        json_decref(o);
    }
    char *text = json_dumps(inst, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
    size_t before = s->n;
    int rc = text ? so_hinsts_add_workload(s, text, strlen(text), name, family, ptext, err)
                  : SO_ENOMEM;
    json_t *seed = json_object_get(meta, "seed"), *index = json_object_get(meta, "index");
    if (!rc && s->n > before && json_is_integer(seed)) { /* its generator seed and index */
        s->v[before].has_seed = 1;
        s->v[before].seed = json_integer_value(seed);
        s->v[before].index = json_integer_value(index);
    }
    free(text);
    free(ptext);
    return rc;
}

int so_hinsts_add_family(so_hinsts *s, const so_family *f,
                         const so_params *settings, uint64_t seed,
                         uint64_t count, so_error *err)
{
    for (uint64_t i = 0; i < count; i++) {
        json_t *inst = NULL;
        int rc = so_family_generate(f, settings, seed, i, &inst, err);
        if (rc)
            return rc;
        char name[512];
        size_t len = (size_t)snprintf(name, sizeof name, "%s", f->name);
        for (int k = 0; k < settings->n_options && len < sizeof name; k++)
            len += (size_t)snprintf(name + len, sizeof name - len, "-%s=%s",
                                    settings->options[k].key,
                                    settings->options[k].value);
        if (len < sizeof name)
            snprintf(name + len, sizeof name - len, "-s%llu-i%llu",
                     (unsigned long long)seed, (unsigned long long)i);
        if (!strcmp(f->problem, "cluster")) { /* a workload family */
            rc = add_generated_workload(s, inst, name, f->name, settings, err);
            json_decref(inst);
            if (rc)
                return rc;
            continue;
        }
        so_problem *p = NULL;
        rc = so_problem_from_json(inst, name, &p, err);
        json_decref(inst);
        if (!rc)
            rc = so_hinsts_add_problem(s, p, err);
        if (rc)
            return rc;
    }
    return SO_OK;
}
