/*
 * sched_priority.c — a fixed job priority order (`--scheduler priority`),
 * the schedules offline-opt searches over (cluster/offline_opt.c,
 * docs/offline.md) and replays: every free slot goes to the first job in
 * the order that has a task to run (a strict priority list, non-idling),
 * as FIFO does with submit order. With delay_reduces=1 a job's reduces wait
 * until all its maps are done (a schedule slow-start allows; it keeps reduce
 * slots free of reduces waiting for their maps).
 *
 * Option `order`: job indices (0-based, workload order: sorted by submit
 * time) separated by commas, highest priority first; jobs not named follow
 * in submit order. Empty: submit order (FIFO).
 */
#include <stdlib.h>
#include <string.h>
#include "cluster/sim_internal.h"

static const so_option_doc priority_options[] = {
    {"order", "", "job indices (0-based, submit order) highest priority first, comma-separated"},
    {"delay_reduces", "0", "1: a job's reduces wait until all its maps are done"},
    {NULL, NULL, NULL},
};

typedef struct {
    int n;
    int *order; /* job indices, highest priority first */
    int delay;
} prio_state;

static void prio_destroy(void *state)
{
    prio_state *st = state;
    if (st) {
        free(st->order);
        free(st);
    }
}

static int prio_create(so_cl_sim *sim, const so_params *prm, void **state, so_error *err)
{
    *state = NULL;
    const char *text = so_params_str(prm, priority_options, "order", "");
    long long delay = 0;
    int rc = so_params_int(prm, priority_options, "delay_reduces", 0, &delay, err);
    if (rc)
        return rc;
    if (delay != 0 && delay != 1)
        return so_error_setf(err, NULL, 0, 0, "delay_reduces", "expected 0 or 1");
    int n = sim->w->n_jobs;
    prio_state *st = calloc(1, sizeof *st);
    char *seen = calloc(n > 0 ? (size_t)n : 1, 1);
    if (st)
        st->order = malloc((n > 0 ? (size_t)n : 1) * sizeof *st->order);
    if (!st || !seen || !st->order) {
        free(seen);
        prio_destroy(st);
        return SO_ENOMEM;
    }
    st->delay = (int)delay;
    for (const char *p = text; *p;) {
        char *end;
        long j = strtol(p, &end, 10);
        if (end == p || j < 0 || j >= n || seen[j] || (*end && *end != ',')) {
            free(seen);
            prio_destroy(st);
            return so_error_setf(err, NULL, 0, 0, "order",
                                 "expected distinct job indices 0..%d separated by commas,"
                                 " found '%s'", n - 1, text);
        }
        seen[j] = 1;
        st->order[st->n++] = (int)j;
        p = *end ? end + 1 : end;
    }
    for (int j = 0; j < n; j++)
        if (!seen[j])
            st->order[st->n++] = j;
    free(seen);
    *state = st;
    return SO_OK;
}

static int prio_assign(void *state, so_cl_sim *sim, int node, int phase)
{
    prio_state *st = state;
    for (int k = 0; k < st->n; k++) {
        int j = st->order[k];
        const so_cl_jobrt *job = &sim->jobs[j];
        if (job->finished || !job->arrived)
            continue;
        if (phase == SO_CL_REDUCE && st->delay && job->done[SO_CL_MAP] < job->n[SO_CL_MAP])
            continue;
        if (so_cl_launch(sim, j, node, phase))
            return 1;
    }
    return 0;
}

const so_cl_scheduler so_cl_sched_priority = {
    "priority", "a fixed job priority order (offline-opt's schedules; option order)",
    priority_options, prio_create, NULL, prio_assign, prio_destroy, NULL,
};
