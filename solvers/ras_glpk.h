/* ras_glpk.h — ras-glpk's entry point, for ras-exact's hand-over on
 * instances with too many patterns (internal). */
#ifndef SO_RAS_GLPK_H
#define SO_RAS_GLPK_H
#include "formulations/ras.h"
#include "solvers/glpk_milp.h"

int so_ras_glpk_solve(const so_problem *p, const so_params *prm, so_result *r);

#endif
