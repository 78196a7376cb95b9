/*
 * offline_opt.h — `offline-opt`: the best job priority order found for a
 * workload (replayed on the cluster model, so every objective is a real
 * schedule's) against lp-bound; docs/offline.md.
 */
#ifndef SO_CL_OFFLINE_OPT_H
#define SO_CL_OFFLINE_OPT_H

#include "cluster/cluster.h"

/* Up to this many jobs the search lists orders (each must fit one option
 * value); above, it replays the scheduler's named orders only (submit, spt). */
#define SO_CL_OFFLINE_OPT_MAX_JOBS 60
#define SO_CL_OFFLINE_OPT_EXHAUSTIVE 6  /* up to this many jobs: every order */

/* A replay's rule, the scheduler priority's options besides the order:
 * SO_CL_OFFLINE_DELAY (delay_reduces=1) or not, one of tasks=index (0),
 * SO_CL_OFFLINE_LONGEST (tasks=longest) and SO_CL_OFFLINE_PLANNED
 * (tasks=planned), and SO_CL_OFFLINE_OPEN (open_first=2: the next job's
 * opening maps before the first job's other maps) with the list task rules
 * and reduces not delayed (the scheduler ignores it otherwise). The rules
 * are the bits of SO_CL_OFFLINE_RULE_MASK below SO_CL_OFFLINE_RULES: eight
 * of them. */
enum {
    SO_CL_OFFLINE_DELAY = 1,
    SO_CL_OFFLINE_LONGEST = 2,
    SO_CL_OFFLINE_PLANNED = 4,
    SO_CL_OFFLINE_OPEN = 8,
    SO_CL_OFFLINE_RULES = 11
};
#define SO_CL_OFFLINE_RULE_MASK                                                           \
    (0x3Fu | (1u << SO_CL_OFFLINE_OPEN) | (1u << (SO_CL_OFFLINE_OPEN | SO_CL_OFFLINE_LONGEST)))

/* The task rule of a rule: "index", "longest" or "planned". */
const char *so_cl_offline_rule_tasks(int rule);

typedef struct so_cl_offline_opt {
    double sum;        /* the incumbent's sum of responses (a simulated schedule) */
    double bound;      /* lp-bound's bound on the sum of responses */
    int proved;        /* sum meets bound (so_cl_offline_verdict): optimal */
    int exhaustive;    /* every order (and reduce rule) was replayed */
    int timed_out;     /* the time limit stopped the search */
    int n_jobs;
    int *order;        /* the incumbent: job indices, highest priority first */
    const char *order_name; /* its name for scheduler priority (submit, spt) on
                               a workload over SO_CL_OFFLINE_OPT_MAX_JOBS jobs;
                               NULL: the order is listed */
    int delay_reduces; /* its reduce rule (scheduler priority's option) */
    const char *tasks; /* its task rule (so_cl_offline_rule_tasks) */
    int open_first;    /* priority's open_first: 2 (the first two jobs' opening
                          maps first) or 0 */
    long evaluations;  /* schedules replayed */
    double *responses; /* the incumbent's per-job responses */
} so_cl_offline_opt;

/* Searches priority orders (all of them up to SO_CL_OFFLINE_OPT_EXHAUSTIVE
 * jobs under the list rules, and the 24 best of them with planned maps;
 * else local search by insertion moves from several starts) under the
 * eight rules (reduces delayed or not; tasks in index or longest-first
 * order or maps planned; with the list rules and reduces not delayed, every
 * job's opening maps first or not). Above SO_CL_OFFLINE_OPT_EXHAUSTIVE jobs the local search
 * keeps the best start's list rule (index or longest) until half the time
 * limit, its result is replayed under every rule, and local search under
 * the best of them continues from there. Above SO_CL_OFFLINE_OPT_MAX_JOBS
 * jobs (a trace) the incumbent is the better of the submit order and SPT
 * (order_name) under the list rules: no search. Each schedule is replayed
 * under scheduler `priority` with padding 0 and the heartbeat phases of
 * seed. time_limit <= 0: none. Stops early once the incumbent meets the
 * bound. Returns SO_OK, SO_ENOMEM, or SO_EINVAL (err set) for an incumbent
 * below the bound (so_cl_offline_verdict). */
int so_cl_offline_opt_solve(const so_cl_workload *w, uint64_t seed,
                            double time_limit, so_cl_offline_opt *out, so_error *err);
void so_cl_offline_opt_free(so_cl_offline_opt *o);

/* The sum of responses of one order replayed under rule (SO_CL_OFFLINE_*
 * bits; responses into resp, may be NULL). */
int so_cl_offline_replay(const so_cl_workload *w, uint64_t seed,
                         const int *order, int rule, double *sum, double *resp,
                         so_error *err);

/* The verdict on a simulated sum of responses against lp-bound's bound:
 * *proved = 1 when it meets the bound within SO_CL_OFFLINE_TOL (relative),
 * 0 above. Below by more than that a schedule beat a lower bound: the bound
 * does not hold for this workload (a speed-up the bound does not know), so
 * SO_EINVAL with err saying so and *proved = 0, never a proof. */
#define SO_CL_OFFLINE_TOL 1e-9
int so_cl_offline_verdict(double sum, double bound, int *proved, so_error *err);

/* A job's total work: its maps' work plus its reduces' copy, sort and
 * reduce work. */
double so_cl_job_work(const so_cl_job_spec *js);

/* The jobs by total work, smallest first, ties by index (SPT): scheduler
 * priority's order=spt. order: w->n_jobs entries. Returns SO_OK or
 * SO_ENOMEM. */
int so_cl_spt_order(const so_cl_workload *w, int *order);

/* order as the scheduler's option text ("2,0,1") into buf. */
void so_cl_offline_order_text(const int *order, int n, char *buf, size_t size);

#endif
