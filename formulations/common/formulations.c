/* formulations.c — the table of problem formulations. */
#include "formulations/common/problem_internal.h"

extern const so_formulation so_knapsack_formulation;

/* flex */

/* pareto */

/* ras */
extern const so_formulation so_ras_formulation;


const so_formulation *const so_formulations[] = {
    &so_knapsack_formulation,

    /* flex */

    /* pareto */

    /* ras */
    &so_ras_formulation,

    NULL,
};
