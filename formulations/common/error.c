/* error.c — input error records with file, line, column and key path. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "slotopt.h"

void so_error_clear(so_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

int so_error_setf(so_error *err, const char *file, int line, int column,
                  const char *key, const char *fmt, ...)
{
    if (!err)
        return SO_EINVAL;
    so_error_clear(err);
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->column = column;
    snprintf(err->key, sizeof err->key, "%s", key ? key : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return SO_EINVAL;
}

const char *so_error_format(const so_error *err, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    if (err->file[0])
        n += snprintf(buf + n, size - n, "%s:", err->file);
    if (err->line > 0 && n < size)
        n += snprintf(buf + n, size - n, "%d:%d:", err->line, err->column);
    if (n && n < size)
        n += snprintf(buf + n, size - n, " ");
    if (err->key[0] && n < size)
        n += snprintf(buf + n, size - n, "key '%s': ", err->key);
    if (n < size)
        snprintf(buf + n, size - n, "%s", err->message);
    return buf;
}
