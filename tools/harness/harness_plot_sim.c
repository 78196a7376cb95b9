/* harness_plot_sim.c — the plots of simulation cells (problem "sim"): the
 * papers' bar and line figures as clustered bars of the mean metric per
 * policy per group (sim-metric), and per group the empirical CDF of the
 * jobs' response times under each policy, over every cell of the group
 * (sim-cdf-GROUP; the "responses" extra of each row). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/common/gnuplot.h"
#include "tools/harness/harness.h"

/* A group or policy name inside a double-quoted gnuplot data string. */
static void quoted(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++)
        fputc(*s == '"' || *s == '\\' || *s == '\'' ? '_' : *s, fp);
    fputc('"', fp);
}

/* Distinct values of the sim summaries' group (which = 0) or backend (1),
 * in first-seen order. */
static size_t distinct(const so_htables *t, int which, const char **out)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n_sums; i++) {
        if (strcmp(t->sums[i].problem, "sim"))
            continue;
        const char *v = which ? t->sums[i].backend : t->sums[i].group;
        size_t k = 0;
        while (k < n && strcmp(out[k], v))
            k++;
        if (k == n)
            out[n++] = v;
    }
    return n;
}

static int metric_plot(const so_htables *t, const char **groups, size_t ng,
                       const char **pols, size_t np, const char *dir,
                       const char *ext, char *base, so_error *err)
{
    snprintf(base, 300, "sim-metric");
    char *dat = NULL, *gp = NULL;
    size_t dlen = 0, glen = 0;
    FILE *d, *g;
    if (so_hplot_open_pair(&d, &dat, &dlen, &g, &gp, &glen))
        return SO_ENOMEM;
    const char *metric = "metric";
    for (size_t i = 0; i < t->n_cells && !strcmp(metric, "metric"); i++)
        if (!strcmp(t->cells[i].row->problem, "sim") && t->cells[i].row->extras) {
            json_t *o = json_loads(t->cells[i].row->extras, 0, NULL);
            static char m[32];
            const char *v = json_string_value(json_object_get(o, "metric"));
            if (v) {
                snprintf(m, sizeof m, "%s", v);
                metric = m;
            }
            json_decref(o);
        }
    fprintf(d, "group");
    for (size_t p = 0; p < np; p++) {
        fputc(' ', d);
        quoted(d, pols[p]);
    }
    fputc('\n', d);
    for (size_t k = 0; k < ng; k++) {
        quoted(d, groups[k][0] ? groups[k] : "all");
        for (size_t p = 0; p < np; p++) {
            double v = NAN;
            for (size_t i = 0; i < t->n_sums; i++)
                if (!strcmp(t->sums[i].problem, "sim") && !strcmp(t->sums[i].group, groups[k]) &&
                    !strcmp(t->sums[i].backend, pols[p]))
                    v = t->sums[i].mean_objective;
            if (isfinite(v))
                fprintf(d, " %.12g", v);
            else
                fprintf(d, " NaN");
        }
        fputc('\n', d);
    }
    fclose(d);
    char safe[64];
    so_hplot_safe_name(safe, sizeof safe, metric);
    char title[200];
    snprintf(title, sizeof title, "simulation: %s per policy and group (mean over cells)",
             safe);
    so_hplot_header(g, ext, base, 900, 500, title);
    fprintf(g, "set ylabel '%s (s)'\nset style data histograms\n"
               "set style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
               "set key outside right top\nset yrange [0:*]\nset grid ytics\n"
               "set xtics rotate by -30\n"
               "plot for [i=2:%zu] '%s.dat' using i:xtic(1) title columnheader(i)\n",
            safe, np + 1, base);
    return so_hplot_finish(dir, base, g, &gp, &glen, dat, dlen, 1, err);
}

/* Appends the "responses" of row r to *x (size *n, capacity *cap). */
static int add_responses(const so_hrow *r, double **x, size_t *n, size_t *cap)
{
    json_t *o = r->extras ? json_loads(r->extras, 0, NULL) : NULL;
    json_t *a = json_object_get(o, "responses");
    size_t k;
    json_t *v;
    int rc = SO_OK;
    json_array_foreach(a, k, v) {
        if (!json_is_number(v))
            continue;
        if (*n == *cap) {
            size_t c = *cap ? 2 * *cap : 1024;
            double *y = realloc(*x, c * sizeof *y);
            if (!y) {
                rc = SO_ENOMEM;
                break;
            }
            *x = y;
            *cap = c;
        }
        (*x)[(*n)++] = json_number_value(v);
    }
    json_decref(o);
    return rc;
}

static int cdf_plot(const so_htables *t, const char *group, const char **pols, size_t np,
                    const char *dir, const char *ext, char *base, so_error *err)
{
    char safe[200];
    so_hplot_safe_name(safe, sizeof safe, group[0] ? group : "all");
    snprintf(base, 300, "sim-cdf-%s", safe);
    char *dat = NULL, *cmd = NULL, *gp = NULL;
    size_t dlen = 0, clen = 0, glen = 0;
    FILE *d = open_memstream(&dat, &dlen), *c = open_memstream(&cmd, &clen);
    double *x = NULL;
    size_t cap = 0;
    int block = 0, rc = d && c ? SO_OK : SO_ENOMEM;
    for (size_t p = 0; !rc && p < np; p++) {
        size_t n = 0;
        for (size_t i = 0; !rc && i < t->n_cells; i++)
            if (!strcmp(t->cells[i].row->problem, "sim") && !strcmp(t->cells[i].group, group) &&
                !strcmp(t->cells[i].row->backend, pols[p]))
                rc = add_responses(t->cells[i].row, &x, &n, &cap);
        if (rc || !n)
            continue;
        qsort(x, n, sizeof *x, so_hplot_cmp_double);
        fprintf(d, "# %s\n", pols[p]);
        /* at most 2,000 points per curve: every k-th order statistic */
        size_t step = n > 2000 ? n / 2000 : 1;
        for (size_t i = 0; i < n; i += step)
            fprintf(d, "%.9g %.9g\n", x[i], (double)(i + 1) / (double)n);
        fprintf(d, "%.9g 1\n\n\n", x[n - 1]);
        char sp[128];
        so_hplot_safe_name(sp, sizeof sp, pols[p]);
        fprintf(c, "%s'%s.dat' index %d with steps lw 2 title '%s'",
                block ? ", \\\n    " : "plot ", base, block, sp);
        block++;
    }
    free(x);
    if (d)
        fclose(d);
    if (c)
        fclose(c);
    FILE *g = !rc ? open_memstream(&gp, &glen) : NULL;
    if (!rc && !g)
        rc = SO_ENOMEM;
    if (rc || !block) {
        if (g)
            fclose(g);
        free(dat);
        free(cmd);
        free(gp);
        return rc ? rc : 0;
    }
    char title[300];
    snprintf(title, sizeof title, "response time CDF, %s", safe);
    so_hplot_header(g, ext, base, 800, 500, title);
    fprintf(g, "set xlabel 'response time (s)'\n"
               "set ylabel 'fraction of jobs'\nset key bottom right\nset logscale x\n"
               "set yrange [0:1.05]\nset grid\n%s\n",
            cmd);
    free(cmd);
    return so_hplot_finish(dir, base, g, &gp, &glen, dat, dlen, block, err);
}

int so_harness_plot_sim(const so_htables *t, const char *dir, const char *ext,
                        char (*bases)[300], size_t max, so_error *err)
{
    const char **groups = calloc(t->n_sums + 1, sizeof *groups);
    const char **pols = calloc(t->n_sums + 1, sizeof *pols);
    if (!groups || !pols) {
        free(groups);
        free(pols);
        return SO_ENOMEM;
    }
    size_t ng = distinct(t, 0, groups), np = distinct(t, 1, pols), nb = 0;
    int rc = SO_OK;
    if (np && nb < max && (rc = metric_plot(t, groups, ng, pols, np, dir, ext, bases[nb], err)) > 0)
        nb++;
    for (size_t k = 0; rc >= 0 && np && k < ng && nb < max; k++)
        if ((rc = cdf_plot(t, groups[k], pols, np, dir, ext, bases[nb], err)) > 0)
            nb++;
    free(groups);
    free(pols);
    return rc < 0 ? rc : (int)nb;
}
