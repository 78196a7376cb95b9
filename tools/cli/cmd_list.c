/* cmd_list.c — `slotopt backends` and `slotopt families`: the registry, as
 * one table (--format table, csv, json or markdown). */
#include <getopt.h>
#include <string.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "tools/cli/cli_opts.h"
#include "tools/output/output_format.h"
#include "tools/output/table.h"

#define ALL_FORMATS (SO_OF_TABLE | SO_OF_CSV | SO_OF_JSON | SO_OF_MARKDOWN)

static const so_cli_opt backend_opts[] = {
    {"problem", 'p', SO_OPT_SHORT, "P", "only the backends of problem kind P"},
    {"verbose", 'v', SO_OPT_SHORT, NULL,
     "one row per --opt option of each backend too (option, default, description)"},
    SO_CLI_OUTPUT_OPTS,
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

const so_cli_spec so_backends_spec = {
    "backends", NULL,
    "One row per backend: name, problem, exact|heuristic, description.\n",
    backend_opts, ALL_FORMATS, SO_OF_TABLE, NULL};

static const so_cli_opt family_opts[] = {
    SO_CLI_OUTPUT_OPTS,
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

const so_cli_spec so_families_spec = {
    "families", NULL,
    "One row per instance family (name, problem, description), each followed\n"
    "by one row per --set parameter (parameter, default, description).\n",
    family_opts, ALL_FORMATS, SO_OF_TABLE, NULL};

/* Columns: the leading texts, then option, default, description. */
static so_table *list_table(const char *const *lead, size_t n, int options)
{
    so_table *t = so_table_new();
    for (size_t i = 0; t && i < n; i++)
        if (so_table_column(t, lead[i], NULL, SO_COL_TEXT, NULL) < 0)
            t = (so_table_free(t), NULL);
    const char *const more[] = {"option", "default"};
    for (size_t i = 0; t && options && i < 2; i++)
        if (so_table_column(t, i == 0 && lead[0][0] == 'f' ? "parameter" : more[i], NULL,
                            SO_COL_TEXT, NULL) < 0)
            t = (so_table_free(t), NULL);
    if (t && so_table_column(t, "description", NULL, SO_COL_TEXT, NULL) < 0)
        t = (so_table_free(t), NULL);
    return t;
}

/* One row per documented option after the row of its owner (the lead
 * texts repeated). */
static void option_rows(so_table *t, const char *const *lead, size_t n,
                        const so_option_doc *d)
{
    for (; d && d->key; d++) {
        so_table_row(t);
        for (size_t i = 0; i < n; i++)
            so_table_text(t, i, lead[i]);
        so_table_text(t, n, d->key);
        so_table_text(t, n + 1, d->def ? d->def : "");
        so_table_text(t, n + 2, d->help);
    }
}

static int finish(so_cli_out *out, so_table *t, int code)
{
    if (!t && code == SO_EXIT_OK)
        code = so_cli_report_error(out->cmd, SO_ENOMEM, NULL);
    if (code == SO_EXIT_OK)
        so_table_write(out->fp, t, out->format, out->compact);
    so_table_free(t);
    return so_cli_out_close(out, code);
}

int so_cmd_backends(int argc, char **argv)
{
    const char *problem = NULL, *format = "table", *outpath = NULL;
    int verbose = 0, compact = 0, c;
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_backends_spec)) != -1) {
        switch (c) {
        case 'p': problem = optarg; break;
        case 'v': verbose = 1; break;
        case 'f': format = optarg; break;
        case 'C': compact = 1; break;
        case 'o': outpath = optarg; break;
        case 'h': return so_cli_print_help(&so_backends_spec);
        default: return so_cli_bad_option("backends", argv);
        }
    }
    if (optind != argc)
        return so_cli_usage_error("backends", "unexpected argument '%s'", argv[optind]);
    so_cli_out out;
    int code = so_cli_out_open(&out, "backends", format, ALL_FORMATS, outpath, compact);
    if (code)
        return code;
    static const char *const head[] = {"backend", "problem", "kind"};
    so_table *t = list_table(head, 3, verbose);
    int shown = 0;
    for (size_t i = 0; t && i < so_backend_count(); i++) {
        const so_backend *b = so_backend_at(i);
        if (problem && strcmp(problem, b->problem))
            continue;
        const char *lead[] = {b->name, b->problem, b->exact ? "exact" : "heuristic"};
        so_table_row(t);
        for (size_t k = 0; k < 3; k++)
            so_table_text(t, k, lead[k]);
        so_table_text(t, verbose ? 5 : 3, b->description);
        if (verbose)
            option_rows(t, lead, 3, b->options);
        shown++;
    }
    if (t && !shown && problem) {
        const char *kinds[64] = {0};
        size_t n = 0;
        for (size_t i = 0; i < so_backend_count() && n < 63; i++) {
            size_t k = 0;
            while (k < n && strcmp(kinds[k], so_backend_at(i)->problem))
                k++;
            if (k == n)
                kinds[n++] = so_backend_at(i)->problem;
        }
        code = so_cli_unknown("backends", "problem", problem, kinds);
    }
    return finish(&out, t, code);
}

int so_cmd_families(int argc, char **argv)
{
    const char *format = "table", *outpath = NULL;
    int compact = 0, c;
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_families_spec)) != -1) {
        switch (c) {
        case 'f': format = optarg; break;
        case 'C': compact = 1; break;
        case 'o': outpath = optarg; break;
        case 'h': return so_cli_print_help(&so_families_spec);
        default: return so_cli_bad_option("families", argv);
        }
    }
    if (optind != argc)
        return so_cli_usage_error("families", "unexpected argument '%s'", argv[optind]);
    so_cli_out out;
    int code = so_cli_out_open(&out, "families", format, ALL_FORMATS, outpath, compact);
    if (code)
        return code;
    static const char *const head[] = {"family", "problem"};
    so_table *t = list_table(head, 2, 1);
    for (size_t i = 0; t && i < so_family_count(); i++) {
        const so_family *f = so_family_at(i);
        const char *lead[] = {f->name, f->problem};
        so_table_row(t);
        so_table_text(t, 0, f->name);
        so_table_text(t, 1, f->problem);
        so_table_text(t, 4, f->description);
        option_rows(t, lead, 2, f->params);
    }
    return finish(&out, t, code);
}
