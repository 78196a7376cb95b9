/* cli_opts.c — a command's getopt_long parser and its --help text, both
 * from its option table (cli_opts.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_opts.h"
#include "tools/output/output_format.h"

enum { MAX_OPTS = 64, WIDTH = 79, MAX_LEFT = 26 };

int so_cli_getopt(int argc, char **argv, const so_cli_spec *spec)
{
    /* rebuilt on every call (cheap): getopt_long keeps its state in optind
     * and argv, not in the table */
    static struct option longs[MAX_OPTS + 1];
    static char shorts[3 * MAX_OPTS + 2];
    size_t n = 0, k = 0;
    for (const so_cli_opt *o = spec->opts; o->name && n < MAX_OPTS; o++, n++) {
        longs[n] = (struct option){o->name, o->arg ? required_argument : no_argument, 0,
                                   o->key};
        if (o->flags & SO_OPT_SHORT) {
            shorts[k++] = (char)o->key;
            if (o->arg)
                shorts[k++] = ':';
        }
    }
    longs[n] = (struct option){0, 0, 0, 0};
    shorts[k] = '\0';
    return getopt_long(argc, argv, shorts, longs, NULL);
}

/* Writes words of text from column `col` (the cursor is at `at`), wrapped at
 * WIDTH with continuation lines indented to col; '\n' breaks a line. */
static void wrap(FILE *fp, const char *text, size_t col, size_t at)
{
    const char *s = text;
    while (*s) {
        if (*s == '\n') {
            fprintf(fp, "\n%*s", (int)col, "");
            at = col;
            s++;
            continue;
        }
        size_t w = strcspn(s, " \n");
        if (at > col && at + 1 + w > WIDTH) {
            fprintf(fp, "\n%*s", (int)col, "");
            at = col;
        } else if (at > col) {
            fputc(' ', fp);
            at++;
        }
        fwrite(s, 1, w, fp);
        at += w;
        s += w;
        while (*s == ' ')
            s++;
    }
    fputc('\n', fp);
}

/* The usage line: every option (but the hidden ones and --help) in
 * brackets unless required, "..." when repeatable, then the operands. */
static void usage(FILE *fp, const so_cli_spec *spec)
{
    char text[4096];
    size_t len = 0;
    text[0] = '\0';
    for (const so_cli_opt *o = spec->opts; o->name; o++) {
        if ((o->flags & SO_OPT_HIDDEN) || !strcmp(o->name, "help"))
            continue;
        int req = (o->flags & SO_OPT_REQUIRED) != 0;
        /* one word per option: a non-breaking value, shown as a space below */
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s--%s%s%s%s%s",
                                len ? " " : "", req ? "" : "[", o->name,
                                o->arg ? "\x01" : "", o->arg ? o->arg : "", req ? "" : "]",
                                (o->flags & SO_OPT_REPEAT) ? "..." : "");
        if (len >= sizeof text)
            return;
    }
    if (spec->operands)
        snprintf(text + len, sizeof text - len, "%s%s", len ? " " : "", spec->operands);
    char *buf = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&buf, &size);
    if (!mem)
        return;
    int at = fprintf(mem, "usage: slotopt %s ", spec->command);
    wrap(mem, text, (size_t)at, (size_t)at);
    fclose(mem);
    for (char *p = buf; p && *p; p++)
        if (*p == '\x01')
            *p = ' ';
    fputs(buf ? buf : "", fp);
    free(buf);
}

/* "json (default), table or csv". */
static void format_help(char *out, size_t size, const so_cli_spec *spec)
{
    static const int order[] = {SO_OF_JSON, SO_OF_TABLE, SO_OF_CSV, SO_OF_MARKDOWN};
    int total = 0, n = 0;
    for (int i = 0; i < 4; i++)
        total += (spec->formats & (unsigned)order[i]) != 0;
    size_t len = 0;
    out[0] = '\0';
    for (int pass = 0; pass < 2; pass++) /* the default first */
        for (int i = 0; i < 4 && len < size; i++) {
            int f = order[i];
            if (!(spec->formats & (unsigned)f) || (pass == 0) != (f == spec->default_format))
                continue;
            const char *sep = n == 0 ? "" : n == total - 1 ? " or " : ", ";
            len += (size_t)snprintf(out + len, size - len, "%s%s%s", sep, so_oformat_name(f),
                                    f == spec->default_format ? " (default)" : "");
            n++;
        }
}

void so_cli_help(FILE *fp, const so_cli_spec *spec)
{
    usage(fp, spec);
    if (spec->about)
        fprintf(fp, "\n%s", spec->about);
    fputc('\n', fp);
    size_t col = 0;
    char left[200];
    for (const so_cli_opt *o = spec->opts; o->name; o++) {
        size_t w = (size_t)snprintf(left, sizeof left, "  %c%c%s--%s%s%s",
                                    (o->flags & SO_OPT_SHORT) ? '-' : ' ',
                                    (o->flags & SO_OPT_SHORT) ? o->key : ' ',
                                    (o->flags & SO_OPT_SHORT) ? ", " : "  ", o->name,
                                    o->arg ? " " : "", o->arg ? o->arg : "");
        if (w + 2 > col && w + 2 <= MAX_LEFT)
            col = w + 2;
    }
    for (const so_cli_opt *o = spec->opts; o->name; o++) {
        int w = snprintf(left, sizeof left, "  %c%c%s--%s%s%s",
                         (o->flags & SO_OPT_SHORT) ? '-' : ' ',
                         (o->flags & SO_OPT_SHORT) ? o->key : ' ',
                         (o->flags & SO_OPT_SHORT) ? ", " : "  ", o->name, o->arg ? " " : "",
                         o->arg ? o->arg : "");
        fputs(left, fp);
        char fmt[200];
        const char *help = o->help;
        if (!help && !strcmp(o->name, "format")) {
            format_help(fmt, sizeof fmt, spec);
            help = fmt;
        }
        if ((size_t)w + 1 > col) { /* a long option: its text on the next line */
            fprintf(fp, "\n%*s", (int)col, "");
            w = (int)col;
        } else {
            fprintf(fp, "%*s", (int)(col - (size_t)w), "");
            w = (int)col;
        }
        wrap(fp, help ? help : "", col, (size_t)w);
    }
    if (spec->more)
        spec->more(fp);
}

int so_cli_print_help(const so_cli_spec *spec)
{
    so_cli_help(stdout, spec);
    return SO_EXIT_OK;
}
