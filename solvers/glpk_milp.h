/* glpk_milp.h — the shared GLPK MILP driver (internal). */
#ifndef SO_GLPK_MILP_H
#define SO_GLPK_MILP_H
#include <glpk.h>
#include "slotopt.h"

typedef struct so_milp_outcome {
    int status;       /* SO_OPTIMAL, SO_FEASIBLE, SO_INFEASIBLE, SO_TIMELIMIT,
                         SO_UNBOUNDED, or SO_EBACKEND */
    int has_solution; /* an integer-feasible point is in lp */
    double objective; /* of the incumbent */
    int has_bound;
    double bound;     /* best proven bound (= objective when optimal) */
} so_milp_outcome;

/* Solves lp with glp_intopt (presolve on, silent, time limit from prm).
 * Results stay in lp (glp_mip_col_val). Never aborts: GLPK's own failures
 * come back as SO_EBACKEND. */
int so_milp_solve(glp_prob *lp, const so_params *prm, so_milp_outcome *out);

/* GLPK settings beyond so_milp_solve's defaults. */
typedef struct so_milp_options {
    int cuts;      /* Gomory, MIR and clique cuts (not cover cuts: GLPK
                      5.0's cover generator can fail with "glp_add_cols:
                      ncs = 0" inside glp_intopt) */
    int branching; /* pseudocost branching, best-projection backtracking */
} so_milp_options;

/* so_milp_solve with options (NULL: the defaults). */
int so_milp_solve_opt(glp_prob *lp, const so_params *prm,
                      const so_milp_options *opt, so_milp_outcome *out);

#endif
