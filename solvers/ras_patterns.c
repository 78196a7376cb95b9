/* ras_patterns.c — classes of identical TaskTrackers and the node patterns
 * of each (see ras_patterns.h): the columns of ras-exact's configuration
 * MILP (Gilmore and Gomory's cutting-stock model applied to the capacities
 * of eq. 6 of Polo et al., Middleware 2011). Enumeration is depth-first over
 * the types, each count from 0 up to what fits; a pattern holds reducers of
 * one shuffle level per job, since a job has a single map total. */
#include <stdlib.h>
#include <string.h>
#include "solvers/common/deadline.h"
#include "solvers/ras_patterns.h"

void so_ras_patterns_free(so_ras_patterns *pt)
{
    for (size_t t = 0; t < pt->n_types; t++)
        free(pt->types[t].demand);
    free(pt->types);
    free(pt->class_of);
    free(pt->class_count);
    free(pt->class_first);
    free(pt->pattern_class);
    free(pt->counts);
    memset(pt, 0, sizeof *pt);
}

static int levelled(const so_ras_job *job, size_t R)
{
    if (job->reduce_phase || job->r_pend == 0)
        return 0;
    for (size_t r = 0; r < R; r++)
        if (job->shuffle[r] != 0)
            return 1;
    return 0;
}

static int add_type(so_ras_patterns *pt, const so_ras *ras, size_t j,
                    int reducer, int level)
{
    so_ras_type *t = &pt->types[pt->n_types];
    t->job = j;
    t->reducer = reducer;
    t->level = level;
    t->demand = malloc((ras->R + 1) * sizeof *t->demand);
    if (!t->demand)
        return SO_ENOMEM;
    const so_ras_job *job = &ras->jobs[j];
    for (size_t r = 0; r < ras->R; r++)
        t->demand[r] = !reducer ? job->map[r]
                       : so_ras_reducer_demand(job, level < 0 ? 0 : level, r);
    pt->n_types++;
    return SO_OK;
}

typedef struct {
    const so_ras *ras;
    so_ras_patterns *pt;
    size_t max, cls, cap_patterns;
    const double *cap;
    double *load;
    int *cur;
    int *level_of; /* J: shuffle level used by the pattern's reducers, -1 */
    int overflow, nomem;
    so_clock clock; /* read at every 1024th node */
} walk;

static int fits(const walk *w, const double *d)
{
    for (size_t r = 0; r < w->ras->R; r++)
        if (!so_ras_fits(w->load[r] + d[r], w->cap[r]))
            return 0;
    return 1;
}

static void emit(walk *w)
{
    so_ras_patterns *pt = w->pt;
    if (pt->n_patterns >= w->max) {
        w->overflow = 1;
        return;
    }
    if (pt->n_patterns == w->cap_patterns) {
        size_t c = w->cap_patterns ? 2 * w->cap_patterns : 256;
        int *counts = realloc(pt->counts, c * pt->n_types * sizeof *counts);
        if (counts)
            pt->counts = counts;
        size_t *cl = realloc(pt->pattern_class, c * sizeof *cl);
        if (cl)
            pt->pattern_class = cl;
        if (!counts || !cl) {
            w->nomem = 1;
            return;
        }
        w->cap_patterns = c;
    }
    memcpy(pt->counts + pt->n_patterns * pt->n_types, w->cur,
           pt->n_types * sizeof *w->cur);
    pt->pattern_class[pt->n_patterns++] = w->cls;
}

static void dfs(walk *w, size_t t)
{
    so_ras_patterns *pt = w->pt;
    if (w->overflow || w->nomem || so_clock_over(&w->clock))
        return;
    if (t == pt->n_types) {
        emit(w);
        return;
    }
    const so_ras_type *ty = &pt->types[t];
    const so_ras_job *job = &w->ras->jobs[ty->job];
    int limit = ty->reducer ? job->r_pend : job->s_pend;
    if (ty->level >= 0 && w->level_of[ty->job] >= 0)
        limit = 0; /* reducers of another level already */
    dfs(w, t + 1);
    int k = 0;
    while (k < limit && fits(w, ty->demand) && !w->overflow && !w->nomem &&
           !w->clock.over) {
        for (size_t r = 0; r < w->ras->R; r++)
            w->load[r] += ty->demand[r];
        k++;
        w->cur[t] = k;
        if (ty->level >= 0)
            w->level_of[ty->job] = ty->level;
        dfs(w, t + 1);
    }
    for (size_t r = 0; r < w->ras->R; r++)
        w->load[r] -= k * ty->demand[r];
    w->cur[t] = 0;
    if (ty->level >= 0 && k > 0)
        w->level_of[ty->job] = -1;
}

int so_ras_patterns_build(const so_ras *ras, size_t max_patterns,
                          so_ras_patterns *pt)
{
    return so_ras_patterns_build_until(ras, max_patterns, 0, pt);
}

int so_ras_patterns_build_until(const so_ras *ras, size_t max_patterns,
                                double deadline, so_ras_patterns *pt)
{
    memset(pt, 0, sizeof *pt);
    size_t R = ras->R, TT = ras->TT, J = ras->J, n = 0;
    for (size_t j = 0; j < J; j++) {
        const so_ras_job *job = &ras->jobs[j];
        int top = job->s_pend < job->parallel_copies ? job->s_pend
                                                     : job->parallel_copies;
        n += 1 + (levelled(job, R) ? (size_t)top + 1 : 1);
    }
    pt->types = calloc(n + 1, sizeof *pt->types);
    pt->class_of = calloc(TT + 1, sizeof *pt->class_of);
    pt->class_count = calloc(TT + 1, sizeof *pt->class_count);
    pt->class_first = calloc(TT + 1, sizeof *pt->class_first);
    walk w = {0};
    w.clock = (so_clock)SO_CLOCK_INIT(deadline, 10);
    w.load = calloc(R + 1, sizeof *w.load);
    w.cur = calloc(n + 1, sizeof *w.cur);
    w.level_of = malloc((J + 1) * sizeof *w.level_of);
    int rc = pt->types && pt->class_of && pt->class_count && pt->class_first &&
             w.load && w.cur && w.level_of ? SO_OK : SO_ENOMEM;
    for (size_t j = 0; j < J && !rc; j++) {
        const so_ras_job *job = &ras->jobs[j];
        if (job->s_pend > 0)
            rc = add_type(pt, ras, j, 0, -1);
        if (job->r_pend == 0 || rc)
            continue;
        if (!levelled(job, R)) {
            rc = add_type(pt, ras, j, 1, -1);
            continue;
        }
        int top = job->s_pend < job->parallel_copies ? job->s_pend
                                                     : job->parallel_copies;
        for (int m = 0; m <= top && !rc; m++)
            rc = add_type(pt, ras, j, 1, m);
    }
    for (size_t tt = 0; tt < TT && !rc; tt++) {
        size_t c = 0;
        while (c < pt->n_classes &&
               memcmp(&ras->capacity[pt->class_first[c] * R],
                      &ras->capacity[tt * R], R * sizeof(double)))
            c++;
        if (c == pt->n_classes)
            pt->class_first[pt->n_classes++] = tt;
        pt->class_of[tt] = c;
        pt->class_count[c]++;
    }
    w.ras = ras;
    w.pt = pt;
    w.max = max_patterns;
    for (size_t j = 0; j < J; j++)
        w.level_of[j] = -1;
    for (size_t c = 0; c < pt->n_classes && !rc; c++) {
        w.cls = c;
        w.cap = &ras->capacity[pt->class_first[c] * R];
        dfs(&w, 0);
        if (w.nomem)
            rc = SO_ENOMEM;
        else if (w.overflow)
            rc = SO_EUNSUPPORTED;
        else if (w.clock.over)
            rc = SO_TIMELIMIT;
    }
    free(w.load);
    free(w.cur);
    free(w.level_of);
    if (rc)
        so_ras_patterns_free(pt);
    return rc;
}
