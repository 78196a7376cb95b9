/*
 * task_store.c — the per-task arrays of a replay (tasks, completion order)
 * in memory that follows the active jobs.
 *
 * The arrays keep one global index (a job's tasks are consecutive from its
 * first_task), which the engine and every policy use, but they take no
 * memory until written: they are anonymous mappings whose pages the kernel
 * provides, zeroed, at the first write. The engine writes a job's tasks when
 * it arrives and gives the whole pages inside its range back when it
 * finishes (madvise MADV_DONTNEED: they read as zeros again, never read by
 * the engine or the policies, which look at unfinished jobs only). So the
 * resident part is the tasks of the jobs between arrival and finish, plus
 * the pages shared with a neighbouring job. Without mmap (or when it
 * fails) the arrays are plain zeroed allocations that are never given
 * back.
 */
#include <stdlib.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cluster/sim_internal.h"

static size_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

void *so_cl_store_alloc(size_t bytes, int *mapped)
{
    *mapped = 0;
    if (bytes == 0)
        bytes = 1;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
        *mapped = 1;
        return p;
    }
    return calloc(1, bytes);
}

void so_cl_store_free(void *p, size_t bytes, int mapped)
{
    if (!p)
        return;
    if (mapped)
        munmap(p, bytes ? bytes : 1);
    else
        free(p);
}

void so_cl_store_release(void *p, size_t elem, size_t first, size_t count,
                         int mapped)
{
    if (!p || !mapped || count == 0)
        return;
    size_t ps = page_size();
    uintptr_t lo = (uintptr_t)p + first * elem;
    uintptr_t hi = lo + count * elem;
    lo = (lo + ps - 1) / ps * ps; /* whole pages inside [lo, hi) only */
    hi = hi / ps * ps;
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
}
