/* formulations.c — the table of problem formulations. */
#include "formulations/common/problem_internal.h"

extern const so_formulation so_knapsack_formulation;

/* flex */
extern const so_formulation so_flex_formulation;
extern const so_formulation so_rap_formulation;

/* pareto */
extern const so_formulation so_pareto_formulation;

/* ras */
extern const so_formulation so_ras_formulation;


const so_formulation *const so_formulations[] = {
    &so_knapsack_formulation,

    /* flex */
    &so_flex_formulation,
    &so_rap_formulation,

    /* pareto */
    &so_pareto_formulation,

    /* ras */
    &so_ras_formulation,

    NULL,
};
