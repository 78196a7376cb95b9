/* ras_patterns.h — TaskTracker classes and node patterns of a RAS instance
 * for the configuration MILP of ras-exact (internal; solvers/ras_patterns.c).
 *
 * A task type is (job, map or reducer, shuffle level m): a shuffle-phase
 * reducer of a job whose shuffle demand is not zero demands
 * shuffle_base + shuffle * m with m = min(s_alloc, parallel_copies), so it
 * gets one type per m in 0..min(parallel_copies, s_pend); every other task
 * has one type. A class is a set of TaskTrackers with the same capacity
 * vector; a pattern of a class is a count per type that fits one of its
 * TaskTrackers (eq. 6), with at most the job's pending tasks of each kind
 * and reducers of at most one shuffle level per job. */
#ifndef SO_RAS_PATTERNS_H
#define SO_RAS_PATTERNS_H
#include "formulations/ras.h"

typedef struct {
    size_t job;
    int reducer; /* 0: map, 1: reducer */
    int level;   /* shuffle level m of a levelled reducer, -1 otherwise */
    double *demand; /* R */
} so_ras_type;

typedef struct {
    size_t n_types;
    so_ras_type *types;
    size_t n_classes;
    size_t *class_of;     /* TT: class of each TaskTracker */
    size_t *class_count;  /* n_classes: TaskTrackers in it */
    size_t *class_first;  /* n_classes: its first TaskTracker */
    size_t n_patterns;
    size_t *pattern_class; /* n_patterns */
    int *counts;           /* n_patterns * n_types */
} so_ras_patterns;

/* Enumerates every pattern; SO_EUNSUPPORTED when there are more than
 * max_patterns (then *pt is freed). */
int so_ras_patterns_build(const so_ras *ras, size_t max_patterns,
                          so_ras_patterns *pt);
/* The same until a deadline on so_now()'s clock (0: none): SO_TIMELIMIT
 * (and *pt freed) once it has passed. */
int so_ras_patterns_build_until(const so_ras *ras, size_t max_patterns,
                                double deadline, so_ras_patterns *pt);
void so_ras_patterns_free(so_ras_patterns *pt);

#endif
