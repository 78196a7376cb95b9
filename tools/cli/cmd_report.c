/* cmd_report.c — `slotopt report`: the tables of a results database again,
 * and gnuplot plots (docs/harness.md). */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tools/cli/cli.h"
#include "tools/harness/harness.h"
#include "tools/harness/harness_table.h"
#include "tools/output/output_format.h"

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: slotopt report [--db FILE] [--format F] [--compact] [--cells]\n"
            "                      [--group-by KEY] [--plot DIR] [--plot-type T]\n"
            "       slotopt report --scenario NAME [--quick] [--db FILE] [--format F]\n"
            "                      [--compact] [--plot DIR] [--plot-type T]\n\n"
            "Prints the gap tables of every cell stored in the database (each\n"
            "problem kind against the reference, and grouped as, its last bench).\n"
            "With --scenario, the table the scenario reproduces instead (its rows,\n"
            "statistic over the seeds, ratio columns and the paper's numbers) from\n"
            "the cells `bench --scenario NAME` stored, and its figure under --plot;\n"
            "exit status 3 when a cell failed, a value is missing or a claim has\n"
            "no data (no row matches its column and rows).\n\n"
            "  --scenario NAME a scenario ('slotopt scenarios')\n"
            "  --quick         its quick form (as 'bench --scenario NAME --quick' ran)\n"
            "  --db FILE       results database (default slotopt-bench.db; a regular\n"
            "                  file: devices, FIFOs and folders are refused)\n"
            "  --format F      table (default), csv, json or markdown\n"
            "  --compact       JSON on one line\n"
            "  --cells         print the per-cell table too\n"
            "  --group-by KEY  one summary row per value of family parameter KEY\n"
            "                  ('' for none; default: as the last bench); an\n"
            "                  unknown KEY is an error listing the accepted ones\n"
            "  --plot DIR      write gnuplot data, scripts and plots to DIR:\n"
            "                  ratio distribution per backend, and frontiers of\n"
            "                  instances whose rows store one (skipped without\n"
            "                  gnuplot; $SLOTOPT_GNUPLOT names another program)\n"
            "  --plot-type T   svg (default), png or pdf\n");
}

/* One table of a scenario: printed, and its figure drawn into plot (base
 * scenario-NAME[-K]). *bad counts failed cells and missing values. */
static int one_table(const so_htable_def *def, const so_hrows *rows, const so_hconfig *cfg,
                     const so_hscenario *sc, const char *name, size_t k, int format,
                     json_t *json, const char *plot, const char *plot_type, size_t *bad,
                     so_error *err)
{
    so_htable t;
    int rc = so_htable_build(def, rows, cfg, sc->reference, &t, err);
    if (rc)
        return rc;
    if (json) {
        json_array_append_new(json, so_htable_json(&t));
    } else {
        if (k)
            printf("\n");
        so_htable_print(stdout, &t, format);
        so_cli_flush_note();
    }
    if (t.failed || t.missing || !t.n_rows) {
        fprintf(stderr, "slotopt report: scenario %s, table %zu: %zu rows, %zu failed cells,"
                " %zu missing values\n", name, k + 1, t.n_rows, t.failed, t.missing);
        ++*bad;
    }
    char prefix[300];
    snprintf(prefix, sizeof prefix, "slotopt report: scenario %s, table %zu", name, k + 1);
    if (so_htable_nodata(&t, stderr, prefix))
        ++*bad;
    if (plot) {
        char base[300], safe[200];
        const char *slash = strrchr(name, '/');
        so_hplot_safe_name(safe, sizeof safe, slash ? slash + 1 : name);
        char *dot = strstr(safe, ".json");
        if (dot)
            *dot = '\0';
        if (sc->n_tables > 1)
            snprintf(base, sizeof base, "scenario-%s-%zu", safe, k + 1);
        else
            snprintf(base, sizeof base, "scenario-%s", safe);
        int drawn = so_htable_plot(&t, plot, base, plot_type, err), skipped = 0;
        if (drawn > 0 && !(rc = so_hplot_draw(plot, base, plot_type, &skipped, err)))
            fprintf(stderr, skipped ? "slotopt report: gnuplot not found: %s skipped"
                                      " (data and script in %s)\n"
                                    : "slotopt report: %s.%s in %s\n", base,
                    skipped ? plot : plot_type, plot);
        else if (drawn < 0)
            rc = drawn;
    }
    so_htable_free(&t);
    return rc;
}

/* --scenario: the scenario's tables from the rows of its policies or
 * backends; exit status 3 when a table has a failed cell or a missing
 * value. */
static int scenario_report(const char *name, int quick, const char *db, int format,
                           const char *plot, const char *plot_type)
{
    char path[PATH_MAX];
    if (so_scenario_find(name, path, sizeof path))
        return so_cli_no_scenario("report", name);
    so_error err;
    so_error_clear(&err);
    so_hconfig cfg;
    so_hconfig_init(&cfg);
    so_hinsts s = {0};
    so_hscenario sc;
    so_hstore *st = NULL;
    so_hrows rows = {0};
    int rc = so_scenario_load(path, quick, &cfg, &s, &sc, &err);
    if (!rc && !sc.n_tables)
        rc = so_error_setf(&err, path, 0, 0, "table", "the scenario defines no table");
    if (!rc)
        rc = so_hstore_open(db, 0, &st, &err);
    /* the cells of this scenario (its inputs x policies x repetitions), not
     * whatever else the database holds */
    so_hcell *all = NULL;
    size_t n_cells = 0;
    if (!rc)
        rc = so_harness_cells(&cfg, &s, &all, &n_cells, &err);
    free(all);
    if (!rc)
        rc = so_harness_select(&cfg, &s, st, &rows, &err);
    so_hinsts_free(&s);
    size_t bad = 0;
    if (!rc && rows.n < n_cells) {
        fprintf(stderr, "slotopt report: scenario %s: %zu of its %zu cells are stored in %s"
                " (run 'slotopt bench --scenario %s%s --db %s')\n", name, rows.n, n_cells, db,
                name, quick ? " --quick" : "", db);
        bad++;
    }
    /* JSON: {"scenario", "tables": [...]}, printed once every table is built */
    json_t *tables = (format & ~SO_HF_COMPACT) == SO_HF_JSON ? json_array() : NULL;
    for (size_t k = 0; !rc && k < sc.n_tables; k++)
        rc = one_table(&sc.tables[k], &rows, &cfg, &sc, name, k, format, tables, plot,
                       plot_type, &bad, &err);
    if (!rc && tables) {
        so_ojson_put(stdout, json_pack("{s:s,s:O}", "scenario", name, "tables", tables),
                     (format & SO_HF_COMPACT) != 0);
        so_cli_flush_note();
    }
    json_decref(tables);
    so_hrows_free(&rows);
    so_hstore_close(st);
    so_hscenario_free(&sc);
    if (rc)
        return so_cli_report_error("report", rc, &err);
    return bad ? SO_EXIT_BACKEND : SO_EXIT_OK;
}

int so_cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, 0, 'd'},
        {"format", required_argument, 0, 'f'},
        {"cells", no_argument, 0, 'c'},
        {"compact", no_argument, 0, 'C'},
        {"group-by", required_argument, 0, 'g'},
        {"plot", required_argument, 0, 'p'},
        {"plot-type", required_argument, 0, 'T'},
        {"scenario", required_argument, 0, 'S'},
        {"quick", no_argument, 0, 'Q'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *db = "slotopt-bench.db", *fmt = "table", *group_by = NULL, *plot = NULL;
    const char *plot_type = "svg", *scenario = NULL;
    int cells = 0, compact = 0, quick = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "d:f:cg:p:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'f': fmt = optarg; break;
        case 'c': cells = 1; break;
        case 'C': compact = 1; break;
        case 'g': group_by = optarg; break;
        case 'p': plot = optarg; break;
        case 'T': plot_type = optarg; break;
        case 'S': scenario = optarg; break;
        case 'Q': quick = 1; break;
        case 'h': help(stdout); return SO_EXIT_OK;
        default: return so_cli_bad_option("report", argv);
        }
    }
    int format = so_hformat_parse(fmt);
    if (format < 0)
        return so_cli_usage_error("report", "--format: expected table, csv, json or markdown, found '%s'", fmt);
    if (strcmp(plot_type, "svg") && strcmp(plot_type, "png") && strcmp(plot_type, "pdf"))
        return so_cli_usage_error("report", "--plot-type: expected svg, png or pdf, found '%s'",
                                  plot_type);
    if (optind != argc)
        return so_cli_usage_error("report", "unexpected argument '%s'", argv[optind]);
    if (quick && !scenario)
        return so_cli_usage_error("report", "--quick needs --scenario");
    if (access(db, R_OK))
        return so_cli_usage_error("report", "cannot read the database %s: %s", db, strerror(errno));
    if (scenario && (group_by || cells))
        return so_cli_usage_error("report", "--scenario takes no --group-by or --cells");
    if (plot && mkdir(plot, 0777) && errno != EEXIST)
        return so_cli_usage_error("report", "cannot create %s: %s", plot, strerror(errno));
    if (compact)
        format |= SO_HF_COMPACT;
    if (scenario)
        return scenario_report(scenario, quick, db, format, plot, plot_type);
    so_error err;
    so_error_clear(&err);
    so_hstore *st = NULL;
    so_hrows rows = {0};
    so_hkinds kinds = {0};
    int rc = so_hstore_open(db, 0, &st, &err);
    if (!rc)
        rc = so_hstore_load(st, &rows, &err);
    if (!rc)
        rc = so_hstore_kinds(st, &kinds, &err);
    if (!rc && rows.n == 0)
        rc = so_error_setf(&err, db, 0, 0, NULL, "no result stored in this database");
    char accepted[1024];
    if (!rc && so_hgroup_key_check(&rows, group_by, accepted, sizeof accepted)) {
        so_hrows_free(&rows);
        so_hkinds_free(&kinds);
        so_hstore_close(st);
        return so_cli_usage_error("report", "--group-by: unknown key '%s'; accepted: %s",
                                  group_by, accepted);
    }
    so_htables t;
    if (!rc && !(rc = so_harness_tables(&rows, &kinds, group_by, &t))) {
        so_harness_print(stdout, &t, format, cells);
        so_cli_flush_note(); /* main checks stdout at exit */
        so_harness_warn(stderr, "report", &t, &kinds);
        int plotted = 0, skipped = 0;
        if (plot)
            rc = so_harness_plot_ext(&t, plot, plot_type, &plotted, &skipped, &err);
        if (!rc && plot && skipped)
            fprintf(stderr, "slotopt report: gnuplot not found: plots skipped"
                            " (data and scripts are in %s)\n", plot);
        else if (!rc && plot)
            fprintf(stderr, "slotopt report: %d plots in %s\n", plotted, plot);
        so_htables_free(&t);
    }
    so_hrows_free(&rows);
    so_hkinds_free(&kinds);
    so_hstore_close(st);
    return rc ? so_cli_report_error("report", rc, &err) : SO_EXIT_OK;
}
