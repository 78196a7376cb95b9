/*
 * offline_opt.c — `offline-opt`: an incumbent offline schedule and its gap
 * to lp-bound (docs/offline.md, "offline-opt").
 *
 * The schedules searched are strict priority lists (cluster/sched_priority.c:
 * a free slot goes to the first job in a fixed order with a task to run),
 * each under eight rules — reduces free to start at slow-start or held
 * until the job's maps are done; with free reduces and a list task rule,
 * every job's opening maps (those that open its reduces) first or not; a
 * job's tasks in the workload's order,
 * longest first (LPT inside the job: its last wave is its shortest tasks,
 * so its slots free up closer together, about half the gap to lp-bound on
 * flex-cluster), or its maps placed by a plan that packs them so that its
 * slots finish it together (cluster/offline_plan.c; about half of what is
 * left) — replayed on the cluster model itself: every objective is
 * that of a schedule the simulator produced, with the workload's
 * heartbeats, slow-start and task times. Up to SO_CL_OFFLINE_OPT_EXHAUSTIVE
 * jobs every order is replayed under the list rules and the 24 best of
 * them (every order up to 4 jobs) with planned maps; above, first-improvement
 * local search by insertion moves (take a job out, put it back elsewhere)
 * from six start orders — the completion orders of flex, fair and fifo
 * runs, the submit order, the order by lp-bound's per-job release plus
 * bound and by total work (SPT), each replayed under every rule — the
 * best first, each under its best list rule (index or longest: a replay
 * with planned maps costs about eight times as much), until no move
 * improves or half the time limit; the
 * incumbent's order is then replayed under the other rules, and local
 * search under the best of them goes on from it until the limit. Above
 * SO_CL_OFFLINE_OPT_MAX_JOBS jobs (a trace) the incumbent is the better of
 * the scheduler's named orders, submit and spt, under the list rules, with
 * no search (search_named). The incumbent is proved
 * optimal over every schedule when its sum of responses meets lp-bound's
 * bound (within 1e-9 relative, both ways); above, the answer is the
 * interval [bound, incumbent]; below, the bound does not hold for the
 * workload and the search fails (so_cl_offline_verdict), never "optimal". Priority lists never leave a slot idle while a job
 * waits, so an optimum that idles (waiting for a short job about to
 * arrive) is outside the search: the gap then stays open.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/offline_bound.h"
#include "cluster/offline_opt.h"

const char *so_cl_offline_rule_tasks(int rule)
{
    return rule & SO_CL_OFFLINE_PLANNED   ? "planned"
           : rule & SO_CL_OFFLINE_LONGEST ? "longest"
                                          : "index";
}

void so_cl_offline_order_text(const int *order, int n, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%d", i ? "," : "", order[i]);
}

double so_cl_job_work(const so_cl_job_spec *js)
{
    double work = 0;
    for (int i = 0; i < js->n_maps; i++)
        work += js->map_work[i];
    for (int i = 0; i < js->n_reduces; i++)
        work += js->reduce_work[i].copy + js->reduce_work[i].sort + js->reduce_work[i].reduce;
    return work;
}

int so_cl_spt_order(const so_cl_workload *w, int *order)
{
    int n = w->n_jobs;
    so_cl_keyed *key = malloc((n > 0 ? (size_t)n : 1) * sizeof *key);
    if (!key)
        return SO_ENOMEM;
    for (int j = 0; j < n; j++)
        key[j] = (so_cl_keyed){so_cl_job_work(&w->jobs[j]), j};
    qsort(key, (size_t)n, sizeof *key, so_cl_keyed_cmp);
    for (int j = 0; j < n; j++)
        order[j] = key[j].index;
    free(key);
    return SO_OK;
}

/* A replay with the scheduler's order option text (a list, or a name).
 * A run that stalls (cluster/stall.c) is an error, or with may_stall no
 * schedule at all: an infinite sum, so the search goes on past it. */
static int replay_text(const so_cl_workload *w, uint64_t seed, const char *text, int rule,
                       double *sum, double *resp, int may_stall, so_error *err)
{
    so_params prm;
    so_params_init(&prm);
    int rc = so_params_set(&prm, "order", text);
    if (!rc)
        rc = so_params_set(&prm, "delay_reduces", rule & SO_CL_OFFLINE_DELAY ? "1" : "0");
    if (!rc)
        rc = so_params_set(&prm, "tasks", so_cl_offline_rule_tasks(rule));
    if (!rc && (rule & SO_CL_OFFLINE_OPEN))
        rc = so_params_set(&prm, "open_first", "2");
    if (!rc)
        rc = so_params_set(&prm, "padding", "0");
    if (rc)
        return so_error_setf(err, NULL, 0, 0, "order", "order of %d jobs too long",
                             w->n_jobs);
    so_cl_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.scheduler = so_cl_scheduler_find("priority");
    cfg.params = &prm;
    cfg.seed = seed;
    so_cl_sim *sim = NULL;
    rc = so_cl_sim_new(w, &cfg, &sim, err);
    if (!rc)
        rc = so_cl_sim_failure(sim, so_cl_sim_run(sim), err);
    if (rc == SO_EBACKEND && may_stall) {
        *sum = INFINITY;
        rc = SO_OK;
    } else if (!rc) {
        *sum = 0;
        for (int j = 0; j < w->n_jobs; j++) {
            const so_cl_job_result *jr = so_cl_sim_job(sim, j);
            *sum += jr->finish - jr->submit;
            if (resp)
                resp[j] = jr->finish - jr->submit;
        }
    }
    so_cl_sim_free(sim);
    return rc;
}

int so_cl_offline_replay(const so_cl_workload *w, uint64_t seed, const int *order,
                         int rule, double *sum, double *resp, so_error *err)
{
    char text[sizeof ((so_params *)0)->options[0].value];
    so_cl_offline_order_text(order, w->n_jobs, text, sizeof text);
    return replay_text(w, seed, text, rule, sum, resp, 0, err);
}

typedef struct {
    const so_cl_workload *w;
    uint64_t seed;
    double deadline; /* so_now() time; INFINITY: none */
    double half;     /* the list rules' local search stops here */
    so_cl_offline_opt *out;
    int *trial;
    so_error *err;
    int rule; /* the incumbent's */
} search;

int so_cl_offline_verdict(double sum, double bound, int *proved, so_error *err)
{
    double tol = SO_CL_OFFLINE_TOL * fmax(fabs(bound), 1e-300);
    *proved = fabs(sum - bound) <= tol;
    if (sum < bound - tol)
        return so_error_setf(err, NULL, 0, 0, NULL, "a simulated schedule's sum of"
                             " responses %.17g is below lp-bound's %.17g: the bound does not"
                             " hold for this workload (docs/offline.md, \"What the bound"
                             " assumes\")", sum, bound);
    return SO_OK;
}

/* Met (or, invalidly, beaten: the end's verdict says so) or out of time. */
static int stop(const search *s)
{
    if (s->out->sum <= s->out->bound * (1 + SO_CL_OFFLINE_TOL))
        return 1;
    if (so_now() > s->deadline) {
        s->out->timed_out = 1;
        return 1;
    }
    return 0;
}

/* stop(), or the list rules' half of the time is over. */
static int stop_lists(const search *s)
{
    return stop(s) || so_now() > s->half;
}

/* Replays order under every rule of the mask (bit r: rule r); keeps the
 * best as incumbent. *best: the smallest sum of them, *rule its rule. */
static int evaluate(search *s, const int *order, unsigned mask, double *best, int *rule)
{
    *best = INFINITY;
    *rule = 0; /* the mask's first rule until one gives a finite sum */
    while (*rule < SO_CL_OFFLINE_RULES - 1 && !(mask & (1u << *rule)))
        ++*rule;
    for (int r = 0; r < SO_CL_OFFLINE_RULES; r++) {
        if (!(mask & (1u << r)))
            continue;
        double sum;
        char text[sizeof ((so_params *)0)->options[0].value];
        so_cl_offline_order_text(order, s->w->n_jobs, text, sizeof text);
        int rc = replay_text(s->w, s->seed, text, r, &sum, NULL, 1, s->err);
        if (rc)
            return rc;
        s->out->evaluations++;
        if (sum < *best) {
            *best = sum;
            *rule = r;
        }
        if (sum < s->out->sum) {
            s->out->sum = sum;
            s->rule = r;
            memcpy(s->out->order, order, (size_t)s->w->n_jobs * sizeof *order);
        }
    }
    return SO_OK;
}

#define ALL_RULES SO_CL_OFFLINE_RULE_MASK
#define LIST_RULES (ALL_RULES & ~(3u << SO_CL_OFFLINE_PLANNED))

/* The orders best under the list rules that the exhaustive search then
 * replays with planned maps: every order up to 4 jobs (4! = 24). */
#define PLANNED_ORDERS 24
typedef struct {
    int n;
    double value[PLANNED_ORDERS];
    int order[PLANNED_ORDERS][SO_CL_OFFLINE_OPT_EXHAUSTIVE];
} best_orders;

/* Keeps order a (best list-rule sum v) if among the PLANNED_ORDERS best. */
static void keep_order(best_orders *b, const int *a, int n, double v)
{
    int at;
    if (b->n < PLANNED_ORDERS)
        at = b->n++;
    else if (v < b->value[PLANNED_ORDERS - 1])
        at = PLANNED_ORDERS - 1; /* the worst kept one goes */
    else
        return;
    while (at > 0 && b->value[at - 1] > v) {
        b->value[at] = b->value[at - 1];
        memcpy(b->order[at], b->order[at - 1], sizeof b->order[at]);
        at--;
    }
    b->value[at] = v;
    memcpy(b->order[at], a, (size_t)n * sizeof *a);
}

/* Every permutation of a[k..n) under the list rules (Heap's algorithm would
 * do; recursion is enough for n <= SO_CL_OFFLINE_OPT_EXHAUSTIVE), the best
 * kept in *best. */
static int permute(search *s, int *a, int k, int n, best_orders *best)
{
    if (k == n) {
        double v;
        int r;
        int rc = evaluate(s, a, LIST_RULES, &v, &r);
        if (!rc)
            keep_order(best, a, n, v);
        return rc;
    }
    for (int i = k; i < n; i++) {
        int t = a[k];
        a[k] = a[i];
        a[i] = t;
        int rc = permute(s, a, k + 1, n, best);
        a[i] = a[k];
        a[k] = t;
        if (rc || (s->out->timed_out || stop(s)))
            return rc;
    }
    return SO_OK;
}

/* a with element at i moved to position j, into b */
static void move(const int *a, int n, int i, int j, int *b)
{
    int x = a[i], k = 0;
    for (int p = 0; p < n; p++)
        if (p != i)
            b[k++] = a[p];
    memmove(b + j + 1, b + j, (size_t)(n - 1 - j) * sizeof *b);
    b[j] = x;
}

/* From cur under rule: first-improvement insertion moves until none
 * improves (or halt()). */
static int local_search(search *s, int *cur, int rule, int (*halt)(const search *))
{
    int n = s->w->n_jobs, r;
    double v;
    int rc = evaluate(s, cur, 1u << rule, &v, &r);
    for (int improved = 1; !rc && improved && !halt(s);) {
        improved = 0;
        for (int i = 0; i < n && !improved && !rc && !halt(s); i++)
            for (int j = 0; j < n && !improved && !rc && !halt(s); j++) {
                if (j == i)
                    continue;
                move(cur, n, i, j, s->trial);
                double t;
                rc = evaluate(s, s->trial, 1u << rule, &t, &r);
                if (!rc && t < v - 1e-9) {
                    v = t;
                    memcpy(cur, s->trial, (size_t)n * sizeof *cur);
                    improved = 1;
                }
            }
    }
    return rc;
}

/* Job finish times of a run of the named policy (seed as the search's); a
 * run that stalls (cluster/stall.c) gives its unfinished jobs an infinite
 * finish (last in the order, by index). */
static int policy_finish(const search *s, const char *name, so_cl_keyed *key)
{
    so_cl_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.scheduler = so_cl_scheduler_find(name);
    cfg.seed = s->seed;
    so_cl_sim *sim = NULL;
    int rc = so_cl_sim_new(s->w, &cfg, &sim, s->err);
    if (!rc) {
        rc = so_cl_sim_run(sim);
        rc = so_cl_sim_failure(sim, rc == SO_EBACKEND ? SO_OK : rc, s->err);
    }
    for (int j = 0; !rc && j < s->w->n_jobs; j++) {
        double finish = so_cl_sim_job(sim, j)->finish;
        key[j] = (so_cl_keyed){finish < 0 ? INFINITY : finish, j};
    }
    so_cl_sim_free(sim);
    return rc;
}

/* The start orders: the completion orders of flex, fair and fifo runs,
 * the submit order, the order by r_j + LB_j and by total work (SPT); each
 * replayed, then local search from each, the best first. */
#define N_STARTS 6
static int search_starts(search *s, const so_cl_offline_bound *b, so_cl_keyed *key, int *cur)
{
    const so_cl_workload *w = s->w;
    int n = w->n_jobs, rc = SO_OK;
    int *starts = malloc((size_t)N_STARTS * (size_t)n * sizeof *starts);
    so_cl_keyed value[N_STARTS];
    int rule[N_STARTS];
    if (!starts)
        return SO_ENOMEM;
    static const char *const policies[] = {"flex", "fair", "fifo"};
    int m = 0; /* the starts replayed: each after the first within the limit */
    for (; m < N_STARTS && !rc && !(m > 0 && stop(s)); m++) {
        int k = m;
        if (k < 3) {
            rc = policy_finish(s, policies[k], key);
        } else {
            for (int j = 0; j < n; j++) {
                const so_cl_job_spec *js = &w->jobs[j];
                key[j] = (so_cl_keyed){k == 3   ? js->submit
                                       : k == 4 ? js->submit + b->job[j]
                                                : so_cl_job_work(js), j};
            }
        }
        if (rc)
            break;
        qsort(key, (size_t)n, sizeof *key, so_cl_keyed_cmp);
        for (int j = 0; j < n; j++)
            starts[k * n + j] = key[j].index;
        value[k].index = k;
        rc = evaluate(s, starts + k * n, LIST_RULES, &value[k].key, &rule[k]);
        if (!rc) { /* and with planned maps, for the incumbent */
            double v;
            int r;
            rc = evaluate(s, starts + k * n, ALL_RULES & ~LIST_RULES, &v, &r);
        }
    }
    if (!rc)
        qsort(value, (size_t)m, sizeof *value, so_cl_keyed_cmp);
    for (int k = 0; k < m && !rc && !stop_lists(s); k++) {
        memcpy(cur, starts + value[k].index * n, (size_t)n * sizeof *cur);
        rc = local_search(s, cur, rule[value[k].index], stop_lists);
    }
    if (!rc && !stop(s)) { /* the incumbent's order under the other rules */
        double v;
        int r;
        memcpy(cur, s->out->order, (size_t)n * sizeof *cur);
        rc = evaluate(s, cur, ALL_RULES & ~(1u << s->rule), &v, &r);
    }
    if (!rc && !stop(s)) { /* on from the incumbent under its rule */
        memcpy(cur, s->out->order, (size_t)n * sizeof *cur);
        rc = local_search(s, cur, s->rule, stop);
    }
    free(starts);
    return rc;
}

/* Over SO_CL_OFFLINE_OPT_MAX_JOBS jobs (a trace): no order list fits an
 * option value, and one insertion move per pair of jobs would take millions
 * of replays. The incumbent is the better of the scheduler's named orders,
 * the submit order and SPT, under the list rules (planned maps place job
 * blocks in the order, so a job submitted late but early in the order holds
 * every later one back: 33,956 s of mean response against 124.8 s on the
 * FB-2009 day at 20 nodes). */
static int search_named(search *s, const char **name)
{
    static const char *const names[] = {"submit", "spt"};
    *name = names[0];
    for (int k = 0; k < 2 && !stop(s); k++)
        for (int r = 0; r < SO_CL_OFFLINE_RULES && !stop(s); r++) {
            if (!(LIST_RULES & (1u << r)))
                continue;
            double sum;
            int rc = replay_text(s->w, s->seed, names[k], r, &sum, NULL, 1, s->err);
            if (rc)
                return rc;
            s->out->evaluations++;
            if (sum < s->out->sum) {
                s->out->sum = sum;
                s->rule = r;
                *name = names[k];
            }
        }
    int n = s->w->n_jobs;
    if (*name == names[1])
        return so_cl_spt_order(s->w, s->out->order);
    for (int j = 0; j < n; j++)
        s->out->order[j] = j;
    return SO_OK;
}

void so_cl_offline_opt_free(so_cl_offline_opt *o)
{
    if (o) {
        free(o->order);
        free(o->responses);
        o->order = NULL;
        o->responses = NULL;
    }
}

int so_cl_offline_opt_solve(const so_cl_workload *w, uint64_t seed, double time_limit,
                            so_cl_offline_opt *out, so_error *err)
{
    memset(out, 0, sizeof *out);
    int n = w->n_jobs;
    size_t nn = n > 0 ? (size_t)n : 1;
    out->n_jobs = n;
    out->sum = INFINITY;
    out->order = malloc(nn * sizeof *out->order);
    out->responses = malloc(nn * sizeof *out->responses);
    int *cur = malloc(nn * sizeof *cur), *trial = malloc(nn * sizeof *trial);
    so_cl_keyed *key = malloc(nn * sizeof *key);
    so_cl_offline_bound b;
    memset(&b, 0, sizeof b);
    int rc = out->order && out->responses && cur && trial && key ? SO_OK : SO_ENOMEM;
    if (!rc)
        rc = so_cl_offline_bound_compute(w, seed, &b);
    double t0 = so_now();
    search s = {w, seed, time_limit > 0 ? t0 + time_limit : INFINITY,
                time_limit > 0 ? t0 + 0.5 * time_limit : INFINITY, out, trial, err, 0};
    if (!rc) {
        out->bound = b.sum;
        for (int j = 0; j < n; j++) /* the incumbent if every replay stalls */
            cur[j] = out->order[j] = j;
        if (n <= SO_CL_OFFLINE_OPT_EXHAUSTIVE) {
            best_orders best = {0, {0}, {{0}}};
            rc = permute(&s, cur, 0, n, &best);
            for (int k = 0; !rc && k < best.n && !stop(&s); k++) {
                double v;
                int r;
                rc = evaluate(&s, best.order[k], ALL_RULES & ~LIST_RULES, &v, &r);
            }
            /* every order, unless the time limit or a proof cut it short */
            out->exhaustive = !rc && !out->timed_out &&
                              !(out->sum <= out->bound * (1 + SO_CL_OFFLINE_TOL));
        } else if (n <= SO_CL_OFFLINE_OPT_MAX_JOBS) {
            rc = search_starts(&s, &b, key, cur);
        } else {
            rc = search_named(&s, &out->order_name);
        }
    }
    out->delay_reduces = (s.rule & SO_CL_OFFLINE_DELAY) != 0;
    out->tasks = so_cl_offline_rule_tasks(s.rule);
    out->open_first = s.rule & SO_CL_OFFLINE_OPEN ? 2 : 0;
    if (!rc && n > 0)
        rc = out->order_name ? replay_text(w, seed, out->order_name, s.rule, &out->sum,
                                           out->responses, 0, err)
                             : so_cl_offline_replay(w, seed, out->order, s.rule, &out->sum,
                                                    out->responses, err);
    if (!rc && n == 0)
        out->sum = 0;
    if (!rc)
        rc = so_cl_offline_verdict(out->sum, out->bound, &out->proved, err);
    so_cl_offline_bound_free(&b);
    free(cur);
    free(trial);
    free(key);
    if (rc)
        so_cl_offline_opt_free(out);
    return rc;
}
