/* test_flex_backends.c — the flex backends from the command line (options,
 * errors, solution layout) and the epoch allocation API. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/flex_test_util.h"
#include "heuristics/flex.h"

static const char *three =
    "{\"problem\": \"flex\", \"version\": 1, \"slots\": 10,"
    " \"metric\": \"response\", \"jobs\": ["
    " {\"work\": 20, \"min\": 2, \"max\": 6},"
    " {\"work\": 30, \"min\": 2, \"max\": 10},"
    " {\"work\": 8, \"min\": 1, \"max\": 4}]}";

static json_t *run(const char *args)
{
    char cmd[600], *out = NULL;
    snprintf(cmd, sizeof cmd, "solve %s %s", args, so_test_write("three.json", three));
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, NULL), 0);
    json_error_t je;
    json_t *j = json_loads(out ? out : "", 0, &je);
    free(out);
    return j;
}

static void test_cli(void)
{
    /* FIFO 46/3 and FAIR 13 by hand (test_flex_mps.c); the optimum: job 2
     * first then job 0 (checked by flex-enum) */
    static const struct {
        const char *args;
        double want;
    } cases[] = {
        {"-b fifo", 46.0 / 3}, {"-b fair", 13}, {"-b fair --opt share=slack", -1},
        {"-b flex", -1}, {"-b flex --opt local_search=0", -1}, {"-b flex-generic", -1},
    };
    json_t *fl = run("-b flex");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fl);
    const char *start = json_string_value(json_object_get(fl, "start_order"));
    CU_ASSERT(start && strcmp(start, "?") && strcmp(start, "arrival"));
    json_decref(fl);
    json_t *ex = run("-b flex-exact"), *en = run("-b flex-enum");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ex);
    double opt = json_number_value(json_object_get(ex, "objective"));
    CU_ASSERT_DOUBLE_EQUAL(opt, json_number_value(json_object_get(en, "objective")), 1e-9);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(ex, "status")), "optimal");
    json_t *sol = json_object_get(ex, "solution");
    CU_ASSERT_EQUAL(json_array_size(json_object_get(sol, "order")), 3);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(sol, "allocation")), 3);
    CU_ASSERT(json_array_size(json_object_get(sol, "intervals")) >= 3);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        json_t *j = run(cases[c].args);
        CU_ASSERT_PTR_NOT_NULL_FATAL(j);
        double v = json_number_value(json_object_get(j, "objective"));
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "status")), "feasible");
        if (cases[c].want > 0)
            CU_ASSERT_DOUBLE_EQUAL(v, cases[c].want, 1e-9);
        if (strstr(cases[c].args, "fifo") == NULL)
            CU_ASSERT(v >= opt - 1e-9);
        json_decref(j);
    }
    json_decref(ex);
    json_decref(en);
    const char *bad[] = {"-b fair --opt share=water", "-b flex --opt local_search=2",
                         "-b flex --opt ls_evals=x", "-b fifo --opt share=level"};
    for (size_t k = 0; k < 4; k++) {
        char cmd[600], *err = NULL;
        snprintf(cmd, sizeof cmd, "solve %s %s", bad[k], so_test_write("three.json", three));
        CU_ASSERT_EQUAL(so_test_run(cmd, NULL, &err), 2);
        CU_ASSERT(err && strlen(err) > 10);
        free(err);
    }
}

/* The epoch API: the first interval of FLEX's best MPS schedule, within
 * the bounds, at most S slots, equal to what the flex backend reports. */
static void test_allocate(void)
{
    so_rng rng;
    so_rng_seed(&rng, 12);
    for (int it = 0; it < 30; it++) {
        size_t n = (size_t)so_rng_int(&rng, 1, 12);
        so_flex *f = so_test_flex_random(&rng, n, so_rng_int(&rng, (int64_t)n, 50), 3,
                                         it % 2 ? SO_FLEX_WRESPONSE : SO_FLEX_WTARDY,
                                         SO_FLEX_SUM);
        int64_t *s = malloc(n * sizeof *s), used = 0;
        CU_ASSERT_EQUAL_FATAL(so_flex_allocate(f, NULL, s), SO_OK);
        for (size_t j = 0; j < n; j++) {
            CU_ASSERT(s[j] >= f->min[j] && s[j] <= f->max[j]);
            used += s[j];
        }
        CU_ASSERT(used <= f->slots);
        so_problem *p = NULL;
        so_flex_problem(so_flex_copy(f), "a", &p);
        so_result *r = NULL;
        so_error err;
        so_solve(so_backend_find("flex"), p, NULL, &r, &err);
        json_t *alloc = json_object_get(so_result_solution(r), "allocation");
        for (size_t j = 0; j < n; j++)
            CU_ASSERT_EQUAL(json_integer_value(json_array_get(alloc, j)), s[j]);
        so_result_free(r);
        so_problem_free(p);
        /* the simulator's input is validated */
        f->min[0] = f->max[0] + 1;
        CU_ASSERT_EQUAL(so_flex_allocate(f, NULL, s), SO_EINVAL);
        free(s);
        so_flex_free(f);
    }
}

/* Every order of this instance evaluates to +inf (w_j C_j overflows):
 * so_flex_best still returns one of them, a permutation. */
static void test_best_infinite(void)
{
    so_flex *f = so_flex_new(2, 0);
    f->slots = 5;
    f->metric = SO_FLEX_WRESPONSE;
    for (size_t j = 0; j < 2; j++) {
        f->work[j] = 1e300;
        f->weight[j] = 1e300;
        f->max[j] = 5;
    }
    so_flex_options o;
    so_flex_options_init(&o);
    size_t order[2] = {7, 7};
    double v = 0;
    CU_ASSERT_EQUAL_FATAL(so_flex_best(f, &o, order, &v, NULL), SO_OK);
    CU_ASSERT((order[0] == 0 && order[1] == 1) || (order[0] == 1 && order[1] == 0));
    CU_ASSERT(isinf(v));
    so_flex_free(f);
}

/* so_flex_best without local search (orders cut by the lead's bound)
 * returns what replaying every order in full returns (o.exhaustive = 1):
 * the same order, value (bit for bit) and kind; so_flex_allocate the same
 * first interval, also on working memory kept from instance to instance
 * (so_flex_allocate_with). Random instances up to 600 jobs with equal works (orders
 * that tie or coincide), minima, S below and above n, every metric, and
 * the metric's lead order or any other (invalid kinds: the metric's), and
 * instances whose maxima fit in S. */
static void test_best_bounded(void)
{
    static const int metrics[] = {SO_FLEX_RESPONSE, SO_FLEX_WRESPONSE,
                                  SO_FLEX_STRETCH, SO_FLEX_MAKESPAN,
                                  SO_FLEX_TARDY, SO_FLEX_LATENESS};
    so_rng rng;
    so_rng_seed(&rng, 93);
    int differ_from_lead = 0, underloaded = 0;
    so_flex_work *work = so_flex_work_new(); /* kept across the instances */
    so_flex_work *kept = so_flex_work_new(); /* and with ids: kept orders */
    int *ids = malloc(700 * sizeof *ids);
    CU_ASSERT_PTR_NOT_NULL_FATAL(work);
    CU_ASSERT_PTR_NOT_NULL_FATAL(kept);
    CU_ASSERT_EQUAL_FATAL(so_flex_work_ids(kept, ids, 2000), 0);
    for (int it = 0; it < 600; it++) {
        int metric = metrics[it % 6];
        size_t n = (size_t)so_rng_int(&rng, 1, it % 4 == 0 ? 600 : 30);
        int64_t S = so_rng_int(&rng, 1, (int64_t)n + 20);
        so_flex *f = so_test_flex_random(&rng, n, S, it % 3 == 0 ? 1 : 3, metric,
                                         metric == SO_FLEX_MAKESPAN ? SO_FLEX_MAX
                                                                    : SO_FLEX_SUM);
        int64_t q = so_rng_int(&rng, 1, 5);
        for (size_t j = 0; j < n; j++) {
            if (it % 3 == 1)
                f->work[j] = (double)(1 + (int64_t)j % q) * 2;
            if (it % 2 == 0)
                f->deadline[j] = 0;
            if (it % 5 == 2)
                f->weight[j] = 1;
        }
        so_flex_options o, x;
        so_flex_options_init(&o);
        o.local_search = 0;
        o.lead = it % 3 == 0 ? -1 : (int)so_rng_int(&rng, 0, SO_FLEX_NORDERS);
        x = o;
        x.exhaustive = 1;
        size_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        double va = 0, vb = 1;
        int ka = -1, kb = -2;
        CU_ASSERT_EQUAL_FATAL(so_flex_best(f, &o, a, &va, &ka), SO_OK);
        CU_ASSERT_EQUAL_FATAL(so_flex_best(f, &x, b, &vb, &kb), SO_OK);
        CU_ASSERT_EQUAL(memcmp(a, b, n * sizeof *a), 0);
        CU_ASSERT_TRUE(va == vb || (isnan(va) && isnan(vb)));
        CU_ASSERT_EQUAL(ka, kb);
        differ_from_lead += ka != SO_FLEX_ORDER_SPT && ka != SO_FLEX_ORDER_SMITH;
        int64_t *sa = malloc(n * sizeof *sa), *sb = malloc(n * sizeof *sb);
        double *c = malloc(n * sizeof *c);
        CU_ASSERT_EQUAL_FATAL(so_flex_allocate(f, &o, sa), SO_OK);
        CU_ASSERT_EQUAL_FATAL(so_flex_mps(f, b, 0, c, sb, NULL), SO_OK);
        int64_t held = 0, wanted = 0;
        for (size_t j = 0; j < n; j++) {
            held += f->min[j];
            wanted += f->max[j];
        }
        underloaded += held < f->slots && wanted <= f->slots;
        if (held < f->slots) /* else the minima, without any order */
            CU_ASSERT_EQUAL(memcmp(sa, sb, n * sizeof *sa), 0);
        CU_ASSERT_EQUAL_FATAL(so_flex_allocate_with(work, f, &o, sb), SO_OK);
        CU_ASSERT_EQUAL(memcmp(sa, sb, n * sizeof *sa), 0);
        for (size_t j = 0, id = (size_t)so_rng_int(&rng, 0, 3); j < n; j++) {
            ids[j] = (int)id; /* ascending; the same ids often come back */
            id += 1 + (size_t)(so_rng_int(&rng, 0, 5) == 0);
        }
        CU_ASSERT_EQUAL_FATAL(so_flex_allocate_with(kept, f, &o, sb), SO_OK);
        CU_ASSERT_EQUAL(memcmp(sa, sb, n * sizeof *sa), 0);
        free(a);
        free(b);
        free(sa);
        free(sb);
        free(c);
        so_flex_free(f);
    }
    CU_ASSERT_TRUE(differ_from_lead > 30); /* the fold, not only the lead */
    /* instances whose maxima fit in S (so_flex_allocate's shortcut: every
     * M_j) against the best order's replay */
    CU_ASSERT_TRUE(underloaded > 10);
    so_flex_work_free(work);
    so_flex_work_free(kept);
    free(ids);
}

static CU_TestInfo tests[] = {
    {"so_flex_best without local search: cut replays, same result", test_best_bounded},
    {"flex backends from the command line", test_cli},
    {"so_flex_allocate for one epoch", test_allocate},
    {"so_flex_best when every order is infinite", test_best_infinite},
    CU_TEST_INFO_NULL,
};
SO_SUITE("flex-backends", tests)
