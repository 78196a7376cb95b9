/* cmd_solve.c — `slotopt solve`: read an instance, run a backend, print the
 * result as one JSON object (docs/formats.md) or as text. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/output/output_format.h"

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: slotopt solve [--backend NAME] [--time-limit S] [--seed N]\n"
            "                     [--opt KEY=VALUE]... [--format json|table]\n"
            "                     [--compact]"
            " [-o OUT] FILE\n\n"
            "Solves FILE (native JSON, or a Pisinger knapsack text file; - reads\n"
            "stdin) and prints {\"problem\",\"instance\",\"backend\",\"exact\",\n"
            "\"status\",\"objective\",\"bound\",\"gap\",\"seconds\",\"solution\"}.\n"
            "A FILE of JSON lines (gen --out -) solves each instance and prints\n"
            "one compact result per line; instances are named FILE:LINE.\n\n"
            "  --backend NAME    default: the problem's first exact backend\n"
            "                    ('slotopt backends' lists them)\n"
            "  --time-limit S    seconds (backends that honour it stop there)\n"
            "  --seed N          seed for randomised backends (default 1)\n"
            "  --opt KEY=VALUE   backend option ('slotopt backends -v')\n"
            "  --format F        json (default) or table (labelled lines; 'text'\n"
            "                    is read as table)\n"
            "  --compact         JSON on one line\n"
            "  -o OUT            write to OUT (atomically) instead of stdout\n");
}

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

/* Solves p and renders its result into mem: a JSON object (one line per
 * instance of a stream: compact), or labelled lines with a blank line
 * after each but the last. */
static int solve_one(so_problem *p, const char *backend, const so_params *prm,
                     int fmt, int compact, int more, FILE *mem)
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
    static const struct option opts[] = {
        {"backend", required_argument, 0, 'b'},
        {"time-limit", required_argument, 0, 't'},
        {"seed", required_argument, 0, 's'},
        {"opt", required_argument, 0, 'O'},
        {"format", required_argument, 0, 'f'},
        {"compact", no_argument, 0, 'C'},
        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *backend = NULL, *format = "json", *outpath = NULL;
    so_params prm;
    so_params_init(&prm);
    so_error err;
    so_error_clear(&err);
    int c, compact = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:t:s:O:f:o:h", opts, NULL)) != -1) {
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
        case 'h': help(stdout); return SO_EXIT_OK;
        default: return so_cli_bad_option("solve", argv);
        }
    }
    int fmt, bad = so_cli_format("solve", format, SO_OF_JSON | SO_OF_TABLE, &fmt);
    if (bad)
        return bad;
    if (optind != argc - 1)
        return so_cli_usage_error("solve", "expected one instance FILE");
    so_problem **ps = NULL;
    size_t n = 0;
    int rc = so_problem_read_all(argv[optind], &ps, &n, &err);
    if (rc)
        return so_cli_report_error("solve", rc, &err);
    /* rendered in memory first: then written atomically, or to stdout */
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    int code = mem ? SO_EXIT_OK : so_cli_report_error("solve", SO_ENOMEM, NULL);
    for (size_t i = 0; i < n && code == SO_EXIT_OK; i++)
        code = solve_one(ps[i], backend, &prm, fmt, n > 1 ? 1 : compact,
                         i + 1 < n, mem);
    for (size_t i = 0; i < n; i++)
        so_problem_free(ps[i]);
    free(ps);
    if (mem && fclose(mem) != 0 && code == SO_EXIT_OK)
        code = so_cli_report_error("solve", SO_ENOMEM, NULL);
    if (code == SO_EXIT_OK && outpath) {
        rc = so_write_file_atomic(outpath, buf, len, &err);
        if (rc)
            code = so_cli_report_error("solve", rc, &err);
    } else if (code == SO_EXIT_OK) {
        fwrite(buf, 1, len, stdout);
    }
    free(buf);
    if (!outpath && code == SO_EXIT_OK)
        code = so_cli_flush_stdout("solve");
    return code;
}
