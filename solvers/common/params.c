/* params.c — solver parameters and backend options (key=value). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "slotopt.h"
#include "formulations/common/suggest.h"

#define SO_PARAMS_MAX_DOCS 128 /* option keys listed in an error */

void so_params_init(so_params *p)
{
    memset(p, 0, sizeof *p);
    p->time_limit = 0;
    p->seed = 1;
}

int so_params_set(so_params *p, const char *key, const char *value)
{
    if (strlen(key) >= sizeof p->options[0].key ||
        strlen(value) >= sizeof p->options[0].value)
        return SO_EINVAL;
    for (int i = 0; i < p->n_options; i++)
        if (strcmp(p->options[i].key, key) == 0) {
            strcpy(p->options[i].value, value);
            return SO_OK;
        }
    if (p->n_options == SO_MAX_OPTIONS)
        return SO_EINVAL;
    strcpy(p->options[p->n_options].key, key);
    strcpy(p->options[p->n_options].value, value);
    p->n_options++;
    return SO_OK;
}

int so_params_set_kv(so_params *p, const char *kv, so_error *err)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "expected key=value, found '%s'", kv);
    char key[sizeof p->options[0].key];
    size_t n = (size_t)(eq - kv);
    if (n >= sizeof key)
        return so_error_setf(err, NULL, 0, 0, NULL, "key too long (at most %zu"
                             " characters) in '%s'", sizeof key - 1, kv);
    memcpy(key, kv, n);
    key[n] = '\0';
    if (so_params_set(p, key, eq + 1))
        return so_error_setf(err, NULL, 0, 0, key,
                             "too many options or value too long");
    return SO_OK;
}

const char *so_params_get(const so_params *p, const char *key)
{
    for (int i = 0; p && i < p->n_options; i++)
        if (strcmp(p->options[i].key, key) == 0)
            return p->options[i].value;
    return NULL;
}

const char *so_params_str(const so_params *p, const so_option_doc *docs,
                          const char *key, const char *def)
{
    const char *v = so_params_get(p, key);
    if (v)
        return v;
    for (const so_option_doc *d = docs; d && d->key; d++)
        if (strcmp(d->key, key) == 0 && d->def)
            return d->def;
    return def;
}

int so_params_double(const so_params *p, const so_option_doc *docs,
                     const char *key, double def, double *out, so_error *err)
{
    const char *v = so_params_str(p, docs, key, NULL);
    if (!v) {
        *out = def;
        return SO_OK;
    }
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !isfinite(x))
        return so_error_setf(err, NULL, 0, 0, key,
                             "expected a number, found '%s'", v);
    *out = x;
    return SO_OK;
}

int so_params_int(const so_params *p, const so_option_doc *docs,
                  const char *key, long long def, long long *out, so_error *err)
{
    const char *v = so_params_str(p, docs, key, NULL);
    if (!v) {
        *out = def;
        return SO_OK;
    }
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (end == v || *end || errno)
        return so_error_setf(err, NULL, 0, 0, key,
                             "expected an integer, found '%s'", v);
    *out = x;
    return SO_OK;
}

int so_params_check(const so_params *p, const so_option_doc *docs,
                    const char *what, so_error *err)
{
    for (int i = 0; i < p->n_options; i++) {
        int ok = 0;
        for (const so_option_doc *d = docs; d && d->key && !ok; d++)
            ok = strcmp(d->key, p->options[i].key) == 0;
        if (!ok) {
            const char *keys[SO_PARAMS_MAX_DOCS + 1] = {0};
            size_t k = 0;
            for (const so_option_doc *d = docs; d && d->key && k < SO_PARAMS_MAX_DOCS; d++)
                keys[k++] = d->key;
            char text[1024];
            return so_error_setf(err, NULL, 0, 0, p->options[i].key,
                                 "unknown option for %s; %s", what,
                                 so_suggest_text(text, sizeof text, p->options[i].key, keys));
        }
    }
    return SO_OK;
}
