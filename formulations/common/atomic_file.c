/* atomic_file.c — write outputs through a temporary file and rename, so a
 * failed or interrupted write never leaves a partial file behind. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "slotopt.h"

int so_write_file_atomic(const char *path, const char *text, size_t len,
                         so_error *err)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 48);
    if (!tmp)
        return SO_ENOMEM;
    /* a fresh name (O_EXCL) with mode 0666 less the umask, like any other
     * output file (mkstemp would leave 0600) */
    static unsigned counter;
    int fd = -1;
    for (int attempt = 0; attempt < 1000 && fd < 0; attempt++) {
        snprintf(tmp, plen + 48, "%s.tmp%ld.%u", path, (long)getpid(), counter++);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
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
