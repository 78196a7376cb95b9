/* test_cluster_id_set.c — the ranked id set (cluster/id_set.h) against a
 * plain array on random sequences of insertions and removals: membership
 * count and every k-th member after every change; a hand case; empty and
 * one-id sets. */
#include <string.h>
#include "tests/test_util.h"
#include "cluster/id_set.h"

static void test_random_against_array(void)
{
    so_rng rng;
    so_rng_seed(&rng, 41);
    int sizes[] = {1, 2, 7, 64, 100};
    int mismatches = 0, checks = 0;
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        int n = sizes[t];
        so_cl_id_set s;
        CU_ASSERT_EQUAL_FATAL(so_cl_id_set_init(&s, n), 0);
        unsigned char in[100] = {0};
        for (int step = 0; step < 400; step++) {
            int id = (int)so_rng_int(&rng, 0, n - 1);
            int on = (int)so_rng_int(&rng, 0, 1);
            so_cl_id_set_put(&s, id, on);
            in[id] = (unsigned char)on;
            int count = 0;
            for (int i = 0; i < n; i++)
                if (in[i]) {
                    mismatches += so_cl_id_set_kth(&s, count) != i;
                    count++;
                    checks++;
                }
            mismatches += s.count != count;
            mismatches += so_cl_id_set_kth(&s, count) != -1;
        }
        so_cl_id_set_free(&s);
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT(checks > 10000);
}

static void test_hand_and_edges(void)
{
    so_cl_id_set s;
    CU_ASSERT_EQUAL_FATAL(so_cl_id_set_init(&s, 10), 0);
    so_cl_id_set_put(&s, 7, 1);
    so_cl_id_set_put(&s, 2, 1);
    so_cl_id_set_put(&s, 9, 1);
    so_cl_id_set_put(&s, 2, 1); /* already in: no change */
    CU_ASSERT_EQUAL(s.count, 3);
    CU_ASSERT_EQUAL(so_cl_id_set_kth(&s, 0), 2);
    CU_ASSERT_EQUAL(so_cl_id_set_kth(&s, 1), 7);
    CU_ASSERT_EQUAL(so_cl_id_set_kth(&s, 2), 9);
    so_cl_id_set_put(&s, 7, 0);
    CU_ASSERT_EQUAL(so_cl_id_set_kth(&s, 1), 9);
    CU_ASSERT_EQUAL(so_cl_id_set_kth(&s, -1), -1);
    so_cl_id_set_put(&s, 10, 1); /* out of range: ignored */
    so_cl_id_set_put(&s, -1, 1);
    CU_ASSERT_EQUAL(s.count, 2);
    so_cl_id_set_free(&s);
    CU_ASSERT_EQUAL_FATAL(so_cl_id_set_init(&s, 0), 0);
    CU_ASSERT_EQUAL(so_cl_id_set_kth(&s, 0), -1);
    so_cl_id_set_free(&s);
    CU_ASSERT_EQUAL_FATAL(so_cl_id_set_init(&s, 1), 0);
    so_cl_id_set_put(&s, 0, 1);
    CU_ASSERT_EQUAL(so_cl_id_set_kth(&s, 0), 0);
    so_cl_id_set_free(&s);
}

static CU_TestInfo tests[] = {
    {"k-th member equals a plain array's on random sequences",
     test_random_against_array},
    {"hand case, out-of-range ids, empty and one-id sets", test_hand_and_edges},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-id-set", tests)
