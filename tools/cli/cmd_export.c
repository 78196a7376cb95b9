/* cmd_export.c — `slotopt export`: the instance's MILP as GLPK writes it. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/cli/cli_opts.h"

static const so_cli_opt opts[] = {
    {"format", 'f', SO_OPT_SHORT | SO_OPT_REQUIRED, "F",
     "lp or mps (the MILP, written by GLPK), or fair-scheduler, yarn-fair or "
     "capacity-scheduler (the Hadoop configuration of a plan)"},
    {"output", 'o', SO_OPT_SHORT, "OUT", "write to OUT (atomically) instead of stdout"},
    {"opt", 'O', SO_OPT_REPEAT, "KEY=VALUE",
     "lp, mps: deadline=SECONDS (pareto). Hadoop formats: budget=B, deadline=D "
     "(the plan chosen), container_mb=M, am_mb=M (the ApplicationMaster, default "
     "1536), alloc_mb=M (default 1024), at=S (the WPBS shares at time S)"},
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

const so_cli_spec so_export_spec = {
    "export", "FILE",
    "--format lp|mps: writes the instance's MILP in CPLEX LP or free MPS\n"
    "format, written by GLPK (glp_write_lp / glp_write_mps), to OUT or stdout.\n"
    "A maximisation is written to MPS as the minimisation of the negated\n"
    "objective. A pareto instance's model is one epsilon-constraint MILP:\n"
    "least budget at makespan <= T, T the instance's deadline or --opt\n"
    "deadline=SECONDS (docs/formats.md, \"Model export\").\n\n"
    "--format fair-scheduler|yarn-fair|capacity-scheduler: writes the Hadoop\n"
    "scheduler configuration of a Pareto plan or a FLEX allocation (FILE: an\n"
    "instance, or a result of slotopt solve; - reads stdin), or of the WPBS\n"
    "shares of a cluster workload at time S (docs/hadoop-export.md).\n",
    opts, 0, 0, NULL};

int so_cmd_export(int argc, char **argv)
{
    const char *format = NULL, *out = NULL;
    so_params prm;
    so_params_init(&prm);
    so_error err;
    so_error_clear(&err);
    int c;
    if (so_export_plan_format(argc, argv)) /* Hadoop configuration of a plan */
        return so_cmd_export_plan(argc, argv);
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_export_spec)) != -1) {
        switch (c) {
        case 'f': format = optarg; break;
        case 'o': out = optarg; break;
        case 'O':
            if (so_params_set_kv(&prm, optarg, &err))
                return so_cli_report_error("export", SO_EINVAL, &err);
            break;
        case 'h': return so_cli_print_help(&so_export_spec);
        default: return so_cli_bad_option("export", argv);
        }
    }
    int fmt = format && !strcmp(format, "lp")    ? SO_FORMAT_LP
              : format && !strcmp(format, "mps") ? SO_FORMAT_MPS
                                                 : 0;
    static const char *const formats[] = {"lp", "mps", "fair-scheduler", "yarn-fair",
                                          "capacity-scheduler", NULL};
    if (!fmt)
        return so_cli_choice_error("export", "--format", format ? format : "", formats);
    if (optind != argc - 1)
        return so_cli_usage_error("export", "expected one instance FILE");
    so_problem *p = NULL;
    int rc = so_problem_read(argv[optind], &p, &err);
    if (rc)
        return so_cli_report_error("export", rc, &err);
    /* "-" or no -o: standard output, checked like any other output */
    rc = so_problem_export_params(p, out ? out : "-", fmt, &prm, &err);
    so_problem_free(p);
    return rc ? so_cli_report_error("export", rc, &err) : SO_EXIT_OK;
}
