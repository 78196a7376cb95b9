/* kp_pair.c — pairing of DP states with single items outside the core, to
 * raise kp-dp's incumbent early.
 *
 * S. Martello, D. Pisinger and P. Toth, "Dynamic programming and strong
 * bounds for the 0-1 knapsack problem", Management Science 45(3), 1999,
 * section 4 ("improving the lower bound by pairing"): a state (w, p) that
 * fits may be completed by one more item j outside the core (x_j = 0 in
 * every state), an overweight state repaired by removing one item i outside
 * the core (x_i = 1 in every state); the best such single flip is a
 * feasible solution and may beat the incumbent. Choices where the paper is
 * silent:
 *   - the candidates are every item the DP has not merged (the caller's
 *     skip flags), so also the core's items the reduction test skipped:
 *     they are at their break value in every state, and pairing one is a
 *     feasible solution (that cannot beat z, by that test);
 *   - the best flip over all (state, item) pairs is found exactly by one
 *     sweep: the "add" items (those after the break item) and the "remove"
 *     items (before it) are each sorted by weight once per run (radix
 *     sort, kp_sort.c), as items, not positions: the lists stay valid
 *     while kp-dp's lazily sorted order moves items outside its window
 *     (they were sorted again after each growth; issue 30); as an add
 *     item's weight rises, the best state it fits
 *     (the heaviest of weight <= c - w_j: states rise in profit with
 *     weight) moves down the state list, and as a remove item's weight
 *     rises the best state it repairs (the heaviest of weight <= c + w_i)
 *     moves up: O(n + m) per round, no search;
 *   - when kp-dp pairs is its choice (kp_dp.c). */
#include <stdlib.h>
#include "solvers/kp_exact_internal.h"
#include "solvers/kp_pair.h"

struct kp_pairing {
    const int64_t *pw, *pp;
    size_t *add, *rem; /* items at positions >= b / < b, by weight */
    size_t n, b;
};

kp_pairing *so_kp_pair_new(const int64_t *pw, const int64_t *pp,
                           const size_t *ord, size_t n, size_t b)
{
    kp_pairing *k = calloc(1, sizeof *k);
    size_t *all = malloc((n ? n : 1) * sizeof *all);
    if (!k || !all) {
        free(k);
        free(all);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        all[i] = ord[i];
    if (so_kp_sort_index_by_i64(all, b, pw) ||
        so_kp_sort_index_by_i64(all + b, n - b, pw)) {
        free(k);
        free(all);
        return NULL;
    }
    k->pw = pw;
    k->pp = pp;
    k->rem = all;
    k->add = all + b;
    k->n = n;
    k->b = b;
    return k;
}

void so_kp_pair_free(kp_pairing *k)
{
    if (!k)
        return;
    free(k->rem);
    free(k);
}

int so_kp_pair_best(const kp_pairing *k, const int64_t *w, const int64_t *p,
                    size_t stride, size_t m, int64_t c,
                    const unsigned char *skip, int64_t z, size_t *state,
                    size_t *item, int64_t *value)
{
    int found = 0;
    if (m == 0)
        return 0;
    /* add: lighter items first, the best state moves down */
    size_t j = m; /* states [0, j) have weight <= c - w_item */
    for (size_t a = 0; a < k->n - k->b; a++) {
        size_t q = k->add[a];
        if (skip[q])
            continue;
        int64_t room = c - k->pw[q];
        while (j > 0 && w[(j - 1) * stride] > room)
            j--;
        if (j == 0)
            break; /* heavier items fit no state either */
        int64_t v = p[(j - 1) * stride] + k->pp[q];
        if (v > z) {
            z = v;
            *state = j - 1;
            *item = q;
            found = SO_KP_PAIR_ADD;
        }
    }
    /* remove: lighter items first, the best state moves up */
    size_t i = 0; /* states [0, i) have weight <= c + w_item */
    for (size_t r = 0; r < k->b; r++) {
        size_t q = k->rem[r];
        if (skip[q])
            continue;
        int64_t limit = c + k->pw[q];
        while (i < m && w[i * stride] <= limit)
            i++;
        if (i == 0)
            continue;
        int64_t v = p[(i - 1) * stride] - k->pp[q];
        if (v > z) {
            z = v;
            *state = i - 1;
            *item = q;
            found = SO_KP_PAIR_REMOVE;
        }
    }
    if (found)
        *value = z;
    return found;
}
