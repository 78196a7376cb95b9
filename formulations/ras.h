/* ras.h — the RAS job-slot placement problem (internal).
 *
 * Polo et al., "Resource-aware Adaptive Scheduling for MapReduce Clusters"
 * (Middleware 2011), section 3: TaskTrackers tt with capacities
 * Omega[tt][r], jobs j with pending map / reduce tasks, a required map
 * concurrency s_req and per-task demand vectors for the map, shuffle and
 * reduce phases. A placement gives PM[j][tt] and PR[j][tt] (tasks, each in
 * its own job slot).
 *
 * Utility (eqs. 1-3), with the limits this project defines (docs/ras.md):
 *   uM = 1                                      if s_pend = 0
 *      = -infinity                              if s_pend > 0, s_alloc = 0
 *      = 1                                      if s_alloc >= s_req = s_pend
 *      = (s_alloc - s_req) / (s_pend - s_req)   if s_alloc >= s_req
 *      = log(s_alloc) / log(s_req) - 1          if 0 < s_alloc < s_req
 *   uR = 0                                      if r_alloc >= r_pend
 *      = -1                                     if r_alloc = 0 < r_pend
 *      = log(r_alloc) / log(r_pend) - 1         otherwise
 *   u  = min(1, uM + uR)
 * A placement never gives a job more tasks than it has pending.
 *
 * Capacity (eq. 6) for every tt and r:
 *   sum_j PM[j][tt] map[j][r] + PR[j][tt] red[j][r] <= Omega[tt][r]
 * where a reducer in reduce phase demands reduce[j][r] and a reducer in
 * shuffle phase demands shuffle_base[j][r] + shuffle[j][r] * m_j with
 * m_j = min(s_alloc_j, parallel_copies_j) (the job's maps placed on the
 * cluster, bounded by the number of copier threads).
 *
 * Objective: maximise the minimum utility (eq. 4), then the utilisation
 * (eq. 5): the mean over (tt, r) with Omega > 0 of load / Omega. Results
 * carry the minimum utility as the scalar objective (-infinity reported as
 * SO_RAS_STARVED) and the utilisation as the extra "utilisation".
 *
 * Indices are 0-based; placements are arrays of J * TT ints, job-major
 * (index j * TT + tt). */
#ifndef SO_RAS_H
#define SO_RAS_H
#include "formulations/common/problem_internal.h"

/* Finite stand-in for a utility of -infinity (a job with pending maps and
 * none placed) in objectives, bounds and the MILP: below every finite
 * utility (which are >= -2), so the lexicographic order is unchanged. */
#define SO_RAS_STARVED (-3.0)
/* Size limits of an instance. */
#define SO_RAS_MAX_TASKS 1000000
#define SO_RAS_MAX_CELLS 20000000 /* jobs * TaskTrackers */

typedef struct so_ras_job {
    char *name;
    int s_pend, r_pend; /* pending map / reduce tasks */
    int s_req;          /* required concurrent maps, in [0, s_pend] */
    int has_goal;       /* s_req was derived from the goal below */
    double t_goal, t_avg, now; /* seconds: goal, average map time, now */
    int parallel_copies;       /* >= 1 */
    int reduce_phase;          /* 1: reducers in reduce phase, 0: shuffle */
    double *map, *shuffle, *shuffle_base, *reduce; /* R values each */
} so_ras_job;

typedef struct so_ras {
    size_t R, TT, J;
    char **resources;  /* R names */
    double *capacity;  /* TT * R, index tt * R + r */
    so_ras_job *jobs;  /* J */
} so_ras;

extern const so_formulation so_ras_formulation;

/* Empty instance with zeroed arrays; resource names set to NULL. */
so_ras *so_ras_new(size_t R, size_t TT, size_t J);
void so_ras_free(so_ras *ras);
const so_ras *so_ras_of(const so_problem *p); /* NULL if not a ras */
int so_ras_problem(so_ras *ras, const char *name, so_problem **out);
/* Native JSON body of an instance (without "problem"/"version"). */
json_t *so_ras_to_json(const so_ras *ras);

/* s_req from a completion-time goal: ceil(s_pend t_avg / (t_goal - now)),
 * at most s_pend; s_pend when the goal is not after now. */
int so_ras_s_req_from_goal(int s_pend, double t_goal, double t_avg, double now);

/* ---- utility (formulations/ras_utility.c) ------------------------------ */
double so_ras_u_map(int s_alloc, int s_req, int s_pend);
double so_ras_u_reduce(int r_alloc, int r_pend);
double so_ras_utility(const so_ras_job *job, int s_alloc, int r_alloc);
/* u, with -infinity replaced by SO_RAS_STARVED. */
double so_ras_finite(double u);

/* ---- placements (formulations/ras_eval.c) ------------------------------- */
/* Demand of one reducer of job j on resource r when the job has s_alloc
 * maps placed (its phase's profile). */
double so_ras_reducer_demand(const so_ras_job *job, int s_alloc, size_t r);
/* Whether load fits capacity (relative tolerance 1e-9). */
int so_ras_fits(double load, double capacity);

typedef struct so_ras_eval {
    int feasible;        /* counts within pending, every load fits */
    double min_utility;  /* finite (SO_RAS_STARVED for -infinity) */
    double utilisation;  /* in [0, 1] when feasible */
    size_t worst_job;    /* a job of minimum utility (J if no job) */
} so_ras_eval;

/* load: TT * R (caller's buffer). */
int so_ras_loads(const so_ras *ras, const int *pm, const int *pr,
                 double *load);
int so_ras_evaluate(const so_ras *ras, const int *pm, const int *pr,
                    so_ras_eval *ev);
/* a strictly better than b: higher minimum utility, or equal (1e-9) and
 * higher utilisation (1e-9). */
int so_ras_better(const so_ras_eval *a, const so_ras_eval *b);
/* Fills the result: status, objective (minimum utility), bound (if
 * has_bound), extras "min_utility" and "utilisation", and the solution
 * {"jobs": [{name, maps, reduces, utility (null = -infinity)}],
 *  "placement": [{job, tt, maps, reduces}] (non-zero cells)}. */
int so_ras_report(const so_ras *ras, so_result *r, int status,
                  const int *pm, const int *pr, int has_bound, double bound);

/* ---- the MILP (formulations/ras_model.c) ------------------------------- */
typedef struct so_ras_model {
    int pm_col, pr_col; /* column of PM[j][tt] is pm_col + j * TT + tt */
    int z_col;          /* the minimum utility */
    int cap_row;        /* row of (tt, r) is cap_row + tt * R + r */
} so_ras_model;

/* Stage 1: maximise z <= u_j subject to eq. 6 (see ras_model.c). */
int so_ras_build_model(const so_ras *ras, glp_prob *lp, so_ras_model *m);
/* Stage 2: fixes z >= z_min and makes the utilisation the objective. */
int so_ras_model_stage2(const so_ras *ras, glp_prob *lp,
                        const so_ras_model *m, double z_min);
/* ---- drivers shared by backends ------------------------------------------ */
/* ras-plus's placement (heuristics/ras_plus.c) into pm, pr (J * TT each,
 * zeroed by the caller); `moves` local-search exchanges. */
int so_ras_plus_place(const so_ras *ras, long long moves, int *pm, int *pr);

#endif
