/* hadoop_conf.h — Hadoop scheduler configuration files from a generic list
 * of per-pool shares (docs/hadoop-export.md).
 *
 * Any allocator that can say, per pool (job, user, class), its guaranteed
 * and largest map and reduce slot counts and a weight fills an so_hc_shares
 * and gets the three files an operator deploys:
 *   SO_HC_FAIR      MRv1 fair-scheduler.xml (allocations/pool: minMaps,
 *                   minReduces, maxMaps, maxReduces, weight, schedulingMode)
 *   SO_HC_YARN_FAIR YARN fair-scheduler allocation file (allocations/queue:
 *                   minResources, maxResources, weight, schedulingPolicy,
 *                   maxAMShare when the AMs need more than the default)
 *   SO_HC_CAPACITY  capacity-scheduler.xml (configuration/property:
 *                   yarn.scheduler.capacity.root.queues and per queue
 *                   capacity, maximum-capacity in percent,
 *                   maximum-am-resource-percent when needed; a queue
 *                   "default")
 * A Pareto plan and a FLEX allocation fill it (tools/export/export_plan.c), WPBS
 * shares too (tools/export/export_wpbs.c: weights, then its minima); a
 * weight-only allocator leaves the slot counts at SO_HC_UNSET (see
 * so_hc_shares_from_weights). */
#ifndef SO_HADOOP_CONF_H
#define SO_HADOOP_CONF_H
#include <stddef.h>
#include <stdint.h>
#include "slotopt.h"

enum { SO_HC_FAIR = 1, SO_HC_YARN_FAIR = 2, SO_HC_CAPACITY = 3 };
#define SO_HC_UNSET (-1) /* a slot count the allocator does not fix */

typedef struct so_hc_pool {
    char name[64];                /* [A-Za-z0-9_.-]+, unique; the YARN
                                     formats write a period as "_dot_" and
                                     refuse "root" and two pools meeting on
                                     one name */
    int64_t min_maps, min_reduces; /* guaranteed slots, or SO_HC_UNSET */
    int64_t max_maps, max_reduces; /* largest slots, or SO_HC_UNSET */
    double weight;                /* > 0 */
    int fifo;                     /* schedulingMode fifo (else fair) */
    char user[64];                /* the user whose jobs the pool holds
                                     (routing rules), "" for a pool per job */
    int64_t ams;                  /* MapReduce jobs the pool runs at once,
                                     each holding one ApplicationMaster
                                     container in YARN (>= 0) */
} so_hc_pool;

typedef struct so_hc_shares {
    size_t n;
    so_hc_pool *pools;
    int64_t cluster_slots; /* map + reduce slots of the cluster (> 0): the
                              capacity scheduler's 100 % */
    int64_t container_mb;  /* YARN: memory of the container standing for
                              one slot (1 vcore each) */
    int64_t am_mb;         /* YARN: memory of a MapReduce ApplicationMaster
                              container (1 vcore), added to the pools'
                              minima and maxima once per job they run
                              (ams); 0: not counted */
    int64_t alloc_mb;      /* YARN: every container's memory rounded up to a
                              multiple of this (the capacity scheduler's
                              yarn.scheduler.minimum-allocation-mb, the fair
                              scheduler's increment-allocation-mb; Hadoop's
                              default 1024); 0: not rounded */
} so_hc_shares;

/* "fair-scheduler", "yarn-fair", "capacity-scheduler" -> SO_HC_*; 0 else. */
int so_hc_format_parse(const char *name);
/* A WPBS-style share list: n pools named names[i] with weights w[i] > 0,
 * no slot counts, no ApplicationMasters. pools must hold n entries. */
int so_hc_shares_from_weights(size_t n, const char *const *names,
                              const double *w, so_hc_pool *pools, so_error *err);
/* Checks the shares (names, weights, min <= max, counts >= 0 or unset,
 * ams >= 0, am_mb >= 0, alloc_mb >= 0, cluster_slots > 0) and writes the file's text (malloc'd, NUL-ended) to
 * *text. SO_EINVAL with err naming the pool and key, or SO_ENOMEM. */
int so_hc_write(const so_hc_shares *s, int format, char **text, so_error *err);

#endif
