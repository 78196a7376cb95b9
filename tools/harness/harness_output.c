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

/* Drops the columns not in keep (a bit per column) from g. */
static void grid_keep(grid *g, unsigned keep)
{
    int k = 0, text = 0;
    for (int c = 0; c < g->cols; c++) {
        if (!(keep & (1u << c)))
            continue;
        for (size_t r = 0; r < g->rows; r++)
            if (k != c)
                memcpy(g->text[r][k], g->text[r][c], CELL);
        text += c < g->text_cols;
        k++;
    }
    g->cols = k;
    g->text_cols = text;
}

/* The optimisation summaries (problem kinds other than "sim"). In the table
 * and markdown formats without wide (--cells), columns that say nothing are
 * left out to fit 100 characters: the reference counts when every reference
 * proved its optimum, the differences but for RAS (whose utilities can be
 * near zero or negative), the median ratio and the maximum seconds. */
static int summary_grid(const so_htables *t, grid *g, int narrow)
{
    static const char *const head[] = {"problem", "group", "backend", "instances",
                                       "cells", "solved", "ref infeasible",
                                       "ref unproven", "% optimal", "mean ratio",
                                       "median ratio", "worst ratio", "mean diff",
                                       "worst diff", "mean s",
                                       "max s", NULL};
    int groups = has_groups(t);
    if (grid_init(g, t->n_sums, head, 3))
        return SO_ENOMEM;
    int infeasible = 0, unproven = 0, diffs = 0;
    for (size_t i = 0; i < t->n_sums; i++) {
        const so_hsummary *s = &t->sums[i];
        if (!strcmp(s->problem, "sim"))
            continue;
        infeasible |= s->ref_infeasible > 0;
        unproven |= s->ref_unproven > 0;
        diffs |= !strcmp(s->problem, "ras");
        char (*row)[CELL] = g->text[g->rows++];
        int c = 0;
        snprintf(row[c++], CELL, "%s", s->problem);
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
    unsigned keep = 0xffffu & ~(groups ? 0u : 1u << 1);
    if (narrow) {
        keep &= ~(1u << 3 | 1u << 10 | 1u << 15);
        if (!infeasible)
            keep &= ~(1u << 6);
        if (!unproven)
            keep &= ~(1u << 7);
        if (!diffs)
            keep &= ~(1u << 12 | 1u << 13);
    }
    grid_keep(g, keep);
    return SO_OK;
}

/* A simulation cell's response p95 and max (its extras), NAN without. */
static void responses(const so_hrow *r, double *p95, double *max)
{
    *p95 = *max = NAN;
    json_t *o = r->extras ? json_loads(r->extras, 0, NULL) : NULL;
    json_t *resp = json_object_get(o, "response");
    if (json_is_number(json_object_get(resp, "p95")))
        *p95 = json_number_value(json_object_get(resp, "p95"));
    if (json_is_number(json_object_get(resp, "max")))
        *max = json_number_value(json_object_get(resp, "max"));
    json_decref(o);
}

/* Means over a summary's cells of their response p95 and max. */
static void sim_means(const so_htables *t, const so_hsummary *s, const double *p95,
                      const double *max, double *mp95, double *mmax)
{
    double a = 0, b = 0;
    size_t n = 0;
    for (size_t i = 0; i < t->n_cells; i++) {
        const so_hcellgap *cg = &t->cells[i];
        if (strcmp(cg->row->problem, "sim") || strcmp(cg->group, s->group) ||
            strcmp(cg->row->backend, s->backend) || !isfinite(p95[i]))
            continue;
        a += p95[i];
        b += max[i];
        n++;
    }
    *mp95 = n ? a / (double)n : NAN;
    *mmax = n ? b / (double)n : NAN;
}

/* The simulation summaries in simulation words: the metric's mean over the
 * cells (seconds), the jobs' response p95 and max, the ratio to the
 * reference, and on how many cells the policy was at least as good as the
 * reference; no infeasible or unproven column (a simulation always ends). */
static int sim_grid(const so_htables *t, grid *g, int wide)
{
    static const char *const head[] = {"group", "policy", "cells", "metric (s)",
                                       "p95 (s)", "max (s)", "vs ref",
                                       "worst vs ref", "as good as ref",
                                       "sim s", NULL};
    int groups = has_groups(t);
    if (grid_init(g, t->n_sums, head, 2))
        return SO_ENOMEM;
    double *p95 = malloc((t->n_cells + 1) * sizeof *p95);
    double *max = malloc((t->n_cells + 1) * sizeof *max);
    if (!p95 || !max) {
        free(p95);
        free(max);
        free(g->text);
        return SO_ENOMEM;
    }
    const char *metric = NULL;
    for (size_t i = 0; i < t->n_cells; i++) {
        p95[i] = max[i] = NAN;
        if (strcmp(t->cells[i].row->problem, "sim"))
            continue;
        responses(t->cells[i].row, &p95[i], &max[i]);
        if (!metric && t->cells[i].row->extras) {
            json_t *o = json_loads(t->cells[i].row->extras, 0, NULL);
            const char *m = json_string_value(json_object_get(o, "metric"));
            if (m)
                snprintf(g->text[0][3], CELL, "%s (s)", m);
            metric = m ? "" : NULL;
            json_decref(o);
        }
    }
    for (size_t i = 0; i < t->n_sums; i++) {
        const so_hsummary *s = &t->sums[i];
        if (strcmp(s->problem, "sim"))
            continue;
        char (*row)[CELL] = g->text[g->rows++];
        double mp95, mmax;
        sim_means(t, s, p95, max, &mp95, &mmax);
        int c = 0;
        snprintf(row[c++], CELL, "%s", s->group);
        snprintf(row[c++], CELL, "%s", s->backend);
        snprintf(row[c++], CELL, "%zu", s->cells);
        num(row[c++], s->mean_objective, "%.1f");
        num(row[c++], mp95, "%.1f");
        num(row[c++], mmax, "%.1f");
        num(row[c++], s->mean_ratio, "%.3f");
        num(row[c++], s->worst_ratio, "%.3f");
        if (csv_numbers)
            snprintf(row[c++], CELL, "%zu", s->optimal);
        else
            snprintf(row[c++], CELL, "%zu/%zu", s->optimal, s->ref_proven);
        num(row[c++], s->mean_seconds, "%.3f");
    }
    free(p95);
    free(max);
    unsigned keep = 0x3ffu & ~(groups ? 0u : 1u);
    if (!wide)
        keep &= ~(1u << 7 | 1u << 9);
    grid_keep(g, keep);
    return SO_OK;
}

static int has_kind(const so_htables *t, int sim)
{
    for (size_t i = 0; i < t->n_sums; i++)
        if ((strcmp(t->sums[i].problem, "sim") == 0) == sim)
            return 1;
    return 0;
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
        /* a simulated policy is never "optimal": it is as good as its
         * reference or not */
        json_object_set_new(o, strcmp(r->problem, "sim") ? "optimal"
                                                         : "at_least_as_good_as_reference",
                            json_boolean(cg->gap.optimal));
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
        if (strcmp(s->problem, "sim")) {
            json_object_set_new(o, "optimal", json_integer((json_int_t)s->optimal));
            json_object_set_new(o, "reference_proven", json_integer((json_int_t)s->ref_proven));
            json_object_set_new(o, "reference_infeasible",
                                json_integer((json_int_t)s->ref_infeasible));
            json_object_set_new(o, "reference_unproven",
                                json_integer((json_int_t)s->ref_unproven));
        } else { /* a simulation always ends: no infeasible or unproven reference */
            json_object_set_new(o, "at_least_as_good_as_reference",
                                json_integer((json_int_t)s->optimal));
            json_object_set_new(o, "reference_cells", json_integer((json_int_t)s->ref_proven));
        }
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
        so_ojson_put(fp, to_json(t), compact);
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
    int narrow = !cells && format != SO_HF_CSV;
    if (has_kind(t, 0) && !summary_grid(t, &g, narrow)) {
        print_grid(fp, &g, format);
        free(g.text);
    }
    if (has_kind(t, 1) && format == SO_HF_CSV && has_kind(t, 0))
        return; /* one table per CSV text: the optimisation summaries */
    if (has_kind(t, 1)) {
        if (has_kind(t, 0))
            fputc('\n', fp);
        if (!sim_grid(t, &g, !narrow)) {
            print_grid(fp, &g, format);
            free(g.text);
        }
        if (format != SO_HF_CSV)
            fprintf(fp, "\n(s): means over the cells; p95, max: of the jobs' response times;"
                        " vs ref: mean ratio to\nthe reference (>= 1 is worse); as good as ref:"
                        " cells where the policy is at least\nas good as the reference%s\n",
                    cells ? "; worst: the largest ratio; sim s: seconds simulating" : "");
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
