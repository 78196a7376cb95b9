/* harness_settings.c — a scenario's settings (docs/harness.md, "Settings"):
 * each simulation input is run once per setting, as an instance of its own
 * (name INPUT@NAME, "setting": NAME among its parameters so that tables
 * group by it, a hash of the input's hash, the name and the seed), carrying
 * the setting's simulator options, put over every policy's, and the seed of
 * its first repetition. A physics-sensitivity grid or unseen seeds are
 * settings of one scenario instead of one scenario each. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "tools/harness/harness.h"

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

/* The copy of in under setting st into out. */
static int copy(const so_hinst *in, const so_hsetting *st, so_hinst *out)
{
    memset(out, 0, sizeof *out);
    uint64_t h = mix(14695981039346656037ULL, in->hash, strlen(in->hash));
    h = mix(h, "@", 1);
    h = mix(h, st->name, strlen(st->name) + 1);
    h = mix(h, &st->seed, sizeof st->seed);
    snprintf(out->hash, sizeof out->hash, "%016llx", (unsigned long long)h);
    json_t *pj = in->params ? json_loads(in->params, 0, NULL) : NULL;
    if (!json_is_object(pj)) {
        json_decref(pj);
        pj = json_object();
    }
    json_object_set_new(pj, "setting", json_string(st->name));
    out->params = json_dumps(pj, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(pj);
    if (asprintf(&out->name, "%s@%s", in->name, st->name) < 0)
        out->name = NULL;
    out->family = in->family ? strdup(in->family) : NULL;
    out->has_seed = in->has_seed;
    out->seed = in->seed;
    out->index = in->index;
    out->workload = malloc(in->workload_len + 1);
    out->workload_len = in->workload_len;
    out->options = malloc(sizeof *out->options);
    out->first_seed = st->seed;
    if (!out->params || !out->name || (in->family && !out->family) || !out->workload ||
        !out->options) {
        free(out->params);
        free(out->name);
        free(out->family);
        free(out->workload);
        free(out->options);
        return SO_ENOMEM;
    }
    memcpy(out->workload, in->workload, in->workload_len + 1);
    *out->options = st->options;
    return SO_OK;
}

static void inst_free(so_hinst *in)
{
    free(in->name);
    free(in->family);
    free(in->params);
    free(in->workload);
    free(in->options);
}

int so_hinsts_apply_settings(so_hinsts *s, size_t from, const so_hsetting *set, size_t n,
                             so_error *err)
{
    if (!n || from >= s->n)
        return SO_OK;
    size_t sims = 0;
    for (size_t i = from; i < s->n; i++)
        sims += s->v[i].workload != NULL;
    size_t total = s->n - sims + sims * n;
    so_hinst *v = calloc(total, sizeof *v);
    char *copied = calloc(total, 1); /* which entries of v are new */
    int rc = v && copied ? SO_OK : SO_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; !rc && i < s->n; i++) {
        if (i < from || !s->v[i].workload) {
            v[k++] = s->v[i];
            continue;
        }
        for (size_t j = 0; !rc && j < n; j++)
            if (!(rc = copy(&s->v[i], &set[j], &v[k])))
                copied[k++] = 1;
    }
    for (size_t q = 0; q < k; q++) /* failed: the copies go; else the inputs copied */
        if (rc && copied[q])
            inst_free(&v[q]);
    for (size_t i = from; !rc && i < s->n; i++)
        if (s->v[i].workload)
            inst_free(&s->v[i]);
    free(copied);
    if (rc) {
        free(v);
        return so_error_setf(err, NULL, 0, 0, "settings", "out of memory");
    }
    free(s->v);
    s->v = v;
    s->n = s->cap = total;
    return SO_OK;
}
