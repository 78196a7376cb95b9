/* flex_opt.h — the linear programme of the malleable FLEX problem with a
 * fixed prefix of the completion order (internal; exposed for tests).
 * solvers/flex_opt_lp.c states the model. */
#ifndef SO_FLEX_OPT_H
#define SO_FLEX_OPT_H
#include <stdint.h>
#include "formulations/flex_schedule.h"

/* Largest instance flex-opt takes (cut sets are 64-bit masks). */
#define SO_FLEX_OPT_MAX_JOBS 64
/* Most parallel-inequality cuts kept in the pool. */
#define SO_FLEX_OPT_MAX_CUTS 512

typedef struct so_flex_opt_lp {
    const so_flex *f;
    double horizon;     /* latest completion any optimal schedule needs */
    size_t n_cuts;
    uint64_t cuts[SO_FLEX_OPT_MAX_CUTS]; /* job sets of parallel inequalities */
    double deadline;    /* so_now() time limit for MILP leaves, 0 = none */
    size_t lps;         /* LPs and MILPs solved */
} so_flex_opt_lp;

/* SO_OK, or SO_EUNSUPPORTED (message in why) when f is out of flex-opt's
 * range: too many jobs, or work and deadlines spread over more than 1e9
 * (the LP would be badly scaled). */
int so_flex_opt_lp_init(so_flex_opt_lp *ctx, const so_flex *f, char *why,
                        size_t size);

/* Solves the programme in which the first k completions are the jobs
 * pre[0..k) in that order and the others complete later in any order.
 * With k == n and exact set, it is the optimum over every malleable
 * schedule with that completion order (binaries of tardy-job and SLA
 * metrics integral); otherwise a lower bound on every schedule whose
 * order starts with the prefix. *value = +inf when infeasible; T[n]
 * (may be NULL) gets the completion times; with k == n, sched (may be
 * NULL) gets an integer schedule realising the solution (each interval
 * split McNaughton-wise into sub-intervals of integer slot counts).
 * Returns SO_OK, SO_TIMELIMIT (MILP leaf stopped; *value is then its
 * incumbent or +inf), SO_ENOMEM or SO_EBACKEND. */
int so_flex_opt_solve_prefix(so_flex_opt_lp *ctx, const size_t *pre,
                             size_t k, int exact, double *value, double *T,
                             so_flex_schedule *sched);

#endif
