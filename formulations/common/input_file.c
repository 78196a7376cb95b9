/* input_file.c — the one reader of every input file (instances, workloads,
 * SWIM traces, scenarios, schedules): "-" is standard input; a folder is
 * refused by name; no input may exceed so_input_limit() bytes (256 MiB, or
 * SLOTOPT_MAX_INPUT_MB mebibytes), so `solve /dev/zero` stops after at most
 * that many bytes with a located error instead of reading forever. A
 * regular file's size is checked before reading. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "slotopt.h"

#define SO_INPUT_DEFAULT_MB 256

size_t so_input_limit(void)
{
    const char *env = getenv("SLOTOPT_MAX_INPUT_MB");
    if (env && *env) {
        char *end;
        errno = 0;
        unsigned long long mb = strtoull(env, &end, 10);
        /* a bad value keeps the default rather than lifting the bound */
        if (!*end && !errno && mb >= 1 && mb <= ((size_t)-1 >> 21))
            return (size_t)mb << 20;
    }
    return (size_t)SO_INPUT_DEFAULT_MB << 20;
}

static int too_large(const char *shown, size_t limit, so_error *err)
{
    so_error_setf(err, shown, 0, 0, NULL,
                  "larger than the input limit of %zu MiB (set"
                  " SLOTOPT_MAX_INPUT_MB to raise it)",
                  limit >> 20);
    return SO_EINVAL;
}

int so_read_input(const char *path, char **text, size_t *len, so_error *err)
{
    if (!path || !text)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "so_read_input: NULL argument");
    *text = NULL;
    if (len)
        *len = 0;
    int is_stdin = !strcmp(path, "-");
    const char *shown = is_stdin ? "stdin" : path;
    size_t limit = so_input_limit();
    struct stat st;
    if (!is_stdin && stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            so_error_setf(err, path, 0, 0, NULL,
                          "is a folder, expected a file");
            return SO_EIO;
        }
        if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > limit)
            return too_large(shown, limit, err);
    }
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    if (!fp) {
        so_error_setf(err, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
        return SO_EIO;
    }
    size_t cap = 0, n = 0;
    char *buf = NULL;
    int rc = SO_OK;
    for (;;) {
        if (n == cap) {
            if (cap > limit) { /* read limit + 1 bytes: there is more */
                rc = too_large(shown, limit, err);
                break;
            }
            size_t grown = cap ? 2 * cap : 65536;
            if (grown > limit + 1)
                grown = limit + 1;
            char *b = realloc(buf, grown + 1);
            if (!b) {
                rc = SO_ENOMEM;
                break;
            }
            buf = b;
            cap = grown;
        }
        size_t got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (got == 0)
            break;
    }
    if (!rc && n > limit)
        rc = too_large(shown, limit, err);
    if (!rc && ferror(fp)) {
        so_error_setf(err, shown, 0, 0, NULL, "read error: %s", strerror(errno));
        rc = SO_EIO;
    }
    if (!is_stdin)
        fclose(fp);
    if (rc) {
        free(buf);
        return rc;
    }
    if (!buf && !(buf = malloc(1)))
        return SO_ENOMEM;
    buf[n] = '\0';
    *text = buf;
    if (len)
        *len = n;
    return SO_OK;
}
