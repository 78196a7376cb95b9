/* progress.h — the one progress line of the program (bench's cells, sim's
 * replay): drawn on a terminal in place ("\r", then clear to the end of
 * the line), throttled, ended by a newline. The caller decides whether the
 * stream is a terminal (enabled). */
#ifndef SO_PROGRESS_H
#define SO_PROGRESS_H
#include <stdio.h>

typedef struct so_progress {
    FILE *fp;
    double (*clock)(void); /* wall clock in seconds: so_now (tests set another) */
    double start, last_draw;
    double after;          /* silent for the first `after` seconds */
    int enabled, drawn;    /* drawn: a line is on the terminal */
} so_progress;

void so_progress_init(so_progress *p, FILE *fp, int enabled, double after);
/* Seconds since so_progress_init. */
double so_progress_elapsed(const so_progress *p);
/* 1 when a line drawn now would show: enabled, `after` seconds past, and
 * the last line at least gap seconds old. */
int so_progress_due(const so_progress *p, double gap);
/* Draws line (no newline) in place of the last one. */
void so_progress_draw(so_progress *p, const char *line);
/* Ends the line with a newline, when one was drawn. */
void so_progress_end(so_progress *p);
/* A duration as m:ss, or h:mm:ss from an hour on. */
void so_progress_clock(char *buf, size_t size, double seconds);

#endif
