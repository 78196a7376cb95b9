/* harness_table_def.c — a scenario's "table" object read strictly (unknown
 * keys are errors, every error with its key path): rows, columns, value,
 * statistic, ratios, paper and figure (docs/harness.md, "Scenario tables"). */
#include <string.h>
#include "formulations/common/jsonin.h"
#include "tools/harness/harness_table.h"

/* A text at key into out (size), at most size - 1 characters. */
static int text(so_jin *in, json_t *obj, const char *path, const char *key,
                int required, char *out, size_t size)
{
    const char *v = NULL;
    int rc = so_jin_str(in, obj, path, key, required, &v);
    if (rc || !v)
        return rc;
    char kpath[128];
    so_jin_path(kpath, sizeof kpath, path, key);
    if (!*v || strlen(v) >= size)
        return so_jin_fail(in, kpath, 0, "expected 1 to %zu characters", size - 1);
    snprintf(out, size, "%s", v);
    return SO_OK;
}

/* A non-empty array of distinct names at key (at most max, each shorter
 * than width) into out (a row of width bytes each); *n gets the count. */
static int name_list(so_jin *in, json_t *obj, const char *path, const char *key,
                     int required, int max, char *out, size_t width, int *n,
                     const char *what)
{
    json_t *arr = NULL;
    int rc = so_jin_array(in, obj, path, key, required, 1, &arr);
    if (rc || !arr)
        return rc;
    char apath[128];
    so_jin_path(apath, sizeof apath, path, key);
    if (json_array_size(arr) > (size_t)max)
        return so_jin_fail(in, apath, 0, "at most %d names", max);
    for (size_t i = 0; i < json_array_size(arr); i++) {
        char epath[160];
        so_jin_index(epath, sizeof epath, apath, i);
        const char *k = json_string_value(json_array_get(arr, i));
        if (!k || !*k || strlen(k) >= width)
            return so_jin_fail(in, epath, 0, "expected %s", what);
        for (int j = 0; j < *n; j++)
            if (!strcmp(out + (size_t)j * width, k))
                return so_jin_fail(in, epath, 0, "'%s' given twice", k);
        snprintf(out + (size_t)(*n)++ * width, width, "%s", k);
    }
    return SO_OK;
}

/* Whether key is one of the table's row keys. */
static int is_row_key(const so_htable_def *d, const char *key)
{
    for (int k = 0; k < d->n_rows; k++)
        if (!strcmp(d->rows[k], key))
            return 1;
    return 0;
}

/* "where": {KEY: [value, ...]} (values as texts or numbers). */
static int where(so_jin *in, json_t *obj, const char *path, so_htable_def *d)
{
    json_t *w = NULL;
    int rc = so_jin_object(in, obj, path, "where", SO_OPTIONAL, &w);
    if (rc || !w)
        return rc;
    char wpath[128];
    so_jin_path(wpath, sizeof wpath, path, "where");
    const char *key;
    json_t *v;
    json_object_foreach(w, key, v) {
        char kpath[256];
        so_jin_path(kpath, sizeof kpath, wpath, key);
        if (!strcmp(key, "user") || !strcmp(key, "job_name") || !strcmp(key, "time"))
            return so_jin_fail(in, kpath, 1, "expected a key of the cells (policy, instance,"
                               " family, seed or a family parameter)");
        if (!json_is_array(v) || !json_array_size(v))
            return so_jin_fail(in, kpath, 0, "expected a non-empty array of values");
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) if (!json_is_string(e) && !json_is_number(e))
        {
            char epath[300];
            so_jin_index(epath, sizeof epath, kpath, i);
            return so_jin_fail(in, epath, 0, "expected a text or a number");
        }
    }
    d->where = json_incref(w);
    return SO_OK;
}

static int ratios(so_jin *in, json_t *obj, const char *path, so_htable_def *d)
{
    json_t *arr = NULL;
    int rc = so_jin_array(in, obj, path, "ratios", SO_OPTIONAL, 1, &arr);
    if (rc || !arr)
        return rc;
    char apath[128];
    so_jin_path(apath, sizeof apath, path, "ratios");
    if (json_array_size(arr) > SO_HTABLE_MAX_RATIOS)
        return so_jin_fail(in, apath, 0, "at most %d ratios", SO_HTABLE_MAX_RATIOS);
    for (size_t i = 0; !rc && i < json_array_size(arr); i++) {
        char epath[160];
        so_jin_index(epath, sizeof epath, apath, i);
        json_t *e = NULL;
        static const char *const keys[] = {"name", "of", "to", "kind", NULL};
        rc = so_jin_object_at(in, arr, apath, i, &e);
        if (!rc)
            rc = so_jin_keys(in, e, epath, keys);
        so_hratio_def *r = &d->ratios[d->n_ratios];
        memset(r, 0, sizeof *r);
        if (!rc)
            rc = text(in, e, epath, "name", SO_REQUIRED, r->name, sizeof r->name);
        if (!rc)
            rc = text(in, e, epath, "of", SO_OPTIONAL, r->of, sizeof r->of);
        if (!rc)
            rc = text(in, e, epath, "to", SO_OPTIONAL, r->to, sizeof r->to);
        char kind[16] = "ratio", kpath[192];
        if (!rc)
            rc = text(in, e, epath, "kind", SO_OPTIONAL, kind, sizeof kind);
        so_jin_path(kpath, sizeof kpath, epath, "kind");
        if (!rc && strcmp(kind, "ratio") && strcmp(kind, "difference"))
            rc = so_jin_fail(in, kpath, 0, "expected ratio or difference");
        r->difference = !strcmp(kind, "difference");
        if (!rc && !r->of[0] && !is_row_key(d, "policy"))
            rc = so_jin_fail(in, epath, 0, "without \"of\" the ratio is the row's"
                             " policy to \"to\": \"policy\" must be a row key");
        d->n_ratios += !rc;
    }
    return rc;
}

/* "paper": an object of row label -> number, text, or {column: number}. */
static int paper(so_jin *in, json_t *obj, const char *path, so_htable_def *d)
{
    json_t *p = NULL;
    int rc = so_jin_object(in, obj, path, "paper", SO_OPTIONAL, &p);
    if (rc || !p)
        return rc;
    char ppath[128];
    so_jin_path(ppath, sizeof ppath, path, "paper");
    const char *key;
    json_t *v;
    json_object_foreach(p, key, v) {
        char kpath[256];
        so_jin_path(kpath, sizeof kpath, ppath, key);
        if (json_is_number(v) || json_is_string(v))
            continue;
        if (!json_is_object(v))
            return so_jin_fail(in, kpath, 0, "expected a number, a text or an object"
                               " {column: number}");
        const char *ck;
        json_t *cv;
        json_object_foreach(v, ck, cv) {
            char cpath[320];
            so_jin_path(cpath, sizeof cpath, kpath, ck);
            if (!json_is_number(cv) && !json_is_string(cv))
                return so_jin_fail(in, cpath, 0, "expected a number or a text");
            if (strlen(ck) >= 64)
                return so_jin_fail(in, cpath, 1, "longer than 63 characters");
        }
    }
    d->paper = json_incref(p);
    return SO_OK;
}

static int figure(so_jin *in, json_t *obj, const char *path, so_htable_def *d)
{
    json_t *f = NULL;
    int rc = so_jin_object(in, obj, path, "figure", SO_OPTIONAL, &f);
    if (rc || !f)
        return rc;
    char fpath[128];
    so_jin_path(fpath, sizeof fpath, path, "figure");
    static const char *const keys[] = {"x", "style", "ylabel", "title", NULL};
    rc = so_jin_keys(in, f, fpath, keys);
    if (!rc)
        rc = text(in, f, fpath, "x", SO_REQUIRED, d->fig_x, sizeof d->fig_x);
    snprintf(d->fig_style, sizeof d->fig_style, "lines");
    if (!rc)
        rc = text(in, f, fpath, "style", SO_OPTIONAL, d->fig_style, sizeof d->fig_style);
    if (!rc)
        rc = text(in, f, fpath, "ylabel", SO_OPTIONAL, d->fig_ylabel, sizeof d->fig_ylabel);
    if (!rc)
        rc = text(in, f, fpath, "title", SO_OPTIONAL, d->fig_title, sizeof d->fig_title);
    if (rc)
        return rc;
    char kpath[160];
    if (strcmp(d->fig_style, "lines") && strcmp(d->fig_style, "bars")) {
        so_jin_path(kpath, sizeof kpath, fpath, "style");
        return so_jin_fail(in, kpath, 0, "expected lines or bars");
    }
    if (!is_row_key(d, d->fig_x)) {
        so_jin_path(kpath, sizeof kpath, fpath, "x");
        return so_jin_fail(in, kpath, 0, "expected one of the row keys");
    }
    d->has_figure = 1;
    return SO_OK;
}

int so_htable_def_read(so_jin *in, json_t *obj, const char *path, so_htable_def *d)
{
    static const char *const keys[] = {"title", "rows", "columns", "policies", "where", "value", "label", "statistic",
                                       "decimals",
                                       "ratios", "paper", "figure", "claims", NULL};
    memset(d, 0, sizeof *d);
    snprintf(d->value, sizeof d->value, "metric");
    char stat[16] = "mean_sd";
    int rc = so_jin_keys(in, obj, path, keys);
    if (!rc)
        rc = text(in, obj, path, "title", SO_OPTIONAL, d->title, sizeof d->title);
    if (!rc)
        rc = name_list(in, obj, path, "rows", SO_REQUIRED, SO_HTABLE_MAX_KEYS, d->rows[0],
                       sizeof d->rows[0], &d->n_rows, "a key (policy, user, job_name,"
                       " time, instance, family, seed or a family parameter)");
    if (!rc)
        rc = text(in, obj, path, "columns", SO_OPTIONAL, d->columns, sizeof d->columns);
    if (!rc)
        rc = name_list(in, obj, path, "policies", SO_OPTIONAL, SO_HARNESS_MAX_POLICIES,
                       d->policies[0], sizeof d->policies[0], &d->n_policies,
                       "a policy or backend name");
    if (!rc)
        rc = where(in, obj, path, d);
    if (!rc)
        rc = text(in, obj, path, "value", SO_OPTIONAL, d->value, sizeof d->value);
    if (!rc)
        rc = text(in, obj, path, "label", SO_OPTIONAL, d->label, sizeof d->label);
    if (!rc)
        rc = text(in, obj, path, "statistic", SO_OPTIONAL, stat, sizeof stat);
    char kpath[160];
    if (!rc && strcmp(stat, "mean_sd") && strcmp(stat, "mean_ci95")) {
        so_jin_path(kpath, sizeof kpath, path, "statistic");
        rc = so_jin_fail(in, kpath, 0, "expected mean_sd or mean_ci95");
    }
    d->ci95 = !strcmp(stat, "mean_ci95");
    int64_t dec = -1;
    if (!rc)
        rc = so_jin_int(in, obj, path, "decimals", SO_OPTIONAL, 0, 6, &dec);
    d->decimals = (int)dec;
    if (!rc && d->columns[0] && is_row_key(d, d->columns)) {
        so_jin_path(kpath, sizeof kpath, path, "columns");
        rc = so_jin_fail(in, kpath, 0, "'%s' is a row key already", d->columns);
    }
    if (!rc && strcmp(d->columns, "policy") && !is_row_key(d, "policy")) {
        so_jin_path(kpath, sizeof kpath, path, "rows");
        rc = so_jin_fail(in, kpath, 0, "\"policy\" must be a row key or the columns key");
    }
    int timed = is_row_key(d, "time") || !strcmp(d->columns, "time");
    static const char *const tl_fields[] = {"maps", "reduces", "tasks", "utility", "per_node",
                                            NULL};
    int tl_field = 0;
    for (int i = 0; tl_fields[i]; i++)
        tl_field |= !strcmp(d->value, tl_fields[i]);
    if (!rc && timed != tl_field) {
        so_jin_path(kpath, sizeof kpath, path, "value");
        rc = so_jin_fail(in, kpath, 0, timed ? "with a \"time\" key: maps, reduces, tasks,"
                         " utility or per_node (the scenario's \"timeline\")"
                         : "maps, reduces, tasks, utility and per_node need a \"time\" key");
    }
    if (!rc)
        rc = ratios(in, obj, path, d);
    if (!rc && d->n_ratios && d->columns[0] && strcmp(d->columns, "policy")) {
        so_jin_path(kpath, sizeof kpath, path, "ratios");
        rc = so_jin_fail(in, kpath, 0, "ratios need \"columns\": \"policy\" or none");
    }
    if (!rc)
        rc = figure(in, obj, path, d);
    if (!rc)
        rc = paper(in, obj, path, d);
    if (!rc)
        rc = so_hclaims_read(in, obj, path, d);
    if (rc)
        so_htable_def_free(d);
    return rc;
}

void so_htable_def_free(so_htable_def *d)
{
    json_decref(d->where);
    json_decref(d->paper);
    d->where = d->paper = NULL;
    for (int q = 0; q < d->n_claims; q++) {
        json_decref(d->claims[q].rows);
        d->claims[q].rows = NULL;
    }
    d->n_claims = 0;
}
