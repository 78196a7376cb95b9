/* kp_bnb.c — placeholder until branch-and-bound lands in the next commit. */
#include "formulations/knapsack.h"
int so_kp_bnb_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)p; (void)prm; (void)r;
    return SO_EUNSUPPORTED;
}
