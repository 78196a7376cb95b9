/* ras_testing.h — shared helpers of the RAS test suites: random instances
 * of the ras-random family and solving with a named backend. */
#ifndef SO_RAS_TESTING_H
#define SO_RAS_TESTING_H
#include <stdio.h>
#include "tests/test_util.h"
#include "formulations/ras.h"

/* Instance `index` of ras-random for `seed` with "key=value" settings
 * (NULL-terminated); NULL on failure. */
static inline so_problem *ras_random_problem(uint64_t seed, uint64_t index,
                                             const char *const *settings)
{
    so_params set;
    so_params_init(&set);
    so_error err;
    for (const char *const *s = settings; s && *s; s++)
        if (so_params_set_kv(&set, *s, &err))
            return NULL;
    json_t *inst = NULL;
    so_problem *p = NULL;
    if (so_family_generate(so_family_find("ras-random"), &set, seed, index,
                           &inst, &err))
        return NULL;
    int rc = so_problem_from_json(inst, "random", &p, &err);
    json_decref(inst);
    return rc ? NULL : p;
}

/* Solves p with backend `name` and options (NULL-terminated "k=v");
 * returns the result (caller frees) or NULL on an error status. */
static inline so_result *ras_solve(const so_problem *p, const char *name,
                                   const char *const *options)
{
    so_params prm;
    so_params_init(&prm);
    so_error err;
    so_error_clear(&err);
    for (const char *const *o = options; o && *o; o++)
        if (so_params_set_kv(&prm, *o, &err))
            return NULL;
    so_result *r = NULL;
    int rc = so_solve(so_backend_find(name), p, &prm, &r, &err);
    if (rc < 0) {
        so_result_free(r);
        return NULL;
    }
    return r;
}

static inline double ras_utilisation(const so_result *r)
{
    return json_real_value(so_result_extra(r, "utilisation"));
}

/* Parses an instance from text (fails the test on error). */
static inline so_problem *ras_parse(const char *text)
{
    so_problem *p = NULL;
    so_error err;
    if (so_problem_parse(text, "t.json", &p, &err))
        fprintf(stderr, "\nras_parse: %s\n", err.message);
    return p;
}

#endif
