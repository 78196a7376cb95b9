/* harness_plot.c — gnuplot plots of a results database, per problem kind:
 * without groups the distribution (empirical CDF) of each backend's gap to
 * the reference; with groups (--group-by KEY) one line per backend of its
 * mean gap over the values of KEY (a line per scheme over the swept
 * parameter, as Fig. 5 of Wolf et al.); and the stored frontiers of each
 * frontier instance (repetition 0) as steps, one per backend. The gap is
 * the ratio, except for kinds whose objective can be near or below zero
 * (RAS minimum utilities, docs/harness.md): the difference. Every script
 * opens with formulations/common/gnuplot.h (terminal by the extension,
 * noenhanced, quoted titles). Data and scripts are written first, in a
 * private folder made in DIR (mkdtemp, mode 0700), where gnuplot draws each
 * plot as NAME.EXT (the name the script says, so that the published script
 * re-run in DIR writes NAME.EXT itself, no scratch name); each plot is
 * copied onto DIR/NAME.EXT as any output (a link or FIFO there is kept),
 * then the data and scripts are renamed into DIR, so that a link planted in
 * DIR under one of their names is replaced, never written through. Without
 * gnuplot the scripts stay for later. A report killed meanwhile leaves the
 * private folder DIR/.slotopt-plot-XXXXXX (nothing else is half written). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <unistd.h>
#include "formulations/common/gnuplot.h"
#include "tools/harness/harness.h"

/* Letters, digits and ._=- kept; anything else becomes '_'. */
void so_hplot_safe_name(char *out, size_t size, const char *in)
{
    size_t k = 0;
    for (; *in && k + 1 < size; in++)
        out[k++] = (strchr("._=-", *in) || (*in >= '0' && *in <= '9') ||
                    (*in >= 'a' && *in <= 'z') || (*in >= 'A' && *in <= 'Z'))
                       ? *in
                       : '_';
    out[k] = '\0';
}

static int write_text(const char *dir, const char *name, char *text, size_t len,
                      so_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int rc = so_write_file_atomic(path, text ? text : "", text ? len : 0, err);
    free(text);
    return rc;
}

/* Runs gnuplot on WORK/BASE.gp, which draws WORK/BASE.EXT; copies it onto
 * DIR/BASE.EXT by so_copy_to_output (a link or FIFO there is kept). */
static int draw(const char *work, const char *dir, const char *base, const char *ext,
                so_error *err)
{
    char script[1024], tmp[5500], svg[5500];
    snprintf(script, sizeof script, "%s.gp", base);
    snprintf(tmp, sizeof tmp, "%s/%s.%s", work, base, ext);
    snprintf(svg, sizeof svg, "%s/%s.%s", dir, base, ext);
    int rc = so_gp_run(work, script, svg, err);
    if (!rc)
        rc = so_copy_to_output(tmp, svg, err);
    unlink(tmp);
    return rc;
}

int so_hplot_cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

void so_hplot_header(FILE *g, const char *ext, const char *base, int width,
                     int height, const char *title)
{
    char out[400], ext_path[32];
    snprintf(out, sizeof out, "%s.%s", base, ext);
    snprintf(ext_path, sizeof ext_path, "x.%s", ext);
    so_gp_header(g, ext_path, out, width, height, title);
}

int so_hplot_open_pair(FILE **a, char **abuf, size_t *alen, FILE **b,
                       char **bbuf, size_t *blen)
{
    *a = open_memstream(abuf, alen);
    *b = open_memstream(bbuf, blen);
    if (*a && *b)
        return SO_OK;
    if (*a)
        fclose(*a);
    if (*b)
        fclose(*b);
    free(*abuf);
    free(*bbuf);
    return SO_ENOMEM;
}

int so_hplot_finish(const char *dir, const char *base, FILE *g, char **gp,
                    size_t *glen, char *dat, size_t dlen, int block, so_error *err)
{
    fclose(g);
    if (!block) {
        free(dat);
        free(*gp);
        return 0;
    }
    int rc = so_hplot_write_pair(dir, base, dat, dlen, *gp, *glen, err);
    return rc ? rc : 1;
}

/* ---- ratio distributions -------------------------------------------------- */

/* Writes BASE.dat and BASE.gp (the header, then the plot command). */
int so_hplot_write_pair(const char *dir, const char *base, char *dat, size_t dlen,
                        char *gp, size_t glen, so_error *err)
{
    char name[320];
    snprintf(name, sizeof name, "%s.dat", base);
    int rc = write_text(dir, name, dat, dlen, err);
    snprintf(name, sizeof name, "%s.gp", base);
    if (!rc)
        return write_text(dir, name, gp, glen, err);
    free(gp);
    return rc;
}

/* The kinds whose gaps are plotted as differences: their objectives can be
 * near or below zero, where a ratio means nothing (docs/harness.md). */
static int by_difference(const char *problem)
{
    return !strcmp(problem, "ras");
}

static double gap_value(const so_hgap *g, int diff)
{
    return diff ? g->diff : g->ratio;
}

/* The reference backend of problem's cells ("" when none is known). */
static const char *reference_of(const so_htables *t, const char *problem)
{
    for (size_t i = 0; i < t->n_cells; i++)
        if (t->cells[i].ref && !strcmp(t->cells[i].row->problem, problem))
            return t->cells[i].ref->backend;
    return "";
}

/* Opens the script: header, title and the grid. */
static void gap_header(FILE *g, const char *problem, const char *ext, const char *base,
                       const char *what, int diff, const char *ref)
{
    char title[600];
    snprintf(title, sizeof title, "%s: %s %s %s%s", problem, what,
             diff ? "difference to" : "ratio to", ref[0] ? ref : "the reference",
             diff ? " (objective units)" : "");
    so_hplot_header(g, ext, base, 800, 500, title);
    fprintf(g, "set grid\n");
}

/* 1 when summary s is the first of `problem` for its backend, and that
 * backend is not the reference (a reference against itself is 1 by
 * definition: drawn as the guide line, not as a curve). */
static int first_of_backend(const so_htables *t, size_t s, const char *problem,
                            const char *ref)
{
    const so_hsummary *sum = &t->sums[s];
    int first = 1;
    for (size_t k = 0; k < s && first; k++)
        first = strcmp(t->sums[k].problem, problem) || strcmp(t->sums[k].backend, sum->backend);
    return !strcmp(sum->problem, problem) && first && strcmp(sum->backend, ref);
}

/* The family of problem's first row with one ("" when none): the labels
 * of its parameters can depend on it. */
static const char *family_of(const so_htables *t, const char *problem)
{
    for (size_t i = 0; i < t->n_cells; i++)
        if (!strcmp(t->cells[i].row->problem, problem) && t->cells[i].row->family)
            return t->cells[i].row->family;
    return "";
}

/* Writes the curves' data blocks and plot entries (with WITH; ref_on_y:
 * the coordinate, y or x, that equals the reference value), then the
 * reference's guide line (horizontal at y = refv, or vertical at x =
 * refv) into the script g. Lines over groups (ref_on_y) get their key
 * placed by its size (so_gp_key); a distribution keeps its key inside. */
static int write_curves(FILE *g, const so_hseries *s, size_t n, const char *base,
                        const char *with, int ref_on_y, double refv, const char *ref,
                        char **dat, size_t *dlen)
{
    FILE *d = open_memstream(dat, dlen);
    if (!d)
        return SO_ENOMEM;
    size_t longest = strlen(ref) + 12; /* "REF (reference)" */
    for (size_t k = 0; k < n && ref_on_y; k++) {
        char title[300];
        so_hseries_title(title, sizeof title, s, k, so_hseries_at(&s[k], ref_on_y, refv));
        longest = strlen(title) > longest ? strlen(title) : longest;
    }
    if (ref_on_y)
        so_gp_key(g, n + 1, longest);
    for (size_t k = 0; k < n; k++) {
        so_hseries_block(d, &s[k]);
        char title[300];
        so_hseries_title(title, sizeof title, s, k, so_hseries_at(&s[k], ref_on_y, refv));
        so_hseries_entry(g, k, base, with, title);
    }
    fclose(d);
    /* the reference: a grey guide (a line through the plot), in the key */
    if (ref_on_y)
        fprintf(g, ", \\\n    %.17g with lines lc rgb '#777777' dt 3 lw 1.5 title '", refv);
    else
        fprintf(g, ", \\\n    NaN with lines lc rgb '#777777' dt 3 lw 1.5 title '");
    so_gp_put_quoted(g, ref[0] ? ref : "reference");
    fputs(" (reference)'\n", g);
    return SO_OK;
}

/* The script's stream when n curves were found (and *rc is SO_OK); else
 * NULL, the cap curves freed (*rc SO_ENOMEM when the stream failed). */
static FILE *open_gap_script(int *rc, so_hseries *s, size_t cap, size_t n, char **gp,
                             size_t *glen)
{
    FILE *g = !*rc && n ? open_memstream(gp, glen) : NULL;
    if (!*rc && n && !g)
        *rc = SO_ENOMEM;
    if (!g)
        so_hseries_free(s, cap);
    return g;
}

/* Writes the n curves (write_curves), frees the cap curves and writes
 * BASE.dat and BASE.gp (so_hplot_finish). */
static int finish_gap(FILE *g, char **gp, size_t *glen, so_hseries *s, size_t cap, size_t n,
                      const char *with, int ref_on_y, double refv, const char *ref,
                      const char *dir, const char *base, so_error *err)
{
    char *dat = NULL;
    size_t dlen = 0;
    int rc = write_curves(g, s, n, base, with, ref_on_y, refv, ref, &dat, &dlen);
    so_hseries_free(s, cap);
    if (rc) {
        fclose(g);
        free(*gp);
        return rc;
    }
    return so_hplot_finish(dir, base, g, gp, glen, dat, dlen, 1, err);
}

/* Without groups: the CDF of each backend's gap. Returns 1 when a plot was
 * written, 0 when there is nothing to plot. */
static int gaps_cdf_plot(const so_htables *t, const char *problem, const char *dir,
                         const char *ext, const char *base, so_error *err)
{
    int diff = by_difference(problem);
    const char *ref = reference_of(t, problem);
    so_hseries *s = calloc(t->n_sums + 1, sizeof *s);
    double *r = malloc((t->n_cells ? t->n_cells : 1) * sizeof *r);
    size_t n = 0;
    int rc = s && r ? SO_OK : SO_ENOMEM;
    for (size_t k = 0; !rc && k < t->n_sums; k++) {
        const so_hsummary *sum = &t->sums[k];
        if (!first_of_backend(t, k, problem, ref))
            continue;
        size_t m = 0;
        for (size_t i = 0; i < t->n_cells; i++)
            if (!strcmp(t->cells[i].row->problem, problem) &&
                !strcmp(t->cells[i].row->backend, sum->backend) &&
                isfinite(gap_value(&t->cells[i].gap, diff)))
                r[m++] = gap_value(&t->cells[i].gap, diff);
        if (!m)
            continue;
        qsort(r, m, sizeof *r, so_hplot_cmp_double);
        snprintf(s[n].name, sizeof s[n].name, "%s", sum->backend);
        rc = so_hseries_add(&s[n], r[0], 0);
        for (size_t i = 0; !rc && i < m; i++)
            rc = so_hseries_add(&s[n], r[i], (double)(i + 1) / (double)m);
        n++;
    }
    free(r);
    char *gp = NULL;
    size_t glen = 0;
    FILE *g = open_gap_script(&rc, s, t->n_sums + 1, n, &gp, &glen);
    if (!g)
        return rc;
    double refv = diff ? 0 : 1, lo = refv, hi = refv;
    so_hseries_range(s, n, 0, &lo, &hi);
    gap_header(g, problem, ext, base, "distribution of the", diff, ref);
    so_gp_label(g, "x", diff ? "difference to the reference, objective units (0 = as good)"
                             : "ratio to the reference (1 = as good, > 1 worse)");
    so_gp_label(g, "y", "fraction of cells (cumulative)");
    fputs("set key bottom right\nset yrange [0:1.05]\n", g);
    so_gp_range(g, "x", lo, hi, 0);
    fprintf(g, "set arrow from %.17g, graph 0 to %.17g, graph 1 nohead lc rgb '#777777' "
               "dt 3 lw 1.5\n", refv, refv);
    return finish_gap(g, &gp, &glen, s, t->n_sums + 1, n, "steps lw 2", 0, refv, ref, dir,
                      base, err);
}

/* With groups "KEY=VALUE": one line per backend of its mean gap over the
 * values (numbers on a numeric axis, joined by lines, when every value is a
 * number; else one tic per value in order of appearance, points only). */
static int gaps_group_plot(const so_htables *t, const char *problem, const char *dir,
                           const char *ext, const char *base, so_error *err)
{
    int diff = by_difference(problem);
    const char *ref = reference_of(t, problem);
    char key[96] = "";
    const char *values[256];
    size_t nv = 0;
    int numeric = 1;
    for (size_t k = 0; k < t->n_sums; k++) {
        const so_hsummary *sum = &t->sums[k];
        const char *eq = strchr(sum->group, '=');
        if (strcmp(sum->problem, problem) || !eq)
            continue;
        if (!key[0])
            snprintf(key, sizeof key, "%.*s", (int)(eq - sum->group), sum->group);
        size_t v = 0;
        while (v < nv && strcmp(values[v], eq + 1))
            v++;
        if (v == nv && nv < 256) {
            char *end;
            strtod(eq + 1, &end);
            numeric = numeric && end != eq + 1 && !*end;
            values[nv++] = eq + 1;
        }
    }
    so_hseries *s = calloc(t->n_sums + 1, sizeof *s);
    size_t n = 0;
    int rc = s ? SO_OK : SO_ENOMEM;
    for (size_t k = 0; !rc && k < t->n_sums; k++) {
        const so_hsummary *sum = &t->sums[k];
        if (!first_of_backend(t, k, problem, ref))
            continue;
        /* this backend's points, in the order of the values (numeric: sorted) */
        for (size_t v = 0; !rc && v < nv; v++)
            for (size_t q = 0; !rc && q < t->n_sums; q++) {
                const so_hsummary *o = &t->sums[q];
                const char *eq = strchr(o->group, '=');
                double y = diff ? o->mean_diff : o->mean_ratio;
                if (!strcmp(o->problem, problem) && !strcmp(o->backend, sum->backend) && eq &&
                    !strcmp(eq + 1, values[v]) && isfinite(y))
                    rc = so_hseries_add(&s[n], numeric ? strtod(values[v], NULL) : (double)v, y);
            }
        if (!s[n].n)
            continue;
        double *xs = s[n].x, *ys = s[n].y;
        for (size_t i = 1; i < s[n].n; i++) /* insertion sort by x */
            for (size_t j = i; j > 0 && xs[j - 1] > xs[j]; j--) {
                double tx = xs[j], ty = ys[j];
                xs[j] = xs[j - 1], ys[j] = ys[j - 1];
                xs[j - 1] = tx, ys[j - 1] = ty;
            }
        snprintf(s[n].name, sizeof s[n].name, "%s", sum->backend);
        n++;
    }
    char *gp = NULL;
    size_t glen = 0;
    FILE *g = open_gap_script(&rc, s, t->n_sums + 1, n, &gp, &glen);
    if (!g)
        return rc;
    double refv = diff ? 0 : 1, lo = refv, hi = refv, xlo = INFINITY, xhi = -INFINITY;
    so_hseries_range(s, n, 1, &lo, &hi);
    so_hseries_range(s, n, 0, &xlo, &xhi);
    gap_header(g, problem, ext, base, "mean", diff, ref);
    so_gp_label(g, "x", so_hplot_label(family_of(t, problem), key));
    so_gp_label(g, "y", diff ? "mean difference to the reference (objective units)"
                             : "mean ratio to the reference (1 = as good)");
    so_gp_range(g, "y", lo, hi, 0);
    if (numeric) {
        so_gp_range(g, "x", xlo, xhi, 0);
    } else {
        fprintf(g, "set xrange [-0.5:%g]\n", (double)nv - 0.5);
        fputs("set xtics (", g);
        for (size_t v = 0; v < nv; v++) {
            fputs(v ? ", '" : "'", g);
            so_gp_put_quoted(g, values[v]);
            fprintf(g, "' %zu", v);
        }
        fputs(")\n", g);
    }
    /* categories are not a scale: points only, no line between them */
    return finish_gap(g, &gp, &glen, s, t->n_sums + 1, n,
                      numeric ? "linespoints lw 2 ps 1.6" : "points ps 1.8", 1, refv, ref, dir,
                      base, err);
}

/* The gap plot of problem, gaps-PROBLEM (its safe name) into base. */
static int gaps_plot(const so_htables *t, const char *problem, const char *dir,
                     const char *ext, char *base, size_t size, so_error *err)
{
    char safe[128];
    so_hplot_safe_name(safe, sizeof safe, problem);
    snprintf(base, size, "gaps-%s", safe);
    for (size_t s = 0; s < t->n_sums; s++)
        if (!strcmp(t->sums[s].problem, problem) && strchr(t->sums[s].group, '='))
            return gaps_group_plot(t, problem, dir, ext, base, err);
    return gaps_cdf_plot(t, problem, dir, ext, base, err);
}

/* ---- frontiers ------------------------------------------------------------ */

/* Point k of a frontier: [x, y] or an object whose first two numeric
 * members are x and y (their names become the axis labels). */
static int point(json_t *p, double *x, double *y, const char **lx, const char **ly)
{
    if (json_is_array(p) && json_array_size(p) >= 2 &&
        json_is_number(json_array_get(p, 0)) && json_is_number(json_array_get(p, 1))) {
        *x = json_number_value(json_array_get(p, 0));
        *y = json_number_value(json_array_get(p, 1));
        return 1;
    }
    if (!json_is_object(p))
        return 0;
    int got = 0;
    const char *key;
    json_t *v;
    json_object_foreach(p, key, v) {
        if (!json_is_number(v) || got == 2)
            continue;
        if (got++ == 0) {
            *x = json_number_value(v);
            *lx = key;
        } else {
            *y = json_number_value(v);
            *ly = key;
        }
    }
    return got == 2;
}

/* The stored frontiers of one instance (repetition 0), a curve per
 * backend: steps (exact thick) with the points marked, the ranges those of
 * the points. */
static int frontier_plot(const so_htables *t, size_t first, const char *dir,
                         const char *ext, char *base, size_t size, so_error *err)
{
    const so_hrow *r0 = t->cells[first].row;
    char safe[200];
    so_hplot_safe_name(safe, sizeof safe, r0->instance);
    snprintf(base, size, "frontier-%s-%.8s", safe, r0->hash);
    size_t max = t->n_cells - first;
    so_hseries *s = calloc(max + 1, sizeof *s);
    int *exact = calloc(max + 1, sizeof *exact);
    char lx[64] = "makespan", ly[64] = "budget"; /* [x, y] points: pareto's */
    size_t n = 0;
    int rc = s && exact ? SO_OK : SO_ENOMEM;
    /* the exact frontiers first: the solid line of the first style */
    for (int pass = 0; !rc && pass < 2; pass++)
        for (size_t i = first; !rc && i < t->n_cells; i++) {
            const so_hrow *r = t->cells[i].row;
            if (strcmp(r->hash, r0->hash) || r->rep != 0 || !r->frontier ||
                (r->exact != 0) == pass)
                continue;
            json_t *f = json_loads(r->frontier, 0, NULL);
            size_t k;
            json_t *p;
            json_array_foreach(f, k, p) {
                double x, y;
                const char *kx = NULL, *ky = NULL;
                if (!rc && point(p, &x, &y, &kx, &ky)) {
                    rc = so_hseries_add(&s[n], x, y);
                    if (kx && ky) { /* the labels live in f: copied before it goes */
                        snprintf(lx, sizeof lx, "%s", kx);
                        snprintf(ly, sizeof ly, "%s", ky);
                    }
                }
            }
            json_decref(f);
            if (s[n].n) {
                snprintf(s[n].name, sizeof s[n].name, "%s%s", r->backend,
                         r->exact ? " (exact)" : "");
                exact[n++] = r->exact;
            }
        }
    char *dat = NULL, *gp = NULL;
    size_t dlen = 0, glen = 0;
    FILE *g = NULL, *d = NULL;
    if (!rc && n && so_hplot_open_pair(&d, &dat, &dlen, &g, &gp, &glen))
        rc = SO_ENOMEM;
    if (rc || !n) {
        so_hseries_free(s, max + 1);
        free(exact);
        return rc;
    }
    char title[400];
    snprintf(title, sizeof title, "Pareto frontiers of %s", r0->instance);
    so_hplot_header(g, ext, base, 800, 500, title);
    so_gp_label(g, "x", so_hplot_label(r0->family, lx));
    so_gp_label(g, "y", so_hplot_label(r0->family, ly));
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    so_hseries_range(s, n, 0, &xlo, &xhi);
    so_hseries_range(s, n, 1, &ylo, &yhi);
    so_gp_range(g, "x", xlo, xhi, 0);
    so_gp_range(g, "y", ylo, yhi, 0);
    fputs("set key top right\nset grid\n", g);
    for (size_t k = 0; k < n; k++) {
        so_hseries_block(d, &s[k]);
        char t2[300];
        so_hseries_title(t2, sizeof t2, s, k, 0);
        /* steps and points drawn apart; one key entry shows both */
        const char *lw = exact[k] ? "2.5" : "1.2";
        fprintf(g, "%s'%s.dat' index %zu with steps lw %s", k ? ", \\\n    " : "plot ", base,
                k, lw);
        so_gp_style(g, (int)k);
        fprintf(g, " notitle, \\\n    '%s.dat' index %zu with points ps 0.8", base, k);
        so_gp_style(g, (int)k);
        fprintf(g, " notitle, \\\n    NaN with linespoints lw %s", lw);
        so_gp_style(g, (int)k);
        fputs(" title '", g);
        so_gp_put_quoted(g, t2);
        fputc('\'', g);
    }
    fputc('\n', g);
    fclose(d);
    so_hseries_free(s, max + 1);
    free(exact);
    return so_hplot_finish(dir, base, g, &gp, &glen, dat, dlen, 1, err);
}

int so_harness_plot(const so_htables *t, const char *dir, int *plotted,
                    int *skipped, so_error *err)
{
    return so_harness_plot_ext(t, dir, "svg", plotted, skipped, err);
}

/* Moves the data and scripts (.dat, .gp) of the private folder into dir
 * (publish) or drops them, removes what else is there (a plot gnuplot left)
 * and the folder; SO_EIO naming the file when a rename fails. */
static int leave_work(const char *work, const char *dir, int publish, so_error *err)
{
    DIR *d = opendir(work);
    int rc = SO_OK;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char from[4400], to[4400];
        snprintf(from, sizeof from, "%s/%s", work, e->d_name);
        snprintf(to, sizeof to, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        int keep = publish && !rc &&
                   ((n > 4 && !strcmp(e->d_name + n - 4, ".dat")) ||
                    (n > 3 && !strcmp(e->d_name + n - 3, ".gp")));
        if (keep && rename(from, to) != 0) {
            so_error_setf(err, to, 0, 0, NULL, "cannot write: %s", strerror(errno));
            rc = SO_EIO;
        }
        if (!keep || rc)
            unlink(from);
    }
    if (d)
        closedir(d);
    rmdir(work);
    return rc;
}

int so_harness_plot_ext(const so_htables *t, const char *dir, const char *ext,
                        int *plotted, int *skipped, so_error *err)
{
    *plotted = 0;
    *skipped = !so_gp_available();
    char work[4096];
    snprintf(work, sizeof work, "%s/.slotopt-plot-XXXXXX", dir);
    if (!mkdtemp(work)) {
        so_error_setf(err, dir, 0, 0, NULL, "cannot create a folder in it: %s",
                      strerror(errno));
        return SO_EIO;
    }
    char (*bases)[300] = calloc(2 * (t->n_cells + t->n_sums) + 2, sizeof *bases);
    if (!bases) {
        leave_work(work, dir, 0, err);
        return SO_ENOMEM;
    }
    size_t nb = 0;
    int rc = SO_OK;
    for (size_t s = 0; rc >= 0 && s < t->n_sums; s++) {
        int first = 1;
        for (size_t k = 0; k < s && first; k++)
            first = strcmp(t->sums[k].problem, t->sums[s].problem) != 0;
        if (first && (rc = gaps_plot(t, t->sums[s].problem, work, ext, bases[nb], 300, err)) > 0)
            nb++;
    }
    if (rc >= 0) {
        int k = so_harness_plot_sim(t, work, ext, bases + nb,
                                    2 * (t->n_cells + t->n_sums) + 2 - nb, err);
        if (k < 0)
            rc = k;
        else
            nb += (size_t)k;
    }
    /* the rows of an instance are adjacent (cells come instance by instance) */
    const char *last = NULL;
    for (size_t i = 0; rc >= 0 && i < t->n_cells; i++) {
        const so_hrow *r = t->cells[i].row;
        if (!r->frontier || r->rep != 0 || (last && !strcmp(last, r->hash)))
            continue;
        last = r->hash;
        if ((rc = frontier_plot(t, i, work, ext, bases[nb], 300, err)) > 0)
            nb++;
    }
    for (size_t k = 0; rc >= 0 && !*skipped && k < nb; k++)
        if ((rc = draw(work, dir, bases[k], ext, err)) == SO_OK)
            ++*plotted;
    free(bases);
    /* what was written is kept even when gnuplot failed (to debug it) */
    so_error first = *err;
    int moved = leave_work(work, dir, 1, err);
    if (rc < 0) {
        *err = first;
        return rc;
    }
    return moved;
}

int so_hplot_draw(const char *dir, const char *base, const char *ext, int *skipped,
                  so_error *err)
{
    *skipped = !so_gp_available();
    if (*skipped)
        return SO_OK;
    /* drawn in a private folder, as so_harness_plot_ext does: gnuplot's
     * BASE.EXT.tmp never goes through a link planted in dir */
    char work[4096];
    snprintf(work, sizeof work, "%s/.slotopt-plot-XXXXXX", dir);
    if (!mkdtemp(work)) {
        so_error_setf(err, dir, 0, 0, NULL, "cannot create a folder in it: %s",
                      strerror(errno));
        return SO_EIO;
    }
    int rc = SO_OK;
    static const char *const kinds[] = {"dat", "gp"};
    for (int k = 0; k < 2 && !rc; k++) {
        char from[4400], to[4400];
        snprintf(from, sizeof from, "%s/%s.%s", dir, base, kinds[k]);
        snprintf(to, sizeof to, "%s/%s.%s", work, base, kinds[k]);
        if (rename(from, to) != 0 && errno != ENOENT) {
            so_error_setf(err, from, 0, 0, NULL, "cannot move: %s", strerror(errno));
            rc = SO_EIO;
        }
    }
    if (!rc)
        rc = draw(work, dir, base, ext, err);
    so_error first = *err;
    int moved = leave_work(work, dir, 1, err);
    if (rc) {
        *err = first;
        return rc;
    }
    return moved;
}
