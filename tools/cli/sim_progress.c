/* sim_progress.c — the progress line of `slotopt sim` on a terminal:
 * jobs finished of all, simulated time, events, wall-clock time. Silent for
 * the first SO_SIM_PROGRESS_AFTER seconds, so short replays print nothing;
 * redrawn in place ("\r", clear to end of line) at most every
 * SO_SIM_PROGRESS_EVERY seconds. */
#include "tools/cli/sim_progress.h"
#include "slotopt.h"

static void clock_text(char *buf, size_t size, double s)
{
    long long t = s > 0 && s < 1e15 ? (long long)(s + 0.5) : 0;
    snprintf(buf, size, "%lld:%02lld:%02lld", t / 3600, t / 60 % 60, t % 60);
}

void so_sim_progress_init(so_sim_progress *p, FILE *fp)
{
    p->fp = fp;
    p->clock = so_now;
    p->start = so_now();
    p->last_draw = -1e300;
    p->drawn = 0;
}

void so_sim_progress_format(char *buf, size_t size, double now, int jobs_done,
                            int n_jobs, uint64_t events, double elapsed)
{
    char sim[48], wall[48];
    clock_text(sim, sizeof sim, now);
    clock_text(wall, sizeof wall, elapsed);
    snprintf(buf, size,
             "sim: %d/%d jobs (%.1f %%), simulated %s, %.1f M events, %s",
             jobs_done, n_jobs, n_jobs > 0 ? 100.0 * jobs_done / n_jobs : 100.0,
             sim, (double)events / 1e6, wall);
}

void so_sim_progress_update(void *ctx, double now, int jobs_done, int n_jobs,
                            uint64_t events)
{
    so_sim_progress *p = ctx;
    double t = p->clock();
    if (t - p->start < SO_SIM_PROGRESS_AFTER ||
        t - p->last_draw < SO_SIM_PROGRESS_EVERY)
        return;
    char line[200];
    so_sim_progress_format(line, sizeof line, now, jobs_done, n_jobs, events,
                           t - p->start);
    fprintf(p->fp, "\r%s\033[K", line);
    fflush(p->fp);
    p->last_draw = t;
    p->drawn = 1;
}

void so_sim_progress_end(so_sim_progress *p)
{
    if (p->drawn) {
        fputc('\n', p->fp);
        fflush(p->fp);
    }
    p->drawn = 0;
}
