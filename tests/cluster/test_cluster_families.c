/* test_cluster_families.c — the cluster workload families (`slotopt gen
 * wpbs-paper | stealing-paper | ras-gridmix-workload`): their workloads
 * parse and replay under fifo and fair; wpbs-paper's summary matches the
 * paper's Table II within sampling error; stealing-paper and
 * ras-gridmix-workload match the papers' settings exactly; determinism;
 * bad --set values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/cluster.h"
#include "cluster/workload_family.h"
#include "tests/cluster/cluster_test.h"
#include "tests/test_util.h"

/* The family's workload as JSON text (NULL on error; *rc, err set). */
static char *gen_text(const char *family, const char *const *sets,
                      uint64_t seed, int *rc, so_error *err)
{
    so_params set;
    so_params_init(&set);
    for (; sets && *sets; sets++)
        so_params_set_kv(&set, *sets, err);
    json_t *inst = NULL;
    *rc = so_family_generate(so_family_find(family), &set, seed, 0, &inst, err);
    if (*rc)
        return NULL;
    char *text = json_dumps(inst, JSON_INDENT(1));
    json_decref(inst);
    return text;
}

static so_cl_workload *gen(const char *family, const char *const *sets,
                           uint64_t seed)
{
    so_error err;
    int rc;
    char *text = gen_text(family, sets, seed, &rc, &err);
    CU_ASSERT_EQUAL(rc, SO_OK);
    if (!text)
        return NULL;
    so_cl_workload *w = NULL;
    rc = so_cl_workload_parse_json(text, strlen(text), "gen.json", 1, &w, &err);
    CU_ASSERT_EQUAL(rc, SO_OK);
    if (rc)
        fprintf(stderr, "%s: %s\n", family, err.message);
    free(text);
    return w;
}

/* ---- every family replays under fifo and fair ------------------------------ */

static void replay(const char *family, const char *const *sets)
{
    so_error err;
    int rc;
    char *text = gen_text(family, sets, 7, &rc, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    static const char *const scheds[] = {"fifo", "fair"};
    for (int s = 0; s < 2; s++) {
        cl_run r = cl_simulate(text, scheds[s], NULL, NULL, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL(r.sim);
        if (r.sim) {
            size_t tasks = 0;
            for (int j = 0; j < r.w->n_jobs; j++) {
                tasks += (size_t)(r.w->jobs[j].n_maps + r.w->jobs[j].n_reduces);
                const so_cl_job_result *jr = so_cl_sim_job(r.sim, j);
                CU_ASSERT(jr->finish > jr->submit);
            }
            CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->tasks_done, tasks);
        }
        cl_done(&r);
    }
    free(text);
}

static void test_replay(void)
{
    static const char *const load2[] = {"load=2", NULL};
    static const char *const ts_reduce[] = {"job=ts-reduce", "stragglers=2", NULL};
    static const char *const mm[] = {"job=mm", NULL};
    static const char *const wc[] = {"job=wordcount", "tasks=112", NULL};
    static const char *const tight[] = {"goals=tight", "map_slots=8", NULL};
    replay("wpbs-paper", NULL);
    replay("wpbs-paper", load2);
    replay("stealing-paper", NULL);
    replay("stealing-paper", ts_reduce);
    replay("stealing-paper", mm);
    replay("stealing-paper", wc);
    replay("ras-gridmix-workload", NULL);
    replay("ras-gridmix-workload", tight);
    static const char *const flex3[] = {"jobs=3", "lambda=1", NULL};
    replay("flex-cluster", flex3);
}

/* The command line: gen writes files that sim replays. */
static void test_cli(void)
{
    char args[2048], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "gen stealing-paper --set stragglers=4 --out %s/fam",
             so_test_tmpdir());
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, NULL), 0);
    free(out);
    snprintf(args, sizeof args, "sim %s/fam/stealing-paper-stragglers=4-1-0.json --scheduler fair"
             " --format table", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "ts-map"));
    free(out);
    CU_ASSERT_EQUAL(so_test_run("families --format csv", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\nstealing-paper,cluster,straggler_speed,0.5,"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\nras-gridmix-workload,cluster,,,"));
    free(out);
    /* the same command writes the same bytes */
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "gen wpbs-paper --seed 4 --out %s/same%d",
                 so_test_tmpdir(), k);
        CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
        free(out);
    }
    char p0[1024], p1[1024];
    snprintf(p0, sizeof p0, "%s/same0/wpbs-paper-4-0.json", so_test_tmpdir());
    snprintf(p1, sizeof p1, "%s/same1/wpbs-paper-4-0.json", so_test_tmpdir());
    char *f0 = so_test_slurp(p0), *f1 = so_test_slurp(p1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f0 && f1);
    CU_ASSERT_STRING_EQUAL(f0, f1);
    free(f0);
    free(f1);
    snprintf(args, sizeof args, "gen wpbs-paper --set load=0 --out %s/bad",
             so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "load"));
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err, "expected a number in [0.01, 100]"));
    free(err);
    snprintf(args, sizeof args, "%s/bad/wpbs-paper-1-0.json", so_test_tmpdir());
    CU_ASSERT_PTR_NULL(fopen(args, "r")); /* no partial output */
}

/* ---- wpbs-paper against Table II --------------------------------------------- */

typedef struct {
    int n;
    double sum, sum2;
} moments;

static void add(moments *m, double x)
{
    m->n++;
    m->sum += x;
    m->sum2 += x * x;
}

static double mean_of(const moments *m) { return m->sum / m->n; }

static double var_of(const moments *m)
{
    double mu = mean_of(m);
    return (m->sum2 - m->n * mu * mu) / (m->n - 1);
}

/* |sample mean - expected| within 4 standard errors (a false alarm about
 * once in 16,000 checks; the seeds are fixed, so the test is repeatable). */
static int within(const moments *m, double expected)
{
    double se = sqrt(var_of(m) / m->n);
    return fabs(mean_of(m) - expected) <= 4 * se + 1e-9;
}

/* E[ceil(X / 64)] = sum_{k >= 0} P(X > 64 k) for X = p N(a, b) + (1 - p)
 * N(c, d) (every job has at least one map: the k = 0 term is 1). */
static double bimodal_maps(double p, double a, double b, double c, double d)
{
    double e = 1;
    for (int k = 1; k < 1000; k++) {
        double x = 64.0 * k;
        e += p * 0.5 * erfc((x - a) / (b * sqrt(2))) +
             (1 - p) * 0.5 * erfc((x - c) / (d * sqrt(2)));
    }
    return e;
}

static void test_wpbs_table2(void)
{
    static const char *const sets[] = {"scale=40", NULL};
    so_cl_workload *w = gen("wpbs-paper", sets, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    /* cluster: 11 workers x (2 map + 2 reduce slots) */
    CU_ASSERT_EQUAL(w->n_nodes, 11);
    for (int n = 0; n < w->n_nodes; n++) {
        CU_ASSERT_EQUAL(w->nodes[n].slots[SO_CL_MAP], 2);
        CU_ASSERT_EQUAL(w->nodes[n].slots[SO_CL_REDUCE], 2);
    }
    static const struct {
        const char *user;
        int jobs;
        double gap, maps, map_s, reduces;
        double gap_scv_lo, gap_scv_hi; /* squared CV of the gaps */
    } t[4] = {
        /* bursty: on-off, SCV 1 + 2 b (r - 1)^2 / r^2 = 13.8 */
        {"wordcount", 150, 20, 0, 40, 1, 9, 19},
        /* uniform gaps on [0, 60]: SCV 1/3 */
        {"pi", 100, 30, 10, 15, 1, 0.29, 0.38},
        {"grep", 30, 100, 0, 15, 1, 0.75, 1.3},  /* Poisson: SCV 1 */
        {"sort", 5, 600, 160.5, 25, 19, 0.5, 1.6},
    };
    double wc_maps = 1 / (1 - exp(-64.0 / 100)); /* exponential, mean 100 MB */
    double grep_maps = bimodal_maps(0.8, 100, 20, 600, 120);
    for (int u = 0; u < 4; u++) {
        moments gaps = {0}, maps = {0}, map_s = {0}, reduces = {0};
        double last = 0;
        for (int j = 0; j < w->n_jobs; j++) {
            const so_cl_job_spec *job = &w->jobs[j];
            if (strcmp(job->user, t[u].user))
                continue;
            add(&gaps, job->submit - last);
            last = job->submit;
            add(&maps, job->n_maps);
            add(&reduces, job->n_reduces);
            CU_ASSERT_DOUBLE_EQUAL(job->slowstart, 0.8, 1e-12);
            for (int m = 0; m < job->n_maps; m++)
                add(&map_s, job->map_work[m]);
        }
        double want_maps = u == 0 ? wc_maps : u == 2 ? grep_maps : t[u].maps;
        CU_ASSERT_EQUAL(gaps.n, 40 * t[u].jobs);
        CU_ASSERT(within(&gaps, t[u].gap));
        double scv = var_of(&gaps) / (mean_of(&gaps) * mean_of(&gaps));
        CU_ASSERT(scv > t[u].gap_scv_lo && scv < t[u].gap_scv_hi);
        if (u == 1) {
            CU_ASSERT_EQUAL(var_of(&maps), 0);
        }
        CU_ASSERT(u == 1 ? mean_of(&maps) == 10 : within(&maps, want_maps));
        CU_ASSERT(within(&map_s, t[u].map_s));
        CU_ASSERT_EQUAL(var_of(&reduces), 0);
        CU_ASSERT_EQUAL(mean_of(&reduces), t[u].reduces);
        if (!within(&gaps, t[u].gap) || !within(&maps, want_maps) ||
            !within(&map_s, t[u].map_s) || scv <= t[u].gap_scv_lo ||
            scv >= t[u].gap_scv_hi)
            fprintf(stderr, "%s: gap %g scv %g maps %g (want %g) map_s %g\n",
                    t[u].user, mean_of(&gaps), scv, mean_of(&maps), want_maps,
                    mean_of(&map_s));
    }
    so_cl_workload_free(w);
}

/* `load` scales the arrival rates: the same draws, every gap halved. */
static void test_wpbs_load(void)
{
    static const char *const load2[] = {"load=2", NULL};
    so_cl_workload *a = gen("wpbs-paper", NULL, 5), *b = gen("wpbs-paper", load2, 5);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_EQUAL_FATAL(a->n_jobs, b->n_jobs);
    CU_ASSERT_EQUAL(a->n_jobs, 150 + 100 + 30 + 5);
    double last_a = 0, last_b = 0;
    for (int j = 0; j < a->n_jobs; j++) {
        last_a = fmax(last_a, a->jobs[j].submit);
        last_b = fmax(last_b, b->jobs[j].submit);
    }
    CU_ASSERT_DOUBLE_EQUAL(last_b, last_a / 2, 2e-3);
    so_cl_workload_free(a);
    so_cl_workload_free(b);
}

/* ---- stealing-paper ------------------------------------------------------------ */

static double amdahl(double f, double k) { return 1 / ((1 - f) + f / k); }

static void test_stealing(void)
{
    static const char *const exact[] = {"task_cv=0", NULL};
    so_cl_workload *w = gen("stealing-paper", exact, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->n_nodes, 32);
    CU_ASSERT_EQUAL(w->nodes[0].slots[SO_CL_MAP], 7);
    CU_ASSERT_EQUAL(w->nodes[31].slots[SO_CL_REDUCE], 7);
    CU_ASSERT_EQUAL_FATAL(w->n_jobs, 1);
    CU_ASSERT_EQUAL(w->jobs[0].n_maps, 56); /* 25 % of 224 map slots */
    CU_ASSERT_EQUAL(w->jobs[0].n_reduces, 0);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].map_work[55], 300, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].parallel[SO_CL_MAP], 0.95, 1e-12);
    so_cl_workload_free(w);

    static const char *const slow[] = {"tasks=168", "stragglers=4", NULL};
    w = gen("stealing-paper", slow, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->jobs[0].n_maps, 168);
    int n_slow = 0;
    for (int n = 0; n < w->n_nodes; n++)
        n_slow += w->nodes[n].speed == 0.5;
    CU_ASSERT_EQUAL(n_slow, 4);
    so_cl_workload_free(w);

    static const char *const tsr[] = {"job=ts-reduce", "tasks=64", NULL};
    w = gen("stealing-paper", tsr, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->jobs[0].n_maps, 101);
    CU_ASSERT_EQUAL(w->jobs[0].n_reduces, 64);
    /* the paper's "4x from 7 threads" on reduce */
    CU_ASSERT_DOUBLE_EQUAL(amdahl(w->jobs[0].parallel[SO_CL_REDUCE], 7), 4, 1e-9);
    so_cl_workload_free(w);

    static const char *const mm[] = {"job=mm", "tasks=112", NULL};
    w = gen("stealing-paper", mm, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->jobs[0].n_reduces, 112);
    CU_ASSERT_EQUAL(w->jobs[0].n_maps, 896);
    /* mm's 5.4x speed-up from 7 threads (Fig. 6b, 10 reduces) */
    CU_ASSERT_DOUBLE_EQUAL(amdahl(w->jobs[0].parallel[SO_CL_REDUCE], 7), 5.4, 0.05);
    so_cl_workload_free(w);

    static const char *const io[] = {"job=io", NULL};
    w = gen("stealing-paper", io, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT(amdahl(w->jobs[0].parallel[SO_CL_MAP], 7) < 1.1); /* I/O-bound */
    so_cl_workload_free(w);
}

/* ---- ras-gridmix-workload ------------------------------------------------------ */

static void test_ras_gridmix(void)
{
    static const char *const share[] = {"contention=share", NULL};
    so_cl_workload *w = gen("ras-gridmix-workload", share, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->n_nodes, 20);
    CU_ASSERT_EQUAL(w->nodes[0].slots[SO_CL_MAP], 4);
    CU_ASSERT_EQUAL(w->n_resources, 3);
    CU_ASSERT_EQUAL(w->contention, SO_CL_CONTENTION_SHARE);
    CU_ASSERT(!w->hard[0] && !w->hard[1] && w->hard[2]); /* memory hard */
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].shuffle_demand[2], 60, 1e-12);
    so_cl_workload_free(w);
    /* the default: physical, nothing hard, shuffling reducers hold their
     * shuffle buffers (shuffle_memory 10 %) */
    w = gen("ras-gridmix-workload", NULL, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->contention, SO_CL_CONTENTION_PHYSICAL);
    CU_ASSERT(!w->hard[0] && !w->hard[1] && !w->hard[2]);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].shuffle_demand[2], 10, 1e-12);
    CU_ASSERT_EQUAL_FATAL(w->n_jobs, 9);
    /* Table 1's submission times, in order */
    static const double submit[9] = {0, 100, 200, 350, 500, 600, 1100, 2500, 3750};
    for (int j = 0; j < 9; j++)
        CU_ASSERT_DOUBLE_EQUAL(w->jobs[j].submit, submit[j], 1e-9);
    const so_cl_job_spec *j1 = &w->jobs[0];
    CU_ASSERT_STRING_EQUAL(j1->name, "J1-Sort");
    CU_ASSERT_EQUAL(j1->n_maps, 720);   /* 90 GB in 128 MB splits */
    CU_ASSERT_EQUAL(j1->n_reduces, 20);
    /* 40 maps at once (2 per TaskTracker at 45 % io), 18 waves in 0.8 x 2500 s */
    CU_ASSERT_DOUBLE_EQUAL(j1->map_work[0], 2000.0 / 18, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(j1->demand[SO_CL_MAP][1], 45, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(j1->demand[SO_CL_REDUCE][2], 60, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(j1->shuffle_demand[1], 0.75, 1e-12); /* 0.15 x 5 */
    CU_ASSERT_DOUBLE_EQUAL(j1->goal, 0, 0);
    CU_ASSERT_EQUAL(w->jobs[1].n_reduces, 1); /* Combine */
    so_cl_workload_free(w);

    static const char *const tight[] = {"goals=tight", "contention=none", NULL};
    w = gen("ras-gridmix-workload", tight, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->contention, SO_CL_CONTENTION_NONE);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[1].goal, 850 - 100, 1e-9); /* J2 */
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[6].goal, 6000 - 1100, 1e-9); /* J7 */
    so_cl_workload_free(w);
}

/* ---- determinism and errors ------------------------------------------------------ */

static void test_determinism(void)
{
    static const char *const fams[] = {"wpbs-paper", "stealing-paper",
                                       "ras-gridmix-workload", "flex-cluster"};
    for (int f = 0; f < 4; f++) {
        so_error err;
        int rc;
        char *a = gen_text(fams[f], NULL, 9, &rc, &err);
        char *b = gen_text(fams[f], NULL, 9, &rc, &err);
        char *c = gen_text(fams[f], NULL, 10, &rc, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a && b && c);
        CU_ASSERT_STRING_EQUAL(a, b);
        /* other seeds other draws (the workload before "meta", which
         * holds the seed); ras-gridmix-workload draws nothing */
        *strstr(a, "\"meta\"") = *strstr(c, "\"meta\"") = 0;
        CU_ASSERT_EQUAL(f == 2, !strcmp(a, c));
        free(a);
        free(b);
        free(c);
    }
}

/* The error names the key and says what was expected. */
static void bad(const char *family, const char *set, const char *key,
                const char *words)
{
    const char *const sets[] = {set, NULL};
    so_error err;
    so_error_clear(&err);
    int rc;
    char *text = gen_text(family, sets, 1, &rc, &err);
    CU_ASSERT_PTR_NULL(text);
    CU_ASSERT_EQUAL(rc, SO_EINVAL);
    int ok = !strcmp(err.key, key) && strstr(err.message, words);
    CU_ASSERT(ok);
    if (!ok)
        fprintf(stderr, "%s %s: '%s': '%s'\n", family, set, err.key, err.message);
    free(text);
}

static void test_bad_settings(void)
{
    bad("wpbs-paper", "load=-1", "load", "expected a number in [0.01, 100], found -1");
    bad("wpbs-paper", "scale=0", "scale", "expected an integer in [1, 1000], found 0");
    bad("wpbs-paper", "task_cv=abc", "task_cv", "expected a number, found 'abc'");
    bad("wpbs-paper", "users=3", "users", "unknown option for family 'wpbs-paper'"
        "; choices: load, scale, task_cv, slowstart");
    bad("wpbs-paper", "slowstart=0", "slowstart",
        "expected a number in [0.01, 1], found 0");
    bad("stealing-paper", "job=sort", "job",
        "expected ts-map | ts-reduce | mm | mr-wc | wordcount | io, found 'sort'");
    bad("stealing-paper", "stragglers=33", "stragglers",
        "expected an integer in [0, 32], found 33");
    bad("stealing-paper", "straggler_speed=0", "straggler_speed",
        "expected a number in [0.01, 1], found 0");
    bad("stealing-paper", "parallel=-0.5", "parallel",
        "expected -1 or a fraction in [0, 1], found -0.5");
    bad("stealing-paper", "tasks=2.5", "tasks", "expected an integer, found '2.5'");
    bad("ras-gridmix-workload", "goals=loose", "goals",
        "expected none | tight, found 'loose'");
    bad("ras-gridmix-workload", "map_slots=0", "map_slots",
        "expected an integer in [1, 64], found 0");
    bad("ras-gridmix-workload", "contention=hard", "contention",
        "expected share | none | physical, found 'hard'");
    bad("flex-cluster", "slack=2", "slack", "expected a number in [0, 1], found 2");
    bad("flex-cluster", "jobs=0", "jobs", "expected an integer in [1, 10000], found 0");
}

/* flex-cluster: 26 blades (156 + 78 slots), the pool's minimum from the
 * slack, all jobs in it, at time 0 with lambda 0 and spread with lambda 2;
 * maps = round(120 u) and reduces = max(1, round(6 u)) of one size u. */
static void test_flex_cluster(void)
{
    static const char *const half[] = {"jobs=6", "slack=0.5", NULL};
    so_cl_workload *w = gen("flex-cluster", half, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->n_nodes, 26);
    int maps = 0, reduces = 0;
    for (int n = 0; n < w->n_nodes; n++) {
        maps += w->nodes[n].slots[SO_CL_MAP];
        reduces += w->nodes[n].slots[SO_CL_REDUCE];
    }
    CU_ASSERT_EQUAL(maps, 156);
    CU_ASSERT_EQUAL(reduces, 78);
    CU_ASSERT_EQUAL(w->n_jobs, 6);
    int p = w->jobs[0].pool;
    CU_ASSERT_DOUBLE_EQUAL(w->pools[p].min_share[SO_CL_MAP], 78, 0);
    CU_ASSERT_DOUBLE_EQUAL(w->pools[p].min_share[SO_CL_REDUCE], 78, 0);
    for (int j = 0; j < w->n_jobs; j++) {
        CU_ASSERT_EQUAL(w->jobs[j].pool, p);
        CU_ASSERT_DOUBLE_EQUAL(w->jobs[j].submit, 0, 0);
        double u = w->jobs[j].n_maps / 120.0;
        CU_ASSERT(fabs(w->jobs[j].n_reduces - fmax(1, round(6 * u))) <= 1);
    }
    so_cl_workload_free(w);
    static const char *const spread[] = {"jobs=6", "lambda=2", NULL};
    w = gen("flex-cluster", spread, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    for (int j = 1; j < w->n_jobs; j++)
        CU_ASSERT(w->jobs[j].submit > w->jobs[j - 1].submit);
    CU_ASSERT(w->jobs[5].submit > 60); /* five gaps of mean 120 s */
    so_cl_workload_free(w);
}

/* ---- the generic layer ---------------------------------------------------------- */

static void test_distributions(void)
{
    static const so_wf_dist d[] = {
        {SO_WF_FIXED, 3, 0, 0, 0, 0},       {SO_WF_UNIFORM, 2, 6, 0, 0, 0},
        {SO_WF_EXPONENTIAL, 5, 0, 0, 0, 0}, {SO_WF_NORMAL, 50, 5, 0, 0, 0},
        {SO_WF_LOGNORMAL, 1, 0.5, 0, 0, 0}, {SO_WF_BIMODAL, 10, 1, 100, 10, 0.75},
    };
    so_rng rng;
    so_rng_seed(&rng, 42);
    for (size_t k = 0; k < sizeof d / sizeof d[0]; k++) {
        moments m = {0};
        for (int i = 0; i < 20000; i++)
            add(&m, so_wf_draw(&d[k], 1e-3, &rng));
        if (k == 0) {
            CU_ASSERT_DOUBLE_EQUAL(mean_of(&m), 3, 1e-12);
        } else {
            CU_ASSERT(within(&m, so_wf_mean(&d[k])));
        }
    }
    CU_ASSERT_DOUBLE_EQUAL(so_wf_mean(&d[4]), exp(1.125), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(so_wf_mean(&d[5]), 32.5, 1e-12);
    /* the floor: a normal far below it always returns it */
    so_wf_dist neg = {SO_WF_NORMAL, -100, 1, 0, 0, 0};
    CU_ASSERT_DOUBLE_EQUAL(so_wf_draw(&neg, 1e-3, &rng), 1e-3, 0);
}

static CU_TestInfo tests[] = {
    {"replay under fifo and fair", test_replay},
    {"gen, families and sim commands", test_cli},
    {"wpbs-paper matches Table II", test_wpbs_table2},
    {"wpbs-paper load scales the arrival rates", test_wpbs_load},
    {"stealing-paper settings", test_stealing},
    {"ras-gridmix-workload tables", test_ras_gridmix},
    {"flex-cluster: the FLEX paper's cluster", test_flex_cluster},
    {"same seed same bytes", test_determinism},
    {"bad --set values", test_bad_settings},
    {"distributions", test_distributions},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-families", tests)
