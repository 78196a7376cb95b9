/* kp_pair.h — pairing of kp-dp states with one item outside the core
 * (kp_pair.c). Items are the instance's indices; ord maps a position in
 * efficiency order to its item, b is the break item's position: items at
 * positions < b are "remove" candidates, >= b "add" candidates. */
#ifndef SO_KP_PAIR_H
#define SO_KP_PAIR_H
#include <stddef.h>
#include <stdint.h>
#include "slotopt.h"

typedef struct kp_pairing kp_pairing;

/* The candidates of weights pw and profits pp (by item, n of them, kept
 * by pointer: they must outlive the pairing), split by ord and b; NULL
 * when out of memory. */
kp_pairing *so_kp_pair_new(const int64_t *pw, const int64_t *pp,
                           const size_t *ord, size_t n, size_t b);
void so_kp_pair_free(kp_pairing *k);

/* The states: m records of `stride` int64 values each, the weight at
 * w[i * stride] and the profit at p[i * stride], sorted by weight with
 * rising profits. The best feasible single flip (add a candidate >= b
 * into a state of weight <= c, or remove one < b from a state so that it
 * fits) of a candidate item q with skip[q] == 0 whose value exceeds z:
 * SO_KP_PAIR_ADD or SO_KP_PAIR_REMOVE (which flip it is) with *state,
 * *item and *value; 0 when none beats z. O(n + m). */
enum { SO_KP_PAIR_ADD = 1, SO_KP_PAIR_REMOVE = 2 };
int so_kp_pair_best(const kp_pairing *k, const int64_t *w, const int64_t *p,
                    size_t stride, size_t m, int64_t c,
                    const unsigned char *skip, int64_t z, size_t *state,
                    size_t *item, int64_t *value);
#endif
