/* ras_gridmix.c — Tables 1 and 2 of Polo et al. (Middleware 2011), sec. 4.1
 * (ras_gridmix.h). */
#include <math.h>
#include "formulations/ras_gridmix.h"

/* Table 1 (completion times and goals of Experiment 2). */
const so_gridmix_job so_gridmix_jobs[] = {
    {"J1", 0, 90, 0, 2500, 3018, 3000},   {"J2", 1, 5, 100, 500, 896, 850},
    {"J3", 2, 10, 200, 400, 802, 1250},   {"J4", 2, 25, 350, 280, 550, 1100},
    {"J5", 2, 5, 500, 50, 560, 950},      {"J6", 1, 13, 600, 750, 2589, 2600},
    {"J7", 1, 50, 1100, 2500, 4614, 6000}, {"J8", 0, 19, 2500, 350, 3365, 3400},
    {"J9", 0, 6, 3750, 250, 4141, 4250},
};
const size_t so_gridmix_job_count = sizeof so_gridmix_jobs / sizeof so_gridmix_jobs[0];

/* Table 2. */
const so_gridmix_app so_gridmix_apps[] = {
    {"Sort", {30, 45, 25}, 0.15, {20, 50, 60}},
    {"Combine", {25, 10, 10}, 0.015, {10, 10, 25}},
    {"Select", {15, 20, 10}, 0.015, {10, 10, 25}},
};

int so_gridmix_maps(const so_gridmix_job *g, double split_mb)
{
    return (int)ceil(g->input_gb * 1024.0 / split_mb);
}

double so_gridmix_map_time(const so_gridmix_job *g, double split_mb,
                           double map_fraction)
{
    const double *map = so_gridmix_apps[g->app].map;
    double peak = fmax(map[0], fmax(map[1], map[2]));
    int concurrent = SO_GRIDMIX_TTS * (int)floor(100.0 / peak);
    int maps = so_gridmix_maps(g, split_mb);
    int waves = (maps + concurrent - 1) / concurrent;
    return map_fraction * g->isolation / waves;
}
