/* cmd_export.c — `slotopt export`: the instance's MILP as GLPK writes it. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools/cli.h"

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
                   " (docs/formats.md, \"Model export\").\n");
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
    char tmpdir[] = "/tmp/slotopt-export-XXXXXX", tmp[64];
    const char *target = out;
    if (!out) {
        if (!mkdtemp(tmpdir)) {
            so_problem_free(p);
            return so_cli_usage_error("export", "cannot create a temporary folder");
        }
        snprintf(tmp, sizeof tmp, "%s/model", tmpdir);
        target = tmp;
    }
    rc = so_problem_export_params(p, target, fmt, &prm, &err);
    so_problem_free(p);
    if (rc) {
        if (!out)
            rmdir(tmpdir);
        return so_cli_report_error("export", rc, &err);
    }
    int code = SO_EXIT_OK;
    if (!out) {
        FILE *fp = fopen(tmp, "rb");
        char buf[8192];
        size_t n;
        while (fp && (n = fread(buf, 1, sizeof buf, fp)) > 0)
            fwrite(buf, 1, n, stdout);
        if (!fp || ferror(fp))
            code = so_cli_usage_error("export", "cannot read back the model %s", tmp);
        if (fp)
            fclose(fp);
        unlink(tmp);
        rmdir(tmpdir);
        if (code == SO_EXIT_OK)
            code = so_cli_flush_stdout("export");
    }
    return code;
}
