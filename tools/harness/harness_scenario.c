/* harness_scenario.c — scenario files (instances/scenarios/NAME.json): the
 * backends, the reference and the inputs of a benchmark, read strictly
 * (unknown keys are errors, every error with file, line, column, key path).
 * The format is in docs/harness.md. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cluster/run_limits.h"
#include "formulations/common/jsonin.h"
#include "tools/harness/harness.h"
#include "tools/harness/harness_table.h"

static char *slurp(const char *path, so_error *err)
{
    char *buf = NULL;
    return so_read_input(path, &buf, NULL, err) ? NULL : buf;
}

/* Calls add(c, name); places its error at path. */
static int add_name(so_jin *in, const char *path, const char *name, so_hconfig *c,
                    int (*add)(so_hconfig *, const char *, so_error *))
{
    if (!add(c, name, in->err))
        return SO_OK;
    char msg[sizeof in->err->message];
    snprintf(msg, sizeof msg, "%s", in->err->message);
    return so_jin_fail(in, path, 0, "%s", msg);
}

static int settings(so_jin *in, json_t *obj, const char *path, so_params *set);

/* {"name", "backend", "options"}: a backend under its own name with its own
 * options (so_hconfig_add_variant). */
static int variant(so_jin *in, json_t *e, const char *path, so_hconfig *c)
{
    static const char *const keys[] = {"name", "backend", "options", NULL};
    const char *name = NULL, *backend = NULL;
    json_t *o = NULL;
    so_params opts;
    so_params_init(&opts);
    int rc = so_jin_keys(in, e, path, keys);
    if (!rc)
        rc = so_jin_str(in, e, path, "name", SO_REQUIRED, &name);
    if (!rc)
        rc = so_jin_str(in, e, path, "backend", SO_REQUIRED, &backend);
    if (!rc)
        rc = so_jin_object(in, e, path, "options", SO_OPTIONAL, &o);
    char opath[128];
    so_jin_path(opath, sizeof opath, path, "options");
    if (!rc && o)
        rc = settings(in, o, opath, &opts);
    if (rc)
        return rc;
    if (!so_hconfig_add_variant(c, name, backend, &opts, in->err))
        return SO_OK;
    char msg[sizeof in->err->message], kpath[200];
    snprintf(msg, sizeof msg, "%s", in->err->message);
    if (in->err->key[0])
        so_jin_path(kpath, sizeof kpath, opath, in->err->key);
    else
        so_jin_path(kpath, sizeof kpath, path, strstr(msg, "unknown backend") ? "backend"
                                                                             : "name");
    return so_jin_fail(in, kpath, 0, "%s", msg);
}

/* A name, or an array of names, at key; each passed to add(). */
static int names(so_jin *in, json_t *root, const char *key, int required,
                 so_hconfig *c, int (*add)(so_hconfig *, const char *, so_error *))
{
    json_t *v = NULL;
    int rc = so_jin_get(in, root, "", key, required, &v);
    if (rc || !v)
        return rc;
    if (json_is_string(v))
        return add_name(in, key, json_string_value(v), c, add);
    if (!json_is_array(v) || json_array_size(v) == 0)
        return so_jin_fail(in, key, 0, "expected a backend name or a non-empty array of names");
    for (size_t i = 0; i < json_array_size(v); i++) {
        char path[64];
        so_jin_index(path, sizeof path, key, i);
        json_t *e = json_array_get(v, i);
        if (json_is_object(e) && add == so_hconfig_add_backend) {
            if ((rc = variant(in, e, path, c)))
                return rc;
            continue;
        }
        if (!json_is_string(e))
            return so_jin_fail(in, path, 0, add == so_hconfig_add_backend
                               ? "expected a backend name or {\"name\", \"backend\","
                                 " \"options\"}"
                               : "expected a backend name");
        if ((rc = add_name(in, path, json_string_value(e), c, add)))
            return rc;
    }
    return SO_OK;
}

/* Family settings: an object of strings or numbers. */
static int settings(so_jin *in, json_t *obj, const char *path, so_params *set)
{
    so_params_init(set);
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        char kpath[256], text[64];
        so_jin_path(kpath, sizeof kpath, path, key);
        const char *value = text;
        if (json_is_string(v))
            value = json_string_value(v);
        else if (json_is_integer(v))
            snprintf(text, sizeof text, "%lld", (long long)json_integer_value(v));
        else if (json_is_real(v))
            snprintf(text, sizeof text, "%.15g", json_real_value(v));
        else
            return so_jin_fail(in, kpath, 0, "expected a string or a number");
        if (so_params_set(set, key, value))
            return so_jin_fail(in, kpath, 1, "too many parameters or too long");
    }
    return SO_OK;
}

/* Places an error of a generator (key = parameter name) in the file. */
static int family_error(so_jin *in, const char *path, int rc)
{
    so_error *e = in->err;
    if (rc != SO_EINVAL || e->file[0])
        return rc;
    char msg[sizeof e->message], kpath[256];
    snprintf(msg, sizeof msg, "%s", e->message);
    if (e->key[0]) {
        char ppath[200];
        so_jin_path(ppath, sizeof ppath, path, "params");
        so_jin_path(kpath, sizeof kpath, ppath, e->key);
        return so_jin_fail(in, kpath, 0, "%s", msg);
    }
    return so_jin_fail(in, path, 0, "%s", msg);
}

/* Every instance of a family input is generated and held while the
 * scenario is read: `count` of them, each about the first one's JSON text
 * twice (its text and what is read from it), must fit the memory limit
 * (SLOTOPT_MAX_MEMORY_MB, default 4096 MiB) before any more is made. */
#define HELD_PER_TEXT_BYTE 2.0

static int check_count(so_jin *in, const char *path, const so_family *f,
                       const so_params *set, int64_t seed, int64_t count)
{
    so_cl_limits lim;
    json_t *first = NULL;
    int rc = so_cl_limits_read(NULL, &lim, in->err);
    if (!rc)
        rc = so_family_generate(f, set, (uint64_t)seed, 0, &first, in->err);
    if (rc)
        return rc;
    char *text = json_dumps(first, JSON_COMPACT);
    json_decref(first);
    if (!text)
        return SO_ENOMEM;
    double each = HELD_PER_TEXT_BYTE * (double)strlen(text);
    free(text);
    double bytes = each * (double)count;
    if (bytes <= lim.max_bytes)
        return SO_OK;
    char cpath[200];
    so_jin_path(cpath, sizeof cpath, path, "count");
    return so_jin_fail(in, cpath, 0,
                       "%lld instances of about %.0f KiB each: an estimated"
                       " %.0f MiB held while the scenario is read, above the"
                       " memory limit of %.0f MiB (raise it with"
                       " SLOTOPT_MAX_MEMORY_MB, or lower count)",
                       (long long)count, each / 1024, bytes / 1048576.0,
                       lim.max_bytes / 1048576.0);
}

static int input(so_jin *in, json_t *obj, const char *path, const char *base,
                 so_hinsts *s)
{
    static const char *const keys[] = {"family", "params", "count", "seed",
                                       "path", "workload", NULL};
    int rc = so_jin_keys(in, obj, path, keys);
    if (rc)
        return rc;
    const char *file = NULL, *fam = NULL, *wl = NULL;
    rc = so_jin_str(in, obj, path, "workload", SO_OPTIONAL, &wl);
    if (!rc && wl) { /* a workload file or folder: simulation cells */
        static const char *const wkeys[] = {"workload", NULL};
        rc = so_jin_keys(in, obj, path, wkeys);
        if (rc)
            return rc;
        char *full = NULL;
        if (asprintf(&full, "%s%s%s", wl[0] == '/' ? "" : base,
                     wl[0] == '/' ? "" : "/", wl) < 0)
            return SO_ENOMEM;
        rc = so_hinsts_add_workload_path(s, full, in->err);
        free(full);
        return rc;
    }
    if (!rc)
        rc = so_jin_str(in, obj, path, "path", SO_OPTIONAL, &file);
    if (!rc)
        rc = so_jin_str(in, obj, path, "family", SO_OPTIONAL, &fam);
    if (rc)
        return rc;
    if (!file == !fam)
        return so_jin_fail(in, path, 0, "expected exactly one of \"family\", \"path\""
                           " and \"workload\"");
    if (file) {
        static const char *const fkeys[] = {"path", NULL};
        rc = so_jin_keys(in, obj, path, fkeys);
        if (rc)
            return rc;
        char *full = NULL;
        if (asprintf(&full, "%s%s%s", file[0] == '/' ? "" : base,
                     file[0] == '/' ? "" : "/", file) < 0)
            return SO_ENOMEM;
        rc = so_hinsts_add_path(s, full, in->err);
        free(full);
        return rc;
    }
    const so_family *f = so_family_find(fam);
    if (!f) {
        char fpath[200];
        so_jin_path(fpath, sizeof fpath, path, "family");
        return so_jin_fail(in, fpath, 0, "unknown family '%s' (see 'slotopt families')", fam);
    }
    int64_t count = 0, seed = 1;
    json_t *params = NULL;
    rc = so_jin_int(in, obj, path, "count", SO_REQUIRED, 1, 1000000, &count);
    if (!rc)
        rc = so_jin_int(in, obj, path, "seed", SO_OPTIONAL, 0, INT64_MAX, &seed);
    if (!rc)
        rc = so_jin_object(in, obj, path, "params", SO_OPTIONAL, &params);
    so_params set;
    so_params_init(&set);
    if (!rc && params) {
        char ppath[200];
        so_jin_path(ppath, sizeof ppath, path, "params");
        rc = settings(in, params, ppath, &set);
    }
    if (!rc)
        rc = check_count(in, path, f, &set, seed, count);
    if (rc)
        return family_error(in, path, rc); /* a generator's error: at its key */
    rc = so_hinsts_add_family(s, f, &set, (uint64_t)seed, (uint64_t)count, in->err);
    return rc ? family_error(in, path, rc) : SO_OK;
}

/* "policies": an array of "SCHED[+SPEC[+STEAL]]" / "lower-bound" strings, or of
 * objects {"name", "policy": "SCHED[+SPEC[+STEAL]]", "options": {KEY: VALUE}};
 * "sim_reference" and "metric" (checked by so_hconfig_check_sim). */
static int policies(so_jin *in, json_t *root, so_hconfig *c)
{
    json_t *arr = NULL;
    int rc = so_jin_array(in, root, "", "policies", SO_REQUIRED, 1, &arr);
    for (size_t i = 0; !rc && i < json_array_size(arr); i++) {
        char path[64];
        so_jin_index(path, sizeof path, "policies", i);
        json_t *e = json_array_get(arr, i);
        const char *spec = NULL, *name = NULL;
        so_params opts;
        so_params_init(&opts);
        if (json_is_string(e)) {
            spec = json_string_value(e);
        } else if (json_is_object(e)) {
            static const char *const keys[] = {"name", "policy", "options", NULL};
            json_t *o = NULL;
            rc = so_jin_keys(in, e, path, keys);
            if (!rc)
                rc = so_jin_str(in, e, path, "policy", SO_REQUIRED, &spec);
            if (!rc)
                rc = so_jin_str(in, e, path, "name", SO_OPTIONAL, &name);
            if (!rc)
                rc = so_jin_object(in, e, path, "options", SO_OPTIONAL, &o);
            if (!rc && o) {
                char opath[128];
                so_jin_path(opath, sizeof opath, path, "options");
                rc = settings(in, o, opath, &opts);
            }
            if (rc)
                return rc;
        } else {
            return so_jin_fail(in, path, 0, "expected \"SCHED[+SPEC]\" or an object"
                               " {\"name\", \"policy\", \"options\"}");
        }
        if (so_hconfig_add_policy(c, spec, name, &opts, in->err)) {
            char msg[sizeof in->err->message];
            snprintf(msg, sizeof msg, "%s", in->err->message);
            return so_jin_fail(in, path, 0, "%s", msg);
        }
    }
    const char *ref = NULL, *metric = NULL;
    if (!rc)
        rc = so_jin_str(in, root, "", "sim_reference", SO_OPTIONAL, &ref);
    if (!rc)
        rc = so_jin_str(in, root, "", "metric", SO_OPTIONAL, &metric);
    if (!rc && ref)
        snprintf(c->sim_reference, sizeof c->sim_reference, "%s", ref);
    if (!rc && metric)
        snprintf(c->metric, sizeof c->metric, "%s", metric);
    if (!rc && so_hconfig_check_sim(c, in->err)) {
        char msg[sizeof in->err->message];
        snprintf(msg, sizeof msg, "%s", in->err->message);
        return so_jin_fail(in, metric && strstr(msg, "metric") ? "metric" : "sim_reference", 0,
                           "%s", msg);
    }
    return rc;
}

/* "settings": [{"name", "seed", "options"}]: every simulation input of the
 * scenario (those from index from on) once per setting; each option must
 * be one that every policy takes (bounds take none and ignore them). */
static int settings_list(so_jin *in, json_t *root, so_hconfig *c, so_hinsts *s, size_t from)
{
    json_t *arr = NULL;
    int rc = so_jin_array(in, root, "", "settings", SO_OPTIONAL, 1, &arr);
    if (rc || !arr)
        return rc;
    if (!c->n_policies)
        return so_jin_fail(in, "settings", 0, "settings need simulation cells (\"policies\")");
    if (json_array_size(arr) > SO_HARNESS_MAX_SETTINGS)
        return so_jin_fail(in, "settings", 0, "at most %d settings", SO_HARNESS_MAX_SETTINGS);
    so_hsetting *set = calloc(json_array_size(arr), sizeof *set);
    if (!set)
        return SO_ENOMEM;
    size_t n = 0;
    for (size_t i = 0; !rc && i < json_array_size(arr); i++) {
        char path[64], kpath[128];
        so_jin_index(path, sizeof path, "settings", i);
        static const char *const keys[] = {"name", "seed", "options", NULL};
        json_t *e = NULL, *o = NULL;
        const char *name = NULL;
        int64_t seed = 1;
        rc = so_jin_object_at(in, arr, "settings", i, &e);
        if (!rc)
            rc = so_jin_keys(in, e, path, keys);
        if (!rc)
            rc = so_jin_str(in, e, path, "name", SO_REQUIRED, &name);
        if (!rc && (!*name || strlen(name) >= sizeof set[n].name || strchr(name, '/'))) {
            so_jin_path(kpath, sizeof kpath, path, "name");
            rc = so_jin_fail(in, kpath, 0, "expected 1 to %zu characters, no '/'",
                             sizeof set[n].name - 1);
        }
        for (size_t j = 0; !rc && j < n; j++)
            if (!strcmp(set[j].name, name)) {
                so_jin_path(kpath, sizeof kpath, path, "name");
                rc = so_jin_fail(in, kpath, 0, "'%s' given twice", name);
            }
        if (!rc)
            rc = so_jin_int(in, e, path, "seed", SO_OPTIONAL, 1, INT64_MAX / 2, &seed);
        if (!rc)
            rc = so_jin_object(in, e, path, "options", SO_OPTIONAL, &o);
        so_params_init(&set[n].options);
        if (!rc && o) {
            so_jin_path(kpath, sizeof kpath, path, "options");
            rc = settings(in, o, kpath, &set[n].options);
        }
        for (int q = 0; !rc && q < set[n].options.n_options; q++)
            for (size_t p = 0; !rc && p < c->n_policies; p++)
                if (c->policies[p].scheduler &&
                    !so_hpolicy_takes(&c->policies[p], set[n].options.options[q].key)) {
                    char opath[200];
                    so_jin_path(kpath, sizeof kpath, path, "options");
                    so_jin_path(opath, sizeof opath, kpath, set[n].options.options[q].key);
                    rc = so_jin_fail(in, opath, 0, "not an option of policy '%s'",
                                     c->policies[p].name);
                }
        if (!rc) {
            snprintf(set[n].name, sizeof set[n].name, "%s", name);
            set[n].seed = (uint64_t)seed;
            snprintf(c->settings[n], sizeof c->settings[n], "%s", name);
            n++;
        }
    }
    c->n_settings = rc ? 0 : n;
    if (!rc)
        rc = so_hinsts_apply_settings(s, from, set, n, in->err);
    free(set);
    return rc;
}

/* The listing fields: "figure", "runtime" {"full", "quick"} (seconds). */
static int listing(so_jin *in, json_t *root, so_hscenario *sc)
{
    const char *text = NULL;
    json_t *rt = NULL;
    int rc = so_jin_str(in, root, "", "reproduces", SO_OPTIONAL, &text);
    if (!rc && text && sc)
        snprintf(sc->reproduces, sizeof sc->reproduces, "%s", text);
    text = NULL;
    if (!rc)
        rc = so_jin_str(in, root, "", "figure", SO_OPTIONAL, &text);
    if (!rc && text && sc)
        snprintf(sc->figure, sizeof sc->figure, "%s", text);
    if (!rc)
        rc = so_jin_object(in, root, "", "runtime", SO_OPTIONAL, &rt);
    if (!rc && rt) {
        static const char *const rkeys[] = {"full", "quick", NULL};
        double full = 0, quick = 0;
        rc = so_jin_keys(in, rt, "runtime", rkeys);
        if (!rc)
            rc = so_jin_num(in, rt, "runtime", "full", SO_OPTIONAL, 0, 1e9, &full);
        if (!rc)
            rc = so_jin_num(in, rt, "runtime", "quick", SO_OPTIONAL, 0, 1e9, &quick);
        if (!rc && sc) {
            sc->runtime_full = full;
            sc->runtime_quick = quick;
        }
    }
    return rc;
}

/* "table": one definition or an array of them, into sc (checked even when
 * sc is NULL). */
static int table(so_jin *in, json_t *root, const so_hconfig *c, so_hscenario *sc)
{
    json_t *t = json_object_get(root, "table");
    if (!t)
        return SO_OK;
    if (!json_is_object(t) && !(json_is_array(t) && json_array_size(t) >= 1 &&
                                json_array_size(t) <= SO_HSCENARIO_MAX_TABLES))
        return so_jin_fail(in, "table", 0, "expected a table object or an array of 1 to %d",
                           SO_HSCENARIO_MAX_TABLES);
    size_t n = json_is_array(t) ? json_array_size(t) : 1;
    int rc = SO_OK;
    for (size_t i = 0; !rc && i < n; i++) {
        char path[32];
        json_t *obj = t;
        snprintf(path, sizeof path, "table");
        if (json_is_array(t)) {
            so_jin_index(path, sizeof path, "table", i);
            rc = so_jin_object_at(in, t, "table", i, &obj);
        }
        so_htable_def def;
        if (!rc)
            rc = so_htable_def_read(in, obj, path, &def);
        if (!rc && (rc = so_hclaims_check(in, &def, path, c)))
            so_htable_def_free(&def);
        if (!rc && sc)
            sc->tables[sc->n_tables++] = def;
        else if (!rc)
            so_htable_def_free(&def);
    }
    return rc;
}

static int scenario(so_jin *in, json_t *root, const char *base, so_hconfig *c,
                    so_hinsts *s, so_hscenario *sc)
{
    static const char *const keys[] = {"description", "backends", "reference",
                                       "time_limit", "repetitions", "jobs",
                                       "group_by", "inputs", "reproduces",
                                       "policies", "sim_reference", "metric",
                                       "figure", "runtime", "table", "quick",
                                       "timeline", "settings", NULL};
    if (!json_is_object(root))
        return so_jin_fail(in, "", 0, "expected a JSON object at the top");
    int rc = so_jin_keys(in, root, "", keys);
    const char *text = NULL;
    if (!rc)
        rc = so_jin_str(in, root, "", "description", SO_OPTIONAL, &text);
    if (!rc)
        rc = listing(in, root, sc);
    int sims = json_object_get(root, "policies") != NULL;
    if (!rc)
        rc = names(in, root, "backends", !sims, c, so_hconfig_add_backend);
    if (!rc)
        rc = names(in, root, "reference", json_object_get(root, "backends") || !sims, c,
                   so_hconfig_add_reference);
    if (!rc && sims)
        rc = policies(in, root, c);
    if (!rc)
        rc = so_jin_num(in, root, "", "time_limit", SO_OPTIONAL, 0, 1e9, &c->time_limit);
    if (!rc)
        rc = so_jin_num(in, root, "", "timeline", SO_OPTIONAL, 0.001, 1e9, &c->timeline_step);
    if (!rc && c->timeline_step > 0 && !sims)
        rc = so_jin_fail(in, "timeline", 0, "a timeline needs simulation cells (\"policies\")");
    if (s->read_limit < 0) { /* unless the command line set it */
        s->read_limit = c->time_limit;
        s->read_limit_from = json_object_get(root, "time_limit")
                                 ? "the scenario's time_limit" : "the default --time-limit";
    }
    int64_t reps = c->reps, jobs = c->jobs;
    if (!rc)
        rc = so_jin_int(in, root, "", "repetitions", SO_OPTIONAL, 1, 1000, &reps);
    if (!rc)
        rc = so_jin_int(in, root, "", "jobs", SO_OPTIONAL, 1, 256, &jobs);
    const char *group = NULL;
    if (!rc)
        rc = so_jin_str(in, root, "", "group_by", SO_OPTIONAL, &group);
    if (!rc && group) {
        if (strlen(group) >= sizeof c->group_by)
            rc = so_jin_fail(in, "group_by", 0, "longer than %zu characters",
                             sizeof c->group_by - 1);
        else
            snprintf(c->group_by, sizeof c->group_by, "%s", group);
    }
    c->reps = (int)reps;
    c->jobs = (int)jobs;
    json_t *inputs = NULL;
    size_t first_input = s->n;
    if (!rc)
        rc = so_jin_array(in, root, "", "inputs", SO_REQUIRED, 1, &inputs);
    for (size_t i = 0; !rc && i < json_array_size(inputs); i++) {
        char path[64];
        json_t *obj = NULL;
        so_jin_index(path, sizeof path, "inputs", i);
        rc = so_jin_object_at(in, inputs, "inputs", i, &obj);
        if (!rc)
            rc = input(in, obj, path, base, s);
    }
    if (!rc)
        rc = settings_list(in, root, c, s, first_input);
    if (!rc) /* after the policies: the claims name them */
        rc = table(in, root, c, sc);
    if (!rc && sc) {
        const char *ref = c->n_policies ? c->sim_reference
                          : c->n_refs ? c->refs[0]->name : "";
        snprintf(sc->reference, sizeof sc->reference, "%s", ref);
    }
    return rc;
}

/* With quick: the members of "quick" (any top-level key but "quick",
 * "table", "description", "reproduces", "figure" and "runtime") replace the
 * top-level ones. */
static int apply_quick(so_jin *in, json_t *root, int quick)
{
    json_t *q = NULL;
    int rc = json_is_object(root) ? so_jin_object(in, root, "", "quick", SO_OPTIONAL, &q)
                                  : SO_OK;
    if (rc || !q)
        return rc;
    static const char *const keys[] = {"backends", "reference", "time_limit",
                                       "repetitions", "jobs", "group_by", "inputs",
                                       "policies", "sim_reference", "metric",
                                       "timeline", "settings", NULL};
    if ((rc = so_jin_keys(in, q, "quick", keys)))
        return rc;
    if (quick) {
        json_incref(q);
        json_object_update(root, q);
        json_object_del(root, "quick");
        json_decref(q);
    }
    return SO_OK;
}

int so_scenario_read(const char *path, so_hconfig *c, so_hinsts *s,
                     so_error *err)
{
    return so_scenario_load(path, 0, c, s, NULL, err);
}

void so_hscenario_free(so_hscenario *sc)
{
    for (size_t i = 0; sc && i < sc->n_tables; i++)
        so_htable_def_free(&sc->tables[i]);
    if (sc)
        sc->n_tables = 0;
}

int so_scenario_load(const char *path, int quick, so_hconfig *c, so_hinsts *s,
                     so_hscenario *sc, so_error *err)
{
    if (sc)
        memset(sc, 0, sizeof *sc);
    so_error_clear(err);
    char *text = slurp(path, err);
    if (!text)
        return SO_EIO;
    json_error_t jerr;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        free(text);
        return so_error_setf(err, path, jerr.line, jerr.column, NULL,
                             "invalid JSON: %s", jerr.text);
    }
    char base[PATH_MAX];
    snprintf(base, sizeof base, "%s", path);
    char *slash = strrchr(base, '/');
    if (slash)
        *slash = '\0';
    else
        strcpy(base, ".");
    so_jin in = {path, text, err};
    int rc = apply_quick(&in, root, quick);
    if (!rc)
        rc = scenario(&in, root, base, c, s, sc);
    if (rc)
        so_hscenario_free(sc);
    json_decref(root);
    free(text);
    return rc;
}

/* A readable regular file (a folder of that name is not a scenario). */
static int readable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

/* A folder that exists. */
static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int so_scenario_dir(char *out, size_t size)
{
    const char *env = getenv("SLOTOPT_SCENARIOS");
    if (env && *env) {
        snprintf(out, size, "%s", env);
        return is_dir(out) ? 0 : -1;
    }
    snprintf(out, size, "instances/scenarios");
    if (is_dir(out))
        return 0;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? (exe[n] = '\0', strrchr(exe, '/')) : NULL;
    if (!slash)
        return -1;
    *slash = '\0';
    snprintf(out, size, "%s/../instances/scenarios", exe);
    if (is_dir(out))
        return 0;
    snprintf(out, size, "%s/../share/slotopt/instances/scenarios", exe);
    return is_dir(out) ? 0 : -1;
}

int so_scenario_find(const char *name, char *out, size_t size)
{
    if (strchr(name, '/') || readable(name)) {
        snprintf(out, size, "%s", name);
        return readable(name) ? 0 : -1;
    }
    const char *env = getenv("SLOTOPT_SCENARIOS");
    if (env && *env) {
        snprintf(out, size, "%s/%s.json", env, name);
        if (readable(out))
            return 0;
    }
    snprintf(out, size, "instances/scenarios/%s.json", name);
    if (readable(out))
        return 0;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(out, size, "%s/../instances/scenarios/%s.json", exe, name);
            if (readable(out))
                return 0;
            /* installed: PREFIX/bin/slotopt, PREFIX/share/slotopt/instances */
            snprintf(out, size, "%s/../share/slotopt/instances/scenarios/%s.json",
                     exe, name);
            if (readable(out))
                return 0;
        }
    }
    return -1;
}

static int scenario_by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **so_scenario_names(const char *dir, size_t *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **v = NULL;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".json"))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 32;
            char **w = realloc(v, cap * sizeof *w);
            if (!w)
                break;
            v = w;
        }
        v[(*n)++] = strndup(e->d_name, len - 5);
    }
    closedir(d);
    if (v)
        qsort(v, *n, sizeof *v, scenario_by_name);
    return v;
}
