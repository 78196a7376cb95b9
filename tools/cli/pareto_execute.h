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
    double start, finish;             /* simulated: VMs granted, job done */
} so_pt_exec_job;

typedef struct so_pt_exec_opts {
    int dedicated;  /* 1: each job alone on its own VMs carrying exactly the
                       plan's slots; 0: the jobs' VMs shared under the fair
                       scheduler, one pool per job with min = max = slots */
    int random;     /* 1: task times drawn from the profiles (seeded);
                       0: the deterministic split (one tmax, the rest equal) */
    uint64_t seed;  /* of the draws (job j uses stream j) */
} so_pt_exec_opts;

/* Runs plan (one alloc per job); all jobs are submitted at 0 and, with
 * max_vms > 0, taken in Eq. 10's wave order (predicted time ascending, ties
 * by index): a job starts as soon as its VMs fit beside the running jobs'
 * and every job before it has started. jobs[] (n_jobs) gets the figures,
 * *pred_makespan (may be NULL) Eq. 10's makespan, *sim_makespan (may be
 * NULL) the last simulated finish. SO_EINVAL naming max_vms when a job
 * alone needs more VMs than the cap. o NULL: shared, deterministic. */
int so_pt_execute_with(const so_pareto *pr, const so_pt_alloc *plan,
                       const so_pt_exec_opts *o, so_pt_exec_job *jobs,
                       double *pred_makespan, double *sim_makespan, so_error *err);
/* so_pt_execute_with(pr, plan, NULL, jobs, NULL, NULL, err). */
int so_pt_execute(const so_pareto *pr, const so_pt_alloc *plan,
                  so_pt_exec_job *jobs, so_error *err);

#endif
