/* rap_gain.c — marginal gains of the convex RAP cost functions and the
 * number of slots a job takes at a marginal value (Wolf et al., Middleware
 * 2010, Section 3.2; Ibaraki and Katoh, "Resource Allocation Problems",
 * 1988, for the marginal-value view of greedy and bisection).
 *
 * Convex F_j(s) = omega C_j / s + beta (linear metrics) or
 * omega max(0, C_j / s - d_j) (tardiness): while both values are positive
 * the gain of the s-th slot is omega C_j / (s (s - 1)), computed in that
 * form so that it stays accurate for large s; at the tardiness kink it is
 * F_j(s - 1) - F_j(s). */
#include <math.h>
#include "solvers/rap.h"

static int tardiness(const so_flex *f)
{
    return f->metric == SO_FLEX_TARDINESS || f->metric == SO_FLEX_WTARDINESS;
}

double so_rap_gain(const so_flex *f, size_t j, int64_t s)
{
    double a = so_flex_omega(f, j) * f->work[j];
    if (tardiness(f) && !(f->work[j] / (double)s > f->deadline[j]))
        return so_rap_cost(f, j, s - 1) - so_rap_cost(f, j, s);
    return a / ((double)s * (double)(s - 1));
}

int64_t so_rap_count(const so_flex *f, size_t j, double lambda)
{
    int64_t lo = so_rap_lo(f, j), hi = f->max[j];
    double a = so_flex_omega(f, j) * f->work[j];
    if (!(a > 0) || lo >= hi)
        return lo;
    /* s (s - 1) <= a / lambda */
    double x = (1.0 + sqrt(1.0 + 4.0 * (a / lambda))) / 2.0;
    int64_t k = x >= (double)hi ? hi : (int64_t)x;
    if (tardiness(f) && f->deadline[j] > 0) {
        double s0 = ceil(f->work[j] / f->deadline[j]); /* F_j = 0 from here */
        if (s0 < (double)k)
            k = (int64_t)s0;
    }
    if (k < lo)
        k = lo;
    while (k > lo && !(so_rap_gain(f, j, k) >= lambda))
        k--;
    while (k < hi && so_rap_gain(f, j, k + 1) >= lambda)
        k++;
    return k;
}
