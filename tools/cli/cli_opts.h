/* cli_opts.h — one table per command for its options: the getopt_long
 * parser and the --help text (usage line, option list) are both built from
 * it, so that they cannot drift apart; tools/cli/man-commands.sh builds the
 * man page from the --help texts. */
#ifndef SO_CLI_OPTS_H
#define SO_CLI_OPTS_H
#include <stdio.h>

/* One option. */
typedef struct so_cli_opt {
    const char *name; /* long name without "--" */
    int key;          /* what so_cli_getopt returns for it */
    int flags;        /* SO_OPT_* */
    const char *arg;  /* the value's name in the help (NULL: a flag) */
    const char *help; /* description, wrapped to the screen; '\n' breaks a line.
                         NULL for --format: the command's formats */
} so_cli_opt;

enum {
    SO_OPT_SHORT = 1,    /* key is also a short option (-k) */
    SO_OPT_REPEAT = 2,   /* may be given more than once ("..." in the usage) */
    SO_OPT_REQUIRED = 4, /* shown without brackets in the usage */
    SO_OPT_HIDDEN = 8,   /* internal: parsed, in the option list, not in the usage */
};

/* A command's interface. */
typedef struct so_cli_spec {
    const char *command;    /* "solve" */
    const char *operands;   /* after the options in the usage ("FILE"), or NULL */
    const char *about;      /* paragraphs after the usage line */
    const so_cli_opt *opts; /* ended by {0} */
    unsigned formats;       /* SO_OF_* bits of --format, 0 without */
    int default_format;     /* one of them */
    void (*more)(FILE *fp); /* printed after the option list, or NULL */
} so_cli_spec;

/* The options every command that prints results shares: --format, --compact
 * and -o/--output; keys 'f', 'C', 'o'. */
#define SO_CLI_OUTPUT_OPTS                                                        \
    {"format", 'f', SO_OPT_SHORT, "F", NULL},                                               \
    {"compact", 'C', 0, NULL, "JSON on one line"},                                \
    {"output", 'o', SO_OPT_SHORT, "OUT",                                          \
     "write to OUT instead of standard output: atomically (a temporary file "     \
     "beside it, renamed when everything was written; nothing on error)"}
#define SO_CLI_HELP_OPT {"help", 'h', SO_OPT_SHORT, NULL, "this text"}

/* getopt_long over the spec's options: the key of the option found, '?' for
 * an unknown one or a missing value (so_cli_bad_option says which), -1 at
 * the end. Set optind = 1 before the first call. */
int so_cli_getopt(int argc, char **argv, const so_cli_spec *spec);
/* The help: usage line, about, option list, more. */
void so_cli_help(FILE *fp, const so_cli_spec *spec);
/* Prints the help to stdout and returns SO_EXIT_OK. */
int so_cli_print_help(const so_cli_spec *spec);

extern const so_cli_spec so_solve_spec, so_backends_spec, so_families_spec, so_gen_spec, so_export_spec, so_flex_compare_spec, so_flex_check_spec, so_frontier_spec, so_bench_spec, so_report_spec, so_scenarios_spec, so_tour_spec, so_sim_spec, so_execute_spec;
/* Every command's spec, NULL-terminated (tools/cli/cli_specs.c). */
extern const so_cli_spec *const so_cli_specs[];

#endif
