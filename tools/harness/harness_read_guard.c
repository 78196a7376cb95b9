/* harness_read_guard.c — `bench` reads its inputs within the time limit of
 * a cell. Inputs are read (and hashed) before any worker starts, so no
 * worker limit covers them; a file that never ends (a FIFO nobody writes,
 * a device, a reader that loops) would hang the run. While a file is read
 * a real-time timer runs for so_harness_kill_after(time_limit) seconds
 * (the grace a worker gets), at least SO_HREAD_MIN_SECONDS (a cell limit
 * of a millisecond is no time to read a file in); when it fires, the program says which file
 * and exits 2 at once: the database is not opened yet, nothing is left
 * half written. Only write(2) and _exit(2) run in the handler. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "tools/harness/harness.h"

static char message[1400];
static size_t message_len;
static struct sigaction saved;
static int armed;

static void expire(int sig)
{
    (void)sig;
    ssize_t w = write(STDERR_FILENO, message, message_len);
    (void)w;
    _exit(2); /* SO_EXIT_USAGE: a bad input */
}

void so_hread_guard_start(double time_limit, const char *path)
{
    double after = so_harness_kill_after(time_limit);
    if (after <= 0 || armed)
        return;
    if (after < SO_HREAD_MIN_SECONDS)
        after = SO_HREAD_MIN_SECONDS;
    int n = snprintf(message, sizeof message,
                     "slotopt: %s: not read within %g s (the time limit of a cell,"
                     " --time-limit %g): a FIFO or device that never ends?\n",
                     path, after, time_limit);
    message_len = n < 0 ? 0 : (size_t)n < sizeof message ? (size_t)n : sizeof message - 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = expire;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &saved);
    struct itimerval it = {{0, 0}, {(time_t)after, (suseconds_t)((after - (double)(time_t)after) * 1e6)}};
    if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
        it.it_value.tv_usec = 1;
    setitimer(ITIMER_REAL, &it, NULL);
    armed = 1;
}

void so_hread_guard_stop(void)
{
    if (!armed)
        return;
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    sigaction(SIGALRM, &saved, NULL);
    armed = 0;
}
