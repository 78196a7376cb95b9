/* test_harness_gap.c — gaps oriented by the sense, frontier extras, the
 * summary statistics, the output formats and the progress line. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tests/test_util.h"
#include "tools/harness/harness.h"

static so_hrow row(const char *hash, const char *backend, int sense,
                   const char *status, double objective)
{
    so_hrow r;
    memset(&r, 0, sizeof r);
    r.instance = (char *)hash;
    r.hash = (char *)hash;
    r.problem = (char *)"p";
    r.sense = sense;
    r.backend = (char *)backend;
    r.status = (char *)status;
    r.objective = objective;
    r.bound = NAN;
    r.seconds = 1;
    return r;
}

static void test_scalar_orientation(void)
{
    so_hrow ref = row("h", "exact", SO_MAXIMIZE, "optimal", 100);
    so_hrow r = row("h", "heur", SO_MAXIMIZE, "feasible", 80);
    so_hgap g = so_harness_gap(&r, &ref);
    CU_ASSERT_DOUBLE_EQUAL(g.ratio, 1.25, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(g.diff, 20, 1e-12);
    CU_ASSERT_FALSE(g.optimal);
    ref = row("h", "exact", SO_MINIMIZE, "optimal", 80);
    r = row("h", "heur", SO_MINIMIZE, "feasible", 100);
    g = so_harness_gap(&r, &ref);
    CU_ASSERT_DOUBLE_EQUAL(g.ratio, 1.25, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(g.diff, 20, 1e-12);
    /* equal within the tolerance: optimal, ratio exactly 1 */
    r.objective = 80 + 1e-12;
    g = so_harness_gap(&r, &ref);
    CU_ASSERT_TRUE(g.optimal);
    CU_ASSERT_EQUAL(g.ratio, 1);
    /* negative objectives (minimise lateness): -10 is better than -5 */
    ref.objective = -10;
    r.objective = -5;
    g = so_harness_gap(&r, &ref);
    CU_ASSERT_DOUBLE_EQUAL(g.ratio, 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(g.diff, 5, 1e-12);
    /* a reference of 0 and a worse answer: infinitely worse */
    ref.objective = 0;
    r.objective = 3;
    g = so_harness_gap(&r, &ref);
    CU_ASSERT_TRUE(isinf(g.ratio));
    CU_ASSERT_DOUBLE_EQUAL(g.diff, 3, 1e-12);
    /* signs differ: no ratio, the difference still */
    ref.objective = -2;
    r.objective = 3;
    g = so_harness_gap(&r, &ref);
    CU_ASSERT_TRUE(isnan(g.ratio));
    CU_ASSERT_DOUBLE_EQUAL(g.diff, 5, 1e-12);
    /* a reference stopped at its limit, or merely feasible, proves nothing:
     * no ratio, not optimal, whether the cell is better, equal or worse */
    const char *unproven[] = {"time limit", "feasible", "killed", "unbounded"};
    for (int i = 0; i < 4; i++)
        for (double v = 80; v <= 100; v += 10) {
            ref = row("h", "exact", SO_MAXIMIZE, unproven[i], 90);
            r = row("h", "heur", SO_MAXIMIZE, "feasible", v);
            g = so_harness_gap(&r, &ref);
            CU_ASSERT_TRUE(isnan(g.ratio) && isnan(g.diff));
            CU_ASSERT_FALSE(g.optimal);
            CU_ASSERT_EQUAL(g.ref_state, SO_HREF_UNPROVEN);
        }
    ref = row("h", "exact", SO_MAXIMIZE, "optimal", 90);
    CU_ASSERT_EQUAL(so_harness_gap(&ref, &ref).ref_state, SO_HREF_PROVEN);
    CU_ASSERT_EQUAL(so_harness_gap(&ref, &ref).ratio, 1);
    /* maximise (RAS minimum utility): both negative, then a reference of 0
     * and a worse (negative) answer: infinitely worse, as when minimising */
    ref = row("h", "exact", SO_MAXIMIZE, "optimal", -5);
    r = row("h", "heur", SO_MAXIMIZE, "feasible", -10);
    g = so_harness_gap(&r, &ref);
    CU_ASSERT_DOUBLE_EQUAL(g.ratio, 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(g.diff, 5, 1e-12);
    ref.objective = 0;
    r.objective = -3;
    g = so_harness_gap(&r, &ref);
    CU_ASSERT_TRUE(isinf(g.ratio) && g.ratio > 0);
    CU_ASSERT_DOUBLE_EQUAL(g.diff, 3, 1e-12);
    CU_ASSERT_FALSE(g.optimal);
}

static void test_missing(void)
{
    so_hrow ref = row("h", "exact", SO_MAXIMIZE, "killed", NAN);
    so_hrow r = row("h", "heur", SO_MAXIMIZE, "feasible", 80);
    so_hgap g = so_harness_gap(&r, &ref);
    CU_ASSERT_TRUE(isnan(g.ratio) && isnan(g.diff) && !g.optimal);
    g = so_harness_gap(&r, NULL);
    CU_ASSERT_TRUE(isnan(g.ratio));
    CU_ASSERT_EQUAL(g.ref_state, SO_HREF_UNPROVEN);
    /* both infeasible: they agree, but there is no optimum to be at: no
     * ratio of 1, not optimal, counted apart */
    ref = row("h", "exact", SO_MINIMIZE, "infeasible", NAN);
    r = row("h", "heur", SO_MINIMIZE, "infeasible", NAN);
    g = so_harness_gap(&r, &ref);
    CU_ASSERT_TRUE(isnan(g.ratio));
    CU_ASSERT_FALSE(g.optimal);
    CU_ASSERT_EQUAL(g.ref_state, SO_HREF_INFEASIBLE);
    /* frontiers too: a hypervolume ratio of 1 against an infeasible
     * reference is no optimum */
    r.extras = (char *)"{\"hypervolume_ratio\": 1}";
    g = so_harness_gap(&r, &ref);
    CU_ASSERT_TRUE(isnan(g.ratio) && !g.optimal);
}

static void test_frontier_extras(void)
{
    so_hrow ref = row("h", "sweep", SO_MINIMIZE, "optimal", NAN);
    so_hrow r = row("h", "greedy", SO_MINIMIZE, "feasible", NAN);
    r.extras = (char *)"{\"hypervolume_ratio\": 0.8}";
    so_hgap g = so_harness_gap(&r, &ref);
    CU_ASSERT_DOUBLE_EQUAL(g.ratio, 1.25, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(g.diff, 0.2, 1e-12);
    CU_ASSERT_FALSE(g.optimal);
    /* absolute hypervolumes on both sides */
    r.extras = (char *)"{\"hypervolume\": 30}";
    ref.extras = (char *)"{\"hypervolume\": 40, \"hypervolume_ratio\": 1}";
    g = so_harness_gap(&r, &ref);
    CU_ASSERT_DOUBLE_EQUAL(g.ratio, 4.0 / 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(g.diff, 0.25, 1e-12);
    g = so_harness_gap(&ref, &ref);
    CU_ASSERT_EQUAL(g.ratio, 1);
    CU_ASSERT_TRUE(g.optimal);
    /* the scalar objective decides when there is no hypervolume */
    r.extras = (char *)"{\"other\": 1}";
    r.objective = 12;
    ref.objective = 10;
    g = so_harness_gap(&r, &ref);
    CU_ASSERT_DOUBLE_EQUAL(g.ratio, 1.2, 1e-12);
}

/* Two instances x {exact, heur} + a third instance where exact was killed. */
/* What so_harness_print writes for t in `format` (caller frees). */
static char *printed(const so_htables *t, int format, int cells)
{
    char *out = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&out, &len);
    so_harness_print(fp, t, format, cells);
    fclose(fp);
    return out;
}

/* What so_harness_warn writes for command cmd (caller frees). */
static char *warned(const char *cmd, const so_htables *t, const so_hkinds *kinds)
{
    char *out = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&out, &len);
    so_harness_warn(fp, cmd, t, kinds);
    fclose(fp);
    return out;
}

static void test_summary(void)
{
    so_hrow v[6] = {
        row("a", "exact", SO_MAXIMIZE, "optimal", 100),
        row("a", "heur", SO_MAXIMIZE, "feasible", 50),
        row("b", "exact", SO_MAXIMIZE, "optimal", 10),
        row("b", "heur", SO_MAXIMIZE, "optimal", 10),
        row("c", "exact", SO_MAXIMIZE, "killed", NAN),
        row("c", "heur", SO_MAXIMIZE, "feasible", 7),
    };
    v[0].seconds = 2;
    v[2].seconds = 4;
    v[4].seconds = 9;
    v[0].params = (char *)"{\"n\": \"10\"}";
    so_hrows rows = {v, 6, 6};
    so_hkind kind = {"p", "exact", ""};
    so_hkinds kinds = {&kind, 1};
    so_htables t;
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, NULL, &t), SO_OK);
    CU_ASSERT_EQUAL_FATAL(t.n_cells, 6);
    CU_ASSERT_EQUAL_FATAL(t.n_sums, 2);
    const so_hsummary *e = &t.sums[0], *h = &t.sums[1];
    CU_ASSERT_STRING_EQUAL(e->backend, "exact");
    CU_ASSERT_EQUAL(e->instances, 3);
    CU_ASSERT_EQUAL(e->solved, 2);
    CU_ASSERT_EQUAL(e->optimal, 2);
    CU_ASSERT_EQUAL(e->with_ratio, 2);
    CU_ASSERT_DOUBLE_EQUAL(e->mean_seconds, 5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(e->max_seconds, 9, 1e-12);
    CU_ASSERT_STRING_EQUAL(h->backend, "heur");
    CU_ASSERT_EQUAL(h->solved, 3);
    CU_ASSERT_EQUAL(h->optimal, 1);
    CU_ASSERT_EQUAL(h->with_ratio, 2);
    CU_ASSERT_DOUBLE_EQUAL(h->mean_ratio, 1.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(h->median_ratio, 1.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(h->worst_ratio, 2, 1e-12);
    CU_ASSERT_PTR_EQUAL(t.cells[1].ref, &v[0]);
    CU_ASSERT_PTR_EQUAL(t.cells[5].ref, &v[4]);
    CU_ASSERT_TRUE(isnan(t.cells[5].gap.ratio));

    /* the reference failed on instance c */
    char *warn = warned("bench", &t, &kinds);
    CU_ASSERT_STRING_EQUAL(warn, "slotopt bench: the reference exact has no usable result"
                                 " on 1 of its 3 cells: the gaps of those instances are"
                                 " unknown\n");
    free(warn);

    /* the text formats */
    char *out = printed(&t, SO_HF_CSV, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "p,heur,3,3,3,0,1,50,1.5,1.5,2,25,50,1,1\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "p,exact,3,3,2,0,1,100,1,1,1,0,0,5,9\n"));
    free(out);
    out = printed(&t, SO_HF_MARKDOWN, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "| p | a | heur | 0 | feasible | 50 | 100 | optimal | 2.000000 | 50 | 1.0000 |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "| p | c | heur | 0 | feasible | 7 | - | killed | - | - | 1.0000 |"));
    free(out);
    out = printed(&t, SO_HF_JSON, 0);
    json_t *j = json_loads(out, 0, NULL);
    free(out);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "cells")), 6);
    json_t *s1 = json_array_get(json_object_get(j, "summary"), 1);
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(s1, "worst_ratio")), 2, 1e-12);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(s1, "optimal")), 1);
    json_decref(j);
    so_htables_free(&t);

    /* grouped by a family parameter: asked for, or the kind's */
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, "n", &t), SO_OK);
    CU_ASSERT_EQUAL(t.n_sums, 3);
    CU_ASSERT_STRING_EQUAL(t.sums[0].group, "n=10");
    CU_ASSERT_EQUAL(t.sums[0].cells, 1);
    CU_ASSERT_STRING_EQUAL(t.sums[1].group, "n=-");
    so_htables_free(&t);
    snprintf(kind.group_by, sizeof kind.group_by, "n");
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, NULL, &t), SO_OK);
    CU_ASSERT_EQUAL(t.n_sums, 3);
    so_htables_free(&t);
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, "", &t), SO_OK);
    CU_ASSERT_EQUAL(t.n_sums, 2);
    so_htables_free(&t);
    /* "family" with no such parameter: the instance's family */
    v[0].family = v[1].family = (char *)"fam-a";
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, "family", &t), SO_OK);
    CU_ASSERT_EQUAL_FATAL(t.n_sums, 4); /* {fam-a, -} x {exact, heur} */
    int fam_a = 0, none = 0;
    for (size_t k = 0; k < t.n_sums; k++) {
        fam_a += !strcmp(t.sums[k].group, "family=fam-a") && t.sums[k].cells == 1;
        none += !strcmp(t.sums[k].group, "family=-") && t.sums[k].cells == 2;
    }
    CU_ASSERT_EQUAL(fam_a, 2);
    CU_ASSERT_EQUAL(none, 2);
    so_htables_free(&t);
}

static void test_formats_and_progress(void)
{
    /* the harness's formats are the one vocabulary's */
    unsigned all = SO_OF_TABLE | SO_OF_CSV | SO_OF_JSON | SO_OF_MARKDOWN;
    CU_ASSERT_EQUAL(so_oformat_parse("table", all), SO_HF_TABLE);
    CU_ASSERT_EQUAL(so_oformat_parse("csv", all), SO_HF_CSV);
    CU_ASSERT_EQUAL(so_oformat_parse("json", all), SO_HF_JSON);
    CU_ASSERT_EQUAL(so_oformat_parse("markdown", all), SO_HF_MARKDOWN);
    CU_ASSERT_EQUAL(so_oformat_parse("xml", all), 0);
    char buf[160];
    so_hprogress_format(buf, sizeof buf, 10, 40, 30);
    CU_ASSERT_STRING_EQUAL(buf, "[#######.......................] 10/40 cells  elapsed 0:30  ETA 1:30");
    so_hprogress_format(buf, sizeof buf, 0, 5, 0);
    CU_ASSERT_STRING_EQUAL(buf, "[..............................] 0/5 cells  elapsed 0:00  ETA -");
    so_hprogress_format(buf, sizeof buf, 5, 5, 3725);
    CU_ASSERT_STRING_EQUAL(buf, "[##############################] 5/5 cells  elapsed 1:02:05  ETA 0:00");
    /* the bar draws nothing when disabled */
    char *out = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&out, &len);
    so_hprogress pb;
    so_hprogress_start(&pb, fp, 3, 0);
    so_hprogress_step(&pb);
    so_hprogress_end(&pb);
    fclose(fp);
    CU_ASSERT_EQUAL(len, 0);
    free(out);
    /* enabled: redrawn in place, a newline at the end */
    fp = open_memstream(&out, &len);
    so_hprogress_start(&pb, fp, 2, 1);
    so_hprogress_step(&pb);
    so_hprogress_step(&pb);
    so_hprogress_end(&pb);
    fclose(fp);
    CU_ASSERT_EQUAL(strncmp(out, "\r[......", 8), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\r[##############################] 2/2 cells"));
    CU_ASSERT_PTR_EQUAL(strchr(out, '\n'), out + len - 1); /* one line, ended */
    free(out);
    CU_ASSERT_EQUAL(so_harness_kill_after(0), 0);
    CU_ASSERT_DOUBLE_EQUAL(so_harness_kill_after(0.25), 0.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(so_harness_kill_after(10), 11, 1e-12);
}

/* Frontier points given as objects: their member names label the axes. */
static void test_frontier_objects(void)
{
    so_hrow v[2] = {
        row("h", "sweep", SO_MINIMIZE, "optimal", NAN),
        row("h", "greedy", SO_MINIMIZE, "feasible", NAN),
    };
    v[0].frontier = (char *)"[{\"makespan\": 1, \"budget\": 9}, {\"makespan\": 3, \"budget\": 2}]";
    v[1].frontier = (char *)"[{\"makespan\": 2, \"budget\": 9}, {\"note\": \"x\"}]";
    v[1].extras = (char *)"{\"hypervolume_ratio\": 0.5}";
    so_hrows rows = {v, 2, 2};
    so_hkind kind = {"p", "sweep", ""};
    so_hkinds kinds = {&kind, 1};
    so_htables t;
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, NULL, &t), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(t.cells[1].gap.ratio, 2, 1e-12);
    char dir[600];
    snprintf(dir, sizeof dir, "%s/objplots", so_test_tmpdir());
    mkdir(dir, 0777);
    setenv("SLOTOPT_GNUPLOT", "/nonexistent/gnuplot", 1);
    int plotted = -1, skipped = -1;
    so_error err;
    CU_ASSERT_EQUAL(so_harness_plot(&t, dir, &plotted, &skipped, &err), SO_OK);
    unsetenv("SLOTOPT_GNUPLOT");
    CU_ASSERT_EQUAL(plotted, 0);
    CU_ASSERT_EQUAL(skipped, 1);
    char path[700];
    snprintf(path, sizeof path, "%s/frontier-h-h.dat", dir);
    char *dat = so_test_slurp(path);
    CU_ASSERT_STRING_EQUAL(dat ? dat : "", "# sweep\n1 9\n3 2\n\n\n# greedy\n2 9\n\n\n");
    free(dat);
    snprintf(path, sizeof path, "%s/frontier-h-h.gp", dir);
    char *gp = so_test_slurp(path);
    CU_ASSERT_PTR_NOT_NULL(gp ? strstr(gp, "set xlabel 'makespan (s)'\nset ylabel 'budget ($)'") : NULL);
    CU_ASSERT_PTR_NOT_NULL(gp ? strstr(gp, "index 1 with steps") : NULL);
    CU_ASSERT_PTR_NOT_NULL(gp ? strstr(gp, "index 1 with points ps 0.8 lc rgb '#D55E00' dt 2 pt 4 notitle") : NULL);
    CU_ASSERT_PTR_NOT_NULL(gp ? strstr(gp, "NaN with linespoints lw 1.2 lc rgb '#D55E00' dt 2 pt 4 title 'greedy'") : NULL);
    CU_ASSERT_PTR_NOT_NULL(gp ? strstr(gp, "set terminal svg") : NULL);
    CU_ASSERT_PTR_NOT_NULL(gp ? strstr(gp, "noenhanced") : NULL);
    free(gp);
    so_htables_free(&t);
}

/* Three instances: the reference proves the optimum of a, infeasibility of
 * b (the heuristic agrees), and stops at its limit on c (the heuristic
 * matches its incumbent). Only a counts towards % optimal and the ratios. */
static void test_honest_summary(void)
{
    so_hrow v[6] = {
        row("a", "exact", SO_MINIMIZE, "optimal", 10),
        row("a", "heur", SO_MINIMIZE, "feasible", 12),
        row("b", "exact", SO_MINIMIZE, "infeasible", NAN),
        row("b", "heur", SO_MINIMIZE, "infeasible", NAN),
        row("c", "exact", SO_MINIMIZE, "time limit", 20),
        row("c", "heur", SO_MINIMIZE, "feasible", 20),
    };
    so_hrows rows = {v, 6, 6};
    so_hkind kind = {"p", "exact", ""};
    so_hkinds kinds = {&kind, 1};
    so_htables t;
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, NULL, &t), SO_OK);
    CU_ASSERT_EQUAL_FATAL(t.n_sums, 2);
    const so_hsummary *e = &t.sums[0], *h = &t.sums[1];
    CU_ASSERT_EQUAL(h->ref_proven, 1);
    CU_ASSERT_EQUAL(h->ref_infeasible, 1);
    CU_ASSERT_EQUAL(h->ref_unproven, 1);
    CU_ASSERT_EQUAL(h->optimal, 0);
    CU_ASSERT_EQUAL(h->with_ratio, 1);
    CU_ASSERT_DOUBLE_EQUAL(h->worst_ratio, 1.2, 1e-12);
    CU_ASSERT_EQUAL(e->optimal, 1);
    CU_ASSERT_EQUAL(e->with_ratio, 1);
    CU_ASSERT_EQUAL(e->ref_infeasible, 1);
    CU_ASSERT_EQUAL(e->ref_unproven, 1);
    CU_ASSERT_EQUAL_FATAL(t.n_refs, 1);
    CU_ASSERT_EQUAL(t.refs[0].cells, 3);
    CU_ASSERT_EQUAL(t.refs[0].proven, 1);
    CU_ASSERT_EQUAL(t.refs[0].infeasible, 1);
    CU_ASSERT_EQUAL(t.refs[0].unproven, 1);
    /* the warning counts the unproven reference, not the infeasible one */
    char *warn = warned("report", &t, &kinds);
    CU_ASSERT_PTR_NOT_NULL(strstr(warn, "no usable result on 1 of its 3 cells"));
    free(warn);
    char *out = printed(&t, SO_HF_CSV, 0);
    /* heur: 0 of 1 proven cells optimal, its ratio 1.2 only */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "p,heur,3,3,3,1,1,0,1.2,1.2,1.2,2,2,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "p,exact,3,3,2,1,1,100,1,1,1,0,0,"));
    free(out);
    out = printed(&t, SO_HF_TABLE, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nreference exact (p): proven optimal on 1 of 3 cells;"
                                       " infeasible on 1 (no gap); not proven on 1 (time limit"
                                       " 1): no gap\n"));
    free(out);
    out = printed(&t, SO_HF_JSON, 0);
    json_t *j = json_loads(out, 0, NULL);
    free(out);
    json_t *r0 = json_array_get(json_object_get(j, "references"), 0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(r0, "proven")), 1);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(r0, "unproven_statuses"),
                                                       "time limit")), 1);
    json_decref(j);
    so_htables_free(&t);
}

static size_t below(const so_htables *t, const so_hrow **p, const so_hrow **b,
                    double *lb)
{
    const so_hrow *v[16];
    for (size_t i = 0; i < t->n_cells && i < 16; i++)
        v[i] = t->cells[i].row;
    return so_harness_below_bound(v, t->n_cells, p, b, lb);
}

/* A simulated policy below a bound on its own instance and repetition is
 * found (and only then): bound cells, offline-opt's optimum and its bound
 * at the limit; lower-bound's cell of repetition 0 bounds every
 * repetition, lp-bound's and offline-opt's only their own (they hold for
 * the heartbeat phases of their seed); another instance's bound or another
 * repetition's does not count. */
static void test_below_bound(void)
{
    so_hrow v[] = {
        row("a", "fair", SO_MINIMIZE, "simulated", 100),
        row("a", "lp-bound", SO_MINIMIZE, "bound", 90),
        row("a", "fifo", SO_MINIMIZE, "simulated", 90), /* equal: fine */
        row("b", "fair", SO_MINIMIZE, "simulated", 50),
        row("b", "offline-opt", SO_MINIMIZE, "simulated", 70), /* bound 60 */
        row("c", "fair", SO_MINIMIZE, "simulated", 10),
        row("c", "offline-opt", SO_MINIMIZE, "optimal", 12),
        row("c", "fifo", SO_MINIMIZE, "simulated", 20),
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        v[i].problem = (char *)"sim";
    v[4].extras = (char *)"{\"metric\": \"mean_response\", \"offline\":"
                          " {\"proved\": false, \"bound_mean\": 60}}";
    v[6].extras = (char *)"{\"offline\": {\"proved\": true, \"bound_mean\": 12}}";
    v[5].rep = 1; /* c's fair is repetition 1: offline-opt's rep 0 does not bound it */
    so_hrows rows = {v, 8, 8};
    so_hkind kind = {"sim", "fair", ""};
    so_hkinds kinds = {&kind, 1};
    so_htables t;
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, NULL, &t), SO_OK);
    const so_hrow *p = NULL, *b = NULL;
    double lb = NAN;
    CU_ASSERT_EQUAL(below(&t, &p, &b, &lb), 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(p->hash, "b");
    CU_ASSERT_STRING_EQUAL(b->backend, "offline-opt");
    CU_ASSERT_DOUBLE_EQUAL(lb, 60, 1e-12);
    so_htables_free(&t);
    /* fixed: every policy at or above every bound */
    v[3].objective = 60;
    v[5].objective = 12;
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, NULL, &t), SO_OK);
    CU_ASSERT_EQUAL(below(&t, &p, &b, &lb), 0);
    /* a bound of repetition 1 does not bound repetition 0 */
    so_htables_free(&t);
    v[6].rep = 1;
    v[5].rep = 0;
    v[5].objective = 5;
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, NULL, &t), SO_OK);
    CU_ASSERT_EQUAL(below(&t, &p, &b, &lb), 0);
    /* and the warning says it */
    v[6].rep = 0;
    so_htables_free(&t);
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, NULL, &t), SO_OK);
    char *text = warned("report", &t, &kinds);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "1 simulated cells lie below a bound"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "fair 5 < offline-opt 12 on c"));
    free(text);
    so_htables_free(&t);
    /* another metric: offline-opt's optimum bounds the mean only, and a
     * cell stored under another --metric is not compared */
    v[5].extras = v[6].extras =
        (char *)"{\"metric\": \"max_response\", \"offline\": {\"proved\": true}}";
    v[2].extras = (char *)"{\"metric\": \"max_response\"}"; /* a's fifo 50 < 90 */
    v[2].objective = 50;
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, NULL, &t), SO_OK);
    CU_ASSERT_EQUAL(below(&t, &p, &b, &lb), 0);
    /* the same metric as the bound cell: found */
    v[1].extras = (char *)"{\"metric\": \"max_response\"}";
    so_htables_free(&t);
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&rows, &kinds, NULL, &t), SO_OK);
    CU_ASSERT_EQUAL(below(&t, &p, &b, &lb), 1);
    CU_ASSERT_STRING_EQUAL(p->backend, "fifo");
    so_htables_free(&t);
    /* repetition 1's fifo below the bounds of repetition 0: lower-bound's
     * counts, lp-bound's (for seed 1's phases) does not */
    so_hrow d[] = {
        row("d", "lower-bound", SO_MINIMIZE, "bound", 50),
        row("d", "lp-bound", SO_MINIMIZE, "bound", 60),
        row("d", "fifo", SO_MINIMIZE, "simulated", 55),
    };
    for (size_t i = 0; i < 3; i++)
        d[i].problem = (char *)"sim";
    d[1].extras = (char *)"{\"bound\": {\"beats\": 1}}"; /* lp-bound's parts */
    d[2].rep = 1;
    so_hrows drows = {d, 3, 3};
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&drows, &kinds, NULL, &t), SO_OK);
    CU_ASSERT_EQUAL(below(&t, &p, &b, &lb), 0);
    so_htables_free(&t);
    d[2].objective = 45;
    CU_ASSERT_EQUAL_FATAL(so_harness_tables(&drows, &kinds, NULL, &t), SO_OK);
    CU_ASSERT_EQUAL(below(&t, &p, &b, &lb), 1);
    CU_ASSERT_STRING_EQUAL(b->backend, "lower-bound");
    so_htables_free(&t);
}

static CU_TestInfo tests[] = {
    {"infeasible and unproven references counted apart", test_honest_summary},
    {"ratio and difference oriented by the sense", test_scalar_orientation},
    {"missing reference or objective, infeasible", test_missing},
    {"frontier gap from hypervolume extras", test_frontier_extras},
    {"frontier points as objects: data and axis labels", test_frontier_objects},
    {"summary statistics, formats, groups", test_summary},
    {"a simulated policy below a bound on its instance is reported", test_below_bound},
    {"format names, progress line, kill time", test_formats_and_progress},
    CU_TEST_INFO_NULL,
};
SO_SUITE("harness-gap", tests)
