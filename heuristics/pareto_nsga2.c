/* pareto_nsga2.c — `pareto-nsga2`: NSGA-II (Deb, Pratap, Agarwal and
 * Meyarivan, "A fast and elitist multiobjective genetic algorithm: NSGA-II",
 * IEEE TEC 6(2), 2002: fast non-dominated sorting, crowding distance,
 * crowded binary tournament, elitist (mu + lambda) survival; constraints by
 * Deb's constrained domination, section VI), the multi-objective genetic
 * baseline of Zacheilas and Kalogeraki 2017, section 6.4.2.
 * Genome: (ms_j, rs_j) per job, integers in [1, mt_j] x [1, rt_j]; task
 * counts and buffers are the instance's. Choices: uniform crossover (each
 * job's genes from either parent) with probability `crossover` per pair;
 * each gene mutates with probability `mutation` (default 1 / (2 J)), half
 * the time to a uniform value, half by a step of up to 10 % of its range;
 * violation = relative excess over the deadline and budget_max plus the
 * relative shortfall under budget_min. Every feasible plan evaluated is
 * offered to an archive of non-dominated plans, which is the frontier. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "heuristics/pareto_heuristics.h"

const so_option_doc so_pt_nsga2_options[] = {
    {"population", "100", "population size (even, >= 4)"},
    {"generations", "200", "number of generations"},
    {"crossover", "0.9", "crossover probability per pair"},
    {"mutation", "0", "mutation probability per gene (0: 1 / (2 jobs))"},
    SO_PT_REFERENCE_OPTION,
    {NULL, NULL, NULL},
};

typedef struct {
    int64_t *gene; /* ms_0, rs_0, ms_1, rs_1, ... */
    double makespan, budget, violation;
    int rank;
    double crowd;
} individual;

typedef struct {
    const so_pareto *pr;
    const so_pt_nsga2_opts *o;
    so_rng rng;
    so_pt_alloc *plan;
    so_pt_frontier *archive;
    size_t genes;
} ga;

static int64_t gene_max(const ga *g, size_t k)
{
    const so_pt_job *job = &g->pr->jobs[k / 2];
    return k % 2 ? job->reduce_tasks : job->map_tasks;
}

static int evaluate(ga *g, individual *x)
{
    const so_pareto *pr = g->pr;
    for (size_t j = 0; j < pr->n_jobs; j++) {
        so_pt_alloc_init(pr, j, &g->plan[j]);
        g->plan[j].ms = x->gene[2 * j];
        g->plan[j].rs = x->gene[2 * j + 1];
    }
    int rc = so_pt_plan_eval(pr, g->plan, NULL, &x->makespan, &x->budget);
    if (rc)
        return rc;
    double v = 0;
    if (isfinite(pr->deadline))
        v += fmax(0, x->makespan / pr->deadline - 1);
    if (isinf(x->makespan))
        v += 1e9; /* over the VM cap */
    if (isfinite(pr->budget_max))
        v += fmax(0, x->budget / fmax(pr->budget_max, 1e-12) - 1);
    if (pr->budget_min > 0)
        v += fmax(0, 1 - x->budget / pr->budget_min);
    x->violation = v;
    if (v == 0) {
        int added = so_pt_frontier_offer(g->archive, x->makespan, x->budget, g->plan);
        return added < 0 ? added : SO_OK;
    }
    return SO_OK;
}

/* Deb's constrained domination. */
static int dominates(const individual *a, const individual *b)
{
    if (a->violation != b->violation)
        return a->violation < b->violation;
    return a->makespan <= b->makespan && a->budget <= b->budget &&
           (a->makespan < b->makespan || a->budget < b->budget);
}

static int by_makespan(const void *x, const void *y, void *arg)
{
    const individual *pop = arg;
    double a = pop[*(const size_t *)x].makespan, b = pop[*(const size_t *)y].makespan;
    return (a > b) - (a < b);
}
static int by_budget(const void *x, const void *y, void *arg)
{
    const individual *pop = arg;
    double a = pop[*(const size_t *)x].budget, b = pop[*(const size_t *)y].budget;
    return (a > b) - (a < b);
}

static void crowding(individual *pop, size_t *front, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pop[front[i]].crowd = 0;
    int (*cmp[2])(const void *, const void *, void *) = {by_makespan, by_budget};
    for (int m = 0; m < 2; m++) {
        qsort_r(front, n, sizeof *front, cmp[m], pop);
        double lo = m ? pop[front[0]].budget : pop[front[0]].makespan;
        double hi = m ? pop[front[n - 1]].budget : pop[front[n - 1]].makespan;
        pop[front[0]].crowd = pop[front[n - 1]].crowd = INFINITY;
        if (!(hi > lo) || !isfinite(hi - lo))
            continue;
        for (size_t i = 1; i + 1 < n; i++) {
            double a = m ? pop[front[i - 1]].budget : pop[front[i - 1]].makespan;
            double b = m ? pop[front[i + 1]].budget : pop[front[i + 1]].makespan;
            pop[front[i]].crowd += (b - a) / (hi - lo);
        }
    }
}

/* Fast non-dominated sort of pop[0..n) and crowding; fills rank and crowd. */
static int rank_population(individual *pop, size_t n)
{
    size_t *count = calloc(n, sizeof *count), *front = malloc(n * sizeof *front);
    unsigned char *dom = malloc(n * n);
    if (!count || !front || !dom) {
        free(count);
        free(front);
        free(dom);
        return SO_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n; k++) {
            dom[i * n + k] = i != k && dominates(&pop[i], &pop[k]);
            count[k] += dom[i * n + k];
        }
    size_t done = 0;
    for (int r = 0; done < n; r++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (count[i] == 0) {
                front[m++] = i;
                count[i] = (size_t)-1;
                pop[i].rank = r;
            }
        for (size_t a = 0; a < m; a++)
            for (size_t k = 0; k < n; k++)
                if (dom[front[a] * n + k] && count[k] != (size_t)-1)
                    count[k]--;
        crowding(pop, front, m);
        done += m;
    }
    free(count);
    free(front);
    free(dom);
    return SO_OK;
}

static int better(const individual *a, const individual *b)
{
    return a->rank < b->rank || (a->rank == b->rank && a->crowd > b->crowd);
}

static const individual *tournament(ga *g, const individual *pop, size_t n)
{
    const individual *a = &pop[so_rng_int(&g->rng, 0, (int64_t)n - 1)];
    const individual *b = &pop[so_rng_int(&g->rng, 0, (int64_t)n - 1)];
    return better(b, a) ? b : a;
}

static void mutate(ga *g, individual *x, double pm)
{
    for (size_t k = 0; k < g->genes; k++) {
        if (so_rng_uniform(&g->rng) >= pm)
            continue;
        int64_t hi = gene_max(g, k);
        if (so_rng_uniform(&g->rng) < 0.5) {
            x->gene[k] = so_rng_int(&g->rng, 1, hi);
        } else {
            int64_t step = hi / 10 > 1 ? hi / 10 : 1;
            int64_t v = x->gene[k] + so_rng_int(&g->rng, -step, step);
            x->gene[k] = v < 1 ? 1 : v > hi ? hi : v;
        }
    }
}

static int cmp_survivor(const void *x, const void *y)
{
    const individual *a = x, *b = y;
    return better(a, b) ? -1 : better(b, a) ? 1 : 0;
}

int so_pt_nsga2(const so_pareto *pr, const so_pt_nsga2_opts *o, so_pt_frontier *f)
{
    ga g = {pr, o, {{0}, 0, 0}, NULL, f, 2 * pr->n_jobs};
    so_rng_seed(&g.rng, o->seed);
    size_t np = (size_t)o->population, total = 2 * np;
    double pm = o->mutation > 0 ? o->mutation : 1.0 / (double)g.genes;
    individual *pop = calloc(total, sizeof *pop);
    int64_t *genes = malloc(total * g.genes * sizeof *genes);
    int64_t *swap = malloc(total * g.genes * sizeof *swap);
    g.plan = malloc(pr->n_jobs * sizeof *g.plan);
    int rc = pop && genes && swap && g.plan ? SO_OK : SO_ENOMEM;
    for (size_t i = 0; !rc && i < total; i++)
        pop[i].gene = genes + i * g.genes;
    for (size_t i = 0; !rc && i < np; i++) {
        for (size_t k = 0; k < g.genes; k++)
            pop[i].gene[k] = i == 0 ? 1 : so_rng_int(&g.rng, 1, gene_max(&g, k));
        rc = evaluate(&g, &pop[i]);
    }
    if (!rc)
        rc = rank_population(pop, np);
    for (long gen = 0; !rc && gen < o->generations; gen++) {
        for (size_t i = np; !rc && i < total; i += 2) {
            const individual *a = tournament(&g, pop, np), *b = tournament(&g, pop, np);
            individual *c = &pop[i], *d = &pop[i + 1];
            int cross = so_rng_uniform(&g.rng) < o->crossover;
            for (size_t j = 0; j < pr->n_jobs; j++) {
                int flip = cross && so_rng_uniform(&g.rng) < 0.5;
                for (size_t h = 2 * j; h < 2 * j + 2; h++) {
                    c->gene[h] = flip ? b->gene[h] : a->gene[h];
                    d->gene[h] = flip ? a->gene[h] : b->gene[h];
                }
            }
            mutate(&g, c, pm);
            mutate(&g, d, pm);
            rc = evaluate(&g, c);
            if (!rc)
                rc = evaluate(&g, d);
        }
        if (!rc)
            rc = rank_population(pop, total);
        if (rc)
            break;
        /* survivors: the best np by (rank, crowding); genes move with them */
        for (size_t i = 0; i < total; i++) {
            memcpy(swap + i * g.genes, pop[i].gene, g.genes * sizeof *swap);
            pop[i].gene = swap + i * g.genes;
        }
        qsort(pop, total, sizeof *pop, cmp_survivor);
        for (size_t i = 0; i < total; i++) {
            memcpy(genes + i * g.genes, pop[i].gene, g.genes * sizeof *genes);
            pop[i].gene = genes + i * g.genes;
        }
        rc = rank_population(pop, np);
    }
    free(pop);
    free(genes);
    free(swap);
    free(g.plan);
    return rc;
}

int so_pt_nsga2_solve(const so_problem *p, const so_params *prm, so_result *r)
{
    const so_pareto *pr = so_pareto_of(p);
    const so_option_doc *d = so_pt_nsga2_options;
    long long pop, gens;
    so_pt_nsga2_opts o = {0, 0, 0, 0, prm->seed};
    so_error err;
    so_error_clear(&err);
    int rc = so_params_int(prm, d, "population", 100, &pop, &err);
    if (!rc)
        rc = so_params_int(prm, d, "generations", 200, &gens, &err);
    if (!rc)
        rc = so_params_double(prm, d, "crossover", 0.9, &o.crossover, &err);
    if (!rc)
        rc = so_params_double(prm, d, "mutation", 0, &o.mutation, &err);
    if (!rc && (pop < 4 || pop > 100000 || pop % 2))
        rc = so_error_setf(&err, NULL, 0, 0, "population",
                           "expected an even number in 4..100000, found %lld", pop);
    if (!rc && (gens < 0 || gens > 10000000))
        rc = so_error_setf(&err, NULL, 0, 0, "generations",
                           "expected 0..1e7, found %lld", gens);
    if (!rc && !(o.crossover >= 0 && o.crossover <= 1))
        rc = so_error_setf(&err, NULL, 0, 0, "crossover", "expected [0, 1], found %g",
                           o.crossover);
    if (!rc && !(o.mutation >= 0 && o.mutation <= 1))
        rc = so_error_setf(&err, NULL, 0, 0, "mutation", "expected [0, 1], found %g",
                           o.mutation);
    if (rc) {
        so_result_set_message(r, "option %s: %s", err.key, err.message);
        return rc;
    }
    o.population = (long)pop;
    o.generations = (long)gens;
    so_pt_frontier f;
    so_pt_frontier_init(&f, pr->n_jobs);
    rc = so_pt_nsga2(pr, &o, &f);
    if (!rc)
        rc = so_pt_report(p, prm, r, &f, 0);
    so_pt_frontier_free(&f);
    return rc;
}
