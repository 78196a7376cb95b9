/* bench_slurm.c — cell throughput of a sweep as a Slurm batch job on this
 * machine: the private two-node cluster of the `slurm` test
 * (tests/tools/slurm_local.c) runs tools/scripts/slurm-sweep.sbatch with 1, 2 and
 * 4 tasks (MPI ranks) on a scenario of 1,000 cells (500 knapsack instances
 * x {kp-greedy, kp-glpk}, n = 300), beside `bench --jobs 1` and `--jobs 2`
 * on the same scenario outside Slurm. Wall time from submission to the
 * job's end as the submitter sees it (scontrol polled every 0.25 s), best
 * of 2. Needs root and Debian's Slurm; says so when it cannot start. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/bench/bench.h"
#include "tests/tools/slurm_local.h"

#ifndef SO_BINARY
#define SO_BINARY "bin/slotopt"
#endif
#define CELLS 1000

/* One sweep: tasks > 0 as a Slurm job, else --jobs -tasks. Wall seconds,
 * or < 0 when it failed. */
static double one_sweep(const so_slurm *s, const char *dir, const char *bin, int tasks)
{
    char db[700], cmd[16384];
    snprintf(db, sizeof db, "%s/run.db", dir);
    unlink(db);
    double t0 = so_now();
    if (tasks <= 0) {
        snprintf(cmd, sizeof cmd, "%s bench --scenario %s/sweep.json --jobs %d --db %s"
                 " >/dev/null 2>&1", bin, dir, -tasks, db);
        return system(cmd) == 0 ? so_now() - t0 : -1;
    }
    snprintf(cmd, sizeof cmd,
             "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
             " OMPI_MCA_btl='^vader' OMPI_MCA_btl_tcp_if_include=lo"
             " OMPI_MCA_oob_tcp_if_include=lo SLOTOPT='%s' SCENARIO='%s/sweep.json' DB='%s'"
             " timeout 20 sbatch --parsable --nodes=%d --ntasks=%d --output=%s/job.log"
             " --export=ALL tools/scripts/slurm-sweep.sbatch </dev/null >%s/job.id 2>&1",
             bin, dir, db, tasks > 2 ? 2 : 1, tasks, dir, dir);
    if (so_slurm_sh(s, cmd) != 0)
        return -1;
    char idf[700];
    snprintf(idf, sizeof idf, "%s/job.id", dir);
    FILE *fp = fopen(idf, "r");
    long id = 0;
    if (!fp || fscanf(fp, "%ld", &id) != 1)
        id = 0;
    if (fp)
        fclose(fp);
    if (id <= 0 || so_slurm_wait(s, id, 600) != 0)
        return -1;
    return so_now() - t0;
}

static void bench_slurm(FILE *out)
{
    fprintf(out, "### A sweep as a Slurm job: 1,000 cells with 1, 2 and 4 tasks\n\n"
                 "`make bench BENCHES=slurm` — tools/scripts/slurm-sweep.sbatch on a private"
                 " Slurm of two node daemons on this 2-core host (docs/harness.md, \"On"
                 " a cluster\"), 500 generated knapsack instances (n = 300, class"
                 " uncorrelated, seed 11) x {kp-greedy, kp-glpk}; 1 and 2 tasks on one"
                 " node, 4 on both; beside `bench --jobs` outside Slurm. Wall time from"
                 " submission to the job's end, best of 2.\n\n"
                 "| run | wall s | cells / s | speed-up vs --jobs 1 |\n"
                 "| --- | ---: | ---: | ---: |\n");
    so_slurm s;
    if (so_slurm_start(&s) != 0) {
        fprintf(out, "(not run: %s)\n", s.why);
        so_slurm_stop(&s);
        return;
    }
    char dir[] = "/tmp/slotopt-bench-slurm-XXXXXX", bin[PATH_MAX], cmd[1200];
    if (!mkdtemp(dir) || !realpath(SO_BINARY, bin)) {
        so_slurm_stop(&s);
        return;
    }
    snprintf(cmd, sizeof cmd, "%s/sweep.json", dir);
    FILE *fp = fopen(cmd, "w");
    if (fp) {
        fprintf(fp, "{\"backends\": [\"kp-greedy\"], \"reference\": \"kp-glpk\","
                    " \"inputs\": [{\"family\": \"knapsack\", \"params\": {\"n\": 300,"
                    " \"class\": \"uncorrelated\"}, \"count\": 500, \"seed\": 11}]}\n");
        fclose(fp);
    }
    static const int runs[] = {-1, -2, 1, 2, 4};
    double base = -1;
    for (size_t r = 0; fp && r < sizeof runs / sizeof *runs; r++) {
        double best = -1;
        for (int rep = 0; rep < 2; rep++) {
            double w = one_sweep(&s, dir, bin, runs[r]);
            if (w > 0 && (best < 0 || w < best))
                best = w;
        }
        char what[64];
        if (runs[r] < 0)
            snprintf(what, sizeof what, "--jobs %d (no Slurm)", -runs[r]);
        else
            snprintf(what, sizeof what, "sbatch, %d task%s", runs[r], runs[r] > 1 ? "s" : "");
        if (best < 0) {
            fprintf(out, "| %s | failed | | |\n", what);
            continue;
        }
        if (base < 0)
            base = best;
        fprintf(out, "| %s | %.2f | %.0f | %.2f |\n", what, best, CELLS / best, base / best);
    }
    int left = so_slurm_stop(&s);
    if (left)
        fprintf(out, "\n(%d Slurm processes survived the stop)\n", left);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}
SO_BENCH("slurm", bench_slurm)
