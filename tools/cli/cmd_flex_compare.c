/* cmd_flex_compare.c — `slotopt flex-compare`: the comparison of Fig. 5 of
 * Wolf et al. (Middleware 2010): instances of family flex-paper, each
 * solved exactly and by FIFO, FAIR and FLEX; one row per value of the swept
 * family parameter with the mean and worst ratio to the optimum, through
 * the table writer: markdown (default), table, CSV (full precision) or
 * JSON. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/cli/cli_opts.h"
#include "tools/cli/flex_compare.h"
#include "tools/output/progress.h"
#include "tools/output/table.h"
#include "tools/output/output_format.h"

static const so_cli_opt opts[] = {
    {"instances", 'n', SO_OPT_SHORT, "N", "instances per row (default 100)"},
    {"seed", 's', SO_OPT_SHORT, "S", "seed of the family (default 1)"},
    {"set", 'S', SO_OPT_SHORT | SO_OPT_REPEAT, "KEY=VALUE",
     "a parameter of family flex-paper ('slotopt families')"},
    {"sweep", 'w', SO_OPT_SHORT, "KEY=V1,V2,...", "one row per value of a family parameter"},
    {"backends", 'b', SO_OPT_SHORT, "B1,B2,...",
     "default fifo,fair,flex-generic,flex; NAME:KEY=VALUE passes one option"},
    {"exact", 'e', SO_OPT_SHORT, "NAME", "the exact backend (default flex-exact)"},
    {"time-limit", 't', SO_OPT_SHORT, "S", "seconds per exact solve (default 60)"},
    SO_CLI_OUTPUT_OPTS,
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

const so_cli_spec so_flex_compare_spec = {
    "flex-compare", NULL,
    "Generates N instances of family flex-paper, solves each with the exact\n"
    "backend and with each backend, and prints the mean and worst ratio to\n"
    "the optimum, one row per swept value (CSV: 17 significant digits; JSON:\n"
    "{\"key\", \"rows\": [...]}). Instances whose optimum is <= 0 or not proven\n"
    "are skipped and counted.\n",
    opts, SO_OF_MARKDOWN | SO_OF_TABLE | SO_OF_CSV | SO_OF_JSON, SO_OF_MARKDOWN, NULL};

static size_t split(char *s, const char **out, size_t max)
{
    size_t n = 0;
    for (char *tok = strtok(s, ","); tok && n < max; tok = strtok(NULL, ","))
        out[n++] = tok;
    return n;
}

/* The columns: the swept key, the counts, mean and worst per backend, the
 * exact backend's seconds. */
static so_table *rows_table(const char *key, const char *const *b, size_t nb)
{
    so_table *t = so_table_new();
    int ok = t && so_table_column(t, key, "value", SO_COL_TEXT, NULL) >= 0 &&
             so_table_column(t, "used", NULL, SO_COL_INT, NULL) >= 0 &&
             so_table_column(t, "skipped opt<=0", "skipped_nonpositive", SO_COL_INT,
                             NULL) >= 0 &&
             so_table_column(t, "skipped unproven", "skipped_unproven", SO_COL_INT,
                             NULL) >= 0;
    for (size_t k = 0; ok && k < nb; k++) {
        char h[200];
        snprintf(h, sizeof h, "%s mean", b[k]);
        ok = so_table_column(t, h, NULL, SO_COL_REAL, "%.4f") >= 0;
        snprintf(h, sizeof h, "%s worst", b[k]);
        ok = ok && so_table_column(t, h, NULL, SO_COL_REAL, "%.4f") >= 0;
    }
    ok = ok && so_table_column(t, "exact mean s", NULL, SO_COL_REAL, "%.3f") >= 0 &&
         so_table_column(t, "exact max s", NULL, SO_COL_REAL, "%.3f") >= 0;
    if (!ok) {
        so_table_free(t);
        return NULL;
    }
    return t;
}

static void add_row(so_table *t, json_t *all, const char *value, const so_flex_cmp_row *row,
                    const char *const *b, size_t nb)
{
    so_table_row(t);
    size_t c = 0;
    so_table_text(t, c++, value);
    so_table_int(t, c++, (long long)row->used);
    so_table_int(t, c++, (long long)row->nonpositive);
    so_table_int(t, c++, (long long)row->unproven);
    for (size_t k = 0; k < nb; k++) {
        so_table_real(t, c++, row->mean[k]);
        so_table_real(t, c++, row->worst[k]);
    }
    so_table_real(t, c++, row->exact_mean_s);
    so_table_real(t, c++, row->exact_max_s);
    json_t *by = json_object();
    for (size_t k = 0; k < nb; k++)
        json_object_set_new(by, b[k], json_pack("{sfsf}", "mean", row->mean[k], "worst",
                                                row->worst[k]));
    json_array_append_new(json_object_get(all, "rows"),
                          json_pack("{sssIsIsIsosfsf}", "value", value, "used",
                                    (json_int_t)row->used, "skipped_nonpositive",
                                    (json_int_t)row->nonpositive, "skipped_unproven",
                                    (json_int_t)row->unproven, "backends", by,
                                    "exact_mean_seconds", row->exact_mean_s,
                                    "exact_max_seconds", row->exact_max_s));
}

int so_cmd_flex_compare(int argc, char **argv)
{
    uint64_t count = 100, seed = 1;
    double limit = 60;
    char backends_text[512] = "fifo,fair,flex-generic,flex", sweep[512] = "";
    const char *exact = "flex-exact", *format_name = "markdown", *outpath = NULL;
    int compact = 0;
    so_params set;
    so_params_init(&set);
    so_error err;
    so_error_clear(&err);
    int c;
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_flex_compare_spec)) != -1) {
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
        case 'o': outpath = optarg; break;
        case 'h': return so_cli_print_help(&so_flex_compare_spec);
        default: return so_cli_bad_option("flex-compare", argv);
        }
    }
    if (optind != argc)
        return so_cli_usage_error("flex-compare", "unexpected argument '%s'", argv[optind]);
    so_cli_out out;
    int code = so_cli_out_open(&out, "flex-compare", format_name,
                               so_flex_compare_spec.formats, outpath, compact);
    if (code)
        return code;
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
            return so_cli_out_close(&out, so_cli_usage_error("flex-compare", "--sweep: no values"));
    }
    so_params rows[64];
    for (size_t v = 0; v < nv; v++) { /* unknown keys fail before any output */
        rows[v] = set;
        if (sweep[0] && so_params_set(&rows[v], key, values[v]))
            return so_cli_out_close(&out, so_cli_usage_error("flex-compare",
                                                             "too many --set options"));
        if (so_params_check(&rows[v], so_family_find("flex-paper")->params,
                            "family 'flex-paper'", &err))
            return so_cli_out_close(&out, so_cli_report_error("flex-compare", SO_EINVAL, &err));
    }
    json_t *all = json_pack("{sss[]}", "key", key, "rows");
    so_table *t = rows_table(key, b, nb);
    if (!t || !all)
        code = so_cli_report_error("flex-compare", SO_ENOMEM, NULL);
    so_progress pg;
    so_progress_init(&pg, stderr, isatty(STDERR_FILENO), 1.0);
    for (size_t v = 0; code == SO_EXIT_OK && v < nv; v++) {
        so_params row_set = rows[v];
        so_flex_cmp_row row;
        if (so_progress_due(&pg, 0.5)) {
            char line[200];
            snprintf(line, sizeof line, "flex-compare: row %zu of %zu (%.60s = %.60s)", v + 1, nv,
                     key, values[v]);
            so_progress_draw(&pg, line);
        }
        int rc = so_flex_compare(&row_set, seed, count, b, nb, exact, limit, &row, &err);
        if (rc)
            code = so_cli_report_error("flex-compare", rc, &err);
        else
            add_row(t, all, values[v], &row, b, nb);
    }
    so_progress_end(&pg);
    if (code == SO_EXIT_OK && out.format == SO_OF_JSON)
        so_ojson_put(out.fp, json_incref(all), compact);
    else if (code == SO_EXIT_OK)
        so_table_write(out.fp, t, out.format, compact);
    json_decref(all);
    so_table_free(t);
    return so_cli_out_close(&out, code);
}
