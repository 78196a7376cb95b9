/* flex_random.h — random small FLEX instances for the FLEX test suites
 * (fixed seeds through so_rng). */
#ifndef SO_TEST_FLEX_RANDOM_H
#define SO_TEST_FLEX_RANDOM_H
#include "formulations/flex.h"

/* n jobs, S slots; minima in [0, max_min] (lowered to fit S), maxima in
 * [max(min, 1), S]; work U(1, 50); weights U(0, 1); deadlines U(0, 20);
 * 0..3 SLA steps per job (always allocated; used by metric sla). */
static inline so_flex *so_test_flex_random(so_rng *rng, size_t n, int64_t S,
                                           int64_t max_min, int metric,
                                           int aggregate)
{
    so_flex *f = so_flex_new(n, 3 * n);
    if (!f)
        return NULL;
    f->slots = S;
    f->metric = metric;
    f->aggregate = aggregate;
    int64_t sum = 0;
    for (size_t j = 0; j < n; j++) {
        f->work[j] = 1 + 49 * so_rng_uniform(rng);
        f->min[j] = so_rng_int(rng, 0, max_min);
        if (sum + f->min[j] > S)
            f->min[j] = 0;
        sum += f->min[j];
        f->max[j] = so_rng_int(rng, f->min[j] > 1 ? f->min[j] : 1, S);
        f->weight[j] = so_rng_uniform(rng);
        f->deadline[j] = 20 * so_rng_uniform(rng);
        size_t k = (size_t)so_rng_int(rng, 0, 3), a = f->sla_start[j];
        f->sla_start[j + 1] = a + k;
        double d = 0, p = 0;
        for (size_t i = a; i < a + k; i++) {
            d += 8 * so_rng_uniform(rng);
            p += so_rng_uniform(rng);
            f->sla_deadline[i] = d;
            f->sla_penalty[i] = p;
        }
    }
    return f;
}

#endif
