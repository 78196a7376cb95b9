/* ras.c — the RAS placement algorithm: Polo et al., "Resource-aware
 * Adaptive Scheduling for MapReduce Clusters" (Middleware 2011), section
 * 3.4, Algorithm 1, driven by the utility of section 3.3 (eqs. 1-3,
 * formulations/ras_utility.c) under the capacities of eq. 6.
 *
 * 1. Reducers first (lines 1-8): job by job, TaskTrackers sorted by the
 *    number of reducers they hold, then by the job's reducers on them; one
 *    reducer per TaskTracker where there is room. The paper's line 4 places
 *    at most one per TaskTracker and job; its text wants every reducer
 *    placed ("if this is not feasible ... avoiding collocating reduce tasks
 *    from the same job"), so the pass is repeated, re-sorted, while
 *    reducers are left and the previous pass placed one.
 * 2. Mappers (lines 9-25), for `rounds` rounds, TaskTracker by TaskTracker:
 *    take maps away from the highest-utility job on the TaskTracker while
 *    its utility stays at least that of the lowest-utility other job with
 *    room there (lines 13-19: the removal that breaks this is undone; the
 *    text: "a task gets de-allocated only if the utility of its
 *    corresponding job remains higher than the lowest utility of any other
 *    job", the pseudo-code's test is "<", so equality continues), then fill
 *    the TaskTracker greedily, each slot to the lowest-utility job with room
 *    (lines 20-23). Ties go to the lower job index.
 *    The paper starts from the previous cycle's placement; an instance here
 *    describes one cycle's pending tasks, so the algorithm starts from the
 *    empty placement: round 1 is then the greedy fill, later rounds
 *    rebalance. "The loop stops after a maximum number of rounds has
 *    reached, or until the system utility no longer improves": a round that
 *    does not improve (minimum utility, then utilisation) ends the loop and
 *    the best placement seen is returned.
 * 3. Profile switch (lines 26-28): a shuffle-phase job whose pending maps
 *    are all placed finishes its map phase in this cycle; its reducers switch
 *    to the reduce profile, a transition the paper leaves to the Task
 *    Scheduler. The placement is checked with the shuffle profile; the
 *    result lists the switching jobs ("profile_switch") and the TaskTrackers
 *    the reduce profile would overload ("overloaded_after_switch").
 * "room for new job slot": the job has tasks of that kind left and the
 * TaskTracker's load plus the task's demand fits every capacity; a map of a
 * job with shuffling reducers and fewer than parallel_copies maps placed
 * also raises those reducers' demand, which must fit where they run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "heuristics/ras.h"

const so_option_doc so_ras_heuristic_options[] = {
    {"rounds", "10", "maximum rounds of map-slot moves (Algorithm 1, line 9)"},
    {NULL, NULL, NULL},
};

typedef struct {
    const so_ras *ras;
    size_t J, TT, R;
    int *pm, *pr;           /* J * TT */
    int *s_alloc, *r_alloc; /* J */
    double *u;              /* J, current utility (may be -infinity) */
    double *load;           /* TT * R */
    int *red_total;         /* TT: reducers placed on it */
    size_t *red_start, *red_tt; /* CSR: TaskTrackers holding job j's reducers */
    unsigned char *grows;   /* J: shuffle demand grows with maps */
} state;

static void state_free(state *s)
{
    free(s->pm);
    free(s->pr);
    free(s->s_alloc);
    free(s->r_alloc);
    free(s->u);
    free(s->load);
    free(s->red_total);
    free(s->red_start);
    free(s->red_tt);
    free(s->grows);
}

static int state_init(state *s, const so_ras *ras)
{
    memset(s, 0, sizeof *s);
    s->ras = ras;
    s->J = ras->J;
    s->TT = ras->TT;
    s->R = ras->R;
    size_t cells = s->J * s->TT;
    s->pm = calloc(cells, sizeof *s->pm);
    s->pr = calloc(cells, sizeof *s->pr);
    s->s_alloc = calloc(s->J, sizeof *s->s_alloc);
    s->r_alloc = calloc(s->J, sizeof *s->r_alloc);
    s->u = calloc(s->J, sizeof *s->u);
    s->load = calloc(s->TT * s->R + 1, sizeof *s->load);
    s->red_total = calloc(s->TT, sizeof *s->red_total);
    s->red_start = calloc(s->J + 1, sizeof *s->red_start);
    s->grows = calloc(s->J, 1);
    if (!s->pm || !s->pr || !s->s_alloc || !s->r_alloc || !s->u || !s->load ||
        !s->red_total || !s->red_start || !s->grows) {
        state_free(s);
        return SO_ENOMEM;
    }
    for (size_t j = 0; j < s->J; j++) {
        const so_ras_job *job = &ras->jobs[j];
        s->u[j] = so_ras_utility(job, 0, 0);
        for (size_t r = 0; r < s->R; r++)
            if (!job->reduce_phase && job->shuffle[r] > 0)
                s->grows[j] = 1;
    }
    return SO_OK;
}

static const double *cap_of(const state *s, size_t tt)
{
    return &s->ras->capacity[tt * s->R];
}

/* ---- reducers (lines 1-8) ---------------------------------------------- */

static int room_reduce(const state *s, size_t j, size_t tt)
{
    const so_ras_job *job = &s->ras->jobs[j];
    if (s->r_alloc[j] >= job->r_pend)
        return 0;
    for (size_t r = 0; r < s->R; r++)
        if (!so_ras_fits(s->load[tt * s->R + r] +
                             so_ras_reducer_demand(job, s->s_alloc[j], r),
                         cap_of(s, tt)[r]))
            return 0;
    return 1;
}

/* TaskTrackers by (reducers held, job j's reducers held, index): a stable
 * counting sort on the two small keys. */
static int order_for_reducers(const state *s, size_t j, size_t *order,
                              size_t *tmp)
{
    int max_total = 0, max_own = 0;
    for (size_t tt = 0; tt < s->TT; tt++) {
        if (s->red_total[tt] > max_total)
            max_total = s->red_total[tt];
        if (s->pr[j * s->TT + tt] > max_own)
            max_own = s->pr[j * s->TT + tt];
    }
    size_t nb = (size_t)(max_total > max_own ? max_total : max_own) + 2;
    size_t *count = calloc(nb, sizeof *count);
    if (!count)
        return SO_ENOMEM;
    for (int pass = 0; pass < 2; pass++) { /* minor key, then major key */
        const size_t *src = pass ? tmp : NULL;
        size_t *dst = pass ? order : tmp;
        memset(count, 0, nb * sizeof *count);
        for (size_t k = 0; k < s->TT; k++) {
            size_t tt = src ? src[k] : k;
            count[(pass ? s->red_total[tt] : s->pr[j * s->TT + tt]) + 1]++;
        }
        for (size_t b = 1; b < nb; b++)
            count[b] += count[b - 1];
        for (size_t k = 0; k < s->TT; k++) {
            size_t tt = src ? src[k] : k;
            dst[count[pass ? s->red_total[tt] : s->pr[j * s->TT + tt]]++] = tt;
        }
    }
    free(count);
    return SO_OK;
}

static int place_reducers(state *s)
{
    size_t *order = malloc((s->TT + 1) * sizeof *order);
    size_t *tmp = malloc((s->TT + 1) * sizeof *tmp);
    int rc = order && tmp ? SO_OK : SO_ENOMEM;
    for (size_t j = 0; j < s->J && !rc; j++) {
        const so_ras_job *job = &s->ras->jobs[j];
        int placed = 1;
        while (!rc && placed && s->r_alloc[j] < job->r_pend) {
            placed = 0;
            rc = order_for_reducers(s, j, order, tmp);
            for (size_t k = 0; k < s->TT && !rc; k++) {
                size_t tt = order[k];
                if (!room_reduce(s, j, tt))
                    continue;
                for (size_t r = 0; r < s->R; r++)
                    s->load[tt * s->R + r] +=
                        so_ras_reducer_demand(job, s->s_alloc[j], r);
                s->pr[j * s->TT + tt]++;
                s->r_alloc[j]++;
                s->red_total[tt]++;
                placed = 1;
            }
        }
        s->u[j] = so_ras_utility(job, s->s_alloc[j], s->r_alloc[j]);
    }
    free(order);
    free(tmp);
    if (rc)
        return rc;
    /* where each job's reducers run (they stay put from here on) */
    size_t n = 0;
    for (size_t j = 0; j < s->J; j++)
        for (size_t tt = 0; tt < s->TT; tt++)
            n += s->pr[j * s->TT + tt] > 0;
    s->red_tt = malloc((n + 1) * sizeof *s->red_tt);
    if (!s->red_tt)
        return SO_ENOMEM;
    n = 0;
    for (size_t j = 0; j < s->J; j++) {
        s->red_start[j] = n;
        for (size_t tt = 0; tt < s->TT; tt++)
            if (s->pr[j * s->TT + tt] > 0)
                s->red_tt[n++] = tt;
    }
    s->red_start[s->J] = n;
    return SO_OK;
}

/* ---- mappers (lines 9-25) ----------------------------------------------- */

/* Whether one more map of job j raises its shuffling reducers' demand. */
static int raises_shuffle(const state *s, size_t j)
{
    return s->grows[j] && s->s_alloc[j] < s->ras->jobs[j].parallel_copies;
}

static int room_map(const state *s, size_t j, size_t tt)
{
    const so_ras_job *job = &s->ras->jobs[j];
    if (s->s_alloc[j] >= job->s_pend)
        return 0;
    const double *cap = cap_of(s, tt);
    for (size_t r = 0; r < s->R; r++)
        if (!so_ras_fits(s->load[tt * s->R + r] + job->map[r], cap[r]))
            return 0;
    if (!raises_shuffle(s, j))
        return 1;
    for (size_t k = s->red_start[j]; k < s->red_start[j + 1]; k++) {
        size_t t2 = s->red_tt[k];
        int reducers = s->pr[j * s->TT + t2];
        for (size_t r = 0; r < s->R; r++) {
            double extra = job->shuffle[r] * reducers +
                           (t2 == tt ? job->map[r] : 0.0);
            if (!so_ras_fits(s->load[t2 * s->R + r] + extra, cap_of(s, t2)[r]))
                return 0;
        }
    }
    return 1;
}

/* Adds (sign 1) or removes (sign -1) one map of job j on tt. */
static void move_map(state *s, size_t j, size_t tt, int sign)
{
    const so_ras_job *job = &s->ras->jobs[j];
    if (sign < 0)
        s->s_alloc[j]--;
    int shuffle = raises_shuffle(s, j);
    if (sign > 0)
        s->s_alloc[j]++;
    for (size_t r = 0; r < s->R; r++)
        s->load[tt * s->R + r] += sign * job->map[r];
    for (size_t k = s->red_start[j]; shuffle && k < s->red_start[j + 1]; k++) {
        size_t t2 = s->red_tt[k];
        for (size_t r = 0; r < s->R; r++)
            s->load[t2 * s->R + r] +=
                sign * job->shuffle[r] * s->pr[j * s->TT + t2];
    }
    s->pm[j * s->TT + tt] += sign;
    s->u[j] = so_ras_utility(job, s->s_alloc[j], s->r_alloc[j]);
}

/* The lowest-utility job other than `except` with room for a map on tt,
 * or J. */
static size_t job_in(const state *s, size_t tt, size_t except)
{
    size_t best = s->J;
    for (size_t j = 0; j < s->J; j++)
        if (j != except && (best == s->J || s->u[j] < s->u[best]) &&
            room_map(s, j, tt))
            best = j;
    return best;
}

/* The highest-utility job with a map on tt, or J. */
static size_t job_out(const state *s, size_t tt)
{
    size_t best = s->J;
    for (size_t j = 0; j < s->J; j++)
        if (s->pm[j * s->TT + tt] > 0 && (best == s->J || s->u[j] > s->u[best]))
            best = j;
    return best;
}

static void rebalance(state *s, size_t tt)
{
    /* lines 13-19: remove while the donor stays at least the neediest
     * other job */
    for (;;) {
        size_t out = job_out(s, tt);
        if (out == s->J)
            break;
        move_map(s, out, tt, -1);
        size_t in = job_in(s, tt, out);
        if (in == s->J || s->u[out] < s->u[in]) {
            move_map(s, out, tt, +1); /* P <- Pold */
            break;
        }
    }
    /* lines 20-23: fill the TaskTracker, neediest job first */
    for (size_t in = job_in(s, tt, s->J); in < s->J; in = job_in(s, tt, s->J))
        move_map(s, in, tt, +1);
}

static so_ras_eval state_eval(const state *s)
{
    so_ras_eval ev = {1, 1.0, 0.0, s->J};
    for (size_t j = 0; j < s->J; j++) {
        double u = so_ras_finite(s->u[j]);
        if (ev.worst_job == s->J || u < ev.min_utility) {
            ev.min_utility = u;
            ev.worst_job = j;
        }
    }
    double sum = 0;
    size_t n = 0;
    for (size_t k = 0; k < s->TT * s->R; k++)
        if (s->ras->capacity[k] > 0) {
            sum += s->load[k] / s->ras->capacity[k];
            n++;
        }
    ev.utilisation = n ? sum / (double)n : 0.0;
    return ev;
}

/* ---- profile switch (lines 26-28) --------------------------------------- */

static int report_switch(const so_ras *ras, const int *pm, const int *pr,
                         so_result *r)
{
    size_t TT = ras->TT, R = ras->R;
    double *load = malloc((TT * R + 1) * sizeof *load);
    unsigned char *over = calloc(TT + 1, 1);
    if (!load || !over || so_ras_loads(ras, pm, pr, load)) {
        free(load);
        free(over);
        return SO_ENOMEM;
    }
    json_t *names = json_array();
    for (size_t j = 0; j < ras->J; j++) {
        const so_ras_job *job = &ras->jobs[j];
        int s_alloc = 0, r_alloc = 0;
        for (size_t tt = 0; tt < TT; tt++) {
            s_alloc += pm[j * TT + tt];
            r_alloc += pr[j * TT + tt];
        }
        if (job->reduce_phase || r_alloc == 0 || s_alloc < job->s_pend)
            continue;
        json_array_append_new(names, json_string(job->name));
        for (size_t tt = 0; tt < TT; tt++)
            for (size_t rr = 0; rr < R && pr[j * TT + tt]; rr++)
                load[tt * R + rr] += pr[j * TT + tt] *
                    (job->reduce[rr] - so_ras_reducer_demand(job, s_alloc, rr));
    }
    json_int_t overloaded = 0;
    for (size_t k = 0; k < TT * R; k++)
        if (!so_ras_fits(load[k], ras->capacity[k]) && !over[k / R]) {
            over[k / R] = 1;
            overloaded++;
        }
    so_result_set_extra(r, "profile_switch", names);
    so_result_set_extra(r, "overloaded_after_switch", json_integer(overloaded));
    free(load);
    free(over);
    return SO_OK;
}

int so_ras_place(const so_ras *ras, long long rounds, int *pm, int *pr,
                 long long *rounds_run)
{
    state s;
    int rc = state_init(&s, ras);
    if (rc)
        return rc;
    rc = place_reducers(&s);
    so_ras_eval best = {0};
    long long round = 1;
    for (; round <= rounds && !rc; round++) {
        for (size_t tt = 0; tt < s.TT; tt++)
            rebalance(&s, tt);
        so_ras_eval ev = state_eval(&s);
        if (round > 1 && !so_ras_better(&ev, &best))
            break;
        best = ev;
        memcpy(pm, s.pm, s.J * s.TT * sizeof *pm);
    }
    if (!rc) {
        memcpy(pr, s.pr, s.J * s.TT * sizeof *pr);
        /* the rounds run, the last one included when it stopped the loop */
        *rounds_run = round > rounds ? rounds : round;
    }
    state_free(&s);
    return rc;
}

int so_ras_heuristic_solve(const so_problem *p, const so_params *prm,
                           so_result *r)
{
    const so_ras *ras = so_ras_of(p);
    so_error err;
    long long rounds, run = 0;
    if (so_params_int(prm, so_ras_heuristic_options, "rounds", 10, &rounds,
                      &err) || rounds < 1 || rounds > 1000000) {
        so_result_set_message(r, "option rounds: expected an integer in"
                                 " [1, 1000000]");
        return SO_EINVAL;
    }
    size_t cells = ras->J * ras->TT + 1;
    int *pm = calloc(cells, sizeof *pm), *pr = calloc(cells, sizeof *pr);
    int rc = pm && pr ? so_ras_place(ras, rounds, pm, pr, &run) : SO_ENOMEM;
    if (!rc)
        rc = so_ras_report(ras, r, SO_FEASIBLE, pm, pr, 0, 0);
    if (!rc)
        so_result_set_extra(r, "rounds_run", json_integer(run));
    if (!rc)
        rc = report_switch(ras, pm, pr, r);
    free(pm);
    free(pr);
    return rc;
}
