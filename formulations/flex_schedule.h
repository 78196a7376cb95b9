/* flex_schedule.h — malleable schedules of a FLEX instance and their
 * evaluation (internal).
 *
 * A schedule is the output form of Wolf et al. (Middleware 2010), Section
 * 2.2: consecutive intervals [T_{i-1}, T_i] from T_0 = 0, each with an
 * integer slot count s_{i,j} per job. */
#ifndef SO_FLEX_SCHEDULE_H
#define SO_FLEX_SCHEDULE_H
#include "formulations/flex.h"
#include "formulations/common/jsonin.h"

/* Latest interval start or end a schedule may give: with weights and
 * deadlines within SO_FLEX_MAX_VALUE no penalty of such a time overflows. */
#define SO_FLEX_MAX_TIME 1e150

typedef struct so_flex_schedule {
    size_t n_jobs;
    size_t n_intervals, cap;
    double *start, *end; /* seconds */
    int64_t *slots;      /* n_intervals x n_jobs, row-major */
} so_flex_schedule;

so_flex_schedule *so_flex_schedule_new(size_t n_jobs);
void so_flex_schedule_free(so_flex_schedule *s);
/* Appends the interval [start, end] with slots[n_jobs] (copied). */
int so_flex_schedule_add(so_flex_schedule *s, double start, double end,
                         const int64_t *slots);
/* [{"start": t0, "end": t1, "slots": [...]}, ...] (new reference). */
json_t *so_flex_schedule_to_json(const so_flex_schedule *s);
/* Reads the member "intervals" of the object obj (at key path `path`,
 * "" for the root), strictly: every interval an object with exactly
 * "start", "end" (numbers in [0, SO_FLEX_MAX_TIME]) and "slots" (n_jobs
 * integers >= 0); errors
 * carry line, column and key path (formulations/common/jsonin.h). */
int so_flex_schedule_read(so_jin *in, json_t *obj, const char *path,
                          size_t n_jobs, so_flex_schedule **out);

/* Checks that the schedule is feasible for f — intervals contiguous from 0,
 * at most S slots in use, m_j <= s <= M_j while job j is active (0 <= s
 * when ignore_minima, as FIFO does), no slots once it is done (except in a
 * zero-length interval at its completion: ties), all work done
 * — and computes the completion times (completion[n], may be NULL) and the
 * objective. Returns SO_OK, or SO_INFEASIBLE with the reason in why. */
int so_flex_evaluate(const so_flex *f, const so_flex_schedule *s,
                     int ignore_minima, double *completion, double *objective,
                     char *why, size_t size);

#endif
