/* pareto_heuristics.h — the Pareto scheduler's heuristics (internal):
 * Algorithms 1-5 of Zacheilas and Kalogeraki 2017 and the NSGA-II baseline. */
#ifndef SO_PARETO_HEURISTICS_H
#define SO_PARETO_HEURISTICS_H
#include "solvers/pareto_frontier.h"

/* ---- buffer tuning (heuristics/pareto_buffer.c) --------------------------- */
enum so_pt_tune { SO_PT_TUNE_NONE, SO_PT_TUNE_RANDOM, SO_PT_TUNE_NLOPT, SO_PT_TUNE_GRID };

/* Algorithm 5: `samples` uniform samples of (mBuffer, metaPercent, bThr) in
 * the job's bounds; least I/O cost, ties to the smaller mBuffer. */
so_pt_buffer so_pt_buffer_random(const so_pareto *pr, const so_pt_job *job,
                                 int64_t mt, long samples, so_rng *rng,
                                 double *io_cost);
/* NLopt's DIRECT-L (derivative-free, global) with at most `evals`
 * evaluations, from the same bounds. SO_OK or SO_EBACKEND. */
int so_pt_buffer_nlopt(const so_pareto *pr, const so_pt_job *job, int64_t mt,
                       long evals, so_pt_buffer *out, double *io_cost);
/* Exhaustive grid: mBuffer from its low bound by mb_step MiB, metaPercent
 * and bThr from theirs by pct_step (the paper's Fig. 18 "optimal"); least
 * I/O cost, ties to the smaller mBuffer. *worst (may be NULL) gets the
 * largest I/O cost on the grid. */
so_pt_buffer so_pt_buffer_grid(const so_pareto *pr, const so_pt_job *job,
                               int64_t mt, double mb_step, double pct_step,
                               double *io_cost, double *worst);

/* A tuner caches the tuned buffer of each (job, map task count). */
typedef struct so_pt_tuner so_pt_tuner;
so_pt_tuner *so_pt_tuner_new(const so_pareto *pr, int method, long samples,
                             uint64_t seed);
void so_pt_tuner_free(so_pt_tuner *t);
/* The buffer for job j with mt map tasks (the job's own with method NONE).
 * SO_OK, SO_ENOMEM or SO_EBACKEND. */
int so_pt_tuner_get(so_pt_tuner *t, size_t j, int64_t mt, so_pt_buffer *out);

/* Replaces every job's buffer by the tuner's for the job's task count (the
 * buffers a search with that method, samples and seed uses at those counts). */
int so_pt_tune_instance(so_pareto *pr, int method, long samples, uint64_t seed);
/* Reads the "buffer" (fixed | random | nlopt | grid) and "samples" options. */
int so_pt_buffer_options(const so_params *prm, const so_option_doc *docs,
                         int *method, long *samples, so_error *err);
/* For the exact backends: NULL when the options ask for no tuning, else a
 * copy of pr with tuned buffers (caller frees). */
int so_pt_tuned_copy(const so_pareto *pr, const so_params *prm,
                     const so_option_doc *docs, so_pareto **copy, so_error *err);
#define SO_PT_BUFFER_OPTIONS                                                  \
    {"buffer", "fixed", "fixed | random (Algorithm 5) | nlopt (DIRECT-L) |"   \
                        " grid (25 MiB x 0.01 steps): tune map buffers"},     \
    {"samples", "10000", "buffer-tuning samples (random) or evaluations"      \
                         " (nlopt)"}

/* ---- task adjustment (heuristics/pareto_tasks.c) -------------------------- */
/* Algorithm 4 for the map (map = 1) or reduce phase of a: tasks start at
 * the slots and grow by one while the job time strictly falls, up to the
 * job's task count. Sets a->mt or a->rt. */
void so_pt_adjust_tasks(const so_pt_job *job, so_pt_alloc *a, int map);

/* ---- Pareto search (heuristics/pareto_greedy.c) --------------------------- */
typedef struct so_pt_greedy_opts {
    int vms_policy;   /* 0: Algorithm 2 (slots), 1: Algorithm 3 (VMs) */
    int adjust_tasks; /* Algorithm 4 */
    int tune;         /* enum so_pt_tune */
    long samples;     /* buffer-tuning samples or evaluations */
    uint64_t seed;
} so_pt_greedy_opts;

/* Algorithm 1: the frontier found (before the window of
 * so_pt_frontier_window; every point already satisfies it). */
int so_pt_greedy(const so_pareto *pr, const so_pt_greedy_opts *o,
                 so_pt_frontier *f);

/* ---- NSGA-II (heuristics/pareto_nsga2.c) ---------------------------------- */
typedef struct so_pt_nsga2_opts {
    long population, generations;
    double crossover, mutation; /* probabilities: per pair, per gene */
    uint64_t seed;
} so_pt_nsga2_opts;

int so_pt_nsga2(const so_pareto *pr, const so_pt_nsga2_opts *o,
                so_pt_frontier *f);

#endif
