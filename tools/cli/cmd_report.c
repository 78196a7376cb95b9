/* cmd_report.c — `slotopt report`: the tables of a results database again,
 * and gnuplot plots (docs/harness.md). */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/cli/cli_opts.h"
#include "tools/harness/harness.h"
#include "tools/harness/harness_table.h"
#include "tools/output/output_format.h"

static const so_cli_opt opts[] = {
    {"scenario", 'S', 0, "NAME", "a scenario ('slotopt scenarios')"},
    {"quick", 'Q', 0, NULL, "its quick form (as 'bench --scenario NAME --quick' ran)"},
    {"db", 'd', SO_OPT_SHORT, "FILE",
     "results database (default slotopt-bench.db; a regular file: devices, FIFOs and "
     "folders are refused)"},
    SO_CLI_OUTPUT_OPTS,
    {"cells", 'c', SO_OPT_SHORT, NULL, "print the per-cell table too"},
    {"group-by", 'g', SO_OPT_SHORT, "KEY",
     "one summary row per value of family parameter KEY ('' for none; default: as the "
     "last bench); an unknown KEY is an error listing the accepted ones"},
    {"plot", 'p', SO_OPT_SHORT, "DIR",
     "write gnuplot data, scripts and plots to DIR: ratio distribution per backend, "
     "and frontiers of instances whose rows store one (skipped without gnuplot; "
     "$SLOTOPT_GNUPLOT names another program)"},
    {"plot-type", 'T', 0, "T", "svg (default), png or pdf"},
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

const so_cli_spec so_report_spec = {
    "report", NULL,
    "Prints the gap tables of every cell stored in the database (each\n"
    "problem kind against the reference, and grouped as, its last bench).\n"
    "With --scenario, the table the scenario reproduces instead (its rows,\n"
    "statistic over the seeds, ratio columns and the paper's numbers) from\n"
    "the cells `bench --scenario NAME` stored, and its figure under --plot;\n"
    "exit status 3 when a cell failed, a value is missing or a claim has\n"
    "no data (no row matches its column and rows; the tables are still\n"
    "written).\n",
    opts, SO_OF_TABLE | SO_OF_CSV | SO_OF_JSON | SO_OF_MARKDOWN, SO_OF_TABLE, NULL};

/* One table of a scenario: printed, and its figure drawn into plot (base
 * scenario-NAME[-K]). *bad counts failed cells and missing values. */
static int one_table(FILE *fp, const so_htable_def *def, const so_hrows *rows,
                     const so_hconfig *cfg, const so_hscenario *sc, const char *name,
                     size_t k, int format,
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
            fputc('\n', fp);
        so_htable_print(fp, &t, format);
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
static int scenario_report(const char *name, int quick, const char *db, so_cli_out *out,
                           const char *plot, const char *plot_type)
{
    char path[PATH_MAX];
    int format = out->format | (out->compact ? SO_HF_COMPACT : 0);
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
        rc = one_table(out->fp, &sc.tables[k], &rows, &cfg, &sc, name, k, format, tables,
                       plot, plot_type, &bad, &err);
    if (!rc && tables)
        so_ojson_put(out->fp, json_pack("{s:s,s:O}", "scenario", name, "tables", tables),
                     (format & SO_HF_COMPACT) != 0);
    int written = rc ? SO_EXIT_OK : so_cli_out_close(out, SO_EXIT_OK); /* exit 3 too */
    const so_hrow **v = rc ? NULL : malloc((rows.n ? rows.n : 1) * sizeof *v);
    for (size_t i = 0; v && i < rows.n; i++)
        v[i] = &rows.v[i];
    if (v)
        so_harness_warn_below_bound(stderr, "report", v, rows.n);
    free(v);
    json_decref(tables);
    so_hrows_free(&rows);
    so_hstore_close(st);
    so_hscenario_free(&sc);
    if (rc)
        return so_cli_report_error("report", rc, &err);
    return written ? written : bad ? SO_EXIT_BACKEND : SO_EXIT_OK;
}

int so_cmd_report(int argc, char **argv)
{
    const char *db = "slotopt-bench.db", *fmt = "table", *group_by = NULL, *plot = NULL;
    const char *plot_type = "svg", *scenario = NULL, *outpath = NULL;
    int cells = 0, compact = 0, quick = 0, c;
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_report_spec)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'f': fmt = optarg; break;
        case 'o': outpath = optarg; break;
        case 'c': cells = 1; break;
        case 'C': compact = 1; break;
        case 'g': group_by = optarg; break;
        case 'p': plot = optarg; break;
        case 'T': plot_type = optarg; break;
        case 'S': scenario = optarg; break;
        case 'Q': quick = 1; break;
        case 'h': return so_cli_print_help(&so_report_spec);
        default: return so_cli_bad_option("report", argv);
        }
    }
    int format, bad = so_cli_format("report", fmt, so_report_spec.formats, &format);
    if (bad) /* checked first; the output opens below */
        return bad;
    static const char *const plot_types[] = {"svg", "png", "pdf", NULL};
    if (strcmp(plot_type, "svg") && strcmp(plot_type, "png") && strcmp(plot_type, "pdf"))
        return so_cli_choice_error("report", "--plot-type", plot_type, plot_types);
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
    so_cli_out out;
    int code = so_cli_out_open(&out, "report", fmt, so_report_spec.formats, outpath, compact);
    if (code)
        return code;
    if (compact)
        format |= SO_HF_COMPACT;
    if (scenario) {
        code = scenario_report(scenario, quick, db, &out, plot, plot_type);
        so_cli_out_drop(&out);
        return code;
    }
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
        so_cli_out_drop(&out);
        return so_cli_usage_error("report", "--group-by: unknown key '%s'; accepted: %s",
                                  group_by, accepted);
    }
    so_htables t;
    if (!rc && !(rc = so_harness_tables(&rows, &kinds, group_by, &t))) {
        so_harness_print(out.fp, &t, format, cells);
        code = so_cli_out_close(&out, SO_EXIT_OK);
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
    so_cli_out_drop(&out);
    return rc ? so_cli_report_error("report", rc, &err) : code;
}
