/* scratch.c — scratch folders and files (see scratch.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "formulations/common/scratch.h"

int so_scratch_folder(char *buf, size_t size, const char *prefix, so_error *err)
{
    const char *tmp = getenv("TMPDIR");
    if ((size_t)snprintf(buf, size, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix) >=
        size) {
        so_error_setf(err, tmp, 0, 0, NULL, "TMPDIR: path too long");
        return SO_EIO;
    }
    if (!mkdtemp(buf)) {
        so_error_setf(err, buf, 0, 0, NULL, "cannot create: %s", strerror(errno));
        return SO_EIO;
    }
    return SO_OK;
}

int so_scratch_open(so_scratch *sc, const char *prefix, so_error *err)
{
    sc->dir[0] = '\0';
    sc->fd = memfd_create(prefix, MFD_CLOEXEC);
    if (sc->fd >= 0) {
        snprintf(sc->file, sizeof sc->file, "/proc/self/fd/%d", sc->fd);
        if (access(sc->file, W_OK) == 0)
            return SO_OK;
        close(sc->fd);
        sc->fd = -1;
    }
    int rc = so_scratch_folder(sc->dir, sizeof sc->dir, prefix, err);
    if (rc)
        return rc;
    snprintf(sc->file, sizeof sc->file, "%s/model", sc->dir);
    return SO_OK;
}

void so_scratch_close(so_scratch *sc)
{
    if (sc->fd >= 0) {
        close(sc->fd);
        return;
    }
    unlink(sc->file);
    rmdir(sc->dir);
}
