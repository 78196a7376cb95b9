/* harness_config.c — which backends a run compares, and with what. */
#include <string.h>
#include "formulations/common/suggest.h"
#include "tools/harness/harness.h"

void so_hconfig_init(so_hconfig *c)
{
    memset(c, 0, sizeof *c);
    c->time_limit = 60;
    c->jobs = 1;
    c->reps = 1;
}

double so_harness_kill_after(double time_limit)
{
    if (time_limit <= 0)
        return 0;
    return time_limit + (time_limit < 1 ? time_limit : 1);
}

static int add_unique(const so_backend **v, size_t *n, const so_backend *b,
                      so_error *err)
{
    for (size_t i = 0; i < *n; i++)
        if (v[i] == b)
            return SO_OK;
    if (*n == SO_HARNESS_MAX_BACKENDS)
        return so_error_setf(err, NULL, 0, 0, NULL, "more than %d backends",
                             SO_HARNESS_MAX_BACKENDS);
    v[(*n)++] = b;
    return SO_OK;
}

static const so_backend *find(const so_hconfig *c, const char *name, so_error *err)
{
    for (size_t i = 0; i < c->n_variants; i++)
        if (!strcmp(c->variants[i].name, name))
            return &c->variants[i].backend;
    const so_backend *b = so_backend_find(name);
    if (!b) {
        char text[2048];
        so_error_setf(err, NULL, 0, 0, NULL, "unknown backend '%s'; %s", name,
                      so_suggest_text(text, sizeof text, name, so_backend_names()));
    }
    return b;
}

int so_hconfig_add_backend(so_hconfig *c, const char *name, so_error *err)
{
    const so_backend *b = find(c, name, err);
    return b ? add_unique(c->backends, &c->n_backends, b, err) : SO_EINVAL;
}

int so_hconfig_add_reference(so_hconfig *c, const char *name, so_error *err)
{
    const so_backend *b = find(c, name, err);
    if (!b)
        return SO_EINVAL;
    for (size_t i = 0; i < c->n_refs; i++)
        if (c->refs[i] != b && strcmp(c->refs[i]->problem, b->problem) == 0)
            return so_error_setf(err, NULL, 0, 0, NULL,
                                 "two references for '%s' problems: %s and %s",
                                 b->problem, c->refs[i]->name, b->name);
    int rc = add_unique(c->refs, &c->n_refs, b, err);
    return rc ? rc : add_unique(c->backends, &c->n_backends, b, err);
}

int so_hconfig_add_backend_list(so_hconfig *c, const char *list, int reference,
                                so_error *err)
{
    char buf[2048];
    if (strlen(list) >= sizeof buf)
        return so_error_setf(err, NULL, 0, 0, NULL, "backend list too long");
    strcpy(buf, list);
    int any = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        int rc = reference ? so_hconfig_add_reference(c, tok, err)
                           : so_hconfig_add_backend(c, tok, err);
        if (rc)
            return rc;
        any = 1;
    }
    if (!any)
        return so_error_setf(err, NULL, 0, 0, NULL, "empty backend list '%s'", list);
    return SO_OK;
}

int so_hconfig_add_variant(so_hconfig *c, const char *name, const char *backend,
                           const so_params *options, so_error *err)
{
    if (c->n_variants == SO_HARNESS_MAX_VARIANTS)
        return so_error_setf(err, NULL, 0, 0, NULL, "more than %d named backends",
                             SO_HARNESS_MAX_VARIANTS);
    if (!*name || strlen(name) >= sizeof c->variants[0].name)
        return so_error_setf(err, NULL, 0, 0, NULL, "a backend's name: 1 to %zu characters",
                             sizeof c->variants[0].name - 1);
    if (so_backend_find(name))
        return so_error_setf(err, NULL, 0, 0, NULL, "'%s' is a registered backend: give"
                             " the named one another name", name);
    for (size_t i = 0; i < c->n_variants; i++)
        if (!strcmp(c->variants[i].name, name))
            return so_error_setf(err, NULL, 0, 0, NULL, "backend '%s' given twice", name);
    const so_backend *b = find(c, backend, err);
    if (!b)
        return SO_EINVAL;
    for (int i = 0; options && i < options->n_options; i++) {
        int ok = 0;
        for (const so_option_doc *d = b->options; d && d->key && !ok; d++)
            ok = !strcmp(d->key, options->options[i].key);
        if (!ok)
            return so_error_setf(err, NULL, 0, 0, options->options[i].key,
                                 "not an option of backend '%s' (slotopt backends)",
                                 b->name);
    }
    so_hvariant *v = &c->variants[c->n_variants++];
    v->backend = *b;
    snprintf(v->name, sizeof v->name, "%s", name);
    v->backend.name = v->name;
    so_params_init(&v->options);
    if (options)
        v->options = *options;
    return add_unique(c->backends, &c->n_backends, &v->backend, err);
}

const so_params *so_hconfig_options(const so_hconfig *c, const so_backend *b)
{
    for (size_t i = 0; i < c->n_variants; i++)
        if (b == &c->variants[i].backend)
            return &c->variants[i].options;
    return NULL;
}
