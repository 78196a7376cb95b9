/* harness_pool.c — running cells in forked worker processes.
 *
 * Each cell runs in a fresh child (fork after the instances are parsed, so
 * the child solves the parent's copy): the child calls so_solve, writes the
 * result as one JSON object to its pipe and leaves with _exit. The parent
 * keeps up to `jobs` children, polls their pipes, and kills (SIGKILL) a child
 * that has not answered so_harness_kill_after(time_limit) seconds after it
 * started: the backend is stopped from outside whatever it does. A child
 * that dies without an answer is recorded as crashed. Every finished cell is
 * stored at once. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/harness.h"

typedef struct worker {
    pid_t pid;
    int fd;
    size_t cell;
    double start;
    char *buf;
    size_t len, cap;
} worker;

/* ---- the child ------------------------------------------------------------ */

static void write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static json_t *real_or_null(int has, double x)
{
    return has && isfinite(x) ? json_real(x) : json_null();
}

static void child(const so_hconfig *c, const so_hinst *in, const so_hcell *cell,
                  int fd, pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(1);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        close(null);
    }
    so_params prm;
    so_params_init(&prm);
    prm.time_limit = c->time_limit;
    prm.seed = (uint64_t)cell->rep + 1;
    so_error err;
    so_error_clear(&err);
    so_result *r = NULL;
    int rc = so_solve(cell->backend, in->problem, &prm, &r, &err);
    json_t *o = json_object();
    json_object_set_new(o, "status", json_integer(rc));
    if (r) {
        json_object_set_new(o, "objective", real_or_null(so_result_has_objective(r),
                                                         so_result_objective(r)));
        json_object_set_new(o, "bound", real_or_null(so_result_has_bound(r),
                                                     so_result_bound(r)));
        json_object_set_new(o, "seconds", json_real(so_result_seconds(r)));
        json_object_set_new(o, "message", json_string(so_result_message(r)));
        /* the extras are the keys of the result JSON beyond the fixed ones */
        json_t *all = so_result_to_json(r), *extras = json_object();
        static const char *const fixed[] = {"problem", "instance", "backend", "exact",
                                            "status", "objective", "bound", "gap",
                                            "seconds", "solution", "message", NULL};
        const char *key;
        json_t *v;
        json_object_foreach(all, key, v) {
            int skip = 0;
            for (int k = 0; fixed[k] && !skip; k++)
                skip = strcmp(key, fixed[k]) == 0;
            if (!skip)
                json_object_set(extras, key, v);
        }
        json_decref(all);
        json_object_set_new(o, "extras", extras);
    } else {
        json_object_set_new(o, "message", json_string(err.message));
    }
    char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
    if (text)
        write_all(fd, text, strlen(text));
    _exit(text ? 0 : 1);
}

/* ---- the parent ----------------------------------------------------------- */

/* The row's instance part, backend and repetition. */
static void row_for(const so_hconfig *c, const so_hinst *in, const so_hcell *cell,
                    so_hrow *r)
{
    memset(r, 0, sizeof *r);
    r->instance = (char *)in->name;
    r->hash = (char *)in->hash;
    r->problem = (char *)so_problem_kind(in->problem);
    r->sense = so_problem_sense(in->problem);
    r->family = in->family;
    r->params = in->params;
    r->has_seed = in->has_seed;
    r->seed = in->seed;
    r->index = in->index;
    r->backend = (char *)cell->backend->name;
    r->exact = cell->backend->exact;
    r->rep = cell->rep;
    r->version = (char *)SO_VERSION;
    r->objective = r->bound = NAN;
    r->time_limit = c->time_limit > 0 ? c->time_limit : NAN;
}

static double number(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Fills status, numbers and texts of r from the child's answer (owned
 * texts in *owned, freed by the caller). */
static void from_answer(json_t *o, so_hrow *r, char **owned)
{
    int code = (int)json_integer_value(json_object_get(o, "status"));
    const char *msg = json_string_value(json_object_get(o, "message"));
    r->objective = number(o, "objective");
    r->bound = number(o, "bound");
    double sec = number(o, "seconds");
    if (isfinite(sec))
        r->seconds = sec;
    if (code < 0) {
        r->status = (char *)"error";
        if (asprintf(&owned[0], "%s%s%s", so_status_str(code), msg && *msg ? ": " : "",
                     msg ? msg : "") >= 0)
            r->message = owned[0];
    } else {
        r->status = (char *)so_status_str(code);
        if (msg && *msg)
            r->message = owned[0] = strdup(msg);
    }
    json_t *extras = json_object_get(o, "extras");
    json_t *frontier = json_object_get(extras, "frontier");
    if (frontier) {
        r->frontier = owned[1] = json_dumps(frontier, JSON_COMPACT | JSON_REAL_PRECISION(17));
        json_object_del(extras, "frontier");
    }
    if (json_object_size(extras))
        r->extras = owned[2] = json_dumps(extras, JSON_COMPACT | JSON_PRESERVE_ORDER |
                                                      JSON_REAL_PRECISION(17));
}

/* Reaps w's child (killed when `killed`) and stores its cell. */
static int finish(const so_hconfig *c, const so_hinsts *s, const so_hcell *cells,
                  worker *w, int killed, so_hstore *st, so_error *err)
{
    int status = 0;
    if (killed)
        kill(w->pid, SIGKILL);
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    close(w->fd);
    const so_hcell *cell = &cells[w->cell];
    so_hrow r;
    row_for(c, &s->v[cell->inst], cell, &r);
    r.seconds = so_now() - w->start;
    char *owned[3] = {NULL, NULL, NULL};
    char msg[256];
    json_t *answer = NULL;
    if (!killed && WIFEXITED(status) && WEXITSTATUS(status) == 0 && w->buf) {
        w->buf[w->len] = '\0';
        answer = json_loads(w->buf, 0, NULL);
    }
    if (killed) {
        r.status = (char *)"killed";
        snprintf(msg, sizeof msg, "no answer %.3g s after the start (time limit"
                 " %.3g s); worker killed", so_harness_kill_after(c->time_limit),
                 c->time_limit);
        r.message = msg;
    } else if (answer) {
        from_answer(answer, &r, owned);
    } else {
        r.status = (char *)"crashed";
        if (WIFSIGNALED(status))
            snprintf(msg, sizeof msg, "worker died of signal %d (%s)",
                     WTERMSIG(status), strsignal(WTERMSIG(status)));
        else
            snprintf(msg, sizeof msg, "worker exited with code %d and no answer",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        r.message = msg;
    }
    int rc = so_hstore_put(st, &r, err);
    json_decref(answer);
    for (int k = 0; k < 3; k++)
        free(owned[k]);
    free(w->buf);
    w->buf = NULL;
    w->len = w->cap = 0;
    w->pid = 0;
    return rc;
}

static int start(const so_hconfig *c, const so_hinsts *s, const so_hcell *cells,
                 size_t k, worker *w, so_error *err)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC)) {
        so_error_setf(err, NULL, 0, 0, NULL, "pipe: %s", strerror(errno));
        return SO_EIO;
    }
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        so_error_setf(err, NULL, 0, 0, NULL, "fork: %s", strerror(errno));
        return SO_EIO;
    }
    if (pid == 0) {
        close(fds[0]);
        child(c, &s->v[cells[k].inst], &cells[k], fds[1], parent);
    }
    close(fds[1]);
    w->pid = pid;
    w->fd = fds[0];
    w->cell = k;
    w->start = so_now();
    return SO_OK;
}

/* Reads what is there; 1 at end of file (or when out of memory). */
static int drain(worker *w)
{
    for (;;) {
        if (w->cap - w->len < 4096) {
            size_t cap = w->cap ? 2 * w->cap : 8192;
            char *b = realloc(w->buf, cap + 1);
            if (!b)
                return 1;
            w->buf = b;
            w->cap = cap;
        }
        ssize_t got = read(w->fd, w->buf + w->len, w->cap - w->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && errno == EAGAIN)
            return 0;
        if (got <= 0)
            return 1;
        w->len += (size_t)got;
    }
}

static void stop_all(worker *ws, int jobs)
{
    for (int j = 0; j < jobs; j++)
        if (ws[j].pid > 0) {
            kill(ws[j].pid, SIGKILL);
            waitpid(ws[j].pid, NULL, 0);
            close(ws[j].fd);
            free(ws[j].buf);
        }
}

int so_harness_pool(const so_hconfig *c, const so_hinsts *s,
                    const so_hcell *cells, size_t n, so_hstore *st,
                    so_error *err)
{
    int jobs = c->jobs > 0 ? c->jobs : 1;
    worker *ws = calloc((size_t)jobs, sizeof *ws);
    struct pollfd *pfd = calloc((size_t)jobs, sizeof *pfd);
    if (!ws || !pfd) {
        free(ws);
        free(pfd);
        return SO_ENOMEM;
    }
    double kill_after = so_harness_kill_after(c->time_limit);
    so_hprogress pb;
    so_hprogress_start(&pb, stderr, n, c->progress);
    size_t next = 0;
    int active = 0, rc = SO_OK;
    while (!rc && (next < n || active > 0)) {
        for (int j = 0; j < jobs && next < n && !rc; j++)
            if (ws[j].pid == 0) {
                rc = start(c, s, cells, next++, &ws[j], err);
                active += !rc;
            }
        if (rc)
            break;
        double now = so_now(), wait = -1;
        for (int j = 0; j < jobs; j++) {
            pfd[j] = (struct pollfd){ws[j].pid ? ws[j].fd : -1, POLLIN, 0};
            if (ws[j].pid && kill_after > 0) {
                double left = ws[j].start + kill_after - now;
                if (wait < 0 || left < wait)
                    wait = left > 0 ? left : 0;
            }
        }
        if (c->progress && (wait < 0 || wait > 0.5))
            wait = 0.5; /* keep the elapsed time moving */
        int ms = wait < 0 ? -1 : (int)ceil(wait * 1000);
        if (poll(pfd, (nfds_t)jobs, ms) < 0 && errno != EINTR) {
            so_error_setf(err, NULL, 0, 0, NULL, "poll: %s", strerror(errno));
            rc = SO_EIO;
            break;
        }
        so_hprogress_tick(&pb);
        for (int j = 0; j < jobs && !rc; j++) {
            worker *w = &ws[j];
            if (!w->pid)
                continue;
            int ended = pfd[j].revents && drain(w);
            int late = !ended && kill_after > 0 && so_now() - w->start >= kill_after;
            if (ended || late) {
                rc = finish(c, s, cells, w, late, st, err);
                active--;
                so_hprogress_step(&pb);
            }
        }
    }
    stop_all(ws, jobs);
    so_hprogress_end(&pb);
    free(ws);
    free(pfd);
    return rc;
}
