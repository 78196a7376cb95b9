/* harness_mpi.c — `slotopt bench --mpi`: the cells of one run spread over
 * the ranks of an MPI job (Open MPI from Debian; compiled when pkg-config
 * knows ompi-c, else tools/harness/harness_mpi_none.c).
 *
 * Every rank parses the same command line and lists the same cells (the
 * inputs are read at the same paths on every host, as the program itself:
 * a shared file system, as Slurm clusters have); each rank sends rank 0 the
 * number of cells and a checksum of the list (FNV-1a of each cell's
 * instance hash, backend and repetition), and a rank that lists other cells
 * stops the run with an error. Rank 0 alone opens the database, records the
 * references, decides which cells still need running (--resume), hands out
 * cell indexes, keeping DEPTH (2) with each rank (the one it runs and the
 * next, so that a rank never waits for rank 0 between cells: with one cell
 * at a time, the round trip made tiny cells 20x slower than the local
 * pool), and stores each answer as it arrives with
 * so_harness_store_cell, the row-storing step of local runs, so resume, the
 * unique key and the statuses work as with --jobs. The other ranks run each
 * cell in a forked worker process under the same outside time limit as the
 * pool (so_hrunner: a cell that crashes or hangs kills the worker, not the
 * rank) and send back the answer text, or how the worker ended.
 *
 * A rank that dies loses only its cell in flight: while a cell runs, its
 * rank sends a heartbeat every timeout / 8 seconds (at most 1 s); a busy
 * rank (or one that never said hello) rank 0 has not heard from for
 * `timeout` seconds (--mpi-timeout, default 60) is lost: the oldest cell it
 * holds (answers come in order, so that is the one it ran) is stored as
 * `killed` with a message naming the rank, the cell waiting in its queue
 * (never started) goes to another rank, and the run goes on with the
 * others; later messages from it are ignored. When no other rank is left
 * (or the job has one rank), rank 0 runs the remaining cells itself in
 * --jobs forked workers. A worker rank waiting for its next cell leaves
 * when rank 0 is silent for max(4 x timeout, 60 s) (rank 0 died).
 *
 * Open MPI aborts the whole job when a rank dies unless mpirun is given
 * --enable-recovery (or OMPI_MCA_orte_enable_recovery=1); with it, MPI
 * calls between the living ranks go on and MPI_Finalize completes (checked
 * with Open MPI 4.1.4, Debian 12). Under Slurm, srun needs --no-kill.
 * Messages are raw bytes: every host must have the same byte order and
 * type sizes (a homogeneous cluster).
 *
 * Test hooks: SLOTOPT_TEST_MPI_DIE=R:N makes rank R kill itself (SIGKILL)
 * when it starts a cell after finishing N cells (rank 0: once it has
 * stored N answers); SLOTOPT_TEST_MPI_HANG=1 makes rank 0 hang for ever
 * before MPI_Finalize (as Open MPI's MPI_Finalize sometimes does after a
 * rank died), for `bench --mpirun`'s watchdog. */
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tools/harness/harness.h"

enum { TAG_HELLO = 1, TAG_CELL, TAG_STOP, TAG_BEAT, TAG_RESULT };

/* A worker rank's answer: this header, then the answer text (if any). */
typedef struct result_head {
    uint64_t cell;
    int32_t killed, wait_status;
    double seconds;
} result_head;

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static uint64_t checksum(const so_hinsts *s, const so_hcell *cells, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t k = 0; k < n; k++) {
        const char *name = so_hcell_name(&cells[k]);
        int32_t rep = cells[k].rep;
        h = fnv(h, s->v[cells[k].inst].hash, 16);
        h = fnv(h, name, strlen(name) + 1);
        h = fnv(h, &rep, sizeof rep);
    }
    return h;
}

static void nap(double seconds)
{
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&ts, NULL);
}

static int mpi_failed(int code, const char *what, so_error *err)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(code, text, &len);
    so_error_setf(err, NULL, 0, 0, NULL, "MPI: %s: %.*s", what, len, text);
    return SO_EIO;
}

int so_harness_mpi_init(so_hmpi *m, so_error *err)
{
    int code = MPI_Init(NULL, NULL);
    if (code != MPI_SUCCESS)
        return mpi_failed(code, "MPI_Init", err);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->size);
    return SO_OK;
}

/* Set once rank 0 has told the other ranks to stop (so_harness_mpi_run). */
static int stops_sent;

/* SLOTOPT_TEST_MPI_DIE=R:N: 1 when `rank` is R (N in *after). */
static int test_die(int rank, int *after)
{
    int r = -1;
    const char *die = getenv("SLOTOPT_TEST_MPI_DIE");
    if (!die || sscanf(die, "%d:%d", &r, after) != 2)
        return 0;
    return r == rank;
}

void so_harness_mpi_finalize(void)
{
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* rank 0 failed before or while starting the run (database, inputs):
     * the others wait for orders; stop them so that the job ends now */
    for (int q = 1; rank == 0 && !stops_sent && q < size; q++)
        MPI_Send(NULL, 0, MPI_BYTE, q, TAG_STOP, MPI_COMM_WORLD);
    const char *hang = getenv("SLOTOPT_TEST_MPI_HANG");
    while (rank == 0 && hang && *hang == '1')
        pause();
    MPI_Finalize();
}

/* ---- rank 0 --------------------------------------------------------------- */
enum { R_HELLO, R_READY, R_STOPPED, R_LOST };

/* Cells a rank holds at once: the one it runs and the next, waiting in its
 * queue, so that it never waits for rank 0 between cells. */
#define DEPTH 2

typedef struct rank_state {
    int state;
    size_t held[DEPTH]; /* full-list indexes, oldest (the one running) first */
    int n_held;
    double started; /* when the oldest held cell started (about) */
    double heard;
} rank_state;

typedef struct coordinator {
    const so_hmpi *m;
    const so_hconfig *c;
    const so_hinsts *s;
    so_hstore *st;
    so_hcell *cells;
    size_t n, *todo, m_todo, next, done;
    size_t *back; /* cells given back by lost ranks, never started */
    size_t n_back;
    uint64_t sum;
    rank_state *r;
    char *buf;
    size_t cap;
    so_hprogress pb;
} coordinator;

static int cells_left(const coordinator *co)
{
    return co->n_back > 0 || co->next < co->m_todo;
}

static int send_cell(coordinator *co, int rank, so_error *err)
{
    rank_state *rs = &co->r[rank];
    uint64_t k = co->n_back ? co->back[co->n_back - 1] : co->todo[co->next];
    int code = MPI_Send(&k, 1, MPI_UINT64_T, rank, TAG_CELL, MPI_COMM_WORLD);
    if (code != MPI_SUCCESS)
        return mpi_failed(code, "sending a cell", err);
    if (co->n_back)
        co->n_back--;
    else
        co->next++;
    if (rs->n_held == 0)
        rs->started = rs->heard = so_now();
    rs->held[rs->n_held++] = (size_t)k;
    return SO_OK;
}

/* Fills the queues of the ready ranks, or tells an empty one to stop when
 * no cell is left. */
static int hand_out(coordinator *co, so_error *err)
{
    for (int q = 1; q < co->m->size; q++) {
        rank_state *rs = &co->r[q];
        if (rs->state != R_READY)
            continue;
        while (rs->n_held < DEPTH && cells_left(co)) {
            int rc = send_cell(co, q, err);
            if (rc)
                return rc;
        }
        if (rs->n_held == 0 && !cells_left(co)) {
            MPI_Send(NULL, 0, MPI_BYTE, q, TAG_STOP, MPI_COMM_WORLD);
            rs->state = R_STOPPED;
        }
    }
    return SO_OK;
}

/* Receives the message waiting from `src` and acts on it. */
static int receive(coordinator *co, const MPI_Status *probe, so_error *err)
{
    int src = probe->MPI_SOURCE, tag = probe->MPI_TAG, count = 0;
    MPI_Get_count(probe, MPI_BYTE, &count);
    if ((size_t)count + 1 > co->cap) {
        char *b = realloc(co->buf, (size_t)count + 1);
        if (!b)
            return SO_ENOMEM;
        co->buf = b;
        co->cap = (size_t)count + 1;
    }
    int code = MPI_Recv(co->buf, count, MPI_BYTE, src, tag, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE);
    if (code != MPI_SUCCESS)
        return mpi_failed(code, "receiving", err);
    co->buf[count] = '\0';
    rank_state *rs = &co->r[src];
    if (rs->state == R_LOST || rs->state == R_STOPPED)
        return SO_OK; /* too late: its cells are recorded or given back */
    rs->heard = so_now();
    if (tag == TAG_HELLO && rs->state == R_HELLO) {
        uint64_t hello[2] = {0, 0};
        if ((size_t)count >= sizeof hello)
            memcpy(hello, co->buf, sizeof hello);
        if (hello[0] != co->n || hello[1] != co->sum)
            return so_error_setf(err, NULL, 0, 0, NULL,
                                 "MPI rank %d lists %llu cells, rank 0 lists %zu"
                                 " (or other ones): every rank must read the same"
                                 " inputs (same files at the same paths, same options)",
                                 src, (unsigned long long)hello[0], co->n);
        rs->state = R_READY;
        return SO_OK;
    }
    if (tag != TAG_RESULT || rs->n_held == 0)
        return SO_OK; /* a heartbeat */
    result_head h;
    if ((size_t)count < sizeof h)
        return so_error_setf(err, NULL, 0, 0, NULL, "MPI rank %d: short answer", src);
    memcpy(&h, co->buf, sizeof h);
    size_t k = rs->held[0];
    if (h.cell != k)
        return so_error_setf(err, NULL, 0, 0, NULL, "MPI rank %d answered cell %llu,"
                             " it was given %zu", src, (unsigned long long)h.cell, k);
    memmove(rs->held, rs->held + 1, (size_t)(--rs->n_held) * sizeof *rs->held);
    rs->started = rs->heard;
    /* its queue refilled first, so that it runs while the row is written */
    int rc = hand_out(co, err);
    char *text = (size_t)count > sizeof h ? strdup(co->buf + sizeof h) : NULL;
    so_hend end = {text, h.killed, h.wait_status, NULL, h.seconds};
    if (!rc)
        rc = so_harness_store_cell(co->c, co->s, &co->cells[k], &end, co->st, err);
    free(text);
    co->done++;
    so_hprogress_step(&co->pb);
    int after = 0;
    if (test_die(0, &after) && co->done >= (size_t)after)
        raise(SIGKILL);
    return rc;
}

/* A rank that holds cells (or never said hello) and has not been heard
 * from for the timeout is lost: the cell it ran is stored as killed, the
 * ones waiting in its queue go back to the others. */
static int check_lost(coordinator *co, so_error *err)
{
    double now = so_now();
    for (int q = 1; q < co->m->size; q++) {
        rank_state *rs = &co->r[q];
        int holds = rs->state == R_READY && rs->n_held > 0;
        if ((!holds && rs->state != R_HELLO) || now - rs->heard < co->m->timeout)
            continue;
        fprintf(stderr, "slotopt bench: MPI rank %d lost (no word for %.3g s)%s\n", q,
                co->m->timeout, holds ? "; its cell in flight is recorded as killed" : "");
        rs->state = R_LOST;
        if (!holds)
            continue;
        for (int j = rs->n_held - 1; j >= 1; j--)
            co->back[co->n_back++] = rs->held[j];
        char msg[256];
        snprintf(msg, sizeof msg, "MPI rank %d lost: no word from it for %.3g s while it"
                 " ran this cell (the rank or its host died)", q, co->m->timeout);
        so_hend end = {NULL, 0, 0, msg, now - rs->started};
        co->done++;
        so_hprogress_step(&co->pb);
        int rc = so_harness_store_cell(co->c, co->s, &co->cells[rs->held[0]], &end, co->st, err);
        rs->n_held = 0;
        if (rc)
            return rc;
    }
    return SO_OK;
}

static int ranks_left(const coordinator *co)
{
    int left = 0;
    for (int q = 1; q < co->m->size; q++)
        left += co->r[q].state == R_HELLO || co->r[q].state == R_READY;
    return left;
}

int so_harness_mpi_run(const so_hmpi *m, const so_hconfig *c, const so_hinsts *s,
                       so_hstore *st, size_t *ran, so_error *err)
{
    *ran = 0;
    coordinator co;
    memset(&co, 0, sizeof co);
    co.m = m;
    co.c = c;
    co.s = s;
    co.st = st;
    int rc = so_harness_todo(c, s, st, &co.cells, &co.n, &co.todo, &co.m_todo, err);
    if (rc)
        return rc;
    co.sum = checksum(s, co.cells, co.n);
    co.r = calloc((size_t)m->size, sizeof *co.r);
    co.back = malloc((co.m_todo ? co.m_todo : 1) * sizeof *co.back);
    if (!co.r || !co.back)
        rc = SO_ENOMEM;
    double start = so_now(), pause = 0.0005;
    for (int q = 1; q < m->size && !rc; q++)
        co.r[q] = (rank_state){R_HELLO, {0}, 0, start, start};
    so_hprogress_start(&co.pb, stderr, co.m_todo, c->progress);
    while (!rc && co.done < co.m_todo && ranks_left(&co)) {
        rc = hand_out(&co, err);
        int flag = 0;
        MPI_Status probe;
        if (!rc) {
            int code = MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &probe);
            if (code != MPI_SUCCESS)
                rc = mpi_failed(code, "MPI_Iprobe", err);
        }
        if (!rc && flag) {
            rc = receive(&co, &probe, err);
            pause = 0.0005;
        } else if (!rc) {
            nap(pause);
            if (pause < 0.002)
                pause *= 2;
        }
        if (!rc)
            rc = check_lost(&co, err);
        so_hprogress_tick(&co.pb);
    }
    /* no rank left (or a job of one rank): rank 0 runs the rest itself */
    size_t rest = 0;
    if (!rc && co.done < co.m_todo) {
        so_hcell *left = malloc((co.n_back + co.m_todo - co.next + 1) * sizeof *left);
        if (!left)
            rc = SO_ENOMEM;
        for (size_t j = 0; !rc && j < co.n_back; j++)
            left[rest++] = co.cells[co.back[j]];
        for (size_t j = co.next; !rc && j < co.m_todo; j++)
            left[rest++] = co.cells[co.todo[j]];
        so_hprogress_end(&co.pb);
        if (!rc && m->size > 1)
            fprintf(stderr, "slotopt bench: no MPI rank left; rank 0 runs the"
                    " remaining %zu cells itself\n", rest);
        if (!rc)
            rc = so_harness_pool(c, s, left, rest, st, err);
        free(left);
    } else {
        so_hprogress_end(&co.pb);
    }
    for (int q = 1; co.r && q < m->size; q++)
        if (co.r[q].state == R_HELLO || co.r[q].state == R_READY) {
            MPI_Send(NULL, 0, MPI_BYTE, q, TAG_STOP, MPI_COMM_WORLD);
        } else if (co.r[q].state == R_LOST) {
            /* a rank only slow (a loaded host) is alive and waits for
             * orders: stop it too, without waiting on a dead one */
            MPI_Request req;
            if (MPI_Isend(NULL, 0, MPI_BYTE, q, TAG_STOP, MPI_COMM_WORLD, &req) ==
                MPI_SUCCESS)
                MPI_Request_free(&req);
        }
    stops_sent = co.r != NULL;
    if (!rc)
        *ran = co.m_todo;
    free(co.cells);
    free(co.todo);
    free(co.back);
    free(co.r);
    free(co.buf);
    return rc;
}

/* ---- the other ranks ------------------------------------------------------ */
static void heartbeat(void *arg)
{
    MPI_Send(arg, 1, MPI_UINT64_T, 0, TAG_BEAT, MPI_COMM_WORLD);
}

/* Rank 0's next word: 1 a cell (in *k), 0 stop, 2 nothing yet (when
 * patience is 0), < 0 silence for `patience` seconds or an error. */
static int next_order(double patience, uint64_t *k, so_error *err)
{
    double since = so_now(), pause = 0.0005;
    for (;;) {
        int flag = 0;
        MPI_Status probe;
        int code = MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &probe);
        if (code != MPI_SUCCESS)
            return mpi_failed(code, "MPI_Iprobe", err);
        if (flag && probe.MPI_TAG == TAG_CELL) {
            code = MPI_Recv(k, 1, MPI_UINT64_T, 0, TAG_CELL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            return code == MPI_SUCCESS ? 1 : mpi_failed(code, "receiving a cell", err);
        }
        if (flag) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, probe.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            return 0;
        }
        if (patience <= 0)
            return 2;
        if (so_now() - since > patience)
            return so_error_setf(err, NULL, 0, 0, NULL, "no word from rank 0 for %.3g s;"
                                 " leaving", patience);
        nap(pause);
        if (pause < 0.002)
            pause *= 2;
    }
}

int so_harness_mpi_serve(const so_hmpi *m, const so_hconfig *c,
                         const so_hinsts *s, so_error *err)
{
    so_hcell *cells = NULL;
    size_t n = 0;
    int rc = so_harness_cells(c, s, &cells, &n, err);
    uint64_t hello[2] = {rc ? UINT64_MAX : (uint64_t)n, rc ? 0 : checksum(s, cells, n)};
    int code = MPI_Send(hello, 2, MPI_UINT64_T, 0, TAG_HELLO, MPI_COMM_WORLD);
    if (rc) {
        free(cells);
        return rc;
    }
    if (code != MPI_SUCCESS) {
        free(cells);
        return mpi_failed(code, "saying hello to rank 0", err);
    }
    int die_after = 0, die = test_die(m->rank, &die_after);
    so_hrunner *runner = so_hrunner_new(c, s, cells);
    if (!runner) {
        free(cells);
        return SO_ENOMEM;
    }
    double beat = m->timeout / 8 < 1 ? m->timeout / 8 : 1;
    double patience = 4 * m->timeout > 60 ? 4 * m->timeout : 60;
    int finished = 0, stop = 0;
    char *msg = NULL;
    uint64_t queue[2 * DEPTH];
    int queued = 0;
    for (;;) {
        /* take the cells waiting (rank 0 keeps DEPTH here), without waiting;
         * wait only when none is left */
        int got = 1;
        while (!stop && got == 1 && queued < 2 * DEPTH) {
            uint64_t k;
            got = next_order(queued ? 0 : patience, &k, err);
            if (got == 1)
                queue[queued++] = k;
            stop = got == 0;
        }
        if (got < 0) {
            rc = got;
            break;
        }
        if (!queued)
            break; /* stop */
        uint64_t k = queue[0];
        memmove(queue, queue + 1, (size_t)(--queued) * sizeof *queue);
        if (k >= n) {
            rc = so_error_setf(err, NULL, 0, 0, NULL, "rank 0 sent cell %llu of %zu",
                               (unsigned long long)k, n);
            break;
        }
        if (die && finished >= die_after)
            raise(SIGKILL);
        so_hend end;
        rc = so_hrunner_run(runner, (size_t)k, beat, heartbeat, &k, &end, err);
        if (rc)
            break;
        size_t len = end.text ? strlen(end.text) : 0;
        result_head h = {k, end.killed, end.wait_status, end.seconds};
        free(msg);
        msg = malloc(sizeof h + len);
        if (!msg) {
            free((char *)end.text);
            rc = SO_ENOMEM;
            break;
        }
        memcpy(msg, &h, sizeof h);
        if (len)
            memcpy(msg + sizeof h, end.text, len);
        free((char *)end.text);
        code = MPI_Send(msg, (int)(sizeof h + len), MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
        if (code != MPI_SUCCESS) {
            rc = mpi_failed(code, "sending an answer", err);
            break;
        }
        finished++;
    }
    free(msg);
    so_hrunner_free(runner);
    free(cells);
    return rc;
}
