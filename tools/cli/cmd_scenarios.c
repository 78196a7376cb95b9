/* cmd_scenarios.c — `slotopt scenarios`: the shipped scenarios, each with
 * the paper figure or table it reproduces and its measured run times (full
 * and quick form), as a table, CSV, markdown or JSON. */
#include <dirent.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/cli/cli_opts.h"
#include "tools/output/table.h"
#include "tools/harness/harness_table.h"
#include "tools/output/output_format.h"

static void seconds_text(char *out, size_t size, double s)
{
    if (!(s > 0))
        snprintf(out, size, "-");
    else if (s < 1)
        snprintf(out, size, "%.2f s", s);
    else if (s < 60)
        snprintf(out, size, "%.1f s", s);
    else
        snprintf(out, size, "%.0f min", s / 60);
}

static const so_cli_opt opts[] = {
    SO_CLI_OUTPUT_OPTS,
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

const so_cli_spec so_scenarios_spec = {
    "scenarios", NULL,
    "One row per shipped scenario (instances/scenarios, or\n"
    "$SLOTOPT_SCENARIOS): its name, the paper figure or table it\n"
    "reproduces, and the run time measured for its full and quick forms\n"
    "(seconds in CSV and JSON, which add what it reproduces).\n"
    "Run one with 'slotopt bench --scenario NAME [--quick] --db F', then\n"
    "'slotopt report --scenario NAME --db F [--plot DIR]'.\n",
    opts, SO_OF_TABLE | SO_OF_CSV | SO_OF_JSON | SO_OF_MARKDOWN, SO_OF_TABLE, NULL};

static so_table *scenario_table(void)
{
    so_table *t = so_table_new();
    if (!t || so_table_column(t, "scenario", NULL, SO_COL_TEXT, NULL) < 0 ||
        so_table_column(t, "figure", NULL, SO_COL_TEXT, NULL) < 0 ||
        so_table_column(t, "reproduces", NULL, SO_COL_TEXT, NULL) < 0 ||
        so_table_column(t, "tables", NULL, SO_COL_INT, NULL) < 0 ||
        so_table_column(t, "full", "runtime_full", SO_COL_REAL, NULL) < 0 ||
        so_table_column(t, "quick", "runtime_quick", SO_COL_REAL, NULL) < 0) {
        so_table_free(t);
        return NULL;
    }
    so_table_json_only(t, 2);
    return t;
}

/* A run time: seconds in CSV and JSON, "1.2 s" or "3 min" to read. */
static void runtime(so_table *t, size_t col, double s)
{
    char text[64];
    if (!(s > 0))
        return;
    so_table_real(t, col, s);
    seconds_text(text, sizeof text, s);
    so_table_shown(t, col, text);
}

int so_cmd_scenarios(int argc, char **argv)
{
    const char *fmt = "table", *outpath = NULL;
    int c, compact = 0;
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_scenarios_spec)) != -1) {
        switch (c) {
        case 'f': fmt = optarg; break;
        case 'C': compact = 1; break;
        case 'o': outpath = optarg; break;
        case 'h': return so_cli_print_help(&so_scenarios_spec);
        default: return so_cli_bad_option("scenarios", argv);
        }
    }
    if (optind != argc)
        return so_cli_usage_error("scenarios", "unexpected argument '%s'", argv[optind]);
    so_cli_out out;
    int code = so_cli_out_open(&out, "scenarios", fmt, so_scenarios_spec.formats, outpath,
                               compact);
    if (code)
        return code;
    char dir[PATH_MAX];
    if (so_scenario_dir(dir, sizeof dir))
        return so_cli_out_close(&out, so_cli_usage_error(
                                          "scenarios", "no scenario folder (looked in"
                                          " $SLOTOPT_SCENARIOS, instances/scenarios/ and"
                                          " beside the program)"));
    size_t n = 0;
    char **list = so_scenario_names(dir, &n);
    so_table *t = scenario_table();
    if (!t)
        code = so_cli_report_error("scenarios", SO_ENOMEM, NULL);
    for (size_t i = 0; code == SO_EXIT_OK && i < n; i++) {
        char path[PATH_MAX + 300];
        snprintf(path, sizeof path, "%s/%s.json", dir, list[i]);
        so_hconfig cfg;
        so_hconfig_init(&cfg);
        so_hinsts s = {0};
        so_hscenario sc;
        so_error err;
        so_error_clear(&err);
        /* the inputs are not needed: an empty list of them is read as the
         * file's; reading generates them (cheap: no cell is run) */
        int rc = so_scenario_load(path, 0, &cfg, &s, &sc, &err);
        so_hinsts_free(&s);
        if (rc) {
            code = so_cli_report_error("scenarios", rc, &err);
            break;
        }
        so_table_row(t);
        so_table_text(t, 0, list[i]);
        if (sc.figure[0])
            so_table_text(t, 1, sc.figure);
        so_table_text(t, 2, sc.reproduces);
        so_table_int(t, 3, (long long)sc.n_tables);
        runtime(t, 4, sc.runtime_full);
        runtime(t, 5, sc.runtime_quick);
        so_hscenario_free(&sc);
    }
    if (code == SO_EXIT_OK)
        so_table_write(out.fp, t, out.format, out.compact);
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
    so_table_free(t);
    return so_cli_out_close(&out, code);
}
