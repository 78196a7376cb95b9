/* result_internal.h — the result object's body (internal). */
#ifndef SO_RESULT_INTERNAL_H
#define SO_RESULT_INTERNAL_H
#include "slotopt.h"

struct so_result {
    int status;
    int has_objective, has_bound;
    int objective_is_int, bound_is_int; /* exact integers below */
    int64_t objective_int, bound_int;
    double objective, bound, seconds;
    json_t *solution; /* owned */
    json_t *extra;    /* owned object */
    char message[512];
    char problem[64], instance[256], backend[64];
    int exact;
};

#endif
