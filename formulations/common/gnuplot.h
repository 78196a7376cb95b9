/* gnuplot.h — what every gnuplot script slotopt writes shares: the terminal
 * chosen by the output file's extension (.png pngcairo, .svg svg, .pdf
 * pdfcairo; any other is refused), text drawn as typed (noenhanced: an
 * underscore in a backend name stays an underscore), and strings quoted so
 * that any name can be a title. */
#ifndef SO_GNUPLOT_H
#define SO_GNUPLOT_H
#include <stdio.h>
#include "slotopt.h"

/* "pngcairo", "svg" or "pdfcairo" for a path ending in .png, .svg or .pdf
 * (case-insensitive); NULL for any other. */
const char *so_gp_terminal(const char *path);
/* SO_OK, or SO_EINVAL with a message naming the path and the accepted
 * extensions (also for paths with a quote or a newline, which a gnuplot
 * string cannot hold safely). */
int so_gp_check_path(const char *path, so_error *err);
/* Writes s for the inside of a gnuplot single-quoted string: a quote is
 * doubled (the only escape such strings have), control characters become
 * spaces. */
void so_gp_put_quoted(FILE *fp, const char *s);
/* The script's opening: terminal for ext_path (size in pixels; inches at
 * 100 px per inch for PDF), noenhanced, the output file and the title. */
void so_gp_header(FILE *fp, const char *ext_path, const char *output, int width,
                  int height, const char *title);

#endif
