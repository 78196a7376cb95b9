/* pareto_execute.h — a Pareto plan run on the cluster model (the paper's
 * Fig. 10: predicted vs observed job time), docs/pareto.md "Execution". */
#ifndef SO_PARETO_EXECUTE_H
#define SO_PARETO_EXECUTE_H
#include "formulations/pareto.h"

typedef struct so_pt_exec_job {
    double predicted, simulated;      /* job time (Eq. 9 / cluster model), s */
    double low, up;                   /* Makespan Theorem bounds: sum over
                                         phases of n tavg / k and Eq. 6 */
    double predicted_budget, simulated_budget; /* Eq. 12 with each time */
} so_pt_exec_job;

/* Runs plan (one alloc per job) on a cluster of sum VMs_j nodes (map and
 * reduce slots per VM of the instance) under the fair scheduler, one pool
 * per job with minimum = maximum = the plan's slots, all jobs submitted at
 * 0, reduces after the last map; jobs[] (n_jobs) gets the figures.
 * SO_EUNSUPPORTED under max_vms (waves are not executed). */
int so_pt_execute(const so_pareto *pr, const so_pt_alloc *plan,
                  so_pt_exec_job *jobs, so_error *err);

#endif
