/* test_cluster_observe.c — the policy hooks and the observed statistics
 * (cluster/observe.h) against hand-computed counts, means and variances. */
#include "tests/test_util.h"
#include "tests/cluster/cluster_test.h"
#include "cluster/observe.h"
#include "cluster/sim_internal.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9)

/* Two nodes of one map slot, beats at integer times. A (bob): maps 2, 4,
 * 6; B (alice): map 1; C (bob): map 3; all at 0, fifo. Node 0: A.m0 0-2,
 * A.m2 2-8; node 1: A.m1 0-4, B 4-5, C 5-8. A ends before C at 8 (its end
 * event was pushed first). */
static const char *three_users =
    "{\"cluster\": {\"nodes\": [{\"count\": 2, \"map_slots\": 1,"
    " \"reduce_slots\": 0}], \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
    " \"jobs\": [{\"name\": \"A\", \"user\": \"bob\", \"submit\": 0, \"maps\": [2, 4, 6]},"
    "  {\"name\": \"B\", \"user\": \"alice\", \"submit\": 0, \"maps\": [1]},"
    "  {\"name\": \"C\", \"user\": \"bob\", \"submit\": 0, \"maps\": [3]}]}";

typedef struct tally {
    int arrive, launch, end, finish;
    double duration;
    int finished[3];
} tally;

static void on_arrive(void *st, so_cl_sim *sim, int job)
{
    (void)sim;
    (void)job;
    ((tally *)st)->arrive++;
}

static void on_launch(void *st, so_cl_sim *sim, int attempt)
{
    CU_ASSERT_EQUAL(sim->attempts[attempt].state, SO_CL_RUNNING);
    ((tally *)st)->launch++;
}

static void on_end(void *st, so_cl_sim *sim, int attempt, int node,
                   double duration)
{
    tally *t = st;
    CU_ASSERT_EQUAL(sim->attempts[attempt].state, SO_CL_DONE);
    CU_ASSERT_EQUAL(sim->attempts[attempt].node, node);
    t->end++;
    t->duration += duration;
}

static void on_finish(void *st, so_cl_sim *sim, int job)
{
    (void)sim;
    tally *t = st;
    t->finished[t->finish++] = job;
}

static void test_hooks_and_statistics(void)
{
    tally t = {0};
    so_cl_hooks hooks = {on_arrive, on_launch, on_end, on_finish, NULL, NULL};
    cl_run r = cl_simulate_hooks(three_users, "fifo", NULL, NULL, 1, NULL,
                                 &hooks, &t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_EQUAL(t.arrive, 3);
    CU_ASSERT_EQUAL(t.launch, 5);
    CU_ASSERT_EQUAL(t.end, 5);
    NEAR(t.duration, 2 + 4 + 6 + 1 + 3);
    CU_ASSERT_EQUAL(t.finish, 3);
    CU_ASSERT_EQUAL(t.finished[0], 1);
    CU_ASSERT_EQUAL(t.finished[1], 0);
    CU_ASSERT_EQUAL(t.finished[2], 2);

    const so_cl_obs *o = so_cl_job_obs(r.sim, 0, SO_CL_MAP);
    CU_ASSERT_EQUAL(o->n, 3);
    NEAR(o->mean, 4);
    NEAR(so_cl_obs_variance(o), 4); /* (4 + 0 + 4) / 2 */
    o = so_cl_job_obs(r.sim, 1, SO_CL_MAP);
    CU_ASSERT_EQUAL(o->n, 1);
    NEAR(o->mean, 1);
    NEAR(so_cl_obs_variance(o), 0);
    CU_ASSERT_EQUAL(so_cl_job_obs(r.sim, 0, SO_CL_REDUCE)->n, 0);
    o = so_cl_node_obs(r.sim, 0, SO_CL_MAP); /* 2, 6 */
    CU_ASSERT_EQUAL(o->n, 2);
    NEAR(o->mean, 4);
    NEAR(so_cl_obs_variance(o), 8);
    o = so_cl_node_obs(r.sim, 1, SO_CL_MAP); /* 4, 1, 3 */
    CU_ASSERT_EQUAL(o->n, 3);
    NEAR(o->mean, 8.0 / 3);
    NEAR(so_cl_obs_variance(o), 7.0 / 3); /* (16 + 25 + 1) / 9 / 2 */

    CU_ASSERT_EQUAL(so_cl_user_count(r.sim), 2);
    CU_ASSERT_EQUAL(so_cl_job_user(r.sim, 1), 0); /* alice */
    CU_ASSERT_EQUAL(so_cl_job_user(r.sim, 0), 1); /* bob */
    CU_ASSERT_EQUAL(so_cl_job_user(r.sim, 2), 1);
    const int *h;
    CU_ASSERT_EQUAL_FATAL(so_cl_user_history(r.sim, 1, &h), 2);
    CU_ASSERT_EQUAL(h[0], 0);
    CU_ASSERT_EQUAL(h[1], 2);
    CU_ASSERT_EQUAL_FATAL(so_cl_user_history(r.sim, 0, &h), 1);
    CU_ASSERT_EQUAL(h[0], 1);
    cl_done(&r);
}

/* Welford's update against the two-pass formulas on awkward values. */
static void test_obs_numerics(void)
{
    double x[] = {1e6 + 4, 1e6 + 7, 1e6 + 13, 1e6 + 16};
    so_cl_obs o = {0};
    for (int i = 0; i < 4; i++)
        so_cl_obs_add(&o, x[i]);
    NEAR(o.mean, 1e6 + 10);
    NEAR(so_cl_obs_variance(&o), (36 + 9 + 9 + 36) / 3.0);
}

static CU_TestInfo tests[] = {
    {"hooks and observed statistics (hand-computed)", test_hooks_and_statistics},
    {"running mean and variance", test_obs_numerics},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-observe", tests)
