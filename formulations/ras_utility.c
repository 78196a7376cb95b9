/* ras_utility.c — the job utility of RAS (Polo et al., Middleware 2011,
 * section 3.3, eqs. 1-3, Fig. 2).
 *
 * The paper's formulas are undefined at three points; the limits chosen
 * here (docs/ras.md, "Utility limits"):
 *   - s_alloc = 0 < s_pend: log(0) = -infinity, so uM = -infinity (the paper:
 *     "at least one slot must be allocated"); this also covers s_req = 1,
 *     where log(s_req) = 0 only meets s_alloc = 0;
 *   - s_alloc >= s_req = s_pend: 0/0; all pending maps are placed, which the
 *     paper calls maximum satisfaction, so uM = 1;
 *   - s_pend = 0 (no pending maps): uM = 1 (nothing left to want);
 *   - r_alloc = 0 < r_pend: log(0) gives -infinity, but the paper states the
 *     range of uR as [-1, 0], so uR = -1 (the same as one reducer when
 *     r_pend > 1); r_pend = 1 with r_alloc = 1 (log(1)/log(1)) and
 *     r_pend = 0 are "all reducers placed": uR = 0.
 * The cap u = min(1, uM + uR) never binds since uM <= 1 and uR <= 0, and a
 * placement never holds more tasks than pending. */
#include <math.h>
#include "formulations/ras.h"

double so_ras_u_map(int s_alloc, int s_req, int s_pend)
{
    if (s_pend <= 0 || s_alloc >= s_pend)
        return 1.0;
    if (s_alloc <= 0)
        return -INFINITY;
    if (s_alloc >= s_req)
        return (double)(s_alloc - s_req) / (double)(s_pend - s_req);
    return log((double)s_alloc) / log((double)s_req) - 1.0;
}

double so_ras_u_reduce(int r_alloc, int r_pend)
{
    if (r_alloc >= r_pend)
        return 0.0;
    if (r_alloc <= 0)
        return -1.0;
    return log((double)r_alloc) / log((double)r_pend) - 1.0;
}

double so_ras_utility(const so_ras_job *job, int s_alloc, int r_alloc)
{
    double u = so_ras_u_map(s_alloc, job->s_req, job->s_pend) +
               so_ras_u_reduce(r_alloc, job->r_pend);
    return u < 1.0 ? u : 1.0;
}

double so_ras_finite(double u) { return isinf(u) && u < 0 ? SO_RAS_STARVED : u; }
