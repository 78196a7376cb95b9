/*
 * sched_wpbs.c — WPBS, the workload-pattern-based scheduler of Shreerashmi
 * B.S. et al., "Workload pattern based scheduler for competent task
 * assignments in Hadoop", IJCSMC 4(5), 2015, section II, as a scheduler of
 * the cluster model (docs/wpbs.md):
 *   - information collection (sec. II.A, eqs. 1-6, Algorithm 1 step 3): when
 *     a job completes, its observed mean map and reduce task times (engine
 *     statistics, observe.h) update the user's mean task times (eqs. 1-2),
 *     its size s = n_map t_map + n_reduce t_reduce (eq. 3) the user's mean
 *     size and squared deviations by Welford's one pass (eqs. 4-5), hence
 *     the CV (eq. 6);
 *   - tier 1 (sec. II.B, Algorithm 2, eqs. 7-10), per slot type: each active
 *     user's estimated mean phase size of its current jobs (eq. 7), the
 *     shares SU_i = F (alpha U (1/size_i) / sum_k (1/size_k) + 1 - alpha)
 *     (eq. 8), capped at demand with the surplus redistributed (Algorithm 1
 *     step 4);
 *   - tier 2 (sec. II.C, Algorithm 3): FIFO among a user's jobs when both
 *     the historical CV and the current jobs' CV are below 1, fair sharing
 *     otherwise; when the two disagree, fair sharing and the user's history
 *     restarts;
 *   - a free slot goes to the job with the largest deficit (target - running
 *     attempts), through the fair scheduler's assignment layer (the deficit
 *     index, deficit_index.h).
 * Choices where the paper is silent (each documented in docs/wpbs.md):
 *   - "active users" (U) of a slot type are the users with a job that wants
 *     slots of it (arrived, phase open, not finished); "current jobs" of a
 *     user (eq. 7's J_i, Algorithm 3) are its arrived unfinished jobs in
 *     either phase;
 *   - eq. 7 uses the job's total task count of the phase (as the paper's
 *     n_ij) and its observed mean task time when it has completed tasks of
 *     the phase, else the user's historical mean task time (eqs. 1-2), else
 *     (a user with no history yet) the mean of every task of the phase
 *     completed in the cluster so far, else 1 s (then sizes are task
 *     counts);
 *   - the current jobs' CV (Algorithm 3's CV*) uses the same per-job task
 *     time estimate as eq. 7 for both phases (eq. 3 with estimated times);
 *     the decision is taken only for a user with more than one current job
 *     (Algorithm 3's |J_i| > 1); a user keeps its last scheme otherwise
 *     (initially FIFO: the paper's statistics start at zero, CV 0);
 *   - the history restart clears the job-size statistics (eqs. 4-6) only;
 *     the user's mean task times (eqs. 1-2) are kept for eq. 7's estimates;
 *   - history window (`window`, W of the paper's Table I, no value given):
 *     the statistics of eqs. 1-6 cover about the last W completed jobs (exact
 *     Welford up to W, then weight 1/W per new job; so_wpbs_add); default
 *     20 jobs, 0 unlimited;
 *   - update interval (`update`, no value in the paper; its Algorithm 1
 *     updates at arrivals and task completions): eq. 7's estimates and the
 *     tier-2 schemes are refreshed at allocation epochs at least `update`
 *     seconds apart (0, the default: every epoch, 0.5 s); a user that
 *     becomes active gets its estimate at once; eqs. 8-10 and the demand caps
 *     run at every epoch;
 *   - the surplus of a capped user goes to the users in need in proportion
 *     to their SU (a waterline with weights SU_i);
 *   - a user's share is split among its jobs as the fair scheduler splits a
 *     pool's: FIFO gives it to the jobs in submit order up to their demands,
 *     fair sharing by the waterline over the jobs' weights; pool maxima are
 *     honoured by the assignment layer.
 * Cost (issue 16): the fair split keeps each user's waterline sorted between
 * epochs (waterline_inc.h: the same shares, bit for bit, without a sort of
 * the user's jobs per epoch); an epoch with no arrival, attempt end or job
 * finish since the last allocation repeats it and is skipped (quiet_epoch;
 * 46 % of the epochs of the FB-2009 sample on 20 nodes, 80 % of an
 * overloaded swim-synth day); the sizes of eq. 7 are computed once per
 * refresh. Other epochs still visit every listed job (O(J)): eq. 7's means
 * and the current jobs' CV are floating-point sums in list order, which an
 * incremental update would not reproduce bit for bit.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/deficit_index.h"
#include "cluster/waterline_inc.h"
#include "cluster/wpbs.h"

static const so_option_doc wpbs_options[] = {
    {"alpha", "1", "bias towards users with small jobs, 0 (Fair) .. 1 (paper)"},
    {"window", "20", "history window: completed jobs per user the statistics"
                     " cover (0 = all)"},
    {"update", "0", "seconds between refreshes of the size estimates and the"
                    " FIFO/fair choice (0 = every allocation epoch)"},
    {NULL, NULL, NULL},
};

/* ---- pure building blocks (wpbs.h) -------------------------------------- */

void so_wpbs_add(so_cl_obs *o, double x, int window)
{
    if (window <= 0 || o->n < window) {
        so_cl_obs_add(o, x);
        return;
    }
    double a = 1.0 / window, d = x - o->mean;
    o->mean += a * d;
    /* population variance m2 / n with n = window: var' = (1 - a)(var + a d^2) */
    o->m2 = window * (1 - a) * (o->m2 / window + a * d * d);
}

double so_wpbs_cv(const so_cl_obs *o)
{
    if (o->n < 1 || !(o->mean > 0))
        return 0.0;
    return sqrt(fmax(o->m2, 0.0) / o->n) / o->mean;
}

void so_wpbs_shares(int n, const double *size, double alpha, double slots,
                    double *su)
{
    double inv_sum = 0;
    for (int i = 0; i < n; i++)
        inv_sum += 1.0 / size[i];
    double fair = slots / n;
    for (int i = 0; i < n; i++)
        su[i] = fair * (alpha * n * (1.0 / size[i]) / inv_sum + 1 - alpha);
}

void so_wpbs_cap(int n, const double *su, const double *demand, double slots,
                 double *share)
{
    double *zero = calloc((size_t)n + 1, sizeof *zero);
    if (!zero) { /* without redistribution: still within demand and slots */
        for (int i = 0; i < n; i++)
            share[i] = fmin(su[i], demand[i]);
        return;
    }
    so_cl_waterline(n, su, zero, demand, slots, share);
    free(zero);
}

int so_wpbs_tier2(double cv_history, double cv_current, int *reset)
{
    int hist_low = cv_history < 1, cur_low = cv_current < 1;
    *reset = hist_low != cur_low;
    return hist_low && cur_low;
}

/* ---- scheduler state ----------------------------------------------------- */

typedef struct wpbs_user {
    so_cl_obs size;                /* eqs. 4-6: completed jobs' sizes */
    so_cl_obs task[SO_CL_PHASES];  /* eqs. 1-2: their mean task times */
    so_cl_obs current;             /* scratch: current jobs' sizes */
    int fifo, resets;
    double est[SO_CL_PHASES];      /* eq. 7; < 0: to compute */
    double su[SO_CL_PHASES], share[SO_CL_PHASES];
    int head, tail;                /* scratch: its jobs in a phase list */
    double demand;                 /* scratch */
    so_cl_wl jobs_wl[SO_CL_PHASES]; /* fair split: its jobs' waterline, kept
                                     * sorted between epochs */
} wpbs_user;

typedef struct wpbs_state {
    double alpha, update, last_refresh;
    int window, n_users;
    wpbs_user *users;
    so_cl_obs all[SO_CL_PHASES];   /* every completed task (no-history rule) */
    int *active;                   /* n_users */
    double *size, *demand, *su, *share; /* n_users */
    int *next_of_user;             /* per job: next job of its user */
    int *seen;                     /* per job: stamp of the last refresh */
    double *job_size[SO_CL_PHASES]; /* per job: its eq. 7 phase sizes at
                                     * the refresh of stamp seen[j] */
    int stamp;
    double *job_w, *job_min, *job_d, *job_s;
    int *members;
    so_cl_dx *dx;                  /* the assignment layer's deficit order */
    so_cl_wl_space wl_space[SO_CL_PHASES]; /* job ids, one per phase */
    /* skipping quiet epochs (wpbs_allocate) */
    long long events, events_then; /* arrivals, attempt ends, finishes */
    int list_len_then[SO_CL_PHASES];
    int allocated;      /* an allocation ran */
    int refreshed_then; /* the last allocation refreshed... */
    int reset_then;     /* ...and restarted some user's history */
} wpbs_state;

extern const so_cl_scheduler so_cl_sched_wpbs;

static void wpbs_destroy(void *p)
{
    wpbs_state *st = p;
    if (!st)
        return;
    for (int u = 0; st->users && u < st->n_users; u++)
        for (int k = 0; k < SO_CL_PHASES; k++)
            so_cl_wl_free(&st->users[u].jobs_wl[k]);
    for (int k = 0; k < SO_CL_PHASES; k++)
        so_cl_wl_space_free(&st->wl_space[k]);
    free(st->users);
    free(st->active);
    free(st->size);
    free(st->demand);
    free(st->su);
    free(st->share);
    free(st->next_of_user);
    free(st->seen);
    free(st->job_size[SO_CL_MAP]);
    free(st->job_size[SO_CL_REDUCE]);
    free(st->job_w);
    free(st->job_min);
    free(st->job_d);
    free(st->job_s);
    free(st->members);
    so_cl_dx_free(st->dx);
    free(st);
}

static int wpbs_create(so_cl_sim *sim, const so_params *prm, void **state,
                       so_error *err)
{
    *state = NULL;
    double alpha = 1, update = 0;
    long long window = 20;
    int rc = so_params_double(prm, wpbs_options, "alpha", 1, &alpha, err);
    if (!rc)
        rc = so_params_int(prm, wpbs_options, "window", 20, &window, err);
    if (!rc)
        rc = so_params_double(prm, wpbs_options, "update", 0, &update, err);
    if (rc)
        return rc;
    if (!(alpha >= 0 && alpha <= 1))
        return so_error_setf(err, NULL, 0, 0, "alpha",
                             "expected a number in [0, 1], found %g", alpha);
    if (window < 0 || window > 1000000)
        return so_error_setf(err, NULL, 0, 0, "window",
                             "expected jobs in [0, 1000000], found %lld", window);
    if (!(update >= 0 && update <= 1e9))
        return so_error_setf(err, NULL, 0, 0, "update",
                             "expected seconds in [0, 1e9], found %g", update);
    wpbs_state *st = calloc(1, sizeof *st);
    if (!st)
        return SO_ENOMEM;
    st->alpha = alpha;
    st->update = update;
    st->window = (int)window;
    st->last_refresh = -INFINITY;
    st->n_users = so_cl_user_count(sim);
    size_t nu = (size_t)st->n_users + 1, nj = (size_t)sim->w->n_jobs + 1;
    st->users = calloc(nu, sizeof *st->users);
    st->active = calloc(nu, sizeof(int));
    st->size = calloc(nu, sizeof(double));
    st->demand = calloc(nu, sizeof(double));
    st->su = calloc(nu, sizeof(double));
    st->share = calloc(nu, sizeof(double));
    st->next_of_user = calloc(nj, sizeof(int));
    st->seen = calloc(nj, sizeof(int));
    st->job_size[SO_CL_MAP] = calloc(nj, sizeof(double));
    st->job_size[SO_CL_REDUCE] = calloc(nj, sizeof(double));
    st->job_w = calloc(nj, sizeof(double));
    st->job_min = calloc(nj, sizeof(double));
    st->job_d = calloc(nj, sizeof(double));
    st->job_s = calloc(nj, sizeof(double));
    st->members = calloc(nj, sizeof(int));
    st->dx = so_cl_dx_new(sim);
    if (!st->users || !st->active || !st->job_size[SO_CL_MAP] ||
        !st->job_size[SO_CL_REDUCE] || !st->size || !st->demand || !st->su ||
        !st->share || !st->next_of_user || !st->seen || !st->job_w ||
        !st->job_min || !st->job_d || !st->job_s || !st->members ||
        !st->dx || so_cl_wl_space_init(&st->wl_space[SO_CL_MAP], (int)nj) ||
        so_cl_wl_space_init(&st->wl_space[SO_CL_REDUCE], (int)nj)) {
        wpbs_destroy(st);
        return SO_ENOMEM;
    }
    for (int u = 0; u < st->n_users; u++) {
        st->users[u].fifo = 1; /* statistics start at zero: CV 0 < 1 */
        st->users[u].est[SO_CL_MAP] = st->users[u].est[SO_CL_REDUCE] = -1;
    }
    *state = st;
    return SO_OK;
}

/* ---- estimates (eq. 7, Algorithm 3's CV*) -------------------------------- */

/* A job's mean task time of a phase: observed, else its user's history,
 * else the cluster's completed tasks, else 1 s. */
static double task_time(const wpbs_state *st, const so_cl_sim *sim, int j,
                        int phase)
{
    const so_cl_obs *o = so_cl_job_obs(sim, j, phase);
    if (o->n > 0)
        return o->mean;
    const so_cl_obs *h = &st->users[so_cl_job_user(sim, j)].task[phase];
    if (h->n > 0)
        return h->mean;
    return st->all[phase].n > 0 ? st->all[phase].mean : 1.0;
}

static double job_phase_size(const wpbs_state *st, const so_cl_sim *sim,
                             int j, int phase)
{
    return sim->jobs[j].n[phase] * task_time(st, sim, j, phase);
}

/* Groups the jobs of a phase list by user (each user's list in job order). */
static void group_by_user(wpbs_state *st, const so_cl_sim *sim, int phase)
{
    for (int u = 0; u < st->n_users; u++)
        st->users[u].head = st->users[u].tail = -1;
    for (int j = sim->head[phase]; j >= 0; j = sim->jobs[j].next[phase]) {
        wpbs_user *us = &st->users[so_cl_job_user(sim, j)];
        st->next_of_user[j] = -1;
        if (us->tail < 0)
            us->head = j;
        else
            st->next_of_user[us->tail] = j;
        us->tail = j;
    }
}

/* Eq. 7: mean estimated phase size of the user's jobs in the phase list;
 * fresh: every listed job's size was computed by this epoch's refresh
 * (refresh_tier2: the same state, the same values). */
static double user_phase_size(const wpbs_state *st, const so_cl_sim *sim,
                              const wpbs_user *us, int phase, int fresh)
{
    double sum = 0;
    int n = 0;
    for (int j = us->head; j >= 0; j = st->next_of_user[j]) {
        sum += fresh ? st->job_size[phase][j] : job_phase_size(st, sim, j, phase);
        n++;
    }
    return fmax(sum / n, 1e-9);
}

/* Algorithm 3 for every user, over its current jobs (both phase lists). */
static void refresh_tier2(wpbs_state *st, const so_cl_sim *sim)
{
    st->stamp++;
    for (int u = 0; u < st->n_users; u++)
        memset(&st->users[u].current, 0, sizeof(so_cl_obs));
    for (int phase = 0; phase < SO_CL_PHASES; phase++)
        for (int j = sim->head[phase]; j >= 0; j = sim->jobs[j].next[phase]) {
            if (st->seen[j] == st->stamp)
                continue;
            st->seen[j] = st->stamp;
            double m = job_phase_size(st, sim, j, SO_CL_MAP);
            double r = job_phase_size(st, sim, j, SO_CL_REDUCE);
            st->job_size[SO_CL_MAP][j] = m;
            st->job_size[SO_CL_REDUCE][j] = r;
            so_cl_obs_add(&st->users[so_cl_job_user(sim, j)].current, m + r);
        }
    for (int u = 0; u < st->n_users; u++) {
        wpbs_user *us = &st->users[u];
        if (us->current.n < 2)
            continue;
        int reset;
        us->fifo = so_wpbs_tier2(so_wpbs_cv(&us->size),
                                 so_wpbs_cv(&us->current), &reset);
        if (reset && us->size.n > 0) { /* an empty history: nothing to restart */
            memset(&us->size, 0, sizeof us->size);
            us->resets++;
            st->reset_then = 1;
        }
    }
}

/* ---- allocation ---------------------------------------------------------- */

/* A job's target for the assignment layer (the deficit index repairs only
 * the jobs whose target changed). */
static void set_target(wpbs_state *st, int phase, int j, double target)
{
    if (so_cl_dx_target(st->dx, phase, j) != target)
        so_cl_dx_set_target(st->dx, phase, j, target);
}

/* Splits user us's share among its jobs of the phase (tier 2's scheme). */
static void share_among_jobs(wpbs_state *st, so_cl_sim *sim, wpbs_user *us,
                             int phase, double share)
{
    if (us->fifo) {
        for (int j = us->head; j >= 0; j = st->next_of_user[j]) {
            double t = fmin(so_cl_demand(&sim->jobs[j], phase), share);
            set_target(st, phase, j, t);
            share -= t;
        }
        return;
    }
    int n = 0;
    for (int j = us->head; j >= 0; j = st->next_of_user[j]) {
        st->members[n] = j;
        st->job_w[n] = sim->jobs[j].spec->weight;
        st->job_min[n] = 0;
        st->job_d[n] = so_cl_demand(&sim->jobs[j], phase);
        n++;
    }
    /* the phase list is in job order: ids ascend, as so_cl_wl_solve needs;
     * the same shares, bit for bit, as so_cl_waterline without its sort */
    (void)so_cl_wl_solve(&us->jobs_wl[phase], &st->wl_space[phase], n,
                         st->members, st->job_w, st->job_min, st->job_d, share,
                         st->job_s); /* out of memory: the minima, as there */
    for (int k = 0; k < n; k++)
        set_target(st, phase, st->members[k], st->job_s[k]);
}

static void allocate_phase(wpbs_state *st, so_cl_sim *sim, int phase,
                           int refresh)
{
    group_by_user(st, sim, phase);
    int n = 0;
    for (int u = 0; u < st->n_users; u++) {
        wpbs_user *us = &st->users[u];
        us->su[phase] = us->share[phase] = 0;
        if (us->head < 0) {
            us->est[phase] = -1; /* estimated afresh when active again */
            continue;
        }
        if (refresh || us->est[phase] < 0)
            us->est[phase] = user_phase_size(st, sim, us, phase, refresh);
        double d = 0;
        for (int j = us->head; j >= 0; j = st->next_of_user[j])
            d += so_cl_demand(&sim->jobs[j], phase);
        st->active[n] = u;
        st->size[n] = us->est[phase];
        st->demand[n] = d;
        n++;
    }
    if (n == 0)
        return;
    so_wpbs_shares(n, st->size, st->alpha, sim->total_slots[phase], st->su);
    so_wpbs_cap(n, st->su, st->demand, sim->total_slots[phase], st->share);
    for (int k = 0; k < n; k++) {
        wpbs_user *us = &st->users[st->active[k]];
        us->su[phase] = st->su[k];
        us->share[phase] = st->share[k];
        share_among_jobs(st, sim, us, phase, st->share[k]);
    }
}

/* Whether this epoch's allocation would repeat the last one exactly. Its
 * inputs (the phase lists, demands = pending + running tasks, observed
 * task times, users' histories) change only at arrivals, attempt ends and
 * job finishes (a launch moves a task from pending to running: demand and
 * lists unchanged); the list lengths are compared as well, in case lists
 * change elsewhere. A refresh repeats the last one only when that one was
 * a refresh too (with `update` > 0 an estimate may date from before) and
 * restarted no history (a restart changes its own input, eq. 6's CV). */
static int quiet_epoch(const wpbs_state *st, const so_cl_sim *sim, int refresh)
{
    if (!st->allocated || st->events != st->events_then)
        return 0;
    for (int p = 0; p < SO_CL_PHASES; p++)
        if (sim->list_len[p] != st->list_len_then[p])
            return 0;
    return !refresh || (st->refreshed_then && !st->reset_then);
}

static void wpbs_allocate(void *state, so_cl_sim *sim)
{
    wpbs_state *st = state;
    int refresh = sim->now - st->last_refresh >= st->update;
    if (quiet_epoch(st, sim, refresh)) {
        if (refresh)
            st->last_refresh = sim->now; /* as the skipped refresh would */
        return; /* targets, shares and schemes stand: the same values */
    }
    st->reset_then = 0;
    if (refresh) {
        st->last_refresh = sim->now;
        refresh_tier2(st, sim);
    }
    for (int phase = 0; phase < SO_CL_PHASES; phase++)
        allocate_phase(st, sim, phase, refresh);
    st->allocated = 1;
    st->refreshed_then = refresh;
    st->events_then = st->events;
    for (int p = 0; p < SO_CL_PHASES; p++)
        st->list_len_then[p] = sim->list_len[p];
}

static int wpbs_assign(void *state, so_cl_sim *sim, int node, int phase)
{
    wpbs_state *st = state;
    int rc = so_cl_dx_assign(st->dx, sim, node, phase, so_cl_try_launch, NULL);
    if (rc < 0)
        sim->failed = 1;
    return rc > 0;
}

/* ---- information collection (hooks) -------------------------------------- */

static void wpbs_attempt_end(void *state, so_cl_sim *sim, int attempt,
                             int node, double duration)
{
    (void)node;
    wpbs_state *st = state;
    const so_cl_attempt *a = &sim->attempts[attempt];
    st->events++;
    so_cl_dx_touch(st->dx, a->job);
    if (a->state == SO_CL_DONE)
        so_cl_obs_add(&st->all[a->phase], duration);
}

static void wpbs_job_arrive(void *state, so_cl_sim *sim, int job)
{
    (void)sim;
    ((wpbs_state *)state)->events++;
    so_cl_dx_touch(((wpbs_state *)state)->dx, job);
}

/* A launch changes no allocation input (see quiet_epoch), only the job's
 * running attempts: the deficit index repairs it. */
static void wpbs_attempt_launch(void *state, so_cl_sim *sim, int attempt)
{
    so_cl_dx_touch(((wpbs_state *)state)->dx, sim->attempts[attempt].job);
}

/* Algorithm 1 step 3: eqs. 1-6 for the user of a completed job. */
static void wpbs_job_finish(void *state, so_cl_sim *sim, int job)
{
    wpbs_state *st = state;
    wpbs_user *us = &st->users[so_cl_job_user(sim, job)];
    double size = 0;
    st->events++;
    so_cl_dx_touch(st->dx, job);
    for (int phase = 0; phase < SO_CL_PHASES; phase++) {
        const so_cl_obs *o = so_cl_job_obs(sim, job, phase);
        if (sim->jobs[job].n[phase] == 0 || o->n == 0)
            continue;
        so_wpbs_add(&us->task[phase], o->mean, st->window);
        size += sim->jobs[job].n[phase] * o->mean;
    }
    so_wpbs_add(&us->size, size, st->window);
}

static const so_cl_hooks wpbs_hooks = {
    .job_arrive = wpbs_job_arrive,
    .attempt_launch = wpbs_attempt_launch,
    .attempt_end = wpbs_attempt_end,
    .job_finish = wpbs_job_finish,
};

const so_cl_scheduler so_cl_sched_wpbs = {
    "wpbs",
    "WPBS: per-user slot shares inversely proportional to the users' job"
    " sizes (alpha), FIFO or fair inside a user by the job-size CV",
    wpbs_options, wpbs_create, wpbs_allocate, wpbs_assign, wpbs_destroy,
    &wpbs_hooks,
};

/* ---- read-out (wpbs.h) --------------------------------------------------- */

static const wpbs_state *state_of(const so_cl_sim *sim)
{
    if (!sim || sim->cfg.scheduler != &so_cl_sched_wpbs || !sim->sched_state)
        return NULL;
    return sim->sched_state;
}

int so_cl_wpbs_user_shares(const so_cl_sim *sim, int phase, double *su,
                           double *capped)
{
    const wpbs_state *st = state_of(sim);
    if (!st || phase < 0 || phase >= SO_CL_PHASES)
        return -1;
    for (int u = 0; u < st->n_users; u++) {
        if (su)
            su[u] = st->users[u].su[phase];
        if (capped)
            capped[u] = st->users[u].share[phase];
    }
    return st->n_users;
}

int so_cl_wpbs_user_fifo(const so_cl_sim *sim, int user)
{
    const wpbs_state *st = state_of(sim);
    return st && user >= 0 && user < st->n_users ? st->users[user].fifo : -1;
}

const so_cl_obs *so_cl_wpbs_user_history(const so_cl_sim *sim, int user)
{
    const wpbs_state *st = state_of(sim);
    return st && user >= 0 && user < st->n_users ? &st->users[user].size
                                                 : NULL;
}

int so_cl_wpbs_user_resets(const so_cl_sim *sim, int user)
{
    const wpbs_state *st = state_of(sim);
    return st && user >= 0 && user < st->n_users ? st->users[user].resets : -1;
}
