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

static void help(FILE *fp)
{
    fprintf(fp, "usage: slotopt scenarios [--format F]\n\n"
                "One row per shipped scenario (instances/scenarios, or\n"
                "$SLOTOPT_SCENARIOS): its name, the paper figure or table it\n"
                "reproduces, and the run time measured for its full and quick forms.\n"
                "Run one with 'slotopt bench --scenario NAME [--quick] --db F', then\n"
                "'slotopt report --scenario NAME --db F [--plot DIR]'.\n\n"
                "  --format F  table (default), csv, json or markdown\n");
}

int so_cmd_scenarios(int argc, char **argv)
{
    static const struct option opts[] = {
        {"format", required_argument, 0, 'f'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *fmt = "table";
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f': fmt = optarg; break;
        case 'h': help(stdout); return SO_EXIT_OK;
        default: return so_cli_bad_option("scenarios", argv);
        }
    }
    if (optind != argc)
        return so_cli_usage_error("scenarios", "unexpected argument '%s'", argv[optind]);
    int format;
    if (so_cli_format("scenarios", fmt, SO_OF_TABLE | SO_OF_CSV | SO_OF_JSON | SO_OF_MARKDOWN,
                      &format))
        return SO_EXIT_USAGE;
    char dir[PATH_MAX];
    if (so_scenario_dir(dir, sizeof dir))
        return so_cli_usage_error("scenarios", "no scenario folder (looked in"
                                  " $SLOTOPT_SCENARIOS, instances/scenarios/ and beside"
                                  " the program)");
    size_t n = 0;
    char **list = so_scenario_names(dir, &n);
    char (*g)[SO_OTABLE_CELL] = calloc((n + 1) * 5, sizeof *g);
    json_t *arr = json_array();
    int code = g && arr ? SO_EXIT_OK : SO_EXIT_BACKEND;
    static const char *const head[] = {"scenario", "figure", "tables", "full", "quick"};
    for (int k = 0; g && k < 5; k++)
        snprintf(g[k], SO_OTABLE_CELL, "%s", head[k]);
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
        char (*row)[SO_OTABLE_CELL] = g + (i + 1) * 5;
        snprintf(row[0], SO_OTABLE_CELL, "%s", list[i]);
        snprintf(row[1], SO_OTABLE_CELL, "%.63s", sc.figure[0] ? sc.figure : "-");
        snprintf(row[2], SO_OTABLE_CELL, "%zu", sc.n_tables);
        seconds_text(row[3], SO_OTABLE_CELL, sc.runtime_full);
        seconds_text(row[4], SO_OTABLE_CELL, sc.runtime_quick);
        json_t *o = json_pack("{s:s,s:s,s:s,s:I}", "scenario", list[i], "figure", sc.figure,
                              "reproduces", sc.reproduces, "tables",
                              (json_int_t)sc.n_tables);
        if (sc.runtime_full > 0)
            json_object_set_new(o, "runtime_full", json_real(sc.runtime_full));
        if (sc.runtime_quick > 0)
            json_object_set_new(o, "runtime_quick", json_real(sc.runtime_quick));
        json_array_append_new(arr, o);
        so_hscenario_free(&sc);
    }
    if (code == SO_EXIT_OK) {
        if (format == SO_OF_JSON) {
            so_ojson_put(stdout, json_incref(arr), 0);
        } else if (format == SO_OF_TABLE) {
            so_otable_print(stdout, (const char (*)[SO_OTABLE_CELL])g, n + 1, 5);
        } else {
            for (size_t r = 0; r <= n; r++) {
                for (int k = 0; k < 5; k++) {
                    const char *t = g[r * 5 + (size_t)k];
                    if (format == SO_OF_CSV)
                        printf("%s%s%s%s", k ? "," : "", strchr(t, ',') ? "\"" : "", t,
                               strchr(t, ',') ? "\"" : "");
                    else
                        printf("| %s ", t);
                }
                printf(format == SO_OF_CSV ? "\n" : "|\n");
                if (r == 0 && format == SO_OF_MARKDOWN)
                    printf("|---|---|---|---:|---:|\n");
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
    free(g);
    json_decref(arr);
    return code;
}
