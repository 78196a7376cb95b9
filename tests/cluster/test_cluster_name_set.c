/* test_cluster_name_set.c — the string set of cluster/name_set.c: each
 * distinct name counted once across growth, names that share a prefix or
 * differ in one byte kept apart, the empty name a name. */
#include <stdio.h>
#include "tests/test_util.h"
#include "cluster/name_set.h"

static void test_counts(void)
{
    so_cl_name_set s = {0};
    char name[32];
    /* 5,000 names added twice each, in two orders */
    for (int i = 0; i < 5000; i++) {
        snprintf(name, sizeof name, "/rack-%d/host-%d", i % 7, i);
        CU_ASSERT_EQUAL(so_cl_name_set_add(&s, name), 1);
    }
    for (int i = 4999; i >= 0; i--) {
        snprintf(name, sizeof name, "/rack-%d/host-%d", i % 7, i);
        CU_ASSERT_EQUAL(so_cl_name_set_add(&s, name), 0);
    }
    CU_ASSERT_EQUAL(s.n, 5000);
    CU_ASSERT(s.cap >= 2 * s.n && (s.cap & (s.cap - 1)) == 0);
    /* prefixes and one-byte differences are other names */
    CU_ASSERT_EQUAL(so_cl_name_set_add(&s, "/rack-0/host-"), 1);
    CU_ASSERT_EQUAL(so_cl_name_set_add(&s, "/rack-0/host-00"), 1);
    CU_ASSERT_EQUAL(so_cl_name_set_add(&s, "/rack-0/host-0"), 0);
    CU_ASSERT_EQUAL(so_cl_name_set_add(&s, ""), 1);
    CU_ASSERT_EQUAL(so_cl_name_set_add(&s, ""), 0);
    CU_ASSERT_EQUAL(s.n, 5003);
    so_cl_name_set_free(&s);
    CU_ASSERT_EQUAL(s.n, 0);
    CU_ASSERT_PTR_NULL(s.slot);
    so_cl_name_set_free(&s); /* twice is harmless */
}

static CU_TestInfo tests[] = {
    {"distinct names counted once, across growth", test_counts},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-name-set", tests)
