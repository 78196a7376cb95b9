/* hadoop_conf.h — Hadoop scheduler configuration files from a generic list
 * of per-pool shares (docs/hadoop-export.md).
 *
 * Any allocator that can say, per pool (job, user, class), its guaranteed
 * and largest map and reduce slot counts and a weight fills an so_hc_shares
 * and gets the three files an operator deploys:
 *   SO_HC_FAIR      MRv1 fair-scheduler.xml (allocations/pool: minMaps,
 *                   minReduces, maxMaps, maxReduces, weight, schedulingMode)
 *   SO_HC_YARN_FAIR YARN fair-scheduler allocation file (allocations/queue:
 *                   minResources, maxResources, weight, schedulingPolicy)
 *   SO_HC_CAPACITY  capacity-scheduler.xml (configuration/property:
 *                   yarn.scheduler.capacity.root.queues and per queue
 *                   capacity, maximum-capacity in percent)
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
    char name[64];                /* [A-Za-z0-9_.-]+, unique */
    int64_t min_maps, min_reduces; /* guaranteed slots, or SO_HC_UNSET */
    int64_t max_maps, max_reduces; /* largest slots, or SO_HC_UNSET */
    double weight;                /* > 0 */
    int fifo;                     /* schedulingMode fifo (else fair) */
} so_hc_pool;

typedef struct so_hc_shares {
    size_t n;
    so_hc_pool *pools;
    int64_t cluster_slots; /* map + reduce slots of the cluster (> 0): the
                              capacity scheduler's 100 % */
    int64_t container_mb;  /* YARN: memory of the container standing for
                              one slot (1 vcore each) */
} so_hc_shares;

/* "fair-scheduler", "yarn-fair", "capacity-scheduler" -> SO_HC_*; 0 else. */
int so_hc_format_parse(const char *name);
/* A WPBS-style share list: n pools named names[i] with weights w[i] > 0,
 * no slot counts. pools must hold n entries. */
int so_hc_shares_from_weights(size_t n, const char *const *names,
                              const double *w, so_hc_pool *pools, so_error *err);
/* Checks the shares (names, weights, min <= max, counts >= 0 or unset,
 * cluster_slots > 0) and writes the file's text (malloc'd, NUL-ended) to
 * *text. SO_EINVAL with err naming the pool and key, or SO_ENOMEM. */
int so_hc_write(const so_hc_shares *s, int format, char **text, so_error *err);

#endif
