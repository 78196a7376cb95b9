/* sim_progress.c — the progress line of `slotopt sim` on a terminal:
 * jobs finished of all, simulated time, events, wall-clock time. Silent for
 * the first SO_SIM_PROGRESS_AFTER seconds, so short replays print nothing;
 * redrawn at most every SO_SIM_PROGRESS_EVERY seconds. */
#include "tools/cli/sim_progress.h"

void so_sim_progress_init(so_sim_progress *p, FILE *fp)
{
    so_progress_init(p, fp, 1, SO_SIM_PROGRESS_AFTER);
}

void so_sim_progress_format(char *buf, size_t size, double now, int jobs_done,
                            int n_jobs, uint64_t events, double elapsed)
{
    char sim[48], wall[48];
    so_progress_clock(sim, sizeof sim, now);
    so_progress_clock(wall, sizeof wall, elapsed);
    snprintf(buf, size,
             "sim: %d/%d jobs (%.1f %%), simulated %s, %.1f M events, %s",
             jobs_done, n_jobs, n_jobs > 0 ? 100.0 * jobs_done / n_jobs : 100.0,
             sim, (double)events / 1e6, wall);
}

void so_sim_progress_update(void *ctx, double now, int jobs_done, int n_jobs,
                            uint64_t events)
{
    so_sim_progress *p = ctx;
    if (!so_progress_due(p, SO_SIM_PROGRESS_EVERY))
        return;
    char line[200];
    so_sim_progress_format(line, sizeof line, now, jobs_done, n_jobs, events,
                           so_progress_elapsed(p));
    so_progress_draw(p, line);
}

void so_sim_progress_end(so_sim_progress *p)
{
    so_progress_end(p);
}
