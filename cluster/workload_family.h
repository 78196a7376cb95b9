/* workload_family.h — the generic layer under the cluster workload families
 * (`slotopt gen wpbs-paper | stealing-paper | ras-gridmix-workload`):
 * task-time and job-size distributions, arrival processes, jobs drawn from
 * per-user job classes, the cluster shape, and the native JSON workload they
 * make (docs/cluster.md, "Workload families"). Every draw goes through the
 * so_rng the family is given, in a fixed order: same seed, same bytes. */
#ifndef SO_WORKLOAD_FAMILY_H
#define SO_WORKLOAD_FAMILY_H

#include <jansson.h>
#include "slotopt.h"

/* ---- distributions --------------------------------------------------------- */
typedef enum {
    SO_WF_FIXED,       /* a */
    SO_WF_UNIFORM,     /* uniform on [a, b] */
    SO_WF_EXPONENTIAL, /* mean a */
    SO_WF_NORMAL,      /* mean a, standard deviation b */
    SO_WF_LOGNORMAL,   /* log-mean a (mu), log-sd b (sigma) */
    SO_WF_BIMODAL      /* with probability p normal(a, b), else normal(c, d) */
} so_wf_kind;

typedef struct so_wf_dist {
    so_wf_kind kind;
    double a, b, c, d, p;
} so_wf_dist;

/* A draw, at least `floor` (normal tails are cut there: the draw is raised
 * to it, never redrawn, so each draw uses a fixed number of variates). */
double so_wf_draw(const so_wf_dist *d, double floor, so_rng *rng);
/* The distribution's mean (before the floor). */
double so_wf_mean(const so_wf_dist *d);
/* Normal with sd = cv x mean; fixed at the mean when cv is 0. */
so_wf_dist so_wf_normal_cv(double mean, double cv);

/* ---- arrival processes ------------------------------------------------------ */
typedef enum {
    SO_WF_ARRIVE_UNIFORM, /* gaps uniform on [0, 2 x mean_gap] */
    SO_WF_ARRIVE_POISSON, /* gaps exponential with mean mean_gap */
    SO_WF_ARRIVE_ONOFF    /* bursty: an interrupted Poisson process */
} so_wf_arrival_kind;

/* ONOFF: the source alternates exponential ON and OFF periods; during ON it
 * emits at burst_ratio / mean_gap per second, during OFF nothing. The ON
 * periods hold burst_jobs jobs on average, so ON lasts burst_jobs x
 * mean_gap / burst_ratio and OFF (burst_ratio - 1) times that on average;
 * the long-run mean gap is mean_gap. It starts in an ON period; by the
 * memoryless ON and OFF periods its gaps are independent (a renewal
 * process), burstier (CV > 1) than Poisson's. */
typedef struct so_wf_arrival {
    so_wf_arrival_kind kind;
    double mean_gap;    /* seconds, > 0 */
    double burst_ratio; /* ONOFF: rate while ON / mean rate, > 1 */
    double burst_jobs;  /* ONOFF: mean jobs per ON period, > 0 */
} so_wf_arrival;

/* n submit times: start + the first gap, then one gap after another. */
void so_wf_arrivals(const so_wf_arrival *a, double start, int n, so_rng *rng,
                    double *times);

/* ---- jobs ------------------------------------------------------------------- */
#define SO_WF_RES 3 /* the families name at most cpu, io, memory */

/* One job to write. Task times are drawn per task from map_time and
 * reduce_time (seconds on a speed-1 node); a reduce's draw is split into
 * copy / sort / reduce by copy_share and sort_share. */
typedef struct so_wf_job {
    char name[64];
    const char *user;
    double submit;
    int maps, reduces;
    so_wf_dist map_time, reduce_time;
    double copy_share, sort_share;
    double map_parallel, reduce_parallel; /* written when > 0 */
    double goal;                          /* written when > 0 */
    double slowstart; /* written when > 0 (else the reader's 0.05) */
    int n_resources;                      /* 0: no demands written */
    double map_demand[SO_WF_RES], reduce_demand[SO_WF_RES],
        shuffle_demand[SO_WF_RES];
} so_wf_job;

/* The job's JSON object (task times drawn now); NULL when out of memory. */
json_t *so_wf_job_json(const so_wf_job *job, so_rng *rng);

/* A per-user job class: `jobs` jobs arriving by `arrival` from time 0, each
 * of input size size_mb split into ceil(size / block_mb) maps (at least 1),
 * or of `maps` maps when block_mb is 0; the rest as in `job` (its name is
 * the prefix of the jobs' names "PREFIX-k"). */
typedef struct so_wf_class {
    so_wf_job job;
    int jobs;
    so_wf_arrival arrival;
    so_wf_dist size_mb;
    double block_mb;
} so_wf_class;

/* Appends the class's jobs to `jobs` (a JSON array). */
int so_wf_class_jobs(const so_wf_class *c, so_rng *rng, json_t *jobs);

/* ---- cluster and workload --------------------------------------------------- */
/* `nodes` nodes of map_slots + reduce_slots; the first `slow` of them run at
 * slow_speed, the rest at 1; with n_resources > 0 every node has `capacity`
 * of each named resource, and with `hard` set the cluster uses the "share"
 * contention model with that one resource checked at launch. */
typedef struct so_wf_cluster {
    int nodes, map_slots, reduce_slots, slow;
    double slow_speed;
    int n_resources;
    const char *const *resources;
    double capacity;
    const char *hard;
} so_wf_cluster;

json_t *so_wf_cluster_json(const so_wf_cluster *c);
/* {"problem": "cluster", "version": 1, "cluster", "jobs"} with the jobs
 * sorted by submit time (stable); takes both references. */
json_t *so_wf_workload(json_t *cluster, json_t *jobs);

/* ---- parameters --------------------------------------------------------------- */
/* A --set number in [lo, hi] (its documented default when absent). */
int so_wf_param(const so_params *set, const so_option_doc *docs,
                const char *key, double lo, double hi, double *out,
                so_error *err);
/* A --set integer in [lo, hi]. */
int so_wf_param_int(const so_params *set, const so_option_doc *docs,
                    const char *key, long long lo, long long hi, int *out,
                    so_error *err);
/* A --set word among names[0..n-1] (NULL-terminated); its index. */
int so_wf_param_choice(const so_params *set, const so_option_doc *docs,
                       const char *key, const char *const *names, int *out,
                       so_error *err);

#endif
