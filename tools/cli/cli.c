/* cli.c — helpers shared by the subcommands: messages and exit codes. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include "tools/cli/cli.h"
#include "formulations/common/suggest.h"
#include "tools/harness/harness.h"
#include "tools/harness/harness_table.h"

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

int so_cli_bad_option(const char *cmd, char **argv)
{
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    if (optopt && strncmp(arg, "--", 2) && arg[0] == '-' && !strchr(arg + 1, optopt))
        arg = ""; /* a value was taken for another option */
    if (optopt && !strncmp(arg, "--", 2))
        return so_cli_usage_error(cmd, "option '%s' needs a value", arg);
    if (optopt)
        return so_cli_usage_error(cmd, "unknown option '-%c', or it needs a value",
                                  optopt);
    return so_cli_usage_error(cmd, "unknown option '%s'", arg);
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

int so_cli_flush_stdout(const char *cmd)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return SO_EXIT_OK;
    fprintf(stderr, "slotopt %s: cannot write to stdout: %s\n", cmd, strerror(errno));
    return SO_EXIT_USAGE;
}

int so_cli_stdout_errno;

void so_cli_flush_note(void)
{
    errno = 0;
    if (fflush(stdout) != 0 && !so_cli_stdout_errno)
        so_cli_stdout_errno = errno ? errno : EIO;
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
    if (!isdigit((unsigned char)*s)) /* strtoull takes " -1" as 2^64 - 1 */
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end || errno)
        return -1;
    *out = x;
    return 0;
}

int so_cli_no_scenario(const char *cmd, const char *name)
{
    char dir[PATH_MAX];
    size_t n = 0;
    char **v = so_scenario_dir(dir, sizeof dir) ? NULL : so_scenario_names(dir, &n);
    const char **names = calloc(n + 1, sizeof *names);
    for (size_t i = 0; names && i < n; i++)
        names[i] = v[i];
    int code = names ? so_cli_unknown(cmd, "scenario", name, names)
                     : so_cli_usage_error(cmd, "no scenario '%s'", name);
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
    free(names);
    return code;
}

int so_cli_unknown(const char *cmd, const char *what, const char *word,
                   const char *const *names)
{
    char text[2048];
    return so_cli_usage_error(cmd, "unknown %s '%s'; %s", what, word,
                              so_suggest_text(text, sizeof text, word, names));
}
