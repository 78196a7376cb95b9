/* test_kp_select.c — the selections of kp-dp at the sizes where they go
 * through a sample's band (kp_sort.c, kp_card_bound.c: n >= 4096), against
 * sorting: the k-th smallest value, how many of the smallest values fit a
 * budget, and the LP of the cardinality bounds. The values include ties,
 * zeros, negative and near-2^62 values (sums beyond 64 bits), and data on
 * which the sample's estimate misses the band (a few huge values among
 * small ones), so both the band and its fallback answer. */
#include <string.h>
#include "tests/test_util.h"
#include "tests/solvers/kp_testing.h"
#include "solvers/kp_exact_internal.h"

#define MAXN 20011

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* n values of the given kind (0..7) */
static void values(so_rng *rng, int kind, int64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case 0: v[i] = so_rng_int(rng, 0, 1000000); break;
        case 1: v[i] = so_rng_int(rng, 0, 5); break; /* ties */
        case 2: v[i] = 7; break;                     /* all equal */
        case 3: /* a few huge among small ones: the sample misses them */
            v[i] = i % 997 == 5 ? so_rng_int(rng, 1, 1000) * 1000000000LL
                                : so_rng_int(rng, 0, 3);
            break;
        case 4: v[i] = so_rng_int(rng, -1000000, 1000000); break;
        case 5: v[i] = (int64_t)i * 3; break; /* sorted already */
        case 6: /* sums beyond 64 bits */
            v[i] = so_rng_int(rng, (int64_t)1 << 61, (int64_t)1 << 62);
            break;
        default: /* two clusters */
            v[i] = so_rng_int(rng, 0, 1) ? 1000000000LL : 1;
            break;
        }
    }
}

/* the most k whose k smallest values sum to <= budget (0 when none) */
static size_t count_ref(const int64_t *sorted, size_t n, __int128 budget)
{
    size_t best = 0;
    __int128 acc = 0;
    for (size_t k = 1; k <= n; k++) {
        acc += sorted[k - 1];
        if (acc <= budget)
            best = k;
    }
    return best;
}

static void check_count(const int64_t *v, const int64_t *sorted, size_t n,
                        __int128 budget, int64_t *w)
{
    size_t expect = count_ref(sorted, n, budget);
    memcpy(w, v, n * sizeof *w);
    CU_ASSERT_EQUAL(so_kp_count_within(w, n, budget), expect);
    int64_t *scratch = malloc(n * sizeof *scratch);
    CU_ASSERT_EQUAL(so_kp_count_within_copy(v, n, budget, scratch), expect);
    free(scratch);
}

/* the k-th smallest and the counts within budgets, against qsort, for
 * every kind of values and sizes on both sides of SO_KP_BAND_MIN_N */
static void test_select_count(void)
{
    static const size_t sizes[] = {1000, SO_KP_BAND_MIN_N, 5000, MAXN};
    static int64_t v[MAXN], w[MAXN], sorted[MAXN], keep[MAXN];
    so_rng rng;
    so_rng_seed(&rng, 4096);
    for (int kind = 0; kind < 8; kind++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            size_t n = sizes[si];
            values(&rng, kind, v, n);
            memcpy(sorted, v, n * sizeof *v);
            memcpy(keep, v, n * sizeof *v);
            qsort(sorted, n, sizeof *sorted, cmp_i64);
            size_t ks[] = {0, n - 1, n / 2, n / 3,
                           (size_t)so_rng_int(&rng, 0, (int64_t)n - 1)};
            for (size_t t = 0; t < sizeof ks / sizeof *ks; t++) {
                memcpy(w, v, n * sizeof *v);
                CU_ASSERT_EQUAL(so_kp_select_i64(w, n, ks[t]), sorted[ks[t]]);
            }
            __int128 total = 0, prefix = 0;
            for (size_t i = 0; i < n; i++)
                total += v[i];
            size_t at = (size_t)so_rng_int(&rng, 1, (int64_t)n - 1);
            for (size_t i = 0; i < at; i++)
                prefix += sorted[i];
            __int128 budgets[] = {0, total, total + 1, total - 1, prefix,
                                  prefix - 1, prefix + 1, total / 2,
                                  total / 1000, (__int128)1 << 101,
                                  (__int128)so_rng_int(&rng, 0, 1 << 30)};
            for (size_t t = 0; t < sizeof budgets / sizeof *budgets; t++)
                if (budgets[t] >= 0)
                    check_count(v, sorted, n, budgets[t], w);
            if (sorted[0] >= 0) /* no prefix within a negative budget */
                check_count(v, sorted, n, -1, w);
            /* the _copy form leaves its source as it was */
            CU_ASSERT_EQUAL(memcmp(v, keep, n * sizeof *v), 0);
        }
}

typedef struct {
    int64_t p, w;
} lp_item;

static int by_ratio(const void *a, const void *b)
{
    const lp_item *x = a, *y = b;
    __int128 l = (__int128)x->p * y->w, r = (__int128)y->p * x->w;
    return (l < r) - (l > r); /* non-increasing p / w (w = 0 first) */
}

/* the LP of kp with profits p + sign * l by sorting every item */
static __int128 lp_ref(const so_kp *kp, int64_t l, int sign)
{
    lp_item *it = malloc((kp->n + 1) * sizeof *it);
    size_t m = 0;
    for (size_t i = 0; i < kp->n; i++) {
        int64_t p = kp->profit[i] + sign * l;
        if (p > 0 && kp->weight[i] <= kp->capacity)
            it[m++] = (lp_item){p, kp->weight[i]};
    }
    qsort(it, m, sizeof *it, by_ratio);
    __int128 acc = 0;
    int64_t room = kp->capacity;
    for (size_t i = 0; i < m; i++) {
        if (it[i].w > room) {
            acc += (__int128)room * it[i].p / it[i].w;
            break;
        }
        room -= it[i].w;
        acc += it[i].p;
    }
    free(it);
    return acc;
}

/* an instance of n items of the given kind (0..5), capacity by cap */
static so_kp *lp_instance(so_rng *rng, int kind, size_t n, int cap)
{
    so_kp *kp = so_kp_new(n);
    int64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t w = so_rng_int(rng, 1, 10000), p;
        switch (kind) {
        case 0: p = so_rng_int(rng, 1, 10000); break; /* uncorrelated */
        case 1: p = w + 1000; break;                  /* strongly */
        case 2: p = 3 * w; break;                     /* one ratio: ties */
        case 3: /* zero weights and items above the capacity */
            p = so_rng_int(rng, 0, 10000);
            w = i % 10 == 0 ? 0 : i % 10 == 1 ? 1000000000 : w;
            break;
        case 4: /* a few heavy items of the best ratio: the sample misses */
            p = i % 1001 == 7 ? 50 * w * 1000 : so_rng_int(rng, 1, 10000);
            w = i % 1001 == 7 ? w * 1000 : w;
            break;
        default: p = so_rng_int(rng, w, w + 100); break; /* near ties */
        }
        kp->weight[i] = w;
        kp->profit[i] = p;
        total += w < 1000000000 ? w : 0;
    }
    kp->capacity = cap == 0 ? total / 2 : cap == 1 ? 0 : cap == 2 ? total
                                                      : total / 50;
    return kp;
}

/* the LP of the cardinality bounds at n >= SO_KP_BAND_MIN_N against
 * sorting: every kind, capacity and multiplier sign */
static void test_card_lp(void)
{
    so_rng rng;
    so_rng_seed(&rng, 1999);
    static const size_t sizes[] = {500, 6000, MAXN};
    for (int kind = 0; kind < 6; kind++)
        for (size_t si = 0; si < 3; si++)
            for (int cap = 0; cap < 4; cap++) {
                so_kp *kp = lp_instance(&rng, kind, sizes[si], cap);
                int64_t ls[] = {0, 1000, 5000, 20000};
                for (size_t t = 0; t < 4; t++)
                    for (int sign = -1; sign <= 1; sign += 2)
                        CU_ASSERT_TRUE(so_kp_card_lp(kp, ls[t], sign) ==
                                       lp_ref(kp, ls[t], sign));
                so_kp_free(kp);
            }
}

/* which places the band's sample reads (n values) */
static void sampled(unsigned char *at, size_t n)
{
    uint64_t seed = SO_KP_SAMPLE_SEED;
    memset(at, 0, n);
    for (size_t i = 0; i < SO_KP_SAMPLE; i++)
        at[so_kp_sample_index(&seed, n)] = 1;
}

/* Data the sample misreads (its places hold values unlike the rest):
 * the band misses (the answer below it, above it, or a band of nearly
 * everything) and the fallback answers, for budgets and ranks across
 * the range. */
static void test_band_misses(void)
{
    static int64_t v[MAXN], w[MAXN], sorted[MAXN];
    static unsigned char at[MAXN];
    size_t n = MAXN;
    sampled(at, n);
    for (int kind = 0; kind < 3; kind++) {
        int64_t r = 0;
        for (size_t i = 0; i < n; i++) /* sampled: 1000, 2000, ... / 1, 2, ... */
            v[i] = at[i] ? (kind == 0 ? 1000 * ++r : kind == 1 ? ++r : 0)
                         : (kind == 0 ? 10000 : kind == 1 ? 5000 : 1);
        memcpy(sorted, v, sizeof v);
        qsort(sorted, n, sizeof *sorted, cmp_i64);
        __int128 total = 0;
        for (size_t i = 0; i < n; i++)
            total += v[i];
        __int128 prefix = 0;
        for (size_t k = 0, t = 0; k < n; prefix += sorted[k++]) {
            if (k < 2100 && kind == 1) /* every prefix past the sample's */
                check_count(v, sorted, n, prefix, w);
            if (k == (n - 1) * t / 60) { /* exactly at sorted prefixes */
                check_count(v, sorted, n, total * (int)t / 60, w);
                check_count(v, sorted, n, total * (int)t / 6000, w);
                check_count(v, sorted, n, prefix, w);
                check_count(v, sorted, n, prefix - 1, w);
                check_count(v, sorted, n, prefix + 1, w);
                t++;
            }
            /* ranks at either end of a run of equal values */
            if ((k > 0 && sorted[k - 1] != sorted[k]) ||
                (k + 1 < n && sorted[k + 1] != sorted[k]) || k % 997 == 0) {
                memcpy(w, v, sizeof v);
                CU_ASSERT_EQUAL(so_kp_select_i64(w, n, k), sorted[k]);
            }
        }
    }
    /* the LP: the sampled items less efficient than the rest, or more */
    so_kp *kp = so_kp_new(n);
    so_rng rng;
    so_rng_seed(&rng, 77);
    for (int kind = 0; kind < 2; kind++) {
        int64_t total = 0;
        for (size_t i = 0; i < n; i++) {
            kp->weight[i] = so_rng_int(&rng, 1, 1000);
            kp->profit[i] = kp->weight[i] * ((at[i] != 0) == kind ? 3 : 1) +
                            so_rng_int(&rng, 0, 9);
            total += kp->weight[i];
        }
        for (int t = 0; t <= 40; t++) {
            kp->capacity = total * t / 40;
            CU_ASSERT_TRUE(so_kp_card_lp(kp, 0, 1) == lp_ref(kp, 0, 1));
            kp->capacity = total * t / 4000;
            CU_ASSERT_TRUE(so_kp_card_lp(kp, 0, 1) == lp_ref(kp, 0, 1));
        }
    }
    so_kp_free(kp);
}

static const int64_t *sort_keys; /* of by_key_then_index */

/* ascending key, ties in the order of idx before the sort (descending
 * index in test_radix): the stable order */

static int by_key_then_index(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int64_t x = sort_keys[i], y = sort_keys[j];
    return x != y ? (x > y) - (x < y) : (i < j) - (i > j); /* idx's order */
}

/* the radix sort of indices by key (digits of up to 8 bits, of up to 11
 * from 32,768 keys on, over the span of bits that vary) against a stable
 * qsort: spans of 1, 17, 40 and 64 bits, negative keys, all equal */
static void test_radix(void)
{
    enum { N = 40000 };
    static int64_t key[N];
    static size_t idx[N], ref[N];
    so_rng rng;
    so_rng_seed(&rng, 17);
    static const size_t sizes[] = {1, 2, 1000, 32767, N};
    for (int kind = 0; kind < 5; kind++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            size_t n = sizes[si];
            for (size_t i = 0; i < n; i++) {
                key[i] = kind == 0   ? so_rng_int(&rng, 0, 1)
                         : kind == 1 ? so_rng_int(&rng, 1, 100000)
                         : kind == 2 ? so_rng_int(&rng, -((int64_t)1 << 39),
                                                  (int64_t)1 << 39)
                         : kind == 3 ? (int64_t)so_rng_u64(&rng)
                                     : 42;
                idx[i] = ref[i] = n - 1 - i; /* not the identity */
            }
            sort_keys = key;
            qsort(ref, n, sizeof *ref, by_key_then_index);
            CU_ASSERT_EQUAL_FATAL(so_kp_sort_index_by_i64(idx, n, key), SO_OK);
            CU_ASSERT_EQUAL(memcmp(idx, ref, n * sizeof *idx), 0);
        }
}

/* the cardinality limits through a cache shared by calls at rising and
 * repeated incumbents equal the limits computed afresh, and so do the
 * bounds that read them (global and surrogate) */
static void test_card_cache(void)
{
    so_rng rng;
    so_rng_seed(&rng, 30);
    for (int t = 0; t < 6; t++) {
        size_t n = t < 3 ? 300 : 6000;
        so_kp *kp = lp_instance(&rng, t % 3 == 2 ? 1 : 0, n, 0);
        size_t *ord = so_kp_efficiency_order(kp);
        int64_t total = 0, dz = 0;
        for (size_t i = 0; i < n; i++)
            total += kp->profit[i];
        size_t b = 0;
        for (int64_t w = 0; b < n && w + kp->weight[ord[b]] <= kp->capacity;
             b++)
            w += kp->weight[ord[b]], dz += kp->profit[ord[b]];
        so_kp_card_cache cache = {0}, both = {0};
        int64_t zs[] = {dz,    dz,        dz + 1, dz + 1, total / 2, total / 3,
                        total, total,     total - 1, dz - 5};
        unsigned char *x = malloc(n), *y = malloc(n);
        for (size_t k = 0; k < sizeof zs / sizeof *zs; k++) {
            int64_t a1, a2, c1, c2;
            int64_t *v = malloc(n * sizeof *v);
            int r1 = so_kp_card_limits(kp, zs[k], v, &a1, &c1);
            int r2 = so_kp_card_limits_cached(kp, zs[k], NULL, &cache, &a2,
                                              &c2);
            free(v);
            CU_ASSERT_EQUAL(r1, r2);
            CU_ASSERT_EQUAL(a1, a2);
            CU_ASSERT_EQUAL(c1, c2);
            CU_ASSERT_EQUAL(so_kp_global_bound(kp, ord, zs[k], 0),
                            so_kp_global_bound_cached(kp, ord, zs[k], 0, &both));
            int64_t u1 = -7, u2 = -7, zx1, zx2;
            int s1 = so_kp_surrogate_bound(kp, b, zs[k], 0, 1000000, &u1, x,
                                           &zx1);
            int s2 = so_kp_surrogate_bound_cached(kp, b, zs[k], 0, 1000000, &u2,
                                                  y, &zx2, &both);
            CU_ASSERT_EQUAL(s1, s2);
            CU_ASSERT_EQUAL(u1, u2);
            CU_ASSERT_EQUAL(zx1, zx2);
        }
        free(x);
        free(y);
        free(ord);
        so_kp_free(kp);
    }
}

static CU_TestInfo tests[] = {
    {"k-th smallest and count within a budget against qsort (n to 20,011)",
     test_select_count},
    {"the cardinality bounds' LP against sorting (n to 20,011)", test_card_lp},
    {"data the sample misreads: the band misses, the answer stays exact",
     test_band_misses},
    {"radix sort of indices by key against qsort, stable (n to 40,000)",
     test_radix},
    {"cardinality limits through a cache: as computed afresh, z changing",
     test_card_cache},
    CU_TEST_INFO_NULL,
};
SO_SUITE("kp-select", tests)
