/* wpbs_snapshot.h — the per-user WPBS shares of a workload at a chosen
 * simulated time, for exporters (tools/export/export_wpbs.c, docs/hadoop-export.md).
 * Runs the workload under `--scheduler wpbs` and keeps what
 * so_cl_wpbs_user_shares (wpbs.h) reads at the last simulation event at or
 * before the time. */
#ifndef SO_CL_WPBS_SNAPSHOT_H
#define SO_CL_WPBS_SNAPSHOT_H
#include "cluster/cluster.h"

typedef struct so_cl_wpbs_user_share {
    char name[64];                 /* the workload's user name */
    double su[SO_CL_PHASES];       /* eq. 8's share (0: no demand) */
    double share[SO_CL_PHASES];    /* after demand caps and redistribution */
    int fifo;                      /* tier-2 scheme: 1 FIFO, 0 fair */
    int jobs;                      /* jobs arrived and unfinished */
} so_cl_wpbs_user_share;

typedef struct so_cl_wpbs_snapshot {
    double at;                     /* the time asked for */
    double time;                   /* of the event read (<= at); -1: none */
    int total_slots[SO_CL_PHASES]; /* the cluster's map and reduce slots */
    int n_users;
    so_cl_wpbs_user_share *users;  /* by user number (names' sort order) */
} so_cl_wpbs_snapshot;

/* The default time: the last submission plus one heartbeat interval (the
 * first allocation that has seen every job). */
double so_cl_wpbs_default_at(const so_cl_workload *w);
/* Simulates w under wpbs (prm: its options, may be NULL; seed: heartbeat
 * phases) and fills *out as of time at (>= 0). Free with
 * so_cl_wpbs_snapshot_free. */
int so_cl_wpbs_snapshot_at(const so_cl_workload *w, const so_params *prm,
                           uint64_t seed, double at, so_cl_wpbs_snapshot *out,
                           so_error *err);
void so_cl_wpbs_snapshot_free(so_cl_wpbs_snapshot *s);

#endif
