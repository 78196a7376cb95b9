/* harness_output.c — the per-cell and summary tables as an aligned text
 * table, CSV (RFC 4180 quoting), JSON or markdown. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/harness/harness.h"
#include "tools/output/output_format.h"
#include "tools/output/table.h"

/* ---- the tables, through the one table writer (tools/output/table.h) ---- */

/* A real cell: NAN missing ("-" in the table and markdown, empty in CSV). */
static void num(so_table *g, size_t col, double x)
{
    so_table_real(g, col, x);
}

/* An objective: an integer digit for digit in every format (a knapsack
 * profit is not 3.5e+12), else as num. */
static void objective_num(so_table *g, size_t col, double x)
{
    if (isfinite(x) && x == floor(x) && fabs(x) < 9.2e18)
        so_table_int(g, col, (long long)x);
    else
        num(g, col, x);
}

/* A table of the given columns, the first text_cols left-aligned. */
static so_table *grid_new(const so_tcol *cols, size_t n, size_t text_cols)
{
    so_table *g = so_table_with(cols, n);
    for (size_t c = 0; g && c < n; c++)
        so_table_align(g, c, c < text_cols);
    return g;
}

static void print_grid(FILE *fp, so_table *g, int format)
{
    so_table_write(fp, g, format, 0);
    so_table_free(g);
}

/* ---- the two tables ------------------------------------------------------- */

static int has_groups(const so_htables *t)
{
    for (size_t i = 0; i < t->n_sums; i++)
        if (t->sums[i].group[0])
            return 1;
    return 0;
}

/* The optimisation summaries (problem kinds other than "sim"). In the table
 * and markdown formats without wide (--cells), columns that say nothing are
 * left out to fit 100 characters: the reference counts when every reference
 * proved its optimum, the differences but for RAS (whose utilities can be
 * near zero or negative), the median ratio and the maximum seconds. */
static so_table *summary_grid(const so_htables *t, int narrow)
{
    static const so_tcol head[] = {
        {"problem", SO_COL_TEXT, NULL},       {"group", SO_COL_TEXT, NULL},
        {"backend", SO_COL_TEXT, NULL},       {"instances", SO_COL_INT, NULL},
        {"cells", SO_COL_INT, NULL},          {"solved", SO_COL_INT, NULL},
        {"ref infeasible", SO_COL_INT, NULL}, {"ref unproven", SO_COL_INT, NULL},
        {"% optimal", SO_COL_REAL, "%.1f"},   {"mean ratio", SO_COL_REAL, "%.4f"},
        {"median ratio", SO_COL_REAL, "%.4f"}, {"worst ratio", SO_COL_REAL, "%.4f"},
        {"mean diff", SO_COL_REAL, "%.4g"},   {"worst diff", SO_COL_REAL, "%.4g"},
        {"mean s", SO_COL_REAL, "%.4f"},      {"max s", SO_COL_REAL, "%.4f"}};
    int groups = has_groups(t);
    so_table *g = grid_new(head, sizeof head / sizeof head[0], 3);
    if (!g)
        return NULL;
    int infeasible = 0, unproven = 0, diffs = 0;
    for (size_t i = 0; i < t->n_sums; i++) {
        const so_hsummary *s = &t->sums[i];
        if (!strcmp(s->problem, "sim"))
            continue;
        infeasible |= s->ref_infeasible > 0;
        unproven |= s->ref_unproven > 0;
        diffs |= !strcmp(s->problem, "ras");
        so_table_row(g);
        size_t c = 0;
        so_table_text(g, c++, s->problem);
        so_table_text(g, c++, s->group);
        so_table_text(g, c++, s->backend);
        so_table_int(g, c++, (long long)s->instances);
        so_table_int(g, c++, (long long)s->cells);
        so_table_int(g, c++, (long long)s->solved);
        so_table_int(g, c++, (long long)s->ref_infeasible);
        so_table_int(g, c++, (long long)s->ref_unproven);
        /* over the cells whose reference is a proven optimum */
        num(g, c++, s->ref_proven ? 100.0 * (double)s->optimal / (double)s->ref_proven : NAN);
        num(g, c++, s->mean_ratio);
        num(g, c++, s->median_ratio);
        num(g, c++, s->worst_ratio);
        num(g, c++, s->mean_diff);
        num(g, c++, s->worst_diff);
        num(g, c++, s->mean_seconds);
        num(g, c++, s->max_seconds);
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
    so_table_keep(g, keep);
    return g;
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
static so_table *sim_grid(const so_htables *t, int wide, int csv)
{
    static const so_tcol head[] = {
        {"group", SO_COL_TEXT, NULL},         {"policy", SO_COL_TEXT, NULL},
        {"cells", SO_COL_INT, NULL},          {"metric (s)", SO_COL_REAL, "%.1f"},
        {"p95 (s)", SO_COL_REAL, "%.1f"},     {"max (s)", SO_COL_REAL, "%.1f"},
        {"vs ref", SO_COL_REAL, "%.3f"},      {"worst vs ref", SO_COL_REAL, "%.3f"},
        {"as good as ref", SO_COL_INT, NULL}, {"sim s", SO_COL_REAL, "%.3f"}};
    int groups = has_groups(t);
    so_table *g = grid_new(head, sizeof head / sizeof head[0], 2);
    double *p95 = malloc((t->n_cells + 1) * sizeof *p95);
    double *max = malloc((t->n_cells + 1) * sizeof *max);
    if (!p95 || !max || !g) {
        free(p95);
        free(max);
        so_table_free(g);
        return NULL;
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
            if (m) {
                char h[128];
                snprintf(h, sizeof h, "%s (s)", m);
                so_table_header(g, 3, h);
            }
            metric = m ? "" : NULL;
            json_decref(o);
        }
    }
    for (size_t i = 0; i < t->n_sums; i++) {
        const so_hsummary *s = &t->sums[i];
        if (strcmp(s->problem, "sim"))
            continue;
        so_table_row(g);
        double mp95, mmax;
        sim_means(t, s, p95, max, &mp95, &mmax);
        size_t c = 0;
        so_table_text(g, c++, s->group);
        so_table_text(g, c++, s->backend);
        so_table_int(g, c++, (long long)s->cells);
        num(g, c++, s->mean_objective);
        num(g, c++, mp95);
        num(g, c++, mmax);
        num(g, c++, s->mean_ratio);
        num(g, c++, s->worst_ratio);
        if (csv) {
            so_table_int(g, c++, (long long)s->optimal);
        } else {
            char text[64];
            snprintf(text, sizeof text, "%zu/%zu", s->optimal, s->ref_proven);
            so_table_text(g, c++, text);
        }
        num(g, c++, s->mean_seconds);
    }
    free(p95);
    free(max);
    unsigned keep = 0x3ffu & ~(groups ? 0u : 1u);
    if (!wide)
        keep &= ~(1u << 7 | 1u << 9);
    so_table_keep(g, keep);
    return g;
}

static int has_kind(const so_htables *t, int sim)
{
    for (size_t i = 0; i < t->n_sums; i++)
        if ((strcmp(t->sums[i].problem, "sim") == 0) == sim)
            return 1;
    return 0;
}

static so_table *cells_grid(const so_htables *t)
{
    static const so_tcol head[] = {
        {"problem", SO_COL_TEXT, NULL},      {"instance", SO_COL_TEXT, NULL},
        {"backend", SO_COL_TEXT, NULL},      {"rep", SO_COL_INT, NULL},
        {"status", SO_COL_TEXT, NULL},       {"objective", SO_COL_REAL, "%.10g"},
        {"reference", SO_COL_REAL, "%.10g"}, {"ref status", SO_COL_TEXT, NULL},
        {"ratio", SO_COL_REAL, "%.6f"},      {"difference", SO_COL_REAL, "%.6g"},
        {"seconds", SO_COL_REAL, "%.4f"}};
    so_table *g = grid_new(head, sizeof head / sizeof head[0], 5);
    for (size_t i = 0; g && i < t->n_cells; i++) {
        const so_hcellgap *cg = &t->cells[i];
        so_table_row(g);
        so_table_text(g, 0, cg->row->problem);
        so_table_text(g, 1, cg->row->instance);
        so_table_text(g, 2, cg->row->backend);
        so_table_int(g, 3, cg->row->rep);
        so_table_text(g, 4, cg->row->status);
        objective_num(g, 5, cg->row->objective);
        objective_num(g, 6, cg->ref ? cg->ref->objective : NAN);
        if (cg->ref)
            so_table_text(g, 7, cg->ref->status);
        num(g, 8, cg->gap.ratio);
        num(g, 9, cg->gap.diff);
        num(g, 10, cg->row->seconds);
    }
    return g;
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
    if (format == SO_HF_JSON) {
        so_ojson_put(fp, to_json(t), compact);
        return;
    }
    so_table *g;
    if (cells && (g = cells_grid(t))) {
        print_grid(fp, g, format);
        if (format == SO_HF_CSV) /* one table per CSV text */
            return;
        fputc('\n', fp);
    }
    int narrow = !cells && format != SO_HF_CSV;
    if (has_kind(t, 0) && (g = summary_grid(t, narrow)))
        print_grid(fp, g, format);
    if (has_kind(t, 1) && format == SO_HF_CSV && has_kind(t, 0))
        return; /* one table per CSV text: the optimisation summaries */
    if (has_kind(t, 1)) {
        if (has_kind(t, 0))
            fputc('\n', fp);
        if ((g = sim_grid(t, !narrow, format == SO_HF_CSV)))
            print_grid(fp, g, format);
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
    const so_hrow **v = malloc((t->n_cells ? t->n_cells : 1) * sizeof *v);
    for (size_t i = 0; v && i < t->n_cells; i++)
        v[i] = t->cells[i].row;
    if (v)
        so_harness_warn_below_bound(fp, cmd, v, t->n_cells);
    free(v);
}
