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

/* A group name inside a double-quoted gnuplot data string (which has no
 * escape: a double quote becomes a single one). */
static void quoted(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++)
        fputc(*s == '"' ? '\'' : (unsigned char)*s < ' ' ? ' ' : *s, fp);
    fputc('"', fp);
}

/* "LABEL = VALUE" of a group "KEY=VALUE" (the key's label with its unit),
 * "all" for "". */
static void group_title(char *out, size_t size, const char *group)
{
    const char *eq = strchr(group, '=');
    char key[96];
    if (!eq) {
        snprintf(out, size, "%s", group[0] ? group : "all");
        return;
    }
    snprintf(key, sizeof key, "%.*s", (int)(eq - group), group);
    snprintf(out, size, "%s = %s", so_hplot_label(NULL, key), eq + 1);
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
    fprintf(d, "# group");
    for (size_t p = 0; p < np; p++) {
        fputc(' ', d);
        quoted(d, pols[p]);
    }
    fputc('\n', d);
    /* groups "KEY=VALUE" of one KEY: the values on the axis, its label
     * under it; else each group's "LABEL = VALUE" */
    char key[96] = "";
    const char *eq0 = strchr(groups[0], '=');
    if (eq0)
        snprintf(key, sizeof key, "%.*s", (int)(eq0 - groups[0]), groups[0]);
    for (size_t k = 0; k < ng && key[0]; k++)
        if (strncmp(groups[k], key, strlen(key)) || groups[k][strlen(key)] != '=')
            key[0] = '\0';
    double hi = 0;
    size_t longest = 0;
    for (size_t k = 0; k < ng; k++) {
        char gt[200];
        if (key[0])
            snprintf(gt, sizeof gt, "%s", groups[k] + strlen(key) + 1);
        else
            group_title(gt, sizeof gt, groups[k]);
        longest = strlen(gt) > longest ? strlen(gt) : longest;
        quoted(d, gt);
        for (size_t p = 0; p < np; p++) {
            double v = NAN;
            for (size_t i = 0; i < t->n_sums; i++)
                if (!strcmp(t->sums[i].problem, "sim") && !strcmp(t->sums[i].group, groups[k]) &&
                    !strcmp(t->sums[i].backend, pols[p]))
                    v = t->sums[i].mean_objective;
            if (isfinite(v)) {
                fprintf(d, " %.12g", v);
                hi = fmax(hi, v);
            } else {
                fprintf(d, " NaN");
            }
        }
        fputc('\n', d);
    }
    fclose(d);
    const char *label = so_hplot_label(NULL, metric);
    char title[300];
    snprintf(title, sizeof title, "simulation: %s per policy and group (mean over cells)",
             label);
    so_hplot_header(g, ext, base, 900, 500, title);
    so_gp_label(g, "y", label);
    if (key[0])
        so_gp_label(g, "x", so_hplot_label(NULL, key));
    if (longest > 8) /* long tic texts: slanted */
        fputs("set xtics rotate by -30\n", g);
    size_t klong = 0;
    for (size_t p = 0; p < np; p++)
        klong = strlen(pols[p]) > klong ? strlen(pols[p]) : klong;
    so_gp_key(g, np, klong);
    /* bars start at 0 (their length is the value); room above the tallest */
    fprintf(g, "set style data histograms\n"
               "set style histogram clustered gap 1\nset style fill solid 0.85 border -1\n"
               "set yrange [0:%.6g]\nset grid ytics\n",
            hi > 0 ? hi * 1.06 : 1);
    for (size_t p = 0; p < np; p++) {
        fprintf(g, "%s'%s.dat' using %zu:xtic(1) lc rgb '%s' title '", p ? ", \\\n     " : "plot ",
                base, p + 2, so_gp_colour((int)p));
        so_gp_put_quoted(g, pols[p]);
        fputc('\'', g);
    }
    fputc('\n', g);
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
    so_hseries *s = calloc(np + 1, sizeof *s);
    double *x = NULL;
    size_t cap = 0, ns = 0;
    int rc = s ? SO_OK : SO_ENOMEM;
    for (size_t p = 0; !rc && p < np; p++) {
        size_t n = 0;
        for (size_t i = 0; !rc && i < t->n_cells; i++)
            if (!strcmp(t->cells[i].row->problem, "sim") && !strcmp(t->cells[i].group, group) &&
                !strcmp(t->cells[i].row->backend, pols[p]))
                rc = add_responses(t->cells[i].row, &x, &n, &cap);
        if (rc || !n)
            continue;
        qsort(x, n, sizeof *x, so_hplot_cmp_double);
        snprintf(s[ns].name, sizeof s[ns].name, "%s", pols[p]);
        /* at most 2,000 points per curve: every k-th order statistic */
        size_t step = n > 2000 ? n / 2000 : 1;
        for (size_t i = 0; !rc && i < n; i += step)
            rc = so_hseries_add(&s[ns], x[i], (double)(i + 1) / (double)n);
        if (!rc)
            rc = so_hseries_add(&s[ns], x[n - 1], 1);
        ns++;
    }
    free(x);
    char *dat = NULL, *gp = NULL;
    size_t dlen = 0, glen = 0;
    FILE *d = NULL, *g = NULL;
    if (!rc && ns && so_hplot_open_pair(&d, &dat, &dlen, &g, &gp, &glen))
        rc = SO_ENOMEM;
    if (rc || !ns) {
        so_hseries_free(s, np + 1);
        return rc;
    }
    char gt[200], title[300];
    group_title(gt, sizeof gt, group);
    snprintf(title, sizeof title, "response-time distribution, %s", gt);
    so_hplot_header(g, ext, base, 800, 500, title);
    so_gp_label(g, "x", "response time (s)");
    so_gp_label(g, "y", "fraction of jobs (cumulative)");
    double lo = INFINITY, hi = -INFINITY;
    so_hseries_range(s, ns, 0, &lo, &hi);
    int logx = lo > 0 && hi > 10 * lo; /* a log scale for spans of a decade or more */
    if (logx)
        fputs("set logscale x\n", g);
    so_gp_range(g, "x", lo, hi, logx);
    fputs("set key bottom right\nset yrange [0:1.05]\nset grid\n", g);
    for (size_t k = 0; k < ns; k++) {
        so_hseries_block(d, &s[k]);
        char tk[300];
        so_hseries_title(tk, sizeof tk, s, k, 0);
        so_hseries_entry(g, k, base, "steps lw 2", tk);
    }
    fputc('\n', g);
    fclose(d);
    so_hseries_free(s, np + 1);
    return so_hplot_finish(dir, base, g, &gp, &glen, dat, dlen, 1, err);
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
