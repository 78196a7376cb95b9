/* cmd_solve.c — `slotopt solve`: read an instance, run a backend, print the
 * result as one JSON object (docs/formats.md) or as text. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/cli/cli_opts.h"
#include "tools/output/table.h"
#include "tools/output/output_format.h"

static const so_cli_opt opts[] = {
    {"backend", 'b', SO_OPT_SHORT, "NAME",
     "default: the problem's first exact backend ('slotopt backends' lists them)"},
    {"time-limit", 't', SO_OPT_SHORT, "S",
     "seconds for the backend (every exact one stops within 10% or 0.1 s of it: "
     "docs/time-limits.md)"},
    {"seed", 's', SO_OPT_SHORT, "N", "seed for randomised backends (default 1)"},
    {"opt", 'O', SO_OPT_SHORT | SO_OPT_REPEAT, "KEY=VALUE",
     "backend option ('slotopt backends -v')"},
    SO_CLI_OUTPUT_OPTS,
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

const so_cli_spec so_solve_spec = {
    "solve", "FILE",
    "Solves FILE (native JSON, or a Pisinger knapsack text file; - reads\n"
    "stdin) and prints {\"problem\",\"instance\",\"backend\",\"exact\",\n"
    "\"status\",\"objective\",\"bound\",\"gap\",\"seconds\",\"solution\"}.\n"
    "A FILE of JSON lines (gen --out -) solves each instance and prints\n"
    "one compact result per line; instances are named FILE:LINE.\n"
    "table: labelled lines ('text' is read as table); csv and markdown: one\n"
    "row per instance without the solution.\n",
    opts, SO_OF_JSON | SO_OF_TABLE | SO_OF_CSV | SO_OF_MARKDOWN, SO_OF_JSON, NULL};

/* What the objective of a problem kind measures (its label in text). */
static const char *objective_name(const char *problem)
{
    return problem && !strcmp(problem, "pareto") ? "hypervolume" : "objective";
}

static void print_text(FILE *fp, const so_result *r, json_t *j)
{
    const char *problem = json_string_value(json_object_get(j, "problem"));
    fprintf(fp, "instance     %s (%s)\n",
            json_string_value(json_object_get(j, "instance")), problem);
    fprintf(fp, "backend      %s (%s)\n",
            json_string_value(json_object_get(j, "backend")),
            json_is_true(json_object_get(j, "exact")) ? "exact" : "heuristic");
    fprintf(fp, "status       %s\n", so_status_str(so_result_status(r)));
    char num[64];
    int64_t exact;
    if (so_result_objective_int(r, &exact))
        snprintf(num, sizeof num, "%lld", (long long)exact);
    else
        so_onumber(num, sizeof num, so_result_objective(r));
    if (so_result_has_objective(r))
        fprintf(fp, "%-12s %s\n", objective_name(problem), num);
    if (so_result_bound_int(r, &exact))
        snprintf(num, sizeof num, "%lld", (long long)exact);
    else
        so_onumber(num, sizeof num, so_result_bound(r));
    if (so_result_has_bound(r))
        fprintf(fp, "bound        %s   (gap %.3g%%)\n", num, 100 * so_result_gap(r));
    fprintf(fp, "seconds      %.6f\n", so_result_seconds(r));
    if (so_result_message(r)[0])
        fprintf(fp, "message      %s\n", so_result_message(r));
    json_t *sol = so_result_solution(r);
    if (sol) {
        char *s = json_dumps(sol, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
        if (s && strlen(s) > 300)
            strcpy(s + 290, " ...");
        fprintf(fp, "solution     %s\n", s ? s : "");
        free(s);
    }
}

/* The columns of the csv and markdown formats: one row per instance. */
static so_table *rows_table(void)
{
    static const so_tcol cols[] = {
        {"problem", SO_COL_TEXT, NULL}, {"instance", SO_COL_TEXT, NULL},
        {"backend", SO_COL_TEXT, NULL}, {"exact", SO_COL_TEXT, NULL},
        {"status", SO_COL_TEXT, NULL},  {"objective", SO_COL_REAL, NULL},
        {"bound", SO_COL_REAL, NULL},   {"gap", SO_COL_REAL, "%.3g"},
        {"seconds", SO_COL_REAL, "%.6f"}, {"message", SO_COL_TEXT, NULL}};
    return so_table_with(cols, sizeof cols / sizeof cols[0]);
}

static void add_row(so_table *t, const so_result *r, json_t *j)
{
    int64_t exact;
    so_table_row(t);
    so_table_text(t, 0, json_string_value(json_object_get(j, "problem")));
    so_table_text(t, 1, json_string_value(json_object_get(j, "instance")));
    so_table_text(t, 2, json_string_value(json_object_get(j, "backend")));
    so_table_text(t, 3, json_is_true(json_object_get(j, "exact")) ? "yes" : "no");
    so_table_text(t, 4, so_status_str(so_result_status(r)));
    if (so_result_objective_int(r, &exact))
        so_table_int(t, 5, (long long)exact);
    else if (so_result_has_objective(r))
        so_table_real(t, 5, so_result_objective(r));
    if (so_result_bound_int(r, &exact))
        so_table_int(t, 6, (long long)exact);
    else if (so_result_has_bound(r))
        so_table_real(t, 6, so_result_bound(r));
    if (so_result_has_bound(r))
        so_table_real(t, 7, so_result_gap(r));
    so_table_real(t, 8, so_result_seconds(r));
    if (so_result_message(r)[0])
        so_table_text(t, 9, so_result_message(r));
}

/* Solves p and renders its result: a JSON object into mem (one line per
 * instance of a stream: compact), labelled lines with a blank line after
 * each but the last, or a row of rows (csv, markdown). */
static int solve_one(so_problem *p, const char *backend, const so_params *prm,
                     int fmt, int compact, int more, FILE *mem, so_table *rows)
{
    so_error err;
    so_error_clear(&err);
    const so_backend *b = backend ? so_backend_find(backend)
                                  : so_backend_default(so_problem_kind(p));
    if (!b)
        return backend ? so_cli_unknown("solve", "backend", backend, so_backend_names())
                       : so_cli_usage_error("solve", "no backend for problem '%s'",
                                            so_problem_kind(p));
    so_result *r = NULL;
    int rc = so_solve(b, p, prm, &r, &err);
    if (rc < 0) {
        if (!err.file[0])
            snprintf(err.file, sizeof err.file, "%s", so_problem_name(p));
        return so_cli_report_error("solve", rc, &err);
    }
    json_t *j = so_result_to_json(r);
    int ok = j != NULL;
    if (ok && fmt == SO_OF_JSON) {
        char *s = so_ojson_dumps(j, compact);
        ok = s != NULL && fputs(s, mem) >= 0;
        free(s);
    } else if (ok && rows) {
        add_row(rows, r, j);
    } else if (ok) {
        print_text(mem, r, j);
        if (more)
            fputc('\n', mem);
    }
    json_decref(j);
    so_result_free(r);
    return ok ? SO_EXIT_OK : so_cli_report_error("solve", SO_ENOMEM, NULL);
}

int so_cmd_solve(int argc, char **argv)
{
    const char *backend = NULL, *format = "json", *outpath = NULL;
    so_params prm;
    so_params_init(&prm);
    so_error err;
    so_error_clear(&err);
    int c, compact = 0;
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_solve_spec)) != -1) {
        switch (c) {
        case 'b': backend = optarg; break;
        case 't':
            if (so_cli_parse_double(optarg, &prm.time_limit))
                return so_cli_usage_error("solve", "--time-limit: expected seconds >= 0, found '%s'", optarg);
            break;
        case 's':
            if (so_cli_parse_u64(optarg, &prm.seed))
                return so_cli_usage_error("solve", "--seed: expected an unsigned integer, found '%s'", optarg);
            break;
        case 'O':
            if (so_params_set_kv(&prm, optarg, &err))
                return so_cli_report_error("solve", SO_EINVAL, &err);
            break;
        case 'f': format = optarg; break;
        case 'C': compact = 1; break;
        case 'o': outpath = optarg; break;
        case 'h': return so_cli_print_help(&so_solve_spec);
        default: return so_cli_bad_option("solve", argv);
        }
    }
    so_cli_out out;
    int code = so_cli_out_open(&out, "solve", format, so_solve_spec.formats, outpath, compact);
    if (code)
        return code;
    if (optind != argc - 1)
        return so_cli_out_close(&out, so_cli_usage_error("solve", "expected one instance FILE"));
    so_problem **ps = NULL;
    size_t n = 0;
    int rc = so_problem_read_all(argv[optind], &ps, &n, &err);
    if (rc)
        return so_cli_out_close(&out, so_cli_report_error("solve", rc, &err));
    /* csv and markdown: rows collected, then written */
    so_table *rows = out.format == SO_OF_CSV || out.format == SO_OF_MARKDOWN ? rows_table()
                                                                             : NULL;
    if ((out.format == SO_OF_CSV || out.format == SO_OF_MARKDOWN) && !rows)
        code = so_cli_report_error("solve", SO_ENOMEM, NULL);
    for (size_t i = 0; i < n && code == SO_EXIT_OK; i++)
        code = solve_one(ps[i], backend, &prm, out.format, n > 1 ? 1 : compact, i + 1 < n,
                         out.fp, rows);
    for (size_t i = 0; i < n; i++)
        so_problem_free(ps[i]);
    free(ps);
    if (rows && code == SO_EXIT_OK)
        so_table_write(out.fp, rows, out.format, compact);
    so_table_free(rows);
    return so_cli_out_close(&out, code);
}
