/* flex_json.h — the JSON reader and writer shared by the "flex" and "rap"
 * problem kinds (internal). */
#ifndef SO_FLEX_JSON_H
#define SO_FLEX_JSON_H
#include "formulations/common/problem_internal.h"

int so_flex_read_json(so_jin *in, json_t *root, void **data);
json_t *so_flex_to_json(const void *data);
void so_flex_free_data(void *data);

#endif
