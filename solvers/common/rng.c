/* rng.c — xoshiro256** (Blackman and Vigna, 2018) seeded by splitmix64.
 * Integer and uniform streams are bit-identical on every machine; normal
 * variates use Marsaglia's polar method (only sqrt and log from libm). */
#include <math.h>
#include "slotopt.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void so_rng_seed_stream(so_rng *rng, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1342543de82ef95ULL + 0x632be59bd9b4e019ULL);
    if (stream == 0)
        x = seed;
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&x);
    rng->has_spare = 0;
    rng->spare = 0;
}

void so_rng_seed(so_rng *rng, uint64_t seed) { so_rng_seed_stream(rng, seed, 0); }

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t so_rng_u64(so_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double so_rng_uniform(so_rng *rng)
{
    return (double)(so_rng_u64(rng) >> 11) * 0x1.0p-53;
}

int64_t so_rng_int(so_rng *rng, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return lo;
    uint64_t range = (uint64_t)hi - (uint64_t)lo + 1;
    if (range == 0) /* the whole 64-bit range */
        return (int64_t)so_rng_u64(rng);
    uint64_t limit = UINT64_MAX - UINT64_MAX % range; /* reject the tail */
    uint64_t x;
    do
        x = so_rng_u64(rng);
    while (x >= limit);
    return (int64_t)((uint64_t)lo + x % range);
}

double so_rng_normal(so_rng *rng, double mean, double sd)
{
    if (rng->has_spare) {
        rng->has_spare = 0;
        return mean + sd * rng->spare;
    }
    double u, v, s;
    do {
        u = 2.0 * so_rng_uniform(rng) - 1.0;
        v = 2.0 * so_rng_uniform(rng) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    double f = sqrt(-2.0 * log(s) / s);
    rng->spare = v * f;
    rng->has_spare = 1;
    return mean + sd * u * f;
}

double so_rng_exponential(so_rng *rng, double mean)
{
    return -mean * log(1.0 - so_rng_uniform(rng));
}

double so_rng_lognormal(so_rng *rng, double mu, double sigma)
{
    return exp(so_rng_normal(rng, mu, sigma));
}
