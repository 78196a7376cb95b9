/* test_export_mps.c — exported models solve to the backends' optima when
 * another reader takes them back: MPS (a maximisation written as the
 * minimisation of its negation) and LP, re-read by GLPK. */
#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/formulations/glpk_reread.h"

/* The backend's optimum of p equals GLPK's optimum of the model written as
 * MPS (negated: a minimisation) and as LP (the maximisation as it is). */
static void round_trip(so_problem *p, const char *backend)
{
    so_result *r = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_solve(so_backend_find(backend), p, NULL, &r, &err),
                          SO_OPTIMAL);
    double opt = so_result_objective(r);
    char path[600];
    snprintf(path, sizeof path, "%s/model.mps", so_test_tmpdir());
    CU_ASSERT_EQUAL_FATAL(so_problem_export(p, path, SO_FORMAT_MPS, &err), SO_OK);
    int dir = 0;
    double z = glpk_reread_optimum(path, SO_FORMAT_MPS, &dir);
    CU_ASSERT_EQUAL(dir, GLP_MIN); /* MPS: minimisation of the negation */
    CU_ASSERT_DOUBLE_EQUAL(-z, opt, 1e-6 * fmax(1, fabs(opt)));
    snprintf(path, sizeof path, "%s/model.lp", so_test_tmpdir());
    CU_ASSERT_EQUAL_FATAL(so_problem_export(p, path, SO_FORMAT_LP, &err), SO_OK);
    z = glpk_reread_optimum(path, SO_FORMAT_LP, &dir);
    CU_ASSERT_EQUAL(dir, GLP_MAX); /* LP keeps "Maximize" */
    CU_ASSERT_DOUBLE_EQUAL(z, opt, 1e-6 * fmax(1, fabs(opt)));
    so_result_free(r);
}

static void test_knapsack_round_trip(void)
{
    const char *files[] = {"instances/knapsack/pisinger/f3_l-d_kp_4_20.kp",
                           "instances/knapsack/pisinger/knapPI_2_100_1000_1.kp"};
    for (int i = 0; i < 2; i++) {
        so_problem *p = NULL;
        so_error err;
        CU_ASSERT_EQUAL_FATAL(so_problem_read(files[i], &p, &err), SO_OK);
        round_trip(p, "kp-dp");
        so_problem_free(p);
    }
    /* the profits are written negated: f3's first item has profit 9 */
    char path[600];
    snprintf(path, sizeof path, "%s/model.mps", so_test_tmpdir());
    so_problem *p = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_problem_read(files[0], &p, &err), SO_OK);
    CU_ASSERT_EQUAL(so_problem_export(p, path, SO_FORMAT_MPS, &err), SO_OK);
    char *text = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL(text && strstr(text, " x0 R0000000 -9 "));
    free(text);
    so_problem_free(p);
}

static void test_ras_round_trip(void)
{
    const so_family *f = so_family_find("ras-random");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    so_params set;
    so_params_init(&set);
    so_params_set(&set, "tasktrackers", "3");
    so_params_set(&set, "jobs", "3");
    so_params_set(&set, "max_maps", "4");
    for (uint64_t i = 0; i < 4; i++) {
        json_t *inst = NULL;
        so_problem *p = NULL;
        so_error err;
        CU_ASSERT_EQUAL_FATAL(so_family_generate(f, &set, 7, i, &inst, &err), SO_OK);
        CU_ASSERT_EQUAL_FATAL(so_problem_from_json(inst, "ras", &p, &err), SO_OK);
        round_trip(p, "ras-glpk");
        so_problem_free(p);
        json_decref(inst);
    }
}

static CU_TestInfo tests[] = {
    {"knapsack: MPS and LP re-read keep the optimum", test_knapsack_round_trip},
    {"ras: MPS and LP re-read keep the optimum", test_ras_round_trip},
    CU_TEST_INFO_NULL,
};
SO_SUITE("export-round-trip", tests)
