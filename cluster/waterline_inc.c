/*
 * waterline_inc.c — the waterline of the Hadoop fair scheduler (fair_share.c:
 * Hadoop's SchedulingAlgorithms.computeFairShares, solved exactly by a sweep
 * over breakpoints; FLEX, Wolf et al., Middleware 2010, sec. 1) without a
 * sort per call.
 *
 * so_cl_waterline sorts the 2n breakpoints r = m_i' / w_i (entity i starts
 * to follow the water level) and r = d_i / w_i (it stops at its demand) by
 * (r, entering first, i) and sweeps them: O(n log n) per call, called by the
 * fair scheduler for every pool and phase every epoch (0.5 s) although from
 * one epoch to the next only the jobs that launched or finished tasks move.
 * Here both lists are kept, sorted, from the previous call: ids that left
 * are dropped, new ids are appended, and an insertion sort puts the moved
 * and new ones back in place, O(n + moves). When the moves exceed 8n + 64
 * (a wholesale change) the list is sorted again with qsort instead, so a
 * call never costs more than the from-scratch one by more than a constant.
 * When the members are those of the previous call (most epochs), the
 * membership repair is skipped: one comparison of the id lists.
 * The merged sweep visits the breakpoints in exactly so_cl_waterline's order
 * (ties: entering first, then by id, and ids ascend with positions), and
 * the sums are taken in the same order, so shares are bit-identical.
 */
#include <stdlib.h>
#include <string.h>
#include "cluster/fair_share.h"
#include "cluster/waterline_inc.h"

int so_cl_wl_space_init(so_cl_wl_space *sp, int n_ids)
{
    sp->n_ids = n_ids;
    sp->gen = 0;
    sp->stamp = calloc((size_t)n_ids + 1, sizeof *sp->stamp);
    sp->pos = calloc((size_t)n_ids + 1, sizeof *sp->pos);
    if (!sp->stamp || !sp->pos) {
        so_cl_wl_space_free(sp);
        return -1;
    }
    return 0;
}

void so_cl_wl_space_free(so_cl_wl_space *sp)
{
    free(sp->stamp);
    free(sp->pos);
    sp->stamp = NULL;
    sp->pos = NULL;
}

void so_cl_wl_init(so_cl_wl *wl)
{
    *wl = (so_cl_wl){0};
}

void so_cl_wl_free(so_cl_wl *wl)
{
    free(wl->enter);
    free(wl->leave);
    free(wl->key);
    free(wl->ids);
    so_cl_wl_init(wl);
}

static int reserve(so_cl_wl *wl, int n)
{
    if (n <= wl->cap)
        return 0;
    int cap = wl->cap ? wl->cap : 64;
    while (cap < n)
        cap *= 2;
    int *e = realloc(wl->enter, (size_t)cap * sizeof *e);
    if (!e)
        return -1;
    wl->enter = e;
    int *l = realloc(wl->leave, (size_t)cap * sizeof *l);
    if (!l)
        return -1;
    wl->leave = l;
    double *k = realloc(wl->key, (size_t)cap * sizeof *k);
    if (!k)
        return -1;
    wl->key = k;
    int *ids = realloc(wl->ids, (size_t)cap * sizeof *ids);
    if (!ids)
        return -1;
    wl->ids = ids;
    wl->cap = cap;
    return 0;
}

typedef struct keyed {
    double r;
    int id;
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->r != y->r)
        return x->r < y->r ? -1 : 1;
    return x->id - y->id;
}

/* Sorts ids[0..n-1] by (key, id), keys given in wl->key in the same order:
 * insertion from the previous order, qsort once it moves too much. */
static int sort_list(so_cl_wl *wl, int *ids, int n)
{
    double *key = wl->key;
    long long budget = 8LL * n + 64, moves = 0;
    for (int a = 1; a < n; a++) {
        double r = key[a];
        int id = ids[a], b = a;
        while (b > 0 && (key[b - 1] > r || (key[b - 1] == r && ids[b - 1] > id))) {
            key[b] = key[b - 1];
            ids[b] = ids[b - 1];
            b--;
        }
        key[b] = r;
        ids[b] = id;
        moves += a - b;
        if (moves > budget) {
            keyed *tmp = malloc((size_t)n * sizeof *tmp);
            if (!tmp)
                return -1;
            for (int k = 0; k < n; k++)
                tmp[k] = (keyed){key[k], ids[k]};
            qsort(tmp, (size_t)n, sizeof *tmp, by_key);
            for (int k = 0; k < n; k++) {
                key[k] = tmp[k].r;
                ids[k] = tmp[k].id;
            }
            free(tmp);
            wl->resorts++;
            break;
        }
    }
    wl->shifts += moves;
    return 0;
}

/* Drops ids not in this call, appends the new ones (both lists hold the
 * same id set). */
static int refresh_members(so_cl_wl *wl, so_cl_wl_space *sp, int n,
                           const int *ids)
{
    if (reserve(wl, n > wl->n ? n : wl->n))
        return -1;
    unsigned now = sp->gen, kept = sp->gen + 1;
    int m = 0;
    for (int k = 0; k < wl->n; k++)
        if (sp->stamp[wl->enter[k]] == now) {
            sp->stamp[wl->enter[k]] = kept;
            wl->enter[m++] = wl->enter[k];
        }
    int m2 = 0;
    for (int k = 0; k < wl->n; k++)
        if (sp->stamp[wl->leave[k]] == kept)
            wl->leave[m2++] = wl->leave[k];
    for (int k = 0; k < n; k++)
        if (sp->stamp[ids[k]] == now) {
            sp->stamp[ids[k]] = kept;
            wl->enter[m++] = ids[k];
            wl->leave[m2++] = ids[k];
        }
    wl->n = m;
    return 0;
}

int so_cl_wl_solve(so_cl_wl *wl, so_cl_wl_space *sp, int n, const int *ids,
                   const double *weight, const double *min_share,
                   const double *demand, double slots, double *share)
{
    double sum_min, total;
    if (so_cl_waterline_minima(n, min_share, demand, slots, share, &sum_min, &total))
        return 0;
    /* the same members as the last sorted call (the usual epoch): the lists
     * hold exactly them; pos[] is checked (an id may have visited another
     * waterline of the space since) */
    int same = n == wl->n && n <= wl->cap &&
               memcmp(ids, wl->ids, (size_t)n * sizeof *ids) == 0;
    for (int k = 0; same && k < n; k++)
        same = sp->pos[ids[k]] == k;
    if (!same) {
        sp->gen += 2;
        if (sp->gen < 2) { /* wrapped: no stamp may look current */
            for (int k = 0; k <= sp->n_ids; k++)
                sp->stamp[k] = 0;
            sp->gen = 2;
        }
        for (int k = 0; k < n; k++) {
            sp->stamp[ids[k]] = sp->gen;
            sp->pos[ids[k]] = k;
        }
        if (refresh_members(wl, sp, n, ids)) {
            wl->n = 0; /* rebuilt from nothing next time */
            return -1;
        }
        memcpy(wl->ids, ids, (size_t)n * sizeof *ids);
    }
    for (int k = 0; k < n; k++) {
        int i = sp->pos[wl->enter[k]];
        wl->key[k] = share[i] / weight[i];
    }
    if (sort_list(wl, wl->enter, n))
        return -1;
    for (int k = 0; k < n; k++) {
        int i = sp->pos[wl->leave[k]];
        wl->key[k] = demand[i] / weight[i];
    }
    if (sort_list(wl, wl->leave, n))
        return -1;
    /* the sweep of so_cl_waterline over the merged lists */
    double c = sum_min, slope = 0, level = 0;
    int a = 0, b = 0;
    while (a < n || b < n) {
        int ia = a < n ? sp->pos[wl->enter[a]] : -1;
        int ib = b < n ? sp->pos[wl->leave[b]] : -1;
        double ra = ia >= 0 ? share[ia] / weight[ia] : 0;
        double rb = ib >= 0 ? demand[ib] / weight[ib] : 0;
        int enter = ib < 0 || (ia >= 0 && (ra < rb || (ra == rb)));
        double r = enter ? ra : rb;
        int i = enter ? ia : ib;
        if (c + slope * r >= total) {
            level = slope > 0 ? (total - c) / slope : r;
            break;
        }
        if (enter) {
            c -= share[i];
            slope += weight[i];
            a++;
        } else {
            c += demand[i];
            slope -= weight[i];
            b++;
        }
        level = r;
    }
    for (int i = 0; i < n; i++) {
        double s = level * weight[i];
        if (s < share[i])
            s = share[i];
        share[i] = s < demand[i] ? s : demand[i];
    }
    return 0;
}
