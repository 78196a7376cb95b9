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
 *   - the per-user sums below are added in another order than a pass over
 *     the jobs would (issue 16), so an estimate can differ from that pass
 *     in its last bits, and the current jobs' CV is computed from sums of
 *     squares (var = E[x^2] - mean^2) rather than Welford's pass: a
 *     rounding apart, which can move a schedule only where two deficits
 *     tied or a CV sat at 1 within rounding (the report hashes of
 *     cluster-scale were re-recorded with this change; `--opt verify=1`
 *     checks the sums and every job's target against the pass at every
 *     allocation); the fair split's level comes from a level tree, the
 *     same bits as so_cl_waterline for integer and short binary-fraction
 *     weights, within ~1e-12 for others (level_tree.h).
 * Cost (issue 16): an allocation touches only what changed. A job's terms
 * of eq. 7 are its observed size (n x mean, once a task of the phase
 * completed) or its task count times its user's fallback task time, so a
 * user's eq. 7 is (sum a + f sum b) / n, and its current jobs' CV comes
 * from ten sums (n, a, b, c and their squares and products: x = a + f_map
 * b + f_reduce c); the jobs whose state changed since the last allocation
 * (the deficit index's touched jobs) update these sums in per-user sum
 * trees (sum_tree.h: O(log J) per change, history-independent rounding),
 * and their demands in per-user level trees (level_tree.h) from which a
 * fair user's water level is one descent; the jobs at the level follow it
 * in the deficit index without being visited (one level id per user), and
 * only the jobs whose demand lies between the old and the new level change
 * side. The FIFO users' split walks the phase list from its head until
 * every FIFO user's share ran out and the last job that had a target is
 * behind (O(J) when a FIFO user's share is its whole demand). Eqs. 8-10:
 * O(U log U).
 * An epoch with no arrival, attempt end or job finish since the last
 * allocation repeats it and is skipped (quiet_epoch).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/deficit_index.h"
#include "cluster/level_tree.h"
#include "cluster/sum_tree.h"
#include "cluster/wpbs.h"

static const so_option_doc wpbs_options[] = {
    {"alpha", "1", "bias towards users with small jobs, 0 (Fair) .. 1 (paper)"},
    {"window", "20", "history window: completed jobs per user the statistics"
                     " cover (0 = all)"},
    {"update", "0", "seconds between refreshes of the size estimates and the"
                    " FIFO/fair choice (0 = every allocation epoch)"},
    {"verify", "0", "1: check the per-user sums and every job's target against"
                    " a pass over the jobs at every allocation (slow; for"
                    " tests: the counts are read by so_cl_wpbs_verified)"},
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

/* Values per job in the sum trees. Eq. 7 over a phase list: (1, a, b) with
 * a the job's observed phase size (n x mean task time, once a task of the
 * phase completed) and b its task count otherwise (times the user's
 * fallback task time). Algorithm 3 over the current jobs: x = a + f_map b +
 * f_reduce c, kept as its ten moment terms. */
enum { LISTED_K = 3, CURRENT_K = 10 };

typedef struct wpbs_user {
    so_cl_obs size;                /* eqs. 4-6: completed jobs' sizes */
    so_cl_obs task[SO_CL_PHASES];  /* eqs. 1-2: their mean task times */
    int fifo, resets;
    int switched;                  /* its scheme changed at this refresh */
    double est[SO_CL_PHASES];      /* eq. 7; < 0: to compute */
    double su[SO_CL_PHASES], share[SO_CL_PHASES];
    double level[SO_CL_PHASES];    /* fair split: its jobs' water level */
} wpbs_user;

typedef struct wpbs_state {
    double alpha, update, last_refresh;
    int window, n_users, verify;
    wpbs_user *users;
    so_cl_obs all[SO_CL_PHASES];   /* every completed task (no-history rule) */
    int *active;                   /* n_users */
    double *size, *demand, *su, *share; /* n_users */
    so_cl_sum_forest listed[SO_CL_PHASES]; /* per user: its jobs in the list */
    so_cl_sum_forest current;      /* per user: its current jobs */
    so_cl_level_forest demands[SO_CL_PHASES]; /* per user: its listed jobs'
                                               * demands and weights */
    so_cl_dx *dx;                  /* the assignment layer's deficit order */
    int *reclassify, n_reclassify; /* scratch: jobs near a moved level */
    /* the FIFO users' split (share_fifo_users), per phase x user */
    int *fifo_last, *fifo_new_last;
    double *fifo_left;
    char *fifo_done;
    /* skipping quiet epochs (wpbs_allocate) */
    long long events, events_then; /* arrivals, attempt ends, finishes */
    int list_len_then[SO_CL_PHASES];
    int allocated;      /* an allocation ran */
    int refreshed_then; /* the last allocation refreshed... */
    int reset_then;     /* ...and restarted some user's history */
    long long checks, mismatches; /* verify=1 */
} wpbs_state;

extern const so_cl_scheduler so_cl_sched_wpbs;

static void wpbs_destroy(void *p)
{
    wpbs_state *st = p;
    if (!st)
        return;
    for (int k = 0; k < SO_CL_PHASES; k++) {
        so_cl_sum_forest_free(&st->listed[k]);
        so_cl_level_forest_free(&st->demands[k]);
    }
    so_cl_sum_forest_free(&st->current);
    free(st->users);
    free(st->active);
    free(st->size);
    free(st->demand);
    free(st->su);
    free(st->share);
    free(st->reclassify);
    free(st->fifo_last);
    free(st->fifo_new_last);
    free(st->fifo_left);
    free(st->fifo_done);
    so_cl_dx_free(st->dx);
    free(st);
}

static int wpbs_create(so_cl_sim *sim, const so_params *prm, void **state,
                       so_error *err)
{
    *state = NULL;
    double alpha = 1, update = 0;
    long long window = 20, verify = 0;
    int rc = so_params_double(prm, wpbs_options, "alpha", 1, &alpha, err);
    if (!rc)
        rc = so_params_int(prm, wpbs_options, "window", 20, &window, err);
    if (!rc)
        rc = so_params_double(prm, wpbs_options, "update", 0, &update, err);
    if (!rc)
        rc = so_params_int(prm, wpbs_options, "verify", 0, &verify, err);
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
    if (verify != 0 && verify != 1)
        return so_error_setf(err, NULL, 0, 0, "verify",
                             "expected 0 or 1, found %lld", verify);
    wpbs_state *st = calloc(1, sizeof *st);
    if (!st)
        return SO_ENOMEM;
    st->alpha = alpha;
    st->update = update;
    st->window = (int)window;
    st->verify = (int)verify;
    st->last_refresh = -INFINITY;
    st->n_users = so_cl_user_count(sim);
    int nu = st->n_users, nj = sim->w->n_jobs;
    size_t nu1 = (size_t)nu + 1, nuph = (size_t)nu * SO_CL_PHASES + 1;
    st->users = calloc(nu1, sizeof *st->users);
    st->active = calloc(nu1, sizeof(int));
    st->size = calloc(nu1, sizeof(double));
    st->demand = calloc(nu1, sizeof(double));
    st->su = calloc(nu1, sizeof(double));
    st->share = calloc(nu1, sizeof(double));
    st->reclassify = calloc((size_t)nj + 1, sizeof(int));
    st->fifo_last = calloc(nuph, sizeof(int));
    st->fifo_new_last = calloc(nu1, sizeof(int));
    st->fifo_left = calloc(nu1, sizeof(double));
    st->fifo_done = calloc(nu1, 1);
    st->dx = so_cl_dx_new_levels(sim, nu);
    int ok = st->users && st->active && st->size && st->demand && st->su &&
             st->share && st->reclassify && st->fifo_last &&
             st->fifo_new_last && st->fifo_left && st->fifo_done && st->dx &&
             !so_cl_sum_forest_init(&st->current, nu, nj, CURRENT_K);
    for (int k = 0; ok && k < SO_CL_PHASES; k++)
        ok = !so_cl_sum_forest_init(&st->listed[k], nu, nj, LISTED_K) &&
             !so_cl_level_forest_init(&st->demands[k], nu, nj);
    if (!ok) {
        wpbs_destroy(st);
        return SO_ENOMEM;
    }
    for (int u = 0; u < nu; u++) {
        st->users[u].fifo = 1; /* statistics start at zero: CV 0 < 1 */
        st->users[u].est[SO_CL_MAP] = st->users[u].est[SO_CL_REDUCE] = -1;
    }
    for (size_t k = 0; k + 1 < nuph; k++)
        st->fifo_last[k] = -1;
    *state = st;
    return SO_OK;
}

/* ---- estimates (eq. 7, Algorithm 3's CV*) -------------------------------- */

/* A user's task time of a phase for its jobs with no completed task of it:
 * its history (eqs. 1-2), else the cluster's completed tasks, else 1 s. */
static double fallback_time(const wpbs_state *st, int user, int phase)
{
    const so_cl_obs *h = &st->users[user].task[phase];
    if (h->n > 0)
        return h->mean;
    return st->all[phase].n > 0 ? st->all[phase].mean : 1.0;
}

/* Job j's terms of a phase: observed size a, or task count b (see LISTED_K). */
static void phase_terms(const so_cl_sim *sim, int j, int phase, double *a,
                        double *b)
{
    const so_cl_obs *o = so_cl_job_obs(sim, j, phase);
    double n = sim->jobs[j].n[phase];
    *a = o->n > 0 ? n * o->mean : 0;
    *b = o->n > 0 ? 0 : n;
}

/* Job j's state into its user's trees (out of them when it left a list). */
static void track_job(wpbs_state *st, const so_cl_sim *sim, int j)
{
    const so_cl_jobrt *job = &sim->jobs[j];
    int u = so_cl_job_user(sim, j);
    double a[SO_CL_PHASES], b[SO_CL_PHASES];
    for (int ph = 0; ph < SO_CL_PHASES; ph++) {
        phase_terms(sim, j, ph, &a[ph], &b[ph]);
        so_cl_level_forest *f = &st->demands[ph];
        if (!job->in_list[ph]) {
            so_cl_sum_remove(&st->listed[ph], j);
            so_cl_level_remove(f, j); /* not entered, or left for good */
            continue;
        }
        so_cl_sum_set(&st->listed[ph], u, j, (double[]){1, a[ph], b[ph]});
        double d = so_cl_demand(job, ph);
        if (f->t.tree[j] != u || f->d[j] != d)
            so_cl_level_set(f, u, j, d, job->spec->weight);
    }
    if (!job->in_list[SO_CL_MAP] && !job->in_list[SO_CL_REDUCE]) {
        so_cl_sum_remove(&st->current, j);
        return;
    }
    double x = a[SO_CL_MAP] + a[SO_CL_REDUCE], y = b[SO_CL_MAP],
           z = b[SO_CL_REDUCE];
    so_cl_sum_set(&st->current, u, j,
                  (double[]){1, x, y, z, x * x, y * y, z * z, x * y, x * z,
                             y * z});
}

/* Eq. 7 from the user's sums: mean estimated phase size of its listed
 * jobs; 0 when it has none. */
static double user_phase_size(const wpbs_state *st, int user, int phase)
{
    double s[LISTED_K];
    so_cl_sum_total(&st->listed[phase], user, s);
    if (s[0] == 0)
        return 0;
    return fmax((s[1] + s[2] * fallback_time(st, user, phase)) / s[0], 1e-9);
}

/* Algorithm 3's current jobs of the user as statistics (n, mean, m2) from
 * its sums: mean = S1 / n, m2 = S2 - n mean^2 (at least 0). */
static so_cl_obs current_jobs(const wpbs_state *st, int user)
{
    double s[CURRENT_K];
    so_cl_sum_total(&st->current, user, s);
    double fm = fallback_time(st, user, SO_CL_MAP);
    double fr = fallback_time(st, user, SO_CL_REDUCE);
    so_cl_obs o = {.n = (int)s[0]};
    if (o.n < 1)
        return o;
    double s1 = s[1] + fm * s[2] + fr * s[3];
    double s2 = s[4] + fm * fm * s[5] + fr * fr * s[6] +
                2 * (fm * s[7] + fr * s[8] + fm * fr * s[9]);
    o.mean = s1 / s[0];
    o.m2 = fmax(s2 - s[0] * o.mean * o.mean, 0.0);
    return o;
}

/* Algorithm 3 for every user with more than one current job. */
static void refresh_tier2(wpbs_state *st)
{
    for (int u = 0; u < st->n_users; u++) {
        wpbs_user *us = &st->users[u];
        so_cl_obs cur = current_jobs(st, u);
        if (cur.n < 2)
            continue;
        int reset, fifo = so_wpbs_tier2(so_wpbs_cv(&us->size),
                                        so_wpbs_cv(&cur), &reset);
        us->switched = fifo != us->fifo;
        us->fifo = fifo;
        if (reset && us->size.n > 0) { /* an empty history: nothing to restart */
            memset(&us->size, 0, sizeof us->size);
            us->resets++;
            st->reset_then = 1;
        }
    }
}

/* ---- verify=1: the sums against a pass over the jobs --------------------- */

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-12;
}

/* The definitions, job by job in list order (the computation before issue
 * 16), against the sums; counts the users checked and those apart. */
static void verify_sums(wpbs_state *st, const so_cl_sim *sim)
{
    int nu = st->n_users;
    double *sum = calloc((size_t)nu * 2 + 1, sizeof *sum);
    so_cl_obs *cur = calloc((size_t)nu + 1, sizeof *cur);
    if (!sum || !cur) {
        free(sum);
        free(cur);
        return;
    }
    for (int ph = 0; ph < SO_CL_PHASES; ph++) {
        memset(sum, 0, (size_t)nu * 2 * sizeof *sum);
        for (int j = sim->head[ph]; j >= 0; j = sim->jobs[j].next[ph]) {
            int u = so_cl_job_user(sim, j);
            double a, b;
            phase_terms(sim, j, ph, &a, &b);
            sum[2 * u] += a + b * fallback_time(st, u, ph);
            sum[2 * u + 1] += 1;
        }
        for (int u = 0; u < nu; u++) {
            double est = sum[2 * u + 1] > 0
                             ? fmax(sum[2 * u] / sum[2 * u + 1], 1e-9) : 0;
            st->checks++;
            st->mismatches += !near(est, user_phase_size(st, u, ph));
        }
    }
    for (int ph = 0; ph < SO_CL_PHASES; ph++)
        for (int j = sim->head[ph]; j >= 0; j = sim->jobs[j].next[ph]) {
            if (ph == SO_CL_REDUCE && sim->jobs[j].in_list[SO_CL_MAP])
                continue; /* counted with the map list */
            int u = so_cl_job_user(sim, j);
            double x = 0;
            for (int k = 0; k < SO_CL_PHASES; k++) {
                double a, b;
                phase_terms(sim, j, k, &a, &b);
                x += a + b * fallback_time(st, u, k);
            }
            so_cl_obs_add(&cur[u], x);
        }
    for (int u = 0; u < nu; u++) {
        so_cl_obs got = current_jobs(st, u);
        st->checks++;
        st->mismatches += got.n != cur[u].n ||
                          (cur[u].n > 0 && !near(got.mean, cur[u].mean)) ||
                          (cur[u].n > 1 && fabs(so_wpbs_cv(&got) -
                                                so_wpbs_cv(&cur[u])) > 1e-6);
    }
    free(sum);
    free(cur);
}

/* ---- allocation ---------------------------------------------------------- */

/* A job's target for the assignment layer (the deficit index repairs only
 * the jobs whose target changed). */
static void set_target(wpbs_state *st, int phase, int j, double target)
{
    if (so_cl_dx_target(st->dx, phase, j) != target)
        so_cl_dx_set_target(st->dx, phase, j, target);
}

/* A fair user's job on the side of the level its demand puts it: target
 * level x weight below its demand, else its demand (so_cl_waterline's
 * "s < d ? s : d"). Returns -1 when out of memory. */
static int classify(wpbs_state *st, int phase, int j)
{
    const so_cl_level_forest *f = &st->demands[phase];
    int u = f->t.tree[j];
    if (u < 0)
        return 0;
    if (st->users[u].level[phase] * f->w[j] < f->d[j])
        return so_cl_dx_set_level_member(st->dx, phase, j, u, f->w[j]);
    set_target(st, phase, j, f->d[j]);
    return 0;
}

static void add_reclassify(void *ctx, int j)
{
    wpbs_state *st = ctx;
    st->reclassify[st->n_reclassify++] = j;
}

/* A fair user's split of its share: its new level, and the jobs whose side
 * of it may have changed (demand between the old and the new level, with a
 * margin for rounding; every job when the user just turned fair). */
static int share_fair_user(wpbs_state *st, int phase, int u)
{
    wpbs_user *us = &st->users[u];
    double old = us->level[phase];
    double level = so_cl_level_solve(&st->demands[phase], u, us->share[phase]);
    us->level[phase] = level;
    so_cl_dx_set_level(st->dx, phase, u, level);
    if (level == old && !us->switched)
        return 0;
    double lo = fmin(old, level) * (1 - 1e-9), hi = fmax(old, level) * (1 + 1e-9);
    if (us->switched)
        lo = -INFINITY, hi = INFINITY;
    st->n_reclassify = 0;
    so_cl_level_range(&st->demands[phase], u, lo, hi, add_reclassify, st);
    for (int k = 0; k < st->n_reclassify; k++)
        if (classify(st, phase, st->reclassify[k]))
            return -1;
    return 0;
}

/* The FIFO users: their jobs in job order get their demand until the
 * user's share runs out. One pass over the phase list that stops once every
 * FIFO user's share ran out and the jobs that had a target at the last
 * epoch are behind (the later ones have target 0 already; every job of a
 * user that just turned FIFO). */
static void share_fifo_users(wpbs_state *st, so_cl_sim *sim, int phase)
{
    int nu = st->n_users, *last = st->fifo_last + phase * nu, open = 0;
    for (int u = 0; u < nu; u++) {
        const wpbs_user *us = &st->users[u];
        st->fifo_left[u] = us->share[phase];
        st->fifo_new_last[u] = -1;
        st->fifo_done[u] = !us->fifo || us->est[phase] < 0;
        open += !st->fifo_done[u];
        if (us->switched)
            last[u] = INT_MAX;
    }
    for (int j = sim->head[phase]; j >= 0 && open > 0;
         j = sim->jobs[j].next[phase]) {
        int u = so_cl_job_user(sim, j);
        if (st->fifo_done[u])
            continue;
        double t = fmin(so_cl_demand(&sim->jobs[j], phase), st->fifo_left[u]);
        st->fifo_left[u] -= t;
        set_target(st, phase, j, t);
        if (t > 0)
            st->fifo_new_last[u] = j;
        if (st->fifo_left[u] <= 0 && j >= last[u]) {
            st->fifo_done[u] = 1;
            open--;
        }
    }
    for (int u = 0; u < nu; u++)
        if (st->users[u].fifo)
            last[u] = st->fifo_new_last[u];
}

static int allocate_phase(wpbs_state *st, so_cl_sim *sim, int phase,
                          int refresh, const int *changed, int n_changed)
{
    int n = 0;
    for (int u = 0; u < st->n_users; u++) {
        wpbs_user *us = &st->users[u];
        us->su[phase] = us->share[phase] = 0;
        double est = user_phase_size(st, u, phase);
        if (est == 0) {
            us->est[phase] = -1; /* estimated afresh when active again */
            continue;
        }
        if (refresh || us->est[phase] < 0)
            us->est[phase] = est;
        st->active[n] = u;
        st->size[n] = us->est[phase];
        st->demand[n] = so_cl_level_demand(&st->demands[phase], u);
        n++;
    }
    if (n > 0) {
        so_wpbs_shares(n, st->size, st->alpha, sim->total_slots[phase], st->su);
        so_wpbs_cap(n, st->su, st->demand, sim->total_slots[phase], st->share);
    }
    for (int k = 0; k < n; k++) {
        wpbs_user *us = &st->users[st->active[k]];
        us->su[phase] = st->su[k];
        us->share[phase] = st->share[k];
        if (!us->fifo && share_fair_user(st, phase, st->active[k]))
            return -1;
    }
    for (int k = 0; k < n_changed; k++) {
        int u = so_cl_job_user(sim, changed[k]);
        if (!st->users[u].fifo && classify(st, phase, changed[k]))
            return -1;
    }
    share_fifo_users(st, sim, phase);
    return 0;
}

/* verify=1, after an allocation: every listed job's target against the
 * plain split of its user's share, from scratch (FIFO: demand in list
 * order until the share runs out; fair: so_cl_waterline over the user's
 * jobs), relative 1e-9 (the level tree rounds differently with weights
 * that are not short binary fractions). */
static void verify_targets(wpbs_state *st, const so_cl_sim *sim, int phase)
{
    int nj = sim->w->n_jobs;
    int *ids = malloc(((size_t)nj + 1) * sizeof *ids);
    double *buf = malloc(((size_t)nj + 1) * 4 * sizeof *buf);
    for (int u = 0; ids && buf && u < st->n_users; u++) {
        const wpbs_user *us = &st->users[u];
        if (us->est[phase] < 0)
            continue;
        double *w = buf, *zero = w + nj + 1, *d = zero + nj + 1,
               *share = d + nj + 1, left = us->share[phase];
        int n = 0;
        for (int j = sim->head[phase]; j >= 0; j = sim->jobs[j].next[phase])
            if (so_cl_job_user(sim, j) == u) {
                ids[n] = j;
                w[n] = sim->jobs[j].spec->weight;
                zero[n] = 0;
                d[n] = so_cl_demand(&sim->jobs[j], phase);
                n++;
            }
        if (!us->fifo)
            so_cl_waterline(n, w, zero, d, left, share);
        for (int k = 0; k < n; k++) {
            if (us->fifo) {
                share[k] = fmin(d[k], left);
                left -= share[k];
            }
            st->checks++;
            st->mismatches += !near(so_cl_dx_target(st->dx, phase, ids[k]),
                                    share[k]);
        }
    }
    free(ids);
    free(buf);
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
    int n_changed;
    const int *changed = so_cl_dx_take_changed(st->dx, &n_changed);
    for (int k = 0; k < n_changed; k++)
        track_job(st, sim, changed[k]);
    if (st->verify)
        verify_sums(st, sim);
    st->reset_then = 0;
    if (refresh) {
        st->last_refresh = sim->now;
        refresh_tier2(st);
    }
    for (int phase = 0; phase < SO_CL_PHASES; phase++) {
        if (allocate_phase(st, sim, phase, refresh, changed, n_changed))
            sim->failed = 1;
        if (st->verify)
            verify_targets(st, sim, phase);
    }
    for (int u = 0; u < st->n_users; u++)
        st->users[u].switched = 0;
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

long long so_cl_wpbs_verified(const so_cl_sim *sim, long long *mismatches)
{
    const wpbs_state *st = state_of(sim);
    if (mismatches)
        *mismatches = st ? st->mismatches : 0;
    return st ? st->checks : -1;
}
