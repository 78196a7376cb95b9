/* bench_main.c — runs every registered benchmark (or those named on the
 * command line) and prints markdown for docs/BENCHMARKS.md. */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "tests/bench/bench.h"

#define MAX_BENCH 128
static struct {
    const char *name;
    so_bench_fn fn;
} benches[MAX_BENCH];
static int n_benches;

void so_bench_add(const char *name, so_bench_fn fn)
{
    if (n_benches < MAX_BENCH) {
        benches[n_benches].name = name;
        benches[n_benches].fn = fn;
        n_benches++;
    }
}

double so_bench_time(void (*fn)(void *), void *arg, int reps)
{
    double best = 1e300;
    for (int i = 0; i < reps; i++) {
        double t0 = so_now();
        fn(arg);
        double t = so_now() - t0;
        if (t < best)
            best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    struct utsname u;
    uname(&u);
    printf("<!-- slotopt %s, %s %s -->\n", SO_VERSION, u.sysname, u.machine);
    int ran = 0;
    for (int b = 0; b < n_benches; b++) {
        int wanted = argc < 2;
        for (int a = 1; a < argc && !wanted; a++)
            wanted = strcmp(argv[a], benches[b].name) == 0;
        if (!wanted)
            continue;
        printf("\n");
        benches[b].fn(stdout);
        fflush(stdout);
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "no benchmark matched; known:");
        for (int b = 0; b < n_benches; b++)
            fprintf(stderr, " %s", benches[b].name);
        fprintf(stderr, "\n");
        return 1;
    }
    return 0;
}
