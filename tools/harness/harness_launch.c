/* harness_launch.c — `slotopt bench --mpirun CMD`: starts the MPI job
 * (CMD, e.g. "mpirun --enable-recovery -np 4", then this program with
 * --mpi) as a child in its own process group, watches rank 0's status file
 * and ends the job when it hangs; the caller then judges the run by the
 * database (cmd_bench.c), never by the launcher's own exit status, which
 * Open MPI's --enable-recovery makes 0 whatever rank 0 did.
 *
 * The status file (--mpi-status FILE, written by rank 0): "running PID
 * HOST" when rank 0 starts, "done CODE" when it has printed its summary,
 * each line replacing the file (written beside it, then renamed). The
 * watchdog: once "done" is there, the job has `grace` seconds to end, then
 * its process group gets SIGTERM and, 2 s later, SIGKILL (Open MPI 4.1's
 * MPI_Finalize sometimes never returns after a rank died); when rank 0 ran
 * on this host and its process is gone without "done" (killed), the job is
 * ended the same way at once (the other ranks would wait minutes for it). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tools/harness/harness.h"

int so_hstatus_write(const char *path, const char *line)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return -1;
    FILE *fp = fopen(tmp, "w");
    if (!fp)
        return -1;
    int bad = fprintf(fp, "%s\n", line) < 0;
    bad |= fclose(fp) != 0;
    if (bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

int so_hstatus_read(const char *path, so_hstatus *out)
{
    memset(out, 0, sizeof *out);
    out->code = -1;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    char word[16] = "", host[256] = "";
    long a = 0;
    int got = fscanf(fp, "%15s %ld %255s", word, &a, host);
    fclose(fp);
    if (got >= 3 && !strcmp(word, "running")) {
        out->state = SO_HSTATUS_RUNNING;
        out->pid = (pid_t)a;
        snprintf(out->host, sizeof out->host, "%s", host);
    } else if (got >= 2 && !strcmp(word, "done")) {
        out->state = SO_HSTATUS_DONE;
        out->code = (int)a;
    } else {
        return -1;
    }
    return 0;
}

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* Rank 0 ran here and its process is gone. */
static int rank0_gone(const so_hstatus *st)
{
    char host[256] = "";
    if (st->state != SO_HSTATUS_RUNNING || gethostname(host, sizeof host) != 0 ||
        strcmp(host, st->host) != 0 || st->pid <= 0)
        return 0;
    return kill(st->pid, 0) != 0 && errno == ESRCH;
}

int so_harness_launch(char *const *argv, const char *status_path, double grace,
                      so_hlaunch *out, so_error *err)
{
    memset(out, 0, sizeof *out);
    unlink(status_path);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return so_error_setf(err, NULL, 0, 0, NULL, "--mpirun: cannot fork: %s",
                             strerror(errno));
    if (pid == 0) {
        setpgid(0, 0);
        execvp(argv[0], argv);
        fprintf(stderr, "slotopt bench: --mpirun: cannot run '%s': %s\n", argv[0],
                strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* both sides: no race with the kill below */
    double end_by = -1, term_at = -1;
    int status = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR))
            break;
        double now = so_now();
        so_hstatus st;
        if (end_by < 0 && so_hstatus_read(status_path, &st) == 0) {
            if (st.state == SO_HSTATUS_DONE) {
                end_by = now + grace;
            } else if (rank0_gone(&st)) {
                nap(0.2); /* its last words may just be landing */
                if (so_hstatus_read(status_path, &st) == 0 && st.state != SO_HSTATUS_DONE) {
                    out->rank0_died = 1;
                    end_by = now;
                }
            }
        }
        if (end_by >= 0 && now >= end_by && term_at < 0) {
            out->ended_by_watchdog = 1;
            kill(-pid, SIGTERM);
            term_at = now;
        }
        if (term_at >= 0 && now >= term_at + 2)
            kill(-pid, SIGKILL);
        nap(0.1);
    }
    out->wait_status = status;
    so_hstatus st;
    if (so_hstatus_read(status_path, &st) == 0 && st.state == SO_HSTATUS_DONE)
        out->rank0_code = st.code, out->rank0_done = 1;
    else
        out->rank0_code = -1;
    unlink(status_path);
    return SO_OK;
}
