/* cmd_report.c — `slotopt report`: the tables of a results database again,
 * and gnuplot plots (docs/harness.md). */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tools/cli/cli.h"
#include "tools/harness/harness.h"

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: slotopt report [--db FILE] [--format F] [--compact] [--cells]\n"
            "                      [--group-by KEY] [--plot DIR] [--plot-type T]\n\n"
            "Prints the gap tables of every cell stored in the database (each\n"
            "problem kind against the reference, and grouped as, its last bench).\n\n"
            "  --db FILE       results database (default slotopt-bench.db), a file\n"
            "  --format F      table (default), csv, json or markdown\n"
            "  --compact       JSON on one line\n"
            "  --cells         print the per-cell table too\n"
            "  --group-by KEY  one summary row per value of family parameter KEY\n"
            "                  ('' for none; default: as the last bench); an\n"
            "                  unknown KEY is an error listing the accepted ones\n"
            "  --plot DIR      write gnuplot data, scripts and plots to DIR:\n"
            "                  ratio distribution per backend, and frontiers of\n"
            "                  instances whose rows store one (skipped without\n"
            "                  gnuplot; $SLOTOPT_GNUPLOT names another program)\n"
            "  --plot-type T   svg (default), png or pdf\n");
}

int so_cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, 0, 'd'},
        {"format", required_argument, 0, 'f'},
        {"cells", no_argument, 0, 'c'},
        {"compact", no_argument, 0, 'C'},
        {"group-by", required_argument, 0, 'g'},
        {"plot", required_argument, 0, 'p'},
        {"plot-type", required_argument, 0, 'T'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *db = "slotopt-bench.db", *fmt = "table", *group_by = NULL, *plot = NULL;
    const char *plot_type = "svg";
    int cells = 0, compact = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "d:f:cg:p:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'f': fmt = optarg; break;
        case 'c': cells = 1; break;
        case 'C': compact = 1; break;
        case 'g': group_by = optarg; break;
        case 'p': plot = optarg; break;
        case 'T': plot_type = optarg; break;
        case 'h': help(stdout); return SO_EXIT_OK;
        default: return so_cli_bad_option("report", argv);
        }
    }
    int format = so_hformat_parse(fmt);
    if (format < 0)
        return so_cli_usage_error("report", "--format: expected table, csv, json or markdown, found '%s'", fmt);
    if (strcmp(plot_type, "svg") && strcmp(plot_type, "png") && strcmp(plot_type, "pdf"))
        return so_cli_usage_error("report", "--plot-type: expected svg, png or pdf, found '%s'",
                                  plot_type);
    if (optind != argc)
        return so_cli_usage_error("report", "unexpected argument '%s'", argv[optind]);
    if (access(db, R_OK))
        return so_cli_usage_error("report", "cannot read the database %s: %s", db, strerror(errno));
    if (plot && mkdir(plot, 0777) && errno != EEXIST)
        return so_cli_usage_error("report", "cannot create %s: %s", plot, strerror(errno));
    so_error err;
    so_error_clear(&err);
    so_hstore *st = NULL;
    so_hrows rows = {0};
    so_hkinds kinds = {0};
    int rc = so_hstore_open(db, 0, &st, &err);
    if (!rc)
        rc = so_hstore_load(st, &rows, &err);
    if (!rc)
        rc = so_hstore_kinds(st, &kinds, &err);
    if (!rc && rows.n == 0)
        rc = so_error_setf(&err, db, 0, 0, NULL, "no result stored in this database");
    char accepted[1024];
    if (!rc && so_hgroup_key_check(&rows, group_by, accepted, sizeof accepted)) {
        so_hrows_free(&rows);
        so_hkinds_free(&kinds);
        so_hstore_close(st);
        return so_cli_usage_error("report", "--group-by: unknown key '%s'; accepted: %s",
                                  group_by, accepted);
    }
    if (compact)
        format |= SO_HF_COMPACT;
    so_htables t;
    if (!rc && !(rc = so_harness_tables(&rows, &kinds, group_by, &t))) {
        so_harness_print(stdout, &t, format, cells);
        so_cli_flush_note(); /* main checks stdout at exit */
        so_harness_warn(stderr, "report", &t, &kinds);
        int plotted = 0, skipped = 0;
        if (plot)
            rc = so_harness_plot_ext(&t, plot, plot_type, &plotted, &skipped, &err);
        if (!rc && plot && skipped)
            fprintf(stderr, "slotopt report: gnuplot not found: plots skipped"
                            " (data and scripts are in %s)\n", plot);
        else if (!rc && plot)
            fprintf(stderr, "slotopt report: %d plots in %s\n", plotted, plot);
        so_htables_free(&t);
    }
    so_hrows_free(&rows);
    so_hkinds_free(&kinds);
    so_hstore_close(st);
    return rc ? so_cli_report_error("report", rc, &err) : SO_EXIT_OK;
}
