/* harness_worker.c — the worker side of the harness: solve one cell and
 * answer in JSON; the loop of a worker process. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools/harness/harness.h"

static json_t *real_or_null(int has, double x)
{
    return has && isfinite(x) ? json_real(x) : json_null();
}

/* The extras of r: the keys of its JSON beyond the fixed ones. */
static json_t *extras_of(const so_result *r)
{
    static const char *const fixed[] = {"problem", "instance", "backend", "exact",
                                        "status", "objective", "bound", "gap",
                                        "seconds", "solution", "message", NULL};
    json_t *all = so_result_to_json(r), *extras = json_object();
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
    return extras;
}

char *so_harness_solve_cell(const so_hconfig *c, const so_hinst *in,
                            const so_hcell *cell)
{
    if (cell->policy)
        return so_harness_sim_cell(c, in, cell);
    so_params prm;
    so_params_init(&prm);
    const so_params *opts = so_hconfig_options(c, cell->backend);
    if (opts)
        prm = *opts;
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
        json_object_set_new(o, "extras", extras_of(r));
    } else {
        json_object_set_new(o, "message", json_string(err.message));
    }
    char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(o);
    so_result_free(r);
    return text;
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *s = p;
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n)
{
    char *s = p;
    while (n > 0) {
        ssize_t got = read(fd, s, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        s += got;
        n -= (size_t)got;
    }
    return 0;
}

void so_harness_serve(const so_hconfig *c, const so_hinsts *s,
                      const so_hcell *cells, int in, int out)
{
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        close(null);
    }
    size_t k;
    while (read_all(in, &k, sizeof k) == 0) {
        char *text = so_harness_solve_cell(c, &s->v[cells[k].inst], &cells[k]);
        if (!text)
            _exit(1);
        uint32_t len = (uint32_t)strlen(text);
        int bad = write_all(out, &len, sizeof len) || write_all(out, text, len);
        free(text);
        if (bad)
            _exit(1);
    }
    _exit(0);
}
