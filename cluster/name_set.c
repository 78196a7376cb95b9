/* name_set.c — a set of strings (see name_set.h). The hash is keyed: each
 * set draws a random 64-bit key (getrandom) when it first allocates, which
 * seeds FNV-1a and is mixed in again by a 64-bit finaliser, so the low bits
 * that pick a slot depend on every byte and on the key; a trace crafted
 * against plain FNV-1a cannot aim its names at one run of slots. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "cluster/name_set.h"

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static uint64_t hash(uint64_t key, const char *s)
{
    uint64_t h = 14695981039346656037ULL ^ key;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        h ^= *c;
        h *= 1099511628211ULL;
    }
    return mix(h ^ mix(key));
}

static uint64_t new_key(void)
{
    uint64_t key;
    if (getrandom(&key, sizeof key, GRND_NONBLOCK) == (ssize_t)sizeof key)
        return key;
    struct timespec ts; /* no entropy yet: still not a fixed key */
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return mix((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)getpid() ^
               (uint64_t)(uintptr_t)&key);
}

/* The slot holding name, or the empty slot where it would go. */
static size_t find(so_cl_name_set *s, char **slot, size_t cap, const char *name)
{
    size_t k = (size_t)hash(s->key, name) & (cap - 1);
    s->probes++;
    while (slot[k] && strcmp(slot[k], name)) {
        k = (k + 1) & (cap - 1);
        s->probes++;
    }
    return k;
}

static int grow(so_cl_name_set *s)
{
    size_t cap = s->cap ? 2 * s->cap : 64;
    char **slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    if (!s->cap)
        s->key = new_key();
    for (size_t i = 0; i < s->cap; i++)
        if (s->slot[i])
            slot[find(s, slot, cap, s->slot[i])] = s->slot[i];
    free(s->slot);
    s->slot = slot;
    s->cap = cap;
    return 0;
}

int so_cl_name_set_add(so_cl_name_set *s, const char *name)
{
    size_t k = 0;
    if (s->cap) {
        k = find(s, s->slot, s->cap, name);
        if (s->slot[k])
            return 0; /* there: the table does not grow */
    }
    if (2 * (s->n + 1) > s->cap) {
        if (grow(s))
            return -1;
        k = find(s, s->slot, s->cap, name);
    }
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
    s->probes = 0;
}
