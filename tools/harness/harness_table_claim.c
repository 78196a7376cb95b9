/* harness_table_claim.c — a scenario table's "claims" (issue 32, item 4):
 * a paper's claim stated as a column of the table (a ratio or a value
 * column), a threshold and a direction, or the paper's own number with a
 * band; report --scenario marks it per row from the row's 95 % t-interval
 * over the seeds and gives one verdict per value of a row key (e.g. per
 * physics setting): holds, holds in part (where), fails, unclear, no data
 * (docs/harness.md, "Claims").
 *   row:   above T  holds when lo > T, fails when hi < T, else unclear;
 *          below T  holds when hi < T, fails when lo > T, else unclear;
 *          paper_within W (the row's paper number P for the column):
 *                   holds when [lo, hi] lies in [P - W, P + W], fails when
 *                   it misses the band, else unclear (rows without P skipped).
 *   group: "all": true (a conjunction, "RAS beats every static setting"):
 *          holds when every row holds, fails when one row fails, else
 *          unclear; otherwise holds when every row holds, holds in part
 *          when some do, fails when none does and some row fails, else
 *          unclear. A row with fewer than 2 samples has no interval: unclear,
 *          with its n in the "where" text. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/common/jsonin.h"
#include "tools/harness/harness_table.h"

static int row_key(const so_htable_def *d, const char *key)
{
    for (int k = 0; k < d->n_rows; k++)
        if (!strcmp(d->rows[k], key))
            return k;
    return -1;
}

static int one_claim(so_jin *in, json_t *e, const char *path, so_htable_def *d,
                     so_hclaim_def *c)
{
    static const char *const keys[] = {"claim", "column", "above", "below",
                                       "paper_within", "all", "by", "rows", NULL};
    const char *text = NULL, *col = NULL, *by = NULL;
    int rc = so_jin_keys(in, e, path, keys);
    if (!rc)
        rc = so_jin_str(in, e, path, "claim", SO_REQUIRED, &text);
    if (!rc)
        rc = so_jin_str(in, e, path, "column", SO_REQUIRED, &col);
    if (!rc)
        rc = so_jin_str(in, e, path, "by", SO_OPTIONAL, &by);
    if (rc)
        return rc;
    char kpath[192];
    so_jin_path(kpath, sizeof kpath, path, "claim");
    if (!*text || strlen(text) >= sizeof c->text)
        return so_jin_fail(in, kpath, 0, "expected 1 to %zu characters", sizeof c->text - 1);
    snprintf(c->text, sizeof c->text, "%s", text);
    so_jin_path(kpath, sizeof kpath, path, "column");
    int found = !strcmp(col, "value") && !d->columns[0];
    for (int q = 0; q < d->n_ratios && !found; q++)
        found = !strcmp(d->ratios[q].name, col);
    if (!found && !d->columns[0])
        return so_jin_fail(in, kpath, 0, "expected the name of one of the table's ratios"
                           " or \"value\"");
    /* "columns": "policy": the policies are known here when the table names
     * them, else so_hclaims_check checks against the scenario's */
    for (int q = 0; q < d->n_policies && !found; q++)
        found = !strcmp(d->policies[q], col);
    if (!found && d->n_policies && !strcmp(d->columns, "policy"))
        return so_jin_fail(in, kpath, 0, "expected one of the table's ratios or policies");
    if (strlen(col) >= sizeof c->column)
        return so_jin_fail(in, kpath, 0, "longer than %zu characters", sizeof c->column - 1);
    snprintf(c->column, sizeof c->column, "%s", col);
    /* exactly one of above, below, paper_within */
    static const char *const kinds[] = {"above", "below", "paper_within"};
    int n_kinds = 0;
    for (int k = 0; k < 3; k++)
        if (json_object_get(e, kinds[k])) {
            n_kinds++;
            c->kind = k;
        }
    if (n_kinds != 1)
        return so_jin_fail(in, path, 0, "expected exactly one of \"above\", \"below\""
                           " and \"paper_within\"");
    rc = so_jin_num(in, e, path, kinds[c->kind], SO_REQUIRED,
                    c->kind == SO_HCLAIM_PAPER ? 0 : -1e300, 1e300, &c->threshold);
    if (!rc && c->kind == SO_HCLAIM_PAPER && !d->paper)
        rc = so_jin_fail(in, path, 0, "paper_within needs the table's \"paper\" numbers");
    json_t *all = json_object_get(e, "all");
    so_jin_path(kpath, sizeof kpath, path, "all");
    if (!rc && all && !json_is_boolean(all))
        rc = so_jin_fail(in, kpath, 0, "expected true or false");
    c->all = json_is_true(all);
    so_jin_path(kpath, sizeof kpath, path, "by");
    if (!rc && by && row_key(d, by) < 0)
        rc = so_jin_fail(in, kpath, 0, "expected one of the row keys");
    if (!rc && by)
        snprintf(c->by, sizeof c->by, "%s", by);
    json_t *rows = NULL;
    if (!rc)
        rc = so_jin_object(in, e, path, "rows", SO_OPTIONAL, &rows);
    const char *key;
    json_t *v;
    so_jin_path(kpath, sizeof kpath, path, "rows");
    if (!rc && rows)
        json_object_foreach(rows, key, v) {
            char rpath[256];
            so_jin_path(rpath, sizeof rpath, kpath, key);
            if (row_key(d, key) < 0)
                return so_jin_fail(in, rpath, 1, "expected one of the row keys");
            if (!json_is_array(v) || !json_array_size(v))
                return so_jin_fail(in, rpath, 0, "expected a non-empty array of values");
            size_t i;
            json_t *x;
            json_array_foreach(v, i, x) if (!json_is_string(x) && !json_is_number(x))
                return so_jin_fail(in, rpath, 0, "expected texts or numbers");
        }
    if (!rc && rows)
        c->rows = json_incref(rows);
    return rc;
}

int so_hclaims_read(so_jin *in, json_t *obj, const char *path, so_htable_def *d)
{
    json_t *arr = NULL;
    int rc = so_jin_array(in, obj, path, "claims", SO_OPTIONAL, 1, &arr);
    if (rc || !arr)
        return rc;
    char apath[128];
    so_jin_path(apath, sizeof apath, path, "claims");
    if (json_array_size(arr) > SO_HTABLE_MAX_CLAIMS)
        return so_jin_fail(in, apath, 0, "at most %d claims", SO_HTABLE_MAX_CLAIMS);
    for (size_t i = 0; !rc && i < json_array_size(arr); i++) {
        char epath[160];
        so_jin_index(epath, sizeof epath, apath, i);
        json_t *e = NULL;
        so_hclaim_def *c = &d->claims[d->n_claims];
        memset(c, 0, sizeof *c);
        rc = so_jin_object_at(in, arr, apath, i, &e);
        if (!rc)
            rc = one_claim(in, e, epath, d, c);
        if (!rc)
            d->n_claims++;
    }
    return rc;
}

/* Whether name is one of the scenario's policies (or backends). */
static int known_policy(const so_hconfig *c, const char *name)
{
    for (size_t p = 0; p < c->n_policies; p++)
        if (!strcmp(c->policies[p].name, name))
            return 1;
    for (size_t p = 0; p < c->n_backends; p++)
        if (c->backends[p] && !strcmp(c->backends[p]->name, name))
            return 1;
    return 0;
}

int so_hclaims_check(so_jin *in, const so_htable_def *d, const char *path,
                     const so_hconfig *c)
{
    char kpath[192], epath[160];
    for (int q = 0; q < d->n_claims; q++) {
        const so_hclaim_def *cl = &d->claims[q];
        char apath[128];
        so_jin_path(apath, sizeof apath, path, "claims");
        so_jin_index(epath, sizeof epath, apath, (size_t)q);
        int found = !d->n_policies && !strcmp(d->columns, "policy") ? 0 : 1;
        for (int r = 0; r < d->n_ratios && !found; r++)
            found = !strcmp(d->ratios[r].name, cl->column);
        if (!found && !known_policy(c, cl->column)) {
            so_jin_path(kpath, sizeof kpath, epath, "column");
            return so_jin_fail(in, kpath, 0, "expected one of the table's ratios or the"
                               " scenario's policies; '%s' is neither", cl->column);
        }
        /* "rows" values are checked on the data (so_htable_nodata): a quick
         * form may run fewer policies than its claims list */
    }
    return SO_OK;
}

size_t so_htable_nodata(const so_htable *t, FILE *fp, const char *prefix)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n_verdicts; i++)
        if (t->verdicts[i].verdict == SO_HV_NODATA) {
            n++;
            if (fp)
                fprintf(fp, "%s: claim '%s'%s%s has no data (no row matches its column"
                        " and rows)\n", prefix, t->def->claims[t->verdicts[i].claim].text,
                        t->verdicts[i].group[0] ? " at " : "", t->verdicts[i].group);
        }
    return n;
}

/* ---- verdicts ------------------------------------------------------------- */
static void number_text(char *out, size_t size, json_t *v)
{
    if (json_is_integer(v))
        snprintf(out, size, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(out, size, "%.15g", json_real_value(v));
    else
        snprintf(out, size, "%s", json_string_value(v) ? json_string_value(v) : "");
}

/* Whether row r passes the claim's "rows" filter. */
static int selected(const so_htable_def *d, const so_hclaim_def *c, const so_htable_row *r)
{
    const char *key;
    json_t *vals;
    json_object_foreach(c->rows, key, vals) {
        int k = row_key(d, key), any = 0;
        size_t i;
        json_t *x;
        json_array_foreach(vals, i, x) {
            char want[64];
            number_text(want, sizeof want, x);
            any |= k >= 0 && !strcmp(want, r->keys[k]);
        }
        if (!any)
            return 0;
    }
    return 1;
}

/* The claim's cell of row r, or NULL when the table has no such column. */
static const so_htable_cell *claim_cell(const so_htable *t, const so_hclaim_def *c,
                                        const so_htable_row *r)
{
    const so_htable_def *d = t->def;
    for (int q = 0; q < d->n_ratios; q++)
        if (!strcmp(d->ratios[q].name, c->column))
            return &r->ratios[q];
    if (!d->columns[0])
        return !strcmp(c->column, "value") ? &r->cells[0] : NULL;
    for (size_t j = 0; j < t->n_cols; j++)
        if (!strcmp(t->cols[j], c->column))
            return &r->cells[j];
    return NULL;
}

/* The row's paper number for the column, NAN without one. */
static double paper_number(const so_htable_row *r, const char *col)
{
    json_t *v = json_is_object(r->paper) ? json_object_get(r->paper, col) : r->paper;
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* SO_HV_HOLDS, _FAILS or _UNCLEAR for one row; _NODATA without a value. */
static int row_verdict(const so_hclaim_def *c, const so_htable_cell *x, double paper)
{
    if (!x || !x->n || !isfinite(x->mean))
        return SO_HV_NODATA;
    if (c->kind == SO_HCLAIM_PAPER && !isfinite(paper))
        return SO_HV_NODATA;
    if (x->n < 2) /* one sample is no interval */
        return SO_HV_UNCLEAR;
    double lo = x->lo, hi = x->hi;
    switch (c->kind) {
    case SO_HCLAIM_ABOVE:
        return lo > c->threshold ? SO_HV_HOLDS : hi < c->threshold ? SO_HV_FAILS
                                                                    : SO_HV_UNCLEAR;
    case SO_HCLAIM_BELOW:
        return hi < c->threshold ? SO_HV_HOLDS : lo > c->threshold ? SO_HV_FAILS
                                                                    : SO_HV_UNCLEAR;
    default:
        if (lo >= paper - c->threshold && hi <= paper + c->threshold)
            return SO_HV_HOLDS;
        return hi < paper - c->threshold || lo > paper + c->threshold ? SO_HV_FAILS
                                                                      : SO_HV_UNCLEAR;
    }
}

static void add_where(so_hverdict *v, const char *word, const char *label,
                      const so_htable_cell *x)
{
    size_t used = strlen(v->where);
    char n[32] = "";
    if (x->n < 2)
        snprintf(n, sizeof n, ", n=%zu", x->n);
    if (used + 1 < sizeof v->where)
        snprintf(v->where + used, sizeof v->where - used, "%s%s %s (%.3g%s)",
                 used ? "; " : "", word, label, x->mean, n);
}

static void group_verdict(const so_htable *t, const so_hclaim_def *c, int by,
                          const char *group, so_hverdict *v)
{
    const so_htable_def *d = t->def;
    for (size_t i = 0; i < t->n_rows; i++) {
        const so_htable_row *r = &t->rows[i];
        if ((by >= 0 && strcmp(r->keys[by], group)) || !selected(d, c, r))
            continue;
        const so_htable_cell *x = claim_cell(t, c, r);
        int rv = row_verdict(c, x, paper_number(r, c->column));
        if (rv == SO_HV_NODATA)
            continue;
        /* the row: its keys but `by`, "KEY=VALUE" except the policy's and
         * the job's own names */
        char label[160] = "";
        for (int k = 0; k < d->n_rows; k++) {
            char kv[130];
            if (k == by)
                continue;
            if (!strcmp(d->rows[k], "policy") || !strcmp(d->rows[k], "job_name"))
                snprintf(kv, sizeof kv, "%s", r->keys[k]);
            else
                snprintf(kv, sizeof kv, "%.40s=%.80s", d->rows[k], r->keys[k]);
            so_htable_join(label, sizeof label, kv);
        }
        v->n_holds += rv == SO_HV_HOLDS;
        v->n_fails += rv == SO_HV_FAILS;
        v->n_unclear += rv == SO_HV_UNCLEAR;
        if (rv != SO_HV_HOLDS)
            add_where(v, rv == SO_HV_FAILS ? "fails at" : "unclear at", label[0] ? label : "-", x);
    }
    size_t n = v->n_holds + v->n_fails + v->n_unclear;
    if (!n)
        v->verdict = SO_HV_NODATA;
    else if (v->n_holds == n)
        v->verdict = SO_HV_HOLDS;
    else if (c->all)
        v->verdict = v->n_fails ? SO_HV_FAILS : SO_HV_UNCLEAR;
    else
        v->verdict = v->n_holds ? SO_HV_PART : v->n_fails ? SO_HV_FAILS : SO_HV_UNCLEAR;
}

int so_htable_verdicts(so_htable *t)
{
    const so_htable_def *d = t->def;
    free(t->verdicts);
    t->verdicts = NULL;
    t->n_verdicts = 0;
    if (!d->n_claims)
        return SO_OK;
    t->verdicts = calloc((size_t)d->n_claims * (t->n_rows + 1), sizeof *t->verdicts);
    if (!t->verdicts)
        return SO_ENOMEM;
    for (int q = 0; q < d->n_claims; q++) {
        const so_hclaim_def *c = &d->claims[q];
        int by = c->by[0] ? row_key(d, c->by) : -1;
        size_t first = t->n_verdicts;
        for (size_t i = 0; i < t->n_rows || (by < 0 && i == 0); i++) {
            const char *g = by >= 0 ? t->rows[i].keys[by] : "";
            int seen = 0;
            for (size_t p = first; p < t->n_verdicts && !seen; p++)
                seen = !strcmp(t->verdicts[p].group, g);
            if (seen)
                continue;
            so_hverdict *v = &t->verdicts[t->n_verdicts++];
            v->claim = q;
            snprintf(v->group, sizeof v->group, "%s", g);
            group_verdict(t, c, by, g, v);
        }
    }
    return SO_OK;
}

const char *so_hverdict_word(int verdict)
{
    static const char *const w[] = {"holds", "holds in part", "fails", "unclear", "no data"};
    return verdict >= 0 && verdict <= SO_HV_NODATA ? w[verdict] : "?";
}

/* "over RAS > 1", "FIFO/WPBS within 0.1 of the paper" */
static void test_text(char *out, size_t size, const so_hclaim_def *c)
{
    if (c->kind == SO_HCLAIM_PAPER)
        snprintf(out, size, "%s within %g of the paper", c->column, c->threshold);
    else
        snprintf(out, size, "%s %s %g", c->column, c->kind == SO_HCLAIM_ABOVE ? ">" : "<",
                 c->threshold);
}

void so_htable_print_verdicts(FILE *fp, const so_htable *t, int markdown)
{
    const so_htable_def *d = t->def;
    if (!t->n_verdicts)
        return;
    if (markdown)
        fprintf(fp, "\n| claim | test (95 %% interval of each row) | %s | verdict | where not |\n"
                    "|---|---|---|---|---|\n",
                d->claims[t->verdicts[0].claim].by[0] ? d->claims[t->verdicts[0].claim].by
                                                      : "rows");
    else
        fprintf(fp, "\nclaims (each row's 95 %% interval against the test):\n");
    int last = -1;
    for (size_t i = 0; i < t->n_verdicts; i++) {
        const so_hverdict *v = &t->verdicts[i];
        const so_hclaim_def *c = &d->claims[v->claim];
        char test[160];
        test_text(test, sizeof test, c);
        const char *group = v->group[0] ? v->group : "all";
        if (markdown) {
            fprintf(fp, "| %s | %s%s | %s | **%s** | %s |\n", v->claim != last ? c->text : "",
                    v->claim != last ? test : "", v->claim != last && c->all ? ", every row" : "",
                    group, so_hverdict_word(v->verdict), v->where[0] ? v->where : "");
        } else {
            if (v->claim != last)
                fprintf(fp, "  %s [%s%s]\n", c->text, test, c->all ? ", every row" : "");
            fprintf(fp, "    %-22s %-14s %s\n", group, so_hverdict_word(v->verdict), v->where);
        }
        last = v->claim;
    }
}

json_t *so_htable_verdicts_json(const so_htable *t)
{
    json_t *a = json_array();
    for (size_t i = 0; i < t->n_verdicts; i++) {
        const so_hverdict *v = &t->verdicts[i];
        const so_hclaim_def *c = &t->def->claims[v->claim];
        char test[160];
        test_text(test, sizeof test, c);
        json_t *o = json_object();
        json_object_set_new(o, "claim", json_string(c->text));
        json_object_set_new(o, "test", json_string(test));
        json_object_set_new(o, "all", json_boolean(c->all));
        if (c->by[0])
            json_object_set_new(o, c->by, json_string(v->group));
        json_object_set_new(o, "verdict", json_string(so_hverdict_word(v->verdict)));
        json_object_set_new(o, "rows_hold", json_integer((json_int_t)v->n_holds));
        json_object_set_new(o, "rows_fail", json_integer((json_int_t)v->n_fails));
        json_object_set_new(o, "rows_unclear", json_integer((json_int_t)v->n_unclear));
        json_object_set_new(o, "where_not", json_string(v->where));
        json_array_append_new(a, o);
    }
    return a;
}
