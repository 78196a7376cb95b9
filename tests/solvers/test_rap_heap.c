/* test_rap_heap.c — the indexed heap against a linear scan under random
 * inserts, key changes in both directions and removals. */
#include "tests/test_util.h"
#include "solvers/rap_heap.h"

static void test_random_operations(void)
{
    enum { N = 40 };
    so_heap h;
    CU_ASSERT_EQUAL_FATAL(so_heap_init(&h, N), 0);
    double key[N];
    size_t tie[N];
    int in[N] = {0};
    so_rng rng;
    so_rng_seed(&rng, 5);
    for (int it = 0; it < 20000; it++) {
        size_t i = (size_t)so_rng_int(&rng, 0, N - 1);
        if (so_rng_int(&rng, 0, 3) == 0) {
            so_heap_remove(&h, i);
            in[i] = 0;
        } else {
            key[i] = (double)so_rng_int(&rng, 0, 20); /* many equal keys */
            tie[i] = (size_t)so_rng_int(&rng, 0, 5);
            so_heap_set(&h, i, key[i], tie[i]);
            in[i] = 1;
        }
        size_t want = (size_t)-1;
        for (size_t j = 0; j < N; j++)
            if (in[j] && (want == (size_t)-1 || key[j] < key[want] ||
                          (key[j] == key[want] && tie[j] < tie[want])))
                want = j;
        size_t got = so_heap_top(&h);
        if (want == (size_t)-1) {
            CU_ASSERT_EQUAL(got, want);
        } else {
            CU_ASSERT(got != (size_t)-1 && key[got] == key[want] && tie[got] == tie[want]);
        }
    }
    so_heap_free(&h);
}

static CU_TestInfo tests[] = {
    {"random operations agree with a linear scan", test_random_operations},
    CU_TEST_INFO_NULL,
};
SO_SUITE("rap-heap", tests)
