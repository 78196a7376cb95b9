/* test_cluster_sum_tree.c — the sum forest (cluster/sum_tree.h) on random
 * sequences of joins, leaves, value changes and moves between trees: after
 * every change each tree's sums equal a plain sum of its members' values
 * (to rounding) and, bit for bit, the sums of a forest built afresh from
 * the same members in id order (the order of the changes leaves no trace);
 * a hand case with exact values; an empty forest. */
#include <math.h>
#include <string.h>
#include "tests/test_util.h"
#include "cluster/sum_tree.h"

enum { N_IDS = 60, N_TREES = 3, K = 3 };

static void rebuild(so_cl_sum_forest *g, const int *tree_of,
                    double vals[][K])
{
    so_cl_sum_forest_free(g);
    CU_ASSERT_EQUAL_FATAL(so_cl_sum_forest_init(g, N_TREES, N_IDS, K), 0);
    for (int i = 0; i < N_IDS; i++)
        if (tree_of[i] >= 0)
            so_cl_sum_set(g, tree_of[i], i, vals[i]);
}

static void test_random_against_plain_and_fresh(void)
{
    so_rng rng;
    so_rng_seed(&rng, 7);
    so_cl_sum_forest f, g = {0};
    CU_ASSERT_EQUAL_FATAL(so_cl_sum_forest_init(&f, N_TREES, N_IDS, K), 0);
    int tree_of[N_IDS];
    double vals[N_IDS][K];
    for (int i = 0; i < N_IDS; i++)
        tree_of[i] = -1;
    int far = 0, differ = 0, checks = 0;
    for (int step = 0; step < 3000; step++) {
        int id = (int)so_rng_int(&rng, 0, N_IDS - 1);
        if (so_rng_int(&rng, 0, 3) == 0) {
            so_cl_sum_remove(&f, id);
            tree_of[id] = -1;
        } else {
            int t = (int)so_rng_int(&rng, 0, N_TREES - 1);
            for (int k = 0; k < K; k++) /* magnitudes apart: rounding shows */
                vals[id][k] = so_rng_uniform(&rng) * pow(10, (double)so_rng_int(&rng, -3, 9));
            so_cl_sum_set(&f, t, id, vals[id]);
            tree_of[id] = t;
        }
        int fresh = step % 10 == 0;
        if (fresh)
            rebuild(&g, tree_of, vals);
        for (int t = 0; t < N_TREES; t++) {
            double got[K], plain[K] = {0}, scale[K] = {0};
            so_cl_sum_total(&f, t, got);
            for (int i = 0; i < N_IDS; i++)
                for (int k = 0; k < K && tree_of[i] == t; k++) {
                    plain[k] += vals[i][k];
                    scale[k] += fabs(vals[i][k]);
                }
            for (int k = 0; k < K; k++)
                far += fabs(got[k] - plain[k]) > 1e-13 * scale[k];
            if (fresh) {
                double again[K];
                so_cl_sum_total(&g, t, again);
                differ += memcmp(got, again, sizeof got) != 0;
            }
            checks++;
        }
    }
    CU_ASSERT_EQUAL(far, 0);
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT(checks == 3000 * N_TREES);
    so_cl_sum_forest_free(&f);
    so_cl_sum_forest_free(&g);
}

static void test_hand_and_empty(void)
{
    so_cl_sum_forest f;
    CU_ASSERT_EQUAL_FATAL(so_cl_sum_forest_init(&f, 2, 5, 2), 0);
    double out[2];
    so_cl_sum_total(&f, 0, out);
    CU_ASSERT(out[0] == 0 && out[1] == 0);
    so_cl_sum_set(&f, 0, 3, (double[]){1, 10});
    so_cl_sum_set(&f, 0, 1, (double[]){2, 20});
    so_cl_sum_set(&f, 1, 4, (double[]){4, 40});
    so_cl_sum_total(&f, 0, out);
    CU_ASSERT(out[0] == 3 && out[1] == 30);
    so_cl_sum_set(&f, 0, 3, (double[]){5, 50}); /* a change of values */
    so_cl_sum_total(&f, 0, out);
    CU_ASSERT(out[0] == 7 && out[1] == 70);
    so_cl_sum_set(&f, 1, 1, (double[]){2, 20}); /* a move */
    so_cl_sum_total(&f, 0, out);
    CU_ASSERT(out[0] == 5 && out[1] == 50);
    so_cl_sum_total(&f, 1, out);
    CU_ASSERT(out[0] == 6 && out[1] == 60);
    so_cl_sum_remove(&f, 4);
    so_cl_sum_remove(&f, 4); /* in no tree: no-op */
    so_cl_sum_total(&f, 1, out);
    CU_ASSERT(out[0] == 2 && out[1] == 20);
    CU_ASSERT_EQUAL(f.t.tree[4], -1);
    so_cl_sum_forest_free(&f);
}

static CU_TestInfo tests[] = {
    {"sums equal plain sums and a fresh forest's, bit for bit, on random"
     " sequences", test_random_against_plain_and_fresh},
    {"hand case: joins, a change, a move, leaves; empty trees", test_hand_and_empty},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-sum-tree", tests)
