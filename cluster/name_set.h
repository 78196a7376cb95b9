/* name_set.h — a set of strings: open addressing with linear probing on a
 * 64-bit FNV-1a hash, at most half full, so adding and looking up a name
 * take constant expected time (the Rumen reader counts a trace's distinct
 * host names with it). The set owns copies of its names. */
#ifndef SO_CL_NAME_SET_H
#define SO_CL_NAME_SET_H
#include <stddef.h>

typedef struct so_cl_name_set {
    char **slot; /* cap slots, NULL when empty; cap a power of two */
    size_t n, cap;
} so_cl_name_set;

/* Adds a copy of name: 1 when added, 0 when already there, -1 when out of
 * memory (the set is unchanged then). */
int so_cl_name_set_add(so_cl_name_set *s, const char *name);
void so_cl_name_set_free(so_cl_name_set *s);

#endif
