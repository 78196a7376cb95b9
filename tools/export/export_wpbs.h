/* export_wpbs.h — per-pool shares (tools/export/hadoop_conf.h) from WPBS: a
 * cluster workload run under `--scheduler wpbs` up to a chosen time, one
 * pool per user (docs/hadoop-export.md, "WPBS shares"). */
#ifndef SO_EXPORT_WPBS_H
#define SO_EXPORT_WPBS_H
#include "tools/export/hadoop_conf.h"

/* 1 when text is a native cluster workload (JSON, "problem": "cluster"). */
int so_export_is_workload(const char *text, size_t len);
/* Reads the workload at path, simulates it under WPBS (default options,
 * heartbeat seed 1) and fills *out as of time at (NAN: the last submission
 * plus one heartbeat interval): one pool per user (in user-name order),
 * minMaps / minReduces = its capped map / reduce share rounded down, no
 * maxima, weight = map + reduce share (a user without demand: the smallest
 * weight among users with demand), schedulingMode = its tier-2 scheme;
 * ApplicationMasters (YARN, am_mb MiB each) = the user's jobs running at
 * that time; cluster = the workload's map + reduce slots; alloc_mb 0 (the
 * caller sets it). Nobody with demand: SO_EINVAL
 * naming "at".
 * *used (may be NULL) gets the time of the allocation read. Free
 * out->pools with free(). */
int so_export_wpbs_shares(const char *path, double at, int64_t container_mb,
                          int64_t am_mb, so_hc_shares *out, double *used,
                          so_error *err);
/* The same from the workload's text (file labels errors). */
int so_export_wpbs_shares_text(const char *text, size_t len, const char *file,
                               double at, int64_t container_mb, int64_t am_mb,
                               so_hc_shares *out, double *used, so_error *err);

#endif
