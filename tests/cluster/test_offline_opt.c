/* test_offline_opt.c — offline-opt (cluster/offline_opt.c) and the priority
 * scheduler it replays (cluster/sched_priority.c): the order option and its
 * errors, delayed reduces and longest tasks first by hand, proofs by hand (one
 * the one-slot wave of lp-bound makes), the non-idling limit by
 * hand, brute force over every order on random tiny workloads (2-4 jobs),
 * the incumbent's replay, and the harness cell. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/offline_bound.h"
#include "cluster/offline_opt.h"
#include "tests/cluster/cluster_test.h"
#include "tests/test_util.h"
#include "tests/tools/harness_testing.h"

static so_cl_workload *parse(const char *json)
{
    so_cl_workload *w = NULL;
    so_error err;
    int rc = so_cl_workload_parse_json(json, strlen(json), "t.json", 1, &w, &err);
    CU_ASSERT_EQUAL(rc, SO_OK);
    return w;
}

/* One map slot, one reduce slot, beats every 1 s at 0, 1, ...; A (submit 0,
 * maps 4 and 4, one reduce of 1 + 0 + 1, slow-start 0.05 so it opens after
 * the first map) and B (submit 0, one map of 1). */
static const char *pair =
    "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
    "\"map_slots\":1,\"reduce_slots\":1}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"
    "\"jobs\":[{\"name\":\"A\",\"submit\":0,\"maps\":[4,4],"
    "\"reduces\":[{\"copy\":1,\"sort\":0,\"reduce\":1}]},"
    "{\"name\":\"B\",\"submit\":0,\"maps\":[1]}]}";

/* offline-opt of a JSON workload without time limit; 0 when it ran. */
static int opt_of(const char *json, so_cl_offline_opt *o)
{
    so_cl_workload *w = parse(json);
    so_error err;
    int rc = w ? so_cl_offline_opt_solve(w, 1, 0, o, &err) : SO_EINVAL;
    CU_ASSERT_EQUAL(rc, SO_OK);
    so_cl_workload_free(w);
    return rc;
}

/* A job's finish under scheduler priority with these options. */
static double run_opts(const char *json, const char *order, const char *delay,
                       const char *tasks, const char *open_first, int job)
{
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "order", order);
    so_params_set(&prm, "delay_reduces", delay);
    so_params_set(&prm, "tasks", tasks);
    so_params_set(&prm, "open_first", open_first);
    cl_run r = cl_simulate(json, "priority", NULL, &prm, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL(r.sim);
    double f = r.sim ? so_cl_sim_job(r.sim, job)->finish : NAN;
    cl_done(&r);
    return f;
}

static double run_tasks(const char *json, const char *order, const char *delay,
                        const char *tasks, int job)
{
    return run_opts(json, order, delay, tasks, "0", job);
}

static double run_order(const char *json, const char *order, const char *delay, int job)
{
    return run_tasks(json, order, delay, "index", job);
}

static void test_priority(void)
{
    /* A first: maps 0..4, 4..8 (B waits), reduce at 4, copy ends at 8 (last
     * map), reduce 8..9; B's map 8..9 (next beat at 8). */
    CU_ASSERT_DOUBLE_EQUAL(run_order(pair, "0,1", "0", 0), 9, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_order(pair, "0,1", "0", 1), 9, 1e-9);
    /* B first: 0..1, then A 1..5, 5..9; reduce launched at 5, ends 10 */
    CU_ASSERT_DOUBLE_EQUAL(run_order(pair, "1", "0", 1), 1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_order(pair, "1,0", "0", 0), 10, 1e-9);
    /* delayed reduces: launched at 9 (maps done), copy 1 and reduce 1: 11 */
    CU_ASSERT_DOUBLE_EQUAL(run_order(pair, "1,0", "1", 0), 11, 1e-9);
    /* named orders: spt is B (work 1) before A (4 + 4 + 1 + 1), submit A, B */
    CU_ASSERT_DOUBLE_EQUAL(run_order(pair, "spt", "0", 0), 10, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_order(pair, "spt", "0", 1), 1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_order(pair, "submit", "0", 1), 9, 1e-9);
    /* bad orders: exit 2 naming the key */
    const char *path = so_test_write("prio.json", pair);
    static const char *const bad[] = {"order=2", "order=0,0", "order=x", "order=0;1",
                                      "order=spt,0", "order=0,submit", "delay_reduces=2",
                                      "tasks=lpt", "open_first=-1", "open_first=x",
                                      "open_first=1000001"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char args[1200];
        snprintf(args, sizeof args, "sim %s --scheduler priority --opt '%s'", path, bad[i]);
        char *out = NULL, *err = NULL;
        CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)(strchr(bad[i], '=') - bad[i]), bad[i]);
        CU_ASSERT_PTR_NOT_NULL(err ? strstr(err, key) : NULL);
        free(out);
        free(err);
    }
}

/* Jobs arriving later than jobs behind them in the order (the scheduler
 * links the arrived, unfinished jobs in the order): one map slot, beats
 * every 1 s at 0, 1, ...; J0 (maps 1 x 5) and J1 (1) at 0, J2 (1) and J3 (no
 * tasks: in and out at once) at 0.5, J4 (1) at 1.5, order 4,0,3,2,1. J0 runs
 * 0..2, J4 (ahead of every job) 2..3, J0 3..6, J2 (between J0 and J1) 6..7,
 * J1 7..8, J3 done at its arrival, 0.5. */
static void test_late_arrivals(void)
{
    const char *json =
        "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
        "\"map_slots\":1,\"reduce_slots\":1}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"
        "\"jobs\":[{\"name\":\"J0\",\"submit\":0,\"maps\":[1,1,1,1,1]},"
        "{\"name\":\"J1\",\"submit\":0,\"maps\":[1]},{\"name\":\"J2\",\"submit\":0.5,"
        "\"maps\":[1]},{\"name\":\"J3\",\"submit\":0.5,\"maps\":[]},"
        "{\"name\":\"J4\",\"submit\":1.5,\"maps\":[1]}]}";
    static const double finish[] = {6, 8, 7, 0.5, 3};
    static const char *const rules[] = {"index", "longest"};
    for (int r = 0; r < 2; r++)
        for (int j = 0; j < 5; j++)
            CU_ASSERT_DOUBLE_EQUAL(run_tasks(json, "4,0,3,2,1", "0", rules[r], j), finish[j],
                                   1e-9);
}

/* open_first by hand: one map slot and one reduce slot, beats every second
 * at 0, 1, ...; A maps [1, 1, 1, 1], B maps [1, 1], one reduce of 1 s each,
 * slow-start 0.5 (A opens at 2 maps, B at 1). As a list (A, B): A's maps
 * 0..4, its reduce launched at 2 ends at 5; B's maps 4..6, reduce 6..7.
 * With open_first=2 B's opening map takes the slot at 2 (A has launched
 * its 2): A's maps end at 5, its reduce (on the slot since 2) at 6; B's
 * last map 5..6, reduce 6..7. With delayed reduces, opening them early is
 * void: open_first leaves the list as it is (A at 5), as with planned maps. */
static const char open_pair[] =
    "{\"cluster\":{\"nodes\":[{\"map_slots\":1,\"reduce_slots\":1}],\"heartbeat\":1,"
    "\"heartbeat_phase\":\"aligned\"},\"jobs\":[{\"name\":\"A\",\"submit\":0,"
    "\"slowstart\":0.5,\"maps\":[1,1,1,1],\"reduces\":[{\"copy\":0,\"sort\":0,"
    "\"reduce\":1}]},{\"name\":\"B\",\"submit\":0,\"slowstart\":0.5,\"maps\":[1,1],"
    "\"reduces\":[{\"copy\":0,\"sort\":0,\"reduce\":1}]}]}";

static void test_open_first_by_hand(void)
{
    CU_ASSERT_DOUBLE_EQUAL(run_opts(open_pair, "0,1", "0", "index", "0", 0), 5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_opts(open_pair, "0,1", "0", "index", "0", 1), 7, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_opts(open_pair, "0,1", "0", "index", "2", 0), 6, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_opts(open_pair, "0,1", "0", "longest", "2", 0), 6, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_opts(open_pair, "0,1", "0", "index", "2", 1), 7, 1e-9);
    /* K = 1: only A's opening maps first, the list otherwise */
    CU_ASSERT_DOUBLE_EQUAL(run_opts(open_pair, "0,1", "0", "index", "1", 0), 5, 1e-9);
    /* delayed reduces: A's reduce at 4..5 either way */
    CU_ASSERT_DOUBLE_EQUAL(run_opts(open_pair, "0,1", "1", "index", "2", 0), 5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_opts(open_pair, "0,1", "1", "longest", "2", 0), 5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_opts(open_pair, "0,1", "1", "index", "2", 1), 7, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_opts(open_pair, "0,1", "0", "planned", "2", 0),
                           run_opts(open_pair, "0,1", "0", "planned", "0", 0), 1e-9);
}

/* tasks=longest: one node of 2 map slots, beats every 1 s; maps 1, 1, 2.
 * In the workload's order the two 1 s maps run 0..1, the 2 s map 1..3; the
 * longest first: 0..2 beside 0..1 and 1..2, done at 2. */
static void test_longest(void)
{
    const char *json =
        "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
        "\"map_slots\":2,\"reduce_slots\":1}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"
        "\"jobs\":[{\"name\":\"A\",\"submit\":0,\"maps\":[1,1,2]}]}";
    CU_ASSERT_DOUBLE_EQUAL(run_tasks(json, "0", "0", "index", 0), 3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_tasks(json, "0", "0", "longest", 0), 2, 1e-9);
    so_cl_offline_opt o;
    if (opt_of(json, &o))
        return;
    CU_ASSERT_DOUBLE_EQUAL(o.sum, 2, 1e-9);
    CU_ASSERT_STRING_EQUAL(o.tasks, "longest");
    CU_ASSERT_TRUE(o.proved); /* lp-bound: 4 s of maps on 2 slots */
    so_cl_offline_opt_free(&o);
}

/* offline-opt on pair: B first gives 1 + 10 = 11; A first 9 + 9 = 18.
 * lp-bound: B alone 1, A: maps 8 on one slot, reduce after: 8 + 1 = 9 ...
 * the SRPT map machine runs B 0..1 and A 1..9, so A's maps end at 9 and its
 * reduce at 10: the bound is 11, met: proved. */
static void test_proved(void)
{
    so_cl_offline_opt o;
    if (opt_of(pair, &o))
        return;
    CU_ASSERT_DOUBLE_EQUAL(o.sum, 11, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(o.bound, 11, 1e-9);
    CU_ASSERT_TRUE(o.proved);
    CU_ASSERT_EQUAL(o.order[0], 1);
    CU_ASSERT_DOUBLE_EQUAL(o.responses[0], 10, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(o.responses[1], 1, 1e-9);
    so_cl_offline_opt_free(&o);
}

/* Two jobs of three 10 s maps on one node of 2 map slots (beats every 1 s):
 * the first in the order ends at 20, the second at 30 (its first map takes
 * the slot freed at 10): 50. The capacity alone bounds the sum by
 * 30 / 2 + 60 / 2 = 45; the one-slot wave (one slot runs two of a job's
 * three maps: 20 each) lifts the first completion to 20, so 50: proved. */
static void test_proved_wave(void)
{
    const char *json =
        "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
        "\"map_slots\":2,\"reduce_slots\":1}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"
        "\"jobs\":[{\"name\":\"A\",\"submit\":0,\"maps\":[10,10,10]},"
        "{\"name\":\"B\",\"submit\":0,\"maps\":[10,10,10]}]}";
    so_cl_offline_opt o;
    if (opt_of(json, &o))
        return;
    CU_ASSERT_DOUBLE_EQUAL(o.sum, 50, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(o.bound, 50, 1e-9);
    CU_ASSERT_TRUE(o.proved);
    so_cl_offline_opt_free(&o);
}

/* Under "physical" a task alone on its node runs profile_headroom (1.5) x
 * its profile speed: one map of 10 s on an idle node ends at 10 / 1.5, and
 * the bound allows it, so the proof is two-sided and honest. */
static void test_physical(void)
{
    so_cl_offline_opt o;
    if (opt_of("{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
               "\"map_slots\":2,\"reduce_slots\":1,\"capacity\":[100]}],\"heartbeat\":1,"
               "\"heartbeat_phase\":\"aligned\",\"resources\":[\"cpu\"],\"contention\":"
               "{\"model\":\"physical\"}},\"jobs\":[{\"name\":\"A\",\"submit\":0,\"goal\":9,"
               "\"map_demand\":[30],\"maps\":[10]}]}", &o))
        return;
    CU_ASSERT_DOUBLE_EQUAL(o.sum, 10 / 1.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(o.bound, 10 / 1.5, 1e-9);
    CU_ASSERT_TRUE(o.proved);
    so_cl_offline_opt_free(&o);
}

/* The verdict on a simulated sum against the bound: met within 1e-9
 * (relative) is a proof, above is a gap, below is an error (the bound does
 * not hold for the workload), never a proof. */
static void test_verdict(void)
{
    so_error err;
    int proved = -1;
    CU_ASSERT_EQUAL(so_cl_offline_verdict(10 * (1 + 1e-12), 10, &proved, &err), SO_OK);
    CU_ASSERT_EQUAL(proved, 1);
    CU_ASSERT_EQUAL(so_cl_offline_verdict(10 * (1 - 1e-12), 10, &proved, &err), SO_OK);
    CU_ASSERT_EQUAL(proved, 1);
    CU_ASSERT_EQUAL(so_cl_offline_verdict(11, 10, &proved, &err), SO_OK);
    CU_ASSERT_EQUAL(proved, 0);
    proved = -1;
    CU_ASSERT_EQUAL(so_cl_offline_verdict(20 / 3.0, 10, &proved, &err), SO_EINVAL);
    CU_ASSERT_EQUAL(proved, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "below lp-bound"));
    CU_ASSERT_EQUAL(so_cl_offline_verdict(0, 0, &proved, &err), SO_OK);
    CU_ASSERT_EQUAL(proved, 1);
}

/* The non-idling limit: one slot, A (submit 0, map 10), B (submit 1, map
 * 2). Every priority list starts A at 0: 10 + 11 = 21; waiting for B gives
 * 15, which planned maps in the order B, A do (the slot idles until B's
 * submit); lp-bound 14 (preemptive). Not proved, every order tried. */
static void test_gap_left(void)
{
    const char *json =
        "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
        "\"map_slots\":1,\"reduce_slots\":1}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"
        "\"jobs\":[{\"name\":\"A\",\"submit\":0,\"maps\":[10]},"
        "{\"name\":\"B\",\"submit\":1,\"maps\":[2]}]}";
    so_cl_offline_opt o;
    if (opt_of(json, &o))
        return;
    CU_ASSERT_DOUBLE_EQUAL(o.sum, 15, 1e-9);
    CU_ASSERT_STRING_EQUAL(o.tasks, "planned");
    CU_ASSERT_EQUAL(o.order[0], 1);
    CU_ASSERT_DOUBLE_EQUAL(run_tasks(json, "1,0", "0", "longest", 1), 12, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_tasks(json, "1,0", "0", "planned", 0), 13, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(o.bound, 14, 1e-9);
    CU_ASSERT_FALSE(o.proved);
    CU_ASSERT_TRUE(o.exhaustive);
    CU_ASSERT_EQUAL(o.evaluations, 16); /* 2 orders x 8 rules */
    so_cl_offline_opt_free(&o);
}

/* ---- brute force ------------------------------------------------------------ */

static char *tiny_workload(so_rng *g, int max_jobs)
{
    size_t cap = 8192, len = 0;
    char *s = malloc(cap);
#define PUT(...) (len += (size_t)snprintf(s + len, cap - len, __VA_ARGS__))
    PUT("{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":%d,"
        "\"map_slots\":%d,\"reduce_slots\":1}],\"heartbeat\":%.1f},\"jobs\":[",
        (int)so_rng_int(g, 1, 2), (int)so_rng_int(g, 1, 2), so_rng_int(g, 0, 1) ? 0.5 : 2.0);
    int n = (int)so_rng_int(g, max_jobs > 4 ? max_jobs - 1 : 2, max_jobs);
    double t = 0;
    for (int j = 0; j < n; j++) {
        t += so_rng_int(g, 0, 1) ? so_rng_exponential(g, 5) : 0;
        PUT("%s{\"name\":\"j%d\",\"submit\":%.2f,\"maps\":[", j ? "," : "", j, t);
        int m = (int)so_rng_int(g, 1, 4);
        for (int i = 0; i < m; i++)
            PUT("%s%.2f", i ? "," : "", 0.5 + so_rng_exponential(g, 6));
        PUT("],\"reduces\":[");
        int k = (int)so_rng_int(g, 0, 2);
        for (int i = 0; i < k; i++)
            PUT("%s{\"copy\":%.2f,\"sort\":0.5,\"reduce\":%.2f}", i ? "," : "",
                so_rng_exponential(g, 2), 0.5 + so_rng_exponential(g, 4));
        PUT("]}");
    }
    PUT("]}");
#undef PUT
    return s;
}

/* The smallest sum over every permutation of a[k..n) and every rule (reduces
 * delayed or not, tasks in order, longest first or maps planned), each run through
 * `slotopt sim`'s scheduler as a user would. */
static double brute(const so_cl_workload *w, int *a, int k, int n)
{
    if (k == n) {
        double best = INFINITY;
        for (int d = 0; d < SO_CL_OFFLINE_RULES; d++) {
            if (!(SO_CL_OFFLINE_RULE_MASK & (1u << d)))
                continue;
            double sum;
            so_error err;
            CU_ASSERT_EQUAL(so_cl_offline_replay(w, 1, a, d, &sum, NULL, &err), SO_OK);
            best = fmin(best, sum);
        }
        return best;
    }
    double best = INFINITY;
    for (int i = k; i < n; i++) {
        int t = a[k];
        a[k] = a[i];
        a[i] = t;
        best = fmin(best, brute(w, a, k + 1, n));
        a[i] = a[k];
        a[k] = t;
    }
    return best;
}

static void test_brute_force(void)
{
    so_rng g;
    so_rng_seed(&g, 2028);
    for (int i = 0; i < 40; i++) {
        char *json = tiny_workload(&g, 4);
        so_cl_workload *w = parse(json);
        CU_ASSERT_PTR_NOT_NULL_FATAL(w);
        so_cl_offline_opt o;
        so_error err;
        CU_ASSERT_EQUAL_FATAL(so_cl_offline_opt_solve(w, 1, 0, &o, &err), SO_OK);
        int a[8];
        for (int j = 0; j < w->n_jobs; j++)
            a[j] = j;
        double b = brute(w, a, 0, w->n_jobs);
        CU_ASSERT_DOUBLE_EQUAL(o.sum, b, 1e-9 * b);
        CU_ASSERT(o.sum >= o.bound - 1e-6);
        CU_ASSERT(!o.proved || o.sum <= o.bound * (1 + 1e-9));
        /* the incumbent replays to its objective, through the command too */
        double sum = 0;
        for (int j = 0; j < w->n_jobs; j++)
            sum += o.responses[j];
        CU_ASSERT_DOUBLE_EQUAL(sum, o.sum, 1e-9 * sum);
        char order[64], args[1400];
        so_cl_offline_order_text(o.order, w->n_jobs, order, sizeof order);
        snprintf(args, sizeof args,
                 "sim %s --scheduler priority --opt order=%s --opt delay_reduces=%d"
                 " --opt tasks=%s --opt open_first=%d --opt padding=0 --seed 1 --format json"
                 " --compact",
                 so_test_write("opt-tiny.json", json), order, o.delay_reduces,
                 o.tasks, o.open_first);
        char *out = NULL;
        CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
        json_t *rep = out ? json_loads(out, 0, NULL) : NULL;
        double mean = json_real_value(json_object_get(json_object_get(rep, "response"), "mean"));
        CU_ASSERT_DOUBLE_EQUAL(mean * w->n_jobs, o.sum, 1e-6 * o.sum);
        json_decref(rep);
        free(out);
        so_cl_offline_opt_free(&o);
        so_cl_workload_free(w);
        free(json);
    }
}

/* Above SO_CL_OFFLINE_OPT_EXHAUSTIVE jobs, local search: never worse than
 * its start orders (the submit order among them), never below the bound,
 * its incumbent replays to its objective. */
static void test_local_search(void)
{
    so_rng g;
    so_rng_seed(&g, 77);
    for (int i = 0; i < 3; i++) {
        char *json = NULL;
        so_cl_workload *w = NULL;
        do { /* a workload with more jobs than the exhaustive search takes */
            free(json);
            so_cl_workload_free(w);
            json = tiny_workload(&g, 8);
            w = parse(json);
        } while (w && w->n_jobs <= SO_CL_OFFLINE_OPT_EXHAUSTIVE);
        CU_ASSERT_PTR_NOT_NULL_FATAL(w);
        so_cl_offline_opt o;
        so_error err;
        CU_ASSERT_EQUAL_FATAL(so_cl_offline_opt_solve(w, 1, 10, &o, &err), SO_OK);
        int submit[16];
        for (int j = 0; j < w->n_jobs; j++)
            submit[j] = j;
        for (int d = 0; d < SO_CL_OFFLINE_RULES; d++) {
            if (!(SO_CL_OFFLINE_RULE_MASK & (1u << d)))
                continue;
            double sum;
            CU_ASSERT_EQUAL(so_cl_offline_replay(w, 1, submit, d, &sum, NULL, &err), SO_OK);
            CU_ASSERT(o.sum <= sum + 1e-9);
        }
        CU_ASSERT(o.sum >= o.bound - 1e-6);
        CU_ASSERT_FALSE(o.exhaustive);
        CU_ASSERT(o.evaluations > 48); /* the six starts, eight rules, and moves */
        double replay;
        int rule = o.delay_reduces ? SO_CL_OFFLINE_DELAY : 0;
        while (strcmp(so_cl_offline_rule_tasks(rule), o.tasks))
            rule += 2;
        if (o.open_first)
            rule |= SO_CL_OFFLINE_OPEN;
        CU_ASSERT_EQUAL(so_cl_offline_replay(w, 1, o.order, rule, &replay, NULL, &err), SO_OK);
        CU_ASSERT_DOUBLE_EQUAL(replay, o.sum, 1e-9 * replay);
        so_cl_offline_opt_free(&o);
        /* out of time at once: the first start under the eight rules, no more
         * (the other five starts used to be replayed past the limit) */
        CU_ASSERT_EQUAL_FATAL(so_cl_offline_opt_solve(w, 1, 1e-9, &o, &err), SO_OK);
        CU_ASSERT(o.evaluations <= 8);
        CU_ASSERT(o.timed_out || o.proved);
        CU_ASSERT(isfinite(o.sum) && o.sum >= o.bound - 1e-6);
        so_cl_offline_opt_free(&o);
        so_cl_workload_free(w);
        free(json);
    }
}

static void test_harness(void)
{
    const char *wl = so_test_write("opt-pair.json", pair);
    char db[700], args[1600];
    snprintf(db, sizeof db, "%s/opt-pair.db", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --workload %s --policies fifo,lp-bound,offline-opt"
             " --sim-reference offline-opt --db %s --cells --format csv", wl, db);
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, NULL), 0);
    /* fifo: A first, 9 + 9 */
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "sim,opt-pair,fifo,0,simulated,9,5.5,optimal,1.63") : NULL);
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "sim,opt-pair,offline-opt,0,optimal,5.5,5.5,optimal,1,") : NULL);
    free(out);
}

/* Over SO_CL_OFFLINE_OPT_MAX_JOBS jobs (a trace): the named orders only.
 * 61 jobs at 0 of one map each, job j of 61 - j s, on one map slot with
 * beats every second at 0, 1, ...: the submit order is the longest first,
 * SPT (job 60 first) is optimal on one slot, 1 + (1 + 2) + ... = 61 x 62 x 63
 * / 6 = 39711 = lp-bound (SRPT on the one slot), so proved. */
static void test_over_max(void)
{
    enum { N = SO_CL_OFFLINE_OPT_MAX_JOBS + 1 };
    size_t cap = 16384, len = 0;
    char *s = malloc(cap);
    len += (size_t)snprintf(s + len, cap - len,
                            "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":"
                            "[{\"count\":1,\"map_slots\":1,\"reduce_slots\":1}],\"heartbeat\":1,"
                            "\"heartbeat_phase\":\"aligned\"},\"jobs\":[");
    for (int j = 0; j < N; j++)
        len += (size_t)snprintf(s + len, cap - len,
                                "%s{\"name\":\"j%d\",\"submit\":0,\"maps\":[%d]}", j ? "," : "",
                                j, N - j);
    snprintf(s + len, cap - len, "]}");
    so_cl_workload *w = parse(s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    so_cl_offline_opt o;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_cl_offline_opt_solve(w, 1, 0, &o, &err), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(o.sum, 39711, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(o.bound, 39711, 1e-6);
    CU_ASSERT_TRUE(o.proved);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o.order_name);
    CU_ASSERT_STRING_EQUAL(o.order_name, "spt");
    CU_ASSERT_EQUAL(o.order[0], N - 1);
    CU_ASSERT_EQUAL(o.order[N - 1], 0);
    double sum = 0;
    for (int j = 0; j < N; j++)
        sum += o.responses[j];
    CU_ASSERT_DOUBLE_EQUAL(sum, o.sum, 1e-6);
    /* the submit order, longest first, is the worst: 61 x 1 + 60 x 2 + ... */
    double submit = 0;
    for (int j = 0; j < N; j++)
        submit += run_order(s, "submit", "0", j);
    CU_ASSERT_DOUBLE_EQUAL(submit, 77531, 1e-6);
    /* out of time at once: no order tried, the submit order replayed */
    so_cl_offline_opt late;
    CU_ASSERT_EQUAL_FATAL(so_cl_offline_opt_solve(w, 1, 1e-9, &late, &err), SO_OK);
    CU_ASSERT_EQUAL(late.evaluations, 0);
    CU_ASSERT_TRUE(late.timed_out);
    CU_ASSERT_STRING_EQUAL(late.order_name, "submit");
    CU_ASSERT_DOUBLE_EQUAL(late.sum, 77531, 1e-6);
    so_cl_offline_opt_free(&late);
    double spt = 0; /* the replay the harness names: order=spt */
    for (int j = 0; j < N; j++)
        spt += run_order(s, "spt", "0", j);
    CU_ASSERT_DOUBLE_EQUAL(spt, 39711, 1e-6);
    /* the harness cell: optimal at the mean 39711 / 61 = 651, order spt */
    const char *wl = so_test_write("opt-61.json", s);
    char db[700], args[1600];
    snprintf(db, sizeof db, "%s/opt-61.db", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --workload %s --policies fifo,offline-opt"
             " --sim-reference offline-opt --db %s --cells --format csv", wl, db);
    char *out = NULL;
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "sim,opt-61,offline-opt,0,optimal,651,651,optimal,1,")
                               : NULL);
    free(out);
    so_cl_offline_opt_free(&o);
    so_cl_workload_free(w);
    free(s);
}

/* The harness cell's replay command reproduces its objective on a trace
 * read with a SWIM reader's key (the FB-2009 sample's first 80 jobs on 5
 * nodes: over SO_CL_OFFLINE_OPT_MAX_JOBS, a named order): the key is in
 * the command, and `slotopt sim` on it gives the cell's mean response. */
static void test_trace_replay(void)
{
    const char *trace = cl_fb2009_head(80, "opt-fb80.tsv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
    char text[1400], db[700], args[1600];
    snprintf(text, sizeof text,
             "{\"description\": \"test\", \"reproduces\": \"nothing\",\n"
             " \"policies\": [{\"name\": \"offline-opt\", \"policy\": \"offline-opt\","
             " \"options\": {\"nodes\": 5}}],\n"
             " \"inputs\": [{\"workload\": \"%s\"}]}\n", trace);
    snprintf(db, sizeof db, "%s/opt-fb80.db", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --scenario %s --db %s",
             so_test_write("opt-fb80.json", text), db);
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
    char *row = harness_db_rows(db, "SELECT printf('%.17g', objective),"
                                    " json_extract(extras, '$.offline.replay') FROM cells", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(row);
    char line[1200];
    snprintf(line, sizeof line, "%s", row);
    free(row);
    double objective = strtod(line, NULL);
    char *cmd = strstr(line, "slotopt sim WORKLOAD ");
    char *bar = cmd ? strchr(cmd, '|') : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(bar);
    *bar = '\0';
    CU_ASSERT_PTR_NOT_NULL(strstr(cmd, " --opt nodes=5"));
    CU_ASSERT_PTR_NOT_NULL(strstr(cmd, " --opt order=s")); /* submit or spt */
    snprintf(args, sizeof args, "sim %s%s --summary --compact", trace,
             cmd + strlen("slotopt sim WORKLOAD"));
    char *out = NULL;
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    json_t *rep = out ? json_loads(out, 0, NULL) : NULL;
    double mean = json_real_value(json_object_get(json_object_get(rep, "response"), "mean"));
    CU_ASSERT_DOUBLE_EQUAL(mean, objective, 1e-9 * objective);
    json_decref(rep);
    free(out);
}

/* A schedule that stalls (cluster/stall.c) is skipped, not the search's
 * failure: one node of 1 map slot, 2 reduce slots and cpu 4; B one map of
 * 5 s, A maps [1, 1] of cpu 4 and reduces of cpu 2 at slow-start 0. B
 * first without delay_reduces stalls (A's reduces take the cpu its maps
 * need); A first: its maps 0..1, 1..2, its reduces 2..3, B's map 2..7: 3 +
 * 7 = 10. With five 1-s jobs C (7 jobs: local search, whose fifo start
 * stalls too) the best is C's maps 0..5 (1 + .. + 5 = 15), A's maps 5..7 and
 * reduces 7..8 (reduces held until the maps are done, else they take the
 * cpu at 0), B 7..12: 15 + 8 + 12 = 35. */
static void test_stalled_skipped(void)
{
    char json[1200];
    const char *head = CL_STALLED_HEAD;
    snprintf(json, sizeof json, "%s]}", head);
    so_cl_offline_opt o;
    if (opt_of(json, &o) == SO_OK) {
        CU_ASSERT_DOUBLE_EQUAL(o.sum, 10, 1e-9);
        CU_ASSERT_EQUAL(o.order[0], 1);
        so_cl_offline_opt_free(&o);
    }
    snprintf(json, sizeof json, "%s%s]}", head,
             ", {\"name\": \"C1\", \"submit\": 0, \"maps\": [1]}"
             ", {\"name\": \"C2\", \"submit\": 0, \"maps\": [1]}"
             ", {\"name\": \"C3\", \"submit\": 0, \"maps\": [1]}"
             ", {\"name\": \"C4\", \"submit\": 0, \"maps\": [1]}"
             ", {\"name\": \"C5\", \"submit\": 0, \"maps\": [1]}");
    if (opt_of(json, &o) == SO_OK) {
        CU_ASSERT_DOUBLE_EQUAL(o.sum, 35, 1e-9);
        CU_ASSERT_EQUAL(o.delay_reduces, 1);
        so_cl_offline_opt_free(&o);
    }
}

/* flex-cluster at the FLEX paper's size (20 jobs at 0 on 26 nodes, 156 map
 * slots of 26 heartbeat phases) with equal task times (task_cv 0: maps of
 * 60 s, reduces of 120 s): each map ends on a beat of its node, and
 * lp-bound, knowing the run's phases (cluster/offline_beats.c), meets
 * offline-opt's schedule: proved, with the replay at the bound. With the
 * family's 10 % task-time variation it is not (docs/offline.md). */
static void test_proved_flex_cluster(void)
{
    static const char *const sets[] = {"jobs=20", "task_cv=0", NULL};
    char *json = cl_family_text("flex-cluster", sets, 1, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    so_cl_workload *w = parse(json);
    so_cl_offline_opt o;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_cl_offline_opt_solve(w, 1, 30, &o, &err), SO_OK);
    CU_ASSERT_TRUE(o.proved);
    CU_ASSERT_DOUBLE_EQUAL(o.sum, o.bound, 1e-9 * o.bound);
    CU_ASSERT(o.evaluations < 100);
    so_cl_offline_opt_free(&o);
    so_cl_workload_free(w);
    free(json);
}

/* Two jobs of 60 maps (3 reduces each) first in the order, on 156 map
 * slots of 26 heartbeat phases (flex-cluster, 20 jobs, equal task times,
 * workload 7): as a strict list the second job's maps take the slots after
 * the first's and open its reduces later; with open_first=2 the two jobs'
 * opening maps go first, both open at the first wave's end, and the six
 * reduces start on the earliest reduce slots. lp-bound's reduce positions
 * (the two jobs of fewest reduces: their six reduces from the earliest
 * open) meet that schedule: proved, where a list is 1.0 s of the sum
 * above. */
static void test_open_first(void)
{
    static const char *const sets[] = {"jobs=20", "task_cv=0", NULL};
    char *json = cl_family_text("flex-cluster", sets, 1, 7);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    so_error err;
    so_cl_workload *w = parse(json);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    so_cl_offline_opt o;
    CU_ASSERT_EQUAL_FATAL(so_cl_offline_opt_solve(w, 1, 30, &o, &err), SO_OK);
    CU_ASSERT_TRUE(o.proved);
    CU_ASSERT_EQUAL(o.open_first, 2);
    double list, first;
    int rule = o.delay_reduces ? SO_CL_OFFLINE_DELAY : 0;
    while (strcmp(so_cl_offline_rule_tasks(rule), o.tasks))
        rule += 2;
    CU_ASSERT_EQUAL(so_cl_offline_replay(w, 1, o.order, rule, &list, NULL, &err), SO_OK);
    CU_ASSERT_EQUAL(so_cl_offline_replay(w, 1, o.order, rule | SO_CL_OFFLINE_OPEN, &first, NULL,
                                         &err), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(first, o.sum, 1e-9 * first);
    CU_ASSERT(list > first + 0.5);
    so_cl_offline_opt_free(&o);
    so_cl_workload_free(w);
    free(json);
}

static CU_TestInfo tests[] = {
    {"priority scheduler by hand", test_priority},
    {"longest tasks first by hand", test_longest},
    {"open_first by hand; void with delayed reduces", test_open_first_by_hand},
    {"late arrivals linked in the order", test_late_arrivals},
    {"proved by hand", test_proved},
    {"proved by the one-slot wave", test_proved_wave},
    {"physical contention: proved at the headroom's speed", test_physical},
    {"verdict: two-sided, below the bound an error", test_verdict},
    {"non-idling gap by hand", test_gap_left},
    {"equals brute force, replays (2-4 jobs)", test_brute_force},
    {"local search above 6 jobs", test_local_search},
    {"harness reference", test_harness},
    {"over 60 jobs: submit order or SPT", test_over_max},
    {"the harness cell's replay on a trace read with options", test_trace_replay},
    {"a stalled schedule skipped", test_stalled_skipped},
    {"proved on flex-cluster at 20 jobs with equal task times", test_proved_flex_cluster},
    {"the second job's opening maps first: proved", test_open_first},
    CU_TEST_INFO_NULL};
SO_SUITE("cluster-offline-opt", tests)
