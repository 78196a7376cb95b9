/* kp_dp.c — placeholder until the DP lands in the next commit. */
#include "formulations/knapsack.h"
int so_kp_dp_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    (void)p; (void)prm; (void)r;
    return SO_EUNSUPPORTED;
}
