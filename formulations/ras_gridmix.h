/* ras_gridmix.h — the Gridmix workload of Polo et al., "Resource-aware
 * Adaptive Scheduling for MapReduce Clusters" (Middleware 2011), section
 * 4.1, Tables 1 and 2, shared by the RAS snapshot family `ras-gridmix`
 * (formulations/ras_family.c) and the cluster workload family
 * `ras-gridmix-workload` (cluster/family_ras_gridmix.c). */
#ifndef SO_RAS_GRIDMIX_H
#define SO_RAS_GRIDMIX_H

#include <stddef.h>

#define SO_GRIDMIX_TTS 20 /* TaskTrackers */
#define SO_GRIDMIX_PARALLEL_COPIES 5 /* Hadoop's mapred.reduce.parallel.copies */

/* One row of Table 1 (times in seconds; completion and goal: Experiment 2,
 * absolute times). */
typedef struct so_gridmix_job {
    const char *label;
    int app; /* index into so_gridmix_apps: 0 Sort, 1 Combine, 2 Select */
    double input_gb, submit, isolation, completion, goal;
} so_gridmix_job;

/* Table 2: cpu, io, memory in % of a TaskTracker; shuffle: io per map
 * placed (bounded by parallelCopies). */
typedef struct so_gridmix_app {
    const char *name;
    double map[3], shuffle_io, reduce[3];
} so_gridmix_app;

extern const so_gridmix_job so_gridmix_jobs[];
extern const size_t so_gridmix_job_count;
extern const so_gridmix_app so_gridmix_apps[];

/* maps = ceil(input / split_mb). */
int so_gridmix_maps(const so_gridmix_job *g, double split_mb);
/* Average map time: in isolation the job runs SO_GRIDMIX_TTS x
 * floor(100 / its largest map demand) maps at once, in ceil(maps / that)
 * waves within map_fraction x its length in isolation. */
double so_gridmix_map_time(const so_gridmix_job *g, double split_mb,
                           double map_fraction);

#endif
