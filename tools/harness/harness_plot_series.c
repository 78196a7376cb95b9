/* harness_plot_series.c — the curves of a plot as the report's plots draw
 * them: each a data block of BASE.dat and one entry of the plot command
 * with its own colour, dash type and point type (so_gp_style), titled by
 * its name as written (quoted, never turned into an identifier); a curve
 * that lies on an earlier one at every point, or on the reference, says
 * so in its legend entry ("flex-generic (= flex)", "flex (= reference)"),
 * so that lines drawn over each other are not lost. No curve is moved. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/common/gnuplot.h"
#include "tools/harness/harness.h"

int so_hseries_add(so_hseries *s, double x, double y)
{
    if (s->n == s->cap) {
        size_t c = s->cap ? 2 * s->cap : 16;
        double *nx = realloc(s->x, c * sizeof *nx);
        if (!nx)
            return SO_ENOMEM;
        s->x = nx;
        double *ny = realloc(s->y, c * sizeof *ny);
        if (!ny)
            return SO_ENOMEM;
        s->y = ny;
        s->cap = c;
    }
    s->x[s->n] = x;
    s->y[s->n++] = y;
    return SO_OK;
}

void so_hseries_free(so_hseries *s, size_t n)
{
    for (size_t k = 0; s && k < n; k++) {
        free(s[k].x);
        free(s[k].y);
    }
    free(s);
}

void so_hseries_block(FILE *d, const so_hseries *s)
{
    fputs("# ", d);
    so_gp_put_quoted(d, s->name);
    fputc('\n', d);
    for (size_t i = 0; i < s->n; i++)
        fprintf(d, "%.12g %.12g\n", s->x[i], s->y[i]);
    fputs("\n\n", d);
}

void so_hseries_title(char *out, size_t size, const so_hseries *s, size_t k, int at_ref)
{
    for (size_t j = 0; j < k; j++)
        if (so_gp_same(s[j].x, s[j].y, s[j].n, s[k].x, s[k].y, s[k].n)) {
            snprintf(out, size, "%s (= %s)", s[k].name, s[j].name);
            return;
        }
    snprintf(out, size, at_ref ? "%s (= reference)" : "%s", s[k].name);
}

int so_hseries_at(const so_hseries *s, int on_y, double v)
{
    const double *a = on_y ? s->y : s->x;
    for (size_t i = 0; i < s->n; i++)
        if (!so_gp_same(&a[i], &a[i], 1, &v, &v, 1))
            return 0;
    return s->n > 0;
}

void so_hseries_range(const so_hseries *s, size_t n, int on_y, double *lo, double *hi)
{
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < s[k].n; i++) {
            double v = on_y ? s[k].y[i] : s[k].x[i];
            if (isfinite(v)) {
                *lo = fmin(*lo, v);
                *hi = fmax(*hi, v);
            }
        }
}

void so_hseries_entry(FILE *c, size_t k, const char *base, const char *with,
                      const char *title)
{
    fprintf(c, "%s'%s.dat' index %zu with %s", k ? ", \\\n    " : "plot ", base, k, with);
    so_gp_style(c, (int)k);
    fputs(" title '", c);
    so_gp_put_quoted(c, title);
    fputc('\'', c);
}
