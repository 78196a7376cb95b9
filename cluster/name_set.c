/* name_set.c — a set of strings (see name_set.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/name_set.h"

static uint64_t hash(const char *s)
{
    uint64_t h = 14695981039346656037ULL;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        h ^= *c;
        h *= 1099511628211ULL;
    }
    return h;
}

/* The slot holding name, or the empty slot where it would go. */
static size_t find(char **slot, size_t cap, const char *name)
{
    size_t k = (size_t)hash(name) & (cap - 1);
    while (slot[k] && strcmp(slot[k], name))
        k = (k + 1) & (cap - 1);
    return k;
}

static int grow(so_cl_name_set *s)
{
    size_t cap = s->cap ? 2 * s->cap : 64;
    char **slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slot[i])
            slot[find(slot, cap, s->slot[i])] = s->slot[i];
    free(s->slot);
    s->slot = slot;
    s->cap = cap;
    return 0;
}

int so_cl_name_set_add(so_cl_name_set *s, const char *name)
{
    if (2 * (s->n + 1) > s->cap && grow(s))
        return -1;
    size_t k = find(s->slot, s->cap, name);
    if (s->slot[k])
        return 0;
    if (!(s->slot[k] = strdup(name)))
        return -1;
    s->n++;
    return 1;
}

void so_cl_name_set_free(so_cl_name_set *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->slot[i]);
    free(s->slot);
    s->slot = NULL;
    s->n = s->cap = 0;
}
