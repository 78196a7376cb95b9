/* cmd_frontier.c — `slotopt frontier`: the (makespan, budget) frontiers of
 * a pareto instance found by several backends, as JSON (every point with
 * its plan) or CSV (one row per point and job), and a gnuplot plot of the
 * heuristic frontiers against the exact one (tools/cli/frontier_plot.c). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/common/gnuplot.h"
#include "formulations/pareto.h"
#include "formulations/common/suggest.h"
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/cli/frontier_plot.h"
#include "tools/output/output_format.h"

#define MAX_BACKENDS 8

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: slotopt frontier [--backend NAME]... [--reference NAME]\n"
            "                        [--opt KEY=VALUE]... [--seed N] [--time-limit S]\n"
            "                        [--format json|csv] [--compact] [-o OUT]\n"
            "                        [--plot FILE] FILE\n\n"
            "Runs each --backend (default pareto-slots) and the exact --reference\n"
            "(default pareto-sweep; 'none' to skip) on the pareto instance FILE.\n"
            "The heuristics report hypervolume_ratio, epsilon and makespan gaps\n"
            "against the reference (docs/pareto.md).\n\n"
            "  --backend NAME    a pareto backend (repeatable, up to %d)\n"
            "  --reference NAME  pareto-sweep, pareto-enum, pareto-glpk or none\n"
            "  --opt KEY=VALUE   option of the --backend runs ('slotopt backends -v')\n"
            "  --format F        json (default): {\"instance\", \"frontiers\": [result,\n"
            "                    ...]}; csv: one row per frontier point and job\n"
            "  --compact         JSON on one line\n"
            "  -o OUT            write to OUT (atomically) instead of stdout\n"
            "  --plot FILE       gnuplot plot; the extension picks the type:\n"
            "                    .png, .svg or .pdf\n",
            MAX_BACKENDS);
}

static void csv_rows(FILE *fp, json_t *res)
{
    const char *backend = json_string_value(json_object_get(res, "backend"));
    json_t *points = json_object_get(json_object_get(res, "solution"), "points");
    size_t i, j;
    json_t *pt, *job;
    json_array_foreach(points, i, pt) {
        json_array_foreach(json_object_get(pt, "jobs"), j, job) {
            json_t *buf = json_object_get(job, "buffer");
            fprintf(fp, "%s,%zu,%.17g,%.17g,%lld,%zu,%lld,%lld,%lld,%lld,%lld,%.17g,"
                        "%.17g,%.17g,%.17g,%.17g,%.17g\n",
                    backend, i, json_number_value(json_object_get(pt, "makespan")),
                    json_number_value(json_object_get(pt, "budget")),
                    (long long)json_integer_value(json_object_get(pt, "vms")), j,
                    (long long)json_integer_value(json_object_get(job, "map_slots")),
                    (long long)json_integer_value(json_object_get(job, "reduce_slots")),
                    (long long)json_integer_value(json_object_get(job, "map_tasks")),
                    (long long)json_integer_value(json_object_get(job, "reduce_tasks")),
                    (long long)json_integer_value(json_object_get(job, "vms")),
                    json_number_value(json_object_get(job, "jtime")),
                    json_number_value(json_object_get(job, "budget")),
                    json_number_value(json_object_get(job, "io_cost")),
                    json_number_value(json_object_get(buf, "size_mb")),
                    json_number_value(json_object_get(buf, "meta_percent")),
                    json_number_value(json_object_get(buf, "threshold")));
        }
    }
}

static char *render(json_t *all, int format, int compact, size_t *len)
{
    if (format == SO_OF_JSON) {
        char *s = so_ojson_dumps(all, compact);
        if (s)
            *len = strlen(s);
        return s;
    }
    char *buf = NULL;
    FILE *mem = open_memstream(&buf, len);
    if (!mem)
        return NULL;
    fprintf(mem, "backend,point,makespan,budget,vms,job,map_slots,reduce_slots,"
                 "map_tasks,reduce_tasks,job_vms,jtime,job_budget,io_cost,"
                 "buffer_mb,meta_percent,spill_threshold\n");
    size_t i;
    json_t *res;
    json_array_foreach(json_object_get(all, "frontiers"), i, res)
        csv_rows(mem, res);
    fclose(mem);
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
    static const struct option opts[] = {
        {"backend", required_argument, 0, 'b'}, {"reference", required_argument, 0, 'r'},
        {"opt", required_argument, 0, 'O'},     {"seed", required_argument, 0, 's'},
        {"time-limit", required_argument, 0, 't'}, {"format", required_argument, 0, 'f'},
        {"compact", no_argument, 0, 'C'},
        {"output", required_argument, 0, 'o'},  {"plot", required_argument, 0, 'p'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0},
    };
    const char *backends[MAX_BACKENDS], *reference = "pareto-sweep", *format = "json";
    const char *outpath = NULL, *plotpath = NULL;
    int nb = 0, c, compact = 0;
    so_params prm;
    so_params_init(&prm);
    so_error err;
    so_error_clear(&err);
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:r:O:s:t:f:o:p:h", opts, NULL)) != -1) {
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
        case 'h': help(stdout); return SO_EXIT_OK;
        default: return so_cli_bad_option("frontier", argv);
        }
    }
    int fmt, bad = so_cli_format("frontier", format, SO_OF_JSON | SO_OF_CSV, &fmt);
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
