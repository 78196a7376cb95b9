/* pareto_tiny.h — random small Pareto instances for the tests. */
#ifndef SO_TEST_PARETO_TINY_H
#define SO_TEST_PARETO_TINY_H
#include "formulations/pareto.h"

/* A random instance with up to max_jobs jobs of at most max_tasks map and
 * reduce tasks; `window` 1 draws a deadline and budget window, else none.
 * Caller frees with so_pareto_free. */
so_pareto *so_test_pareto_random(so_rng *rng, int max_jobs, int max_tasks,
                                 int window);
/* The same wrapped in a problem. */
so_problem *so_test_pareto_problem(so_pareto *pr);

#endif
