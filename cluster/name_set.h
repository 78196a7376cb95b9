/* name_set.h — a set of strings: open addressing with linear probing on a
 * keyed 64-bit hash (FNV-1a seeded with a random key per set, then mixed),
 * at most half full, so adding and looking up a name take constant
 * expected time even for names crafted to collide (the Rumen reader counts
 * a trace's distinct host names with it). The table grows only when a new
 * name is added. The set owns copies of its names. */
#ifndef SO_CL_NAME_SET_H
#define SO_CL_NAME_SET_H
#include <stddef.h>
#include <stdint.h>

typedef struct so_cl_name_set {
    char **slot; /* cap slots, NULL when empty; cap a power of two */
    size_t n, cap;
    uint64_t key;  /* drawn when the table is first allocated */
    size_t probes; /* slots looked at so far (for tests: stays O(n)) */
} so_cl_name_set;

/* Adds a copy of name: 1 when added, 0 when already there, -1 when out of
 * memory (the set is unchanged then). */
int so_cl_name_set_add(so_cl_name_set *s, const char *name);
void so_cl_name_set_free(so_cl_name_set *s);

#endif
