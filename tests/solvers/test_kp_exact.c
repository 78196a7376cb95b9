/* test_kp_exact.c — the exact knapsack backends against known optima,
 * against each other and against brute force; the greedy's guarantee. */
#include <math.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/solvers/kp_testing.h"
#include "formulations/knapsack.h"
#include "solvers/kp_exact_internal.h"

static const char *const exact[] = {"kp-dp", "kp-bnb", "kp-glpk"};
#define N_EXACT 3

static so_result *run_opt(const char *backend, const so_problem *p,
                          double limit, const char *option)
{
    so_params prm;
    so_params_init(&prm);
    prm.time_limit = limit;
    if (option)
        CU_ASSERT_EQUAL_FATAL(so_params_set_kv(&prm, option, NULL), SO_OK);
    so_result *r = NULL;
    so_error err;
    int rc = so_solve(so_backend_find(backend), p, &prm, &r, &err);
    CU_ASSERT_TRUE_FATAL(rc > 0);
    return r;
}

static so_result *run(const char *backend, const so_problem *p, double limit)
{
    return run_opt(backend, p, limit, NULL);
}

static void test_pisinger_optima(void)
{
    FILE *fp = fopen("instances/knapsack/pisinger/optima.csv", "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    char line[256];
    int checked = 0;
    while (fgets(line, sizeof line, fp)) {
        char *comma = strchr(line, ',');
        if (!comma)
            continue;
        *comma = '\0';
        double optimum = atof(comma + 1);
        char path[512];
        snprintf(path, sizeof path, "instances/knapsack/pisinger/%s.kp", line);
        so_problem *p = NULL;
        so_error err;
        CU_ASSERT_EQUAL_FATAL(so_problem_read(path, &p, &err), SO_OK);
        /* plain GLPK finds f8's optimum but cannot prove it in minutes (a
         * subset-sum-like instance: it needs MIR cuts), hence the limit for
         * the plain run and the proof with cuts=mir */
        so_result *plain = run("kp-glpk", p, 2);
        CU_ASSERT_DOUBLE_EQUAL(so_result_objective(plain), optimum, 1e-4);
        so_result_free(plain);
        for (int b = 0; b < N_EXACT; b++) {
            so_result *r = run_opt(exact[b], p, 0, b == 2 ? "cuts=mir" : NULL);
            /* f5 has 6 decimals: scaled totals of 5e8, a resolution GLPK's
             * relative tolerances cannot certify; it still finds the value */
            int want = b == 2 && so_kp_of(p)->decimals ? SO_FEASIBLE : SO_OPTIMAL;
            CU_ASSERT_EQUAL(so_result_status(r), want);
            /* optima.csv rounds the real-valued f5 to 4 decimals */
            CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), optimum, 1e-4);
            if (so_result_status(r) == SO_OPTIMAL)
                CU_ASSERT_DOUBLE_EQUAL(so_result_bound(r), so_result_objective(r), 1e-9);
            so_test_kp_check_solution(so_kp_of(p), r);
            so_result_free(r);
        }
        so_problem_free(p);
        checked++;
    }
    fclose(fp);
    CU_ASSERT_EQUAL(checked, 19);
}

static so_problem *generate(const char *cls, int n, int R, double cap,
                            uint64_t seed, uint64_t index)
{
    so_params set;
    so_params_init(&set);
    char buf[64];
    snprintf(buf, sizeof buf, "%d", n);
    so_params_set(&set, "n", buf);
    snprintf(buf, sizeof buf, "%d", R);
    so_params_set(&set, "R", buf);
    snprintf(buf, sizeof buf, "%g", cap);
    so_params_set(&set, "capacity", buf);
    so_params_set(&set, "class", cls);
    json_t *inst = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_family_generate(so_family_find("knapsack"), &set,
                                             seed, index, &inst, &err), SO_OK);
    so_problem *p = NULL;
    CU_ASSERT_EQUAL_FATAL(so_problem_from_json(inst, "gen", &p, &err), SO_OK);
    json_decref(inst);
    return p;
}

static const char *const classes[] = {"uncorrelated", "weakly", "strongly",
                                      "inverse-strongly", "almost-strongly",
                                      "subset-sum", "similar-weights"};

/* 200 random instances per class: every exact backend, brute force when
 * n <= 14, and the greedy's 1/2 guarantee. */
static void test_random_agreement(void)
{
    so_rng rng;
    so_rng_seed(&rng, 2026);
    for (int c = 0; c < 7; c++) {
        for (int t = 0; t < 200; t++) {
            int n = (int)so_rng_int(&rng, 1, 24);
            int R = t % 2 ? 100 : 1000;
            double cap = 0.05 + 0.9 * so_rng_uniform(&rng);
            so_problem *p = generate(classes[c], n, R, cap, 11, (uint64_t)(c * 1000 + t));
            const so_kp *kp = so_kp_of(p);
            double opt = NAN;
            for (int b = 0; b < N_EXACT; b++) {
                so_result *r = run(exact[b], p, 0);
                CU_ASSERT_EQUAL(so_result_status(r), SO_OPTIMAL);
                so_test_kp_check_solution(kp, r);
                if (b == 0)
                    opt = so_result_objective(r);
                else
                    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), opt, 1e-9);
                so_result_free(r);
            }
            if (n <= 14)
                CU_ASSERT_DOUBLE_EQUAL((double)so_test_kp_brute_force(kp), opt, 1e-9);
            so_result *g = run("kp-greedy", p, 0);
            so_test_kp_check_solution(kp, g);
            CU_ASSERT_TRUE(so_result_objective(g) <= opt + 1e-9);
            CU_ASSERT_TRUE(2 * so_result_objective(g) >= opt - 1e-9);
            CU_ASSERT_TRUE(so_result_bound(g) >= opt - 1e-9);
            so_result_free(g);
            so_problem_free(p);
        }
    }
}

/* Capacities near 1e10 and coefficients near 1e9: DP and B&B need no
 * capacity-indexed table and agree; GLPK, in doubles, is feasible but no
 * longer claims optimality at this scale. */
static void test_huge_capacity(void)
{
    for (int t = 0; t < 20; t++) {
        so_problem *p = generate(t % 2 ? "uncorrelated" : "weakly", 30,
                                 1000000000, 0.5, 5, (uint64_t)t);
        CU_ASSERT_TRUE(so_kp_of(p)->capacity > 5000000000LL);
        so_result *a = run("kp-dp", p, 0), *b = run("kp-bnb", p, 0),
                  *g = run("kp-glpk", p, 0);
        CU_ASSERT_EQUAL(so_result_status(a), SO_OPTIMAL);
        CU_ASSERT_EQUAL(so_result_status(b), SO_OPTIMAL);
        CU_ASSERT_DOUBLE_EQUAL(so_result_objective(a), so_result_objective(b), 0.5);
        CU_ASSERT_EQUAL(so_result_status(g), SO_FEASIBLE);
        CU_ASSERT_FALSE(so_result_has_bound(g));
        CU_ASSERT_TRUE(so_result_objective(g) <= so_result_objective(a));
        so_test_kp_check_solution(so_kp_of(p), a);
        so_test_kp_check_solution(so_kp_of(p), b);
        so_test_kp_check_solution(so_kp_of(p), g);
        so_result_free(a);
        so_result_free(b);
        so_result_free(g);
        so_problem_free(p);
    }
}

/* A hard instance for branch-and-bound stops at the limit with a valid
 * bound: objective <= true optimum (from the DP) <= bound. */
static void test_time_limit_bounds(void)
{
    so_problem *p = generate("inverse-strongly", 3000, 1000, 0.5, 3, 0);
    so_result *dp = run("kp-dp", p, 0);
    CU_ASSERT_EQUAL(so_result_status(dp), SO_OPTIMAL);
    double opt = so_result_objective(dp);
    const char *limited[] = {"kp-bnb", "kp-glpk"};
    for (int b = 0; b < 2; b++) {
        so_result *r = run(limited[b], p, 0.2);
        int st = so_result_status(r);
        CU_ASSERT_TRUE(st == SO_OPTIMAL || st == SO_TIMELIMIT);
        CU_ASSERT_TRUE(so_result_seconds(r) < 5);
        if (so_result_has_objective(r))
            CU_ASSERT_TRUE(so_result_objective(r) <= opt + 1e-9);
        /* kp-bnb always has its bound; GLPK may be stopped before its
         * root LP on a loaded machine (then no bound, status timelimit) */
        CU_ASSERT_TRUE(so_result_has_bound(r) || (b == 1 && st == SO_TIMELIMIT));
        if (so_result_has_bound(r))
            CU_ASSERT_TRUE(so_result_bound(r) >= opt - 1e-9);
        so_result_free(r);
    }
    so_result_free(dp);
    so_problem_free(p);
}

/* The limit also covers kp-bnb's set-up (the search for mu sorts the items
 * ~100 times, the swap improvement up to 256 times: seconds at n = 200,000):
 * it stops within 0.1 s of the limit, and what it reports then is still a
 * valid bound; when even the first sorts would not fit in the limit, it
 * reports no incumbent and no bound (issue 26: never a made-up value). */
static void test_time_limit_setup(void)
{
    so_problem *p = generate("uncorrelated", 200000, 1000000, 0.5, 4, 0);
    /* CPU time of this thread, not wall time: a loaded machine stretches
     * the wall clock, not the work done before the limit is noticed */
    struct timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    so_result *r = run("kp-bnb", p, 0.05);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    CU_ASSERT_TRUE((double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec) <
                   0.05 + 0.1);
    int st = so_result_status(r);
    CU_ASSERT_TRUE(st == SO_OPTIMAL || st == SO_TIMELIMIT);
    if (so_result_has_objective(r)) {
        CU_ASSERT_TRUE(so_result_bound(r) >= so_result_objective(r));
        so_test_kp_check_solution(so_kp_of(p), r);
    } else {
        CU_ASSERT_EQUAL(st, SO_TIMELIMIT);
        CU_ASSERT_FALSE(so_result_has_bound(r));
    }
    so_result_free(r);
    so_problem_free(p);
}

static void test_edge_cases(void)
{
    const char *cases[][2] = {
        /* instance, optimum */
        {"{\"problem\":\"knapsack\",\"version\":1,\"capacity\":10,\"profits\":[],\"weights\":[]}", "0"},
        {"{\"problem\":\"knapsack\",\"version\":1,\"capacity\":0,\"profits\":[5,3],\"weights\":[0,1]}", "5"},
        {"{\"problem\":\"knapsack\",\"version\":1,\"capacity\":4,\"profits\":[9,9],\"weights\":[5,6]}", "0"},
        {"{\"problem\":\"knapsack\",\"version\":1,\"capacity\":10,\"profits\":[1,2,3],\"weights\":[1,2,3]}", "6"},
        {"{\"problem\":\"knapsack\",\"version\":1,\"capacity\":1.5,\"profits\":[0.25,0.5],\"weights\":[0.75,0.75]}", "0.75"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        so_problem *p = NULL;
        so_error err;
        CU_ASSERT_EQUAL_FATAL(so_problem_parse(cases[k][0], "edge", &p, &err), SO_OK);
        for (int b = 0; b < N_EXACT; b++) {
            so_result *r = run(exact[b], p, 0);
            CU_ASSERT_EQUAL(so_result_status(r), SO_OPTIMAL);
            CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), atof(cases[k][1]), 1e-9);
            so_test_kp_check_solution(so_kp_of(p), r);
            so_result_free(r);
        }
        so_result *g = run("kp-greedy", p, 0);
        CU_ASSERT_DOUBLE_EQUAL(so_result_objective(g), atof(cases[k][1]), 1e-9);
        so_result_free(g);
        so_problem_free(p);
    }
}

/* Profit of the reported items, exactly (the objective is a double). */
static int64_t solution_profit(const so_kp *kp, const so_result *r)
{
    json_t *items = json_object_get(so_result_solution(r), "items");
    int64_t w = 0, p = 0;
    size_t k;
    json_t *v;
    json_array_foreach(items, k, v) {
        w += kp->weight[json_integer_value(v)];
        p += kp->profit[json_integer_value(v)];
    }
    CU_ASSERT_TRUE(w <= kp->capacity);
    return p;
}

/* Every backend on kp against brute force, exactly: exact backends find the
 * optimum, every bound is at least the optimum, the greedy at most it. */
static void check_against_brute_force(so_kp *kp)
{
    so_problem *p = NULL;
    CU_ASSERT_EQUAL_FATAL(so_kp_problem(kp, "bf", &p), SO_OK);
    int64_t opt = so_test_kp_brute_force(kp);
    const char *all[] = {"kp-dp", "kp-bnb", "kp-greedy"};
    for (int b = 0; b < 3; b++) {
        so_result *r = run(all[b], p, 0);
        int64_t got = solution_profit(kp, r);
        if (b < 2)
            CU_ASSERT_EQUAL(got, opt);
        CU_ASSERT_TRUE(got <= opt);
        CU_ASSERT_TRUE(so_result_bound(r) >= (double)opt);
        if (so_result_status(r) == SO_OPTIMAL)
            CU_ASSERT_EQUAL(got, opt);
        so_result_free(r);
    }
    so_problem_free(p);
}

/* Zero weights and zero profits (an item with both is as efficient as any
 * under cross-multiplication, yet must sort first), equal efficiencies,
 * items heavier than the capacity. */
static void test_zero_coefficients(void)
{
    so_kp *kp = so_kp_new(3); /* the (0, 0) item between the others */
    kp->capacity = 5;
    int64_t pr[] = {1, 0, 10}, wt[] = {1, 0, 5};
    memcpy(kp->profit, pr, sizeof pr);
    memcpy(kp->weight, wt, sizeof wt);
    check_against_brute_force(kp);
    so_rng rng;
    so_rng_seed(&rng, 77);
    for (int t = 0; t < 1500; t++) {
        size_t n = (size_t)so_rng_int(&rng, 0, 12);
        kp = so_kp_new(n);
        int64_t sw = 0;
        for (size_t i = 0; i < n; i++) {
            kp->profit[i] = so_rng_int(&rng, 0, t % 3 ? 5 : 20);
            kp->weight[i] = so_rng_int(&rng, 0, t % 3 ? 5 : 20);
            sw += kp->weight[i];
        }
        kp->capacity = so_rng_int(&rng, 0, sw + 2);
        check_against_brute_force(kp);
    }
}

/* One profit near 2^60 (the sums stay below the 2^61 limit): no int64
 * overflow in the bounds (kp-bnb's surrogate weights w + mu summed over
 * all items, kp-dp's bound of an overweight state). */
static void test_huge_profits(void)
{
    so_kp *kp = so_kp_new(9);
    kp->capacity = 1467;
    int64_t pr[] = {1152921504606846243LL, 161, 501, 495, 33, 895, 985, 579, 945};
    int64_t wt[] = {367, 9, 865, 21, 452, 265, 767, 217, 52};
    memcpy(kp->profit, pr, sizeof pr);
    memcpy(kp->weight, wt, sizeof wt);
    CU_ASSERT_EQUAL(so_test_kp_brute_force(kp), 1152921504606849408LL);
    check_against_brute_force(kp);
    kp = so_kp_new(9); /* kp-dp: the loss of an overweight state > 2^63 */
    kp->capacity = 1078;
    int64_t pr2[] = {1152921504606846471LL, 134, 240, 531, 881, 508, 956, 781, 713};
    int64_t wt2[] = {88, 941, 882, 97, 694, 112, 644, 316, 884};
    memcpy(kp->profit, pr2, sizeof pr2);
    memcpy(kp->weight, wt2, sizeof wt2);
    check_against_brute_force(kp);
    so_rng rng;
    so_rng_seed(&rng, 78);
    for (int t = 0; t < 300; t++) {
        size_t n = (size_t)so_rng_int(&rng, 1, 12);
        kp = so_kp_new(n);
        int64_t sw = 0;
        for (size_t i = 0; i < n; i++) {
            kp->weight[i] = so_rng_int(&rng, 1, 1000);
            kp->profit[i] = so_rng_int(&rng, 0, 1000);
            sw += kp->weight[i];
        }
        kp->profit[0] = ((int64_t)1 << 60) - so_rng_int(&rng, 0, 1000);
        kp->capacity = so_rng_int(&rng, 0, sw);
        check_against_brute_force(kp);
    }
}

/* kp-glpk claims optimality only where GLPK's relative tolerances can
 * show it, and never returns a solution over the capacity. */
static void test_glpk_tolerances(void)
{
    const char *cases[][2] = {
        /* instance, optimum; GLPK's raw answer in the comment */
        /* 2 (weight 5000001 within the row tolerance) */
        {"{\"problem\":\"knapsack\",\"version\":1,\"capacity\":5000000,"
         "\"profits\":[1,1,1],\"weights\":[2500000,2500001,2500003]}", "1"},
        /* 2 (weight 1.5000001) */
        {"{\"problem\":\"knapsack\",\"version\":1,\"capacity\":1.5,"
         "\"profits\":[1,1],\"weights\":[0.75,0.7500001]}", "1"},
        /* 17: efficiencies near 1e-7 look like zero reduced costs */
        {"{\"problem\":\"knapsack\",\"version\":1,\"capacity\":226172419,"
         "\"profits\":[5,7,10,9,5],\"weights\":[76955812,51044834,88971728,"
         "94151033,85714059]}", "22"},
        /* 300000100: one unit in 3e8 is below the objective tolerance */
        {"{\"problem\":\"knapsack\",\"version\":1,\"capacity\":459281232,"
         "\"profits\":[1,1,1,100,100000000,100000000,100000000],\"weights\":"
         "[58633241,66575775,88459934,98324944,81654798,70922164,70784603]}",
         "300000102"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        so_problem *p = NULL;
        so_error err;
        CU_ASSERT_EQUAL_FATAL(so_problem_parse(cases[k][0], "tol", &p, &err), SO_OK);
        so_result *r = run("kp-glpk", p, 0);
        so_test_kp_check_solution(so_kp_of(p), r);
        if (so_result_status(r) == SO_OPTIMAL)
            CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), atof(cases[k][1]), 1e-9);
        CU_ASSERT_TRUE(so_result_objective(r) <= atof(cases[k][1]) + 1e-9);
        if (so_result_has_bound(r))
            CU_ASSERT_TRUE(so_result_bound(r) >= atof(cases[k][1]) - 1e-9);
        so_result_free(r);
        so_problem_free(p);
    }
    /* random instances across scales (coefficients 1 to 1e8) */
    so_rng rng;
    so_rng_seed(&rng, 79);
    for (int t = 0; t < 300; t++) {
        size_t n = (size_t)so_rng_int(&rng, 1, 12);
        so_kp *kp = so_kp_new(n);
        int64_t W = (int64_t)pow(10, (double)so_rng_int(&rng, 0, 8));
        int64_t P = (int64_t)pow(10, (double)so_rng_int(&rng, 0, 8)), sw = 0;
        for (size_t i = 0; i < n; i++) {
            kp->weight[i] = so_rng_int(&rng, W / 2 + 1, W + W / 100);
            kp->profit[i] = t % 3 ? so_rng_int(&rng, P / 2, P)
                                  : (int64_t)pow(10, (double)so_rng_int(&rng, 0, 8));
            sw += kp->weight[i];
        }
        kp->capacity = t % 5 == 1 && n >= 2 ? kp->weight[0] + kp->weight[1] - 1
                                           : so_rng_int(&rng, 0, sw);
        int64_t opt = so_test_kp_brute_force(kp);
        so_problem *p = NULL;
        CU_ASSERT_EQUAL_FATAL(so_kp_problem(kp, "tol", &p), SO_OK);
        so_result *r = run("kp-glpk", p, 0);
        int64_t got = solution_profit(kp, r);
        CU_ASSERT_TRUE(got <= opt);
        if (so_result_status(r) == SO_OPTIMAL)
            CU_ASSERT_EQUAL(got, opt);
        if (so_result_has_bound(r))
            CU_ASSERT_TRUE(so_result_bound(r) >= (double)opt);
        so_result_free(r);
        so_problem_free(p);
    }
}

/* Large coefficient ranges (R = 1e5, 1e7, 1e9; issue 30), 20 instances
 * per class and range, n <= 32: kp-dp's vector fits and is worth its
 * objective, which equals meet-in-the-middle's optimum (exact, independent
 * of the DP), brute force's when n <= 14, and every other exact backend's
 * wherever it claims optimality (kp-bnb and kp-glpk within 0.5 s; kp-glpk
 * certifies only small totals); every bound given is at least the
 * optimum. With up to 32 items
 * the DP reaches the pairing (1024 states), the cardinality bounds and the
 * surrogate relaxation (2000 states). */
static void test_large_r_agreement(void)
{
    const int Rs[] = {100000, 10000000, 1000000000};
    so_rng rng;
    so_rng_seed(&rng, 30);
    for (int c = 0; c < 7; c++)
        for (int r = 0; r < 3; r++)
            for (int t = 0; t < 20; t++) {
                int n = (int)so_rng_int(&rng, 1, 32);
                double cap = 0.05 + 0.9 * so_rng_uniform(&rng);
                so_problem *p = generate(classes[c], n, Rs[r], cap, 30,
                                         (uint64_t)(c * 1000 + r * 100 + t));
                const so_kp *kp = so_kp_of(p);
                unsigned char x[40];
                CU_ASSERT_EQUAL_FATAL(so_kp_mitm_solve(kp, 0, x), SO_OK);
                int64_t opt = so_kp_value(kp, x, NULL);
                if (n <= 14)
                    CU_ASSERT_EQUAL(so_test_kp_brute_force(kp), opt);
                for (int b = 0; b < N_EXACT; b++) {
                    so_result *res = run(exact[b], p, b == 0 ? 0 : 0.5);
                    int64_t got = solution_profit(kp, res);
                    CU_ASSERT_TRUE(got <= opt);
                    if (so_result_has_bound(res))
                        CU_ASSERT_TRUE(so_result_bound(res) >= (double)opt);
                    if (b == 0)
                        CU_ASSERT_EQUAL(so_result_status(res), SO_OPTIMAL);
                    if (so_result_status(res) == SO_OPTIMAL) {
                        CU_ASSERT_EQUAL(got, opt);
                        CU_ASSERT_DOUBLE_EQUAL(so_result_objective(res), (double)opt, 0.5);
                    }
                    so_result_free(res);
                }
                so_problem_free(p);
            }
}

/* Pairing rounds after every expansion that grows the states by half
 * (issue 30): kp-dp = the DP over capacities on the classes whose states
 * multiply (n = 60-150, R = 1e4, capacities 5-95 %); and subset-sum
 * n = 1000, R = 1e7 (seed 2030, instances 0 and 2, where the optimum is
 * the capacity, found by the round at 131,000 states): any other value,
 * or a vector that does not fit or is worth another value, fails. */
static void test_pairing_rounds(void)
{
    static const char *const mult[] = {"strongly", "inverse-strongly",
                                       "almost-strongly", "subset-sum"};
    so_rng rng;
    so_rng_seed(&rng, 31);
    for (int c = 0; c < 4; c++)
        for (int t = 0; t < 6; t++) {
            int n = (int)so_rng_int(&rng, 60, 150);
            double cap = 0.05 + 0.9 * so_rng_uniform(&rng);
            so_problem *p = generate(mult[c], n, 10000, cap, 31,
                                     (uint64_t)(c * 100 + t));
            const so_kp *kp = so_kp_of(p);
            int64_t opt = so_test_kp_by_capacity(kp);
            CU_ASSERT_TRUE_FATAL(opt >= 0);
            so_test_kp_dp_equals(kp, opt);
            so_problem_free(p);
        }
    for (uint64_t i = 0; i <= 2; i += 2) {
        so_problem *p = generate("subset-sum", 1000, 10000000, 0.5, 2030, i);
        const so_kp *kp = so_kp_of(p);
        so_test_kp_dp_equals(kp, kp->capacity);
        so_problem_free(p);
    }
}

/* The partial vectors (64 bits a state): where the core grows past 64
 * items, decoding completes the incumbent's vector by a DP on the older
 * core items. On small instances of Jooken's class (two or six groups;
 * every one of the g = 2 points needs it) the vector must still be worth
 * the optimum, and that DP must have run. */
static void test_partial_vectors(void)
{
    so_rng rng;
    so_rng_seed(&rng, 47);
    size_t before = so_kp_dp_decode_runs();
    for (int t = 0; t < 16; t++) {
        char n[16], c[16];
        snprintf(n, sizeof n, "%d", (int)so_rng_int(&rng, 100, 300));
        snprintf(c, sizeof c, "%d", t % 2 ? 10000 : 100000);
        const char *const kv[] = {"n", n,   "c",   c,     "g", t % 4 < 2 ? "2" : "6",
                                  "f", "0.2", "eps", "0.001", NULL};
        so_problem *p = so_test_kp_generate("knapsack-jooken", kv, 47,
                                            (uint64_t)t);
        const so_kp *kp = so_kp_of(p);
        int64_t opt = so_test_kp_by_capacity(kp);
        CU_ASSERT_TRUE_FATAL(opt >= 0);
        so_test_kp_dp_equals(kp, opt);
        so_problem_free(p);
    }
    CU_ASSERT_TRUE(so_kp_dp_decode_runs() >= before + 8);
}

/* Decoding's DP out of time (its deadline already past, the run's none):
 * not proved, a vector that fits, worth at most the optimum and at least
 * the greedy solution (the known part completed by that DP's best, or
 * the greedy vector). */
static void test_partial_vectors_stopped(void)
{
    int stopped = 0;
    for (int t = 0; t < 8; t++) {
        const char *const kv[] = {"n", "200", "c", "100000", "g", "2",
                                  "f", "0.2", "eps", "0.001", NULL};
        so_problem *p = so_test_kp_generate("knapsack-jooken", kv, 53,
                                            (uint64_t)t);
        const so_kp *kp = so_kp_of(p);
        int64_t opt = so_test_kp_by_capacity(kp);
        unsigned char *x = malloc(kp->n + 1), *g = malloc(kp->n + 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(x);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        size_t before = so_kp_dp_decode_runs();
        int proved = 1;
        CU_ASSERT_EQUAL(so_kp_dp_exact_until(kp, 0, 1e-9, 8000000, 1, x,
                                             &proved),
                        SO_OK);
        int64_t w = 0, v = so_kp_value(kp, x, &w);
        CU_ASSERT_TRUE(w <= kp->capacity);
        CU_ASSERT_TRUE(v <= opt);
        size_t *ord = so_kp_order(kp); /* kp-dp's greedy: every item in */
        CU_ASSERT_PTR_NOT_NULL_FATAL(ord); /* efficiency order that fits */
        int64_t room = kp->capacity;
        memset(g, 0, kp->n);
        for (size_t i = 0; i < kp->n; i++)
            if (kp->weight[ord[i]] <= room) {
                g[ord[i]] = 1;
                room -= kp->weight[ord[i]];
            }
        free(ord);
        int64_t gv = so_kp_value(kp, g, NULL);
        if (so_kp_dp_decode_runs() > before) { /* decoding was needed */
            stopped++;
            CU_ASSERT_FALSE(proved);
            CU_ASSERT_TRUE(v >= gv);
        } else {
            CU_ASSERT_TRUE(proved);
            CU_ASSERT_EQUAL(v, opt);
        }
        free(x);
        free(g);
        so_problem_free(p);
    }
    CU_ASSERT_TRUE(stopped >= 4);
}

static CU_TestInfo tests[] = {
    {"every exact backend finds every Pisinger optimum", test_pisinger_optima},
    {"exact backends and brute force agree, greedy >= opt/2 (7 classes x 200)",
     test_random_agreement},
    {"R = 1e5, 1e7, 1e9: kp-dp = meet-in-the-middle = brute force = every"
     " exact backend that proves (7 classes x 3 x 20)", test_large_r_agreement},
    {"pairing rounds: kp-dp = capacity DP (4 classes, R = 1e4); subset-sum"
     " n = 1000, R = 1e7 at the capacity", test_pairing_rounds},
    {"partial vectors: kp-dp = capacity DP past 64 core items (Jooken,"
     " n = 100-300), decoding's DP used", test_partial_vectors},
    {"partial vectors: decoding's DP out of time gives a fitting vector"
     " between the greedy one and the optimum", test_partial_vectors_stopped},
    {"capacities near 1e10", test_huge_capacity},
    {"time limit: objective <= optimum <= bound", test_time_limit_bounds},
    {"time limit: kp-bnb's set-up included", test_time_limit_setup},
    {"edge cases: empty, zero capacity, nothing fits, all fit, decimals",
     test_edge_cases},
    {"zero weights and profits against brute force", test_zero_coefficients},
    {"profits near 2^60 against brute force", test_huge_profits},
    {"kp-glpk within GLPK's tolerances only", test_glpk_tolerances},
    CU_TEST_INFO_NULL,
};
SO_SUITE("kp-exact", tests)
