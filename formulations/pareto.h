/* pareto.h — the Pareto makespan/budget allocation problem (internal).
 *
 * Zacheilas and Kalogeraki, "A Pareto-based scheduler for exploring
 * cost-performance trade-offs for MapReduce workloads", EURASIP J. Embedded
 * Systems 2017:29, sections 3 and 4 (restated in SPEC section 2).
 *
 * A cluster of homogeneous VMs (map and reduce slots per VM, $ per VM-hour,
 * $ per I/O request of io_request_bytes bytes, optionally at most max_vms VMs
 * at a time), a workload (budget window, deadline) and jobs with per-phase
 * task-time profiles t(n) = a + b/n (seconds per task for n tasks), map
 * output size and record count per map task as functions of the map task
 * count, and map-buffer settings. A plan gives every job its slots (and
 * task counts and buffer). Indices are 0-based; time in seconds, money in
 * dollars, buffer sizes in MiB (Hadoop's io.sort.mb), output in bytes. */
#ifndef SO_PARETO_H
#define SO_PARETO_H
#include "formulations/common/problem_internal.h"

enum { SO_PT_MAP = 0, SO_PT_SHUFFLE = 1, SO_PT_REDUCE = 2, SO_PT_PHASES = 3 };

/* a + b / n */
typedef struct so_pt_curve {
    double a, b;
} so_pt_curve;

typedef struct so_pt_profile {
    so_pt_curve avg, max; /* mean and longest task time, seconds */
} so_pt_profile;

typedef struct so_pt_buffer {
    double size_mb;      /* mBuffer (io.sort.mb), MiB */
    double meta_percent; /* metaPercent (io.sort.record.percent), (0, 1) */
    double threshold;    /* bThr (io.sort.spill.percent), (0, 1) */
} so_pt_buffer;

typedef struct so_pt_job {
    char name[64];
    int64_t map_tasks, reduce_tasks; /* >= 1 */
    so_pt_profile phase[SO_PT_PHASES];
    int has_output;                  /* map output given: I/O is charged */
    so_pt_curve out_bytes;           /* outSize(mt), bytes per map task */
    so_pt_curve out_records;         /* outRec(mt), records per map task */
    so_pt_buffer buffer;             /* the job's setting */
    so_pt_buffer lo, hi;             /* bounds for buffer tuning */
} so_pt_job;

typedef struct so_pareto {
    int64_t map_slots_per_vm, reduce_slots_per_vm; /* >= 1 */
    double vm_cost_per_hour;       /* $ per VM-hour */
    double io_cost_per_request;    /* $ per I/O request */
    double io_request_bytes;       /* bytes per I/O request */
    int64_t max_vms;               /* 0: unlimited; else execution waves */
    double budget_min, budget_max; /* $; budget_max may be INFINITY */
    double deadline;               /* s; may be INFINITY */
    size_t n_jobs;
    so_pt_job *jobs;
    double billing_seconds;        /* 0: per second (Eq. 12 as printed);
                                      else VM time billed per started
                                      period of this many seconds */
} so_pareto;

/* One job's decision. */
typedef struct so_pt_alloc {
    int64_t ms, rs; /* map and reduce slots, 1 <= ms <= mt, 1 <= rs <= rt */
    int64_t mt, rt; /* map and reduce tasks */
    so_pt_buffer buffer;
} so_pt_alloc;

/* One job evaluated under an allocation. */
typedef struct so_pt_eval {
    int64_t vms;
    double low[SO_PT_PHASES], up[SO_PT_PHASES];
    double jtime, io_cost, budget;
} so_pt_eval;

extern const so_formulation so_pareto_formulation;

const so_pareto *so_pareto_of(const so_problem *p); /* NULL if not pareto */
void so_pareto_free(so_pareto *pr);
/* Deep copy (caller frees with so_pareto_free); NULL on no memory. */
so_pareto *so_pareto_copy(const so_pareto *pr);
int so_pareto_problem(so_pareto *pr, const char *name, so_problem **out);
/* Native JSON body (cluster, workload, jobs) of pr: new reference. */
json_t *so_pareto_to_json(const so_pareto *pr);

/* ---- evaluation (formulations/pareto_eval.c) ----------------------------- */
double so_pt_curve_at(so_pt_curve c, double n);
/* ceil(n / k) * tavg: Eq. 5 (10 tasks, 3 slots, 5 s -> 20 s). */
double so_pt_phase_low(int64_t n, int64_t k, double tavg);
/* (n - 1) / k * tavg + tmax: Eq. 6 (the Makespan Theorem). */
double so_pt_phase_up(int64_t n, int64_t k, double tavg, double tmax);
/* Eq. 1. */
int64_t so_pt_vms(const so_pareto *pr, int64_t ms, int64_t rs);
/* Eq. 20-21: spills per map task for a map task's output of out_bytes bytes
 * and out_records records; *spill_size gets the spill size in bytes. */
double so_pt_spills(double out_bytes, double out_records,
                    const so_pt_buffer *buf, double *spill_size);
/* Eq. 13: the job's I/O cost with mt map tasks and buffer buf. */
double so_pt_io_cost(const so_pareto *pr, const so_pt_job *job, int64_t mt,
                     const so_pt_buffer *buf);
/* Eq. 12's VM hours for a job running jtime seconds: jtime / 3600, or with
 * billing_seconds > 0 the started periods times billing_seconds / 3600 (a
 * period counts when jtime exceeds the previous one by more than 1e-9
 * relative, so 3600.0000000000005 s bill one hour). */
double so_pt_billed_hours(const so_pareto *pr, double jtime);
/* Eq. 1, 5-9, 12-13 for one job. */
void so_pt_job_eval(const so_pareto *pr, const so_pt_job *job,
                    const so_pt_alloc *a, so_pt_eval *out);
/* The job's time only (Eq. 9). */
double so_pt_jtime(const so_pt_job *job, const so_pt_alloc *a);
/* Eq. 10 without a VM cap; with one, jobs sorted by time (ascending, ties by
 * index) fill waves of at most max_vms VMs and the makespan is the sum of the
 * waves' longest times (section 4.2.1). INFINITY if a job alone needs more
 * than max_vms VMs. */
double so_pt_makespan(const so_pareto *pr, const double *jtime,
                      const int64_t *vms);
/* Makespan and Budget (Eq. 14) of a plan (one alloc per job); evals (may be
 * NULL) gets the per-job evaluations. Returns SO_ENOMEM or SO_OK. */
int so_pt_plan_eval(const so_pareto *pr, const so_pt_alloc *plan,
                    so_pt_eval *evals, double *makespan, double *budget);
/* ms = rs = 1, the job's task counts and buffer. */
void so_pt_alloc_init(const so_pareto *pr, size_t j, so_pt_alloc *a);
/* Job j evaluated (so_pt_job_eval) with ms map and rs reduce slots, its
 * task counts and buffer. */
void so_pt_eval_slots(const so_pareto *pr, size_t j, int64_t ms, int64_t rs,
                      so_pt_eval *out);
/* The epsilon-constraint MILP for export (pareto_model.c). */
int so_pt_build_glpk(const void *data, const so_params *prm, glp_prob *lp,
                     so_error *err);
/* Checks the slot and task bounds of a plan (constraints 16-17). */
int so_pt_plan_valid(const so_pareto *pr, const so_pt_alloc *plan);

#endif
