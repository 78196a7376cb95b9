/* jsonin.c — strict JSON instance reading with positions (see jsonin.h).
 *
 * jansson keeps no source positions, so an error's line and column are found
 * again in the raw text by walking its key path with a small scanner. The
 * text has already been parsed by jansson, so it is valid JSON here. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/common/jsonin.h"
#include "formulations/common/suggest.h"

/* ---- locating a key path in the raw text -------------------------------- */

static size_t skip_ws(const char *s, size_t i)
{
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
        i++;
    return i;
}

static size_t skip_string(const char *s, size_t i) /* s[i] == '"' */
{
    for (i++; s[i] && s[i] != '"'; i++)
        if (s[i] == '\\' && s[i + 1])
            i++;
    return s[i] ? i + 1 : i;
}

static size_t skip_value(const char *s, size_t i)
{
    if (s[i] == '"')
        return skip_string(s, i);
    if (s[i] == '{' || s[i] == '[') {
        int depth = 0;
        while (s[i]) {
            if (s[i] == '"') {
                i = skip_string(s, i);
                continue;
            }
            if (s[i] == '{' || s[i] == '[')
                depth++;
            else if (s[i] == '}' || s[i] == ']') {
                if (--depth == 0)
                    return i + 1;
            }
            i++;
        }
        return i;
    }
    while (s[i] && !strchr(",}] \t\r\n", s[i]))
        i++;
    return i;
}

/* Appends code point cp as UTF-8; returns the bytes written (0 if no room). */
static size_t put_utf8(char *out, size_t room, unsigned long cp)
{
    unsigned char b[4];
    size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (n > room)
        return 0;
    if (n == 1) {
        b[0] = (unsigned char)cp;
    } else {
        for (size_t k = n - 1; k > 0; k--, cp >>= 6)
            b[k] = (unsigned char)(0x80 | (cp & 0x3f));
        b[0] = (unsigned char)((0xf00 >> n) | cp); /* 110x, 1110x, 11110x */
    }
    memcpy(out, b, n);
    return n;
}

/* Decodes the JSON string at s[i] (s[i] == '"', valid JSON) into buf;
 * returns its length, or -1 when it does not fit (size - 1 bytes). */
static long decode_string(const char *s, size_t i, char *buf, size_t size)
{
    size_t n = 0;
    for (i++; s[i] && s[i] != '"'; i++) {
        unsigned long cp = (unsigned char)s[i];
        if (s[i] == '\\') {
            char e = s[++i];
            const char *map = strchr("b\bf\fn\nr\rt\t", e);
            cp = e == 'u' ? strtoul((char[5]){s[i + 1], s[i + 2], s[i + 3], s[i + 4], 0}, NULL, 16)
                 : map    ? (unsigned char)map[1]
                          : (unsigned char)e; /* \" \\ \/ */
            if (e == 'u')
                i += 4;
            if (cp >= 0xd800 && cp < 0xdc00 && s[i + 1] == '\\' && s[i + 2] == 'u') {
                unsigned long lo = strtoul((char[5]){s[i + 3], s[i + 4], s[i + 5], s[i + 6], 0},
                                           NULL, 16);
                if (lo >= 0xdc00 && lo < 0xe000) {
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                    i += 6;
                }
            }
            size_t w = put_utf8(buf + n, size - 1 - n, cp);
            if (!w)
                return -1;
            n += w;
            continue;
        }
        if (n + 1 >= size)
            return -1;
        buf[n++] = s[i];
    }
    buf[n] = '\0';
    return (long)n;
}

/* Finds the member of the object at s[i] whose key is the longest prefix of
 * path ending at '.', '[' or the end (keys may hold dots and brackets); sets
 * *n to the key's length. */
static int find_member(const char *s, size_t i, const char *path, size_t *n,
                       size_t *key_at, size_t *value_at)
{
    if (s[i] != '{')
        return 0;
    int found = 0;
    i = skip_ws(s, i + 1);
    while (s[i] == '"') {
        char key[256];
        long len = decode_string(s, i, key, sizeof key);
        size_t k = i;
        i = skip_ws(s, skip_string(s, i));
        if (s[i] != ':')
            return found;
        i = skip_ws(s, i + 1);
        if (len >= 0 && strlen(key) == (size_t)len && (!found || (size_t)len > *n) &&
            strncmp(path, key, (size_t)len) == 0 && strchr(".[", path[len])) {
            found = 1;
            *n = (size_t)len;
            *key_at = k;
            *value_at = i;
        }
        i = skip_ws(s, skip_value(s, i));
        if (s[i] != ',')
            return found;
        i = skip_ws(s, i + 1);
    }
    return found;
}

static int find_element(const char *s, size_t i, size_t index, size_t *at)
{
    if (s[i] != '[')
        return 0;
    i = skip_ws(s, i + 1);
    for (size_t k = 0; s[i] && s[i] != ']'; k++) {
        if (k == index) {
            *at = i;
            return 1;
        }
        i = skip_ws(s, skip_value(s, i));
        if (s[i] != ',')
            return 0;
        i = skip_ws(s, i + 1);
    }
    return 0;
}

void so_json_locate(const char *text, const char *path, int at_key,
                    int *line, int *column)
{
    *line = *column = 0;
    if (!text)
        return;
    size_t cur = skip_ws(text, 0), best = cur, key_at = cur;
    const char *p = path ? path : "";
    int ok = 1;
    while (*p && ok) {
        if (text[cur] == '[') { /* the value found so far decides the step */
            char *end;
            size_t idx = *p == '[' ? strtoul(p + 1, &end, 10) : 0;
            ok = *p == '[' && *end == ']' && find_element(text, cur, idx, &cur);
            p = ok ? end + 1 : p;
            key_at = cur;
        } else {
            if (*p == '.' && p != path)
                p++;
            size_t n = 0;
            ok = find_member(text, cur, p, &n, &key_at, &cur);
            p += n;
        }
        if (ok)
            best = at_key ? key_at : cur;
    }
    int l = 1, c = 1;
    for (size_t i = 0; i < best && text[i]; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *column = c;
}

/* ---- errors and paths ---------------------------------------------------- */

int so_jin_fail(so_jin *in, const char *path, int at_key, const char *fmt, ...)
{
    int line, col;
    so_json_locate(in->text, path, at_key, &line, &col);
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return so_error_setf(in->err, in->file, line, col, path, "%s", msg);
}

void so_jin_path(char *buf, size_t size, const char *parent, const char *key)
{
    if (parent && parent[0])
        snprintf(buf, size, "%s.%s", parent, key);
    else
        snprintf(buf, size, "%s", key);
}

void so_jin_index(char *buf, size_t size, const char *parent, size_t i)
{
    snprintf(buf, size, "%s[%zu]", parent ? parent : "", i);
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

int so_jin_keys(so_jin *in, json_t *obj, const char *path,
                const char *const *allowed)
{
    static const char *const root_keys[] = {"problem", "version", "meta", NULL};
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        int ok = 0;
        for (const char *const *a = allowed; a && *a && !ok; a++)
            ok = strcmp(*a, key) == 0;
        for (const char *const *a = root_keys; !ok && !(path && path[0]) && *a;
             a++)
            ok = strcmp(*a, key) == 0;
        if (!ok) {
            char p[256], expect[384] = "";
            size_t n = 0;
            for (const char *const *a = allowed; a && *a && n < sizeof expect;
                 a++)
                n += snprintf(expect + n, sizeof expect - n, "%s%s",
                              n ? ", " : "", *a);
            so_jin_path(p, sizeof p, path, key);
            const char *close = so_suggest(key, allowed);
            if (close)
                return so_jin_fail(in, p, 1, "unknown key; did you mean '%s'?"
                                   " (expected one of: %s)", close, expect);
            return so_jin_fail(in, p, 1, "unknown key (expected one of: %s)",
                               expect);
        }
    }
    return SO_OK;
}

int so_jin_get(so_jin *in, json_t *obj, const char *path, const char *key,
               int required, json_t **out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (!required)
            return SO_OK;
        char p[256];
        so_jin_path(p, sizeof p, path, key);
        int line, col;
        so_json_locate(in->text, path, 0, &line, &col);
        return so_error_setf(in->err, in->file, line, col, p,
                             "missing required key");
    }
    *out = v;
    return SO_OK;
}

static int check_int(so_jin *in, json_t *v, const char *p, int64_t lo,
                     int64_t hi, int64_t *out)
{
    int64_t x;
    if (json_is_integer(v)) {
        x = json_integer_value(v);
    } else if (json_is_real(v) && json_real_value(v) == floor(json_real_value(v))
               && fabs(json_real_value(v)) < 9e15) {
        x = (int64_t)json_real_value(v);
    } else {
        return so_jin_fail(in, p, 0, "expected an integer, found %s",
                           type_name(v));
    }
    if (x < lo || x > hi)
        return so_jin_fail(in, p, 0,
                           "expected an integer in [%lld, %lld], found %lld",
                           (long long)lo, (long long)hi, (long long)x);
    *out = x;
    return SO_OK;
}

static int check_num(so_jin *in, json_t *v, const char *p, double lo,
                     double hi, double *out)
{
    if (!json_is_number(v))
        return so_jin_fail(in, p, 0, "expected a number, found %s",
                           type_name(v));
    double x = json_number_value(v);
    if (!(x >= lo && x <= hi))
        return so_jin_fail(in, p, 0, "expected a number in [%g, %g], found %g",
                           lo, hi, x);
    *out = x;
    return SO_OK;
}

/* Member key of obj and its path; *v stays NULL when optional and missing. */
static int member(so_jin *in, json_t *obj, const char *path, const char *key,
                  int required, json_t **v, char *p, size_t size)
{
    *v = NULL;
    so_jin_path(p, size, path, key);
    return so_jin_get(in, obj, path, key, required, v);
}

static int expect(so_jin *in, const json_t *v, const char *p, int ok,
                  const char *what)
{
    return ok ? SO_OK
              : so_jin_fail(in, p, 0, "expected %s, found %s", what,
                            type_name(v));
}

int so_jin_int(so_jin *in, json_t *obj, const char *path, const char *key,
               int required, int64_t lo, int64_t hi, int64_t *out)
{
    json_t *v;
    char p[256];
    int rc = member(in, obj, path, key, required, &v, p, sizeof p);
    return rc || !v ? rc : check_int(in, v, p, lo, hi, out);
}

int so_jin_num(so_jin *in, json_t *obj, const char *path, const char *key,
               int required, double lo, double hi, double *out)
{
    json_t *v;
    char p[256];
    int rc = member(in, obj, path, key, required, &v, p, sizeof p);
    return rc || !v ? rc : check_num(in, v, p, lo, hi, out);
}

int so_jin_bool(so_jin *in, json_t *obj, const char *path, const char *key,
                int required, int *out)
{
    json_t *v;
    char p[256];
    int rc = member(in, obj, path, key, required, &v, p, sizeof p);
    if (!rc && v && !(rc = expect(in, v, p, json_is_boolean(v), "a boolean")))
        *out = json_is_true(v);
    return rc;
}

int so_jin_str(so_jin *in, json_t *obj, const char *path, const char *key,
               int required, const char **out)
{
    json_t *v;
    char p[256];
    int rc = member(in, obj, path, key, required, &v, p, sizeof p);
    if (!rc && v && !(rc = expect(in, v, p, json_is_string(v), "a string")))
        *out = json_string_value(v);
    return rc;
}

int so_jin_array(so_jin *in, json_t *obj, const char *path, const char *key,
                 int required, size_t min_len, json_t **out)
{
    json_t *v;
    char p[256];
    int rc = member(in, obj, path, key, required, &v, p, sizeof p);
    if (rc || !v || (rc = expect(in, v, p, json_is_array(v), "an array")))
        return rc;
    if (json_array_size(v) < min_len)
        return so_jin_fail(in, p, 0, "expected at least %zu element%s, found %zu",
                           min_len, min_len == 1 ? "" : "s", json_array_size(v));
    *out = v;
    return SO_OK;
}

int so_jin_object(so_jin *in, json_t *obj, const char *path, const char *key,
                  int required, json_t **out)
{
    json_t *v;
    char p[256];
    int rc = member(in, obj, path, key, required, &v, p, sizeof p);
    if (!rc && v && !(rc = expect(in, v, p, json_is_object(v), "an object")))
        *out = v;
    return rc;
}

int so_jin_int_at(so_jin *in, json_t *arr, const char *path, size_t i,
                  int64_t lo, int64_t hi, int64_t *out)
{
    char p[256];
    so_jin_index(p, sizeof p, path, i);
    return check_int(in, json_array_get(arr, i), p, lo, hi, out);
}

int so_jin_num_at(so_jin *in, json_t *arr, const char *path, size_t i,
                  double lo, double hi, double *out)
{
    char p[256];
    so_jin_index(p, sizeof p, path, i);
    return check_num(in, json_array_get(arr, i), p, lo, hi, out);
}

int so_jin_object_at(so_jin *in, json_t *arr, const char *path, size_t i,
                     json_t **out)
{
    char p[256];
    so_jin_index(p, sizeof p, path, i);
    json_t *v = json_array_get(arr, i);
    int rc = expect(in, v, p, json_is_object(v), "an object");
    if (!rc)
        *out = v;
    return rc;
}
