/* sim_progress.h — a progress line on stderr for long `slotopt sim` replays
 * (issue 20: a replay that runs for minutes says how far it is), drawn by
 * the program's one progress line (tools/output/progress.h). Drawn only
 * when the caller found stderr to be a terminal, and only once the replay
 * has run for SO_SIM_PROGRESS_AFTER seconds of wall-clock time. */
#ifndef SO_SIM_PROGRESS_H
#define SO_SIM_PROGRESS_H

#include <stdint.h>
#include <stdio.h>
#include "tools/output/progress.h"

#define SO_SIM_PROGRESS_AFTER 3.0 /* seconds before the first line */
#define SO_SIM_PROGRESS_EVERY 0.5 /* seconds between redraws */

typedef so_progress so_sim_progress;

void so_sim_progress_init(so_sim_progress *p, FILE *fp);
/* "sim: 12/5894 jobs (0.2 %), simulated 10:00, 1.2 M events, 0:03" */
void so_sim_progress_format(char *buf, size_t size, double now, int jobs_done,
                            int n_jobs, uint64_t events, double elapsed);
/* The so_cl_config.progress callback (ctx: a so_sim_progress). */
void so_sim_progress_update(void *ctx, double now, int jobs_done, int n_jobs,
                            uint64_t events);
/* Ends the line (if one was drawn). */
void so_sim_progress_end(so_sim_progress *p);

#endif
