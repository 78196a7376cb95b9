/* test_cli_help.c — each command's parser and its --help come from one
 * option table (tools/cli/cli_opts.h): the command prints that table's
 * help; every long option of the table is in the help's option list and
 * every option listed there is in the table, and the parser built from it
 * returns each option's key; the usage line names only options of the
 * table; every command of `slotopt --help` has a table and vice versa. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tools/cli/cli_opts.h"

__attribute__((noinline)) static char *help_text(const so_cli_spec *spec)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    so_cli_help(fp, spec);
    fclose(fp);
    return buf;
}

static const so_cli_opt *find(const so_cli_spec *spec, const char *name, size_t len)
{
    for (const so_cli_opt *o = spec->opts; o->name; o++)
        if (strlen(o->name) == len && !strncmp(o->name, name, len))
            return o;
    return NULL;
}

/* The long options of the help's option list: lines "  -k, --name ..." or
 * "      --name ...". Each must be in the table; returns how many. */
static size_t listed(const so_cli_spec *spec, const char *help)
{
    size_t n = 0;
    for (const char *line = help; line && *line;) {
        const char *at = NULL;
        if (!strncmp(line, "  -", 3) && line[3] != '-' && !strncmp(line + 4, ", --", 4))
            at = line + 8;
        else if (!strncmp(line, "      --", 8))
            at = line + 8;
        if (at) {
            size_t len = strcspn(at, " \n");
            const so_cli_opt *o = find(spec, at, len);
            if (!o)
                fprintf(stderr, "\n  %s --help lists --%.*s, not in its table",
                        spec->command, (int)len, at);
            CU_ASSERT_PTR_NOT_NULL(o);
            n++;
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    return n;
}

/* Every --word of the usage lines is an option of the table. */
static void usage_names_options(const so_cli_spec *spec, const char *help)
{
    const char *end = strstr(help, "\n\n");
    for (const char *p = strstr(help, "--"); p && end && p < end; p = strstr(p + 2, "--")) {
        size_t len = strcspn(p + 2, " ]\n");
        CU_ASSERT_PTR_NOT_NULL(find(spec, p + 2, len));
    }
}

static void test_help_from_table(void)
{
    size_t commands = 0;
    for (const so_cli_spec *const *s = so_cli_specs; *s; s++, commands++) {
        const so_cli_spec *spec = *s;
        char *help = help_text(spec), *out = NULL, args[200];
        /* the command prints its table's help */
        snprintf(args, sizeof args, "%s --help", spec->command);
        CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
        if (!out || strcmp(out, help))
            fprintf(stderr, "\n  '%s' does not print its table's help", args);
        CU_ASSERT_STRING_EQUAL(out ? out : "", help);
        free(out);
        /* every option of the table is listed, and only those */
        size_t n = 0;
        for (const so_cli_opt *o = spec->opts; o->name; o++, n++) {
            char want[120];
            snprintf(want, sizeof want, "--%s%s", o->name, o->arg ? " " : "");
            CU_ASSERT_PTR_NOT_NULL(strstr(help, want));
        }
        CU_ASSERT_EQUAL(listed(spec, help), n);
        usage_names_options(spec, help);
        CU_ASSERT_PTR_NOT_NULL(find(spec, "help", 4));
        /* the parser built from the table knows each option */
        for (const so_cli_opt *o = spec->opts; o->name; o++) {
            char name[100];
            snprintf(name, sizeof name, "--%s", o->name);
            char *argv[] = {(char *)spec->command, name, "v", NULL};
            optind = 1;
            opterr = 0;
            CU_ASSERT_EQUAL(so_cli_getopt(3, argv, spec), o->key);
            if (o->flags & SO_OPT_SHORT) {
                char flag[3] = {'-', (char)o->key, '\0'};
                char *sv[] = {(char *)spec->command, flag, "v", NULL};
                optind = 1;
                CU_ASSERT_EQUAL(so_cli_getopt(3, sv, spec), o->key);
            }
        }
        char *bad[] = {(char *)spec->command, "--no-such-option", NULL};
        optind = 1;
        CU_ASSERT_EQUAL(so_cli_getopt(2, bad, spec), '?');
        free(help);
    }
    /* the program's commands are the tables' */
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(so_test_run("--help", &out, NULL), 0);
    size_t listed_commands = 0;
    for (const char *line = strstr(out, "\ncommands:\n"); line; line = strchr(line + 1, '\n')) {
        char name[64];
        if (strncmp(line, "\n  ", 3) || sscanf(line + 3, "%63[a-z-] ", name) != 1)
            continue;
        int found = 0;
        for (const so_cli_spec *const *s = so_cli_specs; *s; s++)
            found |= !strcmp((*s)->command, name);
        if (!found)
            fprintf(stderr, "\n  command %s has no option table", name);
        CU_ASSERT(found);
        listed_commands++;
    }
    CU_ASSERT_EQUAL(listed_commands, commands);
    free(out);
}

/* The help wraps at 79 columns and says each command's formats. */
static void test_help_layout(void)
{
    for (const so_cli_spec *const *s = so_cli_specs; *s; s++) {
        char *help = help_text(*s);
        for (const char *line = help; *line;) {
            size_t len = strcspn(line, "\n");
            if (len > 79 && !(*s)->more) /* a --opt list of a registry may run longer */
                fprintf(stderr, "\n  %s --help: a line of %zu characters", (*s)->command, len);
            CU_ASSERT(len <= 79 || (*s)->more);
            line += len + (line[len] == '\n');
        }
        if ((*s)->formats)
            CU_ASSERT_PTR_NOT_NULL(strstr(help, " (default)"));
        free(help);
    }
    char *help = help_text(so_cli_specs[0]);
    CU_ASSERT_STRING_EQUAL(so_cli_specs[0]->command, "solve");
    CU_ASSERT_PTR_NOT_NULL(strstr(help, "\n  -f, --format F       json (default), table, csv or"
                                        " markdown\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(help, "\n  -o, --output OUT     write to OUT instead of"));
    free(help);
}

static CU_TestInfo tests[] = {
    {"every parser and its --help from one table", test_help_from_table},
    {"help layout and formats", test_help_layout},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cli-help", tests)
