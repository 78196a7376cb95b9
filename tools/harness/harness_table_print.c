/* harness_table_print.c — a scenario's table as an aligned text table,
 * markdown, CSV (mean, sd and interval in columns of their own, full
 * precision) or JSON, and its figure as a gnuplot script with its data
 * (mean per row, one curve per column or per the other row keys, error
 * bars of the statistic). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/common/gnuplot.h"
#include "tools/harness/harness_table.h"
#include "tools/output/output_format.h"
#include "tools/output/table.h"

/* Decimals for a value of this size: 0 from 100, 1 from 10, 2 from 1, else 3. */
static int decimals(double x)
{
    x = fabs(x);
    return x >= 100 ? 0 : x >= 10 ? 1 : x >= 1 ? 2 : 3;
}

static void cell_text(char *out, size_t size, const so_htable_cell *c, const so_htable_def *d)
{
    if (!c->n) {
        snprintf(out, size, "missing");
        return;
    }
    int k = d->decimals >= 0 ? d->decimals : decimals(c->mean);
    if (c->n == 1)
        snprintf(out, size, "%.*f", k, c->mean);
    else if (d->max)
        snprintf(out, size, "%.*f (max %.*f)", k, c->mean, k, c->max);
    else if (d->ci95)
        snprintf(out, size, "%.*f [%.*f, %.*f]", k, c->mean, k, c->lo, k, c->hi);
    else
        snprintf(out, size, "%.*f ± %.*f", k, c->mean, k, c->sd);
}

static void paper_text(char *out, size_t size, const so_htable_row *r, const char *col)
{
    json_t *v = *col ? json_object_get(r->paper, col) : json_is_object(r->paper) ? NULL
                                                                                : r->paper;
    if (json_is_number(v))
        snprintf(out, size, "%.*f", decimals(json_number_value(v)), json_number_value(v));
    else if (json_is_string(v))
        snprintf(out, size, "%s", json_string_value(v));
    else
        snprintf(out, size, "-");
}

static size_t n_columns(const so_htable *t)
{
    return (size_t)t->def->n_rows + t->n_cols + (size_t)t->def->n_ratios + t->n_paper_cols;
}

/* The header texts, one per column. */
static void header(const so_htable *t, char (*h)[SO_OTABLE_CELL])
{
    const so_htable_def *d = t->def;
    size_t c = 0;
    for (int k = 0; k < d->n_rows; k++)
        snprintf(h[c++], SO_OTABLE_CELL, "%s", d->rows[k]);
    for (size_t j = 0; j < t->n_cols; j++)
        snprintf(h[c++], SO_OTABLE_CELL, "%s", d->columns[0] ? t->cols[j] : t->value_label);
    for (int q = 0; q < d->n_ratios; q++)
        snprintf(h[c++], SO_OTABLE_CELL, "%s", d->ratios[q].name);
    for (size_t p = 0; p < t->n_paper_cols; p++)
        snprintf(h[c++], SO_OTABLE_CELL, "paper%s%s", t->paper_cols[p][0] ? " " : "",
                 t->paper_cols[p]);
}

static void row_texts(const so_htable *t, const so_htable_row *r, char (*x)[SO_OTABLE_CELL])
{
    const so_htable_def *d = t->def;
    size_t c = 0;
    for (int k = 0; k < d->n_rows; k++)
        snprintf(x[c++], SO_OTABLE_CELL, "%s", r->keys[k]);
    for (size_t j = 0; j < t->n_cols; j++)
        cell_text(x[c++], SO_OTABLE_CELL, &r->cells[j], d);
    for (int q = 0; q < d->n_ratios; q++)
        cell_text(x[c++], SO_OTABLE_CELL, &r->ratios[q], d);
    for (size_t p = 0; p < t->n_paper_cols; p++)
        paper_text(x[c++], SO_OTABLE_CELL, r, t->paper_cols[p]);
}

static void csv_num(FILE *fp, double x)
{
    char b[40];
    so_onumber(b, sizeof b, x);
    fprintf(fp, ",%s", isnan(x) ? "" : b);
}

static void csv(FILE *fp, const so_htable *t)
{
    const so_htable_def *d = t->def;
    for (int k = 0; k < d->n_rows; k++) {
        fputs(k ? "," : "", fp);
        so_csv_field(fp, d->rows[k]);
    }
    for (size_t j = 0; j < t->n_cols + (size_t)d->n_ratios; j++) {
        const char *name = j < t->n_cols ? (d->columns[0] ? t->cols[j] : t->value_label)
                                         : d->ratios[j - t->n_cols].name;
        static const char *const parts[] = {"n", "mean", "sd", "lo95", "hi95"};
        for (int p = 0; p < 5; p++) {
            char h[128];
            snprintf(h, sizeof h, "%s %s", name, parts[p]);
            fputc(',', fp);
            so_csv_field(fp, h);
        }
    }
    for (size_t p = 0; p < t->n_paper_cols; p++) {
        char h[80];
        snprintf(h, sizeof h, "paper%s%s", t->paper_cols[p][0] ? " " : "", t->paper_cols[p]);
        fputc(',', fp);
        so_csv_field(fp, h);
    }
    fputc('\n', fp);
    for (size_t r = 0; r < t->n_rows; r++) {
        const so_htable_row *row = &t->rows[r];
        for (int k = 0; k < d->n_rows; k++) {
            fputs(k ? "," : "", fp);
            so_csv_field(fp, row->keys[k]);
        }
        for (size_t j = 0; j < t->n_cols + (size_t)d->n_ratios; j++) {
            const so_htable_cell *c = j < t->n_cols ? &row->cells[j]
                                                    : &row->ratios[j - t->n_cols];
            fprintf(fp, ",%zu", c->n);
            csv_num(fp, c->mean);
            csv_num(fp, c->sd);
            csv_num(fp, c->lo);
            csv_num(fp, c->hi);
        }
        for (size_t p = 0; p < t->n_paper_cols; p++) {
            char b[SO_OTABLE_CELL];
            paper_text(b, sizeof b, row, t->paper_cols[p]);
            fputc(',', fp);
            so_csv_field(fp, strcmp(b, "-") ? b : "");
        }
        fputc('\n', fp);
    }
}

static json_t *cell_json(const so_htable_cell *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "n", json_integer((json_int_t)c->n));
    if (c->n) {
        json_object_set_new(o, "mean", json_real(c->mean));
        json_object_set_new(o, "sd", json_real(c->sd));
        json_object_set_new(o, "lo95", json_real(c->lo));
        json_object_set_new(o, "hi95", json_real(c->hi));
        json_object_set_new(o, "max", json_real(c->max));
    }
    return o;
}

json_t *so_htable_json(const so_htable *t)
{
    const so_htable_def *d = t->def;
    json_t *o = json_object(), *rows = json_array();
    json_object_set_new(o, "title", json_string(d->title));
    json_object_set_new(o, "statistic", json_string(d->ci95 ? "mean_ci95" : d->max ? "mean_max" : "mean_sd"));
    json_object_set_new(o, "value", json_string(t->value_label));
    for (size_t r = 0; r < t->n_rows; r++) {
        const so_htable_row *row = &t->rows[r];
        json_t *e = json_object(), *keys = json_object(), *vals = json_object();
        for (int k = 0; k < d->n_rows; k++)
            json_object_set_new(keys, d->rows[k], json_string(row->keys[k]));
        json_object_set_new(e, "label", json_string(row->label));
        json_object_set_new(e, "keys", keys);
        for (size_t j = 0; j < t->n_cols; j++)
            json_object_set_new(vals, d->columns[0] ? t->cols[j] : t->value_label,
                                cell_json(&row->cells[j]));
        json_object_set_new(e, "values", vals);
        if (d->n_ratios) {
            json_t *ra = json_object();
            for (int q = 0; q < d->n_ratios; q++)
                json_object_set_new(ra, d->ratios[q].name, cell_json(&row->ratios[q]));
            json_object_set_new(e, "ratios", ra);
        }
        if (row->paper)
            json_object_set(e, "paper", row->paper);
        json_array_append_new(rows, e);
    }
    json_object_set_new(o, "rows", rows);
    if (t->n_verdicts)
        json_object_set_new(o, "claims", so_htable_verdicts_json(t));
    json_object_set_new(o, "failed_cells", json_integer((json_int_t)t->failed));
    json_object_set_new(o, "missing_values", json_integer((json_int_t)t->missing));
    return o;
}

void so_htable_print(FILE *fp, const so_htable *t, int format)
{
    int compact = (format & SO_HF_COMPACT) != 0;
    format &= ~SO_HF_COMPACT;
    if (format == SO_HF_JSON) {
        so_ojson_put(fp, so_htable_json(t), compact);
        return;
    }
    if (format == SO_HF_CSV) {
        csv(fp, t);
        return;
    }
    size_t cols = n_columns(t);
    char (*g)[SO_OTABLE_CELL] = calloc((t->n_rows + 1) * cols, sizeof *g);
    if (!g)
        return;
    header(t, g);
    for (size_t r = 0; r < t->n_rows; r++)
        row_texts(t, &t->rows[r], g + (r + 1) * cols);
    if (t->def->title[0])
        fprintf(fp, format == SO_HF_MARKDOWN ? "**%s**\n\n" : "%s\n", t->def->title);
    if (format == SO_HF_MARKDOWN) { /* the row keys left-aligned */
        so_table *m = so_table_of_texts((const char (*)[SO_OTABLE_CELL])g, t->n_rows + 1,
                                        cols, (size_t)t->def->n_rows);
        so_table_write(fp, m, SO_OF_MARKDOWN, 0);
        so_table_free(m);
    } else {
        so_otable_print(fp, (const char (*)[SO_OTABLE_CELL])g, t->n_rows + 1, cols);
    }
    fprintf(fp, "%s%s over %s; %zu failed cells, %zu missing values\n",
            format == SO_HF_MARKDOWN ? "\n" : "",
            t->def->ci95 ? "mean [95 % t-interval]" : t->def->max ? "mean (max)" : "mean ± sd",
            "the seeds and instances of each row", t->failed, t->missing);
    so_htable_print_verdicts(fp, t, format == SO_HF_MARKDOWN);
    free(g);
}

/* ---- the figure ----------------------------------------------------------- */
/* The position of row q's x value among the distinct x values, as first seen. */
static size_t x_index(const so_htable *t, int x, size_t q)
{
    size_t n = 0;
    for (size_t r = 0; r < q; r++) {
        int seen = 0;
        for (size_t p = 0; p < r && !seen; p++)
            seen = !strcmp(t->rows[p].keys[x], t->rows[r].keys[x]);
        if (!seen && !strcmp(t->rows[r].keys[x], t->rows[q].keys[x]))
            return n;
        n += !seen;
    }
    return n;
}

/* Appends a row key's value to a curve's name: a number with its key
 * ("load=1"; a bare "1" would not say what it is), a name as it is. */
static void series_part(char *name, size_t size, const char *key, const char *value)
{
    char *end, part[200];
    strtod(value, &end);
    if (value[0] && !*end)
        snprintf(part, sizeof part, "%s=%s", key, value);
    else
        snprintf(part, sizeof part, "%s", value);
    so_htable_join(name, size, part);
}

int so_htable_plot(const so_htable *t, const char *dir, const char *base,
                   const char *ext, so_error *err)
{
    const so_htable_def *d = t->def;
    if (!d->has_figure || !t->n_rows)
        return 0;
    int x = 0;
    for (int k = 0; k < d->n_rows; k++)
        if (!strcmp(d->rows[k], d->fig_x))
            x = k;
    int numeric_x = strcmp(d->fig_style, "bars") != 0;
    for (size_t r = 0; r < t->n_rows && numeric_x; r++) {
        char *end;
        strtod(t->rows[r].keys[x], &end);
        numeric_x = t->rows[r].keys[x][0] && !*end;
    }
    char *dat = NULL, *gp = NULL;
    size_t dlen = 0, glen = 0;
    FILE *dd, *g;
    if (so_hplot_open_pair(&dd, &dat, &dlen, &g, &gp, &glen))
        return SO_ENOMEM;
    /* one block per series: (the other row keys) x column */
    size_t n_series = 0;
    size_t max_series = t->n_rows * (t->n_cols ? t->n_cols : 1) + 1;
    char (*series)[200] = calloc(max_series, sizeof *series);
    so_hseries *pts = calloc(max_series, sizeof *pts); /* for the legend and ranges */
    double lo = INFINITY, hi = -INFINITY;
    if (!series || !pts) {
        free(pts);
        fclose(dd);
        fclose(g);
        free(dat);
        free(gp);
        return SO_ENOMEM;
    }
    for (size_t j = 0; j < t->n_cols; j++)
        for (size_t r = 0; r < t->n_rows; r++) {
            char name[200] = "";
            for (int k = 0; k < d->n_rows; k++)
                if (k != x)
                    series_part(name, sizeof name, d->rows[k], t->rows[r].keys[k]);
            if (d->columns[0])
                so_htable_join(name, sizeof name, t->cols[j]);
            if (!name[0])
                snprintf(name, sizeof name, "%s", t->value_label);
            size_t s = 0;
            while (s < n_series && strcmp(series[s], name))
                s++;
            if (s < n_series)
                continue;
            snprintf(series[n_series++], sizeof series[0], "%s", name);
            fprintf(dd, "%s# ", n_series > 1 ? "\n\n" : "");
            so_gp_put_quoted(dd, name);
            fputc('\n', dd);
            for (size_t q = r; q < t->n_rows; q++) {
                int same = 1;
                for (int k = 0; k < d->n_rows; k++)
                    if (k != x && strcmp(t->rows[q].keys[k], t->rows[r].keys[k]))
                        same = 0;
                const so_htable_cell *c = &t->rows[q].cells[j];
                if (!same || !c->n)
                    continue;
                double e = d->ci95 ? c->hi - c->mean : c->sd;
                so_hseries_add(&pts[n_series - 1],
                               numeric_x ? strtod(t->rows[q].keys[x], NULL)
                                         : (double)x_index(t, x, q),
                               c->mean);
                if (isfinite(e)) {
                    lo = fmin(lo, c->mean - e);
                    hi = fmax(hi, c->mean + e);
                }
                lo = fmin(lo, c->mean);
                hi = fmax(hi, c->mean);
                if (numeric_x)
                    fprintf(dd, "%s %.12g %.12g\n", t->rows[q].keys[x], c->mean, e);
                else
                    fprintf(dd, "%zu %.12g %.12g \"%s\"\n", x_index(t, x, q), c->mean, e,
                            t->rows[q].keys[x]);
            }
        }
    fclose(dd);
    so_hplot_header(g, ext, base, 900, 500, d->fig_title[0] ? d->fig_title : d->title);
    so_gp_label(g, "x", so_hplot_label(NULL, d->fig_x));
    so_gp_label(g, "y", d->fig_ylabel[0] ? d->fig_ylabel : t->value_label);
    size_t longest = 0;
    for (size_t k = 0; k < n_series; k++) { /* the key's entries, for its place */
        char title[300];
        snprintf(pts[k].name, sizeof pts[k].name, "%s", series[k]);
        so_hseries_title(title, sizeof title, pts, k, 0);
        longest = strlen(title) > longest ? strlen(title) : longest;
    }
    so_gp_key(g, n_series, longest);
    fprintf(g, "set grid ytics\n");
    int bars = !strcmp(d->fig_style, "bars");
    if (bars) { /* a bar's length is its value: from 0, to the means */
        double mlo = 0, mhi = 0;
        so_hseries_range(pts, n_series, 1, &mlo, &mhi);
        fprintf(g, "set yrange [%.6g:%.6g]\n", mlo * 1.06, mhi > 0 ? mhi * 1.06 : 1);
    }
    else /* lines: the range of the means and their error bars */
        so_gp_range(g, "y", lo, hi, 0);
    if (numeric_x) {
        double xlo = INFINITY, xhi = -INFINITY;
        so_hseries_range(pts, n_series, 0, &xlo, &xhi);
        so_gp_range(g, "x", xlo, xhi, 0);
    }
    if (!numeric_x) { /* categories at 0, 1, ...: room beside the first and last */
        fprintf(g, "set offsets 0.5, 0.5, 0, 0\nset xtics (");
        for (size_t r = 0, k = 0; r < t->n_rows; r++)
            if (x_index(t, x, r) == k) {
                fprintf(g, "%s'", k ? ", " : "");
                so_gp_put_quoted(g, t->rows[r].keys[x]);
                fprintf(g, "' %zu", k++);
            }
        fprintf(g, ")\n");
    }
    if (bars)
        fprintf(g, "set style fill solid 0.6 border -1\nset boxwidth %.3g\n",
                0.8 / (double)(n_series ? n_series : 1));
    fprintf(g, "plot ");
    for (size_t s = 0; s < n_series; s++) {
        fprintf(g, "%s'%s.dat' index %zu using ", s ? ", \\\n     " : "", base, s);
        if (bars)
            fprintf(g, "($1+%.3g):2 with boxes lc rgb '%s' title ",
                    (double)s * 0.8 / (double)n_series - 0.4 + 0.4 / (double)n_series,
                    so_gp_colour((int)s));
        else { /* each curve its colour, dash and point type (a timeline:
                * one value per step, no error bars) */
            fprintf(g, "%s", strcmp(d->fig_x, "time") ? "1:2:3 with yerrorlines lw 1.5 ps 1.4"
                                                      : "1:2 with lines lw 1.5");
            so_gp_style(g, (int)s);
            fputs(" title ", g);
        }
        char title[300];
        so_hseries_title(title, sizeof title, pts, s, 0);
        fputc('\'', g);
        so_gp_put_quoted(g, title);
        fputc('\'', g);
    }
    fprintf(g, "\n");
    free(series);
    so_hseries_free(pts, max_series);
    return so_hplot_finish(dir, base, g, &gp, &glen, dat, dlen, n_series > 0, err);
}
