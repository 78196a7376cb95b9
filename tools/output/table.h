/* table.h — the one table writer of the program: rows and typed columns
 * rendered as an aligned text table, CSV (RFC 4180), markdown or JSON (an
 * array of objects, through jansson). Every command that prints rows goes
 * through it, so that --format means the same everywhere
 * (docs/formats.md, "Output formats").
 *
 * Numbers: a real column shows its printf format (fmt) in the table and
 * markdown, full precision in CSV (an integral value digit for digit, else
 * 17 significant digits) and JSON; a missing cell is "-" in the table and
 * markdown, an empty field in CSV and null in JSON; infinities are "inf" /
 * "-inf" (in JSON the string "inf"). */
#ifndef SO_OUTPUT_TABLE_H
#define SO_OUTPUT_TABLE_H
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>
#include "tools/output/output_format.h"

typedef enum so_coltype { SO_COL_TEXT, SO_COL_INT, SO_COL_REAL } so_coltype;

typedef struct so_table so_table;

/* An empty table; NULL when out of memory. */
so_table *so_table_new(void);
void so_table_free(so_table *t);
/* Adds a column: its header, JSON member name (NULL: the header), type and
 * the printf format of its reals in the table and markdown (NULL: the
 * shortest text that reads back exactly). Text columns are left-aligned,
 * numbers right-aligned (so_table_align changes it). Returns its index, or
 * -1 when out of memory. */
int so_table_column(so_table *t, const char *header, const char *key, so_coltype type,
                    const char *fmt);
void so_table_align(so_table *t, size_t col, int left);
/* A column as data: header, type, format of its reals (NULL: shortest). */
typedef struct so_tcol {
    const char *header;
    so_coltype type;
    const char *fmt;
} so_tcol;
/* A table of n such columns; NULL when out of memory. */
so_table *so_table_with(const so_tcol *cols, size_t n);
/* A column only in JSON (a long text: left out of the table, CSV and
 * markdown). */
void so_table_json_only(so_table *t, size_t col);
/* Renames a column's header (its JSON key stays). */
void so_table_header(so_table *t, size_t col, const char *header);
/* Starts a row (every cell missing until set). -1 when out of memory. */
int so_table_row(so_table *t);
/* Sets a cell of the last row. A text cell of a number column shows the
 * text in every format (a JSON string). */
void so_table_text(so_table *t, size_t col, const char *s);
void so_table_int(so_table *t, size_t col, long long v);
void so_table_real(so_table *t, size_t col, double x);
/* The text the last row's cell shows in the table and markdown instead of
 * its value ("3 min" for 180 seconds); CSV and JSON keep the value. */
void so_table_shown(so_table *t, size_t col, const char *text);
/* Keeps only the columns whose bit is set in keep (bit c: column c; at
 * most 64 columns). */
void so_table_keep(so_table *t, unsigned long long keep);
size_t so_table_rows(const so_table *t);
size_t so_table_cols(const so_table *t);

/* Writes t in format (SO_OF_TABLE, SO_OF_CSV, SO_OF_MARKDOWN or SO_OF_JSON
 * of tools/output/output_format.h); compact: JSON on one line. */
void so_table_write(FILE *fp, const so_table *t, int format, int compact);
/* The aligned text table with every line prefixed by indent. */
void so_table_write_indented(FILE *fp, const so_table *t, const char *indent);
/* A table of a JSON array of objects: one row per object, one column per
 * member holding a string, number or boolean (in order of first
 * appearance; nested values left out). NULL when out of memory. */
so_table *so_table_from_json(const json_t *rows);
/* A table of texts: rows x cols cells, row 0 the headers, the first
 * left_cols columns left-aligned, the others right-aligned. */
so_table *so_table_of_texts(const char (*cells)[SO_OTABLE_CELL], size_t rows, size_t cols,
                            size_t left_cols);
/* The rows as a JSON array of objects (members in column order). */
json_t *so_table_json(const so_table *t);

/* One CSV field (RFC 4180: quoted when it holds a comma, quote, CR or LF;
 * quotes doubled). */
void so_csv_field(FILE *fp, const char *s);
/* One markdown cell's text, pipes and backslashes escaped. */
void so_md_text(FILE *fp, const char *s);

#endif
