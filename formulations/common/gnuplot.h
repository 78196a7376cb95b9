/* gnuplot.h — what every gnuplot script slotopt writes shares: the terminal
 * chosen by the output file's extension (.png pngcairo, .svg svg, .pdf
 * pdfcairo; any other is refused), text drawn as typed (noenhanced: an
 * underscore in a backend name stays an underscore), and strings quoted so
 * that any name can be a title; and the conventions that make a figure
 * readable in print: every series its own colour, dash type and point type
 * (so_gp_style), axis ranges from the data with a little room
 * (so_gp_range), labels as written (so_gp_label), and a test for series
 * that coincide (so_gp_same), whose legend entry then says so instead of
 * the line being moved. */
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

/* " lc rgb '#RRGGBB' dt D pt P" for series k (0-based): the colour
 * (Okabe-Ito, readable by the colour-blind) and point type (hollow shapes,
 * which stay visible when drawn over each other) differ for the first 8
 * series, the dash type for the first 5; every (colour, dash, point)
 * triple differs for the first 40. */
void so_gp_style(FILE *fp, int k);
/* The colour of series k alone, "#RRGGBB". */
const char *so_gp_colour(int k);
/* "set AXISrange [lo - pad:hi + pad]" with pad 4 % of hi - lo (a flat
 * range: 4 % of |lo|, or 1 at 0); with log, lo / 1.15 and hi * 1.15 (lo >
 * 0). Writes nothing when lo or hi is not finite. */
void so_gp_range(FILE *fp, const char *axis, double lo, double hi, int log);
/* The padded range so_gp_range writes, into *plo and *phi. */
void so_gp_padded(double lo, double hi, int log, double *plo, double *phi);
/* Where the key goes for n entries whose longest is longest characters:
 * outside on the right while that leaves the plot most of the width (up
 * to 10 entries of 24 characters), else below the plot, in columns. */
void so_gp_key(FILE *fp, size_t n, size_t longest);
/* "set AXISlabel 'TEXT'" (text quoted). */
void so_gp_label(FILE *fp, const char *axis, const char *text);
/* 1 when the series (ax, ay; na points) and (bx, by; nb points) are the
 * same points, each coordinate within 1e-9 relative (1e-12 absolute). */
int so_gp_same(const double *ax, const double *ay, size_t na, const double *bx,
               const double *by, size_t nb);

/* The one way slotopt runs gnuplot. The program is $SLOTOPT_GNUPLOT when
 * set and not empty, else "gnuplot" found on PATH. */
const char *so_gp_program(void);
/* 1 when that program exists and is executable (a name with a '/' as a
 * path, else on PATH). */
int so_gp_available(void);
/* Runs the program on script (relative to dir when dir is not NULL: the
 * child changes to dir), without a shell, stdout to /dev/null. SO_OK when
 * it exits 0; else SO_EIO with err naming label and the first line gnuplot
 * wrote to stderr (or that it could not be started, or the signal). */
int so_gp_run(const char *dir, const char *script, const char *label, so_error *err);


#endif
