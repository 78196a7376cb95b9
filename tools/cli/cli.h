/* cli.h — shared pieces of the slotopt program's subcommands. */
#ifndef SO_CLI_H
#define SO_CLI_H
#include <stdio.h>
#include "slotopt.h"

/* Exit codes: 0 solved (infeasible included), 2 usage or bad input,
 * 3 backend failure, 4 a bench run that left cells not run (MPI). */
enum { SO_EXIT_OK = 0, SO_EXIT_USAGE = 2, SO_EXIT_BACKEND = 3, SO_EXIT_INCOMPLETE = 4 };

typedef struct so_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} so_command;

/* Prints "slotopt CMD: message" to stderr and returns SO_EXIT_USAGE. */
int so_cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The one message for an option getopt_long refused (main sets opterr = 0,
 * so getopt prints nothing itself): names the offending argument. */
int so_cli_bad_option(const char *cmd, char **argv);
/* "slotopt CMD: unknown WHAT 'WORD'; did you mean 'X'? choices: ..." on
 * stderr (formulations/common/suggest.h); returns SO_EXIT_USAGE. */
int so_cli_unknown(const char *cmd, const char *what, const char *word,
                   const char *const *names);
/* so_cli_unknown for a scenario name (bench, report): the scenarios of
 * the folder `slotopt scenarios` lists. */
int so_cli_no_scenario(const char *cmd, const char *name);

/* Prints the error (file:line:col: key: message) and returns the exit code
 * for status rc. */
int so_cli_report_error(const char *cmd, int rc, const so_error *err);
/* Exit code for a library status. */
int so_cli_exit_code(int rc);
/* Flushes stdout: SO_EXIT_OK, or the message and SO_EXIT_USAGE when what was
 * printed could not be written (disk full, closed pipe). */
int so_cli_flush_stdout(const char *cmd);
/* Flushes stdout before stderr is written, remembering why a flush failed
 * (so_cli_stdout_errno) for main's check of stdout at exit. */
void so_cli_flush_note(void);
extern int so_cli_stdout_errno;
/* Parses a non-negative double / unsigned integer option value. */
int so_cli_parse_double(const char *s, double *out);
int so_cli_parse_u64(const char *s, uint64_t *out);

int so_cmd_solve(int argc, char **argv);
int so_cmd_backends(int argc, char **argv);
int so_cmd_families(int argc, char **argv);
int so_cmd_scenarios(int argc, char **argv);
int so_cmd_gen(int argc, char **argv);
int so_cmd_export(int argc, char **argv);

/* flex */
int so_cmd_flex_compare(int argc, char **argv);
int so_cmd_flex_check(int argc, char **argv);

/* pareto */
int so_cmd_frontier(int argc, char **argv);
/* export --format fair-scheduler|yarn-fair|capacity-scheduler
 * (tools/cli/cmd_export_plan.c): the format asked for, or 0 */
int so_export_plan_format(int argc, char **argv);
int so_cmd_export_plan(int argc, char **argv);
int so_cmd_execute(int argc, char **argv); /* tools/cli/cmd_execute.c */

/* ras */

/* harness */
int so_cmd_bench(int argc, char **argv);
int so_cmd_report(int argc, char **argv);
int so_cmd_tour(int argc, char **argv);

/* cluster */
int so_cmd_sim(int argc, char **argv);


#endif
