/* frontier_plot.h — the plot of `slotopt frontier --plot`: the frontiers
 * of one pareto instance as steps (exact thick, heuristics thin with their
 * points), each with its own colour, dash type and point type, axis ranges
 * from the frontier points (not the window), and the instance's
 * budget/deadline window shaded where it falls inside them. */
#ifndef SO_FRONTIER_PLOT_H
#define SO_FRONTIER_PLOT_H
#include <jansson.h>
#include <stdio.h>
#include "slotopt.h"

/* The instance's window: budget_min..budget_max and makespan <= deadline
 * (infinite when the instance sets none). */
typedef struct so_frontier_window {
    double budget_min, budget_max, deadline;
} so_frontier_window;

/* Writes the gnuplot script into gp: drawn as the type of kind's extension
 * into out; frontier i of all's "frontiers" read from DIR/fI.dat, which
 * so_frontier_plot_data writes. */
void so_frontier_plot_script(FILE *gp, json_t *all, const so_frontier_window *win,
                             const char *dir, const char *kind, const char *out);
/* Writes DIR/fI.dat (makespan budget per line) for frontier i; SO_EIO with
 * err naming the file when one cannot be written. */
int so_frontier_plot_data(json_t *all, const char *dir, so_error *err);
/* Draws the plot into path as so_output_open writes (a temporary folder,
 * then copied: a link or device at path is written, never replaced; "-"
 * is SVG on stdout). Without gnuplot: a note on stderr and SO_OK. */
int so_frontier_plot(json_t *all, const so_frontier_window *win, const char *path,
                     so_error *err);

#endif
