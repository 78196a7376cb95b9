/* harness_pool.c — running cells in forked worker processes.
 *
 * Up to `jobs` workers are forked once the instances are parsed (each solves
 * its copy-on-write copy of them) and serve cell after cell: the parent
 * writes a cell index to a worker's request pipe and polls the answer pipes
 * (so_harness_serve). A worker that has not answered
 * so_harness_kill_after(time_limit) seconds after it got its cell is killed
 * (SIGKILL), whatever its backend does, and replaced by a fresh fork; a
 * worker that dies without answering is recorded as crashed and replaced
 * too. Every finished cell is stored at once (so_harness_store_cell, also
 * the storing step of MPI runs). Workers die with the parent
 * (PR_SET_PDEATHSIG). so_hrunner (at the end) is the same worker for one
 * cell at a time, as the ranks of an MPI run use it. */
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
#include "tools/harness/harness.h"

typedef struct worker {
    pid_t pid; /* 0: no process */
    int req, ans; /* the parent's ends of the two pipes */
    int busy;
    size_t cell;
    double start;
    char *buf;
    size_t len, cap;
} worker;

typedef struct pool {
    const so_hconfig *c;
    const so_hinsts *s;
    const so_hcell *cells;
    size_t n, next; /* cells, and the next one to hand out */
    so_hstore *st;
    worker *ws;
    int jobs;
} pool;

/* The row's instance part, backend and repetition. */
static void row_for(const so_hconfig *c, const so_hinst *in, const so_hcell *cell,
                    so_hrow *r)
{
    memset(r, 0, sizeof *r);
    r->instance = (char *)in->name;
    r->hash = (char *)in->hash;
    r->problem = (char *)(in->problem ? so_problem_kind(in->problem) : "sim");
    r->sense = in->problem ? so_problem_sense(in->problem) : SO_MINIMIZE;
    r->family = in->family;
    r->params = in->params;
    r->has_seed = in->has_seed;
    r->seed = in->seed;
    r->index = in->index;
    r->backend = (char *)so_hcell_name(cell);
    r->exact = cell->backend ? cell->backend->exact : !cell->policy->scheduler;
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
    } else if (json_is_string(json_object_get(o, "status_text"))) { /* simulation */
        r->status = owned[3] = strdup(json_string_value(json_object_get(o, "status_text")));
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

int so_harness_store_cell(const so_hconfig *c, const so_hinsts *s,
                          const so_hcell *cell, const so_hend *end, so_hstore *st,
                          so_error *err)
{
    so_hrow r;
    row_for(c, &s->v[cell->inst], cell, &r);
    r.seconds = end->seconds;
    char *owned[4] = {NULL, NULL, NULL, NULL};
    char msg[256];
    const char *text = end->text;
    json_t *answer = text ? json_loads(text, 0, NULL) : NULL;
    if (answer) {
        from_answer(answer, &r, owned);
    } else if (end->lost) {
        r.status = (char *)"killed";
        r.message = (char *)end->lost;
    } else if (end->killed) {
        r.status = (char *)"killed";
        snprintf(msg, sizeof msg, "no answer %.3g s after the start (time limit"
                 " %.3g s); worker killed", so_harness_kill_after(c->time_limit),
                 c->time_limit);
        r.message = msg;
    } else {
        r.status = (char *)"crashed";
        int status = end->wait_status;
        if (text)
            snprintf(msg, sizeof msg, "unreadable answer from the worker");
        else if (WIFSIGNALED(status))
            snprintf(msg, sizeof msg, "worker died of signal %d (%s)",
                     WTERMSIG(status), strsignal(WTERMSIG(status)));
        else
            snprintf(msg, sizeof msg, "worker exited with code %d and no answer",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        r.message = msg;
    }
    int rc = so_hstore_put(st, &r, err);
    json_decref(answer);
    for (int i = 0; i < 4; i++)
        free(owned[i]);
    return rc;
}

/* Stores cell k, started at `start`, from its answer (text NULL: killed or
 * crashed with wait status `status`). */
static int store(pool *pl, size_t k, double start, const char *text, int killed,
                 int status, so_error *err)
{
    so_hend end = {text, killed, status, NULL, so_now() - start};
    return so_harness_store_cell(pl->c, pl->s, &pl->cells[k], &end, pl->st, err);
}

/* Ends w's process (killing it first when `kill_it`); its wait status. */
static int reap(worker *w, int kill_it)
{
    int status = 0;
    if (kill_it)
        kill(w->pid, SIGKILL);
    close(w->req);
    close(w->ans);
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    w->pid = 0;
    return status;
}

static int spawn(pool *pl, worker *w, so_error *err)
{
    int req[2], ans[2];
    if (pipe2(req, O_CLOEXEC)) {
        so_error_setf(err, NULL, 0, 0, NULL, "pipe: %s", strerror(errno));
        return SO_EIO;
    }
    if (pipe2(ans, O_CLOEXEC)) {
        close(req[0]);
        close(req[1]);
        so_error_setf(err, NULL, 0, 0, NULL, "pipe: %s", strerror(errno));
        return SO_EIO;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1);
        /* the other workers' pipes stay open in the parent only, so that
         * each worker sees the end of its own input */
        for (int j = 0; j < pl->jobs; j++)
            if (pl->ws[j].pid > 0) {
                close(pl->ws[j].req);
                close(pl->ws[j].ans);
            }
        close(req[1]);
        close(ans[0]);
        so_harness_serve(pl->c, pl->s, pl->cells, req[0], ans[1]);
    }
    close(req[0]);
    close(ans[1]);
    if (pid < 0) {
        close(req[1]);
        close(ans[0]);
        so_error_setf(err, NULL, 0, 0, NULL, "fork: %s", strerror(errno));
        return SO_EIO;
    }
    fcntl(ans[0], F_SETFL, O_NONBLOCK);
    w->pid = pid;
    w->req = req[1];
    w->ans = ans[0];
    w->busy = 0;
    w->len = 0;
    return SO_OK;
}

static int dispatch(pool *pl, worker *w, size_t k, so_error *err)
{
    if (!w->pid) {
        int rc = spawn(pl, w, err);
        if (rc)
            return rc;
    }
    w->cell = k;
    w->start = so_now();
    w->busy = 1;
    w->len = 0;
    ssize_t n;
    while ((n = write(w->req, &k, sizeof k)) < 0 && errno == EINTR)
        ;
    if (n != (ssize_t)sizeof k) /* the worker is gone: recorded as it ends */
        kill(w->pid, SIGKILL);
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
        ssize_t got = read(w->ans, w->buf + w->len, w->cap - w->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && errno == EAGAIN)
            return 0;
        if (got <= 0)
            return 1;
        w->len += (size_t)got;
    }
}

/* The answer text when a whole one has arrived (NUL-terminated), or NULL. */
static const char *answer(worker *w)
{
    uint32_t n;
    if (w->len < sizeof n)
        return NULL;
    memcpy(&n, w->buf, sizeof n);
    if (w->len < sizeof n + n)
        return NULL;
    w->buf[sizeof n + n] = '\0';
    return w->buf + sizeof n;
}

/* Handles what happened to busy worker w; 1 when its cell is done. A worker
 * that answered gets its next cell before the answer is stored, so that it
 * solves while the parent writes to the database. */
static int check(pool *pl, worker *w, short revents, double kill_after, int *rc,
                 so_error *err)
{
    int eof = revents ? drain(w) : 0;
    size_t k = w->cell;
    double start = w->start;
    const char *text = answer(w);
    if (text) {
        char *copy = strdup(text);
        w->busy = 0;
        *rc = copy ? SO_OK : SO_ENOMEM;
        if (!*rc && pl->next < pl->n)
            *rc = dispatch(pl, w, pl->next++, err);
        if (!*rc)
            *rc = store(pl, k, start, copy, 0, 0, err);
        free(copy);
        return 1;
    }
    int late = !eof && kill_after > 0 && so_now() - start >= kill_after;
    if (!eof && !late)
        return 0;
    int status = reap(w, late);
    w->busy = 0;
    *rc = store(pl, k, start, NULL, late, status, err);
    return 1;
}

int so_harness_pool(const so_hconfig *c, const so_hinsts *s,
                    const so_hcell *cells, size_t n, so_hstore *st,
                    so_error *err)
{
    pool pl = {c, s, cells, n, 0, st, NULL, c->jobs > 0 ? c->jobs : 1};
    pl.ws = calloc((size_t)pl.jobs, sizeof *pl.ws);
    struct pollfd *pfd = calloc((size_t)pl.jobs, sizeof *pfd);
    if (!pl.ws || !pfd) {
        free(pl.ws);
        free(pfd);
        return SO_ENOMEM;
    }
    /* a write to a worker that died must fail with EPIPE, not end the run */
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old_pipe;
    sigaction(SIGPIPE, &ignore, &old_pipe);
    double kill_after = so_harness_kill_after(c->time_limit);
    so_hprogress pb;
    so_hprogress_start(&pb, stderr, n, c->progress);
    size_t done = 0;
    int rc = SO_OK;
    while (!rc && done < n) {
        for (int j = 0; j < pl.jobs && pl.next < n && !rc; j++)
            if (!pl.ws[j].busy)
                rc = dispatch(&pl, &pl.ws[j], pl.next++, err);
        if (rc)
            break;
        double now = so_now(), wait = -1;
        for (int j = 0; j < pl.jobs; j++) {
            worker *w = &pl.ws[j];
            pfd[j] = (struct pollfd){w->busy ? w->ans : -1, POLLIN, 0};
            if (w->busy && kill_after > 0) {
                double left = w->start + kill_after - now;
                if (wait < 0 || left < wait)
                    wait = left > 0 ? left : 0;
            }
        }
        if (c->progress && (wait < 0 || wait > 0.5))
            wait = 0.5; /* keep the elapsed time moving */
        int ms = wait < 0 ? -1 : wait >= 2e6 ? 2000000000 : (int)ceil(wait * 1000);
        if (poll(pfd, (nfds_t)pl.jobs, ms) < 0 && errno != EINTR) {
            so_error_setf(err, NULL, 0, 0, NULL, "poll: %s", strerror(errno));
            rc = SO_EIO;
            break;
        }
        so_hprogress_tick(&pb);
        for (int j = 0; j < pl.jobs && !rc; j++)
            if (pl.ws[j].busy && check(&pl, &pl.ws[j], pfd[j].revents, kill_after, &rc, err)) {
                done++;
                so_hprogress_step(&pb);
            }
    }
    for (int j = 0; j < pl.jobs; j++) {
        if (pl.ws[j].pid > 0)
            reap(&pl.ws[j], pl.ws[j].busy); /* idle workers end at end of input */
        free(pl.ws[j].buf);
    }
    so_hprogress_end(&pb);
    sigaction(SIGPIPE, &old_pipe, NULL);
    free(pl.ws);
    free(pfd);
    return rc;
}

/* ---- one cell at a time (the ranks of an MPI run) ------------------------- */
struct so_hrunner {
    pool pl;
    worker w;
};

so_hrunner *so_hrunner_new(const so_hconfig *c, const so_hinsts *s,
                           const so_hcell *cells)
{
    so_hrunner *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->pl = (pool){c, s, cells, 0, 0, NULL, &r->w, 1};
    /* a write to a worker that died must fail with EPIPE */
    signal(SIGPIPE, SIG_IGN);
    return r;
}

int so_hrunner_run(so_hrunner *r, size_t k, double beat, void (*tick)(void *),
                   void *arg, so_hend *end, so_error *err)
{
    worker *w = &r->w;
    memset(end, 0, sizeof *end);
    int rc = dispatch(&r->pl, w, k, err);
    if (rc)
        return rc;
    double kill_after = so_harness_kill_after(r->pl.c->time_limit);
    for (;;) {
        double wait = beat > 0 ? beat : -1;
        if (kill_after > 0) {
            double left = w->start + kill_after - so_now();
            if (wait < 0 || left < wait)
                wait = left > 0 ? left : 0;
        }
        struct pollfd p = {w->ans, POLLIN, 0};
        int ms = wait < 0 ? -1 : wait >= 2e6 ? 2000000000 : (int)ceil(wait * 1000);
        if (poll(&p, 1, ms) < 0 && errno != EINTR) {
            so_error_setf(err, NULL, 0, 0, NULL, "poll: %s", strerror(errno));
            return SO_EIO;
        }
        int eof = p.revents ? drain(w) : 0;
        const char *text = answer(w);
        if (text) {
            w->busy = 0;
            end->seconds = so_now() - w->start;
            end->text = strdup(text);
            return end->text ? SO_OK : SO_ENOMEM;
        }
        int late = !eof && kill_after > 0 && so_now() - w->start >= kill_after;
        if (eof || late) {
            end->wait_status = reap(w, late);
            end->killed = late;
            end->seconds = so_now() - w->start;
            w->busy = 0;
            return SO_OK;
        }
        if (tick)
            tick(arg);
    }
}

void so_hrunner_free(so_hrunner *r)
{
    if (!r)
        return;
    if (r->w.pid > 0)
        reap(&r->w, r->w.busy);
    free(r->w.buf);
    free(r);
}
