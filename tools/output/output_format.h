/* output_format.h — one output vocabulary for every command: the --format
 * names (json, table, csv, markdown), the --compact JSON mode, and numbers
 * written at full precision (docs/formats.md, "Output formats"). */
#ifndef SO_OUTPUT_FORMAT_H
#define SO_OUTPUT_FORMAT_H
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* The formats; a command accepts a set of them (bits). */
enum so_oformat {
    SO_OF_JSON = 1,
    SO_OF_TABLE = 2,
    SO_OF_CSV = 4,
    SO_OF_MARKDOWN = 8,
};

/* The format named s among those in allowed (a set of SO_OF_* bits), or 0.
 * "text" is read as "table" (its former name in solve). */
int so_oformat_parse(const char *s, unsigned allowed);
/* "json, table or csv": the names in allowed, for messages and --help. */
const char *so_oformat_names(unsigned allowed, char *buf, size_t size);
/* The name of one format. */
const char *so_oformat_name(int format);
/* jansson flags: two-space indent, or one line when compact; members in
 * insertion order; reals with 17 significant digits (round-trip exact). */
size_t so_ojson_flags(int compact);
/* json_dumps with so_ojson_flags and a final newline; NULL when out of
 * memory. The caller frees. */
char *so_ojson_dumps(const json_t *j, int compact);
/* Writes j as so_ojson_dumps does to fp and releases j (a reference the
 * caller owned). */
void so_ojson_put(FILE *fp, json_t *j, int compact);
/* A number as text: an integer (|x| < 2^63 and integral) digit for digit,
 * otherwise the shortest of %.15g..%.17g that reads back exactly; "nan", "inf", "-inf" for those. */
void so_onumber(char *out, size_t size, double x);

/* The table format of a grid of texts: rows x cols (row 0 the header, each
 * text at most SO_OTABLE_CELL - 1 bytes), the first column left-aligned and
 * the others right-aligned, two spaces apart, dashes under the header; the
 * one table writer (tools/output/table.h) writes it. */
#define SO_OTABLE_CELL 64
void so_otable_print(FILE *fp, const char (*cells)[SO_OTABLE_CELL], size_t rows,
                     size_t cols);

#endif
