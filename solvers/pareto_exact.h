/* pareto_exact.h — the exact frontier backends' cores (internal): each fills
 * f with the non-dominated plans within the deadline and budget_max (before
 * the budget_min cut of so_pt_frontier_window) or returns SO_EUNSUPPORTED
 * with a message in msg. */
#ifndef SO_PARETO_EXACT_H
#define SO_PARETO_EXACT_H
#include "solvers/pareto_frontier.h"

int so_pt_sweep(const so_pareto *pr, so_pt_frontier *f, char *msg, size_t len);
int so_pt_enum(const so_pareto *pr, double max_plans, so_pt_frontier *f,
               char *msg, size_t len);
int so_pt_glpk(const so_pareto *pr, const so_params *prm, double max_columns,
               so_pt_frontier *f, char *msg, size_t len);

extern const so_option_doc so_pt_sweep_options[];
extern const so_option_doc so_pt_enum_options[];
extern const so_option_doc so_pt_glpk_options[];

#endif
