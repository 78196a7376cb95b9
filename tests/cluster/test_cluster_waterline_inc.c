/* test_cluster_waterline_inc.c — the waterline kept sorted between calls
 * (cluster/waterline_inc.c, WPBS's per-user split) equals the from-scratch
 * one bit for bit after every change of random sequences, and a hand case. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "cluster/fair_share.h"
#include "cluster/waterline_inc.h"

enum { IDS = 120, GROUPS = 3 };

typedef struct entity {
    int in;   /* its waterline (group) + 1, 0: none */
    double w, m, d;
} entity;

/* Solves every group both ways and compares the shares bit for bit. */
static int same_as_scratch(so_cl_wl *wl, so_cl_wl_space *sp,
                           const entity *e, const double *slots)
{
    int ok = 1;
    for (int g = 0; g < GROUPS; g++) {
        int ids[IDS], n = 0;
        double w[IDS], m[IDS], d[IDS], inc[IDS], ref[IDS];
        for (int i = 0; i < IDS; i++)
            if (e[i].in == g + 1) {
                ids[n] = i;
                w[n] = e[i].w;
                m[n] = e[i].m;
                d[n++] = e[i].d;
            }
        if (so_cl_wl_solve(&wl[g], sp, n, ids, w, m, d, slots[g], inc))
            return 0;
        so_cl_waterline(n, w, m, d, slots[g], ref);
        if (n > 0 && memcmp(inc, ref, (size_t)n * sizeof *inc) != 0)
            ok = 0;
    }
    return ok;
}

static void test_incremental_waterline(void)
{
    so_rng rng;
    so_rng_seed(&rng, 16);
    so_cl_wl_space sp;
    CU_ASSERT_EQUAL_FATAL(so_cl_wl_space_init(&sp, IDS), 0);
    so_cl_wl wl[GROUPS];
    for (int g = 0; g < GROUPS; g++)
        so_cl_wl_init(&wl[g]);
    entity e[IDS] = {{0}};
    double slots[GROUPS] = {10, 40, 200};
    int mismatches = 0, steps = 0;
    long long moved = 0;
    for (int seq = 0; seq < 40; seq++) {
        for (int step = 0; step < 150; step++, steps++) {
            int i = (int)so_rng_int(&rng, 0, IDS - 1);
            int op = (int)so_rng_int(&rng, 0, 9);
            if (op <= 1) { /* a job arrives in a group, or leaves */
                e[i].in = e[i].in ? 0 : (int)so_rng_int(&rng, 1, GROUPS);
                e[i].w = seq % 2 ? 1 : 0.25 * (double)so_rng_int(&rng, 1, 12);
                e[i].m = seq % 3 ? 0 : (double)so_rng_int(&rng, 0, 6);
                e[i].d = (double)so_rng_int(&rng, 0, 60);
            } else if (op <= 6) { /* a task launches or ends: demand +-1 */
                e[i].d = e[i].d > 0 && so_rng_int(&rng, 0, 1) ? e[i].d - 1 : e[i].d + 1;
            } else if (op == 7) { /* a big jump (a phase opens) */
                e[i].d = (double)so_rng_int(&rng, 0, 500);
            } else if (op == 8) { /* minimum or weight change */
                e[i].m = (double)so_rng_int(&rng, 0, 8);
                if (seq % 2 == 0)
                    e[i].w = 0.5 * (double)so_rng_int(&rng, 1, 8);
            } else { /* the slots change */
                slots[i % GROUPS] = (double)so_rng_int(&rng, 0, 300);
            }
            if (seq % 10 == 9 && step == 75) { /* a wholesale change */
                for (int k = 0; k < IDS; k++) {
                    e[k].in = 1;
                    e[k].w = 1;
                    e[k].d = (double)so_rng_int(&rng, 0, 80);
                }
                mismatches += !same_as_scratch(wl, &sp, e, slots);
                for (int k = 0; k < IDS; k++) /* every list out of order */
                    e[k].d = (double)so_rng_int(&rng, 0, 80);
            }
            mismatches += !same_as_scratch(wl, &sp, e, slots);
        }
    }
    for (int g = 0; g < GROUPS; g++)
        moved += wl[g].shifts;
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT_EQUAL(steps, 6000);
    CU_ASSERT(moved > 0); /* the lists were repaired, not rebuilt each time */
    CU_ASSERT(wl[0].resorts + wl[1].resorts + wl[2].resorts > 0);
    for (int g = 0; g < GROUPS; g++)
        so_cl_wl_free(&wl[g]);
    so_cl_wl_space_free(&sp);
}

/* A hand case through the incremental path: level 4.5 as in
 * test_cluster_fair's first hand case, then job 3 leaves and the two others
 * share 10 slots 5 : 5, then job 3 comes back with demand 4. */
static void test_incremental_hand(void)
{
    so_cl_wl_space sp;
    CU_ASSERT_EQUAL_FATAL(so_cl_wl_space_init(&sp, 10), 0);
    so_cl_wl wl;
    so_cl_wl_init(&wl);
    double s[3];
    CU_ASSERT_EQUAL(so_cl_wl_solve(&wl, &sp, 3, (int[]){1, 2, 3},
                                   (double[]){1, 1, 2}, (double[]){0, 3, 0},
                                   (double[]){10, 10, 1}, 10, s), 0);
    CU_ASSERT_DOUBLE_EQUAL(s[0], 4.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s[1], 4.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s[2], 1, 1e-12);
    so_cl_wl_solve(&wl, &sp, 2, (int[]){1, 2}, (double[]){1, 1},
                   (double[]){0, 3}, (double[]){10, 10}, 10, s);
    CU_ASSERT_DOUBLE_EQUAL(s[0], 5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s[1], 5, 1e-12);
    /* weights 1, 1, 2 and demand 4 for job 3: r + r + 2r = 10, r = 2.5,
     * job 2's minimum 3 binds: 3 + r + 2r = 10, r = 7/3, job 3 gets 4 */
    so_cl_wl_solve(&wl, &sp, 3, (int[]){1, 2, 3}, (double[]){1, 1, 2},
                   (double[]){0, 3, 0}, (double[]){10, 10, 4}, 10, s);
    CU_ASSERT_DOUBLE_EQUAL(s[0], 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s[1], 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s[2], 4, 1e-12);
    CU_ASSERT_EQUAL(wl.n, 3);
    so_cl_wl_free(&wl);
    so_cl_wl_space_free(&sp);
}

static CU_TestInfo tests[] = {
    {"incremental waterline equals from-scratch on random sequences",
     test_incremental_waterline},
    {"incremental waterline by hand: leave and return", test_incremental_hand},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-waterline-inc", tests)
