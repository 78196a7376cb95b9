/* registry.c — the one table of backends and the one table of instance
 * families. Adding a backend = one new file + one row here. */
#include <stdio.h>
#include <string.h>
#include "slotopt.h"

/* ---- backend functions, by problem ---------------------------------------- */
/* knapsack */
int so_kp_dp_solve(const so_problem *, const so_params *, so_result *);
int so_kp_bnb_solve(const so_problem *, const so_params *, so_result *);
int so_kp_glpk_solve(const so_problem *, const so_params *, so_result *);
int so_kp_greedy_solve(const so_problem *, const so_params *, so_result *);

/* flex */

/* pareto */

/* ras */
int so_ras_glpk_solve(const so_problem *, const so_params *, so_result *);
int so_ras_enum_solve(const so_problem *, const so_params *, so_result *);
int so_ras_heuristic_solve(const so_problem *, const so_params *, so_result *);
extern const so_option_doc so_ras_heuristic_options[];

static const so_backend backends[] = {
    /* knapsack */
    {"kp-dp", "knapsack", 1,
     "dynamic programming over non-dominated states, expanding from the break"
     " item (Pisinger's minknap scheme)", so_kp_dp_solve, NULL},
    {"kp-bnb", "knapsack", 1,
     "depth-first branch-and-bound, Martello-Toth bound, greedy start",
     so_kp_bnb_solve, NULL},
    {"kp-glpk", "knapsack", 1, "MILP by GLPK branch-and-cut (time limit, bound)",
     so_kp_glpk_solve, NULL},
    {"kp-greedy", "knapsack", 0,
     "ratio greedy, better of it and the best single item (>= 1/2 optimum)",
     so_kp_greedy_solve, NULL},

    /* flex */

    /* pareto */

    /* ras */
    {"ras-glpk", "ras", 1,
     "lexicographic MILP by GLPK: max-min utility, then utilisation at it",
     so_ras_glpk_solve, NULL},
    {"ras-enum", "ras", 1,
     "brute force over every placement (tiny instances; the cross-check)",
     so_ras_enum_solve, NULL},
    {"ras", "ras", 0,
     "the paper's Algorithm 1: reducers spread first, rounds of map-slot"
     " moves to the lowest utility, greedy fill", so_ras_heuristic_solve,
     so_ras_heuristic_options},
};

/* ---- family generators, by problem ------------------------------------------ */
/* knapsack */
extern const so_option_doc so_kp_family_params[];
int so_kp_family_generate(const so_params *, so_rng *, json_t **, so_error *);

/* flex */

/* pareto */

/* ras */
extern const so_option_doc so_ras_gridmix_params[];
int so_ras_gridmix_generate(const so_params *, so_rng *, json_t **, so_error *);
extern const so_option_doc so_ras_random_params[];
int so_ras_random_generate(const so_params *, so_rng *, json_t **, so_error *);

static const so_family families[] = {
    /* knapsack */
    {"knapsack", "knapsack",
     "Pisinger's classes (uncorrelated ... similar weights), n items in [1, R]",
     so_kp_family_params, so_kp_family_generate},

    /* flex */

    /* pareto */

    /* ras */
    {"ras-gridmix", "ras",
     "the paper's Gridmix workload (Tables 1-2: Sort, Combine, Select) on 20"
     " TaskTrackers, a snapshot at a chosen time", so_ras_gridmix_params,
     so_ras_gridmix_generate},
    {"ras-random", "ras",
     "random TaskTrackers, jobs and resources at a chosen tightness",
     so_ras_random_params, so_ras_random_generate},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

size_t so_backend_count(void) { return COUNT(backends); }

const so_backend *so_backend_at(size_t i)
{
    return i < COUNT(backends) ? &backends[i] : NULL;
}

const so_backend *so_backend_find(const char *name)
{
    for (size_t i = 0; i < COUNT(backends); i++)
        if (strcmp(backends[i].name, name) == 0)
            return &backends[i];
    return NULL;
}

const so_backend *so_backend_default(const char *problem)
{
    for (size_t i = 0; i < COUNT(backends); i++)
        if (strcmp(backends[i].problem, problem) == 0 && backends[i].exact)
            return &backends[i];
    for (size_t i = 0; i < COUNT(backends); i++)
        if (strcmp(backends[i].problem, problem) == 0)
            return &backends[i];
    return NULL;
}

size_t so_family_count(void) { return COUNT(families); }

const so_family *so_family_at(size_t i)
{
    return i < COUNT(families) ? &families[i] : NULL;
}

const so_family *so_family_find(const char *name)
{
    for (size_t i = 0; i < COUNT(families); i++)
        if (strcmp(families[i].name, name) == 0)
            return &families[i];
    return NULL;
}

int so_family_generate(const so_family *f, const so_params *settings,
                       uint64_t seed, uint64_t index, json_t **instance,
                       so_error *err)
{
    char what[96];
    snprintf(what, sizeof what, "family '%s'", f->name);
    int rc = so_params_check(settings, f->params, what, err);
    if (rc)
        return rc;
    so_rng rng;
    so_rng_seed_stream(&rng, seed, index);
    rc = f->generate(settings, &rng, instance, err);
    if (rc)
        return rc;
    json_t *params = json_object();
    for (const so_option_doc *d = f->params; d && d->key; d++)
        json_object_set_new(params, d->key,
                            json_string(so_params_str(settings, f->params,
                                                      d->key, "")));
    json_t *meta = json_object();
    json_object_set_new(meta, "family", json_string(f->name));
    json_object_set_new(meta, "seed", json_integer((json_int_t)seed));
    json_object_set_new(meta, "index", json_integer((json_int_t)index));
    json_object_set_new(meta, "params", params);
    json_object_set_new(*instance, "meta", meta);
    return SO_OK;
}
