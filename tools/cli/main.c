/* main.c — the slotopt program: dispatch to subcommands. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/common/suggest.h"
#include "tools/cli/cli.h"

static const so_command commands[] = {
    {"solve", "solve an instance file with a backend", so_cmd_solve},
    {"backends", "list the solver backends", so_cmd_backends},
    {"families", "list the instance families", so_cmd_families},
    {"gen", "generate instances of a family", so_cmd_gen},
    {"export", "write an instance's MILP model (LP or MPS, by GLPK)", so_cmd_export},

    /* flex */
    {"flex-compare", "FLEX Fig. 5: FIFO, FAIR, FLEX vs the exact optimum", so_cmd_flex_compare},
    {"flex-check", "check a malleable schedule against a flex instance", so_cmd_flex_check},

    /* pareto */
    {"frontier", "pareto frontiers of several backends as JSON/CSV, gnuplot plot",
     so_cmd_frontier},

    /* ras */

    /* harness */
    {"bench", "run backends on instances: gaps to a reference, stored", so_cmd_bench},
    {"report", "the gap tables and plots of a results database", so_cmd_report},
    {"tour", "the papers' headline experiments, one table each (make run)", so_cmd_tour},

    /* cluster */
    {"sim", "replay a workload on the discrete-event cluster model", so_cmd_sim},
    {"execute", "run a Pareto plan on the cluster model: predicted vs simulated",
     so_cmd_execute},

};

/* Every command's standard output is checked once more at exit: flushed,
 * error flag, closed. A failure (a full device, a closed pipe, a disk
 * error) after a successful command is exit 2 with a message, never a
 * silent 0. */
static int finish(const char *cmd, int code)
{
    errno = 0;
    int bad = fflush(stdout) != 0;
    int e = bad ? errno : so_cli_stdout_errno;
    bad = ferror(stdout) || bad;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad && code == SO_EXIT_OK) {
        fprintf(stderr, "slotopt%s%s: cannot write to stdout: %s\n", cmd ? " " : "",
                cmd ? cmd : "", strerror(e ? e : EIO));
        return SO_EXIT_USAGE;
    }
    return code;
}

static void usage(FILE *fp)
{
    fprintf(fp, "usage: slotopt COMMAND [OPTIONS] ...\n\n"
                "MapReduce slot-scheduling models: exact and heuristic backends.\n\n"
                "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(fp, "  %-14s %s\n", commands[i].name, commands[i].summary);
    fprintf(fp, "\n'slotopt COMMAND --help' for a command's options; "
                "'slotopt --version'.\nExit codes: 0 solved, 2 usage or bad "
                "input, 3 backend failure.\n");
}

int main(int argc, char **argv)
{
    opterr = 0; /* so_cli_bad_option says what was wrong, once */
    if (argc < 2) {
        usage(stderr);
        return SO_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("slotopt %s\n", SO_VERSION);
        return finish(NULL, SO_EXIT_OK);
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        usage(stdout);
        return finish(NULL, SO_EXIT_OK);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return finish(argv[1], commands[i].run(argc - 1, argv + 1));
    const char *names[sizeof commands / sizeof commands[0] + 1] = {0};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        names[i] = commands[i].name;
    const char *close = so_suggest(argv[1], names);
    if (close)
        fprintf(stderr, "slotopt: unknown command '%s'; did you mean '%s'?\n", argv[1], close);
    else
        fprintf(stderr, "slotopt: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return SO_EXIT_USAGE;
}
