/*
 * locality.c — data locality of map tasks. Each map's input block has R
 * replicas on distinct nodes (HDFS keeps dfs.replication = 3 copies; the
 * model has no racks, so placement is uniform over the nodes unless the
 * workload names the nodes). A map attempt on a node without a replica reads
 * remotely and its work is multiplied by the workload's remote_slowdown.
 * Per job and node, the pending local maps are a linked list in map order
 * (Hadoop's per-node cache of non-running maps); launched maps are dropped
 * lazily when they reach the head of a list.
 *
 * Memory: a job's placement and lists exist from its arrival until its last
 * map is done (only then are maps launched). The placement is drawn at
 * arrival from one stream in job order, as it was drawn for every job at
 * the start before (jobs arrive in index order): the same nodes. Node
 * indices are 16 bits when the cluster has at most 65,536 nodes.
 */
#include <stdint.h>
#include <stdlib.h>
#include "cluster/sim_internal.h"

/* Node of the job's replica entry e = i * R + r. */
static inline int rep_node(const so_cl_sim *s, const so_cl_jobrt *job, size_t e)
{
    return s->narrow_replicas ? ((const uint16_t *)job->replica)[e]
                              : ((const int *)job->replica)[e];
}

int so_cl_locality_init(so_cl_sim *s, so_rng *rng)
{
    int n = s->w->n_nodes;
    s->replicas = s->w->replicas > 0 && s->w->replicas <= n ? s->w->replicas : 0;
    if (s->replicas == 0)
        return 0;
    s->placement = *rng;
    s->narrow_replicas = n <= 65536;
    s->rep_scratch = malloc((size_t)s->replicas * sizeof(int));
    return s->rep_scratch ? 0 : -1;
}

/* Draws the job's placement (explicit nodes from the workload, the rest
 * uniformly over nodes not yet holding the block). */
static int place_job(so_cl_sim *s, int j)
{
    so_cl_jobrt *job = &s->jobs[j];
    const so_cl_job_spec *js = job->spec;
    int n = s->w->n_nodes, R = s->replicas, m = job->n[SO_CL_MAP];
    job->replica = malloc((size_t)m * R * (s->narrow_replicas ? sizeof(uint16_t)
                                                             : sizeof(int)));
    if (!job->replica)
        return -1;
    int *rep = s->rep_scratch;
    for (int i = 0; i < m; i++) {
        for (int r = 0; r < R; r++)
            rep[r] = js->map_replicas ? js->map_replicas[i * R + r] : -1;
        for (int r = 0; r < R; r++)
            while (rep[r] < 0) { /* a node not yet holding this block */
                int node = (int)so_rng_int(&s->placement, 0, n - 1), taken = 0;
                for (int k = 0; k < R; k++)
                    taken |= rep[k] == node;
                if (!taken)
                    rep[r] = node;
            }
        for (int r = 0; r < R; r++) {
            size_t e = (size_t)i * R + r;
            if (s->narrow_replicas)
                ((uint16_t *)job->replica)[e] = (uint16_t)rep[r];
            else
                ((int *)job->replica)[e] = rep[r];
        }
    }
    return 0;
}

int so_cl_locality_open(so_cl_sim *s, int j)
{
    so_cl_jobrt *job = &s->jobs[j];
    int R = s->replicas, m = job->n[SO_CL_MAP];
    if (R <= 0 || m == 0)
        return 0;
    if (place_job(s, j))
        return -1;
    job->local_head = malloc((size_t)s->w->n_nodes * sizeof(int));
    job->local_next = malloc((size_t)m * R * sizeof(int));
    if (!job->local_head || !job->local_next)
        return -1;
    for (int n = 0; n < s->w->n_nodes; n++)
        job->local_head[n] = -1;
    for (int i = m - 1; i >= 0; i--)
        for (int r = 0; r < R; r++) {
            int e = i * R + r, node = rep_node(s, job, (size_t)e);
            job->local_next[e] = job->local_head[node];
            job->local_head[node] = e;
        }
    return 0;
}

void so_cl_locality_close(so_cl_sim *s, int j)
{
    so_cl_jobrt *job = &s->jobs[j];
    free(job->local_head);
    free(job->local_next);
    free(job->replica);
    job->local_head = job->local_next = NULL;
    job->replica = NULL;
}

int so_cl_local_pending(so_cl_sim *s, int j, int node)
{
    so_cl_jobrt *job = &s->jobs[j];
    if (!job->local_head)
        return -1;
    int R = s->replicas;
    int e = job->local_head[node];
    while (e >= 0) {
        int t = job->first_task[SO_CL_MAP] + e / R;
        if (s->tasks[t].state == SO_CL_PENDING)
            return t;
        e = job->local_next[e];
        job->local_head[node] = e;
    }
    return -1;
}

void so_cl_locality_requeue(so_cl_sim *s, int t)
{
    so_cl_jobrt *job = &s->jobs[s->tasks[t].job];
    if (!job->local_head || s->tasks[t].phase != SO_CL_MAP)
        return;
    int R = s->replicas, i = t - job->first_task[SO_CL_MAP];
    for (int r = 0; r < R; r++) {
        int e = i * R + r, node = rep_node(s, job, (size_t)e);
        /* the entry may still be linked (never reached the head): relinking
         * it would make a cycle, so put it first only if it is not listed */
        int listed = 0;
        for (int k = job->local_head[node]; k >= 0 && !listed; k = job->local_next[k])
            listed = k == e;
        if (!listed) {
            job->local_next[e] = job->local_head[node];
            job->local_head[node] = e;
        }
    }
}

int so_cl_is_local(const so_cl_sim *s, int t, int node)
{
    if (s->replicas <= 0)
        return 1;
    const so_cl_jobrt *job = &s->jobs[s->tasks[t].job];
    if (!job->replica)
        return 1; /* not reached: maps launch while the placement exists */
    size_t e = (size_t)(t - job->first_task[SO_CL_MAP]) * s->replicas;
    for (int r = 0; r < s->replicas; r++)
        if (rep_node(s, job, e + r) == node)
            return 1;
    return 0;
}
