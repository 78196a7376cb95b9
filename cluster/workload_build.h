/* workload_build.h — helpers shared by the workload readers (internal). */
#ifndef SO_CL_WORKLOAD_BUILD_H
#define SO_CL_WORKLOAD_BUILD_H

#include "cluster/cluster.h"
#include "cluster/run_limits.h"

/* Upper bounds that keep a malformed file from exhausting memory. */
#define SO_CL_MAX_TASKS_PER_JOB 10000000
#define SO_CL_MAX_TASKS 200000000
#define SO_CL_MAX_NODES 1000000
#define SO_CL_MAX_SLOTS 1000
#define SO_CL_MAX_REPLICAS 16
/* Lower bounds that keep a run finite (issue 20): a heartbeat interval or
 * epoch below 10 ms would make millions of no-op events per simulated
 * minute, and a SWIM rate below 0.01 MiB/s tasks of years. */
#define SO_CL_MIN_HEARTBEAT 0.01
#define SO_CL_MIN_SWIM_RATE 0.01

/* so_cl_workload_parse_json under the given limits (memory, events);
 * so_cl_workload_parse_json itself applies the defaults. */
int so_cl_workload_parse_json_limited(const char *text, size_t len,
                                      const char *file, uint64_t seed,
                                      const so_cl_limits *lim,
                                      so_cl_workload **out, so_error *err);
/* Refuses nodes x (map_slots + reduce_slots) that the memory limit does
 * not admit, or above INT_MAX slots (the engine's count) (SO_EINVAL naming
 * `key`, the option that asked for them). */
int so_cl_workload_check_nodes(const so_cl_limits *lim, long long nodes,
                               long long slots_per_node, const char *key,
                               so_error *err);
/* A trace reader's limits (so_cl_limits_read of its --opt keys) and its
 * nodes checked against them, naming `nodes` when that option is given,
 * else `map_slots`. */
int so_cl_workload_trace_limits(const so_params *prm, long long nodes,
                                long long slots_per_node, so_cl_limits *lim,
                                so_error *err);
/* An empty workload (no nodes, jobs or pools); NULL when out of memory. */
so_cl_workload *so_cl_workload_new(const char *name);
/* Index of the pool called name, adding it with Hadoop's defaults (weight 1,
 * no minimum share, fair inside) if absent; -1 when out of memory. */
int so_cl_workload_pool(so_cl_workload *w, const char *name);
/* Sorts the jobs by submit time, keeping file order among equal times. */
int so_cl_workload_sort(so_cl_workload *w);
/* Starts a trace reader: clears *out and err; returns an empty workload
 * named after the base name of `file` (the text after its last '/'), NULL
 * when out of memory. */
so_cl_workload *so_cl_workload_begin(const char *file, so_cl_workload **out,
                                     so_error *err);
/* Gives w `nodes` nodes of map_slots and reduce_slots slots, speed 1 and
 * no resource capacity; SO_ENOMEM when out of memory. */
int so_cl_workload_nodes(so_cl_workload *w, long long nodes, int map_slots,
                         int reduce_slots);
/* Ends a trace reader: when rc is SO_OK sorts the jobs and hands w to *out;
 * otherwise, or when sorting fails, frees w. Returns the final code. */
int so_cl_workload_finish(so_cl_workload *w, int rc, so_cl_workload **out);

#endif
