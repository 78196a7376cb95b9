/* test_flex_mps.c — MPS, FIFO and FAIR against hand-computed schedules,
 * the event-driven MPS against a direct replay of Fig. 3 on random
 * instances, and the evaluation of malleable schedules. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/flex_test_util.h"
#include "heuristics/flex.h"

/* S = 10; C = (20, 30, 8), m = (2, 2, 1), M = (6, 10, 4); response time. */
static so_flex *three_jobs(void)
{
    so_flex *f = so_flex_new(3, 0);
    f->slots = 10;
    f->metric = SO_FLEX_RESPONSE;
    double c[3] = {20, 30, 8};
    int64_t m[3] = {2, 2, 1}, M[3] = {6, 10, 4};
    for (int j = 0; j < 3; j++) {
        f->work[j] = c[j];
        f->min[j] = m[j];
        f->max[j] = M[j];
    }
    return f;
}

static void test_mps_by_hand(void)
{
    /* order 0, 1, 2: slots (6, 3, 1) until job 0 ends at 10/3; then
     * (0, 9, 1) until job 1 ends at 50/9; then job 2 alone on 4 slots
     * ends at 50/9 + (22/9) / 4 = 37/6 */
    so_flex *f = three_jobs();
    size_t order[3] = {0, 1, 2};
    double c[3];
    int64_t first[3];
    so_flex_schedule *rec = so_flex_schedule_new(3);
    CU_ASSERT_EQUAL_FATAL(so_flex_mps(f, order, 0, c, first, rec), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(c[0], 10.0 / 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c[1], 50.0 / 9, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c[2], 37.0 / 6, 1e-12);
    CU_ASSERT_EQUAL(first[0], 6);
    CU_ASSERT_EQUAL(first[1], 3);
    CU_ASSERT_EQUAL(first[2], 1);
    CU_ASSERT_EQUAL_FATAL(rec->n_intervals, 3);
    CU_ASSERT_EQUAL(rec->slots[3 + 1], 9);
    CU_ASSERT_EQUAL(rec->slots[6 + 2], 4);
    CU_ASSERT_DOUBLE_EQUAL(so_flex_mps_value(f, order), 271.0 / 18, 1e-12);
    double obj, cc[3];
    char why[200];
    CU_ASSERT_EQUAL(so_flex_evaluate(f, rec, 0, cc, &obj, why, sizeof why), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(obj, 271.0 / 18, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cc[2], 37.0 / 6, 1e-9);
    so_flex_schedule_free(rec);
    so_flex_free(f);
}

static void test_fifo_by_hand(void)
{
    /* minima 0, arrival order: (6, 4, 0) to 10/3; job 1 on 10 slots ends
     * at 5; job 2 on 4 slots ends at 7 */
    so_flex *f = three_jobs();
    size_t order[3];
    double c[3];
    so_flex_order(f, SO_FLEX_ORDER_ARRIVAL, order);
    CU_ASSERT_EQUAL_FATAL(so_flex_mps(f, order, 1, c, NULL, NULL), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(c[0], 10.0 / 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c[1], 5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c[2], 7, 1e-12);
    so_flex_free(f);
}

static void test_fair_by_hand(void)
{
    /* level 3 gives (3, 3, 3), the spare slot to job 0: (4, 3, 3); job 2
     * ends at 8/3; then level 5: (5, 5); job 0 ends at 68/15; job 1 alone
     * on 10 slots ends at 87/15 */
    so_flex *f = three_jobs();
    double c[3];
    int64_t first[3];
    so_flex_schedule *rec = so_flex_schedule_new(3);
    CU_ASSERT_EQUAL_FATAL(so_flex_fair(f, SO_FLEX_FAIR_LEVEL, c, first, rec), SO_OK);
    CU_ASSERT_EQUAL(first[0], 4);
    CU_ASSERT_EQUAL(first[1], 3);
    CU_ASSERT_EQUAL(first[2], 3);
    CU_ASSERT_DOUBLE_EQUAL(c[2], 8.0 / 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c[0], 68.0 / 15, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c[1], 87.0 / 15, 1e-12);
    double obj;
    char why[200];
    CU_ASSERT_EQUAL(so_flex_evaluate(f, rec, 0, NULL, &obj, why, sizeof why), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(obj, 13, 1e-9);
    /* slack split equally: x = 1 gives (3, 3, 2) = 8, x = 2 overshoots
     * (4, 4, 3) = 11, so the 2 spare slots go to jobs 0 and 1: (4, 4, 2) */
    CU_ASSERT_EQUAL_FATAL(so_flex_fair(f, SO_FLEX_FAIR_SLACK, c, first, NULL), SO_OK);
    CU_ASSERT_EQUAL(first[0], 4);
    CU_ASSERT_EQUAL(first[1], 4);
    CU_ASSERT_EQUAL(first[2], 2);
    so_flex_schedule_free(rec);
    so_flex_free(f);
}

/* Fig. 3 replayed directly: O(J^2), the reference for the heap version. */
static void replay(const so_flex *f, const size_t *order, int zero, double *c)
{
    size_t n = f->n;
    double *rem = malloc(n * sizeof *rem), now = 0;
    unsigned char *on = malloc(n);
    int64_t *s = malloc(n * sizeof *s);
    for (size_t j = 0; j < n; j++) {
        rem[j] = f->work[j];
        on[j] = 1;
    }
    for (size_t it = 0; it < n; it++) {
        int64_t slack = f->slots;
        for (size_t j = 0; j < n; j++) {
            s[j] = on[j] && !zero ? f->min[j] : 0;
            slack -= s[j];
        }
        for (size_t i = 0; i < n; i++) {
            size_t j = order[i];
            if (!on[j])
                continue;
            int64_t g = f->max[j] - s[j] < slack ? f->max[j] - s[j] : slack;
            s[j] += g;
            slack -= g;
        }
        size_t best = n;
        double dt = INFINITY;
        for (size_t i = 0; i < n; i++) {
            size_t j = order[i];
            if (on[j] && s[j] > 0 && rem[j] / (double)s[j] < dt) {
                dt = rem[j] / (double)s[j];
                best = j;
            }
        }
        now += dt;
        for (size_t j = 0; j < n; j++)
            if (on[j])
                rem[j] -= (double)s[j] * dt;
        on[best] = 0;
        c[best] = now;
    }
    free(rem);
    free(on);
    free(s);
}

static void test_mps_random(void)
{
    so_rng rng;
    so_rng_seed(&rng, 7);
    for (int it = 0; it < 300; it++) {
        size_t n = (size_t)so_rng_int(&rng, 1, 30);
        int64_t S = so_rng_int(&rng, (int64_t)n, 60);
        so_flex *f = so_test_flex_random(&rng, n, S, 3, SO_FLEX_RESPONSE, SO_FLEX_SUM);
        size_t *order = malloc(n * sizeof *order);
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        for (size_t i = n; i > 1; i--) {
            size_t k = (size_t)so_rng_int(&rng, 0, (int64_t)i - 1), t = order[i - 1];
            order[i - 1] = order[k];
            order[k] = t;
        }
        int zero = it % 3 == 0;
        so_flex_schedule *rec = so_flex_schedule_new(n);
        CU_ASSERT_EQUAL_FATAL(so_flex_mps(f, order, zero, a, NULL, rec), SO_OK);
        replay(f, order, zero, b);
        for (size_t j = 0; j < n; j++)
            CU_ASSERT_DOUBLE_EQUAL(a[j], b[j], 1e-9 * (1 + b[j]));
        double obj;
        char why[200];
        CU_ASSERT_EQUAL(so_flex_evaluate(f, rec, zero, NULL, &obj, why, sizeof why), SO_OK);
        CU_ASSERT_DOUBLE_EQUAL(obj, so_flex_objective(f, a), 1e-9 * (1 + obj));
        so_flex_schedule_free(rec);
        free(order);
        free(a);
        free(b);
        so_flex_free(f);
    }
}

static void expect_infeasible(const so_flex *f, const char *intervals, const char *what)
{
    char text[600];
    snprintf(text, sizeof text, "{\"intervals\": %s}", intervals);
    so_flex_schedule *s = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_test_read_schedule(text, f->n, &s, &err), SO_OK);
    double obj;
    char why[200];
    CU_ASSERT_EQUAL(so_flex_evaluate(f, s, 0, NULL, &obj, why, sizeof why), SO_INFEASIBLE);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, what));
    so_flex_schedule_free(s);
}

static void test_evaluate(void)
{
    so_flex *f = three_jobs();
    /* a moldable schedule: (4, 4, 2) from 0; job 2 ends at 4 and job 0 at
     * 5; then job 1 runs on 4 + 6 slots: 30 - 20 = 10 left at 5 -> 6 */
    const char *ok = "{\"intervals\": [{\"start\": 0, \"end\": 4, \"slots\": [4, 4, 2]},"
                     " {\"start\": 4, \"end\": 5, \"slots\": [4, 4, 0]},"
                     " {\"start\": 5, \"end\": 6, \"slots\": [0, 10, 0]}]}";
    so_flex_schedule *s = NULL;
    so_error err;
    char why[200];
    CU_ASSERT_EQUAL_FATAL(so_test_read_schedule(ok, 3, &s, &err), SO_OK);
    double obj, c[3];
    CU_ASSERT_EQUAL(so_flex_evaluate(f, s, 0, c, &obj, why, sizeof why), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(c[0], 5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c[1], 6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c[2], 4, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(obj, 15, 1e-12);
    f->aggregate = SO_FLEX_MAX;
    CU_ASSERT_EQUAL(so_flex_evaluate(f, s, 0, c, &obj, why, sizeof why), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(obj, 6, 1e-12);
    f->aggregate = SO_FLEX_SUM;
    so_flex_schedule_free(s);
    expect_infeasible(f, "[{\"start\": 0, \"end\": 4, \"slots\": [5, 4, 2]}]", "more than 10");
    expect_infeasible(f, "[{\"start\": 0, \"end\": 4, \"slots\": [1, 4, 2]}]", "outside [2, 6]");
    expect_infeasible(f, "[{\"start\": 0, \"end\": 4, \"slots\": [4, 4, 5]}]", "outside [1, 4]");
    expect_infeasible(f, "[{\"start\": 0, \"end\": 4, \"slots\": [4, 4, 2]}]", "left undone");
    expect_infeasible(f, "[{\"start\": 1, \"end\": 4, \"slots\": [4, 4, 2]}]", "follow on");
    expect_infeasible(f, "[{\"start\": 0, \"end\": 4, \"slots\": [4, 4, 2]},"
                         " {\"start\": 4, \"end\": 9, \"slots\": [4, 4, 1]}]",
                      "after completing");
    /* malformed schedules: key path and line of the offending value */
    static const struct {
        const char *text, *key;
        int line;
    } bad[] = {
        {"{\"interval\": []}", "intervals", 1}, /* missing */
        {"{\"intervals\": [\n{\"start\": 0, \"end\": 1}]}", "intervals[0].slots", 2},
        {"{\"intervals\": [\n{\"start\": 0, \"end\": 1,\n \"slots\": [1, 1]}]}",
         "intervals[0].slots", 3},
        {"{\"intervals\": [{\"start\": 0, \"end\": 1,\n \"slots\": [1, -1, 1]}]}",
         "intervals[0].slots[1]", 2},
        {"{\"intervals\": [{\"start\": -1, \"end\": 1, \"slots\": [1, 1, 1]}]}",
         "intervals[0].start", 1},
        {"{\"intervals\": [{\"start\": 0, \"end\": 1, \"slots\": [1, 1, 1], \"x\": 1}]}",
         "intervals[0].x", 1},
        {"{\"intervals\": [7]}", "intervals[0]", 1},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        so_flex_schedule *t = NULL;
        CU_ASSERT_EQUAL(so_test_read_schedule(bad[k].text, 3, &t, &err), SO_EINVAL);
        CU_ASSERT_PTR_NULL(t);
        CU_ASSERT_STRING_EQUAL(err.key, bad[k].key);
        CU_ASSERT_EQUAL(err.line, bad[k].line);
    }
    so_flex_free(f);
}

/* One slot (a single machine): p = (2, 3, 4, 1), d = (3, 4, 6, 8). EDD
 * completes at 2, 5, 9, 10: job 1 is late, the longest so far, moved to
 * the back; then 2, 6, 7 are on time: order (0, 2, 3, 1), one tardy job,
 * the optimum of Moore-Hodgson. */
static void test_moore_by_hand(void)
{
    so_flex *f = so_flex_new(4, 0);
    f->slots = 1;
    f->metric = SO_FLEX_TARDY;
    double p[4] = {2, 3, 4, 1}, d[4] = {3, 4, 6, 8};
    for (int j = 0; j < 4; j++) {
        f->work[j] = p[j];
        f->deadline[j] = d[j];
        f->max[j] = 1;
    }
    size_t order[4];
    CU_ASSERT_EQUAL_FATAL(so_flex_order(f, SO_FLEX_ORDER_MOORE, order), SO_OK);
    CU_ASSERT_EQUAL(order[0], 0);
    CU_ASSERT_EQUAL(order[1], 2);
    CU_ASSERT_EQUAL(order[2], 3);
    CU_ASSERT_EQUAL(order[3], 1);
    CU_ASSERT_DOUBLE_EQUAL(so_flex_mps_value(f, order), 1, 0);
    f->metric = SO_FLEX_RESPONSE; /* no deadlines: plain EDD */
    CU_ASSERT_EQUAL_FATAL(so_flex_order(f, SO_FLEX_ORDER_MOORE, order), SO_OK);
    CU_ASSERT_EQUAL(order[1], 1);
    so_flex_free(f);
}

/* Two jobs that finish together (S = 2, C = 3, M = 1): MPS and FAIR end
 * the first at 3 and leave a zero-length interval [3, 3] in which the
 * other, done as well, still holds its slot; the evaluator accepts both
 * schedules with completion times (3, 3). A job holding slots in a
 * longer interval after its completion is still refused. */
static void test_ties_evaluate(void)
{
    so_flex *f = so_flex_new(2, 0);
    f->slots = 2;
    f->metric = SO_FLEX_RESPONSE;
    f->work[0] = f->work[1] = 3;
    f->max[0] = f->max[1] = 1;
    size_t order[2] = {0, 1};
    double c[2], cc[2], obj;
    char why[200] = "";
    for (int fair = 0; fair < 2; fair++) {
        so_flex_schedule *rec = so_flex_schedule_new(2);
        CU_ASSERT_EQUAL_FATAL(fair ? so_flex_fair(f, SO_FLEX_FAIR_LEVEL, c, NULL, rec)
                                   : so_flex_mps(f, order, 0, c, NULL, rec), SO_OK);
        CU_ASSERT_EQUAL(rec->n_intervals, 2);
        CU_ASSERT_EQUAL(so_flex_evaluate(f, rec, 0, cc, &obj, why, sizeof why), SO_OK);
        CU_ASSERT_DOUBLE_EQUAL(cc[0], 3, 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(cc[1], 3, 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(obj, 6, 1e-12);
        so_flex_schedule_free(rec);
    }
    so_flex_schedule *late = so_flex_schedule_new(2);
    int64_t both[2] = {1, 1};
    so_flex_schedule_add(late, 0, 3, both);
    so_flex_schedule_add(late, 3, 4, both);
    CU_ASSERT_EQUAL(so_flex_evaluate(f, late, 0, cc, &obj, why, sizeof why), SO_INFEASIBLE);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "after completing"));
    so_flex_schedule_free(late);
    so_flex_free(f);
}

/* The orders FLEX copies instead of sorting (so_flex_order_same_as) are
 * the orders so_flex_order sorts; EDD without deadlines is index order. */
static void test_orders_same_as(void)
{
    so_rng rng;
    so_rng_seed(&rng, 11);
    for (int it = 0; it < 200; it++) {
        size_t n = (size_t)so_rng_int(&rng, 1, 40);
        int metric = it % 2 ? SO_FLEX_RESPONSE : SO_FLEX_WRESPONSE;
        so_flex *f = so_test_flex_random(&rng, n, (int64_t)n + 5, 3, metric,
                                         SO_FLEX_SUM);
        for (size_t j = 0; j < n; j++) {
            f->deadline[j] = 0;
            if (j > 0 && it % 4 == 1)
                f->work[j] = f->work[j - 1]; /* ties: broken by index */
        }
        size_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        CU_ASSERT_EQUAL_FATAL(so_flex_order(f, SO_FLEX_ORDER_EDD, a), SO_OK);
        for (size_t j = 0; j < n; j++)
            CU_ASSERT_EQUAL(a[j], j);
        int copies = 0;
        for (int kind = SO_FLEX_ORDER_RAP; kind < SO_FLEX_NORDERS; kind++) {
            int same = so_flex_order_same_as(f, kind);
            if (same < 0)
                continue;
            CU_ASSERT_TRUE(same < kind);
            CU_ASSERT_EQUAL_FATAL(so_flex_order(f, kind, a), SO_OK);
            CU_ASSERT_EQUAL_FATAL(so_flex_order(f, same, b), SO_OK);
            CU_ASSERT_EQUAL(memcmp(a, b, n * sizeof *a), 0);
            copies++;
        }
        /* LPT and Moore always here; Smith twins with unit omega */
        CU_ASSERT_TRUE(copies >= 2);
        if (metric == SO_FLEX_RESPONSE)
            CU_ASSERT_EQUAL(copies, 4);
        free(a);
        free(b);
        so_flex_free(f);
    }
}

/* Orders are sorted by radix (3,000 jobs) or by merge sort (below 256:
 * runs of 16 and their merges, sizes around those edges) (flex_orders.c):
 * the order must be the one of (key, index) — checked for SPT (key = work:
 * ties, -0 beside +0, infinity) and LPT (key = -work / max: negative
 * keys), and a NaN key falls back to qsort without failing. */
static void test_large_orders(void)
{
    static const size_t sizes[] = {3000, 1, 2, 15, 16, 17, 31, 33, 64, 200, 255};
    enum { N = 3000 };
    so_flex *f = so_flex_new(N, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    f->slots = 100;
    f->metric = SO_FLEX_RESPONSE;
    so_rng rng;
    so_rng_seed(&rng, 44);
    size_t *order = malloc(N * sizeof *order);
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        f->n = sizes[s];
        for (size_t j = 0; j < f->n; j++) {
            int r = (int)so_rng_int(&rng, 0, 60);
            f->work[j] = r == 0 ? -0.0 : r == 1 ? 0.0 : r == 2 ? INFINITY
                       : r < 30 ? (double)(r % 7) : so_rng_uniform(&rng) * 1e6;
            f->min[j] = 0;
            f->max[j] = so_rng_int(&rng, 1, 5);
        }
        CU_ASSERT_EQUAL_FATAL(so_flex_order(f, SO_FLEX_ORDER_SPT, order), SO_OK);
        for (size_t i = 1; i < f->n; i++) {
            double a = f->work[order[i - 1]], b = f->work[order[i]];
            bad += !(a < b || (a == b && order[i - 1] < order[i]));
        }
        CU_ASSERT_EQUAL(so_flex_order(f, SO_FLEX_ORDER_LPT, order), SO_OK);
        unsigned char *seen = calloc(f->n, 1);
        for (size_t i = 0; i < f->n; i++) {
            CU_ASSERT_FATAL(order[i] < f->n);
            bad += seen[order[i]]++; /* a permutation */
            if (i == 0)
                continue;
            size_t x = order[i - 1], y = order[i];
            double a = -(f->work[x] / (double)f->max[x]);
            double b = -(f->work[y] / (double)f->max[y]);
            bad += !(a < b || (a == b && x < y));
        }
        free(seen);
    }
    CU_ASSERT_EQUAL(bad, 0);
    f->n = N;
    f->work[17] = NAN;
    CU_ASSERT_EQUAL(so_flex_order(f, SO_FLEX_ORDER_SPT, order), SO_OK);
    free(order);
    so_flex_free(f);
}

/* A random instance for the cut replays: sizes up to 600 jobs (the radix
 * sorts above 256), S below or above n, learning minima of 1, ties in
 * work (repeated values), the cluster's metrics and a deadline metric. */
static so_flex *cut_instance(so_rng *rng, int it)
{
    static const int metrics[] = {SO_FLEX_RESPONSE, SO_FLEX_WRESPONSE,
                                  SO_FLEX_STRETCH, SO_FLEX_MAKESPAN,
                                  SO_FLEX_TARDINESS};
    int metric = metrics[it % 5];
    size_t n = (size_t)so_rng_int(rng, 1, it % 3 == 0 ? 600 : 40);
    int64_t S = so_rng_int(rng, 1, (int64_t)n + 30);
    so_flex *f = so_test_flex_random(rng, n, S, 1, metric,
                                     metric == SO_FLEX_MAKESPAN ? SO_FLEX_MAX
                                                                : SO_FLEX_SUM);
    int64_t q = so_rng_int(rng, 1, 8);
    for (size_t j = 0; j < n; j++) {
        if (it % 4 == 1) /* few distinct works: many equal keys */
            f->work[j] = (double)(1 + (int64_t)j % q) * 3;
        if (it % 2 == 0)
            f->deadline[j] = 0;
        if (f->max[j] > 12 && it % 3 != 2)
            f->max[j] = so_rng_int(rng, f->min[j] > 1 ? f->min[j] : 1, 12);
    }
    return f;
}

/* so_flex_mps_run: without a bound (or not cut) the outputs of so_flex_mps
 * bit for bit; cut only when the whole replay's objective exceeds the
 * bound by more than the margin (bounds around the exact value). */
static void test_mps_cut(void)
{
    so_rng rng;
    so_rng_seed(&rng, 91);
    int cuts = 0, whole = 0;
    for (int it = 0; it < 400; it++) {
        so_flex *f = cut_instance(&rng, it);
        size_t n = f->n, *order = malloc(n * sizeof *order);
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        int64_t *fa = malloc(n * sizeof *fa), *fb = malloc(n * sizeof *fb);
        so_flex_mps_ws *w = so_flex_mps_ws_new(n + 3);
        CU_ASSERT_PTR_NOT_NULL_FATAL(w);
        CU_ASSERT_EQUAL_FATAL(so_flex_order(f, (int)(it % 4) + SO_FLEX_ORDER_SPT,
                                            order), SO_OK);
        CU_ASSERT_EQUAL_FATAL(so_flex_mps(f, order, 0, a, fa, NULL), SO_OK);
        double v = so_flex_objective(f, a);
        for (int r = 0; r < 6; r++) {
            double bound = r == 0 ? INFINITY : v * (0.4 + 0.15 * r);
            int cut = -1;
            CU_ASSERT_EQUAL_FATAL(so_flex_mps_run(w, f, order, 0, bound, b, fb,
                                                  NULL, &cut), SO_OK);
            CU_ASSERT_EQUAL(memcmp(fa, fb, n * sizeof *fa), 0);
            if (cut) {
                cuts++;
                CU_ASSERT_TRUE(v > bound + 1e-7 * (1 + fabs(bound)));
                CU_ASSERT_TRUE(f->metric != SO_FLEX_TARDINESS);
            } else {
                whole++;
                CU_ASSERT_EQUAL(memcmp(a, b, n * sizeof *a), 0);
            }
        }
        /* FIFO's replay (minima 0) is never cut */
        int cut = -1;
        CU_ASSERT_EQUAL(so_flex_mps_run(w, f, order, 1, 0.0, b, NULL, NULL, &cut),
                        SO_OK);
        CU_ASSERT_EQUAL(cut, 0);
        so_flex_mps_ws_free(w);
        free(order);
        free(a);
        free(b);
        free(fa);
        free(fb);
        so_flex_free(f);
    }
    CU_ASSERT_TRUE(cuts > 200);
    CU_ASSERT_TRUE(whole > 200);
}

/* LAXITY from ALONE reversed (so_flex_order_reversed) is the sorted
 * LAXITY order, ties included, on small and radix-sized instances. */
static void test_order_reversed(void)
{
    so_rng rng;
    so_rng_seed(&rng, 92);
    for (int it = 0; it < 200; it++) {
        so_flex *f = cut_instance(&rng, it);
        size_t n = f->n;
        for (size_t j = 0; j < n; j++)
            f->deadline[j] = 0;
        if (it % 5 == 3 && n > 2)
            f->work[1] = INFINITY;
        CU_ASSERT_TRUE_FATAL(f->metric == SO_FLEX_SLA || so_flex_order_reversible(f));
        size_t *alone = malloc(n * sizeof *alone), *a = malloc(n * sizeof *a),
               *b = malloc(n * sizeof *b);
        CU_ASSERT_EQUAL_FATAL(so_flex_order(f, SO_FLEX_ORDER_ALONE, alone), SO_OK);
        CU_ASSERT_EQUAL_FATAL(so_flex_order(f, SO_FLEX_ORDER_LAXITY, a), SO_OK);
        CU_ASSERT_EQUAL_FATAL(so_flex_order_reversed(f, alone, b), SO_OK);
        CU_ASSERT_EQUAL(memcmp(a, b, n * sizeof *a), 0);
        free(alone);
        free(a);
        free(b);
        so_flex_free(f);
    }
    so_flex *f = so_flex_new(3, 0);
    f->deadline[0] = 1;
    CU_ASSERT_FALSE(so_flex_order_reversible(f));
    so_flex_free(f);
}

/* so_flex_order_inc against so_flex_order on random sequences of
 * instances: jobs (ids out of 1,500) join and leave, a random part of the
 * keys move between calls, ties (few distinct works), -0 beside +0,
 * infinity and, now and then, a NaN (the fallback); up to 700 jobs (the
 * radix sort), SPT, SMITH, ALONE and SMITH_ALONE with weights. */
static void test_order_inc(void)
{
    enum { IDS = 1500 };
    static const int kinds[] = {SO_FLEX_ORDER_SPT, SO_FLEX_ORDER_SMITH,
                                SO_FLEX_ORDER_ALONE, SO_FLEX_ORDER_SMITH_ALONE};
    so_rng rng;
    so_rng_seed(&rng, 94);
    double *work = malloc(IDS * sizeof *work), *weight = malloc(IDS * sizeof *weight);
    int64_t *max = malloc(IDS * sizeof *max);
    unsigned char *in = calloc(IDS, 1);
    int *ids = malloc(IDS * sizeof *ids), bad = 0, moved = 0;
    size_t *a = malloc(IDS * sizeof *a), *b = malloc(IDS * sizeof *b);
    so_flex *f = so_flex_new(IDS, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (int seq = 0; seq < 8; seq++) {
        int kind = kinds[seq % 4], distinct = seq % 2 ? 5 : 1000000;
        so_flex_order_inc *o = so_flex_order_inc_new(IDS);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o);
        memset(in, 0, IDS);
        f->metric = seq % 4 == 1 || seq % 4 == 3 ? SO_FLEX_WRESPONSE
                                                 : SO_FLEX_RESPONSE;
        for (int step = 0; step < 60; step++) {
            double p_in = step % 20 < 10 ? 0.45 : 0.25;
            double p_move = so_rng_uniform(&rng);
            for (int id = 0; id < IDS; id++) {
                int was = in[id];
                if (so_rng_uniform(&rng) < 0.05 || step == 0)
                    in[id] = so_rng_uniform(&rng) < p_in;
                if (!in[id] || (was && so_rng_uniform(&rng) > p_move))
                    continue;
                int r = (int)so_rng_int(&rng, 0, 99);
                work[id] = r == 0 ? -0.0 : r == 1 ? 0.0 : r == 2 ? INFINITY
                         : (double)(1 + so_rng_int(&rng, 0, distinct));
                max[id] = so_rng_int(&rng, 1, 4);
                weight[id] = (double)so_rng_int(&rng, 1, 3);
                moved++;
            }
            size_t n = 0;
            for (int id = 0; id < IDS; id++)
                if (in[id]) {
                    ids[n] = id;
                    f->work[n] = work[id];
                    f->max[n] = max[id];
                    f->weight[n] = weight[id];
                    n++;
                }
            f->n = n;
            if (step == 33)
                f->work[n / 2] = NAN;
            CU_ASSERT_EQUAL_FATAL(so_flex_order_inc_run(o, f, kind, ids, a), SO_OK);
            CU_ASSERT_EQUAL_FATAL(so_flex_order(f, kind, b), SO_OK);
            if (step != 33)
                bad += memcmp(a, b, n * sizeof *a) != 0;
        }
        ids[1] = ids[0]; /* not ascending */
        f->n = 2;
        CU_ASSERT_EQUAL(so_flex_order_inc_run(o, f, kind, ids, a), SO_EINVAL);
        so_flex_order_inc_free(o);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_TRUE(moved > 10000);
    f->n = IDS;
    so_flex_free(f);
    free(work);
    free(weight);
    free(max);
    free(in);
    free(ids);
    free(a);
    free(b);
}

static CU_TestInfo tests[] = {
    {"orders kept from instance to instance = sorted", test_order_inc},
    {"cut MPS replays: same outputs, cut only above the bound", test_mps_cut},
    {"LAXITY as ALONE reversed", test_order_reversed},
    {"orders: radix and merge sort give the (key, index) order", test_large_orders},
    {"orders FLEX copies equal the sorted ones", test_orders_same_as},
    {"Moore-Hodgson order by hand", test_moore_by_hand},
    {"MPS reproduces a hand-computed schedule", test_mps_by_hand},
    {"FIFO reproduces a hand-computed schedule", test_fifo_by_hand},
    {"FAIR reproduces hand-computed schedules", test_fair_by_hand},
    {"event-driven MPS equals a direct replay", test_mps_random},
    {"evaluation of malleable schedules", test_evaluate},
    {"schedules with simultaneous completions pass the evaluator", test_ties_evaluate},
    CU_TEST_INFO_NULL,
};
SO_SUITE("flex-mps", tests)
