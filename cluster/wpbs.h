/* wpbs.h — the workload-pattern-based scheduler (WPBS; Shreerashmi B.S. et
 * al., IJCSMC 4(5), 2015; cluster/sched_wpbs.c, docs/wpbs.md): its pure
 * building blocks (the statistics of eqs. 1-6, the slot shares of eqs.
 * 8-10, the tier-2 rule of Algorithm 3) and a read-out of a running
 * simulation's current per-user shares (for exporters such as a Hadoop
 * configuration writer). */
#ifndef SO_CL_WPBS_H
#define SO_CL_WPBS_H

#include "cluster/observe.h"

/* Eqs. 4-5 (and 1-2): Welford's one-pass update of a running mean and sum
 * of squared deviations (o->m2). window > 0 limits the memory to about the
 * last `window` values: up to `window` values the update is exact Welford;
 * after that the count stays at `window` and each new value gets weight
 * 1 / window (an exponentially weighted mean and variance). window 0:
 * unlimited (exact Welford over every value). */
void so_wpbs_add(so_cl_obs *o, double x, int window);
/* Eq. 6: the coefficient of variation sqrt(m2 / n) / mean (population
 * variance, as the paper's v_i / j); 0 for no value or a mean <= 0. */
double so_wpbs_cv(const so_cl_obs *o);

/* Eq. 8 for n >= 1 active users of phase sizes size[i] > 0, with F =
 * slots / n the fair share: su[i] = F (alpha n (1 / size[i]) /
 * sum_k (1 / size[k]) + 1 - alpha). For alpha in [0, 1] every su[i] > 0
 * (eq. 9) and they sum to slots (eq. 10). */
void so_wpbs_shares(int n, const double *size, double alpha, double slots,
                    double *su);
/* Algorithm 1 step 4 and the text after eq. 10: each share capped at the
 * user's demand, the surplus redistributed to the users still in need in
 * proportion to their su (the waterline of fair_share.h with weights su):
 * share[i] = min(demand[i], r su[i]) with one level r such that the
 * shares sum to min(slots, sum demand). su[i] > 0. */
void so_wpbs_cap(int n, const double *su, const double *demand, double slots,
                 double *share);
/* Algorithm 3 for a user with more than one current job: 1 (FIFO among
 * its jobs) when both the historical CV and the current jobs' CV are below
 * 1, else 0 (fair sharing). *reset is set to 1 when the two disagree (one
 * below 1, the other not): the user's job-size history restarts. */
int so_wpbs_tier2(double cv_history, double cv_current, int *reset);

/* ---- read-out of a simulation run under `--scheduler wpbs` ------------- */
/* The current shares of every user (so_cl_user_count entries, users
 * numbered as in observe.h) for slot type `phase` (SO_CL_MAP or
 * SO_CL_REDUCE), as the last allocation computed them: su[u] eq. 8's share
 * (0 for a user with no demand of the phase), capped[u] after the demand
 * caps and surplus redistribution (the slots the user is entitled to now).
 * Either array may be NULL. Before the first allocation every entry is 0.
 * Returns the user count, or -1 when sim is not run by the wpbs scheduler
 * or phase is invalid. */
int so_cl_wpbs_user_shares(const so_cl_sim *sim, int phase, double *su,
                           double *capped);
/* A user's tier-2 scheme (1 FIFO, 0 fair), its job-size history (eqs.
 * 4-6; NULL for a bad user) and how often the history restarted; for tests
 * and reports. -1 / NULL when sim is not run by wpbs. */
int so_cl_wpbs_user_fifo(const so_cl_sim *sim, int user);
const so_cl_obs *so_cl_wpbs_user_history(const so_cl_sim *sim, int user);
int so_cl_wpbs_user_resets(const so_cl_sim *sim, int user);
/* Under `--opt verify=1`: the checks made so far against a pass over the
 * jobs (per allocation: each user's estimates and current-jobs statistics,
 * each listed job's target against the plain FIFO or waterline split),
 * and in *mismatches those apart by more than rounding (relative 1e-9;
 * CV 1e-6). -1 when sim does not run wpbs. */
long long so_cl_wpbs_verified(const so_cl_sim *sim, long long *mismatches);

#endif
