/* atomic_file.c — write outputs through a temporary file and rename, so a
 * failed or interrupted write never leaves a partial file behind. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "slotopt.h"

int so_temp_open(const char *path, char *tmp, size_t size)
{
    if ((size_t)snprintf(tmp, size, "%s.tmpXXXXXX", path) >= size)
        return -1;
    int fd = mkstemp(tmp);
    if (fd >= 0) { /* mkstemp's 0600 is not an output's mode */
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    return fd;
}

int so_write_file_atomic(const char *path, const char *text, size_t len,
                         so_error *err)
{
    if (!path || (!text && len))
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "so_write_file_atomic: NULL argument");
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 48);
    if (!tmp)
        return SO_ENOMEM;
    int fd = so_temp_open(path, tmp, plen + 16);
    if (fd < 0) {
        so_error_setf(err, path, 0, 0, NULL, "cannot create: %s",
                      strerror(errno));
        free(tmp);
        return SO_EIO;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        done += (size_t)w;
    }
    int ok = done == len && fsync(fd) == 0;
    ok = (close(fd) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        so_error_setf(err, path, 0, 0, NULL, "cannot write: %s",
                      strerror(errno));
        unlink(tmp);
        free(tmp);
        return SO_EIO;
    }
    free(tmp);
    return SO_OK;
}

int so_write_json_atomic(const char *path, const json_t *value, so_error *err)
{
    if (!path || !value)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "so_write_json_atomic: NULL argument");
    char *text = json_dumps(value, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (!text)
        return SO_ENOMEM;
    size_t len = strlen(text);
    char *withnl = realloc(text, len + 2);
    if (!withnl) {
        free(text);
        return SO_ENOMEM;
    }
    withnl[len] = '\n';
    withnl[len + 1] = '\0';
    int rc = so_write_file_atomic(path, withnl, len + 1, err);
    free(withnl);
    return rc;
}
