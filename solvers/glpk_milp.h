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
    int lp_lost;      /* GLPK hit an internal error and its environment was
                         freed: lp is gone, do not touch or delete it */
} so_milp_outcome;

/* Solves lp with glp_intopt (presolve on, silent, time limit from prm,
 * counted from the call).
 * Results stay in lp (glp_mip_col_val). Never aborts: GLPK's own failures
 * come back as SO_EBACKEND; after an internal GLPK error (out->lp_lost) every
 * GLPK object is gone, so callers delete lp only when !out->lp_lost. */
int so_milp_solve(glp_prob *lp, const so_params *prm, so_milp_outcome *out);

/* Cut families (bit set). */
enum { SO_CUTS_NONE = 0, SO_CUTS_COVER = 1, SO_CUTS_MIR = 2, SO_CUTS_CLIQUE = 4,
       SO_CUTS_GOMORY = 8, SO_CUTS_ALL = 15 };
/* Parses "none", "all" or a comma list of cover, mir, clique, gomory. */
int so_milp_parse_cuts(const char *text, int *cuts);

/* GLPK settings beyond so_milp_solve's defaults. */
typedef struct so_milp_options {
    int cuts;      /* SO_CUTS_* families. With cover cuts the presolver is
                      off and the LP is solved first (GLPK 5.0's cover
                      generator fails with "glp_add_cols: ncs = 0" on some
                      presolved models). Cuts are numerically fragile on
                      coefficients near 1e9: plain branch-and-bound is the
                      safer default. */
    int branching; /* pseudocost branching, best-projection backtracking */
    int warm;      /* lp holds a basis to start from (glp_set_row_stat,
                      glp_set_col_stat): its LP relaxation is solved first,
                      from that basis, without presolving */
} so_milp_options;

/* so_milp_solve with options (NULL: the defaults). */
int so_milp_solve_opt(glp_prob *lp, const so_params *prm,
                      const so_milp_options *opt, so_milp_outcome *out);

/* The same until an absolute deadline on so_now()'s clock (0: none; see
 * solvers/common/deadline.h): the root LP, cuts and the tree all count,
 * and a deadline already passed gives SO_TIMELIMIT at once (no solution,
 * no bound). The prm forms take their deadline on entry. */
int so_milp_solve_until(glp_prob *lp, double deadline,
                        const so_milp_options *opt, so_milp_outcome *out);

#endif
