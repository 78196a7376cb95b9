/* flex.h — the FLEX slot-allocation problem (internal).
 *
 * FLEX (Wolf et al., "FLEX: a slot allocation scheduling optimizer for
 * MapReduce workloads", Middleware 2010), restated in SPEC section 1:
 * S identical slots; job j has work C_j (slot-seconds), minimum m_j and
 * maximum M_j slots, and the data of its metric (weight w_j, deadline d_j,
 * SLA steps (d_ij, w_ij)). Linear speedup: a job holding s slots runs at
 * rate s. All jobs are present at time 0 (response time = completion time).
 *
 * Two problem kinds share this data:
 *   "flex": the malleable problem (intervals with per-job slot counts),
 *           objective = aggregate of p_j(completion time);
 *   "rap":  the moldable resource allocation problem of Section 3.2:
 *           choose integer s_j in [max(m_j, 1), M_j], sum s_j <= S,
 *           objective = aggregate of F_j(s_j) = p_j(C_j / s_j).
 * Jobs are indexed from 0 in arrival order (FIFO uses that order). */
#ifndef SO_FLEX_H
#define SO_FLEX_H
#include "formulations/common/problem_internal.h"

/* Per-job penalty of the completion time t (SPEC section 1). */
enum so_flex_metric {
    SO_FLEX_RESPONSE,    /* t */
    SO_FLEX_WRESPONSE,   /* w_j t */
    SO_FLEX_STRETCH,     /* t / W_j, W_j = C_j / M_j */
    SO_FLEX_MAKESPAN,    /* t, aggregate max */
    SO_FLEX_TARDY,       /* [t > d_j] */
    SO_FLEX_WTARDY,      /* w_j [t > d_j] */
    SO_FLEX_TARDINESS,   /* max(0, t - d_j) */
    SO_FLEX_WTARDINESS,  /* w_j max(0, t - d_j) */
    SO_FLEX_LATENESS,    /* t - d_j */
    SO_FLEX_WLATENESS,   /* w_j (t - d_j) */
    SO_FLEX_SLA,         /* sum_i w_ij [t > d_ij] */
    SO_FLEX_NMETRICS
};
enum so_flex_aggregate { SO_FLEX_SUM, SO_FLEX_MAX };

typedef struct so_flex {
    size_t n;
    int64_t slots;      /* S >= 1 */
    int metric;         /* enum so_flex_metric */
    int aggregate;      /* enum so_flex_aggregate */
    double *work;       /* C_j > 0, slot-seconds */
    int64_t *min;       /* 0 <= m_j <= M_j, sum m_j <= S */
    int64_t *max;       /* 1 <= M_j <= S */
    double *weight;     /* w_j >= 0 (default 1) */
    double *deadline;   /* d_j (default 0), seconds */
    size_t *sla_start;  /* n + 1 offsets into the two arrays below */
    double *sla_deadline; /* non-decreasing within a job */
    double *sla_penalty;  /* non-decreasing within a job, >= 0 */
} so_flex;

extern const so_formulation so_flex_formulation;
extern const so_formulation so_rap_formulation;

/* Largest magnitude of work, weights, deadlines and SLA values, and the
 * least work: within them no penalty, gain or sum overflows to inf. */
#define SO_FLEX_MAX_VALUE 1e100
#define SO_FLEX_MIN_WORK 1e-100

/* Relative tolerance of time comparisons (deadlines, completion). */
#define SO_FLEX_EPS 1e-9

/* An instance of n jobs with room for n_sla SLA steps in all (arrays
 * zeroed, weights 1, sla_start all 0). */
so_flex *so_flex_new(size_t n, size_t n_sla);
void so_flex_free(so_flex *f);
/* Deep copy (NULL on failure). */
so_flex *so_flex_copy(const so_flex *f);
const so_flex *so_flex_of(const so_problem *p); /* "flex" or "rap" kinds */
int so_flex_problem(so_flex *f, const char *name, so_problem **out);
int so_rap_problem(so_flex *f, const char *name, so_problem **out);

const char *so_flex_metric_name(int metric);
int so_flex_metric_parse(const char *name); /* -1 if unknown */
/* Checks the invariants of the struct above; message into why. */
int so_flex_validate(const so_flex *f, char *why, size_t size);

/* Penalty of job j completing at time t (non-decreasing in t). */
double so_flex_penalty(const so_flex *f, size_t j, double t);
/* Linear metrics: p_j(t) = omega * t + beta. Returns 1 and fills them, or 0
 * for tardiness, tardy jobs and SLA. */
int so_flex_linear(const so_flex *f, size_t j, double *omega, double *beta);
/* Weight factor of j: 1, w_j, or M_j / C_j (stretch). */
double so_flex_omega(const so_flex *f, size_t j);
/* Aggregate (sum or max) of the penalties of the completion times. */
double so_flex_objective(const so_flex *f, const double *completion);

#endif
