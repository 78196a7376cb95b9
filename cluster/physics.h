/*
 * physics.h — the "physical" resource contention model (internal): the
 * throughput of an over-committed cpu, disk and memory, tasks faster than
 * their profile on an under-committed node, and the settings that choose
 * and tune the model per workload (cluster.contention) or per run (--opt).
 * docs/cluster.md, "Resource contention", gives every curve with its
 * source.
 */
#ifndef SO_CL_PHYSICS_H
#define SO_CL_PHYSICS_H

#include <jansson.h>
#include "cluster/sim_internal.h"
#include "formulations/common/jsonin.h"

/* The parameters' defaults; every kind SO_CL_KIND_AUTO. */
void so_cl_physics_defaults(so_cl_physics *ph);

/* Resource r's kind: as set in w->physics.kind, else from its name (cpu*:
 * cpu; io, disk*: disk; mem*: memory; else other). */
int so_cl_physics_kind(const so_cl_workload *w, int r);

/* Reads "kinds" and the parameters of a cluster.contention object (path
 * "cluster.contention") into w->physics. */
int so_cl_physics_read_json(so_jin *in, json_t *contention, so_cl_workload *w);

/* The run's model: the workload's, or --opt contention=none|share|physical
 * and the parameters' --opt keys; fills s->contention, s->hard and
 * s->phys (kinds resolved from the resources' names). Errors name the
 * key. */
int so_cl_physics_setup(so_cl_sim *s, const so_params *prm, so_error *err);

/* The curves (hand-computed in suite cluster-physics):
 * disk: the fraction of its bandwidth a disk delivers to k concurrent
 *   streams: 1 for k <= 1, else q / (q + seek), q = the stream's slice
 *   max(min(slice, target / k), 16 ms) (target 0: slice);
 * cpu: the fraction of the cpu left to tasks when x = demand / capacity
 *   tasks' worth wait per core: 1 for x <= 1, else s / (s + switch), s =
 *   max(latency / x, granularity);
 * swap: the speed of a task on a node whose memory demand D exceeds its
 *   capacity C: 1 for D <= C, else 1 / (1 + penalty x (D - C) / D). */
double so_cl_physics_disk(const so_cl_physics *ph, int streams);
double so_cl_physics_cpu(const so_cl_physics *ph, double x);
double so_cl_physics_swap(const so_cl_physics *ph, double demand,
                          double capacity);

/* Recomputes the rate factors of a node's attempts under "physical". */
void so_cl_physics_refresh_node(so_cl_sim *s, int node);

#endif
