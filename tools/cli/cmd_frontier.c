/* cmd_frontier.c — `slotopt frontier`: the (makespan, budget) frontiers of
 * a pareto instance found by several backends, as JSON (every point with
 * its plan) or one row per point and job (table, CSV, markdown: the table
 * writer), and a gnuplot plot of the heuristic frontiers against the exact
 * one (tools/cli/frontier_plot.c). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/common/gnuplot.h"
#include "formulations/pareto.h"
#include "formulations/common/suggest.h"
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/cli/cli_opts.h"
#include "tools/cli/frontier_plot.h"
#include "tools/output/table.h"
#include "tools/output/output_format.h"

#define MAX_BACKENDS 8

static const so_cli_opt opts[] = {
    {"backend", 'b', SO_OPT_SHORT | SO_OPT_REPEAT, "NAME",
     "a pareto backend (repeatable, up to 8; default pareto-slots)"},
    {"reference", 'r', SO_OPT_SHORT, "NAME",
     "the exact reference: pareto-sweep (default), pareto-enum, pareto-glpk or none"},
    {"opt", 'O', SO_OPT_SHORT | SO_OPT_REPEAT, "KEY=VALUE",
     "option of the --backend runs ('slotopt backends -v')"},
    {"seed", 's', SO_OPT_SHORT, "N", "seed for randomised backends (default 1)"},
    {"time-limit", 't', SO_OPT_SHORT, "S", "seconds per backend"},
    SO_CLI_OUTPUT_OPTS,
    {"plot", 'p', SO_OPT_SHORT, "FILE",
     "gnuplot plot; the extension picks the type: .png, .svg or .pdf"},
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

const so_cli_spec so_frontier_spec = {
    "frontier", "FILE",
    "Runs each --backend and the exact --reference on the pareto instance\n"
    "FILE. The heuristics report hypervolume_ratio, epsilon and makespan gaps\n"
    "against the reference (docs/pareto.md). json: {\"instance\", \"frontiers\":\n"
    "[result, ...]} with every plan; table, csv and markdown: one row per\n"
    "frontier point and job.\n",
    opts, SO_OF_JSON | SO_OF_CSV | SO_OF_TABLE | SO_OF_MARKDOWN, SO_OF_JSON, NULL};

/* One row per frontier point and job. */
static so_table *points_table(json_t *all)
{
    static const so_tcol cols[] = {
        {"backend", SO_COL_TEXT, NULL},        {"point", SO_COL_INT, NULL},
        {"makespan", SO_COL_REAL, "%.6g"},     {"budget", SO_COL_REAL, "%.6g"},
        {"vms", SO_COL_INT, NULL},             {"job", SO_COL_INT, NULL},
        {"map_slots", SO_COL_INT, NULL},       {"reduce_slots", SO_COL_INT, NULL},
        {"map_tasks", SO_COL_INT, NULL},       {"reduce_tasks", SO_COL_INT, NULL},
        {"job_vms", SO_COL_INT, NULL},         {"jtime", SO_COL_REAL, "%.6g"},
        {"job_budget", SO_COL_REAL, "%.6g"},   {"io_cost", SO_COL_REAL, "%.6g"},
        {"buffer_mb", SO_COL_REAL, "%.6g"},    {"meta_percent", SO_COL_REAL, "%.6g"},
        {"spill_threshold", SO_COL_REAL, "%.6g"}};
    so_table *t = so_table_with(cols, sizeof cols / sizeof cols[0]);
    size_t f, i, j;
    json_t *res, *pt, *job;
    json_array_foreach(json_object_get(all, "frontiers"), f, res) {
        const char *backend = json_string_value(json_object_get(res, "backend"));
        json_t *points = json_object_get(json_object_get(res, "solution"), "points");
        json_array_foreach(points, i, pt) {
            json_array_foreach(json_object_get(pt, "jobs"), j, job) {
                if (!t)
                    return NULL;
                json_t *buf = json_object_get(job, "buffer");
                so_table_row(t);
                size_t c = 0;
                so_table_text(t, c++, backend);
                so_table_int(t, c++, (long long)i);
                so_table_real(t, c++, json_number_value(json_object_get(pt, "makespan")));
                so_table_real(t, c++, json_number_value(json_object_get(pt, "budget")));
                so_table_int(t, c++, (long long)json_integer_value(json_object_get(pt, "vms")));
                so_table_int(t, c++, (long long)j);
                static const char *const ints[] = {"map_slots", "reduce_slots", "map_tasks",
                                                   "reduce_tasks", "vms"};
                for (int k = 0; k < 5; k++)
                    so_table_int(t, c++, (long long)json_integer_value(
                                             json_object_get(job, ints[k])));
                static const char *const reals[] = {"jtime", "budget", "io_cost"};
                for (int k = 0; k < 3; k++)
                    so_table_real(t, c++, json_number_value(json_object_get(job, reals[k])));
                static const char *const bufs[] = {"size_mb", "meta_percent", "threshold"};
                for (int k = 0; k < 3; k++)
                    so_table_real(t, c++, json_number_value(json_object_get(buf, bufs[k])));
            }
        }
    }
    return t;
}

static char *render(json_t *all, int format, int compact, size_t *len)
{
    if (format == SO_OF_JSON) {
        char *s = so_ojson_dumps(all, compact);
        if (s)
            *len = strlen(s);
        return s;
    }
    so_table *t = points_table(all);
    char *buf = NULL;
    FILE *mem = t ? open_memstream(&buf, len) : NULL;
    if (mem) {
        so_table_write(mem, t, format, compact);
        fclose(mem);
    }
    so_table_free(t);
    return buf;
}

/* Runs one backend; appends its result JSON to frontiers. */
static int run_one(const char *name, const so_problem *p, const so_params *prm,
                   json_t *frontiers, so_error *err)
{
    const so_backend *b = so_backend_find(name);
    if (!b)
    {
        char text[2048];
        return so_error_setf(err, NULL, 0, 0, NULL, "unknown backend '%s'; %s", name,
                             so_suggest_text(text, sizeof text, name, so_backend_names()));
    }
    so_result *r = NULL;
    int rc = so_solve(b, p, prm, &r, err);
    if (rc < 0)
        return rc;
    json_array_append_new(frontiers, so_result_to_json(r));
    so_result_free(r);
    return SO_OK;
}

int so_cmd_frontier(int argc, char **argv)
{
    const char *backends[MAX_BACKENDS], *reference = "pareto-sweep", *format = "json";
    const char *outpath = NULL, *plotpath = NULL;
    int nb = 0, c, compact = 0;
    so_params prm;
    so_params_init(&prm);
    so_error err;
    so_error_clear(&err);
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_frontier_spec)) != -1) {
        switch (c) {
        case 'b':
            if (nb == MAX_BACKENDS)
                return so_cli_usage_error("frontier", "at most %d --backend", MAX_BACKENDS);
            backends[nb++] = optarg;
            break;
        case 'r': reference = optarg; break;
        case 'O':
            if (so_params_set_kv(&prm, optarg, &err))
                return so_cli_report_error("frontier", SO_EINVAL, &err);
            break;
        case 's':
            if (so_cli_parse_u64(optarg, &prm.seed))
                return so_cli_usage_error("frontier", "--seed: expected an unsigned integer, found '%s'", optarg);
            break;
        case 't':
            if (so_cli_parse_double(optarg, &prm.time_limit))
                return so_cli_usage_error("frontier", "--time-limit: expected seconds >= 0, found '%s'", optarg);
            break;
        case 'f': format = optarg; break;
        case 'C': compact = 1; break;
        case 'o': outpath = optarg; break;
        case 'p': plotpath = optarg; break;
        case 'h': return so_cli_print_help(&so_frontier_spec);
        default: return so_cli_bad_option("frontier", argv);
        }
    }
    int fmt, bad = so_cli_format("frontier", format, so_frontier_spec.formats, &fmt);
    if (bad)
        return bad;
    if (plotpath && strcmp(plotpath, "-") && so_gp_check_path(plotpath, &err))
        return so_cli_usage_error("frontier", "--plot %s: %s", plotpath, err.message);
    if (optind != argc - 1)
        return so_cli_usage_error("frontier", "expected one instance FILE");
    if (nb == 0)
        backends[nb++] = "pareto-slots";
    so_problem *p = NULL;
    int rc = so_problem_read(argv[optind], &p, &err);
    if (rc)
        return so_cli_report_error("frontier", rc, &err);
    if (strcmp(so_problem_kind(p), "pareto")) {
        char kind[64];
        snprintf(kind, sizeof kind, "%s", so_problem_kind(p));
        so_problem_free(p);
        return so_cli_usage_error("frontier", "%s is a '%s' instance, not 'pareto'",
                                  argv[optind], kind);
    }
    json_t *all = json_pack("{sss[]}", "instance", so_problem_name(p), "frontiers");
    json_t *frontiers = json_object_get(all, "frontiers");
    int with_ref = strcmp(reference, "none") != 0;
    if (with_ref) {
        /* the buffer tuning of the compared runs (their quality extras use
         * the reference frontier on the same tuned buffers) */
        static const char *const shared[] = {"buffer", "samples"};
        so_params ref;
        so_params_init(&ref);
        ref.time_limit = prm.time_limit;
        ref.seed = prm.seed;
        for (int k = 0; k < 2; k++)
            if (so_params_get(&prm, shared[k]))
                so_params_set(&ref, shared[k], so_params_get(&prm, shared[k]));
        rc = run_one(reference, p, &ref, frontiers, &err);
        if (!rc && so_params_set(&prm, "reference", reference))
            rc = so_error_setf(&err, NULL, 0, 0, NULL, "too many --opt");
    }
    for (int i = 0; !rc && i < nb; i++)
        rc = run_one(backends[i], p, &prm, frontiers, &err);
    const so_pareto *pr = so_pareto_of(p);
    so_frontier_window win = {pr->budget_min, pr->budget_max, pr->deadline};
    so_problem_free(p);
    size_t len = 0;
    char *text = rc ? NULL : render(all, fmt, compact, &len);
    if (!rc && !text)
        rc = SO_ENOMEM;
    if (!rc && plotpath)
        rc = so_frontier_plot(all, &win, plotpath, &err);
    if (!rc)
        rc = so_write_file_atomic(outpath ? outpath : "-", text, len, &err);
    free(text);
    json_decref(all);
    return rc ? so_cli_report_error("frontier", rc, &err) : SO_EXIT_OK;
}
