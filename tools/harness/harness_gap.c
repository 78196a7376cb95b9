/* harness_gap.c — each cell's gap to its reference cell, and the summary
 * per problem, group and backend. The orientation rules (ratio >= 1 means
 * worse than the reference, whatever the sense) are in docs/harness.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/harness/harness.h"

#define TOL 1e-9

static double extra_number(const char *extras, const char *key)
{
    if (!extras)
        return NAN;
    json_t *o = json_loads(extras, 0, NULL);
    json_t *v = json_object_get(o, key);
    double x = json_is_number(v) ? json_number_value(v) : NAN;
    json_decref(o);
    return x;
}

/* Frontier problems: hypervolume ratio h in (0, 1] -> ratio 1/h. */
static int frontier_gap(const so_hrow *row, const so_hrow *ref, so_hgap *g)
{
    double h = extra_number(row->extras, "hypervolume_ratio");
    if (isnan(h)) {
        double hb = extra_number(row->extras, "hypervolume");
        double hr = extra_number(ref->extras, "hypervolume");
        if (isnan(hb) || isnan(hr))
            return 0;
        h = hr > 0 ? hb / hr : (hb > 0 ? INFINITY : 1);
    }
    g->ratio = h > 0 ? 1 / h : INFINITY;
    g->diff = 1 - h;
    g->optimal = h >= 1 - TOL;
    return 1;
}

int so_harness_ref_state(const so_hrow *ref)
{
    if (!ref || !ref->status)
        return SO_HREF_UNPROVEN;
    /* a simulated reference policy, or the harness's lower bound, is a
     * measured value: the comparison is exact (tools/harness/harness_sim.c) */
    if (!strcmp(ref->status, "optimal") || !strcmp(ref->status, "simulated") ||
        !strcmp(ref->status, "bound"))
        return SO_HREF_PROVEN;
    if (!strcmp(ref->status, "infeasible"))
        return SO_HREF_INFEASIBLE;
    return SO_HREF_UNPROVEN;
}

so_hgap so_harness_gap(const so_hrow *row, const so_hrow *ref)
{
    so_hgap g = {NAN, NAN, 0, so_harness_ref_state(ref)};
    /* An infeasible reference has no optimum to compare with (a cell that
     * agrees is not "optimal" either); one stopped at its limit, killed,
     * failed or merely feasible proves nothing: no ratio, no "optimal" —
     * these cells are counted apart in the summary. */
    if (g.ref_state != SO_HREF_PROVEN)
        return g;
    if (frontier_gap(row, ref, &g))
        return g;
    double v = row->objective, r = ref->objective;
    if (isnan(v) || isnan(r))
        return g;
    int max = row->sense == SO_MAXIMIZE;
    g.diff = max ? r - v : v - r;
    g.optimal = g.diff <= TOL * fmax(1, fabs(r));
    double worse = max ? r : v, better = max ? v : r; /* as if minimising */
    if (g.optimal && g.diff >= 0)
        g.ratio = 1;
    else if (better > 0 && worse > 0)
        g.ratio = worse / better;
    else if (better < 0 && worse < 0)
        g.ratio = better / worse;
    else if (r == 0 && g.diff > 0) /* a reference of 0, a worse answer */
        g.ratio = INFINITY;
    else if (worse == 0 && better > 0)
        g.ratio = 0;
    return g;
}

/* ---- finding the reference row of a cell ---------------------------------- */

static int cmp_key(const so_hrow *a, const char *hash, const char *backend, int rep)
{
    int c = strcmp(a->hash, hash);
    if (!c)
        c = strcmp(a->backend, backend);
    return c ? c : (a->rep > rep) - (a->rep < rep);
}

static int cmp_rows(const void *x, const void *y)
{
    const so_hrow *a = *(const so_hrow *const *)x, *b = *(const so_hrow *const *)y;
    return cmp_key(a, b->hash, b->backend, b->rep);
}

static const so_hrow *lookup(so_hrow **sorted, size_t n, const char *hash,
                             const char *backend, int rep)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = cmp_key(sorted[mid], hash, backend, rep);
        if (c == 0)
            return sorted[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static const so_hkind *kind_of(const so_hkinds *kinds, const char *problem)
{
    for (size_t i = 0; i < kinds->n; i++)
        if (!strcmp(kinds->v[i].problem, problem))
            return &kinds->v[i];
    return NULL;
}

/* ---- summaries ------------------------------------------------------------ */

static void group_of(const so_hrow *row, const char *group_by, char *out, size_t size)
{
    out[0] = '\0';
    if (!group_by || !group_by[0])
        return;
    json_t *p = row->params ? json_loads(row->params, 0, NULL) : NULL;
    json_t *v = json_object_get(p, group_by);
    if (!v && !strcmp(group_by, "family") && row->family) /* the family itself */
        snprintf(out, size, "family=%s", row->family);
    else if (json_is_string(v))
        snprintf(out, size, "%s=%s", group_by, json_string_value(v));
    else if (v) {
        char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        snprintf(out, size, "%s=%s", group_by, t ? t : "?");
        free(t);
    } else
        snprintf(out, size, "%s=-", group_by);
    json_decref(p);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static int is_solved(const char *status)
{
    return !strcmp(status, "optimal") || !strcmp(status, "feasible") ||
           !strcmp(status, "infeasible") || !strcmp(status, "unbounded") ||
           !strcmp(status, "simulated") || !strcmp(status, "bound");
}

/* Fills one summary from the cells with the same problem, group, backend. */
static int summarise(so_htables *t, const char *const *groups, size_t first,
                     so_hsummary *s)
{
    const so_hrow *r0 = t->cells[first].row;
    snprintf(s->problem, sizeof s->problem, "%s", r0->problem);
    snprintf(s->group, sizeof s->group, "%s", groups[first]);
    snprintf(s->backend, sizeof s->backend, "%s", r0->backend);
    double *ratios = malloc(t->n_cells * sizeof *ratios);
    const char **hashes = malloc(t->n_cells * sizeof *hashes);
    if (!ratios || !hashes) {
        free(ratios);
        free(hashes);
        return SO_ENOMEM;
    }
    double sum_sec = 0, sum_ratio = 0, sum_diff = 0, sum_obj = 0;
    size_t with_diff = 0, with_obj = 0;
    s->worst_diff = NAN;
    for (size_t k = first; k < t->n_cells; k++) {
        const so_hcellgap *c = &t->cells[k];
        if (strcmp(c->row->problem, s->problem) || strcmp(groups[k], s->group) ||
            strcmp(c->row->backend, s->backend))
            continue;
        hashes[s->cells++] = c->row->hash;
        s->solved += is_solved(c->row->status);
        s->optimal += c->gap.optimal;
        s->ref_proven += c->gap.ref_state == SO_HREF_PROVEN;
        s->ref_infeasible += c->gap.ref_state == SO_HREF_INFEASIBLE;
        s->ref_unproven += c->gap.ref_state == SO_HREF_UNPROVEN;
        if (isfinite(c->row->objective)) {
            sum_obj += c->row->objective;
            with_obj++;
        }
        double sec = isfinite(c->row->seconds) ? c->row->seconds : 0;
        sum_sec += sec;
        s->max_seconds = fmax(s->max_seconds, sec);
        if (!isnan(c->gap.ratio)) {
            ratios[s->with_ratio++] = c->gap.ratio;
            sum_ratio += c->gap.ratio;
        }
        if (!isnan(c->gap.diff)) {
            sum_diff += c->gap.diff;
            with_diff++;
            if (isnan(s->worst_diff) || c->gap.diff > s->worst_diff)
                s->worst_diff = c->gap.diff;
        }
    }
    s->mean_diff = with_diff ? sum_diff / (double)with_diff : NAN;
    s->mean_objective = with_obj ? sum_obj / (double)with_obj : NAN;
    qsort(hashes, s->cells, sizeof *hashes, cmp_str);
    for (size_t k = 0; k < s->cells; k++)
        s->instances += k == 0 || strcmp(hashes[k], hashes[k - 1]) != 0;
    s->mean_seconds = sum_sec / (double)s->cells;
    s->mean_ratio = s->median_ratio = s->worst_ratio = NAN;
    if (s->with_ratio) {
        qsort(ratios, s->with_ratio, sizeof *ratios, cmp_double);
        size_t m = s->with_ratio;
        s->mean_ratio = sum_ratio / (double)m;
        s->median_ratio = m % 2 ? ratios[m / 2] : (ratios[m / 2 - 1] + ratios[m / 2]) / 2;
        s->worst_ratio = ratios[m - 1];
    }
    free(ratios);
    free(hashes);
    return SO_OK;
}

/* What each kind's reference proved on its own cells (kinds with rows). */
static int reference_sums(const so_hrows *rows, const so_hkinds *kinds, so_htables *t)
{
    t->refs = calloc(kinds->n ? kinds->n : 1, sizeof *t->refs);
    if (!t->refs)
        return SO_ENOMEM;
    for (size_t k = 0; k < kinds->n; k++) {
        so_hrefsum *r = &t->refs[t->n_refs];
        memset(r, 0, sizeof *r);
        snprintf(r->problem, sizeof r->problem, "%s", kinds->v[k].problem);
        snprintf(r->backend, sizeof r->backend, "%s", kinds->v[k].reference);
        int any = 0;
        for (size_t i = 0; i < rows->n; i++) {
            const so_hrow *row = &rows->v[i];
            if (strcmp(row->problem, r->problem))
                continue;
            any = 1;
            if (strcmp(row->backend, r->backend))
                continue;
            r->cells++;
            int state = so_harness_ref_state(row);
            r->proven += state == SO_HREF_PROVEN;
            r->infeasible += state == SO_HREF_INFEASIBLE;
            if (state != SO_HREF_UNPROVEN)
                continue;
            r->unproven++;
            size_t j = 0;
            while (j < r->n_status && strcmp(r->status[j], row->status))
                j++;
            if (j == r->n_status && j < SO_HREF_STATUSES)
                snprintf(r->status[r->n_status++], sizeof r->status[0], "%s", row->status);
            if (j < r->n_status)
                r->status_count[j]++;
        }
        t->n_refs += any;
    }
    return SO_OK;
}

int so_harness_tables(const so_hrows *rows, const so_hkinds *kinds,
                      const char *group_by, so_htables *t)
{
    memset(t, 0, sizeof *t);
    size_t n = rows->n;
    so_hrow **sorted = malloc((n ? n : 1) * sizeof *sorted);
    char **groups = calloc(n ? n : 1, sizeof *groups);
    t->cells = calloc(n ? n : 1, sizeof *t->cells);
    t->sums = calloc(n ? n : 1, sizeof *t->sums);
    int rc = sorted && groups && t->cells && t->sums ? SO_OK : SO_ENOMEM;
    for (size_t i = 0; !rc && i < n; i++) {
        sorted[i] = &rows->v[i];
        char g[96];
        const so_hkind *k = kind_of(kinds, rows->v[i].problem);
        group_of(&rows->v[i], group_by ? group_by : k ? k->group_by : NULL, g, sizeof g);
        if (!(groups[i] = strdup(g)))
            rc = SO_ENOMEM;
    }
    if (!rc) {
        qsort(sorted, n, sizeof *sorted, cmp_rows);
        for (size_t i = 0; i < n; i++) {
            const so_hrow *row = &rows->v[i];
            const so_hkind *k = kind_of(kinds, row->problem);
            const char *rb = k ? k->reference : NULL;
            const so_hrow *ref = rb ? lookup(sorted, n, row->hash, rb, row->rep) : NULL;
            if (rb && !ref)
                ref = lookup(sorted, n, row->hash, rb, 0);
            t->cells[i] = (so_hcellgap){row, ref, so_harness_gap(row, ref), ""};
            snprintf(t->cells[i].group, sizeof t->cells[i].group, "%s", groups[i]);
        }
        t->n_cells = n;
    }
    for (size_t i = 0; !rc && i < n; i++) {
        int known = 0;
        for (size_t k = 0; k < t->n_sums && !known; k++)
            known = !strcmp(t->sums[k].problem, rows->v[i].problem) &&
                    !strcmp(t->sums[k].group, groups[i]) &&
                    !strcmp(t->sums[k].backend, rows->v[i].backend);
        if (!known)
            rc = summarise(t, (const char *const *)groups, i, &t->sums[t->n_sums++]);
    }
    if (!rc)
        rc = reference_sums(rows, kinds, t);
    for (size_t i = 0; groups && i < n; i++)
        free(groups[i]);
    free(groups);
    free(sorted);
    if (rc)
        so_htables_free(t);
    return rc;
}

void so_htables_free(so_htables *t)
{
    free(t->cells);
    free(t->sums);
    free(t->refs);
    memset(t, 0, sizeof *t);
}
