/* cli_format.c — the --format and -o options of the subcommands
 * (cli_format.h). */
#include <stdlib.h>
#include <string.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_format.h"
#include "formulations/common/suggest.h"
#include "tools/output/output_format.h"

int so_cli_choice_error(const char *cmd, const char *option, const char *word,
                        const char *const *names)
{
    char list[1024] = "", hint[160] = "";
    size_t n = 0, len = 0;
    while (names[n])
        n++;
    for (size_t i = 0; i < n && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
    const char *close = so_suggest(word, names);
    if (close)
        snprintf(hint, sizeof hint, "; did you mean '%s'?", close);
    return so_cli_usage_error(cmd, "%s: expected %s, found '%s'%s", option, list, word, hint);
}

int so_cli_format(const char *cmd, const char *name, unsigned allowed, int *out)
{
    *out = so_oformat_parse(name, allowed);
    if (*out)
        return SO_EXIT_OK;
    const char *v[5] = {0};
    size_t n = 0;
    static const int all[] = {SO_OF_JSON, SO_OF_TABLE, SO_OF_CSV, SO_OF_MARKDOWN};
    for (int i = 0; i < 4; i++)
        if (allowed & (unsigned)all[i])
            v[n++] = so_oformat_name(all[i]);
    return so_cli_choice_error(cmd, "--format", name, v);
}

int so_cli_out_open(so_cli_out *o, const char *cmd, const char *format_name,
                    unsigned allowed, const char *path, int compact)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->path = path;
    o->compact = compact;
    int bad = so_cli_format(cmd, format_name, allowed, &o->format);
    if (bad)
        return bad;
    o->fp = open_memstream(&o->buf, &o->len);
    return o->fp ? SO_EXIT_OK : so_cli_report_error(cmd, SO_ENOMEM, NULL);
}

int so_cli_out_close(so_cli_out *o, int code)
{
    if (o->fp && fclose(o->fp) != 0 && code == SO_EXIT_OK)
        code = so_cli_report_error(o->cmd, SO_ENOMEM, NULL);
    o->fp = NULL;
    if (code == SO_EXIT_OK) {
        so_error err;
        so_error_clear(&err);
        const char *path = o->path ? o->path : "-";
        int rc = so_write_file_atomic(path, o->buf ? o->buf : "", o->len, &err);
        if (rc)
            code = so_cli_report_error(o->cmd, rc, &err);
        else if (!strcmp(path, "-"))
            code = so_cli_flush_stdout(o->cmd);
    }
    free(o->buf);
    o->buf = NULL;
    o->len = 0;
    return code;
}

void so_cli_out_drop(so_cli_out *o)
{
    if (o->fp)
        fclose(o->fp);
    o->fp = NULL;
    free(o->buf);
    o->buf = NULL;
    o->len = 0;
}
