/* scratch.h — scratch space for libraries that write only to named files
 * (GLPK's model writers, gnuplot): a private folder in $TMPDIR, or an
 * anonymous memory file named through /proc/self/fd that leaves nothing on
 * disk, even when the process is killed. */
#ifndef SO_SCRATCH_H
#define SO_SCRATCH_H
#include <stddef.h>
#include "slotopt.h"

/* Makes a fresh folder $TMPDIR/PREFIX-XXXXXX (TMPDIR unset or empty: /tmp),
 * mode 0700, its path in buf; SO_EIO naming it when it cannot. */
int so_scratch_folder(char *buf, size_t size, const char *prefix, so_error *err);

/* One scratch file: `file` is its name for the library to write and read. */
typedef struct so_scratch {
    int fd;         /* the memory file, or -1 when a folder holds the file */
    char dir[4096]; /* that folder ("" with a memory file) */
    char file[4200];
} so_scratch;

/* A memory file (memfd_create), or without /proc a file in a
 * so_scratch_folder; SO_EIO naming the folder when neither can be made. */
int so_scratch_open(so_scratch *sc, const char *prefix, so_error *err);
/* Frees the memory file, or removes the file and its folder. */
void so_scratch_close(so_scratch *sc);

#endif
