/* table.c — the one table writer: typed cells rendered as an aligned text
 * table, CSV, markdown or JSON (table.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/output/output_format.h"
#include "tools/output/table.h"

enum { CELL_MISSING, CELL_TEXT, CELL_INT, CELL_REAL };

typedef struct cell {
    int kind;
    char *text, *shown;
    long long i;
    double x;
} cell;

typedef struct column {
    char *header, *key, *fmt;
    so_coltype type;
    int left, json_only;
} column;

struct so_table {
    column *cols;
    size_t n_cols;
    cell **rows;
    size_t n_rows, cap_rows;
};

so_table *so_table_new(void)
{
    return calloc(1, sizeof(so_table));
}

static void free_row(cell *row, size_t n)
{
    for (size_t c = 0; row && c < n; c++) {
        free(row[c].text);
        free(row[c].shown);
    }
    free(row);
}

static void free_column(column *c)
{
    free(c->header);
    free(c->key);
    free(c->fmt);
}

void so_table_free(so_table *t)
{
    if (!t)
        return;
    for (size_t r = 0; r < t->n_rows; r++)
        free_row(t->rows[r], t->n_cols);
    for (size_t c = 0; c < t->n_cols; c++)
        free_column(&t->cols[c]);
    free(t->rows);
    free(t->cols);
    free(t);
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

int so_table_column(so_table *t, const char *header, const char *key, so_coltype type,
                    const char *fmt)
{
    if (!t || t->n_rows) /* columns come before rows */
        return -1;
    column *v = realloc(t->cols, (t->n_cols + 1) * sizeof *v);
    if (!v)
        return -1;
    t->cols = v;
    column *c = &v[t->n_cols];
    c->header = strdup(header);
    c->key = dup_or_null(key);
    c->fmt = dup_or_null(fmt);
    c->type = type;
    c->left = type == SO_COL_TEXT;
    c->json_only = 0;
    if (!c->header || (key && !c->key) || (fmt && !c->fmt)) {
        free_column(c);
        return -1;
    }
    return (int)t->n_cols++;
}

so_table *so_table_with(const so_tcol *cols, size_t n)
{
    so_table *t = so_table_new();
    for (size_t c = 0; t && c < n; c++)
        if (so_table_column(t, cols[c].header, NULL, cols[c].type, cols[c].fmt) < 0)
            t = (so_table_free(t), NULL);
    return t;
}

void so_table_align(so_table *t, size_t col, int left)
{
    if (t && col < t->n_cols)
        t->cols[col].left = left;
}

void so_table_json_only(so_table *t, size_t col)
{
    if (t && col < t->n_cols)
        t->cols[col].json_only = 1;
}

void so_table_header(so_table *t, size_t col, const char *header)
{
    char *h = header ? strdup(header) : NULL;
    if (!t || col >= t->n_cols || !h) {
        free(h);
        return;
    }
    if (!t->cols[col].key) /* the JSON key stays the first header */
        t->cols[col].key = t->cols[col].header;
    else
        free(t->cols[col].header);
    t->cols[col].header = h;
}

int so_table_row(so_table *t)
{
    if (!t)
        return -1;
    if (t->n_rows == t->cap_rows) {
        size_t cap = t->cap_rows ? 2 * t->cap_rows : 16;
        cell **v = realloc(t->rows, cap * sizeof *v);
        if (!v)
            return -1;
        t->rows = v;
        t->cap_rows = cap;
    }
    cell *row = calloc(t->n_cols ? t->n_cols : 1, sizeof *row);
    if (!row)
        return -1;
    t->rows[t->n_rows++] = row;
    return 0;
}

static cell *last(so_table *t, size_t col)
{
    if (!t || !t->n_rows || col >= t->n_cols)
        return NULL;
    cell *c = &t->rows[t->n_rows - 1][col];
    free(c->text);
    free(c->shown);
    memset(c, 0, sizeof *c);
    return c;
}

void so_table_text(so_table *t, size_t col, const char *s)
{
    cell *c = last(t, col);
    if (c && s && (c->text = strdup(s)))
        c->kind = CELL_TEXT;
}

void so_table_int(so_table *t, size_t col, long long v)
{
    cell *c = last(t, col);
    if (c) {
        c->kind = CELL_INT;
        c->i = v;
    }
}

void so_table_real(so_table *t, size_t col, double x)
{
    cell *c = last(t, col);
    if (c && !isnan(x)) {
        c->kind = CELL_REAL;
        c->x = x;
    }
}

void so_table_shown(so_table *t, size_t col, const char *text)
{
    if (!t || !t->n_rows || col >= t->n_cols || !text)
        return;
    cell *c = &t->rows[t->n_rows - 1][col];
    free(c->shown);
    c->shown = strdup(text);
}

void so_table_keep(so_table *t, unsigned long long keep)
{
    if (!t)
        return;
    size_t k = 0;
    for (size_t c = 0; c < t->n_cols; c++) {
        int kept = c < 64 && (keep >> c & 1);
        for (size_t r = 0; r < t->n_rows; r++) {
            cell *row = t->rows[r];
            if (!kept) {
                free(row[c].text);
                free(row[c].shown);
            }
            else
                row[k] = row[c];
        }
        if (!kept)
            free_column(&t->cols[c]);
        else
            t->cols[k++] = t->cols[c];
    }
    t->n_cols = k;
}

size_t so_table_rows(const so_table *t)
{
    return t ? t->n_rows : 0;
}

size_t so_table_cols(const so_table *t)
{
    return t ? t->n_cols : 0;
}

/* ---- rendering ----------------------------------------------------------- */

/* The text of a cell: for people (the column's format) or full precision
 * (CSV). "" for a missing cell in CSV, "-" otherwise. */
static void cell_text(char *out, size_t size, const column *col, const cell *c, int full)
{
    if (c->shown && !full) {
        snprintf(out, size, "%s", c->shown);
        return;
    }
    switch (c->kind) {
    case CELL_TEXT: snprintf(out, size, "%s", c->text); return;
    case CELL_INT: snprintf(out, size, "%lld", c->i); return;
    case CELL_REAL:
        if (isinf(c->x))
            snprintf(out, size, "%s", c->x > 0 ? "inf" : "-inf");
        else if (full && c->x == floor(c->x) && fabs(c->x) < 9.2e18)
            snprintf(out, size, "%lld", (long long)c->x);
        else if (full)
            snprintf(out, size, "%.17g", c->x);
        else if (col->fmt)
            snprintf(out, size, col->fmt, c->x);
        else
            so_onumber(out, size, c->x);
        return;
    default: snprintf(out, size, "%s", full ? "" : "-");
    }
}

enum { TEXT = 512 };

/* A line break or tab in an aligned table's cell would break its lines. */
static void one_line(char *s)
{
    for (; *s; s++)
        if (*s == '\n' || *s == '\r' || *s == '\t')
            *s = ' ';
}

static void write_aligned(FILE *fp, const so_table *t)
{
    size_t *width = calloc(t->n_cols ? t->n_cols : 1, sizeof *width);
    if (!width)
        return;
    char buf[TEXT];
    for (size_t c = 0; c < t->n_cols; c++)
        width[c] = strlen(t->cols[c].header);
    size_t lastc = 0; /* the last column shown */
    for (size_t c = 0; c < t->n_cols; c++)
        if (!t->cols[c].json_only)
            lastc = c;
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < t->n_cols; c++) {
            cell_text(buf, sizeof buf, &t->cols[c], &t->rows[r][c], 0);
            one_line(buf);
            if (strlen(buf) > width[c])
                width[c] = strlen(buf);
        }
    for (size_t r = 0; r <= t->n_rows; r++) {
        for (size_t c = 0, first = 1; c < t->n_cols; c++) {
            const column *col = &t->cols[c];
            const char *s = col->header;
            if (col->json_only)
                continue;
            if (r) {
                cell_text(buf, sizeof buf, col, &t->rows[r - 1][c], 0);
                one_line(buf);
                s = buf;
            }
            /* a left-aligned last column is not padded (no trailing blanks) */
            int w = col->left && c == lastc ? 0 : (int)width[c];
            fprintf(fp, col->left ? "%s%-*s" : "%s%*s", first ? "" : "  ", w, s);
            first = 0;
        }
        fputc('\n', fp);
        if (r == 0) {
            for (size_t c = 0, first = 1; c < t->n_cols; c++) {
                if (t->cols[c].json_only)
                    continue;
                fputs(first ? "" : "  ", fp);
                first = 0;
                for (size_t k = 0; k < width[c]; k++)
                    fputc('-', fp);
            }
            fputc('\n', fp);
        }
    }
    free(width);
}

void so_csv_field(FILE *fp, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

static void write_csv(FILE *fp, const so_table *t)
{
    char buf[TEXT];
    for (size_t r = 0; r <= t->n_rows; r++) {
        for (size_t c = 0, first = 1; c < t->n_cols; c++) {
            if (t->cols[c].json_only)
                continue;
            fputs(first ? "" : ",", fp);
            first = 0;
            if (r)
                cell_text(buf, sizeof buf, &t->cols[c], &t->rows[r - 1][c], 1);
            so_csv_field(fp, r ? buf : t->cols[c].header);
        }
        fputc('\n', fp);
    }
}

void so_md_text(FILE *fp, const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '\\')
            fputc('\\', fp);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, fp);
    }
}

static void write_markdown(FILE *fp, const so_table *t)
{
    char buf[TEXT];
    for (size_t r = 0; r <= t->n_rows; r++) {
        fputc('|', fp);
        for (size_t c = 0; c < t->n_cols; c++) {
            if (t->cols[c].json_only)
                continue;
            fputc(' ', fp);
            if (r)
                cell_text(buf, sizeof buf, &t->cols[c], &t->rows[r - 1][c], 0);
            so_md_text(fp, r ? buf : t->cols[c].header);
            fputs(" |", fp);
        }
        fputc('\n', fp);
        if (r == 0) {
            fputc('|', fp);
            for (size_t c = 0; c < t->n_cols; c++)
                if (!t->cols[c].json_only)
                    fputs(t->cols[c].left ? "---|" : "---:|", fp);
            fputc('\n', fp);
        }
    }
}

static json_t *cell_json(const cell *c)
{
    switch (c->kind) {
    case CELL_TEXT: return json_string(c->text);
    case CELL_INT: return json_integer((json_int_t)c->i);
    case CELL_REAL:
        return isinf(c->x) ? json_string(c->x > 0 ? "inf" : "-inf") : json_real(c->x);
    default: return json_null();
    }
}

json_t *so_table_json(const so_table *t)
{
    json_t *a = json_array();
    for (size_t r = 0; a && t && r < t->n_rows; r++) {
        json_t *o = json_object();
        for (size_t c = 0; o && c < t->n_cols; c++)
            json_object_set_new(o, t->cols[c].key ? t->cols[c].key : t->cols[c].header,
                                cell_json(&t->rows[r][c]));
        json_array_append_new(a, o);
    }
    return a;
}

void so_table_write(FILE *fp, const so_table *t, int format, int compact)
{
    if (!t)
        return;
    if (format == SO_OF_JSON)
        so_ojson_put(fp, so_table_json(t), compact);
    else if (format == SO_OF_CSV)
        write_csv(fp, t);
    else if (format == SO_OF_MARKDOWN)
        write_markdown(fp, t);
    else
        write_aligned(fp, t);
}

void so_table_write_indented(FILE *fp, const so_table *t, const char *indent)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return;
    write_aligned(mem, t);
    fclose(mem);
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
        fputs(indent, fp);
        fwrite(line, 1, n, fp);
        line += n;
    }
    free(buf);
}

static int column_of(const so_table *t, const char *key)
{
    for (size_t c = 0; c < t->n_cols; c++)
        if (!strcmp(t->cols[c].key ? t->cols[c].key : t->cols[c].header, key))
            return (int)c;
    return -1;
}

so_table *so_table_from_json(const json_t *rows)
{
    so_table *t = so_table_new();
    size_t i;
    const char *key;
    json_t *o, *v;
    json_array_foreach(rows, i, o) /* the columns first */
        json_object_foreach((json_t *)o, key, v) {
            if (!t)
                return NULL;
            so_coltype type = json_is_integer(v) ? SO_COL_INT
                              : json_is_real(v)  ? SO_COL_REAL
                                                 : SO_COL_TEXT;
            if ((json_is_string(v) || json_is_number(v) || json_is_boolean(v)) &&
                column_of(t, key) < 0 && so_table_column(t, key, NULL, type, NULL) < 0)
                t = (so_table_free(t), NULL);
        }
    json_array_foreach(rows, i, o) {
        if (!t || so_table_row(t))
            return (so_table_free(t), NULL);
        json_object_foreach((json_t *)o, key, v) {
            int c = column_of(t, key);
            if (c < 0)
                continue;
            if (json_is_string(v))
                so_table_text(t, (size_t)c, json_string_value(v));
            else if (json_is_integer(v))
                so_table_int(t, (size_t)c, (long long)json_integer_value(v));
            else if (json_is_real(v))
                so_table_real(t, (size_t)c, json_real_value(v));
            else if (json_is_boolean(v))
                so_table_text(t, (size_t)c, json_is_true(v) ? "true" : "false");
        }
    }
    return t;
}

so_table *so_table_of_texts(const char (*cells)[SO_OTABLE_CELL], size_t rows, size_t cols,
                            size_t left_cols)
{
    so_table *t = so_table_new();
    for (size_t c = 0; t && c < cols; c++) {
        if (so_table_column(t, cells[c], NULL, SO_COL_TEXT, NULL) < 0)
            return (so_table_free(t), NULL);
        so_table_align(t, c, c < left_cols);
    }
    for (size_t r = 1; t && r < rows; r++) {
        if (so_table_row(t))
            return (so_table_free(t), NULL);
        for (size_t c = 0; c < cols; c++)
            so_table_text(t, c, cells[r * cols + c]);
    }
    return t;
}
