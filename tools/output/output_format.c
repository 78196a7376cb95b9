/* output_format.c — the shared output vocabulary (see output_format.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/output/output_format.h"
#include "tools/output/table.h"

static const struct {
    int format;
    const char *name;
} formats[] = {
    {SO_OF_JSON, "json"},
    {SO_OF_TABLE, "table"},
    {SO_OF_CSV, "csv"},
    {SO_OF_MARKDOWN, "markdown"},
};
enum { N_FORMATS = sizeof formats / sizeof formats[0] };

int so_oformat_parse(const char *s, unsigned allowed)
{
    if (!s)
        return 0;
    if (!strcmp(s, "text"))
        s = "table";
    for (int i = 0; i < N_FORMATS; i++)
        if (!strcmp(s, formats[i].name))
            return (allowed & (unsigned)formats[i].format) ? formats[i].format : 0;
    return 0;
}

const char *so_oformat_name(int format)
{
    for (int i = 0; i < N_FORMATS; i++)
        if (formats[i].format == format)
            return formats[i].name;
    return "?";
}

const char *so_oformat_names(unsigned allowed, char *buf, size_t size)
{
    int n = 0, total = 0;
    for (int i = 0; i < N_FORMATS; i++)
        total += (allowed & (unsigned)formats[i].format) != 0;
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < N_FORMATS && len < size; i++) {
        if (!(allowed & (unsigned)formats[i].format))
            continue;
        const char *sep = n == 0 ? "" : n == total - 1 ? " or " : ", ";
        len += (size_t)snprintf(buf + len, size - len, "%s%s", sep, formats[i].name);
        n++;
    }
    return buf;
}

size_t so_ojson_flags(int compact)
{
    return (compact ? JSON_COMPACT : JSON_INDENT(2)) | JSON_PRESERVE_ORDER |
           JSON_REAL_PRECISION(17);
}

char *so_ojson_dumps(const json_t *j, int compact)
{
    char *s = json_dumps(j, so_ojson_flags(compact));
    if (!s)
        return NULL;
    size_t n = strlen(s);
    char *t = realloc(s, n + 2);
    if (!t) {
        free(s);
        return NULL;
    }
    t[n] = '\n';
    t[n + 1] = '\0';
    return t;
}

void so_ojson_put(FILE *fp, json_t *j, int compact)
{
    char *text = so_ojson_dumps(j, compact);
    if (text)
        fputs(text, fp);
    free(text);
    json_decref(j);
}

void so_onumber(char *out, size_t size, double x)
{
    if (isnan(x))
        snprintf(out, size, "nan");
    else if (isinf(x))
        snprintf(out, size, "%s", x > 0 ? "inf" : "-inf");
    else if (x == floor(x) && fabs(x) < 9.2e18)
        snprintf(out, size, "%lld", (long long)x);
    else
        for (int digits = 15; digits <= 17; digits++) /* shortest exact */
            if (snprintf(out, size, "%.*g", digits, x) > 0 && strtod(out, NULL) == x)
                break;
}

void so_otable_print(FILE *fp, const char (*cells)[SO_OTABLE_CELL], size_t rows,
                     size_t cols)
{
    so_table *t = so_table_of_texts(cells, rows, cols, 1);
    so_table_write(fp, t, SO_OF_TABLE, 0);
    so_table_free(t);
}
