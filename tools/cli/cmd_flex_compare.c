/* cmd_flex_compare.c — `slotopt flex-compare`: the comparison of Fig. 5 of
 * Wolf et al. (Middleware 2010): instances of family flex-paper, each
 * solved exactly and by FIFO, FAIR and FLEX; one row per value of the swept
 * family parameter with the mean and worst ratio to the optimum, as
 * markdown (default), CSV (full precision) or JSON. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/cli/flex_compare.h"
#include "tools/output/output_format.h"

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: slotopt flex-compare [--instances N] [--seed S]\n"
            "                            [--set KEY=VALUE]... [--sweep KEY=V1,V2,...]\n"
            "                            [--backends B1,B2,...] [--exact NAME]\n"
            "                            [--time-limit S] [--format F] [--compact]\n\n"
            "Generates N instances of family flex-paper (default 100, seed 1),\n"
            "solves each with the exact backend (default flex-exact, time limit\n"
            "per instance default 60 s) and with each backend (default\n"
            "fifo,fair,flex-generic,flex; NAME:KEY=VALUE passes one option),\n"
            "and prints a table of the mean and worst ratio to the optimum,\n"
            "one row per swept value: --format markdown (default), table, csv (17\n"
            "significant digits) or json ({\"key\", \"rows\": [...]}, --compact: one\n"
            "line).\n"
            "Instances whose optimum is <= 0 or not proven are skipped and\n"
            "counted. 'slotopt families' lists the family parameters.\n");
}

static size_t split(char *s, const char **out, size_t max)
{
    size_t n = 0;
    for (char *tok = strtok(s, ","); tok && n < max; tok = strtok(NULL, ","))
        out[n++] = tok;
    return n;
}

static void header(int format, const char *key, const char *const *b, size_t nb)
{
    if (format == SO_OF_CSV) {
        printf("%s,used,skipped_nonpositive,skipped_unproven", key);
        for (size_t k = 0; k < nb; k++)
            printf(",%s mean,%s worst", b[k], b[k]);
        printf(",exact mean s,exact max s\n");
        return;
    }
    if (format != SO_OF_MARKDOWN)
        return;
    printf("| %s | used | skipped (opt <= 0 / unproven) |", key);
    for (size_t k = 0; k < nb; k++)
        printf(" %s mean | %s worst |", b[k], b[k]);
    printf(" exact s (mean / max) |\n|---|---|---|");
    for (size_t k = 0; k < nb; k++)
        printf("---|---|");
    printf("---|\n");
}

int so_cmd_flex_compare(int argc, char **argv)
{
    static const struct option opts[] = {
        {"instances", required_argument, 0, 'n'},
        {"seed", required_argument, 0, 's'},
        {"set", required_argument, 0, 'S'},
        {"sweep", required_argument, 0, 'w'},
        {"backends", required_argument, 0, 'b'},
        {"exact", required_argument, 0, 'e'},
        {"time-limit", required_argument, 0, 't'},
        {"format", required_argument, 0, 'f'},
        {"compact", no_argument, 0, 'C'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    uint64_t count = 100, seed = 1;
    double limit = 60;
    char backends_text[512] = "fifo,fair,flex-generic,flex", sweep[512] = "";
    const char *exact = "flex-exact", *format_name = "markdown";
    int compact = 0;
    so_params set;
    so_params_init(&set);
    so_error err;
    so_error_clear(&err);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "n:s:S:w:b:e:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (so_cli_parse_u64(optarg, &count) || count == 0 || count > 1000000)
                return so_cli_usage_error("flex-compare", "--instances: expected 1..1e6, found '%s'", optarg);
            break;
        case 's':
            if (so_cli_parse_u64(optarg, &seed))
                return so_cli_usage_error("flex-compare", "--seed: expected an unsigned integer, found '%s'", optarg);
            break;
        case 'S':
            if (so_params_set_kv(&set, optarg, &err))
                return so_cli_report_error("flex-compare", SO_EINVAL, &err);
            break;
        case 'w':
            if (!strchr(optarg, '=') || strlen(optarg) >= sizeof sweep)
                return so_cli_usage_error("flex-compare", "--sweep: expected KEY=V1,V2,..., found '%s'", optarg);
            strcpy(sweep, optarg);
            break;
        case 'b':
            if (strlen(optarg) >= sizeof backends_text)
                return so_cli_usage_error("flex-compare", "--backends: list too long");
            strcpy(backends_text, optarg);
            break;
        case 'e': exact = optarg; break;
        case 't':
            if (so_cli_parse_double(optarg, &limit))
                return so_cli_usage_error("flex-compare", "--time-limit: expected seconds, found '%s'", optarg);
            break;
        case 'f': format_name = optarg; break;
        case 'C': compact = 1; break;
        case 'h': help(stdout); return SO_EXIT_OK;
        default: return so_cli_bad_option("flex-compare", argv);
        }
    }
    if (optind != argc)
        return so_cli_usage_error("flex-compare", "unexpected argument '%s'", argv[optind]);
    int format, bad = so_cli_format("flex-compare", format_name,
                                    SO_OF_MARKDOWN | SO_OF_TABLE | SO_OF_CSV | SO_OF_JSON,
                                    &format);
    if (bad)
        return bad;
    const char *b[SO_FLEX_CMP_MAX_BACKENDS], *values[64];
    size_t nb = split(backends_text, b, SO_FLEX_CMP_MAX_BACKENDS), nv = 1;
    const char *key = "instances";
    values[0] = "all";
    if (sweep[0]) {
        char *eq = strchr(sweep, '=');
        *eq = '\0';
        key = sweep;
        nv = split(eq + 1, values, 64);
        if (nv == 0)
            return so_cli_usage_error("flex-compare", "--sweep: no values");
    }
    so_params rows[64];
    for (size_t v = 0; v < nv; v++) { /* unknown keys fail before any output */
        rows[v] = set;
        if (sweep[0] && so_params_set(&rows[v], key, values[v]))
            return so_cli_usage_error("flex-compare", "too many --set options");
        if (so_params_check(&rows[v], so_family_find("flex-paper")->params,
                            "family 'flex-paper'", &err))
            return so_cli_report_error("flex-compare", SO_EINVAL, &err);
    }
    header(format, key, b, nb);
    json_t *all = json_pack("{sss[]}", "key", key, "rows");
    /* the table format: every row first, then aligned */
    size_t cols = 5 + 2 * nb;
    char (*cells)[SO_OTABLE_CELL] =
        format == SO_OF_TABLE ? calloc((nv + 1) * cols, sizeof *cells) : NULL;
    if (format == SO_OF_TABLE && !cells) {
        json_decref(all);
        return so_cli_report_error("flex-compare", SO_ENOMEM, NULL);
    }
    if (cells) {
        snprintf(cells[0], SO_OTABLE_CELL, "%.63s", key);
        snprintf(cells[1], SO_OTABLE_CELL, "used");
        snprintf(cells[2], SO_OTABLE_CELL, "skipped opt<=0");
        snprintf(cells[3], SO_OTABLE_CELL, "skipped unproven");
        for (size_t k = 0; k < nb; k++) {
            snprintf(cells[4 + 2 * k], SO_OTABLE_CELL, "%.50s mean", b[k]);
            snprintf(cells[5 + 2 * k], SO_OTABLE_CELL, "%.50s worst", b[k]);
        }
        snprintf(cells[cols - 1], SO_OTABLE_CELL, "exact s mean/max");
    }
    for (size_t v = 0; v < nv; v++) {
        so_params row_set = rows[v];
        so_flex_cmp_row row;
        int rc = so_flex_compare(&row_set, seed, count, b, nb, exact, limit, &row, &err);
        if (rc) {
            json_decref(all);
            free(cells);
            return so_cli_report_error("flex-compare", rc, &err);
        }
        if (cells) {
            char (*row_cells)[SO_OTABLE_CELL] = cells + (v + 1) * cols;
            snprintf(row_cells[0], SO_OTABLE_CELL, "%.63s", values[v]);
            snprintf(row_cells[1], SO_OTABLE_CELL, "%zu", row.used);
            snprintf(row_cells[2], SO_OTABLE_CELL, "%zu", row.nonpositive);
            snprintf(row_cells[3], SO_OTABLE_CELL, "%zu", row.unproven);
            for (size_t k = 0; k < nb; k++) {
                snprintf(row_cells[4 + 2 * k], SO_OTABLE_CELL, "%.4f", row.mean[k]);
                snprintf(row_cells[5 + 2 * k], SO_OTABLE_CELL, "%.4f", row.worst[k]);
            }
            snprintf(row_cells[cols - 1], SO_OTABLE_CELL, "%.3f / %.3f", row.exact_mean_s,
                     row.exact_max_s);
            continue;
        }
        if (format == SO_OF_JSON) {
            json_t *by = json_object();
            for (size_t k = 0; k < nb; k++)
                json_object_set_new(by, b[k], json_pack("{sfsf}", "mean", row.mean[k],
                                                        "worst", row.worst[k]));
            json_array_append_new(json_object_get(all, "rows"),
                                  json_pack("{sssIsIsIsosfsf}", "value", values[v],
                                            "used", (json_int_t)row.used,
                                            "skipped_nonpositive", (json_int_t)row.nonpositive,
                                            "skipped_unproven", (json_int_t)row.unproven,
                                            "backends", by, "exact_mean_seconds",
                                            row.exact_mean_s, "exact_max_seconds",
                                            row.exact_max_s));
            continue;
        }
        if (format == SO_OF_CSV) {
            printf("%s,%zu,%zu,%zu", values[v], row.used, row.nonpositive, row.unproven);
            for (size_t k = 0; k < nb; k++)
                printf(",%.17g,%.17g", row.mean[k], row.worst[k]);
            printf(",%.17g,%.17g\n", row.exact_mean_s, row.exact_max_s);
            fflush(stdout);
            continue;
        }
        printf("| %s | %zu | %zu / %zu |", values[v], row.used, row.nonpositive,
               row.unproven);
        for (size_t k = 0; k < nb; k++)
            printf(" %.4f | %.4f |", row.mean[k], row.worst[k]);
        printf(" %.3f / %.3f |\n", row.exact_mean_s, row.exact_max_s);
        fflush(stdout);
    }
    if (cells)
        so_otable_print(stdout, (const char (*)[SO_OTABLE_CELL])cells, nv + 1, cols);
    free(cells);
    if (format == SO_OF_JSON) {
        char *s = so_ojson_dumps(all, compact);
        if (s)
            fputs(s, stdout);
        free(s);
    }
    json_decref(all);
    return so_cli_flush_stdout("flex-compare");
}
