/* atomic_file.c — every output of slotopt goes through so_output_open /
 * so_output_close, which decide how a path is written:
 *   "-"                      standard output (flushed and checked, not closed);
 *   a regular file, or none  a temporary file beside it, renamed onto it only
 *                            when every write, the flush, fsync and close
 *                            succeeded: a failed run leaves no partial file;
 *   a symbolic link          resolved first (a dangling link's target is
 *                            created), then as above: the link stays a link;
 *   a character or block device, FIFO or socket
 *                            opened and written directly, never replaced;
 *   a folder                 an error.
 * The mode of a replaced regular file is kept. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "slotopt.h"

struct so_output {
    FILE *fp;
    char *shown;  /* the path as given, for messages */
    char *target; /* resolved path renamed onto; NULL when written directly */
    char *tmp;    /* the temporary file; NULL when written directly */
    int fd;           /* under fp (not for stdout) */
    int is_stdout;
    int failed_errno; /* the first write error, kept by cookie_write */
};

/* fp is a stdio stream over fd whose writes keep the first error's errno,
 * which stdio itself forgets: "No space left on device", not "I/O error". */
static ssize_t cookie_write(void *c, const char *buf, size_t size)
{
    so_output *o = c;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(o->fd, buf + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!o->failed_errno)
                o->failed_errno = w < 0 ? errno : EIO;
            return (ssize_t)done; /* fopencookie(3): 0, never < 0, on error */
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

static int cookie_close(void *c)
{
    so_output *o = c;
    int rc = close(o->fd);
    o->fd = -1;
    return rc;
}

static FILE *stream_over(so_output *o, int fd)
{
    cookie_io_functions_t io = {NULL, cookie_write, NULL, cookie_close};
    o->fd = fd;
    return fopencookie(o, "w", io);
}

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

/* path with its symbolic links followed (at most 40, as the kernel does);
 * a relative link is taken relative to the link's folder. The last name
 * need not exist. NULL with errno on a loop or when out of memory. */
static char *resolve_links(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur && hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0) {
            free(cur);
            return NULL;
        }
        link[n] = '\0';
        char *next;
        const char *slash = strrchr(cur, '/');
        if (link[0] == '/' || !slash) {
            next = strdup(link);
        } else {
            size_t dir = (size_t)(slash - cur) + 1;
            next = malloc(dir + (size_t)n + 1);
            if (next) {
                memcpy(next, cur, dir);
                memcpy(next + dir, link, (size_t)n + 1);
            }
        }
        free(cur);
        cur = next;
    }
    if (cur) {
        free(cur);
        errno = ELOOP;
    }
    return NULL;
}

static void output_free(so_output *o)
{
    if (!o)
        return;
    free(o->shown);
    free(o->target);
    free(o->tmp);
    free(o);
}

int so_output_open(const char *path, so_output **out, so_error *err)
{
    if (!path || !out)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "so_output_open: NULL argument");
    *out = NULL;
    so_output *o = calloc(1, sizeof *o);
    if (!o || !(o->shown = strdup(path))) {
        output_free(o);
        return SO_ENOMEM;
    }
    if (!strcmp(path, "-")) {
        o->fp = stdout;
        o->is_stdout = 1;
        *out = o;
        return SO_OK;
    }
    if (!*path) {
        output_free(o);
        return so_error_setf(err, NULL, 0, 0, NULL, "empty output path");
    }
    /* what the path names, links followed by the kernel (which also knows
     * /proc/self/fd/N pointing at a pipe or terminal) */
    struct stat st;
    int exists = stat(path, &st) == 0;
    char *real = exists && S_ISREG(st.st_mode) ? realpath(path, NULL) : NULL;
    if (!real && !(exists && !S_ISREG(st.st_mode)))
        real = resolve_links(path); /* a new file, perhaps via a dangling link */
    if (!real && !(exists && !S_ISREG(st.st_mode))) {
        so_error_setf(err, path, 0, 0, NULL, "cannot follow the link: %s",
                      strerror(errno));
        output_free(o);
        return SO_EIO;
    }
    if (exists && S_ISDIR(st.st_mode)) {
        free(real);
        output_free(o);
        so_error_setf(err, path, 0, 0, NULL, "is a folder, expected a file");
        return SO_EIO;
    }
    if (exists && !S_ISREG(st.st_mode)) { /* device, FIFO, socket: as it is */
        free(real);
        int fd = open(path, O_WRONLY | O_TRUNC);
        o->fp = fd >= 0 ? stream_over(o, fd) : NULL;
        if (fd >= 0 && !o->fp)
            close(fd);
        if (!o->fp) {
            so_error_setf(err, path, 0, 0, NULL, "cannot open: %s",
                          strerror(errno));
            output_free(o);
            return SO_EIO;
        }
        *out = o;
        return SO_OK;
    }
    o->target = real;
    size_t size = strlen(real) + 16;
    o->tmp = malloc(size);
    int fd = o->tmp ? so_temp_open(real, o->tmp, size) : -1;
    if (fd >= 0 && exists)
        fchmod(fd, st.st_mode & 07777);
    o->fp = fd >= 0 ? stream_over(o, fd) : NULL;
    if (!o->fp) {
        int e = o->tmp ? errno : ENOMEM;
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        so_error_setf(err, path, 0, 0, NULL, "cannot create: %s", strerror(e));
        output_free(o);
        return e == ENOMEM ? SO_ENOMEM : SO_EIO;
    }
    *out = o;
    return SO_OK;
}

FILE *so_output_file(const so_output *o)
{
    return o ? o->fp : NULL;
}

const char *so_output_temp_path(const so_output *o)
{
    return o ? o->tmp : NULL;
}

int so_output_close(so_output *o, int keep, so_error *err)
{
    if (!o)
        return SO_OK;
    int ok = !ferror(o->fp) && !o->failed_errno;
    int e = ok ? 0 : (o->failed_errno ? o->failed_errno : EIO);
    errno = 0;
    if (fflush(o->fp) != 0 && ok) {
        ok = 0;
        e = o->failed_errno ? o->failed_errno : errno ? errno : EIO;
    }
    if (ok && o->tmp && fsync(o->fd) != 0) {
        ok = 0;
        e = errno;
    }
    if (!o->is_stdout && fclose(o->fp) != 0 && ok) {
        ok = 0;
        e = errno ? errno : EIO;
    }
    if (o->tmp) {
        if (keep && ok && rename(o->tmp, o->target) != 0) {
            ok = 0;
            e = errno;
        }
        if (!keep || !ok)
            unlink(o->tmp);
    }
    int rc = SO_OK;
    if (keep && !ok) {
        so_error_setf(err, o->is_stdout ? "stdout" : o->shown, 0, 0, NULL,
                      "cannot write: %s", strerror(e));
        rc = SO_EIO;
    }
    output_free(o);
    return rc;
}

int so_write_file_atomic(const char *path, const char *text, size_t len,
                         so_error *err)
{
    if (!path || (!text && len))
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "so_write_file_atomic: NULL argument");
    so_output *o = NULL;
    int rc = so_output_open(path, &o, err);
    if (rc)
        return rc;
    if (len && fwrite(text, 1, len, o->fp) != len)
        o->failed_errno = errno ? errno : EIO;
    return so_output_close(o, 1, err);
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

int so_copy_to_output(const char *from, const char *path, so_error *err)
{
    FILE *in = fopen(from, "rb");
    if (!in) {
        so_error_setf(err, from, 0, 0, NULL, "cannot open: %s", strerror(errno));
        return SO_EIO;
    }
    so_output *o = NULL;
    int rc = so_output_open(path, &o, err);
    if (rc) {
        fclose(in);
        return rc;
    }
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, o->fp) != n) {
            o->failed_errno = errno ? errno : EIO;
            break;
        }
    int bad = ferror(in);
    fclose(in);
    rc = so_output_close(o, !bad, err);
    if (bad && !rc) {
        so_error_setf(err, from, 0, 0, NULL, "cannot read back");
        rc = SO_EIO;
    }
    return rc;
}
