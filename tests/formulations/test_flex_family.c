/* test_flex_family.c — the flex-paper family: the shape of its instances
 * (SPEC section 1), determinism, parameter errors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "formulations/flex.h"

static so_problem *generate(const char *const *kv, size_t nkv, uint64_t index,
                            int *rc, so_error *err)
{
    so_params set;
    so_params_init(&set);
    for (size_t k = 0; k < nkv; k++)
        so_params_set_kv(&set, kv[k], err);
    json_t *inst = NULL;
    so_error_clear(err);
    *rc = so_family_generate(so_family_find("flex-paper"), &set, 11, index, &inst, err);
    so_problem *p = NULL;
    if (!*rc)
        *rc = so_problem_from_json(inst, "gen", &p, err);
    json_decref(inst);
    return p;
}

static void test_shape(void)
{
    so_error err;
    int rc;
    double top2_share = 0;
    for (uint64_t i = 0; i < 20; i++) {
        so_problem *p = generate(NULL, 0, i, &rc, &err);
        CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
        const so_flex *f = so_flex_of(p);
        CU_ASSERT_EQUAL(f->n, 10);
        CU_ASSERT_EQUAL(f->slots, 100);
        CU_ASSERT_EQUAL(f->metric, SO_FLEX_RESPONSE);
        double total = 0, smallest = INFINITY, largest = 0, second = 0;
        int64_t sum_min = 0;
        for (size_t j = 0; j < f->n; j++) {
            total += f->work[j];
            sum_min += f->min[j];
            CU_ASSERT(f->min[j] >= 1 && f->min[j] <= f->max[j]);
            CU_ASSERT(f->weight[j] >= 0 && f->weight[j] < 1);
            CU_ASSERT(f->deadline[j] >= 0 && f->deadline[j] < total / 100 + 1e6);
            smallest = fmin(smallest, f->work[j]);
            if (f->work[j] > largest) {
                second = largest;
                largest = f->work[j];
            } else if (f->work[j] > second) {
                second = f->work[j];
            }
        }
        top2_share += (largest + second) / total / 20;
        CU_ASSERT_DOUBLE_EQUAL(total, 10000, 1e-6);
        CU_ASSERT(sum_min <= 100);
        CU_ASSERT(largest > 3 * smallest); /* bimodal: 2 large, 8 small jobs */
        char why[128];
        CU_ASSERT_EQUAL(so_flex_validate(f, why, sizeof why), SO_OK);
        so_problem_free(p);
    }
    /* 2 large jobs of mean 10 among 8 of mean 1: about 20 / 28 of the work */
    CU_ASSERT(top2_share > 0.65 && top2_share < 0.8);
}

static void test_parameters(void)
{
    so_error err;
    int rc;
    const char *few[] = {"tasks=10", "slack=0", "jobs=5", "slots=40"};
    so_problem *p = generate(few, 4, 0, &rc, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    const so_flex *f = so_flex_of(p);
    int64_t sum_min = 0;
    int below = 0;
    for (size_t j = 0; j < f->n; j++) {
        sum_min += f->min[j];
        below += f->max[j] < 40;
    }
    CU_ASSERT(sum_min <= 40 && sum_min >= 30); /* no slack: minima near S */
    CU_ASSERT(below > 0);                      /* 10 tasks per small job */
    so_problem_free(p);
    const char *sla[] = {"metric=sla", "sla_steps=2", "problem=rap"};
    p = generate(sla, 3, 1, &rc, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    CU_ASSERT_STRING_EQUAL(so_problem_kind(p), "rap");
    f = so_flex_of(p);
    CU_ASSERT_EQUAL(f->sla_start[f->n], 2 * f->n);
    so_problem_free(p);
    const char *mk[] = {"metric=makespan"};
    p = generate(mk, 1, 1, &rc, &err);
    CU_ASSERT_EQUAL(so_flex_of(p)->aggregate, SO_FLEX_MAX);
    so_problem_free(p);
    /* same seed and index, same instance */
    so_problem *a = generate(NULL, 0, 3, &rc, &err), *b = generate(NULL, 0, 3, &rc, &err);
    CU_ASSERT_DOUBLE_EQUAL(so_flex_of(a)->work[4], so_flex_of(b)->work[4], 0);
    CU_ASSERT_EQUAL(so_flex_of(a)->min[7], so_flex_of(b)->min[7]);
    so_problem_free(a);
    so_problem_free(b);
}

static void test_errors(void)
{
    static const struct {
        const char *kv, *key;
    } cases[] = {
        {"jobs=0", "jobs"},        {"jobs=101", "jobs"},   {"slots=0", "slots"},
        {"small=1.5", "small"},    {"slack=-0.1", "slack"}, {"metric=fast", "metric"},
        {"aggregate=avg", "aggregate"}, {"tasks=0", "tasks"}, {"problem=kp", "problem"},
        {"sla_steps=101", "sla_steps"}, {"jobs=ten", "jobs"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        so_error err;
        int rc;
        const char *kv[] = {cases[c].kv};
        so_problem *p = generate(kv, 1, 0, &rc, &err);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        CU_ASSERT_PTR_NULL(p);
        CU_ASSERT_STRING_EQUAL(err.key, cases[c].key);
    }
    so_error err;
    int rc;
    const char *kv[] = {"colour=red"};
    CU_ASSERT_PTR_NULL(generate(kv, 1, 0, &rc, &err));
    CU_ASSERT_EQUAL(rc, SO_EINVAL);
}

static CU_TestInfo tests[] = {
    {"base-case instances have the paper's shape", test_shape},
    {"parameters: tasks, slack, sla, problem kind, determinism", test_parameters},
    {"parameter errors", test_errors},
    CU_TEST_INFO_NULL,
};
SO_SUITE("flex-family", tests)
