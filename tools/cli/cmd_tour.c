/* cmd_tour.c — `slotopt tour`: what `make run` shows (tools/cli/tour.c). */
#include <getopt.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_opts.h"
#include "tools/cli/tour.h"

static const so_cli_opt opts[] = {
    {"jobs", 'j', SO_OPT_SHORT, "N",
     "worker processes per section (default: the scenario's, 2)"},
    {"db", 'd', SO_OPT_SHORT, "FILE",
     "the results database (default slotopt-tour.db): a file or a new path (a new "
     "one is removed if the tour fails)"},
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

const so_cli_spec so_tour_spec = {
    "tour", NULL,
    "The papers' headline experiments, one short table each: FLEX Fig. 5\n"
    "(FIFO, FAIR, FLEX against the exact optimum), the Pareto paper's greedy\n"
    "frontiers against the exact frontier, the RAS placement heuristic against\n"
    "the exact placement, and a day of the SWIM Facebook trace replayed under\n"
    "fifo, fair, flex, wpbs and resource stealing with BASE. Each table is a\n"
    "harness scenario (slotopt bench --scenario NAME, named under the table,\n"
    "which gives its tables in every --format); the cells are stored in FILE\n"
    "(default slotopt-tour.db).\n",
    opts, 0, 0, NULL};

int so_cmd_tour(int argc, char **argv)
{
    const char *db = "slotopt-tour.db";
    int jobs = 0, c;
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_tour_spec)) != -1) {
        switch (c) {
        case 'j': {
            uint64_t v;
            if (so_cli_parse_u64(optarg, &v) || v < 1 || v > 256)
                return so_cli_usage_error("tour", "--jobs: expected 1..256, found '%s'", optarg);
            jobs = (int)v;
            break;
        }
        case 'd': db = optarg; break;
        case 'h': return so_cli_print_help(&so_tour_spec);
        default: return so_cli_bad_option("tour", argv);
        }
    }
    if (optind < argc)
        return so_cli_usage_error("tour", "unexpected argument '%s'", argv[optind]);
    so_error err;
    so_error_clear(&err);
    int rc = so_tour_run(stdout, db, jobs, &err);
    return rc ? so_cli_report_error("tour", rc, &err) : SO_EXIT_OK;
}
