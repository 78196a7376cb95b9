/* cli_format.h — the --format and -o options of the subcommands, read and
 * written the same way by each (the names in tools/output/output_format.h,
 * the option table entries SO_CLI_OUTPUT_OPTS in tools/cli/cli_opts.h). */
#ifndef SO_CLI_FORMAT_H
#define SO_CLI_FORMAT_H
#include <stdio.h>

/* Reads --format `name` of command cmd among `allowed` (SO_OF_* bits):
 * *out gets the format and SO_EXIT_OK is returned, or else the usage error
 * "slotopt CMD: --format: expected NAMES, found 'NAME'; did you mean ...?"
 * is printed and its exit code returned. */
int so_cli_format(const char *cmd, const char *name, unsigned allowed, int *out);
/* The one message for a value of an option that is not one of names
 * (NULL-terminated): "slotopt CMD: OPTION: expected A, B or C, found
 * 'WORD'; did you mean 'B'?"; returns SO_EXIT_USAGE. */
int so_cli_choice_error(const char *cmd, const char *option, const char *word,
                        const char *const *names);

/* A command's results: written into memory first, then to -o OUT
 * atomically (a temporary file beside it renamed onto it: nothing is left
 * on error) or to standard output. */
typedef struct so_cli_out {
    const char *cmd, *path; /* path NULL or "-": standard output */
    int format, compact;
    FILE *fp; /* write the results here */
    char *buf;
    size_t len;
} so_cli_out;

/* Reads the format (so_cli_format) and opens the memory buffer: SO_EXIT_OK,
 * or the exit code of the message printed. */
int so_cli_out_open(so_cli_out *o, const char *cmd, const char *format_name,
                    unsigned allowed, const char *path, int compact);
/* When code is SO_EXIT_OK, writes what was written to o->fp to its place
 * (an error there is reported and its code returned); else drops it and
 * returns code. Frees the buffer either way. */
int so_cli_out_close(so_cli_out *o, int code);
/* Drops what was written (a process that prints nothing: an MPI rank
 * other than 0, the launcher of an MPI job). */
void so_cli_out_drop(so_cli_out *o);

#endif
