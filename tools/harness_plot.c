/* harness_plot.c — gnuplot plots of a results database: the distribution
 * (empirical CDF) of each backend's ratio to the reference, per problem
 * kind, and the stored frontiers of each frontier instance (repetition 0),
 * one curve per backend. Data and scripts are written first (atomically),
 * then gnuplot draws each svg; without gnuplot the scripts stay for later. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/harness.h"

static const char *gnuplot_program(void)
{
    const char *g = getenv("SLOTOPT_GNUPLOT");
    return g && *g ? g : "gnuplot";
}

static int have_program(const char *prog)
{
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char buf[4096];
    while (*path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, prog);
        if (n && access(buf, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

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

/* An axis label for a single-quoted gnuplot string. */
static void label(char *out, size_t size, const char *in)
{
    snprintf(out, size, "%s", in);
    for (char *c = out; *c; c++)
        if (*c == '\'' || *c == '\\')
            *c = '_';
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

/* Runs gnuplot on DIR/BASE.gp, which draws BASE.svg.tmp; copies it onto
 * BASE.svg by so_copy_to_output (a link or FIFO there is kept). */
static int draw(const char *dir, const char *base, so_error *err)
{
    char script[1024], tmp[4096], svg[4096];
    snprintf(script, sizeof script, "%s.gp", base);
    snprintf(tmp, sizeof tmp, "%s/%s.svg.tmp", dir, base);
    snprintf(svg, sizeof svg, "%s/%s.svg", dir, base);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        so_error_setf(err, NULL, 0, 0, NULL, "fork: %s", strerror(errno));
        return SO_EIO;
    }
    if (pid == 0) {
        if (chdir(dir) == 0 && freopen("/dev/null", "w", stdout))
            execlp(gnuplot_program(), gnuplot_program(), script, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        unlink(tmp);
        so_error_setf(err, svg, 0, 0, NULL, "gnuplot failed on %s/%s", dir, script);
        return SO_EIO;
    }
    int rc = so_copy_to_output(tmp, svg, err);
    unlink(tmp);
    return rc;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
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

/* Returns 1 when a plot was written, 0 when there is nothing to plot. */
static int gaps_plot(const so_htables *t, const char *problem, const char *dir,
                     char *base, size_t size, so_error *err)
{
    char safe[128];
    so_hplot_safe_name(safe, sizeof safe, problem);
    snprintf(base, size, "gaps-%s", safe);
    char *dat = NULL, *cmd = NULL, *gp = NULL;
    size_t dlen = 0, clen = 0, glen = 0;
    FILE *d = open_memstream(&dat, &dlen), *c = open_memstream(&cmd, &clen);
    double *r = malloc((t->n_cells ? t->n_cells : 1) * sizeof *r);
    double lo = INFINITY, hi = -INFINITY;
    int block = 0;
    for (size_t s = 0; d && c && r && s < t->n_sums; s++) {
        const so_hsummary *sum = &t->sums[s];
        int first = 1;
        for (size_t k = 0; k < s && first; k++)
            first = strcmp(t->sums[k].problem, problem) || strcmp(t->sums[k].backend, sum->backend);
        if (strcmp(sum->problem, problem) || !first)
            continue;
        size_t m = 0;
        for (size_t i = 0; i < t->n_cells; i++)
            if (!strcmp(t->cells[i].row->problem, problem) &&
                !strcmp(t->cells[i].row->backend, sum->backend) &&
                isfinite(t->cells[i].gap.ratio))
                r[m++] = t->cells[i].gap.ratio;
        if (!m)
            continue;
        qsort(r, m, sizeof *r, cmp_double);
        lo = fmin(lo, r[0]);
        hi = fmax(hi, r[m - 1]);
        fprintf(d, "# %s\n%.12g 0\n", sum->backend, r[0]);
        for (size_t i = 0; i < m; i++)
            fprintf(d, "%.12g %.12g\n", r[i], (double)(i + 1) / (double)m);
        fprintf(d, "\n\n");
        char sb[128];
        so_hplot_safe_name(sb, sizeof sb, sum->backend);
        fprintf(c, "%s'%s.dat' index %d with steps lw 2 title '%s'",
                block ? ", \\\n    " : "plot ", base, block, sb);
        block++;
    }
    free(r);
    if (d)
        fclose(d);
    if (c)
        fclose(c);
    FILE *g = d && c ? open_memstream(&gp, &glen) : NULL;
    if (!g) {
        free(dat);
        free(cmd);
        return SO_ENOMEM;
    }
    double pad = fmax(0.01, 0.05 * (hi - lo));
    fprintf(g, "set terminal svg size 800,500 dynamic\nset output '%s.svg.tmp'\n"
               "set title '%s: ratio to the reference (empirical CDF)'\n"
               "set xlabel 'ratio to the reference (1 = as good, > 1 worse)'\n"
               "set ylabel 'fraction of cells'\nset key bottom right\n"
               "set yrange [0:1.05]\nset xrange [%.12g:%.12g]\nset grid\n%s\n",
            base, safe, lo - pad, hi + pad, cmd);
    fclose(g);
    free(cmd);
    if (!block) {
        free(dat);
        free(gp);
        return 0;
    }
    int rc = so_hplot_write_pair(dir, base, dat, dlen, gp, glen, err);
    return rc ? rc : 1;
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

static int frontier_plot(const so_htables *t, size_t first, const char *dir,
                         char *base, size_t size, so_error *err)
{
    const so_hrow *r0 = t->cells[first].row;
    char safe[200];
    so_hplot_safe_name(safe, sizeof safe, r0->instance);
    snprintf(base, size, "frontier-%s-%.8s", safe, r0->hash);
    char *dat = NULL, *gp = NULL;
    size_t dlen = 0, glen = 0;
    FILE *d = open_memstream(&dat, &dlen), *g = open_memstream(&gp, &glen);
    if (!d || !g) {
        if (d)
            fclose(d);
        if (g)
            fclose(g);
        free(dat);
        free(gp);
        return SO_ENOMEM;
    }
    const char *lx = "objective 1", *ly = "objective 2";
    int block = 0;
    char plot[8192] = "";
    size_t plen = 0;
    for (size_t i = first; i < t->n_cells; i++) {
        const so_hrow *r = t->cells[i].row;
        if (strcmp(r->hash, r0->hash) || r->rep != 0 || !r->frontier)
            continue;
        json_t *f = json_loads(r->frontier, 0, NULL);
        size_t k;
        json_t *p;
        int any = 0;
        json_array_foreach(f, k, p) {
            double x, y;
            if (point(p, &x, &y, &lx, &ly)) {
                fprintf(d, "%.12g %.12g\n", x, y);
                any = 1;
            }
        }
        if (any) {
            char sb[128];
            so_hplot_safe_name(sb, sizeof sb, r->backend);
            fprintf(d, "\n\n");
            if (plen < sizeof plot)
                plen += (size_t)snprintf(plot + plen, sizeof plot - plen,
                                         "%s'%s.dat' index %d with linespoints title '%s'",
                                         block ? ", \\\n    " : "plot ", base, block, sb);
            block++;
        }
        /* the labels live in f: write them before it goes */
        if (any && block == 1) {
            char sx[64], sy[64];
            label(sx, sizeof sx, lx);
            label(sy, sizeof sy, ly);
            fprintf(g, "set terminal svg size 800,500 dynamic\nset output '%s.svg.tmp'\n"
                       "set title 'frontiers of %s'\nset xlabel '%s'\nset ylabel '%s'\n"
                       "set key top right\nset grid\n", base, safe, sx, sy);
        }
        json_decref(f);
    }
    fclose(d);
    if (block)
        fprintf(g, "%s\n", plot);
    fclose(g);
    if (!block) {
        free(dat);
        free(gp);
        return 0;
    }
    int rc = so_hplot_write_pair(dir, base, dat, dlen, gp, glen, err);
    return rc ? rc : 1;
}

int so_harness_plot(const so_htables *t, const char *dir, int *plotted,
                    int *skipped, so_error *err)
{
    *plotted = 0;
    *skipped = !have_program(gnuplot_program());
    char (*bases)[300] = calloc(2 * (t->n_cells + t->n_sums) + 2, sizeof *bases);
    if (!bases)
        return SO_ENOMEM;
    size_t nb = 0;
    int rc = SO_OK;
    for (size_t s = 0; rc >= 0 && s < t->n_sums; s++) {
        int first = 1;
        for (size_t k = 0; k < s && first; k++)
            first = strcmp(t->sums[k].problem, t->sums[s].problem) != 0;
        if (first && (rc = gaps_plot(t, t->sums[s].problem, dir, bases[nb], 300, err)) > 0)
            nb++;
    }
    if (rc >= 0) {
        int k = so_harness_plot_sim(t, dir, bases + nb,
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
        if ((rc = frontier_plot(t, i, dir, bases[nb], 300, err)) > 0)
            nb++;
    }
    for (size_t k = 0; rc >= 0 && !*skipped && k < nb; k++)
        if ((rc = draw(dir, bases[k], err)) == SO_OK)
            ++*plotted;
    free(bases);
    return rc < 0 ? rc : SO_OK;
}
