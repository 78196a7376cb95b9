/* knapsack_jooken_family.c — the `knapsack-jooken` instance family: the
 * hard class of J. Jooken, P. Leyman and P. De Causmaecker, "A new class of
 * hard problem instances for the 0-1 knapsack problem", EJOR 301(3), 2022,
 * section 3. Parameters n, c, g groups, f fraction of the items in the
 * last group, eps, s perturbation:
 *   groups 1..g-1 hold (n - round(f n)) / (g - 1) items each; an item of
 *   group i has profit and weight, independently,
 *       floor(c / 2^i) + floor(eps c) + U[1, s]
 *   (so that few of them fit, and every fitting combination is nearly
 *   efficiency 1: dominance and bounds prune little);
 *   the last group holds the rest (about f n items), profit and weight
 *   independently U[1, s] (small items that fill any gap);
 *   the capacity is c.
 * Choices where the paper is silent: the remainder of the integer division
 * goes to the last group; g = 1 puts every item in it; items are listed
 * group by group, as in the published set (github.com/JorikJooken/
 * knapsackProblemInstances, whose files show this layout: e.g. for
 * c = 1e10, eps = 0.01, s = 100 group 1 holds 5100000001..5100000100). */
#include <math.h>
#include "formulations/knapsack.h"

const so_option_doc so_kp_jooken_params[] = {
    {"n", "400", "number of items (1..1e6)"},
    {"c", "1000000", "capacity (2..1e15)"},
    {"g", "2", "number of groups (1..40)"},
    {"f", "0.1", "fraction of the items in the last group, in (0, 1]"},
    {"eps", "0.01", "added to every group-item coefficient as eps c, [0, 1]"},
    {"s", "100", "perturbation: coefficients + U[1, s] (1..1e6)"},
    {NULL, NULL, NULL},
};

int so_kp_jooken_generate(const so_params *set, so_rng *rng, json_t **out,
                          so_error *err)
{
    const so_option_doc *d = so_kp_jooken_params;
    long long n, c, g, s;
    double f, eps;
    int rc = so_params_int(set, d, "n", 400, &n, err);
    if (!rc)
        rc = so_params_int(set, d, "c", 1000000, &c, err);
    if (!rc)
        rc = so_params_int(set, d, "g", 2, &g, err);
    if (!rc)
        rc = so_params_int(set, d, "s", 100, &s, err);
    if (!rc)
        rc = so_params_double(set, d, "f", 0.1, &f, err);
    if (!rc)
        rc = so_params_double(set, d, "eps", 0.01, &eps, err);
    if (rc)
        return rc;
    if (n < 1 || n > 1000000)
        return so_error_setf(err, NULL, 0, 0, "n", "expected 1..1e6, found %lld", n);
    if (c < 2 || c > 1000000000000000LL)
        return so_error_setf(err, NULL, 0, 0, "c", "expected 2..1e15, found %lld", c);
    if (g < 1 || g > 40)
        return so_error_setf(err, NULL, 0, 0, "g", "expected 1..40, found %lld", g);
    if (s < 1 || s > 1000000)
        return so_error_setf(err, NULL, 0, 0, "s", "expected 1..1e6, found %lld", s);
    if (!(f > 0 && f <= 1))
        return so_error_setf(err, NULL, 0, 0, "f",
                             "expected a fraction in (0, 1], found %g", f);
    if (!(eps >= 0 && eps <= 1))
        return so_error_setf(err, NULL, 0, 0, "eps",
                             "expected a number in [0, 1], found %g", eps);
    /* the group items' coefficients sum to at most (n)(c/2 + eps c + s) */
    if ((double)n * ((double)c / 2 + eps * (double)c + (double)s) >=
        (double)SO_KP_MAX_TOTAL)
        return so_error_setf(err, NULL, 0, 0, "c",
                             "n = %lld items near c/2 = %lld/2 would sum past"
                             " 2^61; lower n or c", n, c);
    long long last = llround(f * (double)n);
    long long per = g > 1 ? (n - last) / (g - 1) : 0;
    so_kp *kp = so_kp_new((size_t)n);
    if (!kp)
        return SO_ENOMEM;
    int64_t extra = (int64_t)floor(eps * (double)c);
    long long k = 0;
    for (long long grp = 1; grp < g; grp++) {
        int64_t base = (c >> grp) + extra;
        for (long long j = 0; j < per; j++, k++) {
            kp->profit[k] = base + so_rng_int(rng, 1, s);
            kp->weight[k] = base + so_rng_int(rng, 1, s);
        }
    }
    for (; k < n; k++) {
        kp->profit[k] = so_rng_int(rng, 1, s);
        kp->weight[k] = so_rng_int(rng, 1, s);
    }
    kp->capacity = c;
    return so_kp_instance_json(kp, out);
}
