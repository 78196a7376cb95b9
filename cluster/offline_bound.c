/*
 * offline_bound.c — `lp-bound`: lower bounds on job response times that hold
 * for every schedule the cluster model can produce (docs/offline.md states
 * the offline problem, the relaxations and the proof).
 *
 * Physics the bounds rest on (cluster/engine.c, rates.c, stealing.c):
 *   - an attempt of work w progresses at speed x share x factor, where the
 *     contention share is <= 1 and the policy factor is 1 except under
 *     resource stealing, where a task running k threads (one per slot of its
 *     phase on its node, k <= the node's slots) gets 1 / ((1 - f) + f / k)
 *     <= k with the job's Amdahl fraction f; remote maps do more work;
 *     killed and speculative attempts only add work. So a task of work w
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
 * own map machine: sum_reduce. Workloads with resources: RAS sets a node's
 * slots to what fits, so the slot capacities are dropped there (job terms
 * only, with v = max speed / (1 - f)).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/offline_bound.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The fastest a task of phase p with Amdahl fraction f can progress. */
static double top_speed(const so_cl_workload *w, int p, double f, int capacity)
{
    double v = 0;
    for (int n = 0; n < w->n_nodes; n++) {
        const so_cl_node_spec *nd = &w->nodes[n];
        double s;
        if (!capacity)
            s = f >= 1 ? INFINITY : nd->speed / (1 - f);
        else if (nd->slots[p] <= 0)
            continue;
        else
            s = nd->speed / ((1 - f) + f / nd->slots[p]);
        v = fmax(v, s);
    }
    return v;
}

static double capacity_of(const so_cl_workload *w, int p)
{
    double c = 0;
    for (int n = 0; n < w->n_nodes; n++)
        c += w->nodes[n].slots[p] * w->nodes[n].speed;
    return c;
}

/* x / v with x / 0 = inf, 0 / anything = 0 */
static double over(double x, double v)
{
    return x <= 0 ? 0 : x / v;
}

typedef struct {
    double lb, tail, open, map_work, reduce_work;
} job_terms;

static int job_terms_of(const so_cl_workload *w, const so_cl_job_spec *j, int capacity,
                        double cap_m, double cap_r, double *scratch, job_terms *t)
{
    memset(t, 0, sizeof *t);
    double vm = top_speed(w, SO_CL_MAP, j->parallel[SO_CL_MAP], capacity);
    double vr = top_speed(w, SO_CL_REDUCE, j->parallel[SO_CL_REDUCE], capacity);
    double cm = capacity ? cap_m : INFINITY, cr = capacity ? cap_r : INFINITY;
    double m = 0;
    if (j->n_maps > 0) {
        memcpy(scratch, j->map_work, (size_t)j->n_maps * sizeof *scratch);
        qsort(scratch, (size_t)j->n_maps, sizeof *scratch, cmp_double);
        double sum = 0;
        for (int i = 0; i < j->n_maps; i++)
            sum += scratch[i];
        t->map_work = sum;
        m = fmax(over(scratch[j->n_maps - 1], vm), over(sum, cm));
        int k = (int)ceil(j->slowstart * j->n_maps);
        if (k > j->n_maps)
            k = j->n_maps;
        if (k > 0) {
            double first = 0;
            for (int i = 0; i < k; i++)
                first += scratch[i];
            t->open = fmax(over(scratch[k - 1], vm), over(first, cm));
        }
    }
    double red = 0, all = 0, after = 0, tail = 0;
    for (int i = 0; i < j->n_reduces; i++) {
        const so_cl_reduce_work *rw = &j->reduce_work[i];
        double sd = rw->sort + rw->reduce, csd = rw->copy + sd;
        red = fmax(red, fmax(t->open + over(csd, vr), m + over(sd, vr)));
        tail = fmax(tail, over(sd, vr));
        all += csd;
        after += sd;
    }
    if (j->n_reduces > 0) {
        red = fmax(red, fmax(t->open + over(all, cr), m + over(after, cr)));
        tail = fmax(tail, over(after, cr));
    }
    t->reduce_work = all;
    t->tail = tail;
    t->lb = fmax(m, red);
    return SO_OK;
}

/* sum over k of max(a_(k), b_(k)), both sorted ascending in place */
static double sorted_max_sum(double *a, double *b, int n)
{
    qsort(a, (size_t)n, sizeof *a, cmp_double);
    qsort(b, (size_t)n, sizeof *b, cmp_double);
    double s = 0;
    for (int k = 0; k < n; k++)
        s += fmax(a[k], b[k]);
    return s;
}

/* SRPT on one machine over the jobs in idx[0..n), combined with their lower
 * bounds e[]: the bound on the sum of their (completion - shift) values. */
static int machine_sum(int n, const int *idx, const double *rel, const double *work,
                       const double *e, double *buf, double *out)
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
    *out = sorted_max_sum(c, ee, n);
    return SO_OK;
}

void so_cl_offline_bound_free(so_cl_offline_bound *b)
{
    if (b) {
        free(b->job);
        b->job = NULL;
    }
}

int so_cl_offline_bound_compute(const so_cl_workload *w, so_cl_offline_bound *out)
{
    memset(out, 0, sizeof *out);
    int n = w->n_jobs;
    out->n_jobs = n;
    out->capacity = w->n_resources == 0;
    size_t nn = n > 0 ? (size_t)n : 1;
    int max_maps = 1;
    for (int j = 0; j < n; j++)
        if (w->jobs[j].n_maps > max_maps)
            max_maps = w->jobs[j].n_maps;
    double *scratch = malloc((size_t)max_maps * sizeof *scratch);
    job_terms *t = malloc(nn * sizeof *t);
    double *arr = malloc(nn * 9 * sizeof *arr);
    int *idx = malloc(nn * sizeof *idx);
    out->job = malloc(nn * sizeof *out->job);
    int rc = scratch && t && arr && idx && out->job ? SO_OK : SO_ENOMEM;
    double cap_m = capacity_of(w, SO_CL_MAP), cap_r = capacity_of(w, SO_CL_REDUCE);
    double first = INFINITY, last = -INFINITY, rsum = 0;
    for (int j = 0; !rc && j < n; j++) {
        const so_cl_job_spec *js = &w->jobs[j];
        rc = job_terms_of(w, js, out->capacity, cap_m, cap_r, scratch, &t[j]);
        out->job[j] = t[j].lb;
        out->sum_job += t[j].lb;
        rsum += js->submit;
        first = fmin(first, js->submit);
        last = fmax(last, js->submit + t[j].lb);
    }
    out->sum = out->sum_job;
    out->makespan = n ? last - first : 0;
    if (!rc && out->capacity && n > 0 && cap_m > 0 && cap_r > 0) {
        double *rel = arr, *work = arr + nn, *e = arr + 2 * nn, *buf = arr + 3 * nn;
        /* the map machine: D_j = C_j - T_j */
        int m = 0;
        double base = 0, min_tail = INFINITY;
        for (int j = 0; j < n; j++) {
            const so_cl_job_spec *js = &w->jobs[j];
            rel[j] = js->submit;
            work[j] = t[j].map_work / cap_m;
            e[j] = js->submit + t[j].lb - t[j].tail;
            if (js->n_maps > 0) {
                idx[m++] = j;
                base += t[j].tail;
                min_tail = fmin(min_tail, t[j].tail);
            } else {
                base += js->submit + t[j].lb;
            }
        }
        double s = 0;
        rc = machine_sum(m, idx, rel, work, e, buf, &s);
        if (!rc) {
            out->sum_map = base + s - rsum;
            /* the last map completion of a work-conserving schedule */
            double end = -INFINITY;
            for (int i = 0; i < m; i++)
                end = fmax(end, buf[2 * (size_t)m + i]);
            if (m > 0)
                out->makespan = fmax(out->makespan, end + min_tail - first);
        }
        /* the reduce machine over the jobs with reduces, the map machine
         * over the map-only ones */
        double total = 0;
        int r = 0;
        for (int j = 0; !rc && j < n; j++) {
            const so_cl_job_spec *js = &w->jobs[j];
            rel[j] = js->submit + t[j].open;
            work[j] = t[j].reduce_work / cap_r;
            e[j] = js->submit + t[j].lb;
            if (js->n_reduces > 0)
                idx[r++] = j;
            else if (js->n_maps == 0)
                total += e[j];
        }
        if (!rc)
            rc = machine_sum(r, idx, rel, work, e, buf, &s);
        if (!rc) {
            total += s;
            double end = -INFINITY;
            for (int i = 0; i < r; i++)
                end = fmax(end, buf[2 * (size_t)r + i]);
            if (r > 0)
                out->makespan = fmax(out->makespan, end - first);
            int k = 0;
            for (int j = 0; j < n; j++) {
                const so_cl_job_spec *js = &w->jobs[j];
                rel[j] = js->submit;
                work[j] = t[j].map_work / cap_m;
                if (js->n_reduces == 0 && js->n_maps > 0)
                    idx[k++] = j;
            }
            rc = machine_sum(k, idx, rel, work, e, buf, &s);
            total += s;
        }
        if (!rc)
            out->sum_reduce = total - rsum;
        out->sum = fmax(out->sum, fmax(out->sum_map, out->sum_reduce));
    }
    free(scratch);
    free(t);
    free(arr);
    free(idx);
    if (rc)
        so_cl_offline_bound_free(out);
    return rc;
}
