/* harness_cells.c — the cells of a run (instance x backend x repetition),
 * which of them still need running, and their stored rows afterwards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/harness/harness.h"

static const so_backend *reference_of(const so_hconfig *c, const char *problem)
{
    for (size_t i = 0; i < c->n_refs; i++)
        if (strcmp(c->refs[i]->problem, problem) == 0)
            return c->refs[i];
    return NULL;
}

int so_harness_cells(const so_hconfig *c, const so_hinsts *s, so_hcell **cells,
                     size_t *n, so_error *err)
{
    *cells = NULL;
    *n = 0;
    if (s->n == 0)
        return so_error_setf(err, NULL, 0, 0, NULL, "no instance to run");
    for (size_t i = 0; i < s->n; i++) {
        if (!s->v[i].problem) {
            if (!c->n_policies)
                return so_error_setf(err, NULL, 0, 0, NULL,
                                     "workload %s needs policies to run"
                                     " (--policies or \"policies\")", s->v[i].name);
            continue;
        }
        const char *kind = so_problem_kind(s->v[i].problem);
        if (!reference_of(c, kind))
            return so_error_setf(err, NULL, 0, 0, NULL,
                                 "no reference backend for '%s' instances such"
                                 " as %s (add one with --reference)",
                                 kind, s->v[i].name);
    }
    for (size_t b = 0; b < c->n_backends; b++) {
        size_t used = 0;
        for (size_t i = 0; i < s->n && !used; i++)
            used = s->v[i].problem &&
                   strcmp(c->backends[b]->problem, so_problem_kind(s->v[i].problem)) == 0;
        if (!used)
            return so_error_setf(err, NULL, 0, 0, NULL,
                                 "backend '%s' solves '%s' problems and no"
                                 " input is one", c->backends[b]->name,
                                 c->backends[b]->problem);
    }
    size_t cap = s->n * (c->n_backends + c->n_policies) * (size_t)c->reps;
    so_hcell *v = malloc((cap ? cap : 1) * sizeof *v);
    if (!v)
        return SO_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (!s->v[i].problem) { /* a workload: every policy, every seed */
            for (size_t p = 0; p < c->n_policies; p++)
                for (int r = 0; r < c->reps; r++)
                    v[k++] = (so_hcell){i, NULL, &c->policies[p], r};
            continue;
        }
        for (size_t b = 0; b < c->n_backends; b++) {
            if (strcmp(c->backends[b]->problem, so_problem_kind(s->v[i].problem)))
                continue;
            for (int r = 0; r < c->reps; r++)
                v[k++] = (so_hcell){i, c->backends[b], NULL, r};
        }
    }
    *cells = v;
    *n = k;
    return SO_OK;
}

int so_harness_row_lost(const so_hrow *row)
{
    return row->status && !strcmp(row->status, "killed") && row->message &&
           !strncmp(row->message, SO_HLOST_PREFIX, strlen(SO_HLOST_PREFIX)) &&
           strstr(row->message, SO_HLOST_WORD) != NULL;
}

int so_harness_todo(const so_hconfig *c, const so_hinsts *s, so_hstore *st,
                    so_hcell **cells_out, size_t *n_out, size_t **todo_out,
                    size_t *n_todo, so_error *err)
{
    *cells_out = NULL;
    *todo_out = NULL;
    *n_out = *n_todo = 0;
    so_hcell *cells = NULL;
    size_t n = 0;
    int rc = so_harness_cells(c, s, &cells, &n, err);
    for (size_t i = 0; !rc && i < c->n_refs; i++) {
        so_hkind k;
        snprintf(k.problem, sizeof k.problem, "%s", c->refs[i]->problem);
        snprintf(k.reference, sizeof k.reference, "%s", c->refs[i]->name);
        snprintf(k.group_by, sizeof k.group_by, "%s", c->group_by);
        rc = so_hstore_set_kind(st, &k, err);
    }
    int sims = 0;
    for (size_t i = 0; i < s->n && !sims; i++)
        sims = !s->v[i].problem;
    if (!rc && sims) {
        so_hkind k;
        snprintf(k.problem, sizeof k.problem, "sim");
        snprintf(k.reference, sizeof k.reference, "%s", c->sim_reference);
        snprintf(k.group_by, sizeof k.group_by, "%s", c->group_by[0] ? c->group_by : "workload");
        rc = so_hstore_set_kind(st, &k, err);
    }
    size_t *todo = rc ? NULL : malloc((n ? n : 1) * sizeof *todo);
    if (!rc && !todo)
        rc = SO_ENOMEM;
    size_t m = 0;
    for (size_t k = 0; !rc && k < n; k++) {
        /* a cell lost with its MPI rank was never run to its end: again */
        so_hrows row = {0};
        int done = 0;
        if (c->resume) {
            done = so_hstore_get(st, s->v[cells[k].inst].hash, so_hcell_name(&cells[k]),
                                 cells[k].rep, &row, err);
            if (!done)
                done = row.n > 0 && !so_harness_row_lost(&row.v[0]);
            so_hrows_free(&row);
        }
        if (done < 0)
            rc = SO_EIO;
        else if (!done)
            todo[m++] = k;
    }
    if (rc) {
        free(cells);
        free(todo);
        return rc;
    }
    *cells_out = cells;
    *n_out = n;
    *todo_out = todo;
    *n_todo = m;
    return SO_OK;
}

int so_harness_run(const so_hconfig *c, const so_hinsts *s, so_hstore *st,
                   size_t *ran, so_error *err)
{
    *ran = 0;
    so_hcell *cells = NULL;
    size_t n = 0, *todo = NULL, m = 0;
    int rc = so_harness_todo(c, s, st, &cells, &n, &todo, &m, err);
    for (size_t j = 0; !rc && j < m; j++)
        cells[j] = cells[todo[j]]; /* todo is increasing: j <= todo[j] */
    if (!rc && m)
        rc = so_harness_pool(c, s, cells, m, st, err);
    if (!rc)
        *ran = m;
    free(cells);
    free(todo);
    return rc;
}

int so_harness_select(const so_hconfig *c, const so_hinsts *s, so_hstore *st,
                      so_hrows *rows, so_error *err)
{
    memset(rows, 0, sizeof *rows);
    so_hcell *cells = NULL;
    size_t n = 0;
    int rc = so_harness_cells(c, s, &cells, &n, err);
    for (size_t k = 0; !rc && k < n; k++)
        rc = so_hstore_get(st, s->v[cells[k].inst].hash, so_hcell_name(&cells[k]),
                           cells[k].rep, rows, err);
    free(cells);
    if (rc)
        so_hrows_free(rows);
    return rc;
}
