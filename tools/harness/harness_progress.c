/* harness_progress.c — the progress bar on stderr (only when the caller
 * found it to be a terminal): cells done / total, elapsed, ETA. */
#include <string.h>
#include "tools/harness/harness.h"

#define WIDTH 30

static void clock_text(char *buf, size_t size, double s)
{
    long t = s > 0 ? (long)(s + 0.5) : 0;
    if (t >= 3600)
        snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

void so_hprogress_format(char *buf, size_t size, size_t done, size_t total,
                         double elapsed)
{
    char bar[WIDTH + 1], el[32], eta[32] = "-";
    size_t fill = total ? done * WIDTH / total : WIDTH;
    for (size_t i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = '\0';
    clock_text(el, sizeof el, elapsed);
    if (done > 0)
        clock_text(eta, sizeof eta, elapsed / (double)done * (double)(total - done));
    snprintf(buf, size, "[%s] %zu/%zu cells  elapsed %s  ETA %s", bar, done,
             total, el, eta);
}

static void draw(so_hprogress *pb)
{
    char line[160];
    double now = so_now();
    so_hprogress_format(line, sizeof line, pb->done, pb->total, now - pb->start);
    fprintf(pb->fp, "\r%s\033[K", line);
    fflush(pb->fp);
    pb->last_draw = now;
}

void so_hprogress_start(so_hprogress *pb, FILE *fp, size_t total, int enabled)
{
    memset(pb, 0, sizeof *pb);
    pb->fp = fp;
    pb->total = total;
    pb->enabled = enabled;
    pb->start = so_now();
    if (enabled)
        draw(pb);
}

void so_hprogress_step(so_hprogress *pb)
{
    pb->done++;
    if (pb->enabled && (pb->done == pb->total || so_now() - pb->last_draw >= 0.1))
        draw(pb);
}

void so_hprogress_tick(so_hprogress *pb)
{
    if (pb->enabled && so_now() - pb->last_draw >= 0.5)
        draw(pb);
}

void so_hprogress_end(so_hprogress *pb)
{
    if (!pb->enabled)
        return;
    draw(pb);
    fputc('\n', pb->fp);
}
