/* bench_kp_dp.c — the new kp-dp against kp-dp as it was before issue 18
 * (tests/bench/kp_dp_old.c, the code of commit 63c171b), side by side in
 * one run, every instance solved by both: Pisinger's seven classes at
 * n = 10,000 (5 each), strongly and inverse-strongly correlated at
 * n = 100,000 (3 each), the Pisinger instances shipped in instances/, and
 * generated hard instances of Jooken et al. (knapsack-jooken). Solve time
 * only (so_solve's clock), time limit 10 s per solve; best of 3 rounds
 * when both solve in under 0.5 s. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/bench/bench.h"

int so_kp_dp_old_solve(const so_problem *p, const so_params *prm, so_result *r);

static const so_backend old_dp = {"kp-dp-old", "knapsack", 1,
                                  "kp-dp before issue 18", so_kp_dp_old_solve,
                                  NULL};

#define LIMIT 10.0
#define MAXI 64

typedef struct {
    int count, proved[2];
    double t[2][MAXI];
} row;

static so_problem *generate(const char *family, const char *const *kv,
                            uint64_t index)
{
    so_params set;
    so_params_init(&set);
    for (int k = 0; kv[k]; k += 2)
        so_params_set(&set, kv[k], kv[k + 1]);
    json_t *j = NULL;
    so_problem *p = NULL;
    so_error err;
    if (so_family_generate(so_family_find(family), &set, 2026, index, &j, &err) ||
        so_problem_from_json(j, family, &p, &err))
        p = NULL;
    json_decref(j);
    return p;
}

/* both backends on p, alternating, best of 3 rounds while both take under
 * 0.5 s (the machine is shared); objectives must agree when both prove
 * optimality */
static void measure(row *r, so_problem *p, FILE *out)
{
    const so_backend *b[2] = {&old_dp, so_backend_find("kp-dp")};
    double z[2] = {0, 0}, best[2] = {1e300, 1e300};
    int st[2] = {0, 0};
    for (int round = 0;
         round == 0 || (round < 3 && best[0] < 0.5 && best[1] < 0.5);
         round++)
    for (int k = 0; k < 2; k++) {
        so_params prm;
        so_params_init(&prm);
        prm.time_limit = LIMIT;
        so_result *res = NULL;
        so_error err;
        double s = LIMIT;
        if (so_solve(b[k], p, &prm, &res, &err) > 0) {
            st[k] = so_result_status(res);
            z[k] = so_result_objective(res);
            s = so_result_seconds(res);
        }
        so_result_free(res);
        if (s < best[k])
            best[k] = s;
    }
    for (int k = 0; k < 2; k++) {
        r->proved[k] += st[k] == SO_OPTIMAL;
        if (r->count < MAXI)
            r->t[k][r->count] = best[k];
    }
    if (st[0] == SO_OPTIMAL && st[1] == SO_OPTIMAL && z[0] != z[1])
        fprintf(out, "\n**DISAGREEMENT** %s: old %.17g new %.17g\n\n",
                so_problem_name(p), z[0], z[1]);
    r->count++;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double s[MAXI] = {0};
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, by_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static double maximum(const double *v, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

static void print_row(FILE *out, const char *what, const row *r)
{
    int n = r->count < MAXI ? r->count : MAXI;
    double ratio[MAXI] = {0};
    if (n == 0) {
        fprintf(out, "| %s | 0 | | | | | | | |\n", what);
        return;
    }
    for (int i = 0; i < n; i++)
        ratio[i] = r->t[0][i] / (r->t[1][i] > 1e-6 ? r->t[1][i] : 1e-6);
    fprintf(out, "| %s | %d | %d/%d | %.4f | %.4f | %d/%d | %.4f | %.4f | %.1f |\n",
            what, n, r->proved[0], n, median(r->t[0], n), maximum(r->t[0], n),
            r->proved[1], n, median(r->t[1], n), maximum(r->t[1], n),
            median(ratio, n));
    fflush(out);
}

static void bench_kp_dp(FILE *out)
{
    fprintf(out, "### Knapsack: kp-dp against kp-dp before issue 18\n\n"
                 "`make bench BENCHES=kp-dp-vs-old` — both in the same run on"
                 " every instance, solve time only, limit %.0f s per solve."
                 " Generated with seed 2026 (`slotopt gen knapsack --seed 2026"
                 " --set n=N --set class=C`, `slotopt gen knapsack-jooken"
                 " --seed 2026 --set g=G --set c=C`). Columns: instances,"
                 " proved / median s / max s for the old and the new kp-dp,"
                 " and the median per-instance speed-up old/new. Times are the best"
                 " of 3 alternating rounds when both take under 0.5 s.\n\n",
            LIMIT);
    fprintf(out, "| instances | count | old proved | old median | old max |"
                 " new proved | new median | new max | speed-up |\n"
                 "|---|---|---|---|---|---|---|---|---|\n");
    static const char *classes[] = {"uncorrelated", "weakly", "strongly",
                                    "inverse-strongly", "almost-strongly",
                                    "subset-sum", "similar-weights"};
    for (size_t c = 0; c < 7; c++) {
        row r = {0};
        for (uint64_t i = 0; i < 5; i++) {
            const char *kv[] = {"n", "10000", "R", "1000", "class", classes[c], NULL};
            so_problem *p = generate("knapsack", kv, i);
            if (p)
                measure(&r, p, out);
            so_problem_free(p);
        }
        char what[64];
        snprintf(what, sizeof what, "%s, n = 10,000", classes[c]);
        print_row(out, what, &r);
    }
    for (size_t c = 2; c < 4; c++) {
        row r = {0};
        for (uint64_t i = 0; i < 3; i++) {
            const char *kv[] = {"n", "100000", "R", "1000", "class", classes[c], NULL};
            so_problem *p = generate("knapsack", kv, i);
            if (p)
                measure(&r, p, out);
            so_problem_free(p);
        }
        char what[64];
        snprintf(what, sizeof what, "%s, n = 100,000", classes[c]);
        print_row(out, what, &r);
    }
    row pis = {0};
    DIR *d = opendir("instances/knapsack/pisinger");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strstr(e->d_name, ".kp"))
            continue;
        char path[512];
        snprintf(path, sizeof path, "instances/knapsack/pisinger/%s", e->d_name);
        so_problem *p = NULL;
        so_error err;
        if (!so_problem_read(path, &p, &err))
            measure(&pis, p, out);
        so_problem_free(p);
    }
    if (d)
        closedir(d);
    print_row(out, "instances/knapsack/pisinger (all)", &pis);
    static const char *gs[] = {"2", "6", "10"};
    static const char *cs[] = {"1000000", "10000000000"};
    for (int g = 0; g < 3; g++)
        for (int c = 0; c < 2; c++) {
            row r = {0};
            for (uint64_t i = 0; i < 2; i++) {
                const char *kv[] = {"n", "400", "g", gs[g], "c", cs[c], NULL};
                so_problem *p = generate("knapsack-jooken", kv, i);
                if (p)
                    measure(&r, p, out);
                so_problem_free(p);
            }
            char what[96];
            snprintf(what, sizeof what, "jooken n = 400, g = %s, c = %s", gs[g], cs[c]);
            print_row(out, what, &r);
        }
    fprintf(out, "\n");
}
SO_BENCH("kp-dp-vs-old", bench_kp_dp)
