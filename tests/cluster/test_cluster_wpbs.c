/* test_cluster_wpbs.c — the WPBS scheduler (cluster/sched_wpbs.c): Welford
 * statistics against two passes, eq. 8 shares and the demand caps on hand-
 * computed examples and random ones, the tier-2 rule, FIFO/fair switching
 * and the history restart in simulations of hand-made job sequences, a
 * small hand-computed run against fair, the share read-out, determinism. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/sim_internal.h"
#include "cluster/wpbs.h"
#include "cluster/workload_family.h"
#include "tests/cluster/cluster_test.h"
#include "tests/test_util.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9)

/* ---- statistics (eqs. 1-6) ---------------------------------------------- */

static void test_welford_two_pass(void)
{
    so_rng rng;
    so_rng_seed(&rng, 11);
    for (int it = 0; it < 50; it++) {
        int n = (int)so_rng_int(&rng, 1, 60);
        double x[60], sum = 0, ss = 0;
        so_cl_obs o = {0};
        for (int i = 0; i < n; i++) {
            /* sizes of very different scales, far from zero */
            x[i] = 1e4 + so_rng_uniform(&rng) * (it % 2 ? 1e3 : 1.0);
            so_wpbs_add(&o, x[i], 0);
            sum += x[i];
        }
        double mean = sum / n;
        for (int i = 0; i < n; i++)
            ss += (x[i] - mean) * (x[i] - mean);
        CU_ASSERT_EQUAL(o.n, n);
        CU_ASSERT_DOUBLE_EQUAL(o.mean, mean, 1e-9 * mean);
        CU_ASSERT_DOUBLE_EQUAL(o.m2, ss, 1e-7 * (ss + 1));
        CU_ASSERT_DOUBLE_EQUAL(so_wpbs_cv(&o), sqrt(ss / n) / mean, 1e-9);
        /* a window as long as the sequence is exact Welford too */
        so_cl_obs w = {0};
        for (int i = 0; i < n; i++)
            so_wpbs_add(&w, x[i], n);
        CU_ASSERT_DOUBLE_EQUAL(w.mean, mean, 1e-9 * mean);
        CU_ASSERT_DOUBLE_EQUAL(w.m2, ss, 1e-7 * (ss + 1));
    }
    /* CV by hand: 2, 4, 4, 4, 5, 5, 7, 9: mean 5, population sd 2 */
    so_cl_obs o = {0};
    double v[] = {2, 4, 4, 4, 5, 5, 7, 9};
    for (int i = 0; i < 8; i++)
        so_wpbs_add(&o, v[i], 0);
    NEAR(o.mean, 5);
    NEAR(o.m2, 32);
    NEAR(so_wpbs_cv(&o), 0.4);
    so_cl_obs empty = {0};
    NEAR(so_wpbs_cv(&empty), 0);
}

/* Past the window: the count stays at W and a new value weighs 1 / W. W = 2,
 * values 1, 3 (mean 2, population variance 1), then 5: d = 3, mean 3.5,
 * variance (1 - 1/2)(1 + 9/2) = 2.75, m2 = 2 x 2.75. */
static void test_welford_window(void)
{
    so_cl_obs o = {0};
    so_wpbs_add(&o, 1, 2);
    so_wpbs_add(&o, 3, 2);
    NEAR(o.mean, 2);
    NEAR(o.m2, 2);
    so_wpbs_add(&o, 5, 2);
    CU_ASSERT_EQUAL(o.n, 2);
    NEAR(o.mean, 3.5);
    NEAR(o.m2, 5.5);
    /* a long run of one value: the old pattern is forgotten */
    for (int i = 0; i < 200; i++)
        so_wpbs_add(&o, 7, 2);
    CU_ASSERT_DOUBLE_EQUAL(o.mean, 7, 1e-9);
    CU_ASSERT(so_wpbs_cv(&o) < 1e-9);
}

/* ---- tier 1 (eqs. 8-10, Algorithm 1 step 4) ------------------------------ */

static void test_shares_hand(void)
{
    /* sizes 1, 2, 4 on 14 slots: 1/s = 1, 1/2, 1/4 (sum 7/4), U = 3,
     * F = 14/3. alpha = 1: SU = F x 3 x (1/s) / (7/4) = 8, 4, 2. */
    double size[3] = {1, 2, 4}, su[3], share[3];
    so_wpbs_shares(3, size, 1, 14, su);
    NEAR(su[0], 8);
    NEAR(su[1], 4);
    NEAR(su[2], 2);
    /* alpha = 1/2: F (3/2 (1/s) / (7/4) + 1/2) = 19/3, 13/3, 10/3 */
    so_wpbs_shares(3, size, 0.5, 14, su);
    NEAR(su[0], 19.0 / 3);
    NEAR(su[1], 13.0 / 3);
    NEAR(su[2], 10.0 / 3);
    /* alpha = 0: Fair, 14/3 each */
    so_wpbs_shares(3, size, 0, 14, su);
    for (int i = 0; i < 3; i++)
        NEAR(su[i], 14.0 / 3);
    /* caps: SU 8, 4, 2 with demands 3, 10, 10: user 1 keeps 3, its surplus
     * 5 goes to the others in proportion 4 : 2, r (4 + 2) = 11: 22/3, 11/3 */
    so_wpbs_shares(3, size, 1, 14, su);
    so_wpbs_cap(3, su, (double[]){3, 10, 10}, 14, share);
    NEAR(share[0], 3);
    NEAR(share[1], 22.0 / 3);
    NEAR(share[2], 11.0 / 3);
    /* user 2 saturates too (demand 5): user 3 takes the rest, 6 */
    so_wpbs_cap(3, su, (double[]){3, 5, 10}, 14, share);
    NEAR(share[0], 3);
    NEAR(share[1], 5);
    NEAR(share[2], 6);
    /* demand below the slots: every user gets its demand */
    so_wpbs_cap(3, su, (double[]){3, 2, 1}, 14, share);
    NEAR(share[0], 3);
    NEAR(share[1], 2);
    NEAR(share[2], 1);
}

static void test_shares_properties(void)
{
    so_rng rng;
    so_rng_seed(&rng, 7);
    for (int it = 0; it < 500; it++) {
        int n = (int)so_rng_int(&rng, 1, 8);
        double size[8], su[8], d[8], share[8], sum = 0, sum_d = 0, sum_s = 0;
        double slots = (double)so_rng_int(&rng, 1, 60);
        double alpha = so_rng_uniform(&rng);
        if (it % 5 == 0)
            alpha = it % 10 ? 0 : 1;
        for (int i = 0; i < n; i++) {
            size[i] = exp(8 * so_rng_uniform(&rng)); /* 1 .. 3000 */
            d[i] = (double)so_rng_int(&rng, 0, 30);
            sum_d += d[i];
        }
        so_wpbs_shares(n, size, alpha, slots, su);
        for (int i = 0; i < n; i++) {
            CU_ASSERT(su[i] > 0); /* eq. 9 */
            sum += su[i];
            /* smaller jobs never get less */
            for (int k = 0; k < n; k++)
                if (size[i] < size[k])
                    CU_ASSERT(su[i] >= su[k] - 1e-9);
        }
        CU_ASSERT_DOUBLE_EQUAL(sum, slots, 1e-9 * slots); /* eq. 10 */
        so_wpbs_cap(n, su, d, slots, share);
        for (int i = 0; i < n; i++) {
            CU_ASSERT(share[i] <= d[i] + 1e-9);
            CU_ASSERT(share[i] >= -1e-9);
            /* a user below its demand gets at least its SU */
            if (share[i] < d[i] - 1e-9)
                CU_ASSERT(share[i] >= su[i] - 1e-7);
            sum_s += share[i];
        }
        CU_ASSERT_DOUBLE_EQUAL(sum_s, fmin(slots, sum_d), 1e-7);
    }
}

/* ---- tier 2 (Algorithm 3) ------------------------------------------------- */

static void test_tier2_rule(void)
{
    int reset = -1;
    CU_ASSERT_EQUAL(so_wpbs_tier2(0.5, 0.2, &reset), 1);
    CU_ASSERT_EQUAL(reset, 0);
    CU_ASSERT_EQUAL(so_wpbs_tier2(1.5, 2.0, &reset), 0);
    CU_ASSERT_EQUAL(reset, 0);
    CU_ASSERT_EQUAL(so_wpbs_tier2(0.5, 1.5, &reset), 0);
    CU_ASSERT_EQUAL(reset, 1);
    CU_ASSERT_EQUAL(so_wpbs_tier2(1.5, 0.5, &reset), 0);
    CU_ASSERT_EQUAL(reset, 1);
    CU_ASSERT_EQUAL(so_wpbs_tier2(1.0, 0.0, &reset), 0); /* 1 is not < 1 */
    CU_ASSERT_EQUAL(reset, 1);
}

/* One user, one node of 2 map slots, beats at integer times, epochs at
 * halves, maps of 1.2 s (ends at x.2: never tied with a beat or an epoch).
 * Three one-map jobs at 0.1, 10.1, 20.1 build a history of equal sizes
 * (1.2 s each: CV 0); at 30.1 the jobs of `burst` arrive. */
static char *user_sequence(const char *burst)
{
    static const char *head =
        "{\"cluster\": {\"nodes\": [{\"count\": 1, \"map_slots\": 2,"
        " \"reduce_slots\": 0}], \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
        " \"jobs\": [{\"user\": \"u\", \"submit\": 0.1, \"maps\": [1.2]},"
        " {\"user\": \"u\", \"submit\": 10.1, \"maps\": [1.2]},"
        " {\"user\": \"u\", \"submit\": 20.1, \"maps\": [1.2]}";
    size_t len = strlen(head) + strlen(burst) + 8;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%s%s]}", head, burst);
    return s;
}

static char *repeat_job(int n_jobs, int n_maps)
{
    size_t cap = (size_t)n_jobs * (64 + 6 * (size_t)n_maps) + 1;
    char *s = calloc(cap, 1);
    for (int j = 0; s && j < n_jobs; j++) {
        strcat(s, ", {\"user\": \"u\", \"submit\": 30.1, \"maps\": [");
        for (int m = 0; m < n_maps; m++)
            strcat(s, m ? ", 1.2" : "1.2");
        strcat(s, "]}");
    }
    return s;
}

typedef struct watch {
    int job;       /* record the user's scheme when this job finishes */
    int fifo;
} watch;

static void on_finish(void *state, so_cl_sim *sim, int job)
{
    watch *w = state;
    if (job == w->job)
        w->fifo = so_cl_wpbs_user_fifo(sim, 0);
}

/* Equal sizes now and before: FIFO, no restart. The burst of three 4-map
 * jobs runs in submit order, two maps at a time: J3 at beats 31 and 33
 * (done 34.2), J4 at 35, 37 (38.2), J5 at 39, 41 (42.2). */
static void test_tier2_fifo_sequence(void)
{
    char *burst = repeat_job(3, 4), *json = user_sequence(burst);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    watch w = {4, -1};
    so_cl_hooks hooks = {.job_finish = on_finish};
    cl_run r = cl_simulate_hooks(json, "wpbs", NULL, NULL, 1, NULL, &hooks, &w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 2.2);
    NEAR(so_cl_sim_job(r.sim, 3)->finish, 34.2);
    NEAR(so_cl_sim_job(r.sim, 4)->finish, 38.2);
    NEAR(so_cl_sim_job(r.sim, 5)->finish, 42.2);
    CU_ASSERT_EQUAL(w.fifo, 1);
    CU_ASSERT_EQUAL(so_cl_wpbs_user_fifo(r.sim, 0), 1);
    CU_ASSERT_EQUAL(so_cl_wpbs_user_resets(r.sim, 0), 0);
    const so_cl_obs *h = so_cl_wpbs_user_history(r.sim, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_EQUAL(h->n, 6); /* 3 one-map jobs, 3 four-map jobs */
    NEAR(h->mean, (3 * 1.2 + 3 * 4.8) / 6);
    cl_done(&r);
    free(json);
    free(burst);
}

/* The burst is one 40-map job J3 and nine one-map jobs J4..J12: estimated
 * sizes 48 and 1.2 (the user's mean task time 1.2 s), current CV 2.39 > 1
 * against the history's 0: at the epoch of 30.5 the user switches to fair
 * sharing and its history restarts. At beat 31 J3 takes one slot (every
 * job's deficit is 0.2, ties in job order) and J4 the other (J3's deficit
 * is now -0.8): J4 is done at 32.2, where FIFO would leave it behind J3's
 * 40 maps. */
static void test_tier2_switch_and_reset(void)
{
    char *big = repeat_job(1, 40), *small = repeat_job(9, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(big);
    CU_ASSERT_PTR_NOT_NULL_FATAL(small);
    size_t len = strlen(big) + strlen(small) + 1;
    char *burst = malloc(len);
    snprintf(burst, len, "%s%s", big, small);
    char *json = user_sequence(burst);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    watch w = {4, -1};
    so_cl_hooks hooks = {.job_finish = on_finish};
    cl_run r = cl_simulate_hooks(json, "wpbs", NULL, NULL, 1, NULL, &hooks, &w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 4)->finish, 32.2);
    CU_ASSERT_EQUAL(w.fifo, 0);
    CU_ASSERT(so_cl_wpbs_user_resets(r.sim, 0) >= 1);
    /* fair while two small jobs remain beside J3 (CV 1.31), so J11 is done
     * before J3; with one left (CV 0.95) both CVs are below 1: FIFO again */
    CU_ASSERT(so_cl_sim_job(r.sim, 11)->finish < so_cl_sim_job(r.sim, 3)->finish);
    CU_ASSERT(so_cl_sim_job(r.sim, 12)->finish > so_cl_sim_job(r.sim, 3)->finish);
    CU_ASSERT_EQUAL(so_cl_wpbs_user_fifo(r.sim, 0), 1);
    cl_done(&r);
    /* the same burst under fifo: J4 waits for J3's 20 waves */
    r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT(so_cl_sim_job(r.sim, 4)->finish > 60);
    cl_done(&r);
    free(json);
    free(burst);
    free(big);
    free(small);
}

/* ---- a small run by hand ---------------------------------------------------- */

/* One node of 3 map slots, beats at integer times. At 0.1: A (user a) four
 * 2.2 s maps, B (user b) two 1.2 s maps. Nothing completed yet: sizes are
 * task counts x 1 s, 4 and 2; alpha 1, U 2, F 1.5: SU_a = 1.5 x 2 x (1/4)
 * / (3/4) = 1, SU_b = 2. Beat 1: B (deficit 2), A (1, tie: job order), B:
 * B done at 2.2. Then A alone (SU 3): two maps at 3 (done 5.2), one at 4
 * (6.2). Fair (1.5 each): A, B, A at 1; B's second map at 3 (done 4.2);
 * A's last two at 4 (6.2): WPBS serves the small user first at no cost
 * to the other. */
static const char *two_users =
    "{\"cluster\": {\"nodes\": [{\"count\": 1, \"map_slots\": 3,"
    " \"reduce_slots\": 0}], \"heartbeat\": 1, \"heartbeat_phase\": \"aligned\"},"
    " \"jobs\": [{\"name\": \"A\", \"user\": \"a\", \"submit\": 0.1,"
    " \"maps\": [2.2, 2.2, 2.2, 2.2]},"
    " {\"name\": \"B\", \"user\": \"b\", \"submit\": 0.1, \"maps\": [1.2, 1.2]}]}";

typedef struct first_launch {
    int seen;
    double su[2], capped[2], reduce_su[2];
    int users;
} first_launch;

static void on_launch(void *state, so_cl_sim *sim, int attempt)
{
    (void)attempt;
    first_launch *f = state;
    if (f->seen++)
        return;
    f->users = so_cl_wpbs_user_shares(sim, SO_CL_MAP, f->su, f->capped);
    so_cl_wpbs_user_shares(sim, SO_CL_REDUCE, f->reduce_su, NULL);
}

static void test_hand_run(void)
{
    first_launch f = {0};
    so_cl_hooks hooks = {.attempt_launch = on_launch};
    cl_run r = cl_simulate_hooks(two_users, "wpbs", NULL, NULL, 1, NULL, &hooks, &f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 6.2);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 2.2);
    CU_ASSERT_EQUAL(f.users, 2);
    NEAR(f.su[0], 1);
    NEAR(f.su[1], 2);
    NEAR(f.capped[0], 1);
    NEAR(f.capped[1], 2);
    NEAR(f.reduce_su[0], 0); /* no reduces: no share */
    NEAR(f.reduce_su[1], 0);
    cl_done(&r);
    r = cl_simulate(two_users, "fair", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 6.2);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 4.2);
    /* not a wpbs run: no shares to read */
    CU_ASSERT_EQUAL(so_cl_wpbs_user_shares(r.sim, SO_CL_MAP, NULL, NULL), -1);
    CU_ASSERT_EQUAL(so_cl_wpbs_user_fifo(r.sim, 0), -1);
    cl_done(&r);
    /* alpha 0 is Fair's shares: the fair schedule */
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "alpha", "0");
    r = cl_simulate(two_users, "wpbs", NULL, &prm, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 6.2);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 4.2);
    cl_done(&r);
}

static void test_bad_options(void)
{
    const char *bad[][2] = {{"alpha", "1.5"}, {"alpha", "-0.1"}, {"alpha", "x"},
                            {"window", "-1"}, {"update", "-2"},
                            {"verify", "2"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        so_params prm;
        so_params_init(&prm);
        so_params_set(&prm, bad[k][0], bad[k][1]);
        cl_run r = cl_simulate(two_users, "wpbs", NULL, &prm, 1, NULL);
        CU_ASSERT_PTR_NULL(r.sim);
        cl_done(&r);
    }
}

/* ---- determinism on the paper's workload ------------------------------------ */

static so_cl_workload *wpbs_paper(uint64_t seed, const char *load)
{
    so_params set;
    so_params_init(&set);
    so_params_set(&set, "load", load);
    json_t *inst = NULL;
    so_error err;
    if (so_family_generate(so_family_find("wpbs-paper"), &set, seed, 0, &inst,
                           &err))
        return NULL;
    char *text = json_dumps(inst, 0);
    json_decref(inst);
    so_cl_workload *w = NULL;
    if (text)
        so_cl_workload_parse_json(text, strlen(text), "gen.json", 1, &w, &err);
    free(text);
    return w;
}

static so_cl_sim *run_hooks(const so_cl_workload *w, const char *sched,
                            const so_cl_hooks *hooks, void *state)
{
    so_cl_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.hooks = hooks;
    cfg.hooks_state = state;
    cfg.scheduler = so_cl_scheduler_find(sched);
    cfg.seed = 3;
    so_cl_sim *sim = NULL;
    so_error err;
    if (so_cl_sim_new(w, &cfg, &sim, &err) || so_cl_sim_run(sim)) {
        so_cl_sim_free(sim);
        return NULL;
    }
    return sim;
}

static so_cl_sim *run(const so_cl_workload *w, const char *sched)
{
    return run_hooks(w, sched, NULL, NULL);
}

static void test_determinism(void)
{
    so_cl_workload *w = wpbs_paper(4, "1.5");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    so_cl_sim *a = run(w, "wpbs"), *b = run(w, "wpbs");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    int same = 1;
    for (int j = 0; j < w->n_jobs; j++)
        same = same && so_cl_sim_job(a, j)->finish == so_cl_sim_job(b, j)->finish;
    CU_ASSERT(same);
    CU_ASSERT_EQUAL(so_cl_sim_stats(a)->events, so_cl_sim_stats(b)->events);
    /* every task done once */
    int once = 1;
    for (size_t t = 0; t < so_cl_sim_task_count(a); t++)
        once = once && so_cl_sim_task_completions(a, t) == 1;
    CU_ASSERT(once);
    for (int u = 0; u < so_cl_user_count(a); u++)
        CU_ASSERT_EQUAL(so_cl_wpbs_user_resets(a, u), so_cl_wpbs_user_resets(b, u));
    so_cl_sim_free(a);
    so_cl_sim_free(b);
    so_cl_workload_free(w);
}

/* A swim-synth workload (heavy-tailed job sizes: fair users, switches)
 * on `nodes` nodes with its jobs dealt to 5 users, every third job of
 * weight 2. */
static so_cl_workload *five_users(uint64_t seed, const char *nodes)
{
    so_params set;
    so_params_init(&set);
    so_params_set(&set, "jobs", "300");
    so_params_set(&set, "rate", "0.05");
    so_params_set(&set, "nodes", nodes);
    json_t *inst = NULL;
    so_error err;
    if (so_family_generate(so_family_find("swim-synth"), &set, seed, 0, &inst,
                           &err))
        return NULL;
    size_t i;
    json_t *job;
    json_array_foreach(json_object_get(inst, "jobs"), i, job) {
        char user[8];
        snprintf(user, sizeof user, "u%zu", i * 7 % 5);
        json_object_set_new(job, "user", json_string(user));
        if (i % 3 == 0)
            json_object_set_new(job, "weight", json_integer(2));
    }
    char *text = json_dumps(inst, 0);
    json_decref(inst);
    so_cl_workload *w = NULL;
    if (text)
        so_cl_workload_parse_json(text, strlen(text), "gen.json", 1, &w, &err);
    free(text);
    return w;
}

/* The incremental allocation (sums in sum trees, levels in level trees,
 * the FIFO walk's early stop, scheme switches, all updated from the
 * changed jobs only) against a pass over the jobs at every allocation
 * (`verify=1`: estimates, current-jobs statistics and every listed job's
 * target), on the paper's workload at load 1 and overloaded (3), with the
 * refresh interval and alpha moved, with speculative attempts killed
 * (Hadoop's speculation), and on five users with heavy-tailed sizes and
 * weights 1 and 2 (fair users and switches): every check agrees to
 * rounding, and the checks happened. */
static void test_sums_against_pass(void)
{
    const char *opts[][4] = {{"paper", "1", NULL, NULL},
                             {"paper", "3", NULL, NULL},
                             {"paper", "3", "alpha", "0.5"},
                             {"paper", "3", "update", "30"},
                             {"paper", "2", "spec", "hadoop"},
                             {"five", "5", NULL, NULL},
                             {"five", "20", "update", "7"},
                             {"five", "5", "spec", "late"}};
    int fair_seen = 0;
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
        int paper = !strcmp(opts[k][0], "paper");
        so_cl_workload *w = paper ? wpbs_paper(2, opts[k][1])
                                  : five_users(k, opts[k][1]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(w);
        so_params prm;
        so_params_init(&prm);
        so_params_set(&prm, "verify", "1");
        int spec = opts[k][2] && !strcmp(opts[k][2], "spec");
        if (opts[k][2] && !spec)
            so_params_set(&prm, opts[k][2], opts[k][3]);
        so_cl_config cfg = {.scheduler = so_cl_scheduler_find("wpbs"),
                            .speculation = spec ? so_cl_speculation_find(opts[k][3])
                                                : NULL,
                            .params = &prm, .seed = 5};
        so_cl_sim *sim = NULL;
        so_error err;
        CU_ASSERT_EQUAL_FATAL(so_cl_sim_new(w, &cfg, &sim, &err), SO_OK);
        CU_ASSERT_EQUAL(so_cl_sim_run(sim), SO_OK);
        long long bad = -1, checks = so_cl_wpbs_verified(sim, &bad);
        CU_ASSERT(checks > 5000);
        CU_ASSERT_EQUAL(bad, 0);
        for (int u = 0; u < so_cl_user_count(sim); u++)
            fair_seen += !paper && so_cl_wpbs_user_fifo(sim, u) == 0;
        so_cl_sim_free(sim);
        so_cl_workload_free(w);
    }
    CU_ASSERT(fair_seen > 0); /* the fair split was exercised */
}

/* Tier 2 on the paper's workload (seed 1, load 1): the Pi user, whose jobs
 * all have 10 maps of one task-time distribution (job-size CV about 0.1),
 * is FIFO at every job completion and its history never restarts. */
typedef struct pi_watch {
    int user, fifo, finishes;
} pi_watch;

static void pi_finish(void *state, so_cl_sim *sim, int job)
{
    pi_watch *p = state;
    if (so_cl_job_user(sim, job) != p->user)
        return;
    p->finishes++;
    p->fifo += so_cl_wpbs_user_fifo(sim, p->user) == 1;
}

static void test_paper_pi_fifo(void)
{
    so_cl_workload *w = wpbs_paper(1, "1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    /* users by name: grep 0, pi 1, sort 2, wordcount 3 */
    pi_watch p = {1, 0, 0};
    so_cl_hooks hooks = {.job_finish = pi_finish};
    so_cl_sim *sim = run_hooks(w, "wpbs", &hooks, &p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    int j = 0;
    while (j < w->n_jobs && so_cl_job_user(sim, j) != 1)
        j++;
    CU_ASSERT_FATAL(j < w->n_jobs);
    CU_ASSERT_STRING_EQUAL(w->jobs[j].user, "pi");
    CU_ASSERT_EQUAL(p.finishes, 100);
    CU_ASSERT_EQUAL(p.fifo, 100);
    CU_ASSERT_EQUAL(so_cl_wpbs_user_resets(sim, 1), 0);
    const so_cl_obs *h = so_cl_wpbs_user_history(sim, 1);
    CU_ASSERT(h->n == 20); /* the window */
    CU_ASSERT(so_wpbs_cv(h) < 0.3);
    so_cl_sim_free(sim);
    so_cl_workload_free(w);
}

static CU_TestInfo tests[] = {
    {"Welford equals two passes (eqs. 1-6)", test_welford_two_pass},
    {"history window", test_welford_window},
    {"shares and caps by hand (eqs. 8-10)", test_shares_hand},
    {"shares: sum = slots, > 0, caps", test_shares_properties},
    {"tier-2 rule (Algorithm 3)", test_tier2_rule},
    {"tier 2: equal sizes stay FIFO", test_tier2_fifo_sequence},
    {"tier 2: a variable burst switches to fair, history restarts",
     test_tier2_switch_and_reset},
    {"hand-computed run against fair; share read-out", test_hand_run},
    {"bad options", test_bad_options},
    {"determinism on wpbs-paper", test_determinism},
    {"tier 2 on wpbs-paper: Pi stays FIFO", test_paper_pi_fifo},
    {"per-user sums equal a pass over the jobs at every allocation",
     test_sums_against_pass},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-wpbs", tests)
