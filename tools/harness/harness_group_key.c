/* harness_group_key.c — the keys `report --group-by` accepts: "family"
 * when a stored row came from a family, and every family parameter some
 * stored row has in "meta".params. An unknown key is an error naming the
 * accepted keys (it used to make one group "KEY=-"). */
#include <stdlib.h>
#include <string.h>
#include "tools/harness/harness.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int so_hgroup_key_check(const so_hrows *rows, const char *key, char *accepted,
                        size_t size)
{
    if (size)
        accepted[0] = '\0';
    if (!key || !key[0])
        return SO_OK;
    json_t *keys = json_object();
    if (!keys)
        return SO_ENOMEM;
    for (size_t i = 0; i < rows->n; i++) {
        const so_hrow *r = &rows->v[i];
        if (r->family)
            json_object_set_new(keys, "family", json_true());
        json_t *p = r->params ? json_loads(r->params, 0, NULL) : NULL;
        const char *k;
        json_t *v;
        json_object_foreach(p, k, v)
            json_object_set_new(keys, k, json_true());
        json_decref(p);
    }
    int found = json_object_get(keys, key) != NULL;
    size_t n = json_object_size(keys), m = 0;
    const char **names = malloc((n ? n : 1) * sizeof *names);
    if (!names) {
        json_decref(keys);
        return SO_ENOMEM;
    }
    const char *k;
    json_t *v;
    json_object_foreach(keys, k, v)
        names[m++] = k;
    qsort(names, m, sizeof *names, cmp_str);
    size_t len = 0;
    for (size_t i = 0; i < m && len < size; i++)
        len += (size_t)snprintf(accepted + len, size - len, "%s%s", i ? ", " : "", names[i]);
    if (len < size)
        snprintf(accepted + len, size - len, "%s'' (no grouping)", m ? ", " : "");
    free(names);
    json_decref(keys);
    return found ? SO_OK : SO_EINVAL;
}
