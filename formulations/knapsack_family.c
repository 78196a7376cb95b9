/* knapsack_family.c — the `knapsack` instance family: Pisinger's classes
 * (D. Pisinger, "Where are the hard knapsack problems?", Computers & OR 32,
 * 2005, section 2), coefficients in [1, R]:
 *   1 uncorrelated            p, w ~ U[1, R]
 *   2 weakly correlated       w ~ U[1, R], p ~ U[w - R/10, w + R/10], p >= 1
 *   3 strongly correlated     w ~ U[1, R], p = w + R/10
 *   4 inverse strongly corr.  p ~ U[1, R], w = p + R/10
 *   5 almost strongly corr.   w ~ U[1, R], p ~ U[w + R/10 - R/500, w + R/10 + R/500]
 *   6 subset sum              w ~ U[1, R], p = w
 *   9 uncorr. similar weights w ~ U[100 R, 100 R + R/10], p ~ U[1, R]
 *                             (R = 1000: Pisinger's [100000, 100100] and
 *                             [1, 1000], the same instances as before R
 *                             was honoured; issue 30)
 * Capacity: floor(capacity * sum w) (Pisinger uses h/(H+1) for instance h
 * of H; the fraction is our parameter, 0.5 by default). */
#include <stdio.h>
#include <string.h>
#include "formulations/knapsack.h"

static const struct {
    const char *name;
    int number;
} classes[] = {
    {"uncorrelated", 1},     {"weakly", 2},     {"strongly", 3},
    {"inverse-strongly", 4}, {"almost-strongly", 5}, {"subset-sum", 6},
    {"similar-weights", 9},  {NULL, 0},
};

const so_option_doc so_kp_family_params[] = {
    {"n", "100", "number of items"},
    {"R", "1000", "coefficient range [1, R]"},
    {"class", "uncorrelated",
     "uncorrelated|weakly|strongly|inverse-strongly|almost-strongly|"
     "subset-sum|similar-weights (or Pisinger's number 1-6, 9)"},
    {"capacity", "0.5", "capacity as a fraction of the total weight, in (0, 1]"},
    {NULL, NULL, NULL},
};

static int class_number(const char *s)
{
    for (int k = 0; classes[k].name; k++) {
        char num[8];
        snprintf(num, sizeof num, "%d", classes[k].number);
        if (strcmp(s, classes[k].name) == 0 || strcmp(s, num) == 0)
            return classes[k].number;
    }
    return 0;
}

int so_kp_family_generate(const so_params *set, so_rng *rng, json_t **out,
                          so_error *err)
{
    long long n, R;
    double frac;
    const so_option_doc *d = so_kp_family_params;
    int rc = so_params_int(set, d, "n", 100, &n, err);
    if (!rc)
        rc = so_params_int(set, d, "R", 1000, &R, err);
    if (!rc)
        rc = so_params_double(set, d, "capacity", 0.5, &frac, err);
    if (rc)
        return rc;
    const char *cls = so_params_str(set, d, "class", "uncorrelated");
    int c = class_number(cls);
    if (n < 0 || n > 100000000)
        return so_error_setf(err, NULL, 0, 0, "n", "expected 0..1e8, found %lld", n);
    if (R < 10 || R > 1000000000LL)
        return so_error_setf(err, NULL, 0, 0, "R", "expected 10..1e9, found %lld", R);
    if (c == 9 && (__int128)n * (100 * R + R / 10) >= SO_KP_MAX_TOTAL)
        return so_error_setf(err, NULL, 0, 0, "R",
                             "similar-weights: n = %lld items of weight up to"
                             " 100.1 R exceed the total 2^61 for R = %lld",
                             n, R);
    if (!(frac > 0 && frac <= 1))
        return so_error_setf(err, NULL, 0, 0, "capacity",
                             "expected a fraction in (0, 1], found %g", frac);
    if (!c)
        return so_error_setf(err, NULL, 0, 0, "class", "unknown class '%s'", cls);
    so_kp *kp = so_kp_new((size_t)n);
    if (!kp)
        return SO_ENOMEM;
    int64_t sum_w = 0;
    for (long long i = 0; i < n; i++) {
        int64_t w = so_rng_int(rng, 1, R), p;
        switch (c) {
        case 1: p = so_rng_int(rng, 1, R); break;
        case 2:
            p = so_rng_int(rng, w - R / 10, w + R / 10);
            if (p < 1)
                p = 1;
            break;
        case 3: p = w + R / 10; break;
        case 4:
            p = w;
            w = p + R / 10;
            break;
        case 5: p = so_rng_int(rng, w + R / 10 - R / 500, w + R / 10 + R / 500); break;
        case 6: p = w; break;
        default:
            w = so_rng_int(rng, 100 * R, 100 * R + R / 10);
            p = so_rng_int(rng, 1, R);
            break;
        }
        kp->profit[i] = p;
        kp->weight[i] = w;
        sum_w += w;
    }
    kp->capacity = (int64_t)(frac * (double)sum_w);
    return so_kp_instance_json(kp, out);
}
