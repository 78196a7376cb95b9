/* bench_ras.c — RAS placement: the time of one placement by Algorithm 1
 * on 2,000 TaskTrackers, 200 jobs and 3 resources ("ras"), and the gap of
 * the heuristic against the exact ras-glpk on random instances of 5-10
 * TaskTrackers and 3-6 jobs, by number of rounds ("ras-gap"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "tests/bench/bench.h"
#include "formulations/ras.h"

static so_problem *random_instance(uint64_t seed, uint64_t index,
                                   const char *const *settings)
{
    so_params set;
    so_params_init(&set);
    so_error err;
    for (const char *const *s = settings; *s; s++)
        so_params_set_kv(&set, *s, &err);
    json_t *inst = NULL;
    so_problem *p = NULL;
    if (!so_family_generate(so_family_find("ras-random"), &set, seed, index,
                            &inst, &err))
        so_problem_from_json(inst, "bench", &p, &err);
    json_decref(inst);
    return p;
}

static so_result *solve(const so_problem *p, const char *backend, long rounds,
                        double time_limit)
{
    so_params prm;
    so_params_init(&prm);
    prm.time_limit = time_limit;
    if (rounds > 0) {
        char v[32];
        snprintf(v, sizeof v, "%ld", rounds);
        so_params_set(&prm, "rounds", v);
    }
    so_error err;
    so_error_clear(&err);
    so_result *r = NULL;
    so_solve(so_backend_find(backend), p, &prm, &r, &err);
    return r;
}

/* ---- one large placement ----------------------------------------------- */

typedef struct {
    const so_problem *p;
    long rounds;
    so_result *last;
    const char *backend; /* NULL: ras */
} timed_call;

static void run_heuristic(void *arg)
{
    timed_call *c = arg;
    so_result_free(c->last);
    c->last = solve(c->p, c->backend ? c->backend : "ras", c->rounds, 0);
}

static void bench_large(FILE *out)
{
    const char *const settings[] = {"tasktrackers=2000", "jobs=200",
                                    "resources=3", "max_maps=100",
                                    "max_reduces=10", NULL};
    so_problem *p = random_instance(2026, 0, settings);
    if (!p) {
        fprintf(out, "## RAS placement\n\n(instance generation failed)\n");
        return;
    }
    const so_ras *ras = so_ras_of(p);
    long maps = 0, reduces = 0;
    for (size_t j = 0; j < ras->J; j++) {
        maps += ras->jobs[j].s_pend;
        reduces += ras->jobs[j].r_pend;
    }
    fprintf(out, "## RAS placement (Algorithm 1)\n\n"
                 "    make bench BENCHES=ras\n\n"
                 "One placement by `ras` for 2,000 TaskTrackers, 200 jobs, 3"
                 " resources (`ras-random`, seed 2026: tasktrackers=2000"
                 " jobs=200 max_maps=100 max_reduces=10, tightness 1.5;"
                 " %ld pending maps, %ld pending reducers). Best of 5 runs,"
                 " side by side; target 100 ms.\n\n"
                 "| rounds | rounds run | best time (ms) | / 100 ms target |"
                 " min utility | utilisation |\n"
                 "|---:|---:|---:|---:|---:|---:|\n", maps, reduces);
    const long rounds[] = {1, 2, 10, 100};
    for (size_t k = 0; k < sizeof rounds / sizeof rounds[0]; k++) {
        timed_call c = {p, rounds[k], NULL, NULL};
        double t = so_bench_time(run_heuristic, &c, 5);
        if (c.last)
            fprintf(out, "| %ld | %lld | %.1f | %.2f | %.4f | %.4f |\n",
                    rounds[k],
                    (long long)json_integer_value(so_result_extra(c.last, "rounds_run")),
                    t * 1e3, t / 0.1,
                    so_result_objective(c.last),
                    json_real_value(so_result_extra(c.last, "utilisation")));
        so_result_free(c.last);
    }
    /* ras-plus in the same run: its rows go beside ras's */
    timed_call c = {p, 0, NULL, "ras-plus"};
    double t = so_bench_time(run_heuristic, &c, 5);
    if (c.last)
        fprintf(out, "| ras-plus | — | %.1f | %.2f | %.4f | %.4f |\n",
                t * 1e3, t / 0.1, so_result_objective(c.last),
                json_real_value(so_result_extra(c.last, "utilisation")));
    so_result_free(c.last);
    fprintf(out, "\n");
    so_problem_free(p);
}

/* ---- gap against the exact optimum -------------------------------------- */

#define GAP_INSTANCES 60
#define GAP_ROUNDS 5
static const long gap_rounds[GAP_ROUNDS] = {1, 2, 3, 5, 10};

typedef struct {
    double u, util, seconds, reducers;
} outcome;

/* NaN unless r has a placement (and, if `proven`, is optimal). */
static outcome outcome_of(const so_result *r, int proven)
{
    outcome o = {NAN, NAN, NAN, 0};
    if (r && so_result_has_objective(r) &&
        (!proven || so_result_status(r) == SO_OPTIMAL)) {
        size_t j;
        json_t *job;
        json_array_foreach(json_object_get(so_result_solution(r), "jobs"), j, job)
            o.reducers += (double)json_integer_value(json_object_get(job, "reduces"));
        o.u = so_result_objective(r);
        o.util = json_real_value(so_result_extra(r, "utilisation"));
        o.seconds = so_result_seconds(r);
    }
    return o;
}

static void gap_table(FILE *out, const char *tightness)
{
    outcome exact[GAP_INSTANCES], heur[GAP_ROUNDS][GAP_INSTANCES];
    int proven = 0;
    double exact_time = 0, exact_max = 0;
    for (int i = 0; i < GAP_INSTANCES; i++) {
        char tts[32], jobs[32], tight[32];
        snprintf(tts, sizeof tts, "tasktrackers=%d", 5 + i % 6);
        snprintf(jobs, sizeof jobs, "jobs=%d", 3 + (i / 6) % 4);
        snprintf(tight, sizeof tight, "tightness=%s", tightness);
        const char *const settings[] = {tts, jobs, tight, "max_maps=8",
                                        "max_reduces=2", NULL};
        so_problem *p = random_instance(2026, (uint64_t)i, settings);
        so_result *e = p ? solve(p, "ras-glpk", 0, 60) : NULL;
        exact[i] = outcome_of(e, 1);
        proven += !isnan(exact[i].u);
        exact_time += e ? so_result_seconds(e) : 0;
        exact_max = fmax(exact_max, e ? so_result_seconds(e) : 0);
        so_result_free(e);
        for (int k = 0; k < GAP_ROUNDS; k++) {
            so_result *h = p ? solve(p, "ras", gap_rounds[k], 0) : NULL;
            heur[k][i] = outcome_of(h, 0);
            so_result_free(h);
        }
        so_problem_free(p);
    }
    double red_exact = 0, red_heur = 0;
    for (int i = 0; i < GAP_INSTANCES; i++)
        if (!isnan(exact[i].u)) {
            red_exact += exact[i].reducers;
            red_heur += heur[GAP_ROUNDS - 1][i].reducers;
        }
    fprintf(out, "Tightness %s: ras-glpk proved %d of %d optimal within 60 s"
                 " (mean %.2f s, max %.2f s); the gaps are over those."
                 " Reducers placed per instance: %.2f by the optimum, %.2f by"
                 " ras.\n\n"
                 "| rounds | optimal min utility | starves a job the optimum"
                 " does not | mean / max min-utility gap (others) |"
                 " mean utilisation gap, pp (all) | mean utilisation gap, pp"
                 " (optimal min) |\n|---:|---:|---:|---|---:|---:|\n",
            tightness, proven, GAP_INSTANCES, exact_time / GAP_INSTANCES,
            exact_max, proven ? red_exact / proven : 0.0,
            proven ? red_heur / proven : 0.0);
    for (int k = 0; k < GAP_ROUNDS; k++) {
        int reached = 0, starved = 0, finite = 0, n_opt = 0, n = 0;
        double gap_sum = 0, gap_max = 0, util_sum = 0, util_opt = 0;
        for (int i = 0; i < GAP_INSTANCES; i++) {
            outcome e = exact[i], h = heur[k][i];
            if (isnan(e.u) || isnan(h.u))
                continue;
            n++;
            util_sum += 100 * (e.util - h.util);
            if (h.u >= e.u - 1e-9) {
                reached++;
                n_opt++;
                util_opt += 100 * (e.util - h.util);
            } else if (h.u <= SO_RAS_STARVED && e.u > SO_RAS_STARVED) {
                starved++;
            }
            if (h.u > SO_RAS_STARVED) {
                finite++;
                gap_sum += e.u - h.u;
                gap_max = fmax(gap_max, e.u - h.u);
            }
        }
        fprintf(out, "| %ld | %d / %d | %d | %.3f / %.3f | %.2f | %.2f |\n",
                gap_rounds[k], reached, n, starved,
                finite ? gap_sum / finite : 0.0, gap_max,
                n ? util_sum / n : 0.0, n_opt ? util_opt / n_opt : 0.0);
    }
    fprintf(out, "\n");
}

static void bench_gap(FILE *out)
{
    fprintf(out, "## RAS optimality gap (ras vs ras-glpk)\n\n"
                 "    make bench BENCHES=ras-gap\n\n"
                 "%d `ras-random` instances (seed 2026, index i: 5 + i %% 6"
                 " TaskTrackers, 3 + (i / 6) %% 4 jobs, max_maps=8,"
                 " max_reduces=2, other parameters default). Minimum-utility"
                 " gap = optimum - heuristic (utility units) over the"
                 " instances where the heuristic starves no job;"
                 " utilisation gap in percentage points (negative: the"
                 " heuristic packs more at a lower minimum utility).\n\n",
            GAP_INSTANCES);
    gap_table(out, "1.5");
    gap_table(out, "0.75");
}

/* ---- ras-plus against the exact optimum, ras-exact against ras-glpk ---- */

#define PLUS_INSTANCES 50

static void bench_plus_gap(FILE *out)
{
    int proven = 0, above = 0, reached = 0, proven_x = 0;
    double gap = 0, gap_max = 0, gap_x = 0, gap_ras = 0, t_plus = 0, t_plus_max = 0;
    for (int i = 0; i < PLUS_INSTANCES; i++) {
        char tts[32], jobs[32];
        snprintf(tts, sizeof tts, "tasktrackers=%d", 5 + i % 6);
        snprintf(jobs, sizeof jobs, "jobs=%d", 3 + (i / 6) % 4);
        const char *const settings[] = {tts, jobs, "max_maps=8",
                                        "max_reduces=2", NULL};
        so_problem *p = random_instance(2026, (uint64_t)i, settings);
        so_result *e = p ? solve(p, "ras-glpk", 0, 60) : NULL;
        so_result *x = p ? solve(p, "ras-exact", 0, 60) : NULL;
        so_result *h = p ? solve(p, "ras-plus", 0, 0) : NULL;
        so_result *a = p ? solve(p, "ras", 0, 0) : NULL;
        outcome oe = outcome_of(e, 1), ox = outcome_of(x, 1);
        outcome oh = outcome_of(h, 0), oa = outcome_of(a, 0);
        t_plus += oh.seconds;
        t_plus_max = fmax(t_plus_max, oh.seconds);
        if (!isnan(oe.u) && !isnan(oh.u)) {
            proven++;
            gap += oe.u - oh.u;
            gap_ras += oe.u - oa.u;
            gap_max = fmax(gap_max, oe.u - oh.u);
            above += oh.u > oe.u + 1e-9;
            reached += oh.u >= oe.u - 1e-9;
        }
        if (!isnan(ox.u) && !isnan(oh.u)) {
            proven_x++;
            gap_x += ox.u - oh.u;
            above += oh.u > ox.u + 1e-9;
        }
        so_result_free(e);
        so_result_free(x);
        so_result_free(h);
        so_result_free(a);
        so_problem_free(p);
    }
    fprintf(out, "## RAS: ras-plus against the exact optimum\n\n"
                 "    make bench BENCHES=ras-plus-gap\n\n"
                 "%d `ras-random` instances (seed 2026, index i: 5 + i %% 6"
                 " TaskTrackers, 3 + (i / 6) %% 4 jobs, max_maps=8,"
                 " max_reduces=2, tightness 1.5). Gap = optimum - heuristic"
                 " minimum utility (utility units), over every instance the"
                 " exact backend proved (a starved job counts at -3).\n\n"
                 "| reference | proved | ras-plus mean / max gap | ras-plus"
                 " optimal | ras mean gap |\n|---|---:|---|---:|---:|\n"
                 "| ras-glpk (60 s) | %d | %.4f / %.4f | %d | %.4f |\n"
                 "| ras-exact (60 s) | %d | %.4f | — | — |\n\n"
                 "ras-plus above an optimum: %d times. ras-plus time: mean"
                 " %.1f ms, max %.1f ms.\n\n",
            PLUS_INSTANCES, proven, proven ? gap / proven : 0.0, gap_max,
            reached, proven ? gap_ras / proven : 0.0, proven_x,
            proven_x ? gap_x / proven_x : 0.0, above,
            1e3 * t_plus / PLUS_INSTANCES, 1e3 * t_plus_max);
}

static void bench_exact(FILE *out)
{
    const char *const files[] = {"instances/ras/gridmix-t700.json",
                                 "instances/ras/gridmix-t2600.json"};
    fprintf(out, "## RAS: ras-exact against ras-glpk\n\n"
                 "    make bench BENCHES=ras-exact\n\n"
                 "The shipped Gridmix snapshots, one run each, time limit"
                 " 60 s, side by side.\n\n"
                 "| instance | backend | status | min utility | bound |"
                 " utilisation | seconds |\n|---|---|---|---:|---:|---:|---:|\n");
    for (size_t f = 0; f < 2; f++) {
        so_problem *p = NULL;
        so_error err;
        if (so_problem_read(files[f], &p, &err)) {
            fprintf(out, "| %s | (cannot read: run from the repository) |||||\n",
                    files[f]);
            continue;
        }
        const char *const names[] = {"ras-exact", "ras-glpk"};
        for (int b = 0; b < 2; b++) {
            so_result *r = solve(p, names[b], 0, 60);
            if (r && so_result_has_objective(r))
                fprintf(out, "| %s | %s | %s | %.4f | %.4f | %.4f | %.2f |\n",
                        files[f] + 14, names[b],
                        so_status_str(so_result_status(r)),
                        so_result_objective(r), so_result_bound(r),
                        json_real_value(so_result_extra(r, "utilisation")),
                        so_result_seconds(r));
            else
                fprintf(out, "| %s | %s | %s | — | — | — | %.2f |\n",
                        files[f] + 14, names[b],
                        r ? so_status_str(so_result_status(r)) : "error",
                        r ? so_result_seconds(r) : 0.0);
            so_result_free(r);
        }
        so_problem_free(p);
    }
    fprintf(out, "\n");
}

SO_BENCH("ras", bench_large)
SO_BENCH("ras-plus-gap", bench_plus_gap)
SO_BENCH("ras-exact", bench_exact)
SO_BENCH("ras-gap", bench_gap)
