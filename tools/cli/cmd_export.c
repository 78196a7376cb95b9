/* cmd_export.c — `slotopt export`: the instance's MILP as GLPK writes it. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli/cli.h"

int so_cmd_export(int argc, char **argv)
{
    static const struct option opts[] = {
        {"format", required_argument, 0, 'f'},
        {"output", required_argument, 0, 'o'},
        {"opt", required_argument, 0, 'O'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *format = NULL, *out = NULL;
    so_params prm;
    so_params_init(&prm);
    so_error err;
    so_error_clear(&err);
    int c;
    if (so_export_plan_format(argc, argv)) /* Hadoop configuration of a plan */
        return so_cmd_export_plan(argc, argv);
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f': format = optarg; break;
        case 'o': out = optarg; break;
        case 'O':
            if (so_params_set_kv(&prm, optarg, &err))
                return so_cli_report_error("export", SO_EINVAL, &err);
            break;
        case 'h':
            printf("usage: slotopt export --format lp|mps [--opt KEY=VALUE] FILE [-o OUT]\n\n"
                   "Writes the instance's MILP in CPLEX LP or free MPS format,"
                   " written by GLPK\n(glp_write_lp / glp_write_mps), to OUT or"
                   " stdout. A maximisation is written\nto MPS as the minimisation"
                   " of the negated objective. A pareto instance's model\nis one"
                   " epsilon-constraint MILP: least budget at makespan <= T, T the\n"
                   "instance's deadline or --opt deadline=SECONDS"
                   " (docs/formats.md, \"Model export\").\n\n"
                   "       slotopt export --format fair-scheduler|yarn-fair|"
                   "capacity-scheduler FILE\n"
                   "              [--opt budget=B|deadline=D|container_mb=M|am_mb=M|alloc_mb=M|at=S]\n"
                   "              [-o OUT]\n\n"
                   "Writes the Hadoop scheduler configuration of a Pareto plan or a FLEX\n"
                   "allocation (FILE: an instance, or a result of slotopt solve), or of\n"
                   "the WPBS shares of a cluster workload at time S (docs/hadoop-export.md).\n");
            return SO_EXIT_OK;
        default: return so_cli_bad_option("export", argv);
        }
    }
    int fmt = format && !strcmp(format, "lp")    ? SO_FORMAT_LP
              : format && !strcmp(format, "mps") ? SO_FORMAT_MPS
                                                 : 0;
    if (!fmt)
        return so_cli_usage_error("export", "--format: expected lp or mps");
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
