/* rap.h — the moldable Resource Allocation Problem of FLEX (internal).
 *
 * Wolf et al. (Middleware 2010), Section 3.2, "Generic Scheme": choose
 * integer s_j with lo_j = max(m_j, 1) <= s_j <= M_j and sum_j s_j <= S,
 * minimising sum_j F_j(s_j) (minisum) or max_j F_j(s_j) (minimax), where
 * F_j(s) = p_j(C_j / s) is the penalty of the job run alone on s slots.
 * The data is a so_flex (formulations/flex.h); problem kind "rap". */
#ifndef SO_RAP_H
#define SO_RAP_H
#include "formulations/flex.h"

/* Largest GLPK model (binary columns) the rap-glpk backend builds. */
#define SO_RAP_GLPK_MAX_COLS 200000

int64_t so_rap_lo(const so_flex *f, size_t j);
double so_rap_cost(const so_flex *f, size_t j, int64_t s); /* F_j(s) */
/* 1 when F_j is convex in s for every job and the aggregate is a sum
 * (response, weighted response, stretch, lateness, tardiness: p_j is convex
 * in t and t = C_j / s is convex in s). */
int so_rap_convex(const so_flex *f);
/* sum_j lo_j <= S. */
int so_rap_feasible(const so_flex *f);
double so_rap_value(const so_flex *f, const int64_t *s); /* aggregate */
/* Sets status, objective and the solution {"slots", "completion"} (s may be
 * NULL: status only). */
int so_rap_report(const so_flex *f, so_result *r, int status, const int64_t *s);
/* One binary x_{j,s} per job and slot count; for minimax a free z with
 * z >= sum_s F_j(s) x_{j,s}. SO_ENOMEM over SO_RAP_GLPK_MAX_COLS. */
int so_rap_build_glpk(const void *data, glp_prob *lp, so_error *err);
/* The same, stopping with SO_TIMELIMIT once so_now() passes deadline
 * (0: none; read every 1024 columns). */
int so_rap_build_glpk_until(const so_flex *f, glp_prob *lp, double deadline,
                            so_error *err);

#endif
