/* harness_table.c — a scenario's table computed from the stored cells: each
 * cell gives a sample (its value, with the per-user values of a simulation
 * cell as one sample per user and "all"), samples are grouped into rows by
 * the row keys and into columns by the column key; each (row, column) gets
 * mean, standard deviation and 95 % t-interval over its samples (the seeds);
 * a ratio column pairs the samples of two policies on the same instance,
 * repetition and user, and summarises the per-seed ratios the same way
 * (docs/harness.md, "Scenario tables"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/harness/harness_table.h"
#include "tools/harness/harness_timeline.h"

typedef struct sample {
    char keys[SO_HTABLE_MAX_KEYS][64];
    char col[64];
    char policy[64];
    char pair[96]; /* hash:rep:user — what two policies' samples share */
    double v;
} sample;

typedef struct samples {
    sample *v;
    size_t n, cap;
} samples;

static sample *push(samples *s)
{
    if (s->n == s->cap) {
        size_t c = s->cap ? 2 * s->cap : 256;
        sample *v = realloc(s->v, c * sizeof *v);
        if (!v)
            return NULL;
        s->v = v;
        s->cap = c;
    }
    sample *x = &s->v[s->n++];
    memset(x, 0, sizeof *x);
    return x;
}

void so_htable_join(char *out, size_t size, const char *s)
{
    size_t used = strlen(out);
    if (used + 1 < size)
        snprintf(out + used, size - used, "%s%s", used ? "/" : "", s);
}

double so_t975(size_t df)
{
    static const double t[] = {0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                               2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                               2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                               2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df < 1)
        return NAN;
    if (df <= 30)
        return t[df];
    /* Cornish-Fisher expansion about z = 1.959964 (within 1e-4 above 30) */
    const double z = 1.959963985, v = (double)df, z2 = z * z;
    return z + z * (z2 + 1) / (4 * v) + z * ((5 * z2 + 16) * z2 + 3) / (96 * v * v) +
           z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / (384 * v * v * v);
}

static void number_text(char *out, size_t size, json_t *v)
{
    if (json_is_integer(v))
        snprintf(out, size, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(out, size, "%.15g", json_real_value(v));
    else if (json_is_string(v))
        snprintf(out, size, "%s", json_string_value(v));
    else
        snprintf(out, size, "-");
}

/* The value of key k for row r (not "user"). */
static void key_value(const char *k, const so_hrow *r, json_t *params, char *out,
                      size_t size)
{
    if (!strcmp(k, "policy"))
        snprintf(out, size, "%s", r->backend);
    else if (!strcmp(k, "instance"))
        snprintf(out, size, "%s", r->instance);
    else if (!strcmp(k, "family"))
        snprintf(out, size, "%s", r->family ? r->family : "-");
    else if (!strcmp(k, "seed") && r->has_seed)
        snprintf(out, size, "%lld", (long long)r->seed);
    else
        number_text(out, size, json_object_get(params, k));
}

/* A dotted path into o, as a number (true 1, false 0: a mean of the cells
 * is then the share where it holds; NAN when missing). */
static double path_value(json_t *o, const char *path)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", path);
    char *save = NULL;
    for (char *t = strtok_r(buf, ".", &save); t && o; t = strtok_r(NULL, ".", &save))
        o = json_object_get(o, t);
    if (json_is_boolean(o))
        return json_is_true(o);
    return json_is_number(o) ? json_number_value(o) : NAN;
}

static int failed_status(const char *s)
{
    return !s || !strcmp(s, "error") || !strcmp(s, "killed") || !strcmp(s, "crashed");
}

static const so_hrow *find_row(const so_hrows *rows, const so_hrow *r, const char *backend)
{
    for (size_t i = 0; i < rows->n; i++)
        if (!strcmp(rows->v[i].hash, r->hash) && rows->v[i].rep == r->rep &&
            !strcmp(rows->v[i].backend, backend))
            return &rows->v[i];
    return NULL;
}

/* Whether the policy or backend is one of the scenario's (and of the
 * table's "policies" when it lists some). */
static int in_config(const so_hconfig *c, const so_htable_def *d, const char *name)
{
    if (d->n_policies) {
        int listed = 0;
        for (int i = 0; i < d->n_policies && !listed; i++)
            listed = !strcmp(d->policies[i], name);
        if (!listed)
            return 0;
    }
    for (size_t i = 0; i < c->n_policies; i++)
        if (!strcmp(c->policies[i].name, name))
            return 1;
    for (size_t i = 0; i < c->n_backends; i++)
        if (!strcmp(c->backends[i]->name, name))
            return 1;
    return 0;
}

/* Whether row r passes the table's "where". */
static int wanted(const so_htable_def *d, const so_hrow *r)
{
    if (!d->where)
        return 1;
    json_t *params = r->params ? json_loads(r->params, 0, NULL) : NULL;
    const char *key;
    json_t *vals;
    int ok = 1;
    json_object_foreach(d->where, key, vals) {
        char have[64], want[64];
        key_value(key, r, params, have, sizeof have);
        int any = 0;
        size_t i;
        json_t *e;
        json_array_foreach(vals, i, e) {
            number_text(want, sizeof want, e);
            any |= !strcmp(want, have);
        }
        ok &= any;
    }
    json_decref(params);
    return ok;
}

/* The index of row key name, or -1. */
static int row_key(const so_htable_def *d, const char *name)
{
    for (int k = 0; k < d->n_rows; k++)
        if (!strcmp(d->rows[k], name))
            return k;
    return -1;
}

/* With a "time" key: one sample per point of the cell's timeline (per user
 * or job with such a key, else of the whole cluster); value a field of it. */
typedef struct tl_ctx {
    const so_htable_def *d;
    const so_hrow *r;
    json_t *params;
    int tk, by; /* the time and member keys: row key index, -2 the columns, -1 none */
    samples *out;
} tl_ctx;

static int tl_sample(void *ctx, const char *member, double time, double v)
{
    tl_ctx *x = ctx;
    sample *s = push(x->out);
    if (!s)
        return SO_ENOMEM;
    s->v = v;
    snprintf(s->policy, sizeof s->policy, "%s", x->r->backend);
    char tv[32];
    snprintf(tv, sizeof tv, "%.10g", time);
    for (int k = 0; k < x->d->n_rows; k++)
        snprintf(s->keys[k], sizeof s->keys[k], "%s", k == x->tk ? tv : k == x->by ? member : "");
    for (int k = 0; k < x->d->n_rows; k++)
        if (k != x->tk && k != x->by)
            key_value(x->d->rows[k], x->r, x->params, s->keys[k], sizeof s->keys[k]);
    if (x->tk == -2 || x->by == -2)
        snprintf(s->col, sizeof s->col, "%s", x->tk == -2 ? tv : member);
    else if (x->d->columns[0])
        key_value(x->d->columns, x->r, x->params, s->col, sizeof s->col);
    snprintf(s->pair, sizeof s->pair, "%.16s:%d:%.40s:%s", x->r->hash, x->r->rep, member, tv);
    return SO_OK;
}

static int timeline_samples(const so_htable_def *d, const so_hrow *r, int tk, samples *out)
{
    tl_ctx x = {d, r, r->params ? json_loads(r->params, 0, NULL) : NULL, tk, -1, out};
    const char *by = "";
    for (int k = 0; k < d->n_rows; k++)
        if (!strcmp(d->rows[k], "user") || !strcmp(d->rows[k], "job_name"))
            by = d->rows[(x.by = k)];
    if (!strcmp(d->columns, "user") || !strcmp(d->columns, "job_name"))
        by = d->columns, x.by = -2;
    json_t *extras = r->extras ? json_loads(r->extras, 0, NULL) : NULL;
    int rc = so_htimeline_each(extras, by, d->value, tl_sample, &x);
    json_decref(extras);
    json_decref(x.params);
    return rc;
}

/* The samples of one stored row: one, or with a "user" (or "job_name") row key
 * one per member of the extras "users" (or "per_job") object, plus "all"
 * (the whole run's "response") for users. */
static int row_samples(const so_htable_def *d, const so_hrows *rows, const so_hrow *r,
                       const char *ref, samples *out)
{
    if (row_key(d, "time") >= 0)
        return timeline_samples(d, r, row_key(d, "time"), out);
    if (!strcmp(d->columns, "time"))
        return timeline_samples(d, r, -2, out);
    json_t *params = r->params ? json_loads(r->params, 0, NULL) : NULL;
    json_t *extras = r->extras ? json_loads(r->extras, 0, NULL) : NULL;
    /* by: the row key (>= 0) or the columns (-2) that takes each member */
    int by = -1, rc = SO_OK;
    for (int k = 0; k < d->n_rows; k++)
        if (!strcmp(d->rows[k], "user") || !strcmp(d->rows[k], "job_name"))
            by = k;
    if (!strcmp(d->columns, "user") || !strcmp(d->columns, "job_name"))
        by = -2;
    const char *by_key = by == -2 ? d->columns : by >= 0 ? d->rows[by] : "";
    int users = !strcmp(by_key, "user");
    const char *member = NULL;
    json_t *obj = by == -1 ? NULL : json_object_get(extras, users ? "users" : "per_job");
    const char *field = strcmp(d->value, "metric") ? d->value : users ? "mean" : "response";
    void *it = json_object_iter(obj);
    for (int last = 0; !last && !rc;) {
        double v;
        if (by != -1 && it) {
            member = json_object_iter_key(it);
            v = path_value(json_object_iter_value(it), field);
            it = json_object_iter_next(obj, it);
        } else if (by != -1) {
            last = 1;
            if (!users)
                break;
            member = "all";
            v = path_value(json_object_get(extras, "response"), field);
        } else {
            last = 1;
            if (!strcmp(d->value, "metric")) {
                v = r->objective;
            } else if (!strcmp(d->value, "ratio") || !strcmp(d->value, "difference")) {
                /* the harness's gap (>= 1 / >= 0 is worse; docs/harness.md) */
                const so_hrow *rr = find_row(rows, r, ref);
                so_hgap g = so_harness_gap(r, rr);
                v = d->value[0] == 'r' ? g.ratio : g.diff;
            } else {
                v = path_value(extras, d->value);
            }
        }
        if (!isfinite(v))
            continue;
        sample *s = push(out);
        if (!s) {
            rc = SO_ENOMEM;
            break;
        }
        s->v = v;
        snprintf(s->policy, sizeof s->policy, "%s", r->backend);
        for (int k = 0; k < d->n_rows; k++) {
            if (k == by)
                snprintf(s->keys[k], sizeof s->keys[k], "%s", member);
            else
                key_value(d->rows[k], r, params, s->keys[k], sizeof s->keys[k]);
        }
        if (by == -2)
            snprintf(s->col, sizeof s->col, "%s", member);
        else if (d->columns[0])
            key_value(d->columns, r, params, s->col, sizeof s->col);
        snprintf(s->pair, sizeof s->pair, "%.16s:%d:%.63s", r->hash, r->rep,
                 member ? member : "");
    }
    json_decref(params);
    json_decref(extras);
    return rc;
}

/* ---- distinct values, ordered --------------------------------------------- */
typedef struct values {
    char (*v)[64];
    size_t n;
} values;

static int numeric(const char *s)
{
    char *end;
    strtod(s, &end);
    return *s && !*end;
}

static int cmp_num(const void *a, const void *b)
{
    double x = strtod(a, NULL), y = strtod(b, NULL);
    return (x > y) - (x < y);
}

/* Distinct values of key k (-1: the column) over the samples: policies in
 * the scenario's order, numbers ascending, others as first seen ("all"
 * last). */
static int distinct(const samples *ss, int k, const char *key, const so_hconfig *c,
                    const so_htable_def *d, values *out)
{
    out->n = 0;
    out->v = calloc(ss->n + c->n_policies + c->n_backends + 1, sizeof *out->v);
    if (!out->v)
        return SO_ENOMEM;
    int all_num = 1, has_all = 0;
    if (!strcmp(key, "policy")) {
        for (size_t i = 0; i < c->n_policies; i++)
            if (in_config(c, d, c->policies[i].name))
                snprintf(out->v[out->n++], 64, "%s", c->policies[i].name);
        for (size_t i = 0; i < c->n_backends; i++)
            if (in_config(c, d, c->backends[i]->name))
                snprintf(out->v[out->n++], 64, "%s", c->backends[i]->name);
        return SO_OK;
    }
    for (size_t i = 0; i < ss->n; i++) {
        const char *v = k < 0 ? ss->v[i].col : ss->v[i].keys[k];
        if (!strcmp(v, "all") && !strcmp(key, "user")) {
            has_all = 1;
            continue;
        }
        size_t j = 0;
        while (j < out->n && strcmp(out->v[j], v))
            j++;
        if (j == out->n) {
            snprintf(out->v[out->n++], 64, "%s", v);
            all_num &= numeric(v);
        }
    }
    if (all_num)
        qsort(out->v, out->n, sizeof *out->v, cmp_num);
    if (!strcmp(key, "setting")) /* in the scenario's order */
        for (size_t i = 0, k = 0; i < c->n_settings; i++)
            for (size_t j = k; j < out->n; j++)
                if (!strcmp(out->v[j], c->settings[i])) {
                    char tmp[64];
                    memcpy(tmp, out->v[k], 64);
                    memcpy(out->v[k], out->v[j], 64);
                    memcpy(out->v[j], tmp, 64);
                    k++;
                    break;
                }
    if (has_all)
        snprintf(out->v[out->n++], 64, "all");
    return SO_OK;
}

/* ---- statistics ----------------------------------------------------------- */
static void stat(const double *x, size_t n, so_htable_cell *c)
{
    c->n = n;
    c->mean = c->sd = c->lo = c->hi = c->max = NAN;
    if (!n)
        return;
    double s = 0;
    c->max = x[0];
    for (size_t i = 0; i < n; i++) {
        s += x[i];
        c->max = fmax(c->max, x[i]);
    }
    c->mean = s / (double)n;
    double q = 0;
    for (size_t i = 0; i < n; i++)
        q += (x[i] - c->mean) * (x[i] - c->mean);
    c->sd = n > 1 ? sqrt(q / (double)(n - 1)) : 0;
    double h = n > 1 ? so_t975(n - 1) * c->sd / sqrt((double)n) : 0;
    c->lo = c->mean - h;
    c->hi = c->mean + h;
}

/* Whether sample s belongs to row keys[] (skip: a key index not compared). */
static int matches(const so_htable_def *d, const sample *s, char (*keys)[64], int skip)
{
    for (int k = 0; k < d->n_rows; k++)
        if (k != skip && strcmp(s->keys[k], keys[k]))
            return 0;
    return 1;
}

static void ratio_cell(const so_htable_def *d, const so_hratio_def *rd, const samples *ss,
                       so_htable_row *row, int policy_key, const char *ref, double *buf,
                       so_htable_cell *out)
{
    const char *of = rd->of[0] ? rd->of : row->keys[policy_key];
    const char *to = rd->to[0] ? rd->to : ref;
    size_t n = 0;
    for (size_t i = 0; i < ss->n; i++) {
        const sample *a = &ss->v[i];
        if (strcmp(a->policy, of) || !matches(d, a, row->keys, policy_key))
            continue;
        for (size_t j = 0; j < ss->n; j++) {
            const sample *b = &ss->v[j];
            if (!strcmp(b->policy, to) && !strcmp(b->pair, a->pair) &&
                matches(d, b, row->keys, policy_key) && (rd->difference || b->v != 0)) {
                buf[n++] = rd->difference ? a->v - b->v : a->v / b->v;
                break;
            }
        }
    }
    stat(buf, n, out);
}

static int add_paper_col(so_htable *t, const char *name)
{
    for (size_t i = 0; i < t->n_paper_cols; i++)
        if (!strcmp(t->paper_cols[i], name))
            return SO_OK;
    char (*v)[64] = realloc(t->paper_cols, (t->n_paper_cols + 1) * sizeof *v);
    if (!v)
        return SO_ENOMEM;
    t->paper_cols = v;
    snprintf(v[t->n_paper_cols++], 64, "%s", name);
    return SO_OK;
}

/* Rows: every combination of the row keys' values that some sample has,
 * and with "policy" a row key every policy for each combination of the
 * others. */
static int make_rows(so_htable *t, const samples *ss, values *kv, int policy_key)
{
    const so_htable_def *d = t->def;
    size_t total = 1;
    for (int k = 0; k < d->n_rows; k++)
        total *= kv[k].n ? kv[k].n : 1;
    t->rows = calloc(total ? total : 1, sizeof *t->rows);
    if (!t->rows)
        return SO_ENOMEM;
    size_t idx[SO_HTABLE_MAX_KEYS] = {0};
    for (size_t r = 0; r < total; r++) {
        size_t rem = r;
        for (int k = d->n_rows - 1; k >= 0; k--) {
            idx[k] = kv[k].n ? rem % kv[k].n : 0;
            rem = kv[k].n ? rem / kv[k].n : rem;
        }
        so_htable_row *row = &t->rows[t->n_rows];
        /* policy alone: every policy has its row, cells or none */
        int any = d->n_rows == 1 && policy_key == 0;
        for (int k = 0; k < d->n_rows; k++)
            snprintf(row->keys[k], 64, "%s", kv[k].n ? kv[k].v[idx[k]] : "-");
        /* over time, a policy's rows end with its run */
        int skip = row_key(d, "time") >= 0 ? -1 : policy_key;
        for (size_t i = 0; i < ss->n && !any; i++)
            any = matches(d, &ss->v[i], row->keys, skip);
        if (!any)
            continue;
        row->label[0] = '\0';
        for (int k = 0; k < d->n_rows; k++)
            so_htable_join(row->label, sizeof row->label, row->keys[k]);
        t->n_rows++;
    }
    return SO_OK;
}

int so_htable_build(const so_htable_def *d, const so_hrows *rows, const so_hconfig *c,
                    const char *ref, so_htable *t, so_error *err)
{
    memset(t, 0, sizeof *t);
    t->def = d;
    const char *v = d->value;
    if (!strcmp(v, "metric"))
        v = c->n_policies ? (c->metric[0] ? c->metric : "mean_response") : "objective";
    if (d->label[0])
        snprintf(t->value_label, sizeof t->value_label, "%s", d->label);
    else
        snprintf(t->value_label, sizeof t->value_label, "%.58s%s", v,
                 c->n_policies && !strcmp(d->value, "metric") ? " (s)" : "");
    /* the names the table gives must be the scenario's */
    const char *named[SO_HARNESS_MAX_POLICIES + 2 * SO_HTABLE_MAX_RATIOS];
    size_t n_named = 0;
    for (int i = 0; i < d->n_policies; i++)
        named[n_named++] = d->policies[i];
    for (int q = 0; q < d->n_ratios; q++) {
        if (d->ratios[q].of[0])
            named[n_named++] = d->ratios[q].of;
        if (d->ratios[q].to[0])
            named[n_named++] = d->ratios[q].to;
    }
    so_htable_def all = *d;
    all.n_policies = 0;
    for (size_t i = 0; i < n_named; i++)
        if (!in_config(c, &all, named[i]))
            return so_error_setf(err, NULL, 0, 0, "table", "'%s' is not one of the"
                                 " scenario's policies or backends", named[i]);
    samples ss = {0};
    int rc = SO_OK, policy_key = -1, setting_key = -1;
    for (int k = 0; k < d->n_rows; k++) {
        if (!strcmp(d->rows[k], "setting"))
            setting_key = k;
        if (!strcmp(d->rows[k], "policy"))
            policy_key = k;
    }
    for (size_t i = 0; !rc && i < rows->n; i++) {
        const so_hrow *r = &rows->v[i];
        if (!in_config(c, d, r->backend) || !wanted(d, r))
            continue;
        if (failed_status(r->status))
            t->failed++;
        else
            rc = row_samples(d, rows, r, ref, &ss);
    }
    values kv[SO_HTABLE_MAX_KEYS] = {{0}}, cv = {0};
    for (int k = 0; !rc && k < d->n_rows; k++)
        rc = distinct(&ss, k, d->rows[k], c, d, &kv[k]);
    if (!rc && d->columns[0])
        rc = distinct(&ss, -1, d->columns, c, d, &cv);
    if (!rc)
        rc = make_rows(t, &ss, kv, policy_key);
    t->n_cols = d->columns[0] ? cv.n : 1;
    if (!rc && !(t->cols = calloc(t->n_cols ? t->n_cols : 1, sizeof *t->cols)))
        rc = SO_ENOMEM;
    for (size_t j = 0; !rc && d->columns[0] && j < cv.n; j++)
        snprintf(t->cols[j], 64, "%s", cv.v[j]);
    double *buf = rc ? NULL : malloc((ss.n ? ss.n : 1) * sizeof *buf);
    if (!rc && !buf)
        rc = SO_ENOMEM;
    for (size_t r = 0; !rc && r < t->n_rows; r++) {
        so_htable_row *row = &t->rows[r];
        if (!(row->cells = calloc(t->n_cols ? t->n_cols : 1, sizeof *row->cells))) {
            rc = SO_ENOMEM;
            break;
        }
        for (size_t j = 0; j < t->n_cols; j++) {
            size_t n = 0;
            for (size_t i = 0; i < ss.n; i++)
                if (matches(d, &ss.v[i], row->keys, -1) &&
                    (!d->columns[0] || !strcmp(ss.v[i].col, t->cols[j])))
                    buf[n++] = ss.v[i].v;
            stat(buf, n, &row->cells[j]);
            t->missing += n == 0;
        }
        for (int q = 0; q < d->n_ratios; q++)
            ratio_cell(d, &d->ratios[q], &ss, row, policy_key, ref, buf, &row->ratios[q]);
        json_t *p = json_object_get(d->paper, row->label);
        if (!p && setting_key >= 0) { /* the paper knows no settings */
            char label[160] = "";
            for (int k = 0; k < d->n_rows; k++)
                if (k != setting_key)
                    so_htable_join(label, sizeof label, row->keys[k]);
            p = json_object_get(d->paper, label);
        }
        row->paper = p;
        if (json_is_object(p)) {
            const char *key;
            json_t *v;
            json_object_foreach(p, key, v)
                if (!rc)
                    rc = add_paper_col(t, key);
        } else if (p) {
            rc = add_paper_col(t, "");
        }
    }
    free(buf);
    if (!rc)
        rc = so_htable_verdicts(t);
    for (int k = 0; k < d->n_rows; k++)
        free(kv[k].v);
    free(cv.v);
    free(ss.v);
    if (rc) {
        so_htable_free(t);
        return so_error_setf(err, NULL, 0, 0, NULL, "out of memory building the table");
    }
    return SO_OK;
}

void so_htable_free(so_htable *t)
{
    for (size_t r = 0; r < t->n_rows; r++)
        free(t->rows[r].cells);
    free(t->rows);
    free(t->cols);
    free(t->paper_cols);
    free(t->verdicts);
    memset(t, 0, sizeof *t);
}
