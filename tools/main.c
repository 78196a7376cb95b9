/* main.c — the slotopt program: dispatch to subcommands. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli.h"

static const so_command commands[] = {
    {"solve", "solve an instance file with a backend", so_cmd_solve},
    {"backends", "list the solver backends", so_cmd_backends},
    {"families", "list the instance families", so_cmd_families},
    {"gen", "generate instances of a family", so_cmd_gen},
    {"export", "write an instance's MILP model (LP or MPS, by GLPK)", so_cmd_export},

    /* flex */

    /* pareto */

    /* ras */

    /* harness */
    {"bench", "run backends on instances: gaps to a reference, stored", so_cmd_bench},
    {"report", "the gap tables and plots of a results database", so_cmd_report},

    /* cluster */

};

int so_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "slotopt %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see 'slotopt %s --help')\n", cmd);
    va_end(ap);
    return SO_EXIT_USAGE;
}

int so_cli_exit_code(int rc)
{
    if (rc >= 0)
        return SO_EXIT_OK;
    return rc == SO_EINVAL || rc == SO_EIO || rc == SO_EUNSUPPORTED
               ? SO_EXIT_USAGE
               : SO_EXIT_BACKEND;
}

int so_cli_report_error(const char *cmd, int rc, const so_error *err)
{
    char buf[1600];
    if (err && (err->message[0] || err->file[0]))
        fprintf(stderr, "slotopt %s: %s\n", cmd, so_error_format(err, buf, sizeof buf));
    else
        fprintf(stderr, "slotopt %s: %s\n", cmd, so_status_str(rc));
    return so_cli_exit_code(rc);
}

int so_cli_parse_double(const char *s, double *out)
{
    char *end;
    double x = strtod(s, &end);
    if (end == s || *end || !(x >= 0) || x > 1e12)
        return -1;
    *out = x;
    return 0;
}

int so_cli_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!*s || *s == '-')
        return -1;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end)
        return -1;
    *out = x;
    return 0;
}

static void usage(FILE *fp)
{
    fprintf(fp, "usage: slotopt COMMAND [OPTIONS] ...\n\n"
                "MapReduce slot-scheduling models: exact and heuristic backends.\n\n"
                "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(fp, "\n'slotopt COMMAND --help' for a command's options; "
                "'slotopt --version'.\nExit codes: 0 solved, 2 usage or bad "
                "input, 3 backend failure.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return SO_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("slotopt %s\n", SO_VERSION);
        return SO_EXIT_OK;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        usage(stdout);
        return SO_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "slotopt: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return SO_EXIT_USAGE;
}
