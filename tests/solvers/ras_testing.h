/* ras_testing.h — shared helpers of the RAS test suites: random instances
 * of the ras-random family and solving with a named backend. */
#ifndef SO_RAS_TESTING_H
#define SO_RAS_TESTING_H
#include <math.h>
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

/* Settings of ras-random for the tiny instances the exact backends and
 * ras-plus are compared on (12 seeds of seed 11 each). */
static const char *const ras_tiny_settings[3][8] = {
    {"tasktrackers=2", "jobs=2", "max_maps=4", "max_reduces=2",
     "parallel_copies=2", NULL},
    {"tasktrackers=3", "jobs=3", "max_maps=3", "max_reduces=2",
     "parallel_copies=1", "tightness=0.8", NULL},
    {"tasktrackers=2", "jobs=3", "max_maps=3", "max_reduces=1",
     "resources=2", "tightness=2", "reduce_share=0.4", NULL},
};

/* One TaskTracker of 10 slots-worth; job A (2 maps of 6, s_req 2) can only
 * place one map (u = log 1 / log 2 - 1 = -1), so the minimum utility is -1
 * whatever job B (3 maps of 1) gets; stage 2 then fills the rest with B:
 * utilisation 0.9. */
static const char *const RAS_STAGE2 =
    "{\"problem\": \"ras\", \"version\": 1, \"resources\": [\"slots\"],\n"
    " \"tasktrackers\": [{\"capacity\": [10]}],\n"
    " \"jobs\": [{\"name\": \"A\", \"s_pend\": 2, \"r_pend\": 0,\n"
    "            \"demand\": {\"map\": [6]}},\n"
    "           {\"name\": \"B\", \"s_pend\": 3, \"s_req\": 1, \"r_pend\": 0,\n"
    "            \"demand\": {\"map\": [1]}}]}\n";

/* Solves p with backend `name` and checks an optimal result of minimum
 * utility min_u and utilisation util; returns it (caller frees). */
static inline so_result *ras_expect_optimum(const so_problem *p,
                                            const char *name, double min_u,
                                            double util)
{
    so_result *r = ras_solve(p, name, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(so_result_status(r), SO_OPTIMAL);
    CU_ASSERT_DOUBLE_EQUAL(so_result_objective(r), min_u, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(ras_utilisation(r), util, 1e-9);
    return r;
}

/* Reads instance file `path` and solves it with backend `name` under a time
 * limit of `seconds`; *rc gets so_solve's code, *out the problem (caller
 * frees both). NULL result if the file could not be read. */
static inline so_result *ras_solve_file(const char *path, const char *name,
                                        double seconds, so_problem **out,
                                        int *rc)
{
    so_error err;
    *out = NULL;
    *rc = so_problem_read(path, out, &err);
    if (*rc != SO_OK) {
        fprintf(stderr, "\nras_solve_file: %s\n", err.message);
        return NULL;
    }
    so_params prm;
    so_params_init(&prm);
    prm.time_limit = seconds;
    so_error_clear(&err);
    so_result *r = NULL;
    *rc = so_solve(so_backend_find(name), *out, &prm, &r, &err);
    return r;
}

/* Backend `name` on the 36 tiny instances (ras_tiny_settings, seed 11,
 * indices 0-11): optimal, as is ras-enum, and equal to ras-enum (and to
 * backend `also` unless NULL) in minimum utility (1e-9) and utilisation
 * (1e-7); with check_bound its bound equals its objective (1e-6). The
 * optima are not all alike (more than 5 differ from the first). */
static inline void ras_expect_agree_tiny(const char *name, const char *also,
                                         int check_bound)
{
    int n = 0, distinct = 0;
    double first = NAN;
    for (int s = 0; s < 3; s++)
        for (uint64_t i = 0; i < 12; i++) {
            so_problem *p = ras_random_problem(11, i, ras_tiny_settings[s]);
            CU_ASSERT_PTR_NOT_NULL_FATAL(p);
            so_result *x = ras_solve(p, name, NULL);
            so_result *e = ras_solve(p, "ras-enum", NULL);
            CU_ASSERT_PTR_NOT_NULL_FATAL(x);
            CU_ASSERT_PTR_NOT_NULL_FATAL(e);
            CU_ASSERT_EQUAL(so_result_status(x), SO_OPTIMAL);
            CU_ASSERT_EQUAL(so_result_status(e), SO_OPTIMAL);
            CU_ASSERT_DOUBLE_EQUAL(so_result_objective(x),
                                   so_result_objective(e), 1e-9);
            CU_ASSERT_DOUBLE_EQUAL(ras_utilisation(x), ras_utilisation(e), 1e-7);
            if (also) {
                so_result *g = ras_solve(p, also, NULL);
                CU_ASSERT_PTR_NOT_NULL_FATAL(g);
                CU_ASSERT_DOUBLE_EQUAL(so_result_objective(x),
                                       so_result_objective(g), 1e-9);
                CU_ASSERT_DOUBLE_EQUAL(ras_utilisation(x), ras_utilisation(g), 1e-7);
                so_result_free(g);
            }
            if (check_bound)
                CU_ASSERT_DOUBLE_EQUAL(so_result_bound(x), so_result_objective(x),
                                       1e-6);
            if (n == 0)
                first = so_result_objective(x);
            distinct += fabs(so_result_objective(x) - first) > 1e-9;
            n++;
            so_result_free(x);
            so_result_free(e);
            so_problem_free(p);
        }
    CU_ASSERT_EQUAL(n, 36);
    CU_ASSERT(distinct > 5); /* the instances are not all alike */
}

#endif
