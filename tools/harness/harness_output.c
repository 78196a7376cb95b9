/* harness_output.c — the per-cell and summary tables as an aligned text
 * table, CSV (RFC 4180 quoting), JSON or markdown. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/harness/harness.h"
#include "tools/output/output_format.h"

int so_hformat_parse(const char *s)
{
    static const char *const names[] = {"table", "csv", "json", "markdown"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

/* ---- a grid of texts ------------------------------------------------------ */
#define MAX_COLS 16
#define CELL 100

typedef struct grid {
    int cols, text_cols; /* the first text_cols columns are left-aligned */
    size_t rows; /* including the header */
    char (*text)[MAX_COLS][CELL];
} grid;

static int grid_init(grid *g, size_t rows, const char *const *header, int text_cols)
{
    g->cols = 0;
    g->text_cols = text_cols;
    g->rows = 1;
    g->text = calloc(rows + 1, sizeof *g->text);
    if (!g->text)
        return SO_ENOMEM;
    for (; header[g->cols]; g->cols++)
        snprintf(g->text[0][g->cols], CELL, "%s", header[g->cols]);
    return SO_OK;
}

/* fmt in the table and markdown; full precision in CSV (integers digit for
 * digit, other numbers with 17 significant digits, as JSON). */
static int csv_numbers;

static void num(char *out, double x, const char *fmt)
{
    if (isnan(x))
        snprintf(out, CELL, "-");
    else if (isinf(x))
        snprintf(out, CELL, "%s", x > 0 ? "inf" : "-inf");
    else if (csv_numbers && x == floor(x) && fabs(x) < 9.2e18)
        snprintf(out, CELL, "%lld", (long long)x);
    else if (csv_numbers)
        snprintf(out, CELL, "%.17g", x);
    else
        snprintf(out, CELL, fmt, x);
}

/* An objective: an integer digit for digit in every format (a knapsack
 * profit is not 3.5e+12), else as num. */
static void objective_num(char *out, double x)
{
    if (isfinite(x) && x == floor(x) && fabs(x) < 9.2e18)
        snprintf(out, CELL, "%lld", (long long)x);
    else
        num(out, x, "%.10g");
}

static void print_table(FILE *fp, const grid *g)
{
    int width[MAX_COLS] = {0};
    for (size_t r = 0; r < g->rows; r++)
        for (int c = 0; c < g->cols; c++) {
            int w = (int)strlen(g->text[r][c]);
            if (w > width[c])
                width[c] = w;
        }
    for (size_t r = 0; r < g->rows; r++) {
        for (int c = 0; c < g->cols; c++)
            fprintf(fp, c < g->text_cols ? "%s%-*s" : "%s%*s", c ? "  " : "",
                    c == g->cols - 1 && c < g->text_cols ? 0 : width[c], g->text[r][c]);
        fputc('\n', fp);
        if (r == 0) {
            for (int c = 0; c < g->cols; c++) {
                fprintf(fp, c == 0 ? "" : "  ");
                for (int k = 0; k < width[c]; k++)
                    fputc('-', fp);
            }
            fputc('\n', fp);
        }
    }
}

static void print_csv(FILE *fp, const grid *g)
{
    for (size_t r = 0; r < g->rows; r++) {
        for (int c = 0; c < g->cols; c++) {
            const char *t = g->text[r][c];
            if (c)
                fputc(',', fp);
            if (!strcmp(t, "-")) /* a missing number is an empty field */
                continue;
            if (strpbrk(t, ",\"\n")) {
                fputc('"', fp);
                for (; *t; t++) {
                    if (*t == '"')
                        fputc('"', fp);
                    fputc(*t, fp);
                }
                fputc('"', fp);
            } else {
                fputs(t, fp);
            }
        }
        fputc('\n', fp);
    }
}

static void print_markdown(FILE *fp, const grid *g)
{
    for (size_t r = 0; r < g->rows; r++) {
        fputc('|', fp);
        for (int c = 0; c < g->cols; c++) {
            fputc(' ', fp);
            for (const char *t = g->text[r][c]; *t; t++) {
                if (*t == '|')
                    fputc('\\', fp);
                fputc(*t, fp);
            }
            fputs(" |", fp);
        }
        fputc('\n', fp);
        if (r == 0) {
            fputc('|', fp);
            for (int c = 0; c < g->cols; c++)
                fputs(c < g->text_cols ? " --- |" : " ---: |", fp);
            fputc('\n', fp);
        }
    }
}

static void print_grid(FILE *fp, const grid *g, int format)
{
    if (format == SO_HF_CSV)
        print_csv(fp, g);
    else if (format == SO_HF_MARKDOWN)
        print_markdown(fp, g);
    else
        print_table(fp, g);
}

/* ---- the two tables ------------------------------------------------------- */

static int has_groups(const so_htables *t)
{
    for (size_t i = 0; i < t->n_sums; i++)
        if (t->sums[i].group[0])
            return 1;
    return 0;
}

static int summary_grid(const so_htables *t, grid *g)
{
    static const char *const head[] = {"problem", "group", "backend", "instances",
                                       "cells", "solved", "ref infeasible",
                                       "ref unproven", "% optimal", "mean ratio",
                                       "median ratio", "worst ratio", "mean diff",
                                       "worst diff", "mean s",
                                       "max s", NULL};
    int groups = has_groups(t);
    const char *const *h = head;
    const char *no_group[MAX_COLS];
    if (!groups) {
        int k = 0;
        for (int i = 0; head[i]; i++)
            if (i != 1)
                no_group[k++] = head[i];
        no_group[k] = NULL;
        h = no_group;
    }
    if (grid_init(g, t->n_sums, h, groups ? 3 : 2))
        return SO_ENOMEM;
    for (size_t i = 0; i < t->n_sums; i++) {
        const so_hsummary *s = &t->sums[i];
        char (*row)[CELL] = g->text[g->rows++];
        int c = 0;
        snprintf(row[c++], CELL, "%s", s->problem);
        if (groups)
            snprintf(row[c++], CELL, "%s", s->group);
        snprintf(row[c++], CELL, "%s", s->backend);
        snprintf(row[c++], CELL, "%zu", s->instances);
        snprintf(row[c++], CELL, "%zu", s->cells);
        snprintf(row[c++], CELL, "%zu", s->solved);
        snprintf(row[c++], CELL, "%zu", s->ref_infeasible);
        snprintf(row[c++], CELL, "%zu", s->ref_unproven);
        /* over the cells whose reference is a proven optimum */
        num(row[c++], s->ref_proven ? 100.0 * (double)s->optimal / (double)s->ref_proven : NAN,
            "%.1f");
        num(row[c++], s->mean_ratio, "%.4f");
        num(row[c++], s->median_ratio, "%.4f");
        num(row[c++], s->worst_ratio, "%.4f");
        num(row[c++], s->mean_diff, "%.4g");
        num(row[c++], s->worst_diff, "%.4g");
        num(row[c++], s->mean_seconds, "%.4f");
        num(row[c++], s->max_seconds, "%.4f");
    }
    return SO_OK;
}

static int cells_grid(const so_htables *t, grid *g)
{
    static const char *const head[] = {"problem", "instance", "backend", "rep",
                                       "status", "objective", "reference",
                                       "ref status", "ratio", "difference",
                                       "seconds", NULL};
    if (grid_init(g, t->n_cells, head, 5))
        return SO_ENOMEM;
    for (size_t i = 0; i < t->n_cells; i++) {
        const so_hcellgap *cg = &t->cells[i];
        char (*row)[CELL] = g->text[g->rows++];
        snprintf(row[0], CELL, "%s", cg->row->problem);
        snprintf(row[1], CELL, "%s", cg->row->instance);
        snprintf(row[2], CELL, "%s", cg->row->backend);
        snprintf(row[3], CELL, "%d", cg->row->rep);
        snprintf(row[4], CELL, "%s", cg->row->status);
        objective_num(row[5], cg->row->objective);
        objective_num(row[6], cg->ref ? cg->ref->objective : NAN);
        snprintf(row[7], CELL, "%s", cg->ref ? cg->ref->status : "-");
        num(row[8], cg->gap.ratio, "%.6f");
        num(row[9], cg->gap.diff, "%.6g");
        num(row[10], cg->row->seconds, "%.4f");
    }
    return SO_OK;
}

/* ---- JSON ----------------------------------------------------------------- */

static json_t *jnum(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *jtext(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *to_json(const so_htables *t)
{
    json_t *cells = json_array(), *sums = json_array();
    for (size_t i = 0; i < t->n_cells; i++) {
        const so_hcellgap *cg = &t->cells[i];
        const so_hrow *r = cg->row;
        json_t *o = json_object();
        json_object_set_new(o, "problem", json_string(r->problem));
        json_object_set_new(o, "instance", json_string(r->instance));
        json_object_set_new(o, "instance_hash", json_string(r->hash));
        json_object_set_new(o, "backend", json_string(r->backend));
        json_object_set_new(o, "rep", json_integer(r->rep));
        json_object_set_new(o, "status", json_string(r->status));
        json_object_set_new(o, "objective", jnum(r->objective));
        json_object_set_new(o, "bound", jnum(r->bound));
        json_object_set_new(o, "reference", jnum(cg->ref ? cg->ref->objective : NAN));
        json_object_set_new(o, "reference_status", jtext(cg->ref ? cg->ref->status : NULL));
        json_object_set_new(o, "ratio", isinf(cg->gap.ratio) ? json_string("inf")
                                                              : jnum(cg->gap.ratio));
        json_object_set_new(o, "difference", jnum(cg->gap.diff));
        json_object_set_new(o, "optimal", json_boolean(cg->gap.optimal));
        json_object_set_new(o, "seconds", jnum(r->seconds));
        json_object_set_new(o, "message", jtext(r->message));
        json_array_append_new(cells, o);
    }
    for (size_t i = 0; i < t->n_sums; i++) {
        const so_hsummary *s = &t->sums[i];
        json_t *o = json_object();
        json_object_set_new(o, "problem", json_string(s->problem));
        if (s->group[0])
            json_object_set_new(o, "group", json_string(s->group));
        json_object_set_new(o, "backend", json_string(s->backend));
        json_object_set_new(o, "instances", json_integer((json_int_t)s->instances));
        json_object_set_new(o, "cells", json_integer((json_int_t)s->cells));
        json_object_set_new(o, "solved", json_integer((json_int_t)s->solved));
        json_object_set_new(o, "optimal", json_integer((json_int_t)s->optimal));
        json_object_set_new(o, "reference_proven", json_integer((json_int_t)s->ref_proven));
        json_object_set_new(o, "reference_infeasible",
                            json_integer((json_int_t)s->ref_infeasible));
        json_object_set_new(o, "reference_unproven",
                            json_integer((json_int_t)s->ref_unproven));
        json_object_set_new(o, "mean_ratio", isinf(s->mean_ratio) ? json_string("inf")
                                                                  : jnum(s->mean_ratio));
        json_object_set_new(o, "median_ratio", isinf(s->median_ratio)
                                                   ? json_string("inf")
                                                   : jnum(s->median_ratio));
        json_object_set_new(o, "worst_ratio", isinf(s->worst_ratio) ? json_string("inf")
                                                                    : jnum(s->worst_ratio));
        json_object_set_new(o, "mean_diff", jnum(s->mean_diff));
        json_object_set_new(o, "worst_diff", jnum(s->worst_diff));
        json_object_set_new(o, "mean_objective", jnum(s->mean_objective));
        json_object_set_new(o, "mean_seconds", jnum(s->mean_seconds));
        json_object_set_new(o, "max_seconds", jnum(s->max_seconds));
        json_array_append_new(sums, o);
    }
    json_t *refs = json_array();
    for (size_t i = 0; i < t->n_refs; i++) {
        const so_hrefsum *r = &t->refs[i];
        json_t *o = json_object(), *st = json_object();
        json_object_set_new(o, "problem", json_string(r->problem));
        json_object_set_new(o, "backend", json_string(r->backend));
        json_object_set_new(o, "cells", json_integer((json_int_t)r->cells));
        json_object_set_new(o, "proven", json_integer((json_int_t)r->proven));
        json_object_set_new(o, "infeasible", json_integer((json_int_t)r->infeasible));
        json_object_set_new(o, "unproven", json_integer((json_int_t)r->unproven));
        for (size_t k = 0; k < r->n_status; k++)
            json_object_set_new(st, r->status[k], json_integer((json_int_t)r->status_count[k]));
        json_object_set_new(o, "unproven_statuses", st);
        json_array_append_new(refs, o);
    }
    json_t *root = json_object();
    json_object_set_new(root, "cells", cells);
    json_object_set_new(root, "summary", sums);
    json_object_set_new(root, "references", refs);
    return root;
}

void so_harness_print(FILE *fp, const so_htables *t, int format, int cells)
{
    int compact = (format & SO_HF_COMPACT) != 0;
    format &= ~SO_HF_COMPACT;
    csv_numbers = format == SO_HF_CSV;
    if (format == SO_HF_JSON) {
        json_t *j = to_json(t);
        char *s = so_ojson_dumps(j, compact);
        if (s)
            fputs(s, fp);
        free(s);
        json_decref(j);
        return;
    }
    grid g;
    if (cells && !cells_grid(t, &g)) {
        print_grid(fp, &g, format);
        free(g.text);
        if (format == SO_HF_CSV) /* one table per CSV text */
            return;
        fputc('\n', fp);
    }
    if (!summary_grid(t, &g)) {
        print_grid(fp, &g, format);
        free(g.text);
    }
    if (format != SO_HF_CSV)
        so_harness_print_references(fp, t);
}

void so_harness_print_references(FILE *fp, const so_htables *t)
{
    for (size_t i = 0; i < t->n_refs; i++) {
        const so_hrefsum *r = &t->refs[i];
        fprintf(fp, "%sreference %s (%s): %s on %zu of %zu cells", i ? "" : "\n",
                r->backend, r->problem,
                strcmp(r->problem, "sim") ? "proven optimal" : "simulated or bounded",
                r->proven, r->cells);
        if (r->infeasible)
            fprintf(fp, "; infeasible on %zu (no gap)", r->infeasible);
        if (r->unproven) {
            fprintf(fp, "; not proven on %zu (", r->unproven);
            for (size_t k = 0; k < r->n_status; k++)
                fprintf(fp, "%s%s %zu", k ? ", " : "", r->status[k], r->status_count[k]);
            fprintf(fp, "): no gap");
        }
        fprintf(fp, "\n");
    }
}

void so_harness_warn(FILE *fp, const char *cmd, const so_htables *t,
                     const so_hkinds *kinds)
{
    for (size_t k = 0; k < kinds->n; k++) {
        size_t cells = 0, missing = 0;
        for (size_t i = 0; i < t->n_cells; i++) {
            const so_hrow *r = t->cells[i].row;
            if (strcmp(r->problem, kinds->v[k].problem) ||
                strcmp(r->backend, kinds->v[k].reference))
                continue;
            cells++;
            /* an infeasible reference is a result (counted apart), not a
             * failure; a cell without a ratio against a proven reference
             * (no objective) is one */
            missing += t->cells[i].gap.ref_state == SO_HREF_UNPROVEN ||
                       (t->cells[i].gap.ref_state == SO_HREF_PROVEN &&
                        isnan(t->cells[i].gap.ratio));
        }
        if (missing)
            fprintf(fp, "slotopt %s: the reference %s has no usable result on %zu of its"
                        " %zu cells: the gaps of those instances are unknown\n",
                    cmd, kinds->v[k].reference, missing, cells);
    }
}
