/* frontier_plot.c — `slotopt frontier --plot` (frontier_plot.h). The
 * ranges are those of the frontier points with a little room
 * (so_gp_range): the window can be far larger than the frontiers (yahoo-10:
 * budgets up to $1,000, frontiers near $360), so it is shaded only where it
 * meets the plotted area, and its bounds are written in the key. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "formulations/common/gnuplot.h"
#include "formulations/common/scratch.h"
#include "tools/cli/frontier_plot.h"
#include "tools/output/output_format.h"

static json_t *points_of(json_t *res)
{
    return json_object_get(json_object_get(res, "solution"), "points");
}

int so_frontier_plot_data(json_t *all, const char *dir, so_error *err)
{
    size_t i, k;
    json_t *res, *pt;
    json_array_foreach(json_object_get(all, "frontiers"), i, res) {
        char data[4200];
        snprintf(data, sizeof data, "%s/f%zu.dat", dir, i);
        FILE *fp = fopen(data, "w");
        if (!fp) {
            so_error_setf(err, data, 0, 0, NULL, "cannot write: %s", strerror(errno));
            return SO_EIO;
        }
        json_array_foreach(points_of(res), k, pt)
            fprintf(fp, "%.17g %.17g\n", json_number_value(json_object_get(pt, "makespan")),
                    json_number_value(json_object_get(pt, "budget")));
        if (fclose(fp)) {
            so_error_setf(err, data, 0, 0, NULL, "cannot write: %s", strerror(errno));
            return SO_EIO;
        }
    }
    return SO_OK;
}

/* A window edge inside the padded range [lo, hi]: "first V"; else the
 * graph's edge. */
static void edge(char *out, size_t size, double v, double lo, double hi, const char *beyond)
{
    if (isfinite(v) && v > lo && v < hi)
        snprintf(out, size, "first %.17g", v);
    else
        snprintf(out, size, "%s", beyond);
}

void so_frontier_plot_script(FILE *gp, json_t *all, const so_frontier_window *win,
                             const char *dir, const char *kind, const char *out)
{
    char title[400];
    snprintf(title, sizeof title, "Pareto frontiers of %s",
             json_string_value(json_object_get(all, "instance")));
    so_gp_header(gp, kind, out, 900, 600, title);
    so_gp_label(gp, "x", "makespan (s)");
    so_gp_label(gp, "y", "budget ($)");
    fputs("set key top right\nset grid\n", gp);
    /* the ranges of the points */
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    size_t i, k;
    json_t *res, *pt;
    json_array_foreach(json_object_get(all, "frontiers"), i, res)
        json_array_foreach(points_of(res), k, pt) {
            double x = json_number_value(json_object_get(pt, "makespan"));
            double y = json_number_value(json_object_get(pt, "budget"));
            xlo = fmin(xlo, x), xhi = fmax(xhi, x);
            ylo = fmin(ylo, y), yhi = fmax(yhi, y);
        }
    int any = isfinite(xlo) && isfinite(ylo);
    double pxlo = 0, pxhi = 1, pylo = 0, pyhi = 1;
    if (any) {
        so_gp_padded(xlo, xhi, 0, &pxlo, &pxhi);
        so_gp_padded(ylo, yhi, 0, &pylo, &pyhi);
        so_gp_range(gp, "x", xlo, xhi, 0);
        so_gp_range(gp, "y", ylo, yhi, 0);
    }
    /* the window where it meets the plot: x up to the deadline, y between
     * the budgets */
    char x1[64], y0[64], y1[64];
    edge(x1, sizeof x1, win->deadline, pxlo, pxhi, "graph 1");
    edge(y0, sizeof y0, win->budget_min, pylo, pyhi, "graph 0");
    edge(y1, sizeof y1, win->budget_max, pylo, pyhi, "graph 1");
    int shown = !any || ((!isfinite(win->deadline) || win->deadline > pxlo) &&
                         win->budget_min < pyhi &&
                         (!isfinite(win->budget_max) || win->budget_max > pylo));
    if (shown)
        fprintf(gp, "set object 1 rect from graph 0, %s to %s, %s behind "
                    "fillcolor rgb '#dcecdc' fillstyle solid 1.0 noborder\n", y0, x1, y1);
    char wt[200], dl[64] = "";
    if (isfinite(win->deadline))
        snprintf(dl, sizeof dl, ", makespan <= %g s", win->deadline);
    if (isfinite(win->budget_max))
        snprintf(wt, sizeof wt, "window: $%g to $%g%s%s", win->budget_min, win->budget_max, dl,
                 shown ? "" : " (outside the plot)");
    else
        snprintf(wt, sizeof wt, "window: from $%g%s%s", win->budget_min, dl,
                 shown ? "" : " (outside the plot)");
    fputs("plot NaN with boxes fillcolor rgb '#dcecdc' fillstyle solid 1.0 noborder title '", gp);
    so_gp_put_quoted(gp, wt);
    fputc('\'', gp);
    /* exact frontiers first, so that they get the first (solid) style */
    int style = 0;
    for (int pass = 0; pass < 2; pass++)
        json_array_foreach(json_object_get(all, "frontiers"), i, res) {
            int exact = json_is_true(json_object_get(res, "exact"));
            if (exact != !pass)
                continue;
            const char *backend = json_string_value(json_object_get(res, "backend"));
            char data[4200];
            snprintf(data, sizeof data, "%s/f%zu.dat", dir, i);
            fputs(", \\\n  '", gp);
            so_gp_put_quoted(gp, data);
            fprintf(gp, "' using 1:2 with steps lw %s", exact ? "2.5" : "1.2");
            so_gp_style(gp, style);
            if (exact) {
                fputs(" title '", gp);
                so_gp_put_quoted(gp, backend);
                fputs(" (exact)'", gp);
            } else {
                fputs(" notitle, \\\n  '", gp);
                so_gp_put_quoted(gp, data);
                fputs("' using 1:2 with points ps 0.8", gp);
                so_gp_style(gp, style);
                fputs(" notitle, \\\n  NaN with linespoints lw 1.2 ps 0.8", gp);
                so_gp_style(gp, style);
                fputs(" title '", gp);
                so_gp_put_quoted(gp, backend);
                fputc('\'', gp);
            }
            style++;
        }
    fputs("\n", gp);
}

int so_frontier_plot(json_t *all, const so_frontier_window *win, const char *path,
                     so_error *err)
{
    const char *kind = strcmp(path, "-") ? path : "stdout.svg";
    if (so_gp_check_path(kind, err))
        return SO_EINVAL;
    if (!so_gp_available()) {
        fprintf(stderr, "slotopt frontier: %s is not installed; plot %s skipped\n",
                so_gp_program(), path);
        return SO_OK;
    }
    char dir[4096];
    if (so_scratch_folder(dir, sizeof dir, "slotopt-plot", err))
        return SO_EIO;
    char tmp[4200], script[4200];
    snprintf(tmp, sizeof tmp, "%s/plot.out", dir);
    snprintf(script, sizeof script, "%s/plot.gp", dir);
    int rc = so_frontier_plot_data(all, dir, err);
    FILE *gp = rc ? NULL : fopen(script, "w");
    if (!rc && !gp) {
        so_error_setf(err, script, 0, 0, NULL, "cannot write: %s", strerror(errno));
        rc = SO_EIO;
    }
    if (gp) {
        so_frontier_plot_script(gp, all, win, dir, kind, tmp);
        if (fclose(gp)) {
            so_error_setf(err, script, 0, 0, NULL, "cannot write the plot script");
            rc = SO_EIO;
        }
    }
    if (!rc)
        rc = so_gp_run(NULL, script, path, err);
    if (!rc)
        rc = so_copy_to_output(tmp, path, err);
    unlink(tmp);
    size_t count = json_array_size(json_object_get(all, "frontiers"));
    for (size_t i = 0; i < count; i++) {
        char data[4200];
        snprintf(data, sizeof data, "%s/f%zu.dat", dir, i);
        unlink(data);
    }
    unlink(script);
    rmdir(dir);
    return rc;
}
