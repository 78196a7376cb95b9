/* ras.h — RAS's placement algorithm (Polo et al., Middleware 2011, sec.
 * 3.4, Algorithm 1; heuristics/ras.c): as the backend `ras` of the solver
 * registry and, for callers that place at every control cycle
 * (cluster/sched_ras.c), without a result object. */
#ifndef SO_HEURISTICS_RAS_H
#define SO_HEURISTICS_RAS_H

#include "formulations/ras.h"

extern const so_option_doc so_ras_heuristic_options[];

/* The backend: the placement as the result's solution (so_ras_report). */
int so_ras_heuristic_solve(const so_problem *p, const so_params *prm,
                           so_result *r);

/* Algorithm 1 with at most `rounds` (>= 1) rounds of map moves: the best
 * placement into pm and pr (J x TT each, job-major), *rounds_run the rounds
 * run. The same placement as the backend's. Returns 0 or SO_ENOMEM. */
int so_ras_place(const so_ras *ras, long long rounds, int *pm, int *pr,
                 long long *rounds_run);

#endif
