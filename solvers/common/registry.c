/* registry.c — the one table of backends and the one table of instance
 * families. Adding a backend = one new file + one row here. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "slotopt.h"
#include "heuristics/ras.h"

/* ---- backend functions, by problem ---------------------------------------- */
/* knapsack */
int so_kp_dp_solve(const so_problem *, const so_params *, so_result *);
extern const so_option_doc so_kp_dp_options[];
int so_kp_bnb_solve(const so_problem *, const so_params *, so_result *);
int so_kp_glpk_solve(const so_problem *, const so_params *, so_result *);
int so_kp_greedy_solve(const so_problem *, const so_params *, so_result *);
extern const so_option_doc so_kp_glpk_options[];

/* flex */
int so_rap_auto_solve(const so_problem *, const so_params *, so_result *);
int so_rap_greedy_solve(const so_problem *, const so_params *, so_result *);
int so_rap_bisect_solve(const so_problem *, const so_params *, so_result *);
int so_rap_dp_solve(const so_problem *, const so_params *, so_result *);
int so_rap_minimax_solve(const so_problem *, const so_params *, so_result *);
int so_rap_glpk_solve(const so_problem *, const so_params *, so_result *);
int so_flex_exact_solve(const so_problem *, const so_params *, so_result *);
int so_flex_opt_solve(const so_problem *, const so_params *, so_result *);
int so_flex_enum_solve(const so_problem *, const so_params *, so_result *);
int so_flex_flex_solve(const so_problem *, const so_params *, so_result *);
int so_flex_generic_solve(const so_problem *, const so_params *, so_result *);
int so_flex_fifo_solve(const so_problem *, const so_params *, so_result *);
int so_flex_fair_solve(const so_problem *, const so_params *, so_result *);
extern const so_option_doc so_flex_backend_options[];
extern const so_option_doc so_flex_fair_options[];

/* pareto */
int so_pt_sweep_solve(const so_problem *, const so_params *, so_result *);
int so_pt_enum_solve(const so_problem *, const so_params *, so_result *);
int so_pt_glpk_solve(const so_problem *, const so_params *, so_result *);
int so_pt_slots_solve(const so_problem *, const so_params *, so_result *);
int so_pt_vms_solve(const so_problem *, const so_params *, so_result *);
int so_pt_nsga2_solve(const so_problem *, const so_params *, so_result *);
extern const so_option_doc so_pt_sweep_options[], so_pt_enum_options[],
    so_pt_glpk_options[], so_pt_greedy_options[], so_pt_nsga2_options[];

/* ras */
int so_ras_glpk_solve(const so_problem *, const so_params *, so_result *);
int so_ras_enum_solve(const so_problem *, const so_params *, so_result *);
int so_ras_plus_solve(const so_problem *, const so_params *, so_result *);
int so_ras_exact_solve(const so_problem *, const so_params *, so_result *);
extern const so_option_doc so_ras_plus_options[];

static const so_backend backends[] = {
    /* knapsack */
    {"kp-dp", "knapsack", 1,
     "dynamic programming over non-dominated states, expanding from the break"
     " item (Pisinger's minknap scheme)", so_kp_dp_solve, so_kp_dp_options},
    {"kp-bnb", "knapsack", 1,
     "depth-first branch-and-bound, Martello-Toth bound, greedy start",
     so_kp_bnb_solve, NULL},
    {"kp-glpk", "knapsack", 1, "MILP by GLPK branch-and-cut (time limit, bound)",
     so_kp_glpk_solve, so_kp_glpk_options},
    {"kp-greedy", "knapsack", 0,
     "ratio greedy, better of it and the best single item (>= 1/2 optimum)",
     so_kp_greedy_solve, NULL},

    /* flex */
    {"rap", "rap", 1,
     "the RAP method FLEX uses: threshold bisection (max), greedy or marginal"
     " bisection (convex sum), DP (tardy jobs, SLA)", so_rap_auto_solve, NULL},
    {"rap-greedy", "rap", 1,
     "convex minisum RAP: greedy marginal allocation with a heap",
     so_rap_greedy_solve, NULL},
    {"rap-bisect", "rap", 1,
     "convex minisum RAP: bisection on the marginal value (large S)",
     so_rap_bisect_solve, NULL},
    {"rap-dp", "rap", 1, "any RAP (sum or max): dynamic programming, O(J S^2)",
     so_rap_dp_solve, NULL},
    {"rap-minimax", "rap", 1, "minimax RAP: bisection on the threshold",
     so_rap_minimax_solve, NULL},
    {"rap-glpk", "rap", 1,
     "RAP as a MILP (one binary per job and slot count) by GLPK",
     so_rap_glpk_solve, NULL},
    {"flex-opt", "flex", 1,
     "the optimum over every malleable schedule: branch-and-bound over"
     " completion orders with one LP (MILP for tardy/SLA) per order",
     so_flex_opt_solve, NULL},
    {"flex-exact", "flex", 1,
     "branch-and-bound over MPS priority orders (Lemma 1) with an"
     " assignment lower bound", so_flex_exact_solve, NULL},
    {"flex-enum", "flex", 1, "MPS over all J! priority orders (J <= 10)",
     so_flex_enum_solve, NULL},
    {"flex", "flex", 0,
     "FLEX: generic RAP order and metric-specific orders through MPS, best"
     " one improved by local search", so_flex_flex_solve, so_flex_backend_options},
    {"flex-generic", "flex", 0, "MPS with the RAP completion order only",
     so_flex_generic_solve, NULL},
    {"fifo", "flex", 0, "MPS in arrival order with all minima 0 (maxima kept)",
     so_flex_fifo_solve, NULL},
    {"fair", "flex", 0,
     "Hadoop fair-scheduler waterline over minima and maxima, recomputed at"
     " each completion", so_flex_fair_solve, so_flex_fair_options},

    /* pareto */
    {"pareto-sweep", "pareto", 1,
     "exact frontier by a makespan-threshold sweep over per-job VM counts"
     " (unlimited VMs)", so_pt_sweep_solve, so_pt_sweep_options},
    {"pareto-enum", "pareto", 1,
     "exact frontier by enumerating every plan (the paper's Optimal; size"
     " limit)", so_pt_enum_solve, so_pt_enum_options},
    {"pareto-glpk", "pareto", 1,
     "exact frontier by the epsilon-constraint method on a GLPK MILP",
     so_pt_glpk_solve, so_pt_glpk_options},
    {"pareto-slots", "pareto", 0,
     "greedy frontier search, Slots' Allocation (Algorithms 1, 2; options:"
     " task adjustment, buffer tuning)", so_pt_slots_solve, so_pt_greedy_options},
    {"pareto-vms", "pareto", 0,
     "greedy frontier search, VMs' Allocation (Algorithms 1, 3; options:"
     " task adjustment, buffer tuning)", so_pt_vms_solve, so_pt_greedy_options},
    {"pareto-nsga2", "pareto", 0,
     "NSGA-II over per-job slot allocations (the paper's GA baseline)",
     so_pt_nsga2_solve, so_pt_nsga2_options},

    /* ras */
    {"ras-glpk", "ras", 1,
     "lexicographic MILP by GLPK: max-min utility, then utilisation at it",
     so_ras_glpk_solve, NULL},
    {"ras-enum", "ras", 1,
     "brute force over every placement (tiny instances; the cross-check)",
     so_ras_enum_solve, NULL},
    {"ras", "ras", 0,
     "the paper's Algorithm 1: reducers spread first, rounds of map-slot"
     " moves to the lowest utility, greedy fill", so_ras_heuristic_solve,
     so_ras_heuristic_options},
    {"ras-exact", "ras", 1,
     "ras-glpk's lexicographic MILP from ras-plus's level, with symmetry"
     " rows between identical TaskTrackers", so_ras_exact_solve, NULL},
    {"ras-plus", "ras", 0,
     "bisection on the max-min utility level with a packing check, fill,"
     " local search (docs/ras.md)", so_ras_plus_solve, so_ras_plus_options},
};

/* ---- family generators, by problem ------------------------------------------ */
/* knapsack */
extern const so_option_doc so_kp_family_params[];
int so_kp_family_generate(const so_params *, so_rng *, json_t **, so_error *);
extern const so_option_doc so_kp_jooken_params[];
int so_kp_jooken_generate(const so_params *, so_rng *, json_t **, so_error *);

/* flex */
extern const so_option_doc so_flex_family_params[];
int so_flex_family_generate(const so_params *, so_rng *, json_t **, so_error *);

/* pareto */
extern const so_option_doc so_pt_yahoo_params[], so_pt_taobao_params[],
    so_pt_puma_params[];
int so_pt_yahoo_generate(const so_params *, so_rng *, json_t **, so_error *);
int so_pt_taobao_generate(const so_params *, so_rng *, json_t **, so_error *);
int so_pt_puma_generate(const so_params *, so_rng *, json_t **, so_error *);

/* ras */
extern const so_option_doc so_ras_gridmix_params[];
int so_ras_gridmix_generate(const so_params *, so_rng *, json_t **, so_error *);
extern const so_option_doc so_ras_random_params[];
int so_ras_random_generate(const so_params *, so_rng *, json_t **, so_error *);

/* cluster workloads */
extern const so_option_doc so_cl_wpbs_params[], so_cl_stealing_params[],
    so_cl_ras_gridmix_params[];
int so_cl_wpbs_generate(const so_params *, so_rng *, json_t **, so_error *);
int so_cl_stealing_generate(const so_params *, so_rng *, json_t **, so_error *);
int so_cl_ras_gridmix_generate(const so_params *, so_rng *, json_t **,
                               so_error *);
extern const so_option_doc so_cl_swim_synth_params[];
int so_cl_swim_synth_generate(const so_params *, so_rng *, json_t **,
                              so_error *);
extern const so_option_doc so_cl_flex_cluster_params[];
int so_cl_flex_cluster_generate(const so_params *, so_rng *, json_t **,
                                so_error *);

static const so_family families[] = {
    /* knapsack */
    {"knapsack", "knapsack",
     "Pisinger's classes (uncorrelated ... similar weights), n items in [1, R]",
     so_kp_family_params, so_kp_family_generate},
    {"knapsack-jooken", "knapsack",
     "hard instances of Jooken, Leyman and De Causmaecker (EJOR 2022): g"
     " groups of items near c/2^i, a fraction f of small items",
     so_kp_jooken_params, so_kp_jooken_generate},

    /* flex */
    {"flex-paper", "flex",
     "FLEX simulation inputs (Wolf et al. 2010, Sec. 4.1): bimodal work,"
     " minima from the slack, weights and deadlines uniform",
     so_flex_family_params, so_flex_family_generate},

    /* pareto */
    {"pareto-yahoo", "pareto",
     "Yahoo! trace jobs (normal task times and counts), $10..$80, 4000 s",
     so_pt_yahoo_params, so_pt_yahoo_generate},
    {"pareto-taobao", "pareto",
     "Taobao trace jobs (lognormal task times), $10..$80, 3000 s",
     so_pt_taobao_params, so_pt_taobao_generate},
    {"pareto-puma", "pareto",
     "the paper's Table 2 PUMA workloads, profiles from history runs, up to $20",
     so_pt_puma_params, so_pt_puma_generate},

    /* ras */
    {"ras-gridmix", "ras",
     "the paper's Gridmix workload (Tables 1-2: Sort, Combine, Select) on 20"
     " TaskTrackers, a snapshot at a chosen time", so_ras_gridmix_params,
     so_ras_gridmix_generate},
    {"ras-random", "ras",
     "random TaskTrackers, jobs and resources at a chosen tightness",
     so_ras_random_params, so_ras_random_generate},

    /* cluster workloads (slotopt sim) */
    {"wpbs-paper", "cluster",
     "WPBS paper's Table II: 11 nodes x 2+2 slots; WordCount, Pi, Grep, Sort"
     " users with their sizes, arrival patterns and job counts",
     so_cl_wpbs_params, so_cl_wpbs_generate},
    {"stealing-paper", "cluster",
     "resource-stealing paper (Guo et al. 2012): one job (ts-map, ts-reduce,"
     " mm, mr-wc, wordcount, io) on 32 nodes x 7+7 slots, stragglers",
     so_cl_stealing_params, so_cl_stealing_generate},
    {"ras-gridmix-workload", "cluster",
     "RAS paper's Gridmix jobs (Tables 1-2) with submit times and per-phase"
     " demands on 20 TaskTrackers, cpu/io shared, memory hard",
     so_cl_ras_gridmix_params, so_cl_ras_gridmix_generate},
    {"swim-synth", "cluster",
     "SWIM-like jobs (byte counts fitted to the FB-2009 sample, tasks derived"
     " as for SWIM traces) at a chosen job count, arrival rate and cluster"
     " size", so_cl_swim_synth_params, so_cl_swim_synth_generate},
    {"flex-cluster", "cluster",
     "FLEX paper's cluster experiments (Sec. 4.2, Fig. 6): 26 blades (13 x"
     " 4+2, 13 x 8+4 slots), jobs of varied size in one pool, slack,"
     " exponential arrivals", so_cl_flex_cluster_params,
     so_cl_flex_cluster_generate},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

size_t so_backend_count(void) { return COUNT(backends); }

const so_backend *so_backend_at(size_t i)
{
    return i < COUNT(backends) ? &backends[i] : NULL;
}

const char *const *so_backend_names(void)
{
    static const char *names[COUNT(backends) + 1];
    if (!names[0])
        for (size_t i = 0; i < COUNT(backends); i++)
            names[i] = backends[i].name;
    return names;
}

const so_backend *so_backend_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < COUNT(backends); i++)
        if (strcmp(backends[i].name, name) == 0)
            return &backends[i];
    return NULL;
}

const so_backend *so_backend_default(const char *problem)
{
    if (!problem)
        return NULL;
    for (size_t i = 0; i < COUNT(backends); i++)
        if (strcmp(backends[i].problem, problem) == 0 && backends[i].exact)
            return &backends[i];
    for (size_t i = 0; i < COUNT(backends); i++)
        if (strcmp(backends[i].problem, problem) == 0)
            return &backends[i];
    return NULL;
}

size_t so_family_count(void) { return COUNT(families); }

const so_family *so_family_at(size_t i)
{
    return i < COUNT(families) ? &families[i] : NULL;
}

const char *const *so_family_names(void)
{
    static const char *names[COUNT(families) + 1];
    if (!names[0])
        for (size_t i = 0; i < COUNT(families); i++)
            names[i] = families[i].name;
    return names;
}

const so_family *so_family_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < COUNT(families); i++)
        if (strcmp(families[i].name, name) == 0)
            return &families[i];
    return NULL;
}

/* A parameter's text as it goes into meta.params: a JSON number when the
 * whole text is one (an integer when it is written as one), else a string. */
static json_t *param_value(const char *text)
{
    char *end;
    errno = 0;
    long long i = strtoll(text, &end, 10);
    if (*text && !*end && !errno && !isspace((unsigned char)*text))
        return json_integer((json_int_t)i);
    double x = strtod(text, &end);
    if (*text && !*end && isfinite(x) && !isspace((unsigned char)*text) &&
        strspn(text, "0123456789+-.eE") == strlen(text))
        return json_real(x);
    return json_string(text);
}

int so_family_generate(const so_family *f, const so_params *settings,
                       uint64_t seed, uint64_t index, json_t **instance,
                       so_error *err)
{
    if (instance)
        *instance = NULL;
    if (!f || !instance)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "so_family_generate: NULL argument");
    char what[96];
    snprintf(what, sizeof what, "family '%s'", f->name);
    int rc = so_params_check(settings, f->params, what, err);
    if (rc)
        return rc;
    so_rng rng;
    so_rng_seed_stream(&rng, seed, index);
    rc = f->generate(settings, &rng, instance, err);
    if (rc)
        return rc;
    json_t *params = json_object();
    for (const so_option_doc *d = f->params; d && d->key; d++)
        json_object_set_new(params, d->key,
                            param_value(so_params_str(settings, f->params,
                                                      d->key, "")));
    json_t *meta = json_object();
    json_object_set_new(meta, "family", json_string(f->name));
    json_object_set_new(meta, "seed", json_integer((json_int_t)seed));
    json_object_set_new(meta, "index", json_integer((json_int_t)index));
    json_object_set_new(meta, "params", params);
    json_object_set_new(*instance, "meta", meta);
    return SO_OK;
}
