/* bench.h — self-registering benchmarks for `make bench`.
 *
 * A benchmark prints a markdown section (heading, the command that
 * reproduces it, a table of figures and ratios measured side by side in
 * the same run) to the stream it is given. */
#ifndef SO_BENCH_H
#define SO_BENCH_H
#include <stdio.h>
#include "slotopt.h"

typedef void (*so_bench_fn)(FILE *out);
void so_bench_add(const char *name, so_bench_fn fn);

#define SO_BENCH(name, fn)                                                    \
    __attribute__((constructor)) static void so_register_bench_##fn(void)     \
    {                                                                         \
        so_bench_add(name, fn);                                               \
    }

/* Best (minimum) wall time in seconds of `reps` calls of fn(arg). */
double so_bench_time(void (*fn)(void *), void *arg, int reps);

#endif
