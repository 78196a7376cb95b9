/*
 * attempt_pool.c — the pool of attempt records (sim->attempts).
 *
 * A run launches an attempt per task at least (15.7 M on the documented
 * day), but only the running ones, and a few that ended recently, are ever
 * looked at. An attempt id is a slot of sim->attempts, so `attempts[id]`
 * reads it in O(1) everywhere; a slot is handed out again once nothing
 * refers to its attempt. The engine holds two pins on a launched attempt:
 *   - its run: dropped after it ended (done or killed) and its end hooks
 *     ran (policies get the id in attempt_end and may read the record then);
 *   - its job's launch window (launched[p] from oldest[p], whose entries
 *     after the oldest may have ended): dropped when the window moves past
 *     it (engine.c, drop_ended_oldest).
 * The other holders of attempt ids hold running attempts only (task
 * attempt[], job and node running lists, policies' victims and node
 * splits) or check a pending event against the attempt's `live` sequence
 * number, which a reused slot's new attempt never matches (sequence
 * numbers are unique). A done task keeps the node it ran on, not its
 * winning attempt. Free slots are reused last freed first; the pool grows by
 * doubling only when every slot is held, so its size follows the running
 * attempts, not the run's length.
 */
#include <stdlib.h>
#include <string.h>
#include "cluster/sim_internal.h"

/* Built with -DSO_CL_POOL_POISON (make OPT='-O2 -DSO_CL_POOL_POISON'
 * BUILD=build-poison BINDIR=build-poison/bin), a freed record is filled
 * with garbage (indices far out of range, a state that is not running), so
 * a reader of a freed slot crashes or changes the event log: how the list
 * of holders above was checked (every scheduler, speculation rule and node
 * policy, logs compared with the unpooled engine). */

int so_cl_attempt_alloc(so_cl_sim *s)
{
    if (s->n_free > 0)
        return s->free_ids[--s->n_free];
    if (s->n_attempts == s->cap_attempts) {
        size_t cap = s->cap_attempts ? 2 * s->cap_attempts : 64;
        so_cl_attempt *a = realloc(s->attempts, cap * sizeof *a);
        if (!a)
            return -1;
        s->attempts = a;
        int *f = realloc(s->free_ids, cap * sizeof *f);
        if (!f)
            return -1;
        s->free_ids = f;
        s->cap_attempts = cap;
    }
    return (int)s->n_attempts++;
}

void so_cl_attempt_release(so_cl_sim *s, int id)
{
    if (--s->attempts[id].pins > 0)
        return;
#ifdef SO_CL_POOL_POISON
    memset(&s->attempts[id], 0x5a, sizeof s->attempts[id]);
#endif
    s->free_ids[s->n_free++] = id;
}
