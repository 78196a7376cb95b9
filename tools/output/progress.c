/* progress.c — the one progress line (progress.h). */
#include "tools/output/progress.h"
#include "slotopt.h"

void so_progress_init(so_progress *p, FILE *fp, int enabled, double after)
{
    p->fp = fp;
    p->clock = so_now;
    p->start = so_now();
    p->last_draw = -1e300;
    p->after = after;
    p->enabled = enabled;
    p->drawn = 0;
}

double so_progress_elapsed(const so_progress *p)
{
    return p->clock() - p->start;
}

int so_progress_due(const so_progress *p, double gap)
{
    double t = p->clock();
    return p->enabled && t - p->start >= p->after && t - p->last_draw >= gap;
}

void so_progress_draw(so_progress *p, const char *line)
{
    if (!p->enabled)
        return;
    fprintf(p->fp, "\r%s\033[K", line);
    fflush(p->fp);
    p->last_draw = p->clock();
    p->drawn = 1;
}

void so_progress_end(so_progress *p)
{
    if (p->drawn) {
        fputc('\n', p->fp);
        fflush(p->fp);
    }
    p->drawn = 0;
}

void so_progress_clock(char *buf, size_t size, double seconds)
{
    long long t = seconds > 0 && seconds < 1e15 ? (long long)(seconds + 0.5) : 0;
    if (t >= 3600)
        snprintf(buf, size, "%lld:%02lld:%02lld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, size, "%lld:%02lld", t / 60, t % 60);
}
