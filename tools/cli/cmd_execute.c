/* cmd_execute.c — `slotopt execute FILE [--backend B] [--opt budget=B |
 * --opt deadline=D] [--opt nodes=shared|dedicated] [--opt tasks=split|random]
 * [--seed N] [--all] [--format F] [-o OUT]`: a Pareto plan run on the
 * cluster model,
 * predicted vs simulated job time and budget per job (the paper's Fig. 10;
 * docs/pareto.md, "Execution"). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/cli/cli_opts.h"
#include "tools/output/output_format.h"
#include "tools/output/table.h"
#include "tools/export/export_plan.h"
#include "tools/cli/pareto_execute.h"

static int plan_of(const so_pareto *pr, const json_t *point, so_pt_alloc *plan)
{
    const json_t *jobs = json_object_get(point, "jobs");
    if (json_array_size(jobs) != pr->n_jobs)
        return SO_EINVAL;
    for (size_t j = 0; j < pr->n_jobs; j++) {
        const json_t *o = json_array_get(jobs, j);
        so_pt_alloc_init(pr, j, &plan[j]);
        plan[j].ms = json_integer_value(json_object_get(o, "map_slots"));
        plan[j].rs = json_integer_value(json_object_get(o, "reduce_slots"));
        plan[j].mt = json_integer_value(json_object_get(o, "map_tasks"));
        plan[j].rt = json_integer_value(json_object_get(o, "reduce_tasks"));
    }
    return so_pt_plan_valid(pr, plan) ? SO_OK : SO_EINVAL;
}

/* Runs one point; *out gets its report (or NULL on error). */
static int run_point(const so_pareto *pr, const json_t *point, const so_pt_exec_opts *o,
                     json_t **out, double *sim_makespan, double *sim_budget, so_error *err)
{
    so_pt_alloc *plan = calloc(pr->n_jobs, sizeof *plan);
    so_pt_exec_job *x = calloc(pr->n_jobs, sizeof *x);
    int rc = plan && x ? plan_of(pr, point, plan) : SO_ENOMEM;
    if (rc == SO_EINVAL)
        so_error_setf(err, NULL, 0, 0, "solution.points.jobs", "not a plan of this instance");
    double pm = 0, sm = 0;
    if (!rc)
        rc = so_pt_execute_with(pr, plan, o, x, &pm, &sm, err);
    if (rc) {
        free(plan);
        free(x);
        return rc;
    }
    json_t *jobs = json_array();
    double sum_err = 0, worst = 0, pb = 0, sb = 0;
    for (size_t j = 0; j < pr->n_jobs; j++) {
        double e = fabs(x[j].simulated - x[j].predicted) / x[j].predicted;
        sum_err += e;
        worst = fmax(worst, e);
        pb += x[j].predicted_budget;
        sb += x[j].simulated_budget;
        json_array_append_new(jobs, json_pack(
            "{sssfsfsfsfsfsfsfsf}", "name", pr->jobs[j].name, "start", x[j].start,
            "predicted", x[j].predicted,
            "simulated", x[j].simulated, "relative_error", e, "theorem_low", x[j].low,
            "theorem_up", x[j].up, "predicted_budget", x[j].predicted_budget,
            "simulated_budget", x[j].simulated_budget));
    }
    *out = json_pack("{s{sfsf}s{sfsf}sfsfso}", "makespan", "predicted", pm, "simulated", sm,
                     "budget", "predicted", pb, "simulated", sb, "mean_relative_error",
                     sum_err / (double)pr->n_jobs, "worst_relative_error", worst, "jobs", jobs);
    *sim_makespan = sm;
    *sim_budget = sb;
    free(plan);
    free(x);
    return SO_OK;
}

static const so_cli_opt opts[] = {
    {"backend", 'b', SO_OPT_SHORT, "NAME", "the pareto backend (default pareto-sweep)"},
    {"opt", 'O', SO_OPT_REPEAT, "KEY=VALUE",
     "budget=B or deadline=D: the plan chosen (default: the cheapest within the "
     "instance's deadline); nodes=dedicated: each job alone on its own VMs (default "
     "shared: under Fair, one pool per job with min = max = its slots); "
     "tasks=random: task times drawn from the profiles (default split)"},
    {"all", 'a', 0, NULL,
     "run every frontier point and say whether the simulated points stay non-dominated"},
    {"seed", 's', 0, "N", "the seed of tasks=random (default 1)"},
    SO_CLI_OUTPUT_OPTS,
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

const so_cli_spec so_execute_spec = {
    "execute", "FILE",
    "Solves the Pareto instance FILE, runs the chosen plan on the cluster\n"
    "model and prints predicted vs simulated job times and budgets; under\n"
    "max_vms jobs wait for VMs. json: the whole report; table, csv and\n"
    "markdown: one row per job of the plan, or with --all one row per\n"
    "frontier point (docs/pareto.md, \"Execution\").\n",
    opts, SO_OF_JSON | SO_OF_TABLE | SO_OF_CSV | SO_OF_MARKDOWN, SO_OF_JSON, NULL};

/* The rows of the tabular formats: the plan's jobs, or (--all) the points. */
static so_table *report_table(json_t *report, int all)
{
    static const char *const jobs[] = {"name", "start", "predicted", "simulated",
                                       "relative_error", "theorem_low", "theorem_up",
                                       "predicted_budget", "simulated_budget", NULL};
    static const char *const points[] = {"predicted_makespan", "predicted_budget",
                                         "simulated_makespan", "simulated_budget", NULL};
    const char *const *keys = all ? points : jobs;
    json_t *rows = all ? json_object_get(report, "points")
                       : json_object_get(json_object_get(report, "plan"), "jobs");
    so_table *t = so_table_new();
    if (all && t && so_table_column(t, "point", NULL, SO_COL_INT, NULL) < 0)
        t = (so_table_free(t), NULL);
    for (size_t k = 0; t && keys[k]; k++)
        if (so_table_column(t, keys[k], NULL, k || all ? SO_COL_REAL : SO_COL_TEXT,
                            "%.6g") < 0)
            t = (so_table_free(t), NULL);
    size_t i;
    json_t *o;
    json_array_foreach(rows, i, o) {
        if (!t)
            break;
        so_table_row(t);
        size_t c = 0;
        if (all)
            so_table_int(t, c++, (long long)i);
        for (size_t k = 0; keys[k]; k++, c++) {
            json_t *v = json_object_get(o, keys[k]);
            if (json_is_string(v))
                so_table_text(t, c, json_string_value(v));
            else if (json_is_number(v))
                so_table_real(t, c, json_number_value(v));
        }
    }
    return t;
}

int so_cmd_execute(int argc, char **argv)
{
    const char *backend = "pareto-sweep", *format = "json", *outpath = NULL;
    double budget = -1, deadline = INFINITY;
    int all = 0, c, compact = 0;
    so_pt_exec_opts xo = {0, 0, 1};
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_execute_spec)) != -1) {
        switch (c) {
        case 'b': backend = optarg; break;
        case 'a': all = 1; break;
        case 'f': format = optarg; break;
        case 'C': compact = 1; break;
        case 'o': outpath = optarg; break;
        case 's':
            if (so_cli_parse_u64(optarg, &xo.seed))
                return so_cli_usage_error("execute", "--seed %s: expected an integer >= 0",
                                          optarg);
            break;
        case 'O':
            if (!strncmp(optarg, "budget=", 7) && !so_cli_parse_double(optarg + 7, &budget))
                break;
            if (!strncmp(optarg, "deadline=", 9) && !so_cli_parse_double(optarg + 9, &deadline) &&
                deadline > 0)
                break;
            if (!strcmp(optarg, "nodes=dedicated") || !strcmp(optarg, "nodes=shared")) {
                xo.dedicated = optarg[6] == 'd';
                break;
            }
            if (!strcmp(optarg, "tasks=random") || !strcmp(optarg, "tasks=split")) {
                xo.random = optarg[6] == 'r';
                break;
            }
            return so_cli_usage_error("execute", "--opt %s: expected budget=DOLLARS,"
                                      " deadline=SECONDS (> 0), nodes=shared|dedicated or"
                                      " tasks=split|random", optarg);
        case 'h': return so_cli_print_help(&so_execute_spec);
        default: return so_cli_bad_option("execute", argv);
        }
    }
    so_cli_out out;
    int code = so_cli_out_open(&out, "execute", format, so_execute_spec.formats, outpath,
                               compact);
    if (code)
        return code;
    if (optind != argc - 1)
        return so_cli_out_close(&out, so_cli_usage_error("execute",
                                                         "expected one Pareto instance FILE"));
    const so_backend *b = so_backend_find(backend);
    if (!b)
        return so_cli_out_close(&out, so_cli_unknown("execute", "backend", backend,
                                                     so_backend_names()));
    so_error err;
    so_error_clear(&err);
    so_problem *p = NULL;
    int rc = so_problem_read(argv[optind], &p, &err);
    if (rc)
        return so_cli_out_close(&out, so_cli_report_error("execute", rc, &err));
    const so_pareto *pr = so_pareto_of(p);
    if (!pr) {
        so_problem_free(p);
        return so_cli_out_close(&out, so_cli_usage_error(
                                          "execute", "%s: expected a pareto instance",
                                          argv[optind]));
    }
    so_result *r = NULL;
    rc = so_solve(b, p, NULL, &r, &err);
    json_t *pts = r ? json_object_get(so_result_solution(r), "points") : NULL;
    long k = -1;
    if (rc >= 0) {
        k = so_plan_select(pts, budget, isfinite(deadline) ? deadline : pr->deadline);
        if (k < 0)
            rc = so_error_setf(&err, argv[optind], 0, 0, budget >= 0 ? "budget" : "deadline",
                               "no plan of the frontier (%zu points) qualifies",
                               json_array_size(pts));
    }
    json_t *report = NULL, *points = all ? json_array() : NULL;
    double *sm = all ? calloc(json_array_size(pts) + 1, sizeof *sm) : NULL;
    double *sb = all ? calloc(json_array_size(pts) + 1, sizeof *sb) : NULL;
    for (size_t i = 0; rc >= 0 && i < json_array_size(pts); i++) {
        if (!all && (long)i != k)
            continue;
        json_t *one = NULL;
        double m0, b0;
        rc = run_point(pr, json_array_get(pts, i), &xo, &one, &m0, &b0, &err);
        if (rc)
            break;
        if ((long)i == k)
            report = json_pack("{sssIsO}", "backend", backend, "point", (json_int_t)k, "plan", one);
        if (all) {
            sm[i] = m0;
            sb[i] = b0;
            json_array_append_new(points, json_pack("{sfsfsfsf}", "predicted_makespan",
                json_real_value(json_object_get(json_array_get(pts, i), "makespan")),
                "predicted_budget", json_real_value(json_object_get(json_array_get(pts, i), "budget")),
                "simulated_makespan", m0, "simulated_budget", b0));
        }
        json_decref(one);
    }
    if (rc >= 0 && all && report) {
        size_t n = json_array_size(pts), dominated = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t q = 0; q < n; q++)
                if (q != i && sm[q] <= sm[i] && sb[q] <= sb[i] && (sm[q] < sm[i] || sb[q] < sb[i])) {
                    dominated++;
                    break;
                }
        json_object_set_new(report, "points", points);
        points = NULL;
        json_object_set_new(report, "simulated_dominated", json_integer((json_int_t)dominated));
    }
    json_decref(points);
    free(sm);
    free(sb);
    so_result_free(r);
    so_problem_free(p);
    if (rc < 0 || !report) {
        json_decref(report);
        return so_cli_out_close(&out, so_cli_report_error("execute", rc < 0 ? rc : SO_EINVAL,
                                                          &err));
    }
    if (out.format == SO_OF_JSON) {
        so_ojson_put(out.fp, report, compact);
        return so_cli_out_close(&out, SO_EXIT_OK);
    }
    so_table *t = report_table(report, all);
    json_decref(report);
    if (t)
        so_table_write(out.fp, t, out.format, compact);
    so_table_free(t);
    return so_cli_out_close(&out, t ? SO_EXIT_OK : so_cli_report_error("execute", SO_ENOMEM, NULL));
}
