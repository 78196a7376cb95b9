/* bench_harness_mpi.c — throughput of `slotopt bench --mpi` (tools/
 * harness_mpi.c): 1,000 cells (500 small knapsack instances x {kp-greedy,
 * kp-glpk}) with 1, 2 and 4 MPI ranks on this machine, beside the local
 * pool with 1 and 2 workers, for two instance sizes. With one rank, rank 0
 * runs the cells itself (--jobs 1); with N > 1, rank 0 hands out cells and
 * writes the database and N - 1 ranks run cells. Cores busy = CPU time of
 * mpirun and every rank (and their workers) / wall time. Skipped when the
 * program has no MPI or mpirun is missing. */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "tests/bench/bench.h"

#ifndef SO_BINARY
#define SO_BINARY "bin/slotopt"
#endif
#define MPIRUN "mpirun --allow-run-as-root --oversubscribe --enable-recovery" \
               " --mca btl_vader_single_copy_mechanism none" \
               " --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo"

static double children_cpu(void)
{
    struct rusage u;
    getrusage(RUSAGE_CHILDREN, &u);
    return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec +
           (double)u.ru_stime.tv_sec + 1e-6 * (double)u.ru_stime.tv_usec;
}

/* One run: ranks > 0 under mpirun, else the local pool with -ranks jobs.
 * Wall seconds (< 0: failed) and cores busy. */
static double one_run(const char *dir, int ranks, double *busy)
{
    char db[600], cmd[2400];
    snprintf(db, sizeof db, "%s/run.db", dir);
    unlink(db);
    if (ranks > 0)
        snprintf(cmd, sizeof cmd, MPIRUN " -np %d %s bench --mpi --backends kp-greedy"
                 " --reference kp-glpk --db %s %s/in >/dev/null 2>&1", ranks, SO_BINARY, db, dir);
    else
        snprintf(cmd, sizeof cmd, "%s bench --jobs %d --backends kp-greedy"
                 " --reference kp-glpk --db %s %s/in >/dev/null 2>&1", SO_BINARY, -ranks, db, dir);
    double c0 = children_cpu(), t0 = so_now();
    int rc = system(cmd);
    double wall = so_now() - t0;
    *busy = (children_cpu() - c0) / wall;
    return rc == 0 ? wall : -1;
}

static void bench_harness_mpi(FILE *out)
{
    fprintf(out, "### Harness over MPI: 1,000 cells\n\n"
                 "`make bench BENCHES=harness-mpi` — 500 generated knapsack instances"
                 " (class uncorrelated, seed 11) x {kp-glpk, kp-greedy}; `mpirun -np N"
                 " slotopt bench --mpi` on this machine (N = 1: rank 0 runs the cells"
                 " itself; N > 1: N - 1 ranks run cells, rank 0 hands them out and"
                 " writes the database), beside the local pool (`--jobs`). Wall time of"
                 " the whole command (MPI start-up included), best of 2; cores busy ="
                 " CPU time of every process / wall time.\n\n"
                 "| items n | run | wall s | cells / s | cores busy | speed-up vs --jobs 1 |\n"
                 "| ---: | --- | ---: | ---: | ---: | ---: |\n");
    if (system("command -v mpirun >/dev/null 2>&1") != 0) {
        fprintf(out, "(skipped: mpirun not found)\n");
        return;
    }
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    static const char *const sizes[] = {"20", "300"};
    static const int runs[] = {-1, -2, 1, 2, 4};
    for (int k = 0; k < 2; k++) {
        char dir[] = "/tmp/slotopt-bench-mpi-XXXXXX", cmd[600];
        if (!mkdtemp(dir))
            return;
        snprintf(cmd, sizeof cmd, "%s gen knapsack --count 500 --seed 11 --set n=%s"
                 " --out %s/in >/dev/null 2>&1", SO_BINARY, sizes[k], dir);
        double base = -1;
        if (system(cmd) == 0)
            for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
                double best = -1, busy = 0;
                for (int rep = 0; rep < 2; rep++) {
                    double b, w = one_run(dir, runs[r], &b);
                    if (w > 0 && (best < 0 || w < best)) {
                        best = w;
                        busy = b;
                    }
                }
                char what[64];
                if (runs[r] < 0)
                    snprintf(what, sizeof what, "--jobs %d", -runs[r]);
                else
                    snprintf(what, sizeof what, "--mpi, %d rank%s", runs[r], runs[r] > 1 ? "s" : "");
                if (best < 0) {
                    fprintf(out, "| %s | %s | failed | | | |\n", sizes[k], what);
                    continue;
                }
                if (base < 0)
                    base = best;
                fprintf(out, "| %s | %s | %.2f | %.0f | %.2f | %.2f |\n", sizes[k], what, best,
                        1000 / best, busy, base / best);
            }
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir);
    }
}
SO_BENCH("harness-mpi", bench_harness_mpi)
