/*
 * jsonin.h — strict reading of native JSON instances (internal).
 *
 * Readers walk a jansson tree and report every problem with the file, the
 * 1-based line and column of the offending value (found again in the raw text
 * by its key path) and the key path itself, e.g. "jobs[2].weight".
 */
#ifndef SO_JSONIN_H
#define SO_JSONIN_H

#include "slotopt.h"

typedef struct so_jin {
    const char *file; /* shown in messages */
    const char *text; /* the raw text, to locate values */
    so_error *err;
} so_jin;

#define SO_REQUIRED 1
#define SO_OPTIONAL 0

/* Records an error at the value (at_key = 0) or the key (at_key = 1) named by
 * path; returns SO_EINVAL. */
int so_jin_fail(so_jin *in, const char *path, int at_key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* "parent.key" (or "key" at the root) and "parent[i]". */
void so_jin_path(char *buf, size_t size, const char *parent, const char *key);
void so_jin_index(char *buf, size_t size, const char *parent, size_t i);

/* Fails on any key of obj not in allowed (NULL-terminated). At the root
 * (path "") "problem", "version" and "meta" are always allowed. */
int so_jin_keys(so_jin *in, json_t *obj, const char *path,
                const char *const *allowed);

/* Member `key` of the object obj (at path). Missing and optional: returns 0
 * and leaves *out untouched (the caller sets the default first). */
int so_jin_get(so_jin *in, json_t *obj, const char *path, const char *key,
               int required, json_t **out);
int so_jin_int(so_jin *in, json_t *obj, const char *path, const char *key,
               int required, int64_t lo, int64_t hi, int64_t *out);
int so_jin_num(so_jin *in, json_t *obj, const char *path, const char *key,
               int required, double lo, double hi, double *out);
int so_jin_bool(so_jin *in, json_t *obj, const char *path, const char *key,
                int required, int *out);
int so_jin_str(so_jin *in, json_t *obj, const char *path, const char *key,
               int required, const char **out);
int so_jin_array(so_jin *in, json_t *obj, const char *path, const char *key,
                 int required, size_t min_len, json_t **out);
int so_jin_object(so_jin *in, json_t *obj, const char *path, const char *key,
                  int required, json_t **out);

/* Element i of the array arr (at path). */
int so_jin_int_at(so_jin *in, json_t *arr, const char *path, size_t i,
                  int64_t lo, int64_t hi, int64_t *out);
int so_jin_num_at(so_jin *in, json_t *arr, const char *path, size_t i,
                  double lo, double hi, double *out);
int so_jin_object_at(so_jin *in, json_t *arr, const char *path, size_t i,
                     json_t **out);

/* Line and column (1-based) of the value (or key) at path in text; 0 if not
 * found. Exposed for tests. */
void so_json_locate(const char *text, const char *path, int at_key,
                    int *line, int *column);

#endif
