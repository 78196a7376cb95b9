/* deadline.h — a backend's time limit as a point on the monotonic clock
 * (internal; solvers/common/deadline.c). An exact backend takes its
 * deadline on entry and every stage counts against it: model building,
 * LPs, cuts, enumeration, search; each GLPK call gets what is left. A
 * deadline of 0 means no limit. */
#ifndef SO_DEADLINE_H
#define SO_DEADLINE_H
#include "slotopt.h"

/* so_now() + prm->time_limit, or 0 when prm has no limit (or is NULL). */
double so_deadline_of(const so_params *prm);
/* Non-zero when the deadline is set and has passed. */
int so_deadline_passed(double deadline);
/* Seconds left (never below 0), INFINITY without a deadline. */
double so_deadline_left(double deadline);
/* A copy of prm whose time limit is what is left of the deadline (at least
 * 1 ms, so that it stays a limit; callers check so_deadline_passed first). */
so_params so_params_until(const so_params *prm, double deadline);

/* A cheap check for long loops: reads the clock every 2^k calls.
 *   so_clock c = SO_CLOCK_INIT(deadline, 10);
 *   while (...) { if (so_clock_over(&c)) break; ... } */
typedef struct so_clock {
    double deadline;
    unsigned long mask, n;
    int over;
} so_clock;
#define SO_CLOCK_INIT(deadline, k) {(deadline), (1ul << (k)) - 1, 0, 0}
int so_clock_over(so_clock *c);

#endif
