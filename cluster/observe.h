/*
 * observe.h — what a policy may know about a running simulation: what a
 * Hadoop JobTracker observes. Per job and phase, and per node and phase,
 * the count, mean and variance of the durations (launch to end, seconds) of
 * the completed tasks' winning attempts; per user, the jobs completed so
 * far in completion order (their submit and finish times through
 * so_cl_sim_job). Together with the counters of so_cl_jobrt (pending,
 * running, done tasks), the attempts' launch times and progress scores
 * (so_cl_progress) and the hooks of cluster.h, this is a policy's view.
 *
 * The workload's true task work (so_cl_job_spec.map_work, .reduce_work)
 * is private to the engine: a policy reading it is an oracle and must say
 * so. The one such policy today is FLEX (sched_flex.c), which documents it.
 */
#ifndef SO_CL_OBSERVE_H
#define SO_CL_OBSERVE_H

#include "cluster/cluster.h"

/* Running mean and variance (Welford's update). */
typedef struct so_cl_obs {
    int n;       /* completed tasks */
    double mean; /* of their durations */
    double m2;   /* sum of squared deviations from the mean */
} so_cl_obs;

void so_cl_obs_add(so_cl_obs *o, double x);
/* Sample variance m2 / (n - 1); 0 below two observations. */
double so_cl_obs_variance(const so_cl_obs *o);

const so_cl_obs *so_cl_job_obs(const so_cl_sim *sim, int job, int phase);
const so_cl_obs *so_cl_node_obs(const so_cl_sim *sim, int node, int phase);

/* Users are numbered by their names' sort order; every job has one (the
 * empty name counts as a user). */
int so_cl_user_count(const so_cl_sim *sim);
int so_cl_job_user(const so_cl_sim *sim, int job);
/* The user's completed jobs in completion order; returns their count. */
int so_cl_user_history(const so_cl_sim *sim, int user, const int **jobs);

#endif
