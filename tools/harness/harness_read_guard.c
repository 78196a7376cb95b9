/* harness_read_guard.c — `bench` reads its inputs within the time limit of
 * a cell. Inputs are read (and hashed) before any worker starts, so no
 * worker limit covers them, and a FIFO nobody writes or a device that
 * never ends would hang the run. What is bounded is the time *without
 * input*, not the time to read or parse:
 *   - a regular file is read as any input (its size bounds the reading,
 *     and every parser advances), however long it is;
 *   - standard input too: its writer is a command of the user's pipeline
 *     (`slotopt gen --out - | slotopt bench -`), which may take its time
 *     before the first byte and ends the input when it exits;
 *   - any other path (a FIFO, a device, a socket) is opened and read here
 *     under a real-time timer of so_harness_kill_after(limit) s (the grace
 *     a worker gets), at least SO_HREAD_MIN_SECONDS, re-armed whenever
 *     bytes arrive. When it fires, the program says which file and where
 *     the limit came from and exits 2 at once: the database is not opened
 *     yet, nothing is left half written. Only write(2) and _exit(2) run in
 *     the handler. SIGALRM is unblocked while the timer runs (a blocked
 *     SIGALRM inherited across exec would disable the guard) and the mask
 *     restored afterwards. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include "tools/harness/harness.h"

static char message[1400];
static size_t message_len;
static struct itimerval period;

static void expire(int sig)
{
    (void)sig;
    ssize_t w = write(STDERR_FILENO, message, message_len);
    (void)w;
    _exit(2); /* SO_EXIT_USAGE: a bad input */
}

int so_hread_guarded(const char *path)
{
    struct stat st;
    if (!strcmp(path, "-") || stat(path, &st) != 0)
        return 0; /* stdin; a missing path: the reader says why */
    return !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

static void arm(void)
{
    setitimer(ITIMER_REAL, &period, NULL);
}

/* Reads the whole of fd (re-arming the timer on every chunk), at most
 * so_input_limit() bytes, into a NUL-terminated buffer. */
static int read_all(int fd, const char *path, char **text, size_t *len, so_error *err)
{
    size_t limit = so_input_limit(), n = 0, cap = 0;
    char *buf = NULL;
    for (;;) {
        if (cap - n < 65536) {
            size_t grown = cap ? 2 * cap : 131072;
            char *b = realloc(buf, grown + 1);
            if (!b) {
                free(buf);
                return SO_ENOMEM;
            }
            buf = b;
            cap = grown;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            free(buf);
            so_error_setf(err, path, 0, 0, NULL, "read error: %s", strerror(errno));
            return SO_EIO;
        }
        if (got == 0)
            break;
        n += (size_t)got;
        if (n > limit) {
            free(buf);
            so_error_setf(err, path, 0, 0, NULL, "larger than the input limit of %zu MiB"
                          " (set SLOTOPT_MAX_INPUT_MB to raise it)", limit >> 20);
            return SO_EINVAL;
        }
        arm(); /* progress: the bound starts again */
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return SO_OK;
}

int so_hread_input(const char *path, double time_limit, const char *from, char **text,
                   size_t *len, so_error *err)
{
    *text = NULL;
    *len = 0;
    double after = so_harness_kill_after(time_limit);
    if (after <= 0 || !so_hread_guarded(path))
        return so_read_input(path, text, len, err);
    if (after < SO_HREAD_MIN_SECONDS)
        after = SO_HREAD_MIN_SECONDS;
    int n = snprintf(message, sizeof message,
                     "slotopt: %s: no input for %g s (the time limit of a cell, %s %g):"
                     " a FIFO or device that never ends?\n",
                     path, after, from ? from : "--time-limit", time_limit);
    message_len = n < 0 ? 0 : (size_t)n < sizeof message ? (size_t)n : sizeof message - 1;
    period = (struct itimerval){{0, 0}, {(time_t)after,
                                         (suseconds_t)((after - (double)(time_t)after) * 1e6)}};
    if (period.it_value.tv_sec == 0 && period.it_value.tv_usec == 0)
        period.it_value.tv_usec = 1;
    struct sigaction sa, saved;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = expire;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &saved);
    sigset_t alrm, mask;
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    sigprocmask(SIG_UNBLOCK, &alrm, &mask);
    arm(); /* opening a FIFO waits for its writer: bounded too */
    int rc;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        so_error_setf(err, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
        rc = SO_EIO;
    } else {
        rc = read_all(fd, path, text, len, err);
        close(fd);
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    sigaction(SIGALRM, &saved, NULL);
    sigprocmask(SIG_SETMASK, &mask, NULL);
    return rc;
}
