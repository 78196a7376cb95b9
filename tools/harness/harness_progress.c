/* harness_progress.c — bench's progress bar on stderr (only when the caller
 * found it to be a terminal): cells done / total, elapsed, ETA; drawn by the
 * program's one progress line (tools/output/progress.h). */
#include <string.h>
#include "tools/harness/harness.h"

#define WIDTH 30

void so_hprogress_format(char *buf, size_t size, size_t done, size_t total,
                         double elapsed)
{
    char bar[WIDTH + 1], el[32], eta[32] = "-";
    size_t fill = total ? done * WIDTH / total : WIDTH;
    for (size_t i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = '\0';
    so_progress_clock(el, sizeof el, elapsed);
    if (done > 0)
        so_progress_clock(eta, sizeof eta, elapsed / (double)done * (double)(total - done));
    snprintf(buf, size, "[%s] %zu/%zu cells  elapsed %s  ETA %s", bar, done,
             total, el, eta);
}

static void draw(so_hprogress *pb)
{
    char line[160];
    so_hprogress_format(line, sizeof line, pb->done, pb->total,
                        so_progress_elapsed(&pb->line));
    so_progress_draw(&pb->line, line);
}

void so_hprogress_start(so_hprogress *pb, FILE *fp, size_t total, int enabled)
{
    memset(pb, 0, sizeof *pb);
    pb->total = total;
    so_progress_init(&pb->line, fp, enabled, 0);
    draw(pb);
}

void so_hprogress_step(so_hprogress *pb)
{
    pb->done++;
    if (so_progress_due(&pb->line, pb->done == pb->total ? 0 : 0.1))
        draw(pb);
}

void so_hprogress_tick(so_hprogress *pb)
{
    if (so_progress_due(&pb->line, 0.5))
        draw(pb);
}

void so_hprogress_end(so_hprogress *pb)
{
    draw(pb);
    so_progress_end(&pb->line);
}
