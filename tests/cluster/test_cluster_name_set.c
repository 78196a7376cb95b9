/* test_cluster_name_set.c — the string set of cluster/name_set.c: each
 * distinct name counted once across growth, names that share a prefix or
 * differ in one byte kept apart, the empty name a name; the slots looked
 * at stay linear in the names added, also for names that all collide under
 * plain FNV-1a (a quadratic set looks at n^2/2), and a name already there
 * does not grow the table. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    CU_ASSERT(s.probes <= 8 * 10000); /* 10,000 adds, rehashing included */
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

/* Plain, unkeyed 64-bit FNV-1a. */
static uint64_t fnv1a(const char *s)
{
    uint64_t h = 14695981039346656037ULL;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        h ^= *c;
        h *= 1099511628211ULL;
    }
    return h;
}

/* 1,000 names whose plain FNV-1a hashes share their low 11 bits: in an
 * unkeyed table of up to 2,048 slots they all land in one run (about
 * 500,000 probes); keyed, the probes stay within 8 per add. */
static void test_collisions(void)
{
    enum { N = 1000 };
    char (*names)[24] = malloc(N * sizeof *names);
    CU_ASSERT_PTR_NOT_NULL_FATAL(names);
    size_t n = 0;
    for (unsigned long i = 0; n < N; i++) {
        snprintf(names[n], sizeof names[n], "host-%lu", i);
        if ((fnv1a(names[n]) & 2047) == 0)
            n++;
    }
    so_cl_name_set s = {0};
    for (size_t i = 0; i < N; i++)
        CU_ASSERT_EQUAL(so_cl_name_set_add(&s, names[i]), 1);
    for (size_t i = 0; i < N; i++)
        CU_ASSERT_EQUAL(so_cl_name_set_add(&s, names[i]), 0);
    CU_ASSERT_EQUAL(s.n, N);
    if (s.probes > 8 * 2 * N)
        fprintf(stderr, "\n  %zu probes for %d adds", s.probes, 2 * N);
    CU_ASSERT(s.probes <= 8 * 2 * N);
    so_cl_name_set_free(&s);
    free(names);
}

/* A name already there does not grow the table: at exactly half full,
 * adding it again keeps the capacity; a new one doubles it. */
static void test_no_growth_on_repeat(void)
{
    so_cl_name_set s = {0};
    char name[32];
    for (int i = 0; i < 32; i++) {
        snprintf(name, sizeof name, "h%d", i);
        CU_ASSERT_EQUAL(so_cl_name_set_add(&s, name), 1);
    }
    CU_ASSERT_EQUAL(s.cap, 64);
    CU_ASSERT_EQUAL(so_cl_name_set_add(&s, "h0"), 0);
    CU_ASSERT_EQUAL(s.cap, 64);
    CU_ASSERT_EQUAL(so_cl_name_set_add(&s, "h32"), 1);
    CU_ASSERT_EQUAL(s.cap, 128);
    so_cl_name_set_free(&s);
}

static CU_TestInfo tests[] = {
    {"distinct names counted once, across growth", test_counts},
    {"names colliding under plain FNV-1a: linear probes", test_collisions},
    {"a name already there does not grow the table", test_no_growth_on_repeat},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-name-set", tests)
