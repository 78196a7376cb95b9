/*
 * tour.h — `slotopt tour` (what `make run` shows): the papers' headline
 * experiments, each a scenario of the harness (instances/scenarios/), run
 * one after the other into one results database and printed as one short
 * table under a one-line heading naming the paper and figure.
 */
#ifndef SO_TOUR_H
#define SO_TOUR_H
#include <stdio.h>
#include "slotopt.h"

/* How a section's table reads its summary rows. */
enum so_tour_view {
    SO_TOUR_RATIO, /* solve cells: proven cells, % optimal, mean / worst ratio */
    SO_TOUR_DIFF,  /* solve cells: the difference instead (objectives near 0) */
    SO_TOUR_SIM    /* simulation cells: mean metric and ratio per policy */
};

typedef struct so_tour_section {
    const char *scenario; /* NAME of instances/scenarios/NAME.json */
    const char *heading;  /* one line: paper, figure, what is compared */
    int view;             /* enum so_tour_view */
    const char *measure;  /* the ratio's or difference's meaning (column) */
    const char *doc;      /* where the full experiment is described */
} so_tour_section;

/* The sections, in order; NULL scenario ends the list. */
extern const so_tour_section so_tour_sections[];

/* Runs every section (scenario files found as `bench --scenario` finds
 * them, so $SLOTOPT_SCENARIOS can replace them) with jobs workers (0: the
 * scenario's), storing the cells in db, and prints the tables on out. */
int so_tour_run(FILE *out, const char *db, int jobs, so_error *err);

#endif
