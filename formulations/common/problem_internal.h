/*
 * problem_internal.h — what a formulation module provides (internal).
 *
 * Each formulation (knapsack, flex, pareto, ras, ...) defines one
 * so_formulation and lists it in formulations/common/formulations.c.
 */
#ifndef SO_PROBLEM_INTERNAL_H
#define SO_PROBLEM_INTERNAL_H

#include <glpk.h>
#include "slotopt.h"
#include "formulations/common/jsonin.h"

typedef struct so_formulation {
    const char *name;
    const char *description;
    int sense; /* SO_MINIMIZE or SO_MAXIMIZE (of the scalar objective) */
    /* Reads and validates the root object; *data owned by the problem. */
    int (*read_json)(so_jin *in, json_t *root, void **data);
    json_t *(*to_json)(const void *data); /* native JSON, new reference */
    void (*free_data)(void *data);
    /* Reads a text (non-JSON) format of this formulation; NULL if none.
     * Returns SO_EUNSUPPORTED when the text is not in its format at all. */
    int (*read_text)(const char *file, const char *text, void **data,
                     so_error *err);
    /* Builds the GLPK model (for export); NULL when there is none. */
    int (*build_glpk)(const void *data, glp_prob *lp, so_error *err);
    /* The same with export options (--opt KEY=VALUE; prm may be NULL), for
     * a model that needs a setting (pareto: the makespan bound); when set it
     * is used instead of build_glpk. It rejects keys it does not know. */
    int (*build_glpk_params)(const void *data, const so_params *prm, glp_prob *lp,
                             so_error *err);
} so_formulation;

struct so_problem {
    const so_formulation *form;
    void *data;
    char *name;   /* instance name: the file's base name without extension */
    json_t *meta; /* "meta" object or NULL */
};

const so_formulation *so_formulation_find(const char *name);
extern const so_formulation *const so_formulations[]; /* NULL-terminated */

/* Wraps data in a problem (takes ownership of data; frees it on failure). */
int so_problem_wrap(const so_formulation *f, void *data, const char *name,
                    so_problem **out);
/* The data of p if it is of formulation f, else NULL. */
const void *so_problem_data(const so_problem *p, const so_formulation *f);

#endif
