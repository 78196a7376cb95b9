/* bench_flex.c — FLEX performance targets (issue 3): the RAP with
 * 1,000,000 jobs and 10,000,000 slots (< 1 s), the FLEX heuristic for
 * 10,000 jobs (< 100 ms), flex-exact for 10 jobs (< 1 s) and the largest
 * job count it proves within 60 s; flex-opt (issue 17) on the base case
 * (< 10 s per instance on average) and the largest job count it proves
 * within 60 s; how often the malleable optimum beats the best MPS
 * schedule (Lemma 1). */
#include <math.h>
#include <stdlib.h>
#include "tests/bench/bench.h"
#include "heuristics/flex.h"
#include "solvers/rap.h"
#include "tests/flex_test_util.h"

static so_problem *paper_instance(const char *jobs, const char *slots, uint64_t index)
{
    so_params set;
    so_params_init(&set);
    so_params_set(&set, "jobs", jobs);
    so_params_set(&set, "slots", slots);
    json_t *inst = NULL;
    so_error err;
    so_problem *p = NULL;
    if (so_family_generate(so_family_find("flex-paper"), &set, 1, index, &inst, &err) ||
        so_problem_from_json(inst, "bench", &p, &err))
        p = NULL;
    json_decref(inst);
    return p;
}

typedef struct {
    const so_flex *f;
    so_rap_fn fn;
    int64_t *s;
} rap_arg;

static void rap_call(void *a)
{
    rap_arg *r = a;
    char why[256];
    r->fn(r->f, r->s, why, sizeof why);
}

static void bench_rap(FILE *out)
{
    so_problem *p = paper_instance("1000000", "10000000", 0);
    if (!p)
        return;
    so_flex *f = so_flex_copy(so_flex_of(p));
    f->metric = SO_FLEX_WRESPONSE;
    int64_t *s = malloc(f->n * sizeof *s);
    rap_arg a = {f, so_rap_bisect, s};
    double tb = so_bench_time(rap_call, &a, 3);
    double vb = so_rap_value(f, s);
    a.fn = so_rap_solve;
    double ta = so_bench_time(rap_call, &a, 3);
    a.fn = so_rap_greedy;
    double tg = so_bench_time(rap_call, &a, 1);
    double vg = so_rap_value(f, s);
    fprintf(out, "### RAP, 1,000,000 jobs, 10,000,000 slots (weighted response time)\n\n"
                 "    make bench BENCHES=flex-rap\n\n"
                 "Instance: flex-paper jobs=1000000 slots=10000000 (seed 1), metric"
                 " weighted-response. Best of 3 runs (greedy: 1 run).\n\n"
                 "| solver | seconds | objective | time / bisection |\n|---|---|---|---|\n"
                 "| rap-bisect | %.3f | %.6e | 1.00 |\n"
                 "| rap (method FLEX uses) | %.3f | %.6e | %.2f |\n"
                 "| rap-greedy (heap) | %.3f | %.6e | %.2f |\n\n",
            tb, vb, ta, vb, ta / tb, tg, vg, tg / tb);
    free(s);
    so_flex_free(f);
    so_problem_free(p);
}

typedef struct {
    const so_flex *f;
    int kind;
    int64_t *slots;
    size_t *order;
    double *c;
} flex_arg;

static void flex_call(void *a)
{
    flex_arg *x = a;
    if (x->kind == 0) {
        so_flex_allocate(x->f, NULL, x->slots);
    } else if (x->kind == 1) {
        so_flex_order(x->f, SO_FLEX_ORDER_RAP, x->order);
        so_flex_mps(x->f, x->order, 0, x->c, x->slots, NULL);
    } else {
        so_flex_mps(x->f, x->order, 0, x->c, x->slots, NULL);
    }
}

static void bench_heuristic(FILE *out)
{
    so_problem *p = paper_instance("10000", "100000", 0);
    if (!p)
        return;
    const so_flex *f = so_flex_of(p);
    size_t n = f->n;
    flex_arg a = {f, 0, malloc(n * sizeof(int64_t)), malloc(n * sizeof(size_t)),
                  malloc(n * sizeof(double))};
    double t_flex = so_bench_time(flex_call, &a, 5);
    a.kind = 1;
    double t_gen = so_bench_time(flex_call, &a, 5);
    a.kind = 2;
    double t_mps = so_bench_time(flex_call, &a, 5);
    fprintf(out, "### FLEX heuristic, 10,000 jobs, 100,000 slots\n\n"
                 "    make bench BENCHES=flex-heuristic\n\n"
                 "Instance: flex-paper jobs=10000 slots=100000 (seed 1), average"
                 " response time. so_flex_allocate = every order through MPS (the"
                 " local search is off above 200 jobs by default). Best of 5.\n\n"
                 "| step | milliseconds | ratio to one MPS |\n|---|---|---|\n"
                 "| FLEX (so_flex_allocate: 9 orders incl. RAP, best MPS) | %.2f | %.1f |\n"
                 "| generic order (RAP + sort + MPS) | %.2f | %.1f |\n"
                 "| one MPS schedule | %.2f | 1.0 |\n\n",
            1e3 * t_flex, t_flex / t_mps, 1e3 * t_gen, t_gen / t_mps, 1e3 * t_mps);
    free(a.slots);
    free(a.order);
    free(a.c);
    so_problem_free(p);
}

static double backend_seconds(const char *backend, so_problem *p,
                              double limit, int *proved)
{
    so_params prm;
    so_params_init(&prm);
    prm.time_limit = limit;
    so_result *r = NULL;
    so_error err;
    int st = so_solve(so_backend_find(backend), p, &prm, &r, &err);
    double s = r ? so_result_seconds(r) : NAN;
    *proved = st == SO_OPTIMAL;
    so_result_free(r);
    return s;
}

/* Table rows "| jobs | proved | seconds |" of backend on instance 0 of
 * flex-paper with jobs[k] jobs and slots[k] slots (60 s limit), up to the
 * first not proved. */
static void growing_rows(FILE *out, const char *backend, const char *const *jobs,
                         const char *const *slots, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        so_problem *p = paper_instance(jobs[k], slots[k], 0);
        int ok;
        double s = backend_seconds(backend, p, 60, &ok);
        so_problem_free(p);
        fprintf(out, "| %s | %s | %.3f |\n", jobs[k], ok ? "yes" : "no (60 s)", s);
        fflush(out);
        if (!ok)
            break;
    }
}

static void bench_exact(FILE *out)
{
    double sum = 0, worst = 0;
    int all = 1;
    for (uint64_t i = 0; i < 100; i++) {
        so_problem *p = paper_instance("10", "100", i);
        int ok;
        double s = backend_seconds("flex-exact", p, 60, &ok);
        all &= ok;
        sum += s;
        worst = fmax(worst, s);
        so_problem_free(p);
    }
    fprintf(out, "### flex-exact\n\n    make bench BENCHES=flex-exact\n\n"
                 "Base case (flex-paper, seed 1, instances 0-99): 10 jobs, 100"
                 " slots, 75 %% slack, 80 %% small jobs, average response time.\n\n"
                 "| instances | all proved | mean s | worst s |\n|---|---|---|---|\n"
                 "| 100 x 10 jobs | %s | %.4f | %.4f |\n\n"
                 "Growing job counts (slots = 10 x jobs so that minima keep the"
                 " base case's shape; instance 0; 60 s limit):\n\n"
                 "| jobs | proved | seconds |\n|---|---|---|\n",
            all ? "yes" : "no", sum / 100, worst);
    static const char *const jobs[] = {"12", "16", "20", "22", "24", "28", "32"};
    static const char *const slots[] = {"120", "160", "200", "220", "240", "280", "320"};
    growing_rows(out, "flex-exact", jobs, slots, sizeof jobs / sizeof jobs[0]);
    fprintf(out, "\n");
}

static void bench_opt(FILE *out)
{
    enum { N = 20 };
    double sum[2] = {0, 0}, worst[2] = {0, 0};
    int proved[2] = {0, 0};
    static const char *const names[] = {"flex-opt", "flex-exact"};
    for (uint64_t i = 0; i < N; i++) {
        so_problem *p = paper_instance("10", "100", i);
        for (int b = 0; b < 2; b++) {
            int ok;
            double s = backend_seconds(names[b], p, 60, &ok);
            proved[b] += ok;
            sum[b] += s;
            worst[b] = fmax(worst[b], s);
        }
        so_problem_free(p);
    }
    fprintf(out, "### flex-opt (the optimum over every malleable schedule)\n\n"
                 "    make bench BENCHES=flex-opt\n\n"
                 "Base case (flex-paper, seed 1, instances 0-%d): 10 jobs, 100"
                 " slots, average response time; 60 s limit; flex-exact (the"
                 " best MPS schedule) in the same run.\n\n"
                 "| backend | proved | mean s | worst s | mean vs flex-exact |\n"
                 "|---|---|---|---|---|\n", N - 1);
    for (int b = 0; b < 2; b++)
        fprintf(out, "| %s | %d of %d | %.3f | %.3f | %.0fx |\n", names[b],
                proved[b], N, sum[b] / N, worst[b], sum[b] / sum[1]);
    fprintf(out, "\nGrowing job counts (slots = 10 x jobs, instance 0, 60 s"
                 " limit):\n\n| jobs | proved | seconds |\n|---|---|---|\n");
    static const char *const jobs[] = {"10", "12", "14", "16", "18", "20", "24"};
    static const char *const slots[] = {"100", "120", "140", "160", "180", "200", "240"};
    growing_rows(out, "flex-opt", jobs, slots, sizeof jobs / sizeof jobs[0]);
    fprintf(out, "\n");
}

static double objective(const char *backend, so_flex *f)
{
    so_error err;
    int st;
    so_result *r = so_test_flex_solve(backend, f, &err, &st);
    double v = st == SO_OPTIMAL ? so_result_objective(r) : NAN;
    so_result_free(r);
    return v;
}

/* Random instances of 2-6 jobs on n..12 slots (the generator of the FLEX
 * test suites): how often flex-opt beats the best MPS schedule, by how
 * much at most, and how often FAIR does. */
static void bench_lemma1(FILE *out)
{
    static const struct {
        int metric, aggregate;
        const char *name;
    } kinds[] = {
        {SO_FLEX_RESPONSE, SO_FLEX_SUM, "response, sum"},
        {SO_FLEX_WRESPONSE, SO_FLEX_SUM, "weighted response, sum"},
        {SO_FLEX_STRETCH, SO_FLEX_SUM, "stretch, sum"},
        {SO_FLEX_TARDY, SO_FLEX_SUM, "tardy jobs, sum"},
        {SO_FLEX_WTARDY, SO_FLEX_SUM, "weighted tardy jobs, sum"},
        {SO_FLEX_TARDINESS, SO_FLEX_SUM, "tardiness, sum"},
        {SO_FLEX_WLATENESS, SO_FLEX_SUM, "weighted lateness, sum"},
        {SO_FLEX_SLA, SO_FLEX_SUM, "SLA, sum"},
        {SO_FLEX_MAKESPAN, SO_FLEX_MAX, "makespan, max"},
        {SO_FLEX_WRESPONSE, SO_FLEX_MAX, "weighted response, max"},
        {SO_FLEX_STRETCH, SO_FLEX_MAX, "stretch, max"},
        {SO_FLEX_TARDINESS, SO_FLEX_MAX, "tardiness, max"},
        {SO_FLEX_WLATENESS, SO_FLEX_MAX, "weighted lateness, max"},
    };
    enum { N = 200 };
    fprintf(out, "### Lemma 1: the malleable optimum against the best MPS schedule\n\n"
                 "    make bench BENCHES=flex-lemma1\n\n"
                 "%d random instances per row (2-6 jobs, n..12 slots, minima"
                 " 0-2, seed 101 + row): flex-opt (every malleable schedule)"
                 " against flex-exact (the best MPS schedule, Lemma 1's"
                 " claim) and FAIR.\n\n"
                 "| metric | flex-opt < best MPS | largest gain | FAIR < best MPS |"
                 " FAIR < flex-opt |\n|---|---:|---:|---:|---:|\n", N);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        so_rng rng;
        so_rng_seed(&rng, 101 + k);
        int better = 0, fair_mps = 0, fair_opt = 0;
        double gain = 0;
        for (int it = 0; it < N; it++) {
            size_t n = (size_t)so_rng_int(&rng, 2, 6);
            int64_t S = so_rng_int(&rng, (int64_t)n, 12);
            so_flex *f = so_test_flex_random(&rng, n, S, 2, kinds[k].metric,
                                             kinds[k].aggregate);
            double o = objective("flex-opt", f), m = objective("flex-exact", f),
                   fa = objective("fair", f), tol = 1e-6 * (1 + fabs(m));
            if (o < m - tol) {
                better++;
                if (m > 0)
                    gain = fmax(gain, (m - o) / m);
            }
            fair_mps += fa < m - tol;
            fair_opt += fa < o - tol;
            so_flex_free(f);
        }
        fprintf(out, "| %s | %d (%.1f %%) | %.2f %% | %d | %d |\n", kinds[k].name,
                better, 100.0 * better / N, 100 * gain, fair_mps, fair_opt);
        fflush(out);
    }
    fprintf(out, "\n");
}

SO_BENCH("flex-rap", bench_rap)
SO_BENCH("flex-opt", bench_opt)
SO_BENCH("flex-lemma1", bench_lemma1)
SO_BENCH("flex-heuristic", bench_heuristic)
SO_BENCH("flex-exact", bench_exact)
