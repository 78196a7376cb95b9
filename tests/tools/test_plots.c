/* test_plots.c — issue 29 item 5, plots fit for a paper, read in the
 * gnuplot scripts slotopt writes: every curve its own dash and point type,
 * curves that coincide say so in the key, the reference is a guide line
 * and not a curve against itself, ranges come from the data (the frontier
 * plot's from its points, not from the instance's window), axes carry
 * labels with units, legends carry names as written. */
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/common/gnuplot.h"
#include "tests/test_util.h"
#include "tools/cli/frontier_plot.h"
#include "tools/harness/harness.h"

/* The [lo:hi] of "set AXISrange [lo:hi]" in script; 0 when absent. */
static int range_of(const char *script, const char *axis, double *lo, double *hi)
{
    char key[32];
    snprintf(key, sizeof key, "set %srange [", axis);
    const char *p = strstr(script, key);
    return p && sscanf(p + strlen(key), "%lf:%lf]", lo, hi) == 2;
}

/* How many lines of script hold needle. */
static int lines_with(const char *script, const char *needle)
{
    int n = 0;
    for (const char *p = script; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* 1 when the "dt D pt P" pairs of the entries holding "index K" differ
 * for K = 0..n-1. */
static int styles_differ(const char *script, int n)
{
    int dts[16], pts[16];
    for (int k = 0; k < n && k < 16; k++) {
        char needle[32];
        snprintf(needle, sizeof needle, "index %d ", k);
        const char *p = strstr(script, needle);
        const char *dt = p ? strstr(p, " dt ") : NULL, *pt = p ? strstr(p, " pt ") : NULL;
        if (!dt || !pt)
            return 0;
        dts[k] = atoi(dt + 4);
        pts[k] = atoi(pt + 4);
        for (int j = 0; j < k; j++)
            if (dts[j] == dts[k] || pts[j] == pts[k])
                return 0;
    }
    return 1;
}

static void test_style_and_range(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    for (int k = 0; k < 5; k++) {
        fprintf(fp, "plot 'x' index %d with lines", k);
        so_gp_style(fp, k);
        fputc('\n', fp);
    }
    fclose(fp);
    CU_ASSERT_TRUE(styles_differ(buf, 5));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "index 0 with lines lc rgb '#0072B2' dt 1 pt 6\n"));
    free(buf);
    /* 4 % of the span on each side; a flat range 4 % of its value */
    double lo, hi;
    buf = NULL;
    fp = open_memstream(&buf, &len);
    so_gp_range(fp, "y", 350, 400, 0);
    so_gp_range(fp, "x", 2, 2, 0);
    so_gp_range(fp, "z", NAN, 1, 0);
    fclose(fp);
    CU_ASSERT_TRUE(range_of(buf, "y", &lo, &hi) && lo == 348 && hi == 402);
    CU_ASSERT_TRUE(range_of(buf, "x", &lo, &hi) && fabs(lo - 1.92) < 1e-12 &&
                   fabs(hi - 2.08) < 1e-12);
    CU_ASSERT_PTR_NULL(strstr(buf, "zrange"));
    free(buf);
    double ax[] = {0, 1}, ay[] = {1, 1}, by[] = {1, 1 + 1e-12}, cy[] = {1, 1.001};
    CU_ASSERT_TRUE(so_gp_same(ax, ay, 2, ax, by, 2));
    CU_ASSERT_FALSE(so_gp_same(ax, ay, 2, ax, cy, 2));
    CU_ASSERT_FALSE(so_gp_same(ax, ay, 2, ax, ay, 1));
}

/* Every key a plot can show has a label with its unit. */
static void test_labels(void)
{
    CU_ASSERT_STRING_EQUAL(so_hplot_label(NULL, "mean_response"), "mean response time (s)");
    CU_ASSERT_STRING_EQUAL(so_hplot_label("flex-cluster", "lambda"),
                           "mean inter-arrival time (min)");
    CU_ASSERT_STRING_EQUAL(so_hplot_label("stealing-paper", "tasks"),
                           "tasks of the job's main phase");
    CU_ASSERT_STRING_EQUAL(so_hplot_label("flex-paper", "tasks"),
                           "slot demand of a small job (slot-time units)");
    CU_ASSERT_STRING_EQUAL(so_hplot_label(NULL, "no-such-key"), "no-such-key");
    CU_ASSERT_PTR_NULL(so_hplot_label_known(NULL, "no-such-key"));
    static const char *const metrics[] = {"mean_response", "p95_response", "max_response",
                                          "makespan", "budget"};
    for (size_t i = 0; i < sizeof metrics / sizeof *metrics; i++)
        CU_ASSERT_PTR_NOT_NULL(strchr(so_hplot_label(NULL, metrics[i]), '('));
    size_t missing = 0;
    for (size_t f = 0; f < so_family_count(); f++) {
        const so_family *fam = so_family_at(f);
        for (const so_option_doc *d = fam->params; d && d->key; d++)
            if (!so_hplot_label_known(fam->name, d->key)) {
                fprintf(stderr, "no plot label for %s's --set %s\n", fam->name, d->key);
                missing++;
            }
    }
    CU_ASSERT_EQUAL(missing, 0);
}

/* The frontier plot: ranges from the points (yahoo-10's window reaches
 * $1,000 while its frontiers stay near $360), the window's bounds in the
 * key, the exact frontier first and solid, every curve its own dash. */
static void test_frontier_script(void)
{
    json_t *all = json_pack(
        "{ss s[{ss sb s{s[{sfsf}{sfsf}]}} {ss sb s{s[{sfsf}{sfsf}]}}]}", "instance",
        "yahoo-like", "frontiers", "backend", "pareto-slots", "exact", 0, "solution",
        "points", "makespan", 3000.0, "budget", 395.0, "makespan", 3100.0, "budget", 392.0,
        "backend", "pareto-sweep", "exact", 1, "solution", "points", "makespan", 3000.0,
        "budget", 367.0, "makespan", 4000.0, "budget", 357.0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(all);
    so_frontier_window win = {0, 1000, 4000};
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    so_frontier_plot_script(fp, all, &win, "/tmp/d", "f.png", "f.out");
    fclose(fp);
    double lo, hi;
    CU_ASSERT_TRUE(range_of(buf, "y", &lo, &hi) && fabs(lo - 355.48) < 1e-9 &&
                   fabs(hi - 396.52) < 1e-9);
    CU_ASSERT_TRUE(range_of(buf, "x", &lo, &hi) && lo == 2960 && hi == 4040);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "set xlabel 'makespan (s)'\nset ylabel 'budget ($)'\n"));
    /* the window: x to the deadline (inside), y from edge to edge (outside) */
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "rect from graph 0, graph 0 to first 4000, graph 1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "title 'window: $0 to $1000, makespan <= 4000 s'"));
    const char *ex = strstr(buf, "f1.dat' using 1:2 with steps lw 2.5 lc rgb '#0072B2' dt 1");
    const char *he = strstr(buf, "f0.dat' using 1:2 with steps lw 1.2 lc rgb '#D55E00' dt 2");
    CU_ASSERT_TRUE(ex && he && ex < he);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "title 'pareto-sweep (exact)'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "pt 4 title 'pareto-slots'"));
    free(buf);
    json_decref(all);
}

/* report --plot on the gallery's FLEX scenario: the reference is not a
 * curve, flex lies on it and says so, styles differ, x is labelled, the y
 * range is that of the means. */
static void test_report_gap_plot(void)
{
    char db[600], dir[700], args[2000], path[800];
    snprintf(db, sizeof db, "%s/plots-flex.db", so_test_tmpdir());
    snprintf(dir, sizeof dir, "%s/plots-flex", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --scenario gallery-flex --db %s", db);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
    setenv("SLOTOPT_GNUPLOT", "/nonexistent/gnuplot", 1);
    snprintf(args, sizeof args, "report --db %s --plot %s", db, dir);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    snprintf(path, sizeof path, "%s/gaps-flex.gp", dir);
    char *gp = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(gp);
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set xlabel 'fraction of small jobs'\n"));
    CU_ASSERT_EQUAL(lines_with(gp, " index "), 4); /* fair, fifo, flex, flex-generic */
    CU_ASSERT_PTR_NULL(strstr(gp, "title 'flex-exact'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "1 with lines lc rgb '#777777' dt 3 lw 1.5 title "
                                      "'flex-exact (reference)'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "title 'flex (= reference)'"));
    CU_ASSERT_TRUE(styles_differ(gp, 4));
    /* the y range: the means and 1, padded by 4 % of their span */
    snprintf(path, sizeof path, "%s/gaps-flex.dat", dir);
    char *dat = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dat);
    double ylo = 1, yhi = 1, x, y, lo, hi;
    for (char *line = dat; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (sscanf(line, "%lf %lf", &x, &y) == 2)
            ylo = fmin(ylo, y), yhi = fmax(yhi, y);
    CU_ASSERT_TRUE(yhi > 1.5); /* fifo and fair are far from the optimum */
    CU_ASSERT_TRUE(range_of(gp, "y", &lo, &hi) &&
                   fabs(lo - (ylo - 0.04 * (yhi - ylo))) < 1e-6 &&
                   fabs(hi - (yhi + 0.04 * (yhi - ylo))) < 1e-6);
    CU_ASSERT_TRUE(range_of(gp, "x", &lo, &hi) && fabs(lo + 0.032) < 1e-9 &&
                   fabs(hi - 0.832) < 1e-9);
    free(dat);
    free(gp);
    unsetenv("SLOTOPT_GNUPLOT");
}

/* A scenario figure and the simulation plots: labels with units, names as
 * written ("wpbs (1 user)", "fair+steal+base"), dash types per curve. */
static void test_scenario_and_sim_plots(void)
{
    char db[600], dir[700], args[2000], path[1200];
    setenv("SLOTOPT_GNUPLOT", "/nonexistent/gnuplot", 1);
    snprintf(db, sizeof db, "%s/plots-fc.db", so_test_tmpdir());
    snprintf(dir, sizeof dir, "%s/plots-fc", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --scenario flex-cluster --quick --db %s", db);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "report --scenario flex-cluster --quick --db %s --plot %s", db,
             dir);
    so_test_run(args, NULL, NULL);
    snprintf(path, sizeof path, "%s/scenario-flex-cluster-1.gp", dir);
    char *gp = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(gp);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(gp, "set xlabel 'slack (share of the slots above the minima)'\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set ylabel 'mean response time (s)'\n"));
    CU_ASSERT_EQUAL(lines_with(gp, "with yerrorlines"), 3);
    CU_ASSERT_TRUE(styles_differ(gp, 3));
    CU_ASSERT_PTR_NULL(strstr(gp, "set yrange [0:*]"));
    free(gp);

    snprintf(db, sizeof db, "%s/plots-swim.db", so_test_tmpdir());
    snprintf(dir, sizeof dir, "%s/plots-swim", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --scenario swim-fb2009 --quick --db %s", db);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "report --db %s --plot %s", db, dir);
    CU_ASSERT_EQUAL(so_test_run(args, NULL, NULL), 0);
    snprintf(path, sizeof path, "%s/sim-metric.gp", dir);
    gp = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(gp);
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set ylabel 'mean response time (s)'\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "title 'wpbs (1 user)'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "title 'fair+steal+base'"));
    free(gp);
    /* the CDF of the one group (the workload) */
    DIR *d = opendir(dir);
    struct dirent *e;
    path[0] = '\0';
    while (d && (e = readdir(d)))
        if (!strncmp(e->d_name, "sim-cdf-", 8) && strstr(e->d_name, ".gp"))
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (d)
        closedir(d);
    gp = path[0] ? so_test_slurp(path) : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(gp);
    /* its CDF is fair's: the key says so */
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "title 'wpbs (1 user) (= fair)'"));
    CU_ASSERT_PTR_NULL(strstr(gp, "wpbs__1_user_"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set xlabel 'response time (s)'\n"));
    CU_ASSERT_TRUE(styles_differ(gp, 3));
    free(gp);
    unsetenv("SLOTOPT_GNUPLOT");
}

static CU_TestInfo tests[] = {
    {"style, range, same", test_style_and_range},
    {"labels for every key", test_labels},
    {"frontier: ranges from the points", test_frontier_script},
    {"report gap plot: reference, coincidence", test_report_gap_plot},
    {"scenario figure and simulation plots", test_scenario_and_sim_plots},
    CU_TEST_INFO_NULL,
};
SO_SUITE("plots", tests)
