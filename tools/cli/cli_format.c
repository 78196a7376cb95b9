/* cli_format.c — the --format option of the subcommands (cli_format.h). */
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/output/output_format.h"

int so_cli_format(const char *cmd, const char *name, unsigned allowed, int *out)
{
    char names[64];
    *out = so_oformat_parse(name, allowed);
    if (!*out)
        return so_cli_usage_error(cmd, "--format: expected %s, found '%s'",
                                  so_oformat_names(allowed, names, sizeof names), name);
    return SO_EXIT_OK;
}
