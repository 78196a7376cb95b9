/* tour.c — `slotopt tour`, the main job (`make run`): one short table per
 * paper, each from a harness scenario (docs/harness.md), so every number
 * of the tour is a stored cell with the command that reproduces it.
 *
 * Choices:
 * - A section is a scenario file, found like `bench --scenario` finds it:
 *   changing an experiment (e.g. the FLEX reference flex-exact for a later
 *   flex-opt backend) is an edit of its JSON, not of this file, and the
 *   tables name whatever reference the scenario declares.
 * - Tables are ungrouped (one row per backend or policy over all of the
 *   section's cells); `bench --scenario NAME` gives the grouped tables.
 * - Solve sections leave out the reference's own row (ratio 1 by
 *   definition) and say on how many cells the reference proved its optimum
 *   (docs/harness.md, "Only a proven reference gives a gap"); simulation
 *   sections keep every policy, the reference included, since its mean
 *   response time is the yardstick.
 * - The sections run one after the other into one database (problem kinds
 *   differ between sections; each section's kind is recorded by its run),
 *   each from scratch (no resume): the tour always shows fresh results. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/harness/harness.h"
#include "tools/cli/tour.h"
#include "tools/output/table.h"

const so_tour_section so_tour_sections[] = {
    {"flex-fig5",
     "FLEX (Wolf et al., Middleware 2010), Fig. 5 base case: FIFO, FAIR, FLEX vs the optimum",
     SO_TOUR_RATIO, "weighted response time / the optimum's", "docs/flex.md", "flex-fig5"},
    {"tour-pareto",
     "Pareto (Zacheilas, Kalogeraki, EURASIP JES 2017), Figs. 13-15: greedy vs exact frontier",
     SO_TOUR_RATIO, "exact frontier's hypervolume / the greedy's", "docs/pareto.md",
     "pareto-figs13-15"},
    {"tour-ras-gap",
     "RAS (Polo et al., Middleware 2011), Algorithm 1: placement heuristic vs the optimum",
     SO_TOUR_DIFF, "lowest job utility below the optimum's", "docs/ras.md", "ras-gap"},
    {"swim-fb2009",
     "SWIM replay (Facebook 2009, one day, 5,894 jobs, 100 nodes): FLEX, WPBS, stealing + BASE",
     SO_TOUR_SIM, "mean response", "docs/cluster.md", "swim-fb2009"},
    {"tour-offline",
     "Offline optimum on FLEX's Sec. 4.2 cluster (5 jobs): policy / optimum is between ratio"
     " and ratio / lp-bound's ratio",
     SO_TOUR_SIM, "mean response", "docs/offline.md", "offline-flex-cluster"},
    {"tour-offline-exact",
     "Exact online gap on FLEX's Sec. 4.2 cluster (20 jobs, equal task times): policy / the"
     " optimum",
     SO_TOUR_SIM, "mean response", "docs/offline.md", "offline-flex-cluster"},
    {NULL, NULL, 0, NULL, NULL, NULL},
};

static const char *reference_of(const so_hconfig *c, const char *problem)
{
    if (!strcmp(problem, "sim"))
        return c->sim_reference;
    for (size_t i = 0; i < c->n_refs; i++)
        if (!strcmp(c->refs[i]->problem, problem))
            return c->refs[i]->name;
    return "";
}

/* The table, indented, then what its numbers are. */
static void put_table(FILE *out, so_table *t, const char *legend)
{
    if (t)
        so_table_write_indented(out, t, "  ");
    fprintf(out, "  %s\n", legend);
    so_table_free(t);
}

static void print_solve(FILE *out, const so_tour_section *sec, const so_hconfig *c,
                        const so_htables *t)
{
    static const so_tcol cols[] = {{"backend", SO_COL_TEXT, NULL},
                                   {"gap on", SO_COL_TEXT, NULL},
                                   {"optimal", SO_COL_REAL, "%.0f %%"},
                                   {"mean", SO_COL_REAL, "%.3f"},
                                   {"worst", SO_COL_REAL, "%.3f"}};
    so_table *g = so_table_with(cols, 5);
    so_table_align(g, 1, 0);
    const char *ref = t->n_sums ? reference_of(c, t->sums[0].problem) : "";
    for (size_t i = 0; g && i < t->n_sums; i++) {
        const so_hsummary *s = &t->sums[i];
        if (!strcmp(s->backend, reference_of(c, s->problem)))
            continue;
        char proven[64];
        snprintf(proven, sizeof proven, "%zu/%zu", s->ref_proven, s->cells);
        so_table_row(g);
        so_table_text(g, 0, s->backend);
        so_table_text(g, 1, proven);
        if (s->ref_proven)
            so_table_real(g, 2, 100.0 * (double)s->optimal / (double)s->ref_proven);
        int diff = sec->view == SO_TOUR_DIFF;
        so_table_real(g, 3, diff ? s->mean_diff : s->mean_ratio);
        so_table_real(g, 4, diff ? s->worst_diff : s->worst_ratio);
    }
    char legend[512];
    snprintf(legend, sizeof legend, "%s = %s (%s)",
             sec->view == SO_TOUR_DIFF ? "difference" : "ratio", sec->measure, ref);
    put_table(out, g, legend);
}

/* The reference's cells whose status is "optimal" (offline-opt's schedule
 * met lp-bound), of its cells. */
static size_t proved_cells(const so_hconfig *c, const so_hrows *rows, size_t *of)
{
    size_t n = 0;
    *of = 0;
    for (size_t i = 0; i < rows->n; i++)
        if (!strcmp(rows->v[i].backend, c->sim_reference)) {
            ++*of;
            n += rows->v[i].status && !strcmp(rows->v[i].status, "optimal");
        }
    return n;
}

static void print_sim(FILE *out, const so_hconfig *c, const so_hrows *rows,
                      const so_htables *t)
{
    const char *unit = strcmp(c->metric, "makespan") ? "response" : "makespan";
    char head1[96];
    snprintf(head1, sizeof head1, "%s (s)", !strcmp(c->metric, "mean_response") ? "mean response"
             : c->metric);
    const so_tcol cols[] = {{"policy", SO_COL_TEXT, NULL},
                            {head1, SO_COL_REAL, "%.1f"},
                            {"ratio", SO_COL_REAL, "%.3f"}};
    so_table *g = so_table_with(cols, 3);
    for (size_t i = 0; g && i < t->n_sums; i++) {
        const so_hsummary *s = &t->sums[i];
        so_table_row(g);
        so_table_text(g, 0, s->backend);
        so_table_real(g, 1, s->mean_objective);
        so_table_real(g, 2, s->mean_ratio);
    }
    char legend[512];
    size_t of, proved = proved_cells(c, rows, &of);
    int len = snprintf(legend, sizeof legend, "ratio = %s / %s's", unit, c->sim_reference);
    if (proved)
        snprintf(legend + len, sizeof legend - (size_t)len,
                 ";\n  %s proved optimal on %zu of %zu cells (its schedule meets lp-bound):"
                 "\n  there the ratio is the exact gap",
                 c->sim_reference, proved, of);
    put_table(out, g, legend);
}

/* A section's scenario, read before anything runs. */
typedef struct tour_input {
    so_hconfig c;
    so_hinsts s;
} tour_input;

static int read_section(const so_tour_section *sec, int jobs, tour_input *in, so_error *err)
{
    char path[PATH_MAX];
    so_hconfig_init(&in->c);
    if (so_scenario_find(sec->scenario, path, sizeof path))
        return so_error_setf(err, NULL, 0, 0, NULL, "tour: no scenario '%s' (looked in"
                             " $SLOTOPT_SCENARIOS, instances/scenarios/ and beside the"
                             " program)", sec->scenario);
    int rc = so_scenario_read(path, &in->c, &in->s, err);
    if (!rc && jobs > 0)
        in->c.jobs = jobs;
    if (!rc)
        rc = so_hconfig_check_sim(&in->c, err);
    return rc;
}

/* One section: run, tabulate, print. */
static int section(FILE *out, const so_tour_section *sec, int index, so_hstore *st,
                   tour_input *in, size_t *cells, so_error *err)
{
    so_hrows rows = {0};
    so_hkinds kinds = {0};
    double t0 = so_now();
    size_t ran = 0;
    int rc = so_harness_run(&in->c, &in->s, st, &ran, err);
    if (!rc)
        rc = so_harness_select(&in->c, &in->s, st, &rows, err);
    if (!rc)
        rc = so_hstore_kinds(st, &kinds, err);
    so_htables t;
    if (!rc && !(rc = so_harness_tables(&rows, &kinds, "", &t))) {
        fprintf(out, "%d. %s\n", index, sec->heading);
        if (sec->view == SO_TOUR_SIM)
            print_sim(out, &in->c, &rows, &t);
        else
            print_solve(out, sec, &in->c, &t);
        fprintf(out, "  (%zu cells, %.1f s; more: slotopt bench --scenario %s, %s;\n"
                     "   the full experiment: slotopt bench --scenario %s --db F, then\n"
                     "   slotopt report --scenario %s --db F; all: slotopt scenarios)\n\n",
                rows.n, so_now() - t0, sec->scenario, sec->doc, sec->full, sec->full);
        fflush(out);
        *cells += rows.n;
        so_htables_free(&t);
    }
    so_hrows_free(&rows);
    so_hkinds_free(&kinds);
    return rc;
}

int so_tour_run(FILE *out, const char *db, int jobs, so_error *err)
{
    int n = 0;
    while (so_tour_sections[n].scenario)
        n++;
    tour_input *in = calloc((size_t)n, sizeof *in);
    if (!in)
        return SO_ENOMEM;
    int rc = SO_OK;
    /* every scenario is read first: a bad one stops the tour before it prints */
    for (int i = 0; !rc && i < n; i++)
        rc = read_section(&so_tour_sections[i], jobs, &in[i], err);
    so_hstore *st = NULL;
    if (!rc)
        rc = so_hstore_open(db, 1, &st, err);
    double t0 = so_now();
    size_t cells = 0;
    for (int i = 0; !rc && i < n; i++)
        rc = section(out, &so_tour_sections[i], i + 1, st, &in[i], &cells, err);
    if (!rc)
        fprintf(out, "%d sections, %zu cells in %.1f s; every cell is in %s"
                " (slotopt report --db %s)\n", n, cells, so_now() - t0, db, db);
    if (rc)
        so_hstore_discard(st);
    else
        so_hstore_close(st);
    for (int i = 0; i < n; i++)
        so_hinsts_free(&in[i].s);
    free(in);
    return rc;
}
