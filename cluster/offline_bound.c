/*
 * offline_bound.c — `lp-bound`: lower bounds on job response times that hold
 * for every schedule the cluster model can produce (docs/offline.md states
 * the offline problem, the relaxations and the proof).
 *
 * Physics the bounds rest on (cluster/engine.c, rates.c, stealing.c):
 *   - an attempt of work w progresses at speed x share x factor, where the
 *     contention share is <= 1 (under the "physical" model <= H =
 *     max(1, profile_headroom): a task on an under-committed node runs
 *     faster than its profile, physics_rates.c; every node speed below is
 *     then read as speed x H, so_cl_offline_speedup) and the policy factor is 1 except under
 *     resource stealing, where a task running k threads (one per slot of its
 *     phase on its node, k <= the node's slots) gets 1 / ((1 - f) + f / k)
 *     <= k with the job's Amdahl fraction f; remote maps do more work;
 *     killed and speculative attempts only add work; transient slow-downs
 *     only slow (task-time noise, which may speed an attempt up, voids
 *     every term: the harness refuses the combination). So a task of work w
 *     lasts >= w / v_j,p with v_j,p = max over nodes of
 *     speed / ((1 - f) + f / slots), and a phase's slots process at most
 *     Cap_p = sum over nodes of slots x speed work per second (every thread
 *     of a stealing task holds a slot of its node);
 *   - reduces open once ceil(slowstart x maps) maps are done; a reduce's
 *     copy cannot end before the job's last map, its sort and reduce follow.
 * Per job j (times after its submission r_j; a_1 <= ... <= a_n its maps,
 * k = ceil(slowstart x n), reduce i of copy c_i, sort s_i, reduce d_i):
 *   M_j  = max(a_n / v_m, sum a / Cap_m)              last map done
 *   O_j  = max(a_k / v_m, (a_1 + ... + a_k) / Cap_m)  reduces open (0: k = 0)
 *   R_j  = max_i max(O_j + (c_i+s_i+d_i) / v_r, M_j + (s_i+d_i) / v_r),
 *          O_j + sum (c+s+d) / Cap_r,  M_j + sum (s+d) / Cap_r
 *   LB_j = max(M_j, R_j)        (each response >= LB_j)
 * and, for Amdahl fraction 0 with slot capacities, the one-slot wave (some
 * slot runs ceil(n / slots) of a phase's n tasks one after the other, each
 * holding it for its whole heartbeat intervals; wave() below) raises M_j,
 * O_j (the first k maps) and R_j (the reduces, after O_j).
 * Sums (the mean): the map work of every schedule, seen on one machine of
 * speed Cap_m, is a preemptive schedule of processing times sum a / Cap_m
 * released at r_j; SRPT's k-th smallest completion is at most any such
 * schedule's (offline_srpt.c). With T_j = max((s+d) / v_r, sum (s+d) /
 * Cap_r) the reduce tail after the last map, D_j = C_j - T_j satisfies
 * D_j >= (map completion) and D_j >= r_j + LB_j - T_j, so sorted(D) is at
 * least the larger of SRPT's sorted completions and of the sorted
 * r_j + LB_j - T_j, position by position: summing gives sum_map. The
 * reduce machine likewise (work sum (c+s+d) / Cap_r released at r_j + O_j,
 * the job's completion is its last reduce's), the map-only jobs by their
 * own map machine: sum_reduce. And on each machine WSPT's mean busy times
 * (the least weighted sum over every schedule) plus each phase's
 * late-window term (late_span()) bound the weighted sum, and with unit
 * weights the sum once more: sum_busy. Workloads with resources: RAS sets
 * a node's slots to what fits, so the slot capacities are dropped there
 * (job terms only, with v = max speed / (1 - f)).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/offline_bound.h"
#include "cluster/offline_beats.h"
#include "cluster/offline_waves.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The fastest a task of phase p with Amdahl fraction f can progress; the
 * last answer per phase is kept (jobs mostly share their fractions). */
typedef struct {
    double f, v;
    int known;
} speed_memo;

double so_cl_offline_speedup(const so_cl_workload *w)
{
    return w->contention == SO_CL_CONTENTION_PHYSICAL ? fmax(1, w->physics.profile_headroom)
                                                      : 1;
}

static double top_speed(const so_cl_workload *w, int p, double f, int capacity,
                        speed_memo *memo)
{
    if (memo->known && memo->f == f)
        return memo->v;
    double v = 0, h = so_cl_offline_speedup(w);
    for (int n = 0; n < w->n_nodes; n++) {
        const so_cl_node_spec *nd = &w->nodes[n];
        double s;
        if (!capacity)
            s = f >= 1 ? INFINITY : h * nd->speed / (1 - f);
        else if (nd->slots[p] <= 0)
            continue;
        else
            s = h * nd->speed / ((1 - f) + f / nd->slots[p]);
        v = fmax(v, s);
    }
    *memo = (speed_memo){f, v, 1};
    return v;
}

/* x / v with x / 0 = inf, 0 / anything = 0 */
static double over(double x, double v)
{
    return x <= 0 ? 0 : x / v;
}

/* Slot-seconds a task of work x holds at least: from its launch, always at
 * a heartbeat of its node, to that node's first beat after its end when
 * the rate cannot change (no out-of-band beats, Amdahl fraction 0), a
 * whole number of intervals; else x / (fastest speed). */
typedef struct {
    double interval; /* > 0: round to the heartbeat grid */
    double vmax;     /* fastest node speed */
} grid;

static double hold(const grid *g, double x, double f)
{
    double d = x / g->vmax;
    if (g->interval > 0 && f == 0) /* at least the engine's snap (cluster.h) */
        return ceil(d / g->interval - 2 * SO_CL_BEAT_SNAP) * g->interval;
    return d;
}

/* map_slack, reduce_slack: the most a task's hold outlasts the task (its
 * end is at most that much before its hold ends); wave: the one-slot wave
 * term raised the job's bound; map_late, reduce_late: per measure, how far
 * the phase's end lies at least after its mean busy time (late_span()) */
typedef struct {
    double lb, tail, open, map_work, reduce_work, map_hold, reduce_hold;
    double map_slack, reduce_slack;
    double map_late[2], reduce_late[2];
    int wave, beat;
} job_terms;

/* The late-window term of a phase's n tasks of amounts x (ascending; work,
 * or slot-seconds held), each processed at rate <= v, all of them at
 * rate <= cap. In any window [E - s, E] before the phase's end E the job
 * processes at most G(s) = min(sum_i min(x_i, v s), cap s): a task at most
 * v s of its own amount (a hold is one interval of one slot), the phase
 * at most cap s. So its mean busy time MB (the average instant its amount
 * is processed; for work that lasts longer than x_i, or a hold longer than
 * its least, the last x_i of it) satisfies
 *   E - MB = (1/P) int_0^inf (P - W(s)) ds >= (1/P) int_0^inf (P - G(s))+ ds,
 * P = sum x, W(s) the amount processed in the window. The integrand is P - cap s
 * up to s*, where the concave sum_i min(x_i, v s) falls to the line cap s
 * (0 when n v <= cap), then sum over x_i > v s* of (x_i - v s)+: in closed
 * form P s* - cap s*^2 / 2 + sum (x_i - v s*)^2 / (2 v). At least P / (2 cap)
 * (the whole phase at rate cap: the term of a job processed at rate <= cap
 * alone), and x / (2 v) for a lone task. */
static double late_span(const double *x, int n, double v, double cap)
{
    double total = 0;
    for (int i = 0; i < n; i++)
        total += x[i];
    if (n <= 0 || !(total > 0) || !(cap > 0))
        return 0;
    double star = 0, done = 0; /* done: the amount of the tasks ended by star */
    if (n * v > cap) {
        star = total / cap; /* past the last task's end */
        for (int k = 0; k < n; k++) {
            /* on [x_(k-1) / v, x_k / v] tasks 0..k-1 are done: the sum is
             * done + (n - k) v s, which meets cap s at done / (cap - (n - k) v) */
            double rate = (n - k) * v;
            if (rate < cap) {
                double s = done / (cap - rate);
                if (s <= x[k] / v) {
                    star = s;
                    break;
                }
            }
            done += x[k];
        }
    }
    double area = total * star - cap * star * star / 2;
    for (int i = 0; i < n; i++)
        if (x[i] > v * star)
            area += (x[i] - v * star) * (x[i] - v * star) / (2 * v);
    return fmax(area / total, total / (2 * cap));
}

/* The slot waves of n tasks (works ascending) on `slots` slots of a phase.
 * Attempts on a node never outnumber its slots, so each successful one can
 * be given a slot of its own (interval colouring); for every q >= 1 with
 * q x slots + 1 <= n, some slot runs q + 1 of the q x slots + 1 longest
 * tasks (pigeonhole), one after the other, each starting at a beat of its
 * node at or after the previous one's end; so (Amdahl fraction 0: one
 * slot, rate at most the fastest node's) the last of them ends at least
 * the q + 1 smallest holds among those tasks less the largest slack after
 * the first starts (with q = ceil(n / slots) - 1 at least the one-slot
 * wave: the ceil(n / slots) smallest holds of all). The largest over q;
 * `pre` has room for n + 1 values. 0 when it does not apply (fraction > 0:
 * a task may run faster on several slots; no slot capacity). */
static double wave(const double *sorted, int n, double slots, const grid *g, double f,
                   double slack, double *pre)
{
    if (n <= 0 || f != 0 || !(slots > 0) || isinf(slots))
        return 0;
    pre[0] = 0;
    for (int i = 0; i < n; i++)
        pre[i + 1] = pre[i] + hold(g, sorted[i], f);
    return so_cl_waves_of(pre, n, slots) - slack;
}

/* late_span() of a phase's tasks (works ascending) in both measures: work at
 * rate <= v against cap, and slot-seconds held against the slots (a task
 * holds one slot, so at rate <= 1, when its Amdahl fraction is 0; a
 * stealing task holds several, so only the slots' count caps it then).
 * `holds` has room for n values. */
static void late_terms(const double *works, int n, double v, double cap, double slots,
                       const grid *g, double f, double *holds, double late[2])
{
    late[0] = late_span(works, n, v, cap);
    for (int i = 0; i < n; i++)
        holds[i] = hold(g, works[i], f);
    late[1] = late_span(holds, n, f == 0 ? 1 : INFINITY, slots);
}

/* The nodes' beats on a job's maps (offline_beats.c; map slots, Amdahl
 * fraction 0):
 * its last map and its k-th map end no earlier than their count times from
 * its submit. Raises *m and *open; 1 when either rose. */
static int beat_terms(const so_cl_beats *beats, so_cl_beat_heap *heap, const so_cl_job_spec *j,
                      const double *sorted, int k, const grid *g, double slack, double *pre,
                      double *m, double *open)
{
    pre[0] = 0;
    for (int i = 0; i < j->n_maps; i++)
        pre[i + 1] = pre[i] + hold(g, sorted[i], 0);
    double tm = so_cl_beats_count_time(beats, j->submit, pre, j->n_maps, j->n_maps, slack, heap);
    int up = tm - j->submit > *m * (1 + 1e-12);
    *m = fmax(*m, tm - j->submit);
    if (k > 0) {
        double to = so_cl_beats_count_time(beats, j->submit, pre, j->n_maps, k, slack, heap);
        up |= to - j->submit > *open * (1 + 1e-12);
        *open = fmax(*open, to - j->submit);
    }
    return up;
}

/* beats: per phase (NULL: not known) */
static int job_terms_of(const so_cl_workload *w, const so_cl_job_spec *j, int capacity,
                        const double cap[2][2], const grid *g, const so_cl_beats *beats,
                        so_cl_beat_heap *heap, speed_memo memo[2], double *scratch,
                        double *pre, job_terms *t)
{
    double cap_m = cap[0][SO_CL_MAP], cap_r = cap[0][SO_CL_REDUCE];
    double sm = capacity ? cap[1][SO_CL_MAP] : INFINITY;
    double sr = capacity ? cap[1][SO_CL_REDUCE] : INFINITY;
    double fm = j->parallel[SO_CL_MAP], fr = j->parallel[SO_CL_REDUCE];
    memset(t, 0, sizeof *t);
    double vm = top_speed(w, SO_CL_MAP, j->parallel[SO_CL_MAP], capacity, &memo[0]);
    double vr = top_speed(w, SO_CL_REDUCE, j->parallel[SO_CL_REDUCE], capacity, &memo[1]);
    double cm = capacity ? cap_m : INFINITY, cr = capacity ? cap_r : INFINITY;
    double m = 0;
    if (j->n_maps > 0) {
        memcpy(scratch, j->map_work, (size_t)j->n_maps * sizeof *scratch);
        qsort(scratch, (size_t)j->n_maps, sizeof *scratch, cmp_double);
        double sum = 0, held = 0;
        for (int i = 0; i < j->n_maps; i++) {
            sum += scratch[i];
            double h = hold(g, scratch[i], fm);
            held += h;
            t->map_slack = fmax(t->map_slack, h - scratch[i] / g->vmax);
        }
        t->map_work = sum;
        t->map_hold = held;
        m = fmax(fmax(over(scratch[j->n_maps - 1], vm), over(sum, cm)),
                 over(held, sm) - t->map_slack);
        double wm = wave(scratch, j->n_maps, sm, g, fm, t->map_slack, pre);
        t->wave = wm > m * (1 + 1e-12);
        m = fmax(m, wm);
        int k = (int)ceil(j->slowstart * j->n_maps);
        if (k > j->n_maps)
            k = j->n_maps;
        if (k > 0) {
            double first = 0, first_held = 0;
            for (int i = 0; i < k; i++) {
                first += scratch[i];
                first_held += hold(g, scratch[i], fm);
            }
            t->open = fmax(fmax(over(scratch[k - 1], vm), over(first, cm)),
                           over(first_held, sm) - t->map_slack);
            double wo = wave(scratch, k, sm, g, fm, t->map_slack, pre);
            t->wave |= wo > t->open * (1 + 1e-12);
            t->open = fmax(t->open, wo);
        }
        if (beats && beats[SO_CL_MAP].n > 0 && fm == 0)
            t->beat = beat_terms(&beats[SO_CL_MAP], heap, j, scratch, k, g, t->map_slack, pre,
                                 &m, &t->open);
        late_terms(scratch, j->n_maps, vm, cm, sm, g, fm, pre, t->map_late);
    }
    double red = 0, all = 0, after = 0, tail = 0, held = 0;
    for (int i = 0; i < j->n_reduces; i++) {
        const so_cl_reduce_work *rw = &j->reduce_work[i];
        double sd = rw->sort + rw->reduce, csd = rw->copy + sd;
        red = fmax(red, fmax(t->open + over(csd, vr), m + over(sd, vr)));
        tail = fmax(tail, over(sd, vr));
        all += csd;
        after += sd;
        double h = hold(g, csd, fr);
        held += h;
        t->reduce_slack = fmax(t->reduce_slack, h - csd / g->vmax);
        scratch[i] = csd;
    }
    if (j->n_reduces > 0) {
        red = fmax(red, fmax(t->open + over(all, cr), m + over(after, cr)));
        red = fmax(red, t->open + over(held, sr) - t->reduce_slack);
        tail = fmax(tail, over(after, cr));
        qsort(scratch, (size_t)j->n_reduces, sizeof *scratch, cmp_double);
        double wr = t->open + wave(scratch, j->n_reduces, sr, g, fr, t->reduce_slack, pre);
        t->wave |= wr > red * (1 + 1e-12);
        red = fmax(red, wr);
        if (beats && beats[SO_CL_REDUCE].n > 0 && fr == 0) {
            /* the reduces launch at beats of their nodes once they open */
            pre[0] = 0;
            for (int i = 0; i < j->n_reduces; i++)
                pre[i + 1] = pre[i] + hold(g, scratch[i], 0);
            double tr = so_cl_beats_count_time(&beats[SO_CL_REDUCE], j->submit + t->open, pre,
                                               j->n_reduces, j->n_reduces, t->reduce_slack,
                                               heap) - j->submit;
            t->beat |= tr > red * (1 + 1e-12);
            red = fmax(red, tr);
        }
        late_terms(scratch, j->n_reduces, vr, cr, sr, g, fr, pre, t->reduce_late);
    }
    t->reduce_work = all;
    t->reduce_hold = held;
    t->tail = tail;
    t->lb = fmax(m, red);
    return SO_OK;
}

/* sum over k of max(a_(k), b_(k), extra[k]), a and b sorted ascending in
 * place; extra (NULL: none) a bound on the k-th smallest by position */
static double sorted_max_sum(double *a, double *b, const double *extra, int n, int *raised)
{
    qsort(a, (size_t)n, sizeof *a, cmp_double);
    qsort(b, (size_t)n, sizeof *b, cmp_double);
    double s = 0;
    int up = 0;
    for (int k = 0; k < n; k++) {
        double v = fmax(a[k], b[k]);
        if (extra && extra[k] > v * (1 + 1e-12)) {
            v = extra[k];
            up++;
        }
        s += v;
    }
    if (raised && up > *raised)
        *raised = up;
    return s;
}

/* SRPT on one machine over the jobs in idx[0..n), combined with their lower
 * bounds e[] and the position bounds extra[] (NULL: none): the bound on the
 * sum of their (completion - shift) values. */
static int machine_sum(int n, const int *idx, const double *rel, const double *work,
                       const double *e, const double *extra, int *raised, double *buf,
                       double *out)
{
    double *r = buf, *p = buf + n, *c = buf + 2 * (size_t)n, *ee = buf + 3 * (size_t)n;
    for (int i = 0; i < n; i++) {
        r[i] = rel[idx[i]];
        p[i] = work[idx[i]];
        ee[i] = e[idx[i]];
    }
    int rc = so_cl_srpt(n, r, p, c);
    if (rc)
        return rc;
    *out = sorted_max_sum(c, ee, extra, n, raised);
    return SO_OK;
}

void so_cl_offline_bound_free(so_cl_offline_bound *b)
{
    if (b) {
        free(b->job);
        b->job = NULL;
    }
}

/* The two aggregate machines of one measure (0: work / speed-weighted
 * capacity; 1: slot-seconds held / slots): sum_map, sum_reduce (plus the
 * submit times) and the makespan bound (absolute). */
typedef struct {
    const so_cl_workload *w;
    const job_terms *t;
    double *arr;
    int *idx;
    const double *prefix; /* the prefix waves by position (NULL: none) */
    const double *reduce_positions; /* the reduces' beats by position among
                                       the jobs with reduces (NULL: none) */
    int *raised;          /* positions they raised (the most over the measures) */
} machines_ctx;

static int machines(const machines_ctx *x, int measure, double cm, double cr, double *sum_map,
                    double *sum_reduce, double *end_time)
{
    const so_cl_workload *w = x->w;
    const job_terms *t = x->t;
    int n = w->n_jobs;
    size_t nn = (size_t)n;
    double *rel = x->arr, *work = x->arr + nn, *e = x->arr + 2 * nn, *buf = x->arr + 3 * nn;
    int *idx = x->idx;
    /* the map machine: D_j = C_j - T_j + slack_j (measure 1: a job's holds
     * end at most slack_j after its last map) */
    int m = 0, same = 1; /* same: the jobs with maps are those with reduces */
    double base = 0, min_tail = INFINITY, max_tail = -INFINITY;
    for (int j = 0; j < n; j++) {
        const so_cl_job_spec *js = &w->jobs[j];
        double slack = measure ? t[j].map_slack : 0;
        rel[j] = js->submit;
        work[j] = (measure ? t[j].map_hold : t[j].map_work) / cm;
        e[j] = js->submit + t[j].lb - t[j].tail + slack;
        same &= (js->n_maps > 0) == (js->n_reduces > 0);
        if (js->n_maps > 0) {
            idx[m++] = j;
            base += t[j].tail - slack;
            min_tail = fmin(min_tail, t[j].tail - slack);
            max_tail = fmax(max_tail, t[j].tail - slack);
        } else {
            base += js->submit + t[j].lb;
        }
    }
    /* the reduces' positions bound the k-th smallest completion C; each
     * D_j >= C_j - (the largest T_j - slack_j), so the k-th smallest D too */
    double *extra = NULL;
    if (same && x->reduce_positions && m > 0) {
        extra = malloc((size_t)m * sizeof *extra);
        if (!extra)
            return SO_ENOMEM;
        for (int k = 0; k < m; k++)
            extra[k] = fmax(x->prefix ? x->prefix[k] : -INFINITY,
                            x->reduce_positions[k] - max_tail);
    }
    double s = 0;
    int rc = machine_sum(m, idx, rel, work, e, extra ? extra : x->prefix, x->raised, buf, &s);
    free(extra);
    if (rc)
        return rc;
    *sum_map = base + s;
    for (int i = 0; i < m; i++) /* the last map completion: SRPT is work-conserving */
        *end_time = fmax(*end_time, buf[2 * (size_t)m + i] + min_tail);
    /* the reduce machine over the jobs with reduces, the map machine over
     * the map-only ones */
    double total = 0, max_slack = 0;
    int r = 0;
    for (int j = 0; j < n; j++) {
        const so_cl_job_spec *js = &w->jobs[j];
        double slack = measure ? t[j].reduce_slack : 0;
        rel[j] = js->submit + t[j].open;
        work[j] = (measure ? t[j].reduce_hold : t[j].reduce_work) / cr;
        e[j] = js->submit + t[j].lb + slack;
        if (js->n_reduces > 0) {
            idx[r++] = j;
            total -= slack;
            max_slack = fmax(max_slack, slack);
        } else if (js->n_maps == 0) {
            total += e[j];
        }
    }
    rc = machine_sum(r, idx, rel, work, e, x->reduce_positions, NULL, buf, &s);
    if (rc)
        return rc;
    total += s;
    for (int i = 0; i < r; i++)
        *end_time = fmax(*end_time, buf[2 * (size_t)r + i] - max_slack);
    int k = 0;
    for (int j = 0; j < n; j++) {
        const so_cl_job_spec *js = &w->jobs[j];
        double slack = measure ? t[j].map_slack : 0;
        rel[j] = js->submit;
        work[j] = (measure ? t[j].map_hold : t[j].map_work) / cm;
        if (js->n_reduces == 0 && js->n_maps > 0) {
            idx[k++] = j;
            e[j] += slack;
            total -= slack;
        }
    }
    rc = machine_sum(k, idx, rel, work, e, NULL, NULL, buf, &s);
    *sum_reduce = total + s;
    return rc;
}

/* The weighted sum of responses on the aggregate machines of one measure
 * (as machines()): WSPT's mean busy times MB_j (offline_srpt.c) bound the
 * weighted sum of any schedule's, and a phase ends at least its late-window
 * term after its mean busy time (late_span(): p_j / 2 on the machine for a
 * job as wide as the slots, half its longest task for a job of one);
 * then the map tail (map machine) or the largest hold slack (measure 1) as
 * in machines(). Jobs not on a machine count with r_j + LB_j. With `unit`
 * every weight is 1 (the bound on the sum). Returns the bound on
 * sum_j w_j C_j. */
static int weighted(const machines_ctx *x, int measure, int unit, double cm, double cr,
                    double *out)
{
    const so_cl_workload *w = x->w;
    const job_terms *t = x->t;
    size_t nn = (size_t)w->n_jobs;
    double *rel = x->arr, *work = x->arr + nn, *wt = x->arr + 2 * nn, *mb = x->arr + 3 * nn;
    int *idx = x->idx;
    *out = 0;
    for (int phase = 0; phase < SO_CL_PHASES; phase++) {
        int m = 0;
        double s = 0;
        for (int j = 0; j < w->n_jobs; j++) {
            const so_cl_job_spec *js = &w->jobs[j];
            int on = phase == SO_CL_MAP ? js->n_maps > 0 : js->n_reduces > 0;
            double weight = unit ? 1 : js->weight;
            if (!on) {
                s += weight * (js->submit + t[j].lb);
                continue;
            }
            double amount = phase == SO_CL_MAP ? (measure ? t[j].map_hold : t[j].map_work)
                                               : (measure ? t[j].reduce_hold : t[j].reduce_work);
            rel[m] = js->submit + (phase == SO_CL_MAP ? 0 : t[j].open);
            work[m] = amount / (phase == SO_CL_MAP ? cm : cr);
            wt[m] = weight;
            idx[m++] = j;
        }
        int rc = so_cl_wspt_busy(m, rel, work, wt, mb);
        if (rc)
            return rc;
        for (int i = 0; i < m; i++) {
            const job_terms *tj = &t[idx[i]];
            double after = phase == SO_CL_MAP
                               ? tj->map_late[measure] + tj->tail - (measure ? tj->map_slack : 0)
                               : tj->reduce_late[measure] - (measure ? tj->reduce_slack : 0);
            s += wt[i] * (mb[i] + after);
        }
        *out = fmax(*out, s);
    }
    return SO_OK;
}

/* weighted_sum, goals, goals_missed, tardiness (all but the aggregate
 * machines, which weighted() adds) */
static void goal_terms(const so_cl_workload *w, so_cl_offline_bound *out)
{
    double wlb = 0, wmin = INFINITY;
    for (int j = 0; j < w->n_jobs; j++) {
        const so_cl_job_spec *js = &w->jobs[j];
        wlb += js->weight * out->job[j];
        wmin = fmin(wmin, js->weight);
        if (js->goal > 0) {
            out->goals++;
            out->goals_missed += out->job[j] > js->goal + 1e-6;
            out->tardiness += fmax(0, out->job[j] - js->goal);
        }
    }
    out->weighted_sum = w->n_jobs ? fmax(wlb, wmin * out->sum) : 0;
}

/* A phase's tasks per job, for the position bounds: over the jobs with
 * tasks of the phase, each one's holds ascending, their count, its release
 * (maps: the submit; reduces: the submit plus O_j, when they may open)
 * and its largest hold slack. */
typedef struct {
    int m;
    double **holds;
    int *n;
    double *rel, *slack;
} phase_sets;

static void phase_sets_free(phase_sets *ps)
{
    for (int i = 0; ps->holds && i < ps->m; i++)
        free(ps->holds[i]);
    free(ps->holds);
    free(ps->n);
    free(ps->rel);
    free(ps->slack);
    memset(ps, 0, sizeof *ps);
}

static int phase_sets_build(const so_cl_workload *w, const job_terms *t, const grid *g, int p,
                            phase_sets *ps)
{
    memset(ps, 0, sizeof *ps);
    for (int j = 0; j < w->n_jobs; j++)
        ps->m += (p == SO_CL_MAP ? w->jobs[j].n_maps : w->jobs[j].n_reduces) > 0;
    size_t m = ps->m > 0 ? (size_t)ps->m : 1;
    ps->holds = calloc(m, sizeof *ps->holds);
    ps->n = malloc(m * sizeof *ps->n);
    ps->rel = malloc(m * sizeof *ps->rel);
    ps->slack = malloc(m * sizeof *ps->slack);
    if (!ps->holds || !ps->n || !ps->rel || !ps->slack) {
        phase_sets_free(ps);
        return SO_ENOMEM;
    }
    for (int j = 0, i = 0; j < w->n_jobs; j++) {
        const so_cl_job_spec *js = &w->jobs[j];
        int k = p == SO_CL_MAP ? js->n_maps : js->n_reduces;
        if (k == 0)
            continue;
        ps->holds[i] = malloc((size_t)k * sizeof **ps->holds);
        if (!ps->holds[i]) {
            phase_sets_free(ps);
            return SO_ENOMEM;
        }
        for (int x = 0; x < k; x++) {
            const so_cl_reduce_work *rw = p == SO_CL_MAP ? NULL : &js->reduce_work[x];
            double work = rw ? rw->copy + rw->sort + rw->reduce : js->map_work[x];
            ps->holds[i][x] = hold(g, work, 0);
        }
        qsort(ps->holds[i], (size_t)k, sizeof **ps->holds, cmp_double);
        ps->n[i] = k;
        ps->rel[i] = js->submit + (p == SO_CL_MAP ? 0 : t[j].open);
        ps->slack[i] = p == SO_CL_MAP ? t[j].map_slack : t[j].reduce_slack;
        i++;
    }
    return SO_OK;
}

/* The bounds by position on the map-phase ends over the jobs with maps
 * (the k-th smallest among them): the prefix waves (offline_waves.c) and
 * the nodes' beats (offline_beats.c; beats NULL: not known), the larger,
 * then their running maximum; *out NULL when neither applies (a map
 * fraction above 0) or both would cost too much. *beat_won: the positions
 * where the beats are above the waves. */
#define PREFIX_BUDGET 3e7 /* holds merged: about 0.1 s */
#define BEATS_BUDGET 3e6  /* holds pooled over the release times: about 0.05 s */
static int map_positions(const so_cl_workload *w, const job_terms *t, const grid *g,
                         double slots, const so_cl_beats *beats, double **out, int *beat_won)
{
    *out = NULL;
    int m = 0;
    double total = 0;
    for (int j = 0; j < w->n_jobs; j++) {
        if (w->jobs[j].n_maps == 0)
            continue;
        if (w->jobs[j].parallel[SO_CL_MAP] != 0)
            return SO_OK;
        m++;
        total += w->jobs[j].n_maps;
    }
    int waves_on = m >= 2 && (double)m * (m - 1) / 2 * 2 * (total / m) <= PREFIX_BUDGET;
    if (m == 0 || (!waves_on && !beats))
        return SO_OK;
    phase_sets ps;
    double *P = malloc((size_t)m * sizeof *P), *C = malloc((size_t)m * sizeof *C);
    int rc = phase_sets_build(w, t, g, SO_CL_MAP, &ps);
    if (!rc && (!P || !C))
        rc = SO_ENOMEM;
    double **holds = ps.holds, *rel = ps.rel, *slack = ps.slack;
    int *n = ps.n;
    for (int k = 0; !rc && k < m; k++)
        P[k] = C[k] = -INFINITY;
    if (!rc && waves_on &&
        so_cl_prefix_waves(m, (const double *const *)holds, n, rel, slack, slots,
                           PREFIX_BUDGET, P))
        rc = SO_ENOMEM;
    if (!rc && beats &&
        so_cl_beats_positions(beats, m, (const double *const *)holds, n, rel, slack,
                              BEATS_BUDGET, C))
        rc = SO_ENOMEM;
    int any = 0;
    for (int k = 0; !rc && k < m; k++) {
        *beat_won += C[k] > P[k] * (1 + 1e-12) + 1e-12;
        P[k] = fmax(P[k], C[k]);
        if (k > 0)
            P[k] = fmax(P[k], P[k - 1]);
        any |= P[k] > -INFINITY;
    }
    phase_sets_free(&ps);
    free(C);
    if (rc || !any)
        free(P);
    else
        *out = P;
    return rc;
}

/* The reduces' beats by position among the jobs with reduces (reduce
 * fraction 0 everywhere): the k jobs that end first in a schedule end with
 * their reduces, which launch at beats of the reduce slots' nodes once
 * they open, no earlier than the earliest of those jobs' r_j + O_j
 * (so_cl_beats_positions over the reduce holds); *out NULL when it does
 * not apply or would cost too much. */
static int reduce_positions(const so_cl_workload *w, const job_terms *t, const grid *g,
                            const so_cl_beats *beats, double **out)
{
    *out = NULL;
    int m = 0;
    for (int j = 0; j < w->n_jobs; j++) {
        if (w->jobs[j].n_reduces == 0)
            continue;
        if (w->jobs[j].parallel[SO_CL_REDUCE] != 0)
            return SO_OK;
        m++;
    }
    if (m == 0)
        return SO_OK;
    phase_sets ps;
    double *C = malloc((size_t)m * sizeof *C);
    int rc = phase_sets_build(w, t, g, SO_CL_REDUCE, &ps);
    if (!rc && !C)
        rc = SO_ENOMEM;
    if (!rc && so_cl_beats_positions(beats, m, (const double *const *)ps.holds, ps.n, ps.rel,
                                     ps.slack, BEATS_BUDGET, C))
        rc = SO_ENOMEM;
    int any = 0;
    for (int k = 0; !rc && k < m; k++)
        any |= C[k] > -INFINITY;
    phase_sets_free(&ps);
    if (rc || !any)
        free(C);
    else
        *out = C;
    return rc;
}

int so_cl_offline_bound_compute(const so_cl_workload *w, uint64_t seed,
                                so_cl_offline_bound *out)
{
    memset(out, 0, sizeof *out);
    int n = w->n_jobs;
    out->n_jobs = n;
    out->capacity = w->n_resources == 0;
    size_t nn = n > 0 ? (size_t)n : 1;
    int max_maps = 1; /* tasks of a phase */
    for (int j = 0; j < n; j++) {
        if (w->jobs[j].n_maps > max_maps)
            max_maps = w->jobs[j].n_maps;
        if (w->jobs[j].n_reduces > max_maps)
            max_maps = w->jobs[j].n_reduces;
    }
    double *scratch = malloc((size_t)max_maps * sizeof *scratch);
    double *pre = malloc(((size_t)max_maps + 1) * sizeof *pre);
    job_terms *t = malloc(nn * sizeof *t);
    double *arr = malloc(nn * 9 * sizeof *arr);
    int *idx = malloc(nn * sizeof *idx);
    out->job = malloc(nn * sizeof *out->job);
    int rc = scratch && pre && t && arr && idx && out->job ? SO_OK : SO_ENOMEM;
    double cap[2][2] = {{0, 0}, {0, 0}}; /* [measure][phase] */
    grid g = {0, 0};
    double h = so_cl_offline_speedup(w);
    for (int k = 0; k < w->n_nodes; k++) {
        g.vmax = fmax(g.vmax, h * w->nodes[k].speed);
        for (int p = 0; p < SO_CL_PHASES; p++) {
            cap[0][p] += w->nodes[k].slots[p] * h * w->nodes[k].speed;
            cap[1][p] += w->nodes[k].slots[p];
        }
    }
    if (!w->outofband && w->n_nodes > 0)
        g.interval = so_cl_heartbeat_interval(w);
    out->grid = g.interval;
    /* the nodes' beats, per phase the nodes with its slots: known on the
     * grid, where the slot counts hold */
    so_cl_beats beats[SO_CL_PHASES] = {{0, g.interval, NULL, NULL}, {0, g.interval, NULL, NULL}};
    so_cl_beat_heap heap = {0};
    int beats_on = !rc && g.interval > 0 && out->capacity;
    for (int p = 0; beats_on && !rc && p < SO_CL_PHASES; p++) {
        beats[p].phase = malloc(((size_t)w->n_nodes + 1) * sizeof *beats[p].phase);
        beats[p].slots = malloc(((size_t)w->n_nodes + 1) * sizeof *beats[p].slots);
        if (!beats[p].phase || !beats[p].slots)
            rc = SO_ENOMEM;
        else
            so_cl_heartbeat_phases(w, seed, beats[p].phase);
        for (int k = 0; !rc && k < w->n_nodes; k++)
            if (w->nodes[k].slots[p] > 0) {
                beats[p].phase[beats[p].n] = beats[p].phase[k];
                beats[p].slots[beats[p].n++] = w->nodes[k].slots[p];
            }
    }
    if (beats_on && !rc && so_cl_beat_heap_init(&heap, w->n_nodes))
        rc = SO_ENOMEM;
    double first = INFINITY, last = -INFINITY, rsum = 0, wrsum = 0;
    speed_memo memo[2] = {{0, 0, 0}, {0, 0, 0}};
    for (int j = 0; !rc && j < n; j++) {
        const so_cl_job_spec *js = &w->jobs[j];
        rc = job_terms_of(w, js, out->capacity, cap, &g, beats_on ? beats : NULL, &heap, memo,
                          scratch, pre, &t[j]);
        out->job[j] = t[j].lb;
        out->sum_job += t[j].lb;
        out->waves += t[j].wave;
        out->beats += t[j].beat;
        rsum += js->submit;
        wrsum += js->weight * js->submit;
        first = fmin(first, js->submit);
        last = fmax(last, js->submit + t[j].lb);
    }
    out->sum = out->sum_job;
    int machines_on = !rc && out->capacity && n > 0 && cap[0][0] > 0 && cap[0][1] > 0;
    double *prefix = NULL;
    if (machines_on)
        rc = map_positions(w, t, &g, cap[1][SO_CL_MAP],
                           beats_on && beats[SO_CL_MAP].n > 0 ? &beats[SO_CL_MAP] : NULL,
                           &prefix, &out->beat_positions);
    double *reduce_pos = NULL;
    if (machines_on && !rc && beats_on && beats[SO_CL_REDUCE].n > 0)
        rc = reduce_positions(w, t, &g, &beats[SO_CL_REDUCE], &reduce_pos);
    machines_ctx x = {w, t, arr, idx, prefix, reduce_pos, &out->prefix_waves};
    for (int measure = 0; machines_on && measure < 2 && !rc; measure++) {
        double sm = 0, sr = 0;
        rc = machines(&x, measure, cap[measure][0], cap[measure][1], &sm, &sr, &last);
        out->sum_map = fmax(out->sum_map, sm - rsum);
        out->sum_reduce = fmax(out->sum_reduce, sr - rsum);
    }
    for (int measure = 0; machines_on && measure < 2 && !rc; measure++) {
        double busy = 0;
        rc = weighted(&x, measure, 1, cap[measure][0], cap[measure][1], &busy);
        out->sum_busy = fmax(out->sum_busy, busy - rsum);
    }
    out->sum = fmax(fmax(out->sum, out->sum_busy), fmax(out->sum_map, out->sum_reduce));
    if (!rc)
        goal_terms(w, out);
    for (int measure = 0; machines_on && measure < 2 && !rc; measure++) {
        double ws = 0;
        rc = weighted(&x, measure, 0, cap[measure][0], cap[measure][1], &ws);
        out->weighted_sum = fmax(out->weighted_sum, ws - wrsum);
    }
    out->makespan = n ? last - first : 0;
    for (int p = 0; p < SO_CL_PHASES; p++) {
        free(beats[p].phase);
        free(beats[p].slots);
    }
    so_cl_beat_heap_free(&heap);
    free(prefix);
    free(reduce_pos);
    free(scratch);
    free(pre);
    free(t);
    free(arr);
    free(idx);
    if (rc)
        so_cl_offline_bound_free(out);
    return rc;
}
