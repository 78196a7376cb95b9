/* cmd_execute.c — `slotopt execute FILE [--backend B] [--opt budget=B |
 * --opt deadline=D] [--opt nodes=shared|dedicated] [--opt tasks=split|random]
 * [--seed N] [--all]`: a Pareto plan run on the cluster model,
 * predicted vs simulated job time and budget per job (the paper's Fig. 10;
 * docs/pareto.md, "Execution"). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli/cli.h"
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

int so_cmd_execute(int argc, char **argv)
{
    static const struct option opts[] = {
        {"backend", required_argument, 0, 'b'},
        {"opt", required_argument, 0, 'O'},
        {"all", no_argument, 0, 'a'},
        {"seed", required_argument, 0, 's'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *backend = "pareto-sweep";
    double budget = -1, deadline = INFINITY;
    int all = 0, c;
    so_pt_exec_opts xo = {0, 0, 1};
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:h", opts, NULL)) != -1) {
        switch (c) {
        case 'b': backend = optarg; break;
        case 'a': all = 1; break;
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
        case 'h':
            printf("usage: slotopt execute [--backend NAME] [--opt budget=B|deadline=D]"
                   " [--opt nodes=shared|dedicated]\n"
                   "                       [--opt tasks=split|random] [--seed N] [--all] FILE\n\n"
                   "Solves the Pareto instance FILE (default pareto-sweep), runs the chosen"
                   " plan\n(the cheapest within the deadline, or by --opt) on the cluster"
                   " model and prints\npredicted vs simulated job times and budgets; --all"
                   " runs every frontier point\nand says whether the simulated points stay"
                   " non-dominated.\nnodes=dedicated: each job alone on its own VMs"
                   " (default: shared under Fair,\none pool per job with min = max ="
                   " its slots); tasks=random: task times drawn\nfrom the profiles"
                   " (seeded by --seed, default 1); under max_vms jobs wait for VMs.\n");
            return SO_EXIT_OK;
        default: return so_cli_bad_option("execute", argv);
        }
    }
    if (optind != argc - 1)
        return so_cli_usage_error("execute", "expected one Pareto instance FILE");
    const so_backend *b = so_backend_find(backend);
    if (!b)
        return so_cli_unknown("execute", "backend", backend, so_backend_names());
    so_error err;
    so_error_clear(&err);
    so_problem *p = NULL;
    int rc = so_problem_read(argv[optind], &p, &err);
    if (rc)
        return so_cli_report_error("execute", rc, &err);
    const so_pareto *pr = so_pareto_of(p);
    if (!pr) {
        so_problem_free(p);
        return so_cli_usage_error("execute", "%s: expected a pareto instance", argv[optind]);
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
        return so_cli_report_error("execute", rc < 0 ? rc : SO_EINVAL, &err);
    }
    char *text = json_dumps(report, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    json_decref(report);
    if (text)
        puts(text);
    free(text);
    return text ? so_cli_flush_stdout("execute") : so_cli_exit_code(SO_ENOMEM);
}
