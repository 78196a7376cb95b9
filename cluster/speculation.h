/* speculation.h — what the speculation plug-ins share (internal). */
#ifndef SO_CL_SPECULATION_H
#define SO_CL_SPECULATION_H

#include "cluster/sim_internal.h"

/* Hadoop's SPECULATIVE_LAG: a task is considered for speculation only after
 * its attempt has run this long (seconds); LATE keeps the same rule. */
#define SO_CL_SPECULATIVE_LAG 60.0

/* Relative tolerance below which two progress rates count as equal. */
#define SO_CL_RATE_TOLERANCE 1e-9

/* Whether running attempt a may get a speculative copy on node: it is not a
 * copy itself, its task has no other running attempt (Hadoop's
 * MAX_TASK_EXECS = 1), it has run SO_CL_SPECULATIVE_LAG seconds, and it does
 * not run on node. */
int so_cl_spec_candidate(const so_cl_sim *sim, const so_cl_attempt *a,
                         int node);

/* Whether some running attempt of job j's phase may get a copy on node
 * (so_cl_spec_candidate): none while the job's oldest running attempt of
 * the phase has run less than SO_CL_SPECULATIVE_LAG (attempts start in
 * launch order, so no other has run longer), found in O(1); else the first
 * candidate of the running list. */
int so_cl_spec_any_candidate(const so_cl_sim *sim, int j, int phase, int node);

/* The may_copy test of LATE and of BASE on it (cluster.h): 0 when the
 * job's phase runs no attempt, or one and has completed none (its rate is
 * then the whole population: it cannot be below its 25th percentile). */
int so_cl_late_may_copy(const so_cl_sim *sim, int job, int phase);

/* LATE's estimate of an attempt's time left, (1 - score) / rate, given its
 * rate (score = rate x seconds run); infinite for a zero rate. */
double so_cl_time_left(const so_cl_sim *sim, const so_cl_attempt *a,
                       double rate);

/* Scratch doubles for one call of a slow-task rule: on the stack up to
 * SO_CL_SPEC_LOCAL, else on the heap (a malloc and free per offer of a
 * free slot cost a tenth of an overloaded replay). */
#define SO_CL_SPEC_LOCAL 512
typedef struct so_cl_spec_buf {
    double local[SO_CL_SPEC_LOCAL];
    double *heap;
} so_cl_spec_buf;
/* n doubles of b, or NULL when out of memory; release with _done. */
double *so_cl_spec_buf_get(so_cl_spec_buf *b, size_t n);
void so_cl_spec_buf_done(so_cl_spec_buf *b);

/* Linearly interpolated quantile q in [0, 1] of x[0..n-1] (reorders x). */
double so_cl_quantile(double *x, int n, double q);

/* The slow-task choices of LATE (spec_late.c) and Hadoop (spec_hadoop.c),
 * for policies built on them (BASE, spec_base.c): the task either would copy
 * on node, or -1; *time_left (may be NULL) gets the chosen attempt's
 * estimated time left (meaningless when -1 is returned). */
int so_cl_late_choose(const so_cl_sim *sim, int job, int node, int phase,
                      double *time_left);
/* LATE's choice in two parts (so_cl_late_choose = the task, unless the node
 * is slow): the slow task with the longest time left, ignoring the node's
 * score (-1: none); and whether node is below the slow-node threshold
 * (1 also when the check cannot be made). */
int so_cl_late_slow_task(const so_cl_sim *sim, int job, int node, int phase,
                         double *time_left);
int so_cl_late_slow_node(const so_cl_sim *sim, int node);
/* so_cl_late_slow_task with its scratch in buf (buf->heap NULL on entry;
 * release with so_cl_spec_buf_done after use of *rates_out): when a task is
 * returned, *rates_out holds the progress rates of the job's running
 * attempts of the phase, at now, in running-list order. */
int so_cl_late_slow_task_rates(const so_cl_sim *sim, int job, int node,
                               int phase, double *time_left,
                               so_cl_spec_buf *buf, const double **rates_out);
/* Hadoop's may_copy test (and BASE's on Hadoop's slow tasks): LATE's
 * (one rate is never a standard deviation below the mean), or the job at
 * its cap of running copies. */
int so_cl_hadoop_may_copy(const so_cl_sim *sim, int job, int phase);
int so_cl_hadoop_choose(const so_cl_sim *sim, int job, int node, int phase,
                        double *time_left);

/* BASE (spec_base.c): the estimated progress rate of a copy of a job's
 * task of `phase` on node (0: no estimate), and whether a copy with that
 * rate beats an original with time_left seconds left by the threshold. */
double so_cl_base_copy_rate(const so_cl_sim *sim, int job, int node,
                            int phase);
int so_cl_base_worth(double time_left, double copy_rate);

#endif
