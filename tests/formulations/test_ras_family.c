/* test_ras_family.c — ras-gridmix (the paper's Tables 1-2 at a snapshot)
 * and ras-random: values, determinism and every parameter error. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/solvers/ras_testing.h"

static json_t *generate(const char *family, const char *const *settings,
                        uint64_t seed, so_error *err, int *rc)
{
    so_params set;
    so_params_init(&set);
    so_error_clear(err);
    for (const char *const *s = settings; s && *s; s++)
        so_params_set_kv(&set, *s, err);
    json_t *inst = NULL;
    *rc = so_family_generate(so_family_find(family), &set, seed, 0, &inst, err);
    return inst;
}

static so_problem *problem_of(json_t *inst)
{
    so_problem *p = NULL;
    so_error err;
    so_problem_from_json(inst, "gen", &p, &err);
    return p;
}

static void test_gridmix_snapshot(void)
{
    /* t = 700 s: J1 (Sort), J2 (Combine), J3 (Select), J6 (Combine) run;
     * J4 and J5 completed (550 s, 560 s), J7-J9 not submitted yet.
     * J1: 720 maps; map phase ends 0.8 * 3018 = 2414.4 s, so
     *     floor(700 / 2414.4 * 720) = 208 done, 512 pending; 40 maps at
     *     once in isolation -> 18 waves -> t_avg = 0.8 * 2500 / 18;
     *     s_req = ceil(512 * 111.1 / 2300) = 25.
     * J2: 40 maps, 37 done, 3 pending; s_req = min(3, ceil(3*400/150)) = 3.
     * J3: map phase over (681.6 s): reduce phase, s_pend 0.
     * J6: 104 maps, 6 done, 98 pending; t_avg 300; s_req = ceil(15.47) = 16. */
    so_error err;
    int rc;
    json_t *inst = generate("ras-gridmix", NULL, 1, &err, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    so_problem *p = problem_of(inst);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    const so_ras *ras = so_ras_of(p);
    CU_ASSERT_EQUAL(ras->TT, 20);
    CU_ASSERT_EQUAL(ras->R, 3);
    CU_ASSERT_DOUBLE_EQUAL(ras->capacity[19 * 3 + 2], 100, 0);
    CU_ASSERT_EQUAL_FATAL(ras->J, 4);
    const char *names[] = {"J1-Sort", "J2-Combine", "J3-Select", "J6-Combine"};
    const int s_pend[] = {512, 3, 0, 98}, s_req[] = {25, 3, 0, 16};
    const int r_pend[] = {20, 1, 1, 1};
    for (size_t j = 0; j < 4; j++) {
        CU_ASSERT_STRING_EQUAL(ras->jobs[j].name, names[j]);
        CU_ASSERT_EQUAL(ras->jobs[j].s_pend, s_pend[j]);
        CU_ASSERT_EQUAL(ras->jobs[j].s_req, s_req[j]);
        CU_ASSERT_EQUAL(ras->jobs[j].r_pend, r_pend[j]);
        CU_ASSERT_EQUAL(ras->jobs[j].parallel_copies, 5);
    }
    CU_ASSERT_DOUBLE_EQUAL(ras->jobs[0].t_avg, 2000.0 / 18, 1e-9);
    CU_ASSERT_TRUE(ras->jobs[2].reduce_phase);
    /* Table 2 profiles: Sort map 30/45/25, shuffle io 0.15, reduce 20/50/60 */
    CU_ASSERT_DOUBLE_EQUAL(ras->jobs[0].map[1], 45, 0);
    CU_ASSERT_DOUBLE_EQUAL(ras->jobs[0].shuffle[1], 0.15, 0);
    CU_ASSERT_DOUBLE_EQUAL(ras->jobs[0].shuffle_base[2], 60, 0);
    CU_ASSERT_DOUBLE_EQUAL(ras->jobs[1].shuffle[1], 0.015, 0);
    CU_ASSERT_DOUBLE_EQUAL(ras->jobs[2].reduce[2], 25, 0);
    /* the heuristic places every job */
    so_result *r = ras_solve(p, "ras", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT(so_result_objective(r) > -2);
    so_result_free(r);
    so_problem_free(p);
    json_decref(inst);
}

static void test_gridmix_settings(void)
{
    so_error err;
    int rc;
    /* no goals: s_req = s_pend; t = 2600: J1, J7, J8 run (J6 ended 2589) */
    const char *const none[] = {"goals=none", "time=2600", "sort_reducers=4", NULL};
    json_t *inst = generate("ras-gridmix", none, 1, &err, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    so_problem *p = problem_of(inst);
    const so_ras *ras = so_ras_of(p);
    CU_ASSERT_EQUAL_FATAL(ras->J, 3);
    CU_ASSERT_STRING_EQUAL(ras->jobs[1].name, "J7-Combine");
    CU_ASSERT_STRING_EQUAL(ras->jobs[2].name, "J8-Sort");
    for (size_t j = 0; j < ras->J; j++) {
        CU_ASSERT_EQUAL(ras->jobs[j].s_req, ras->jobs[j].s_pend);
        CU_ASSERT_FALSE(ras->jobs[j].has_goal);
    }
    CU_ASSERT_EQUAL(ras->jobs[0].r_pend, 4);
    so_problem_free(p);
    json_decref(inst);
    const char *const *bad[] = {
        (const char *const[]){"time=5000", NULL},
        (const char *const[]){"time=-1", NULL},
        (const char *const[]){"goals=loose", NULL},
        (const char *const[]){"split_mb=0", NULL},
        (const char *const[]){"map_fraction=0", NULL},
        (const char *const[]){"map_fraction=1.5", NULL},
        (const char *const[]){"sort_reducers=-1", NULL},
        (const char *const[]){"sort_reducers=x", NULL},
        (const char *const[]){"speed=2", NULL},
    };
    const char *keys[] = {"time", "time", "goals", "split_mb", "map_fraction",
                          "map_fraction", "sort_reducers", "sort_reducers", NULL};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        inst = generate("ras-gridmix", bad[k], 1, &err, &rc);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        CU_ASSERT_PTR_NULL(inst);
        if (keys[k])
            CU_ASSERT_STRING_EQUAL(err.key, keys[k]);
        CU_ASSERT(err.message[0] != '\0');
    }
}

static void test_random_values(void)
{
    const char *const set[] = {"tasktrackers=6", "jobs=5", "resources=4",
                               "heterogeneity=0", "tightness=2",
                               "reduce_share=0", NULL};
    so_error err;
    int rc;
    json_t *a = generate("ras-random", set, 9, &err, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    json_t *b = generate("ras-random", set, 9, &err, &rc);
    json_t *c = generate("ras-random", set, 10, &err, &rc);
    CU_ASSERT_TRUE(json_equal(a, b));  /* same seed, same instance */
    CU_ASSERT_FALSE(json_equal(a, c)); /* another seed, another one */
    so_problem *p = problem_of(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    const so_ras *ras = so_ras_of(p);
    CU_ASSERT_EQUAL(ras->TT, 6);
    CU_ASSERT_EQUAL(ras->J, 5);
    CU_ASSERT_EQUAL(ras->R, 4);
    CU_ASSERT_STRING_EQUAL(ras->resources[3], "r3");
    for (size_t r = 0; r < 4; r++) {
        /* homogeneous: every TaskTracker alike; the demand of every
         * pending task (reducers at their larger profile) is about twice
         * the total capacity (capacities are rounded up) */
        double demand = 0;
        for (size_t j = 0; j < ras->J; j++) {
            const so_ras_job *job = &ras->jobs[j];
            CU_ASSERT_FALSE(job->reduce_phase);
            CU_ASSERT(job->s_req >= 1 && job->s_req <= job->s_pend);
            double red = fmax(job->reduce[r], job->shuffle_base[r] +
                              job->shuffle[r] * job->parallel_copies);
            demand += job->s_pend * job->map[r] + job->r_pend * red;
        }
        for (size_t tt = 1; tt < 6; tt++)
            CU_ASSERT_DOUBLE_EQUAL(ras->capacity[tt * 4 + r], ras->capacity[r], 0);
        double ratio = demand / (6 * ras->capacity[r]);
        CU_ASSERT(ratio <= 2.0 && ratio > 1.9);
    }
    so_problem_free(p);
    json_decref(a);
    json_decref(b);
    json_decref(c);
}

static void test_random_errors(void)
{
    const char *const cases[][2] = {
        {"tasktrackers=0", "tasktrackers"}, {"jobs=0", "jobs"},
        {"resources=0", "resources"},       {"resources=65", "resources"},
        {"tightness=0", "tightness"},       {"heterogeneity=0.95", "heterogeneity"},
        {"max_maps=0", "max_maps"},         {"max_reduces=-1", "max_reduces"},
        {"parallel_copies=0", "parallel_copies"},
        {"reduce_share=2", "reduce_share"}, {"jobs=x", "jobs"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *const set[] = {cases[k][0], NULL};
        so_error err;
        int rc;
        json_t *inst = generate("ras-random", set, 1, &err, &rc);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        CU_ASSERT_PTR_NULL(inst);
        CU_ASSERT_STRING_EQUAL(err.key, cases[k][1]);
    }
}

static void test_cli_gen(void)
{
    char args[512], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "gen ras-random --count 2 --seed 4 --out %s/rg",
             so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    free(out);
    free(err);
    snprintf(args, sizeof args, "solve -b ras --opt rounds=3 %s/rg/ras-random-4-1.json",
             so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"utilisation\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"profile_switch\""));
    free(out);
    free(err);
}

static void test_shipped_snapshots(void)
{
    /* instances/ras holds the generator's output (ORIGIN.md) */
    const char *files[] = {"instances/ras/gridmix-t700.json",
                           "instances/ras/gridmix-t2600.json"};
    const char *const t700[] = {NULL}, *const t2600[] = {"time=2600", NULL};
    const char *const *settings[] = {t700, t2600};
    for (int k = 0; k < 2; k++) {
        so_error err;
        int rc;
        json_t *gen = generate("ras-gridmix", settings[k], 1, &err, &rc);
        CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
        so_problem *a = problem_of(gen), *b = NULL;
        CU_ASSERT_EQUAL_FATAL(so_problem_read(files[k], &b, &err), SO_OK);
        json_t *ja = so_problem_to_json(a), *jb = so_problem_to_json(b);
        json_object_del(ja, "meta");
        json_object_del(jb, "meta");
        CU_ASSERT_TRUE(json_equal(ja, jb));
        json_decref(ja);
        json_decref(jb);
        json_decref(gen);
        so_problem_free(a);
        so_problem_free(b);
    }
}

static CU_TestInfo tests[] = {
    {"shipped snapshots match the generator", test_shipped_snapshots},
    {"gridmix snapshot at 700 s (Tables 1-2)", test_gridmix_snapshot},
    {"gridmix settings and errors", test_gridmix_settings},
    {"random: determinism, tightness, homogeneity", test_random_values},
    {"random: parameter errors", test_random_errors},
    {"gen and solve from the command line", test_cli_gen},
    CU_TEST_INFO_NULL,
};
SO_SUITE("ras-family", tests)
