/*
 * physics_rates.c — the curves of the "physical" contention model and the
 * rate factors they give a node's attempts (docs/cluster.md, "Resource
 * contention", with the sources of every curve and default).
 *
 * On a node, every shared (non-hard) resource r of capacity C and current
 * demand D (the sum over its running attempts, so_cl_current_demand) of k
 * attempts that demand it delivers, by its kind:
 *   cpu    C x cpu(D / C) (time-slicing: the tasks beyond the cores wait
 *          their turn; each switch costs a context switch and a cache
 *          refill, a small loss);
 *   disk   C x disk(k) (k sequential streams: the disk serves them in turn
 *          and seeks between them, a loss that grows with k);
 *   other  C (processor sharing, as "share").
 * An attempt demanding d_r > 0 of such resources runs at
 *   min(profile_headroom, min_r delivered_r / D_r, one core / d_cpu)
 * times its profile speed (the last term for a cpu: one task thread uses
 * at most one of cpu_cores cores): below 1 on an over-committed node, up to
 * the headroom on an under-committed one (the profile was measured under
 * competition). An attempt demanding none of them runs at 1. A resource of
 * kind memory whose demand exceeds its capacity swaps: every attempt using
 * it is slowed by swap(D, C) on top.
 */
#include <math.h>
#include "cluster/physics.h"

/* CFQ never slices a stream's turn below 2 x slice_idle (8 ms). */
#define DISK_MIN_SLICE_MS 16.0

double so_cl_physics_disk(const so_cl_physics *ph, int streams)
{
    if (streams <= 1)
        return 1;
    double q = ph->disk_slice_ms;
    if (ph->disk_target_ms > 0)
        q = fmax(fmin(q, ph->disk_target_ms / streams),
                 fmin(q, DISK_MIN_SLICE_MS));
    return q / (q + ph->disk_seek_ms);
}

double so_cl_physics_cpu(const so_cl_physics *ph, double x)
{
    if (!(x > 1))
        return 1;
    double slice = fmax(ph->cpu_latency_ms / x, ph->cpu_granularity_ms);
    return slice / (slice + ph->cpu_switch_us / 1000.0);
}

double so_cl_physics_swap(const so_cl_physics *ph, double demand,
                          double capacity)
{
    if (!(demand > capacity))
        return 1;
    return 1 / (1 + ph->swap_penalty * (demand - capacity) / demand);
}

void so_cl_physics_refresh_node(so_cl_sim *s, int node)
{
    const so_cl_workload *w = s->w;
    const so_cl_physics *ph = &s->phys;
    const so_cl_nodert *nd = &s->nodes[node];
    double g[SO_CL_MAX_RESOURCES], swap[SO_CL_MAX_RESOURCES];
    for (int r = 0; r < w->n_resources; r++) {
        double total = 0;
        int streams = 0;
        for (int k = 0; k < nd->n_running; k++) {
            double d = so_cl_current_demand(s, &s->attempts[nd->running[k]], r);
            total += d;
            streams += d > 0;
        }
        double cap = w->nodes[node].capacity[r];
        double delivered = cap;
        if (ph->kind[r] == SO_CL_KIND_CPU)
            delivered *= so_cl_physics_cpu(ph, total / cap);
        else if (ph->kind[r] == SO_CL_KIND_DISK)
            delivered *= so_cl_physics_disk(ph, streams);
        g[r] = total > 0 ? delivered / total : INFINITY;
        swap[r] = ph->kind[r] == SO_CL_KIND_MEMORY
                      ? so_cl_physics_swap(ph, total, cap) : 1;
    }
    for (int k = 0; k < nd->n_running; k++) {
        const so_cl_attempt *a = &s->attempts[nd->running[k]];
        double f = ph->profile_headroom, slow = 1;
        int paced = 0; /* demands a shared cpu, disk or other resource */
        for (int r = 0; r < w->n_resources; r++) {
            double d = so_cl_current_demand(s, a, r);
            if (!(d > 0) || s->hard[r])
                continue;
            if (ph->kind[r] == SO_CL_KIND_MEMORY) {
                slow *= swap[r];
                continue;
            }
            paced = 1;
            f = fmin(f, g[r]);
            if (ph->kind[r] == SO_CL_KIND_CPU)
                f = fmin(f, w->nodes[node].capacity[r] / ph->cpu_cores / d);
        }
        so_cl_rate_set_share(s, nd->running[k], (paced ? f : 1) * slow);
    }
}
