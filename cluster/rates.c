/*
 * rates.c — variable-rate attempts and the resource contention model.
 *
 * An attempt works through segments (a map: its work x scale; a reduce: its
 * copy work, then its sort + reduce work) at a rate of
 *     speed of its node x contention share x policy factor,
 * all three 1 on a reference node without contention or policy. Work done
 * is integrated piecewise: a rate change first brings the work done up to
 * now, then pushes a new end (or copy-end) event from the work left; the
 * previous event stays in the heap, recognised as stale by its sequence
 * number (attempt.live) and neither handled nor counted.
 *
 * Contention ("share", docs/cluster.md "Resource contention"): on a node,
 * each shared (non-hard) resource r with capacity C_r and total current
 * demand D_r of its running attempts gives the share f_r = min(1, C_r / D_r)
 * (processor sharing, in proportion to demand); an attempt's share is the
 * smallest f_r over the shared resources it demands (> 0), 1 if none.
 * Current demand: a map's map demand; a reduce's shuffle demand while it
 * copies (also while its copy work is done and it waits for the last map),
 * then its reduce demand. Hard resources are checked at launch and never
 * over-committed (so_cl_held_demand), and do not slow attempts down.
 *
 * Contention "physical" (physics_rates.c) sets the same share from the
 * curves of each resource kind instead.
 */
#include <math.h>
#include "cluster/physics.h"

uint64_t so_cl_push(so_cl_sim *s, double t, int kind, int id)
{
    uint64_t seq = s->heap.next_seq;
    /* an attempt that ends on a beat frees its slot for that beat */
    if (so_cl_heap_push(&s->heap, t, kind, id, kind == SO_CL_EV_END)) {
        s->failed = 1;
        return SO_CL_NO_EVENT;
    }
    return seq;
}

double so_cl_held_demand(const so_cl_job_spec *spec, int p, int r)
{
    if (p == SO_CL_MAP)
        return spec->demand[p][r];
    return fmax(spec->shuffle_demand[r], spec->demand[p][r]);
}


static double target_rate(const so_cl_sim *s, const so_cl_attempt *a)
{
    /* the variability factors are exactly 1 when off: the same doubles */
    return s->w->nodes[a->node].speed * a->share * a->factor *
           s->nodes[a->node].slow * a->vary;
}

void so_cl_rate_init(so_cl_sim *s, so_cl_attempt *a, double work)
{
    a->seg = 0;
    a->chained = 0;
    a->work = work;
    a->done = a->worked = 0;
    a->updated = s->now;
    a->share = a->factor = 1;
    a->rate = target_rate(s, a);
    a->live = SO_CL_NO_EVENT;
}

static double second_work(const so_cl_sim *s, const so_cl_attempt *a)
{
    const so_cl_jobrt *job = &s->jobs[a->job];
    const so_cl_reduce_work *rw =
        &job->spec->reduce_work[a->task - job->first_task[SO_CL_REDUCE]];
    return rw->sort + rw->reduce;
}

void so_cl_rate_advance(so_cl_sim *s, so_cl_attempt *a)
{
    if (a->waiting) {
        a->updated = s->now;
        return;
    }
    if (a->chained && s->now >= a->copy_end) {
        double after = (s->now - a->copy_end) * a->rate;
        a->worked += a->work - a->done + after;
        a->chained = 0;
        a->seg = 1;
        a->work = second_work(s, a);
        a->done = after;
    } else {
        double delta = (s->now - a->updated) * a->rate;
        a->done += delta;
        a->worked += delta;
    }
    a->updated = s->now;
}

/* An end at most SO_CL_BEAT_SNAP intervals after a beat of the node is put
 * on that beat (the beat's own double, as next_heartbeat() computes it), so
 * that the slot it frees is filled at that beat whatever the rounding of
 * now + left: a map launched at a beat whose length is a whole number of
 * intervals ends on a beat (its end event leads the beat's, event_heap.h).
 * Never before now (a rate change just after a beat of the node); without
 * out-of-band heartbeats only. */
static double on_beat(const so_cl_sim *s, int node, double t)
{
    if (s->w->outofband || !(s->interval > 0))
        return t;
    double phase = s->nodes[node].phase;
    double k = floor((t - phase) / s->interval + 0.5);
    double beat = phase + k * s->interval;
    return t > beat && t - beat <= SO_CL_BEAT_SNAP * s->interval && beat >= s->now ? beat : t;
}

void so_cl_rate_schedule(so_cl_sim *s, int id)
{
    so_cl_attempt *a = &s->attempts[id];
    if (a->live != SO_CL_NO_EVENT)
        s->stats.stale_events++; /* superseded: left in the heap */
    a->live = SO_CL_NO_EVENT;
    if (a->waiting || !(a->rate > 0))
        return; /* no progress: no end until the rate or the phase changes */
    double left = (a->work - a->done) / a->rate;
    if (a->chained) {
        a->copy_end = s->now + left;
        a->live = so_cl_push(s, on_beat(s, a->node, a->copy_end + second_work(s, a) / a->rate),
                             SO_CL_EV_END, id);
    } else if (a->phase == SO_CL_REDUCE && a->seg == 0) {
        a->live = so_cl_push(s, s->now + left, SO_CL_EV_COPY_END, id);
    } else {
        a->live = so_cl_push(s, on_beat(s, a->node, s->now + left), SO_CL_EV_END, id);
    }
}

void so_cl_rate_second_segment(so_cl_sim *s, int id)
{
    so_cl_attempt *a = &s->attempts[id];
    a->waiting = 0;
    a->copy_end = s->now;
    a->seg = 1;
    a->work = second_work(s, a);
    a->done = 0;
    a->updated = s->now;
    a->live = SO_CL_NO_EVENT;
    so_cl_rate_refresh_node(s, a->node); /* its demand changed */
    if (a->live == SO_CL_NO_EVENT)
        so_cl_rate_schedule(s, id);
}

static void set_rate(so_cl_sim *s, int id)
{
    so_cl_attempt *a = &s->attempts[id];
    double rate = target_rate(s, a);
    if (rate == a->rate)
        return;
    so_cl_rate_advance(s, a);
    a->rate = rate;
    so_cl_rate_schedule(s, id);
}

void so_cl_rate_node_speed(so_cl_sim *s, int node)
{
    const so_cl_nodert *nd = &s->nodes[node];
    for (int k = 0; k < nd->n_running; k++)
        set_rate(s, nd->running[k]);
}

void so_cl_rate_set_share(so_cl_sim *s, int id, double share)
{
    so_cl_attempt *a = &s->attempts[id];
    if (share != a->share) {
        a->share = share;
        set_rate(s, id);
    }
}

void so_cl_rate_refresh_node(so_cl_sim *s, int node)
{
    const so_cl_workload *w = s->w;
    if (s->contention == SO_CL_CONTENTION_PHYSICAL) {
        so_cl_physics_refresh_node(s, node);
        return;
    }
    if (s->contention != SO_CL_CONTENTION_SHARE)
        return;
    const so_cl_nodert *nd = &s->nodes[node];
    double f[SO_CL_MAX_RESOURCES];
    for (int r = 0; r < w->n_resources; r++) {
        double total = 0;
        for (int k = 0; k < nd->n_running; k++)
            total += so_cl_current_demand(s, &s->attempts[nd->running[k]], r);
        double cap = w->nodes[node].capacity[r];
        f[r] = s->hard[r] || total <= cap ? 1.0 : cap / total;
    }
    for (int k = 0; k < nd->n_running; k++) {
        so_cl_attempt *a = &s->attempts[nd->running[k]];
        double share = 1;
        for (int r = 0; r < w->n_resources; r++)
            if (so_cl_current_demand(s, a, r) > 0)
                share = fmin(share, f[r]);
        if (share != a->share) {
            a->share = share;
            set_rate(s, nd->running[k]);
        }
    }
}

int so_cl_set_rate_factor(so_cl_sim *s, int id, double factor)
{
    if (id < 0 || (size_t)id >= s->n_attempts ||
        s->attempts[id].state != SO_CL_RUNNING || !(factor > 0) ||
        !isfinite(factor))
        return -1;
    s->attempts[id].factor = factor;
    set_rate(s, id);
    return 0;
}
