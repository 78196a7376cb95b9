/* test_kp_core_order.c — kp-dp's lazily sorted efficiency order
 * (solvers/kp_core_order.c, issue 30): the break item, its prefix and
 * every sorted stretch are those of the full sort (so_kp_order), with and
 * without the reduction test filtering what is brought in; and kp-dp,
 * whose core now runs through such intervals (n > 64), finds the optimum
 * of a plain profit-indexed DP on every class. */
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/solvers/kp_testing.h"
#include "formulations/knapsack.h"
#include "solvers/kp_core_order.h"

/* random instance with ties, zero weights / profits or coefficients near
 * 2^50 (doubles merge their ratios), as in kp-surrogate's sort test */
static so_kp *random_kp(so_rng *rng, int t)
{
    size_t n = (size_t)so_rng_int(rng, 0, 3000);
    so_kp *kp = so_kp_new(n);
    int64_t R = t % 3 == 0 ? 5 : t % 3 == 1 ? 1000 : (int64_t)1 << 50;
    int64_t sw = 0;
    for (size_t i = 0; i < n; i++) {
        kp->weight[i] = so_rng_int(rng, t % 4 == 0 ? 0 : 1, R);
        kp->profit[i] = t % 5 == 0 ? kp->weight[i] + R / 7 : so_rng_int(rng, 0, R);
        sw += kp->weight[i] / 4;
    }
    kp->capacity = so_rng_int(rng, 0, sw + 1) * (t % 7 == 0 ? 5 : 1);
    return kp;
}

/* the break of the full order: position, weight and profit of the prefix */
static void full_break(const so_kp *kp, const size_t *full, size_t *b,
                       int64_t *W, int64_t *P)
{
    *b = 0, *W = 0, *P = 0;
    while (*b < kp->n && *W + kp->weight[full[*b]] <= kp->capacity) {
        *W += kp->weight[full[*b]];
        *P += kp->profit[full[*b]];
        (*b)++;
    }
}

static void test_same_break_and_order(void)
{
    so_rng rng;
    so_rng_seed(&rng, 30);
    int with_intervals = 0;
    for (int t = 0; t < 80; t++) {
        so_kp *kp = random_kp(&rng, t);
        size_t n = kp->n, *full = so_kp_order(kp);
        CU_ASSERT_PTR_NOT_NULL_FATAL(full);
        size_t *rank = malloc((n + 1) * sizeof *rank);
        for (size_t k = 0; k < n; k++)
            rank[full[k]] = k;
        size_t fb, b;
        int64_t fW, fP, W, P;
        full_break(kp, full, &fb, &fW, &fP);
        kp_core_order o;
        CU_ASSERT_EQUAL_FATAL(so_kp_core_order_init(&o, kp, kp->capacity, &b,
                                                    &W, &P), SO_OK);
        CU_ASSERT_EQUAL(b, fb);
        CU_ASSERT_EQUAL(W, fW);
        CU_ASSERT_EQUAL(P, fP);
        CU_ASSERT_TRUE(o.lo <= b && (b < o.hi || b == n));
        /* the prefix holds the same items */
        int prefix = 1, window = 1;
        for (size_t k = 0; k < b; k++)
            prefix &= rank[o.ord[k]] < b;
        for (size_t k = o.lo; k < o.hi; k++)
            window &= o.ord[k] == full[k] && o.pw[k] == kp->weight[full[k]] &&
                      o.pp[k] == kp->profit[full[k]];
        CU_ASSERT_TRUE(prefix);
        CU_ASSERT_TRUE(window);
        with_intervals += o.nleft + o.nright > 0;
        /* reaching both ends without a test: the full order itself */
        if (n > 0) {
            so_kp_core_order_reach(&o, 0, NULL);
            so_kp_core_order_reach(&o, n - 1, NULL);
        }
        CU_ASSERT_EQUAL(o.lo, 0);
        CU_ASSERT_EQUAL(o.hi, n);
        CU_ASSERT_EQUAL(memcmp(o.ord, full, n * sizeof *full), 0);
        so_kp_core_order_free(&o);
        free(rank);
        free(full);
        so_kp_free(kp);
    }
    CU_ASSERT_TRUE(with_intervals > 40); /* the partitions were exercised */
}

/* with the reduction test: the items that pass come in the full order's
 * order over all positions, the others fail it, the break is unchanged */
static void test_filtered_intervals(void)
{
    so_rng rng;
    so_rng_seed(&rng, 31);
    for (int t = 0; t < 80; t++) {
        so_kp *kp = random_kp(&rng, t + 1);
        size_t n = kp->n, b;
        int64_t W, P;
        size_t *full = so_kp_order(kp), *rank = malloc((n + 1) * sizeof *rank);
        for (size_t k = 0; k < n; k++)
            rank[full[k]] = k;
        kp_core_order o;
        CU_ASSERT_EQUAL_FATAL(so_kp_core_order_init(&o, kp, kp->capacity, &b,
                                                    &W, &P), SO_OK);
        if (b >= n || n == 0) {
            so_kp_core_order_free(&o);
            free(rank);
            free(full);
            so_kp_free(kp);
            continue;
        }
        size_t lo0 = o.lo, hi0 = o.hi;
        kp_reduce red = {o.pp[b], o.pw[b], 0};
        /* a threshold that rejects some items: the incumbent a little
         * above the break solution */
        int64_t z = P + so_rng_int(&rng, 0, 3) * (o.pp[b] / 4);
        red.T = (__int128)(z + 1 - P) * red.wb - (__int128)(kp->capacity - W) * red.pb;
        so_kp_core_order_reach(&o, 0, &red);
        so_kp_core_order_reach(&o, n - 1, &red);
        size_t last = 0;
        int ordered = 1, first = 1;
        for (size_t k = 0; k < n; k++) {
            size_t i = o.ord[k];
            int right = k >= hi0, in_window = k >= lo0 && k < hi0;
            __int128 v = (__int128)kp->profit[i] * red.wb -
                         (__int128)kp->weight[i] * red.pb;
            int pass = (right ? v : -v) >= red.T;
            CU_ASSERT_EQUAL(o.pw[k], kp->weight[i]);
            if (pass || in_window) {
                ordered &= first || rank[i] > last;
                last = rank[i];
                first = 0;
            }
        }
        int prefix = 1;
        for (size_t k = 0; k < b; k++)
            prefix &= rank[o.ord[k]] < b;
        CU_ASSERT_TRUE(ordered);
        CU_ASSERT_TRUE(prefix);
        so_kp_core_order_free(&o);
        free(rank);
        free(full);
        so_kp_free(kp);
    }
}

/* plain DP over total profits (the least weight of each): the reference
 * optimum (profits here are at most about 1.1 R, so the table is small) */
static int64_t table_dp(const so_kp *kp)
{
    int64_t total = 0;
    for (size_t i = 0; i < kp->n; i++)
        total += kp->profit[i];
    int64_t *g = malloc(((size_t)total + 1) * sizeof *g);
    for (int64_t q = 1; q <= total; q++)
        g[q] = INT64_MAX;
    g[0] = 0;
    for (size_t i = 0; i < kp->n; i++)
        for (int64_t q = total; q >= kp->profit[i]; q--)
            if (g[q - kp->profit[i]] != INT64_MAX &&
                g[q - kp->profit[i]] + kp->weight[i] < g[q])
                g[q] = g[q - kp->profit[i]] + kp->weight[i];
    int64_t best = 0;
    for (int64_t q = 0; q <= total; q++)
        if (g[q] <= kp->capacity)
            best = q;
    free(g);
    return best;
}

static void test_dp_against_table(void)
{
    static const char *const cls[] = {"uncorrelated", "weakly", "strongly",
                                      "inverse-strongly", "almost-strongly",
                                      "subset-sum", "similar-weights"};
    so_rng rng;
    so_rng_seed(&rng, 32);
    for (int c = 0; c < 7; c++)
        for (int t = 0; t < 12; t++) {
            char n[16], cap[16];
            snprintf(n, sizeof n, "%d", (int)so_rng_int(&rng, 65, 300));
            snprintf(cap, sizeof cap, "%.3f", 0.05 + 0.9 * so_rng_uniform(&rng));
            const char *kv[] = {"n", n, "R", t % 2 ? "50" : "100", "class",
                                cls[c], "capacity", cap, NULL};
            so_problem *p = so_test_kp_generate("knapsack", kv, 30,
                                                (uint64_t)(100 * c + t));
            const so_kp *kp = so_kp_of(p);
            so_test_kp_dp_equals(kp, table_dp(kp));
            so_problem_free(p);
        }
}

/* Profits and weights above 2^53: (double)p is rounded before the
 * division, so A = (2^55 + 1, 2^55 - 8), the more efficient, gets a larger
 * key than B = (2^55 + 5, 2^55 - 3). Partitioned on those keys, A and B
 * fell in different intervals, never repaired, and kp-dp proved 1 below
 * the optimum (a reviewer's instance): 222 items (3000 + k, 1), A, B and
 * F = (5, 5) among them, then 378 items (1, 2000 + k); capacity 2^55 +
 * 219. The optimum takes the 222, A and F: 690,531 + 2^55 + 1 + 5. */
static void test_large_coefficients(void)
{
    const int64_t e55 = INT64_C(1) << 55;
    size_t cap = 64 * 1024, n = 0;
    char *text = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char profits[2][40000] = {"", ""};
    size_t len[2] = {0, 0};
    for (int i = 0, u = 0, h = 0; i < 603; i++) {
        int64_t pr, wt;
        if (i == 26)
            pr = e55 + 1, wt = e55 - 8;
        else if (i == 78)
            pr = e55 + 5, wt = e55 - 3;
        else if (i == 130)
            pr = 5, wt = 5;
        else if (u < 222)
            pr = 3000 + u++, wt = 1;
        else
            pr = 1, wt = 2000 + h++;
        len[0] += (size_t)snprintf(profits[0] + len[0], sizeof profits[0] - len[0],
                                   "%s%lld", i ? ", " : "", (long long)pr);
        len[1] += (size_t)snprintf(profits[1] + len[1], sizeof profits[1] - len[1],
                                   "%s%lld", i ? ", " : "", (long long)wt);
    }
    n = (size_t)snprintf(text, cap, "{\"problem\": \"knapsack\", \"version\": 1,"
                         " \"capacity\": %lld, \"profits\": [%s], \"weights\": [%s]}",
                         (long long)(e55 + 219), profits[0], profits[1]);
    CU_ASSERT_FATAL(n < cap);
    so_problem *p = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_problem_parse(text, "big", &p, &err), SO_OK);
    const so_kp *kp = so_kp_of(p);
    unsigned char *x = malloc(kp->n + 1);
    int proved = 0;
    CU_ASSERT_EQUAL(so_kp_dp_exact(kp, 0, 8000000, 1, x, &proved), SO_OK);
    CU_ASSERT_TRUE(proved);
    int64_t w = 0;
    CU_ASSERT_EQUAL(so_kp_value(kp, x, &w), e55 + 690537);
    CU_ASSERT_TRUE(w <= kp->capacity);
    free(x);
    so_problem_free(p);
    free(text);
}

static CU_TestInfo tests[] = {
    {"profits and weights above 2^53: the exact order, the optimum",
     test_large_coefficients},
    {"partition around the break = full sort (break, prefix, window, all)",
     test_same_break_and_order},
    {"intervals filtered by the reduction test keep the order",
     test_filtered_intervals},
    {"kp-dp = a profit-indexed DP, n = 65-300, 7 classes",
     test_dp_against_table},
    CU_TEST_INFO_NULL,
};
SO_SUITE("kp-core-order", tests)
