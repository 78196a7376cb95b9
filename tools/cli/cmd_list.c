/* cmd_list.c — `slotopt backends` and `slotopt families`: the registry. */
#include <getopt.h>
#include <string.h>
#include "tools/cli/cli.h"

static void print_docs(const so_option_doc *d, const char *what)
{
    for (; d && d->key; d++)
        printf("      %s %s=%s  %s\n", what, d->key, d->def ? d->def : "", d->help);
}

int so_cmd_backends(int argc, char **argv)
{
    static const struct option opts[] = {
        {"problem", required_argument, 0, 'p'},
        {"verbose", no_argument, 0, 'v'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *problem = NULL;
    int verbose = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "p:vh", opts, NULL)) != -1) {
        switch (c) {
        case 'p': problem = optarg; break;
        case 'v': verbose = 1; break;
        case 'h':
            printf("usage: slotopt backends [--problem P] [-v]\n\n"
                   "One row per backend: name, problem, exact|heuristic,"
                   " description.\n  -v  also list each backend's --opt"
                   " options and defaults\n");
            return SO_EXIT_OK;
        default: return so_cli_bad_option("backends", argv);
        }
    }
    if (optind != argc)
        return so_cli_usage_error("backends", "unexpected argument '%s'", argv[optind]);
    int shown = 0;
    for (size_t i = 0; i < so_backend_count(); i++) {
        const so_backend *b = so_backend_at(i);
        if (problem && strcmp(problem, b->problem))
            continue;
        printf("%-16s %-10s %-9s %s\n", b->name, b->problem,
               b->exact ? "exact" : "heuristic", b->description);
        if (verbose)
            print_docs(b->options, "--opt");
        shown++;
    }
    if (!shown && problem)
        return so_cli_usage_error("backends", "no backend for problem '%s'", problem);
    return SO_EXIT_OK;
}

int so_cmd_families(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: slotopt families\n\nOne row per instance family: name,"
               " problem, description, then its --set parameters.\n");
        return SO_EXIT_OK;
    }
    if (argc > 1)
        return so_cli_usage_error("families", "unexpected argument '%s'", argv[1]);
    for (size_t i = 0; i < so_family_count(); i++) {
        const so_family *f = so_family_at(i);
        printf("%-16s %-10s %s\n", f->name, f->problem, f->description);
        print_docs(f->params, "--set");
    }
    return SO_EXIT_OK;
}
