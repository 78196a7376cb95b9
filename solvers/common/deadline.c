/* deadline.c — time limits as absolute deadlines (see deadline.h). */
#include <math.h>
#include "solvers/common/deadline.h"

double so_deadline_of(const so_params *prm)
{
    return prm && prm->time_limit > 0 ? so_now() + prm->time_limit : 0;
}

int so_deadline_passed(double deadline)
{
    return deadline > 0 && so_now() >= deadline;
}

double so_deadline_left(double deadline)
{
    if (!(deadline > 0))
        return INFINITY;
    double left = deadline - so_now();
    return left > 0 ? left : 0;
}

so_params so_params_until(const so_params *prm, double deadline)
{
    so_params p;
    if (prm)
        p = *prm;
    else
        so_params_init(&p);
    if (deadline > 0)
        p.time_limit = fmax(1e-3, so_deadline_left(deadline));
    return p;
}

int so_clock_over(so_clock *c)
{
    if (c->over)
        return 1;
    if (!(c->deadline > 0) || (c->n++ & c->mask))
        return 0;
    c->over = so_now() >= c->deadline;
    return c->over;
}
