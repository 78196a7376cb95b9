/* bench_kp_combo.c — `make bench` (or BENCHES=kp-vs-combo): kp-dp on
 * Pisinger's classes at R = 1e3 ... 1e7 and n = 1e3 ... 1e5, the Jooken
 * grid and Pisinger's files, side by side with combo when the user names
 * a copy (make bench COMBO=PATH/TO/combo.c; it is not part of slotopt),
 * kp-dp alone otherwise. It runs tools/scripts/bench_vs_combo.sh, which
 * solves once per fresh process and measures the CPU time and peak memory
 * of the solve call; the environment variables that script reads (SETS,
 * CLASSES, RS, NS, COUNT, ...) narrow the run. Its table goes to out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/bench/bench.h"

static void bench_kp_combo(FILE *out)
{
    const char *combo = getenv("COMBO");
    const char *limit = getenv("KP_LIMIT");
    char cmd[4096];
    if (combo && strchr(combo, '\'')) {
        fprintf(out, "COMBO: a path without quotes, please: %s\n", combo);
        return;
    }
    snprintf(cmd, sizeof cmd, "tools/scripts/bench_vs_combo.sh '%s' %s",
             combo && *combo ? combo : "-", limit && *limit ? limit : "10");
    fprintf(out, "### kp-dp against combo (%s)\n\n",
            combo && *combo ? combo : "kp-dp alone: COMBO not given");
    fflush(out);
    FILE *p = popen(cmd, "r");
    if (!p) {
        fprintf(out, "cannot run %s\n", cmd);
        return;
    }
    char line[4096];
    while (fgets(line, sizeof line, p))
        fputs(line, out);
    int rc = pclose(p);
    if (rc != 0)
        fprintf(out, "\n(bench_vs_combo.sh exited with status %d)\n", rc);
}

SO_BENCH("kp-vs-combo", bench_kp_combo)
