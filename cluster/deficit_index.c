/* deficit_index.c — jobs ordered by deficit in binary heaps, one per group
 * (deficit_index.h). Group g < n_pools holds pool g's jobs with explicit
 * targets (key: target - running attempts); the groups after it hold the
 * level members of one (level id, pool, weight) each (key: -running attempts; their
 * deficit is level x weight + key, computed as target - running is).
 * Complexity: a touch O(1); the repair of a touched job O(log J); an offer
 * O(G) for the groups' tops, plus O(k log k) when the first k jobs decline
 * (delay scheduling), the next ones taken from the heaps best first. */
#include <stdlib.h>
#include "cluster/deficit_index.h"

typedef struct entry {
    double key;
    int job;
} entry;

typedef struct group {
    int pool;          /* its jobs' pool (the pool maxima) */
    int lid;           /* level members: their level id */
    double weight;     /* 0: explicit targets */
    int next_class;    /* the level id's next level group, -1 none */
    entry *heap;
    int n, cap;
} group;

typedef struct phase_index {
    group *groups;
    int n_groups, cap_groups;
    int *first_class;  /* per level id: its first level group, -1 none */
    double *level;     /* per level id */
    int *group_of;     /* per job: its group, -1: explicit (pool's) */
    int *heap_of;      /* per job: the group whose heap holds it, -1 none */
    int *pos;          /* per job: its place in that heap */
    double *target;    /* per job: explicit target */
} phase_index;

typedef struct cand {
    double score;
    int job, group, at;
} cand;

struct so_cl_dx {
    const so_cl_workload *w;
    int n_jobs, n_pools;
    phase_index ph[SO_CL_PHASES];
    int *dirty, n_dirty;     /* jobs whose heap places are to repair */
    int *changed, n_changed; /* jobs touched since the last take */
    char *flags;             /* per job: 1 dirty, 2 changed */
    cand *cands;             /* candidate heap of a slow offer */
    int cap_cands;
};

enum { DIRTY = 1, CHANGED = 2 };

static void free_phase(phase_index *ph)
{
    for (int g = 0; g < ph->n_groups; g++)
        free(ph->groups[g].heap);
    free(ph->groups);
    free(ph->first_class);
    free(ph->level);
    free(ph->group_of);
    free(ph->heap_of);
    free(ph->pos);
    free(ph->target);
}

void so_cl_dx_free(so_cl_dx *dx)
{
    if (!dx)
        return;
    for (int k = 0; k < SO_CL_PHASES; k++)
        free_phase(&dx->ph[k]);
    free(dx->dirty);
    free(dx->changed);
    free(dx->flags);
    free(dx->cands);
    free(dx);
}

static int init_phase(phase_index *ph, int n_pools, int n_levels, int n_jobs)
{
    size_t nl = (size_t)n_levels + 1, nj = (size_t)n_jobs + 1;
    ph->cap_groups = n_pools > 0 ? n_pools : 1;
    ph->groups = calloc((size_t)ph->cap_groups, sizeof(group));
    ph->first_class = malloc(nl * sizeof(int));
    ph->level = calloc(nl, sizeof(double));
    ph->group_of = malloc(nj * sizeof(int));
    ph->heap_of = malloc(nj * sizeof(int));
    ph->pos = calloc(nj, sizeof(int));
    ph->target = calloc(nj, sizeof(double));
    if (!ph->groups || !ph->first_class || !ph->level || !ph->group_of ||
        !ph->heap_of || !ph->pos || !ph->target)
        return -1;
    ph->n_groups = n_pools;
    for (int p = 0; p < n_pools; p++)
        ph->groups[p] = (group){.pool = p, .lid = -1, .next_class = -1};
    for (int l = 0; l < n_levels; l++)
        ph->first_class[l] = -1;
    for (size_t j = 0; j < nj; j++)
        ph->group_of[j] = ph->heap_of[j] = -1;
    return 0;
}

so_cl_dx *so_cl_dx_new(const so_cl_sim *sim)
{
    return so_cl_dx_new_levels(sim, sim->w->n_pools);
}

so_cl_dx *so_cl_dx_new_levels(const so_cl_sim *sim, int n_levels)
{
    so_cl_dx *dx = calloc(1, sizeof *dx);
    if (!dx)
        return NULL;
    dx->w = sim->w;
    dx->n_jobs = sim->w->n_jobs;
    dx->n_pools = sim->w->n_pools;
    size_t nj = (size_t)dx->n_jobs + 1;
    int ok = 1;
    for (int k = 0; k < SO_CL_PHASES; k++)
        ok = ok && !init_phase(&dx->ph[k], dx->n_pools, n_levels, dx->n_jobs);
    dx->dirty = malloc(nj * sizeof(int));
    dx->changed = malloc(nj * sizeof(int));
    dx->flags = calloc(nj, 1);
    if (!ok || !dx->dirty || !dx->changed || !dx->flags) {
        so_cl_dx_free(dx);
        return NULL;
    }
    return dx;
}

/* ---- heaps --------------------------------------------------------------- */

/* Room for one more element in *v (of `size` bytes each, *n used): doubles
 * the capacity when full. Returns 0, or -1 when out of memory. */
static int grow(void **v, int n, int *cap, size_t size, int first)
{
    if (n < *cap)
        return 0;
    int c = *cap ? 2 * *cap : first;
    void *p = realloc(*v, (size_t)c * size);
    if (!p)
        return -1;
    *v = p;
    *cap = c;
    return 0;
}

static int ranks_before(const entry *a, const entry *b)
{
    return a->key > b->key || (a->key == b->key && a->job < b->job);
}

static void place(phase_index *ph, group *g, int at, entry e)
{
    g->heap[at] = e;
    ph->pos[e.job] = at;
}

static void sift_up(phase_index *ph, group *g, int at)
{
    entry e = g->heap[at];
    while (at > 0) {
        int up = (at - 1) / 2;
        if (!ranks_before(&e, &g->heap[up]))
            break;
        place(ph, g, at, g->heap[up]);
        at = up;
    }
    place(ph, g, at, e);
}

static void sift_down(phase_index *ph, group *g, int at)
{
    entry e = g->heap[at];
    for (;;) {
        int best = -1, l = 2 * at + 1, r = l + 1;
        const entry *bp = &e;
        if (l < g->n && ranks_before(&g->heap[l], bp)) {
            best = l;
            bp = &g->heap[l];
        }
        if (r < g->n && ranks_before(&g->heap[r], bp))
            best = r;
        if (best < 0)
            break;
        place(ph, g, at, g->heap[best]);
        at = best;
    }
    place(ph, g, at, e);
}

static int heap_add(phase_index *ph, int gi, int job, double key)
{
    group *g = &ph->groups[gi];
    if (grow((void **)&g->heap, g->n, &g->cap, sizeof *g->heap, 16))
        return -1;
    g->heap[g->n] = (entry){key, job};
    ph->heap_of[job] = gi;
    sift_up(ph, g, g->n++);
    return 0;
}

static void heap_drop(phase_index *ph, int job)
{
    group *g = &ph->groups[ph->heap_of[job]];
    int at = ph->pos[job];
    ph->heap_of[job] = -1;
    entry last = g->heap[--g->n];
    if (at == g->n)
        return;
    place(ph, g, at, last);
    sift_up(ph, g, at);
    sift_down(ph, g, ph->pos[last.job]);
}

static void heap_rekey(phase_index *ph, int job, double key)
{
    group *g = &ph->groups[ph->heap_of[job]];
    int at = ph->pos[job];
    if (g->heap[at].key == key)
        return;
    g->heap[at].key = key;
    sift_up(ph, g, at);
    sift_down(ph, g, ph->pos[job]);
}

/* ---- targets and touches ------------------------------------------------- */

static void mark(so_cl_dx *dx, int j, int what)
{
    if (!(dx->flags[j] & what) && what == DIRTY)
        dx->dirty[dx->n_dirty++] = j;
    if (!(dx->flags[j] & what) && what == CHANGED)
        dx->changed[dx->n_changed++] = j;
    dx->flags[j] |= (char)what;
}

void so_cl_dx_touch(so_cl_dx *dx, int j)
{
    mark(dx, j, DIRTY);
    mark(dx, j, CHANGED);
}

const int *so_cl_dx_take_changed(so_cl_dx *dx, int *n)
{
    *n = dx->n_changed;
    for (int k = 0; k < dx->n_changed; k++)
        dx->flags[dx->changed[k]] &= (char)~CHANGED;
    dx->n_changed = 0;
    return dx->changed;
}

void so_cl_dx_set_target(so_cl_dx *dx, int phase, int j, double target)
{
    phase_index *ph = &dx->ph[phase];
    ph->group_of[j] = -1;
    ph->target[j] = target;
    mark(dx, j, DIRTY);
}

int so_cl_dx_set_level_member(so_cl_dx *dx, int phase, int j, int lid,
                              double weight)
{
    phase_index *ph = &dx->ph[phase];
    int pool = dx->w->jobs[j].pool;
    int gi = ph->first_class[lid];
    while (gi >= 0 && (ph->groups[gi].weight != weight ||
                       ph->groups[gi].pool != pool))
        gi = ph->groups[gi].next_class;
    if (gi < 0) { /* a new (level id, pool, weight) class */
        if (grow((void **)&ph->groups, ph->n_groups, &ph->cap_groups,
                 sizeof *ph->groups, 1))
            return -1;
        gi = ph->n_groups++;
        ph->groups[gi] = (group){.pool = pool, .lid = lid, .weight = weight,
                                 .next_class = ph->first_class[lid]};
        ph->first_class[lid] = gi;
    }
    ph->group_of[j] = gi;
    mark(dx, j, DIRTY);
    return 0;
}

void so_cl_dx_set_level(so_cl_dx *dx, int phase, int lid, double level)
{
    dx->ph[phase].level[lid] = level;
}

double so_cl_dx_target(const so_cl_dx *dx, int phase, int j)
{
    const phase_index *ph = &dx->ph[phase];
    int gi = ph->group_of[j];
    if (gi < 0)
        return ph->target[j];
    return ph->level[ph->groups[gi].lid] * ph->groups[gi].weight;
}

/* Puts job j where its state says: in its group's heap, with its key, iff
 * it wants a slot of the phase. */
static int repair(so_cl_dx *dx, const so_cl_sim *sim, int phase, int j)
{
    phase_index *ph = &dx->ph[phase];
    const so_cl_jobrt *job = &sim->jobs[j];
    int want = job->in_list[phase] && (so_cl_pending(job, phase) > 0 ||
                                       so_cl_may_copy(sim, j, phase));
    if (!want) {
        if (ph->heap_of[j] >= 0)
            heap_drop(ph, j);
        return 0;
    }
    int gi = ph->group_of[j] >= 0 ? ph->group_of[j] : job->spec->pool;
    double key = ph->groups[gi].weight > 0
                     ? -(double)job->n_running[phase]
                     : ph->target[j] - job->n_running[phase];
    if (ph->heap_of[j] == gi) {
        heap_rekey(ph, j, key);
        return 0;
    }
    if (ph->heap_of[j] >= 0)
        heap_drop(ph, j);
    return heap_add(ph, gi, j, key);
}

static int flush(so_cl_dx *dx, const so_cl_sim *sim)
{
    int rc = 0;
    for (int k = 0; k < dx->n_dirty; k++) {
        int j = dx->dirty[k];
        dx->flags[j] &= (char)~DIRTY;
        for (int phase = 0; phase < SO_CL_PHASES; phase++)
            if (repair(dx, sim, phase, j))
                rc = -1;
    }
    dx->n_dirty = 0;
    return rc;
}

/* ---- offers -------------------------------------------------------------- */

static cand candidate(const phase_index *ph, int gi, int at)
{
    const group *g = &ph->groups[gi];
    const entry *e = &g->heap[at];
    /* a level member's deficit, as target - running with target = level x w */
    double score = g->weight > 0 ? ph->level[g->lid] * g->weight + e->key
                                 : e->key;
    return (cand){score, e->job, gi, at};
}

static int cand_before(const cand *a, const cand *b)
{
    return a->score > b->score || (a->score == b->score && a->job < b->job);
}

static int pool_full(const so_cl_sim *sim, int pool, int phase)
{
    int max = sim->w->pools[pool].max_share[phase];
    return max >= 0 && sim->pool_running[phase][pool] >= max;
}

static int cand_push(so_cl_dx *dx, int *n, cand c)
{
    if (grow((void **)&dx->cands, *n, &dx->cap_cands, sizeof *dx->cands, 64))
        return -1;
    int at = (*n)++;
    while (at > 0 && cand_before(&c, &dx->cands[(at - 1) / 2])) {
        dx->cands[at] = dx->cands[(at - 1) / 2];
        at = (at - 1) / 2;
    }
    dx->cands[at] = c;
    return 0;
}

static cand cand_pop(so_cl_dx *dx, int *n)
{
    cand top = dx->cands[0], c = dx->cands[--*n];
    int at = 0;
    for (;;) {
        int best = -1, l = 2 * at + 1, r = l + 1;
        const cand *bp = &c;
        if (l < *n && cand_before(&dx->cands[l], bp)) {
            best = l;
            bp = &dx->cands[l];
        }
        if (r < *n && cand_before(&dx->cands[r], bp))
            best = r;
        if (best < 0)
            break;
        dx->cands[at] = dx->cands[best];
        at = best;
    }
    if (*n > 0)
        dx->cands[at] = c;
    return top;
}

/* Pushes the heap children of candidate c (the next jobs of its group). */
static int push_children(so_cl_dx *dx, const phase_index *ph, int *n, cand c)
{
    const group *g = &ph->groups[c.group];
    for (int at = 2 * c.at + 1; at <= 2 * c.at + 2 && at < g->n; at++)
        if (cand_push(dx, n, candidate(ph, c.group, at)))
            return -1;
    return 0;
}

int so_cl_dx_assign(so_cl_dx *dx, so_cl_sim *sim, int node, int phase,
                    so_cl_try_fn try_job, void *ctx)
{
    if (flush(dx, sim))
        return -1;
    phase_index *ph = &dx->ph[phase];
    int best = -1;
    cand top = {0};
    for (int gi = 0; gi < ph->n_groups; gi++) {
        const group *g = &ph->groups[gi];
        if (g->n == 0 || pool_full(sim, g->pool, phase))
            continue;
        cand c = candidate(ph, gi, 0);
        if (best < 0 || cand_before(&c, &top)) {
            best = gi;
            top = c;
        }
    }
    if (best < 0)
        return 0;
    if (try_job(ctx, sim, top.job, node, phase))
        return 1;
    /* slow path (a job declined): the rest best first */
    int n = 0;
    for (int gi = 0; gi < ph->n_groups; gi++) {
        const group *g = &ph->groups[gi];
        if (gi != best && g->n > 0 && !pool_full(sim, g->pool, phase) &&
            cand_push(dx, &n, candidate(ph, gi, 0)))
            return -1;
    }
    if (push_children(dx, ph, &n, top))
        return -1;
    while (n > 0) {
        cand c = cand_pop(dx, &n);
        if (try_job(ctx, sim, c.job, node, phase))
            return 1;
        if (push_children(dx, ph, &n, c))
            return -1;
    }
    return 0;
}
