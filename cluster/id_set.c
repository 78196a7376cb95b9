/* id_set.c — ids with rank queries by a Fenwick (binary indexed) tree of
 * membership counts (id_set.h): put adds +-1 along the update path, kth
 * descends by powers of two ("binary lifting"), both O(log n). */
#include <stdlib.h>
#include "cluster/id_set.h"

int so_cl_id_set_init(so_cl_id_set *s, int n)
{
    *s = (so_cl_id_set){0};
    s->n = n > 0 ? n : 0;
    s->tree = calloc((size_t)s->n + 1, sizeof *s->tree);
    s->in = calloc((size_t)s->n + 1, 1);
    if (!s->tree || !s->in) {
        so_cl_id_set_free(s);
        return -1;
    }
    for (s->top = 1; s->top * 2 <= s->n; s->top *= 2)
        ;
    if (s->n == 0)
        s->top = 0;
    return 0;
}

void so_cl_id_set_free(so_cl_id_set *s)
{
    free(s->tree);
    free(s->in);
    *s = (so_cl_id_set){0};
}

void so_cl_id_set_put(so_cl_id_set *s, int id, int on)
{
    on = on != 0;
    if (id < 0 || id >= s->n || s->in[id] == on)
        return;
    s->in[id] = (unsigned char)on;
    int delta = on ? 1 : -1;
    s->count += delta;
    for (int i = id + 1; i <= s->n; i += i & -i)
        s->tree[i] += delta;
}

int so_cl_id_set_kth(const so_cl_id_set *s, int k)
{
    if (k < 0 || k >= s->count)
        return -1;
    int pos = 0; /* largest prefix (1-based) holding at most k members */
    for (int step = s->top; step > 0; step /= 2)
        if (pos + step <= s->n && s->tree[pos + step] <= k) {
            pos += step;
            k -= s->tree[pos];
        }
    return pos; /* 1-based pos + 1 is the member, i.e. id pos */
}
