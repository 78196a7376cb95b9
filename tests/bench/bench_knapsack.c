/* bench_knapsack.c — the exact knapsack backends side by side on Pisinger's
 * classes, n = 10,000, R = 1000, capacity = half the total weight; every
 * instance is solved by all three in the same run. */
#include <stdio.h>
#include "tests/bench/bench.h"

#define PER_CLASS 5

static so_problem *instance(const char *cls, uint64_t index)
{
    so_params set;
    so_params_init(&set);
    so_params_set(&set, "n", "10000");
    so_params_set(&set, "R", "1000");
    so_params_set(&set, "class", cls);
    json_t *j = NULL;
    so_problem *p = NULL;
    so_error err;
    if (so_family_generate(so_family_find("knapsack"), &set, 2026, index, &j, &err) ||
        so_problem_from_json(j, cls, &p, &err))
        p = NULL;
    json_decref(j);
    return p;
}

static void bench_kp_exact(FILE *out)
{
    static const char *classes[] = {"uncorrelated", "weakly", "strongly",
                                    "inverse-strongly", "almost-strongly",
                                    "subset-sum", "similar-weights"};
    static const char *backends[] = {"kp-dp", "kp-bnb", "kp-glpk"};
    fprintf(out, "### Knapsack: exact backends, n = 10,000, R = 1000\n\n"
                 "`make bench BENCHES=kp-exact` — %d generated instances per class"
                 " (`slotopt gen knapsack --seed 2026 --set n=10000 --set class=C`),"
                 " time limit 10 s per solve. Cells: instances proved optimal /"
                 " mean seconds / max seconds; the last two columns are mean-time"
                 " ratios to kp-dp in this run.\n\n", PER_CLASS);
    fprintf(out, "| class | kp-dp | kp-bnb | kp-glpk | bnb/dp | glpk/dp |\n"
                 "|---|---|---|---|---|---|\n");
    for (size_t c = 0; c < sizeof classes / sizeof classes[0]; c++) {
        int proved[3] = {0};
        double sum[3] = {0}, max[3] = {0};
        for (uint64_t i = 0; i < PER_CLASS; i++) {
            so_problem *p = instance(classes[c], i);
            if (!p)
                continue;
            for (int b = 0; b < 3; b++) {
                so_params prm;
                so_params_init(&prm);
                prm.time_limit = 10;
                so_result *r = NULL;
                so_error err;
                if (so_solve(so_backend_find(backends[b]), p, &prm, &r, &err) < 0)
                    continue;
                proved[b] += so_result_status(r) == SO_OPTIMAL;
                double s = so_result_seconds(r);
                sum[b] += s;
                if (s > max[b])
                    max[b] = s;
                so_result_free(r);
            }
            so_problem_free(p);
        }
        fprintf(out, "| %s |", classes[c]);
        for (int b = 0; b < 3; b++)
            fprintf(out, " %d/%d, %.4f, %.4f |", proved[b], PER_CLASS,
                    sum[b] / PER_CLASS, max[b]);
        fprintf(out, " %.1f | %.1f |\n", sum[1] / sum[0], sum[2] / sum[0]);
        fflush(out);
    }
}
SO_BENCH("kp-exact", bench_kp_exact)
