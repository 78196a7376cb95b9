/* kp_pair.h — pairing of kp-dp states with one item outside the core
 * (kp_pair.c). Positions are indices in efficiency order; b is the break
 * item: positions < b are "remove" candidates, >= b "add" candidates. */
#ifndef SO_KP_PAIR_H
#define SO_KP_PAIR_H
#include <stddef.h>
#include <stdint.h>
#include "slotopt.h"

typedef struct kp_pairing kp_pairing;

/* NULL when out of memory. */
kp_pairing *so_kp_pair_new(const int64_t *pw, const int64_t *pp, size_t n,
                           size_t b);
void so_kp_pair_free(kp_pairing *k);
/* Position pos enters the core: no longer a candidate. */
void so_kp_pair_drop(kp_pairing *k, size_t pos);
/* The most profitable add candidate of weight <= room: 1 and *profit,
 * *pos; 0 when none. */
int so_kp_pair_best_add(const kp_pairing *k, int64_t room, int64_t *profit,
                        size_t *pos);
/* The least profitable remove candidate of weight >= excess. */
int so_kp_pair_best_remove(const kp_pairing *k, int64_t excess, int64_t *profit,
                           size_t *pos);
#endif
