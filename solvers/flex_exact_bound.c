/* flex_exact_bound.c — a lower bound for the malleable FLEX problem from a
 * partial schedule (the project's; the paper computes its optimum by
 * exhaustive search, Section 4.1).
 *
 * State: time T, active jobs A (a of them) with remaining work r_j.
 * (1) Own bound: job j needs at least r_j / M_j more seconds.
 * (2) Positional bound: the k-th job of A to complete, t_(k), satisfies
 *     S (t_(k) - T) >= W(K) + sum_{i in A \ K} m_i (t_(k) - T), K the first
 *     k completed (the others hold at least their minima throughout), so
 *     t_(k) - T >= b_k = W_k / (S - mu_{a-k}), W_k the k smallest r_j and
 *     mu_{a-k} the a-k smallest minima (b_k made non-decreasing in k).
 * Minisum: every completion order is an assignment of jobs to positions,
 * so min over assignments of sum_j p_j(T + max(b_k, r_j / M_j)) is a bound
 * (Hungarian method, O(a^3)); for linear p_j also Smith's rule on one
 * machine of speed S (the fluid relaxation without minima and maxima).
 * Minimax: max(max_j p_j(T + r_j / M_j), min_j p_j(T + b_a)) (the last
 * job to complete ends after T + b_a). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "solvers/flex_exact.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Minimum-cost perfect assignment of an a x a matrix (row-major, a <= 64),
 * by the Hungarian method with potentials (shortest augmenting paths). */
double so_flex_assignment(const double *c, size_t a)
{
    enum { MAXA = 64 };
    double u[MAXA + 1] = {0}, v[MAXA + 1] = {0}, minv[MAXA + 1];
    size_t p[MAXA + 1] = {0}, way[MAXA + 1] = {0};
    unsigned char used[MAXA + 1];
    for (size_t i = 1; i <= a; i++) {
        p[0] = i;
        size_t j0 = 0;
        for (size_t j = 0; j <= a; j++) {
            minv[j] = INFINITY;
            used[j] = 0;
        }
        do {
            used[j0] = 1;
            size_t i0 = p[j0], j1 = 0;
            double delta = INFINITY;
            for (size_t j = 1; j <= a; j++)
                if (!used[j]) {
                    double cur = c[(i0 - 1) * a + (j - 1)] - u[i0] - v[j];
                    if (cur < minv[j]) {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if (minv[j] < delta) {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            for (size_t j = 0; j <= a; j++)
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            size_t j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    double total = 0;
    for (size_t j = 1; j <= a; j++)
        total += c[(p[j] - 1) * a + (j - 1)];
    return total;
}

typedef struct {
    double key, rem, omega, beta;
} smith_job;

static int by_smith(const void *x, const void *y)
{
    const smith_job *a = x, *b = y;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* Smith's rule for sum (omega_j t_j + beta_j) on one machine of speed S. */
static double smith(const so_flex *f, double T, const double *rem,
                    const unsigned char *active)
{
    smith_job *s = malloc((f->n ? f->n : 1) * sizeof *s);
    if (!s)
        return -INFINITY;
    size_t a = 0;
    for (size_t j = 0; j < f->n; j++)
        if (active[j]) {
            so_flex_linear(f, j, &s[a].omega, &s[a].beta);
            s[a].rem = rem[j];
            s[a].key = s[a].omega > 0 ? rem[j] / s[a].omega : INFINITY;
            a++;
        }
    qsort(s, a, sizeof *s, by_smith);
    double t = T, total = 0;
    for (size_t k = 0; k < a; k++) {
        t += s[k].rem / (double)f->slots;
        total += s[k].omega * t + s[k].beta;
    }
    free(s);
    return total;
}

double so_flex_exact_bound(const so_flex *f, double T, const double *rem,
                           const unsigned char *active, double acc,
                           double *scratch)
{
    size_t a = 0;
    double *w = scratch, *mu = scratch + f->n, *b = scratch + 2 * f->n;
    double *own = scratch + 3 * f->n, *cost = scratch + 4 * f->n;
    for (size_t j = 0; j < f->n; j++)
        if (active[j]) {
            w[a] = rem[j];
            mu[a] = (double)f->min[j];
            own[a] = rem[j] / (double)f->max[j];
            a++;
        }
    if (a == 0)
        return acc;
    qsort(w, a, sizeof *w, cmp_double);
    qsort(mu, a, sizeof *mu, cmp_double);
    double cum_w = 0, prev = 0;
    for (size_t k = 1; k <= a; k++) {
        cum_w += w[k - 1];
        double m = 0;
        for (size_t i = 0; i < a - k; i++)
            m += mu[i];
        double room = (double)f->slots - m;
        double bk = cum_w / (room > 0 ? room : (double)f->slots);
        b[k - 1] = prev = bk > prev ? bk : prev;
    }
    if (f->aggregate == SO_FLEX_MAX) {
        double lb = acc, last = INFINITY;
        size_t i = 0;
        for (size_t j = 0; j < f->n; j++)
            if (active[j]) {
                lb = fmax(lb, so_flex_penalty(f, j, T + own[i++]));
                last = fmin(last, so_flex_penalty(f, j, T + b[a - 1]));
            }
        return fmax(lb, last);
    }
    size_t i = 0;
    for (size_t j = 0; j < f->n; j++)
        if (active[j]) {
            for (size_t k = 0; k < a; k++)
                cost[i * a + k] = so_flex_penalty(f, j, T + fmax(b[k], own[i]));
            i++;
        }
    double lb = so_flex_assignment(cost, a), om, be;
    if (so_flex_linear(f, 0, &om, &be))
        lb = fmax(lb, smith(f, T, rem, active));
    return acc + lb;
}
