/* test_lsq_fit.c — the least-squares profile fit recovers known
 * coefficients and rejects too few or degenerate samples. */
#include <math.h>
#include "tests/test_util.h"
#include "solvers/lsq_fit.h"

static void test_exact_recovery(void)
{
    double n[5] = {2, 4, 5, 10, 40}, t[5], a, b;
    for (int i = 0; i < 5; i++)
        t[i] = 3.0 + 120.0 / n[i];
    CU_ASSERT_EQUAL_FATAL(so_lsq_fit_inverse(n, t, 5, &a, &b), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(a, 3.0, 1e-10);
    CU_ASSERT_DOUBLE_EQUAL(b, 120.0, 1e-9);
    /* two samples determine the curve */
    CU_ASSERT_EQUAL_FATAL(so_lsq_fit_inverse(n + 1, t + 1, 2, &a, &b), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(a, 3.0, 1e-10);
    CU_ASSERT_DOUBLE_EQUAL(b, 120.0, 1e-9);
}

/* Noisy history: 200 samples of 7 + 300/n with +-2 % noise from a fixed
 * seed; the fit is within 2 % of the truth. */
static void test_noisy_recovery(void)
{
    so_rng rng;
    so_rng_seed(&rng, 11);
    double n[200], t[200], a, b;
    for (int i = 0; i < 200; i++) {
        n[i] = (double)so_rng_int(&rng, 1, 100);
        t[i] = (7.0 + 300.0 / n[i]) * (1 + 0.02 * (2 * so_rng_uniform(&rng) - 1));
    }
    CU_ASSERT_EQUAL_FATAL(so_lsq_fit_inverse(n, t, 200, &a, &b), SO_OK);
    CU_ASSERT(fabs(a - 7.0) < 0.14);
    CU_ASSERT(fabs(b - 300.0) < 6.0);
}

static void test_too_few(void)
{
    double n[3] = {4, 4, 4}, t[3] = {1, 2, 3}, a = -1, b = -1;
    CU_ASSERT_EQUAL(so_lsq_fit_inverse(n, t, 1, &a, &b), SO_EINVAL);
    CU_ASSERT_EQUAL(so_lsq_fit_inverse(n, t, 0, &a, &b), SO_EINVAL);
    CU_ASSERT_EQUAL(so_lsq_fit_inverse(n, t, 3, &a, &b), SO_EINVAL);
    double z[2] = {0, 2};
    CU_ASSERT_EQUAL(so_lsq_fit_inverse(z, t, 2, &a, &b), SO_EINVAL);
    CU_ASSERT_EQUAL(a, -1);
}

static CU_TestInfo tests[] = {
    {"recovers exact coefficients", test_exact_recovery},
    {"recovers noisy coefficients", test_noisy_recovery},
    {"too few or degenerate samples", test_too_few},
    CU_TEST_INFO_NULL,
};
SO_SUITE("lsq_fit", tests)
