/* cli_format.h — the --format option of the subcommands, read the same way
 * by each (the names in tools/output/output_format.h). */
#ifndef SO_CLI_FORMAT_H
#define SO_CLI_FORMAT_H

/* Reads --format `name` of command cmd among `allowed` (SO_OF_* bits):
 * *out gets the format and SO_EXIT_OK is returned, or else the usage error
 * "slotopt CMD: --format: expected NAMES, found 'NAME'" is printed and its
 * exit code returned. */
int so_cli_format(const char *cmd, const char *name, unsigned allowed, int *out);

#endif
