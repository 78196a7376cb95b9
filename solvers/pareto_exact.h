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
/* The same until a deadline on so_now()'s clock (0: none): SO_TIMELIMIT,
 * with the plans found so far in f, once it has passed. */
int so_pt_sweep_until(const so_pareto *pr, double deadline, so_pt_frontier *f,
                      char *msg, size_t len);
int so_pt_enum_until(const so_pareto *pr, double max_plans, double deadline,
                     so_pt_frontier *f, char *msg, size_t len);
int so_pt_glpk(const so_pareto *pr, const so_params *prm, double max_columns,
               so_pt_frontier *f, char *msg, size_t len);

/* A core with its size limit (ignored by the sweep). */
typedef int (*so_pt_exact_fn)(const so_pareto *pr, const so_params *prm,
                              double limit, so_pt_frontier *f, char *msg,
                              size_t len);
/* Runs a core as a backend: reads the limit option limit_key (may be NULL)
 * and the buffer options (tuning every job's buffer for its task count
 * first), reports the frontier (SO_TIMELIMIT keeps what was found). The
 * time limit counts from the call: the core and the reference get what is
 * left. */
int so_pt_exact_run(const so_problem *p, const so_params *prm, so_result *r,
                    const so_option_doc *docs, const char *limit_key,
                    so_pt_exact_fn core);

extern const so_option_doc so_pt_sweep_options[];
extern const so_option_doc so_pt_enum_options[];
extern const so_option_doc so_pt_glpk_options[];

#endif
