/* bench_time_limits.c — `make bench BENCHES=time-limits`: every exact
 * backend of the registry at --time-limit 0.1, 1 and 10 on a hard
 * instance, as `slotopt solve` runs it under `/usr/bin/time -f '%e %M'`:
 * wall time and peak memory of the whole command (reading the instance
 * and writing the result included), the status, and whether the wall time
 * is within the tolerance of issue 26 (10 % or 0.1 s, whichever is
 * larger). The instances are generated into a temporary folder first;
 * the runs go one at a time (the 10 s column alone takes minutes). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/bench/bench.h"

typedef struct {
    const char *backend, *options; /* options: "" or " --opt k=v" */
    const char *file;              /* under the temporary folder */
    const char *what;              /* the instance, for the table */
} row;

/* Generation commands (run from the repository's root, %s = folder). */
static const char *const gens[] = {
    "bin/slotopt gen knapsack-jooken --set n=20000 --set g=10 --set c=1000000000"
    " --seed 1 --out %s/kpj >/dev/null",
    "bin/slotopt gen knapsack-jooken --seed 1 --out %s/kpj400 >/dev/null",
    "bin/slotopt gen knapsack --set n=10000 --set class=strongly --seed 1"
    " --out %s/kps >/dev/null",
    "bin/slotopt gen flex-paper --set jobs=40 --set slots=400"
    " --set metric=weighted-response --seed 1 --out %s/flex40 >/dev/null",
    "bin/slotopt gen flex-paper --set jobs=10 --set metric=weighted-tardiness"
    " --seed 1 --out %s/flex10 >/dev/null",
    "bin/slotopt gen pareto-yahoo --set jobs=5 --seed 1 --out %s/yahoo >/dev/null",
    "bin/slotopt gen ras-random --set tasktrackers=40 --set jobs=12 --seed 1"
    " --out %s/ras >/dev/null",
    "bin/slotopt gen ras-random --set tasktrackers=5 --set jobs=3 --set max_maps=6"
    " --set max_reduces=1 --seed 1 --out %s/rassmall >/dev/null",
};

static const row rows[] = {
    {"kp-dp", "", "kpj/knapsack-jooken-n=20000-g=10-c=1000000000-1-0.json",
     "Jooken n=20000 g=10 c=1e9"},
    {"kp-bnb", "", "kpj400/knapsack-jooken-1-0.json", "Jooken n=400 (defaults)"},
    {"kp-glpk", " --opt cuts=all", "kps/knapsack-n=10000-class=strongly-1-0.json",
     "strongly correlated n=10000"},
    {"rap", "", "rap-big.json", "40 jobs, 1e9 slots"},
    {"rap-greedy", "", "rap-big.json", "40 jobs, 1e9 slots"},
    {"rap-bisect", "", "rap-big.json", "40 jobs, 1e9 slots"},
    {"rap-dp", "", "rap-dp.json", "10 jobs, S=200000, M=1500"},
    {"rap-minimax", "", "rap-big-max.json", "40 jobs, 1e9 slots, makespan"},
    {"rap-glpk", "", "rap-40.json", "40 jobs x 4000 of 10000 slots"},
    {"flex-opt", "", "flex40/flex-paper-jobs=40-slots=400-metric=weighted-response-1-0.json",
     "flex-paper 40 jobs, 400 slots"},
    {"flex-exact", "", "flex40/flex-paper-jobs=40-slots=400-metric=weighted-response-1-0.json",
     "flex-paper 40 jobs, 400 slots"},
    {"flex-enum", "", "flex10/flex-paper-jobs=10-metric=weighted-tardiness-1-0.json",
     "flex-paper 10 jobs (its limit)"},
    {"pareto-sweep", "", "yahoo/pareto-yahoo-jobs=5-1-0.json", "Yahoo 5 jobs"},
    {"pareto-enum", " --opt max_plans=1e11", "yahoo/pareto-yahoo-jobs=5-1-0.json",
     "Yahoo 5 jobs"},
    {"pareto-glpk", " --opt max_columns=1000000", "yahoo/pareto-yahoo-jobs=5-1-0.json",
     "Yahoo 5 jobs"},
    {"ras-glpk", "", "ras/ras-random-tasktrackers=40-jobs=12-1-0.json",
     "ras-random 40 TaskTrackers, 12 jobs"},
    {"ras-enum", "", "rassmall/ras-random-tasktrackers=5-jobs=3-max_maps=6-max_reduces=1-1-0.json",
     "ras-random 5 x 3 (below its 1e8 placements)"},
    {"ras-exact", "", "ras/ras-random-tasktrackers=40-jobs=12-1-0.json",
     "ras-random 40 TaskTrackers, 12 jobs"},
};

/* The RAP instances (no family): 40 jobs with work 1000 (j + 1) + 37 j^2. */
static int write_rap(const char *path, long long slots, int max, const char *metric)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "{\"problem\": \"rap\", \"version\": 1, \"slots\": %lld,"
               " \"metric\": \"%s\", \"jobs\": [", slots, metric);
    for (int j = 0; j < 40; j++) {
        fprintf(f, "%s{\"work\": %d", j ? ", " : "", 1000 * (j + 1) + 37 * j * j);
        if (strcmp(metric, "makespan"))
            fprintf(f, ", \"weight\": %d", 1 + j % 3);
        if (max > 0)
            fprintf(f, ", \"max\": %d", max);
        fprintf(f, "}");
    }
    fprintf(f, "]}\n");
    return fclose(f);
}

static int write_rap_dp(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "{\"problem\": \"rap\", \"version\": 1, \"slots\": 200000,"
               " \"metric\": \"response\", \"jobs\": [");
    for (int j = 0; j < 10; j++)
        fprintf(f, "%s{\"work\": %d, \"min\": 1, \"max\": 1500}", j ? ", " : "",
                1000 * (j + 1));
    fprintf(f, "]}\n");
    return fclose(f);
}

/* Runs one cell; *wall, *mb and status (the result's "status") are set;
 * returns 0 when the command ran. */
static int run(const char *dir, const row *w, double limit, double *wall,
               double *mb, char *status, size_t len)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "/usr/bin/time -f '%%e %%M' -o %s/time.txt bin/slotopt solve -b %s%s"
             " --time-limit %g %s/%s > %s/out.json 2>/dev/null",
             dir, w->backend, w->options, limit, dir, w->file, dir);
    if (system(cmd) != 0)
        return -1;
    char path[1024];
    snprintf(path, sizeof path, "%s/time.txt", dir);
    FILE *f = fopen(path, "r");
    long kb = 0;
    int ok = f && fscanf(f, "%lf %ld", wall, &kb) == 2;
    if (f)
        fclose(f);
    *mb = (double)kb / 1024.0;
    snprintf(path, sizeof path, "%s/out.json", dir);
    json_t *o = json_load_file(path, 0, NULL);
    snprintf(status, len, "%s", o ? json_string_value(json_object_get(o, "status"))
                                        ? json_string_value(json_object_get(o, "status"))
                                        : "?"
                                  : "?");
    json_decref(o);
    return ok ? 0 : -1;
}

static void bench_time_limits(FILE *out)
{
    char dir[] = "/tmp/slotopt-bench-limits-XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(out, "## Time limits\n\ncannot create a temporary folder\n");
        return;
    }
    char cmd[2048], path[1024];
    int ok = 1;
    for (size_t g = 0; g < sizeof gens / sizeof gens[0] && ok; g++) {
        snprintf(cmd, sizeof cmd, gens[g], dir);
        ok = system(cmd) == 0;
    }
    snprintf(path, sizeof path, "%s/rap-big.json", dir);
    ok = ok && !write_rap(path, 1000000000LL, 0, "weighted-response");
    snprintf(path, sizeof path, "%s/rap-big-max.json", dir);
    ok = ok && !write_rap(path, 1000000000LL, 0, "makespan");
    snprintf(path, sizeof path, "%s/rap-40.json", dir);
    ok = ok && !write_rap(path, 10000, 4000, "weighted-response");
    snprintf(path, sizeof path, "%s/rap-dp.json", dir);
    ok = ok && !write_rap_dp(path);
    fprintf(out, "## Time limits: every exact backend at 0.1, 1 and 10 s\n\n"
                 "    make bench BENCHES=time-limits\n\n"
                 "Each cell is one `/usr/bin/time -f '%%e %%M' bin/slotopt solve -b"
                 " BACKEND [--opt ...] --time-limit L FILE`: wall seconds of the"
                 " whole command (reading the instance and writing the result"
                 " included) / peak resident MB / the result's status. Within:"
                 " every wall time at most max(1.1 L, L + 0.1). The instances"
                 " (generated first, `slotopt gen ... --seed 1`) are named in the"
                 " second column; the RAP ones are written by the bench (40 jobs"
                 " with work 1000 (j + 1) + 37 j^2, weights 1 + j mod 3).\n\n");
    if (!ok) {
        fprintf(out, "instance generation failed (run from the repository's root"
                     " after `make all`)\n");
        return;
    }
    fprintf(out, "| backend | instance | 0.1 s | 1 s | 10 s | within |\n"
                 "|---|---|---|---|---|---|\n");
    static const double limits[] = {0.1, 1, 10};
    int all_within = 1;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const row *w = &rows[i];
        fprintf(out, "| `%s%s` | %s |", w->backend, w->options, w->what);
        int within = 1;
        for (int l = 0; l < 3; l++) {
            double wall = 0, mb = 0;
            char status[32];
            if (run(dir, w, limits[l], &wall, &mb, status, sizeof status)) {
                fprintf(out, " failed |");
                within = 0;
                continue;
            }
            double allowed = limits[l] * 1.1 > limits[l] + 0.1 ? limits[l] * 1.1
                                                               : limits[l] + 0.1;
            within &= wall <= allowed;
            fprintf(out, " %.2f s / %.0f MB / %s |", wall, mb, status);
        }
        all_within &= within;
        fprintf(out, " %s |\n", within ? "yes" : "**no**");
        fflush(out);
    }
    fprintf(out, "\nAll within the tolerance: %s.\n", all_within ? "yes" : "**no**");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

SO_BENCH("time-limits", bench_time_limits)
