/* test_cluster_ras.c — the RAS online scheduler (cluster/sched_ras.c): a
 * hand-computed run over several control cycles, never more demand than
 * capacity on a node (Gridmix workload), progress with unreachable goals,
 * backend selection, determinism; and `--opt map_slots=K` on JSON
 * workloads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/sim_internal.h"
#include "tests/cluster/cluster_test.h"
#include "tests/test_util.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9)

/* One node (cpu 100 shared, mem 100 hard), heartbeat 1 s aligned at 0,
 * control cycle 5 s. A: 4 maps of 10 s at 0; B: 2 maps of 4 s at 3; every
 * map demands cpu 50, mem 10; no goals (s_req = 1).
 *  t=0   heartbeat (no placement yet), then cycle 0: A alone, s_pend 4:
 *        two maps fit (cpu) -> P[A] = 2, u_A = (2-1)/(4-1) = 1/3.
 *  t=1   heartbeat: A launches 2 maps (end at 11).
 *  t=3   B arrives: no cycle before 5.
 *  t=5   cycle: A s_pend 2 + 2 running = 4, B s_pend 2; Algorithm 1's fill
 *        gives each job one map (A first on the tie at -inf, then B):
 *        u_A = (1-1)/3 = 0, u_B = (1-1)/1 = 0; moves cannot raise the
 *        minimum. A runs 2 > P[A] = 1 (never killed); B's map does not fit
 *        the cpu (overload protection) until A's maps end. Cycle 10: same.
 *  t=11  A's maps end; heartbeat: A (tie at 0, lower index) launches its
 *        third map (ends 21), then B its first (ends 15).
 *  t=15  B's map ends; the heartbeat (before the cycle's epoch at 15)
 *        launches B's second map (ends 19) under cycle 10's P[B] = 1.
 *        Cycle 15: A s_pend 2 (1 running), B s_pend 1 (running): fill A,
 *        B, then no room: P[A] = 1, P[B] = 1; u_A = 0, u_B = 1.
 *  t=19  B ends (B finishes at 19); A runs 1 = P[A]: nothing launches.
 *  t=20  heartbeat first (still P[A] = 1), then cycle 20: A alone, s_pend
 *        2: P[A] = 2.
 *  t=21  A's third map ends; the heartbeat launches its fourth (ends 31). */
static const char two_jobs[] =
    "{\"cluster\": {\"resources\": [\"cpu\", \"mem\"],"
    " \"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 1,"
    " \"capacity\": [100, 100]}], \"heartbeat\": 1,"
    " \"heartbeat_phase\": \"aligned\","
    " \"contention\": {\"model\": \"share\", \"hard\": [\"mem\"]}},"
    " \"jobs\": [{\"name\": \"A\", \"submit\": 0, \"maps\": [10, 10, 10, 10],"
    "   \"map_demand\": [50, 10]},"
    "  {\"name\": \"B\", \"submit\": 3, \"maps\": [4, 4],"
    "   \"map_demand\": [50, 10]}]}";

/* Launch times of a run, from the event log (at most n). */
static int launches(FILE *log, double *t, int *job, int n)
{
    rewind(log);
    char line[512];
    int k = 0;
    while (fgets(line, sizeof line, log) && k < n) {
        double at;
        int j;
        if (sscanf(line, "%lf launch job=%d", &at, &j) == 2) {
            t[k] = at;
            job[k++] = j;
        }
    }
    return k;
}

static void test_hand_cycles(void)
{
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "cycle", "5");
    FILE *log = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    cl_run r = cl_simulate(two_jobs, "ras", NULL, &prm, 1, log);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    double t[8];
    int job[8];
    CU_ASSERT_EQUAL_FATAL(launches(log, t, job, 8), 6);
    const double want_t[] = {1, 1, 11, 11, 15, 21};
    const int want_job[] = {0, 0, 0, 1, 1, 0};
    for (int k = 0; k < 6; k++) {
        NEAR(t[k], want_t[k]);
        CU_ASSERT_EQUAL(job[k], want_job[k]);
    }
    NEAR(so_cl_sim_job(r.sim, 0)->finish, 31);
    NEAR(so_cl_sim_job(r.sim, 1)->start, 11);
    NEAR(so_cl_sim_job(r.sim, 1)->finish, 19);
    /* the placements and utilities of cycles 0, 5 and 15 */
    rewind(log);
    char line[512];
    int seen = 0;
    while (fgets(line, sizeof line, log)) {
        if (!strncmp(line, "0.000000 ras-cycle job=0 ", 25)) {
            CU_ASSERT_PTR_NOT_NULL(strstr(line, "utility=0.333333 s_req=1 s_pend=4"));
            CU_ASSERT_PTR_NOT_NULL(strstr(line, "placed_maps=2 "));
            seen++;
        } else if (!strncmp(line, "5.000000 ras-cycle job=1 ", 25)) {
            CU_ASSERT_PTR_NOT_NULL(strstr(line, "utility=0.000000 s_req=1 s_pend=2"));
            CU_ASSERT_PTR_NOT_NULL(strstr(line, "placed_maps=1 "));
            seen++;
        } else if (!strncmp(line, "15.000000 ras-cycle job=1 ", 26)) {
            CU_ASSERT_PTR_NOT_NULL(strstr(line, "utility=1.000000 s_req=1 s_pend=1"));
            seen++;
        }
    }
    CU_ASSERT_EQUAL(seen, 3);
    fclose(log);
    cl_done(&r);
}

/* ---- never more demand than capacity ---------------------------------- */

typedef struct load_check {
    int checks, over;
} load_check;

/* The engine's current demand of an attempt (rates.c's model). */
static double current_demand(const so_cl_sim *sim, const so_cl_attempt *a,
                             int r)
{
    const so_cl_job_spec *spec = sim->jobs[a->job].spec;
    if (sim->w->hard[r])
        return so_cl_held_demand(spec, a->phase, r);
    if (a->phase == SO_CL_REDUCE && a->seg == 0)
        return spec->shuffle_demand[r];
    return spec->demand[a->phase][r];
}

static void check_node(void *state, so_cl_sim *sim, int node)
{
    load_check *c = state;
    const so_cl_nodert *nd = &sim->nodes[node];
    for (int r = 0; r < sim->w->n_resources; r++) {
        double load = 0;
        for (int k = 0; k < nd->n_running; k++)
            load += current_demand(sim, &sim->attempts[nd->running[k]], r);
        c->checks++;
        if (load > sim->w->nodes[node].capacity[r] + 1e-6)
            c->over++;
    }
}

static char *gridmix_text(const char *goals)
{
    so_params set;
    so_error err;
    so_params_init(&set);
    so_params_set(&set, "goals", goals);
    json_t *inst = NULL;
    if (so_family_generate(so_family_find("ras-gridmix-workload"), &set, 1, 0,
                           &inst, &err))
        return NULL;
    char *text = json_dumps(inst, 0);
    json_decref(inst);
    return text;
}

/* The Gridmix workload (9 jobs, 20 TaskTrackers, cpu and io shared): after
 * every change of a node's running set, each resource's demand fits its
 * capacity, also through the reducers' shuffle-to-reduce switch; every
 * task completes once. */
static void test_never_over_capacity(void)
{
    char *text = gridmix_text("tight");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    static const char *const reduces[] = {"switch", "slowstart", "switch"};
    static const char *const running[] = {"placed", "placed", "fixed"};
    for (int v = 0; v < 3; v++) {
        so_params prm;
        so_params_init(&prm);
        so_params_set(&prm, "reduces", reduces[v]);
        so_params_set(&prm, "running", running[v]);
        load_check c = {0, 0};
        so_cl_hooks hooks = {0};
        hooks.node_change = check_node;
        cl_run r = cl_simulate_hooks(text, "ras", NULL, &prm, 1, NULL, &hooks, &c);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        CU_ASSERT(c.checks > 1000);
        CU_ASSERT_EQUAL(c.over, 0);
        CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->tasks_done, so_cl_sim_task_count(r.sim));
        for (size_t t = 0; t < so_cl_sim_task_count(r.sim); t++)
            CU_ASSERT_EQUAL(so_cl_sim_task_completions(r.sim, t), 1);
        cl_done(&r);
    }
    free(text);
}

/* Fair with 8 map slots does over-commit the same workload (the check can
 * fail). */
static void test_fair_does_overcommit(void)
{
    char *text = gridmix_text("none");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "map_slots", "8");
    load_check c = {0, 0};
    so_cl_hooks hooks = {0};
    hooks.node_change = check_node;
    cl_run r = cl_simulate_hooks(text, "fair", NULL, &prm, 1, NULL, &hooks, &c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT(c.over > 0);
    cl_done(&r);
    free(text);
}

/* ---- unreachable goals, backends, determinism -------------------------- */

/* Goals of 1 s cannot be met: s_req = s_pend for every job; the scheduler
 * still places and runs everything (3 nodes, 3 jobs with reducers), with
 * Algorithm 1, with the exact ras-glpk and with running tasks fixed. */
static const char unreachable[] =
    "{\"cluster\": {\"resources\": [\"cpu\", \"io\", \"mem\"],"
    " \"nodes\": [{\"count\": 3, \"map_slots\": 2, \"reduce_slots\": 1,"
    " \"capacity\": [100, 100, 100]}], \"heartbeat\": 3,"
    " \"contention\": {\"model\": \"share\", \"hard\": [\"mem\"]}},"
    " \"jobs\": ["
    "  {\"submit\": 0, \"goal\": 1, \"maps\": {\"count\": 12, \"duration\": 20},"
    "   \"reduces\": {\"count\": 2, \"copy\": 5, \"sort\": 2, \"reduce\": 10},"
    "   \"map_demand\": [30, 45, 25], \"reduce_demand\": [20, 50, 60],"
    "   \"shuffle_demand\": [0, 1, 60]},"
    "  {\"submit\": 5, \"goal\": 1, \"maps\": {\"count\": 9, \"duration\": 15},"
    "   \"reduces\": {\"count\": 1, \"copy\": 3, \"sort\": 1, \"reduce\": 6},"
    "   \"map_demand\": [25, 10, 10], \"reduce_demand\": [10, 10, 25]},"
    "  {\"submit\": 5, \"goal\": 1, \"maps\": {\"count\": 6, \"duration\": 8},"
    "   \"map_demand\": [15, 20, 10]}]}";

static void test_unreachable_goals_progress(void)
{
    static const char *const backends[] = {"ras", "ras-glpk", "ras"};
    static const char *const running[] = {"placed", "placed", "fixed"};
    for (int b = 0; b < 3; b++) {
        so_params prm;
        so_params_init(&prm);
        so_params_set(&prm, "ras_backend", backends[b]);
        so_params_set(&prm, "running", running[b]);
        FILE *log = tmpfile();
        cl_run r = cl_simulate(unreachable, "ras", NULL, &prm, 3, log);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        CU_ASSERT_EQUAL(so_cl_sim_stats(r.sim)->tasks_done, 12 + 2 + 9 + 1 + 6);
        for (int j = 0; j < 3; j++)
            CU_ASSERT(so_cl_sim_job(r.sim, j)->finish > 0);
        /* s_req = s_pend in every cycle line of a job with maps left */
        rewind(log);
        char line[512];
        int lines = 0, equal = 0;
        while (fgets(line, sizeof line, log)) {
            int req, pend;
            const char *p = strstr(line, " s_req=");
            if (!strstr(line, "ras-cycle") || !p ||
                sscanf(p, " s_req=%d s_pend=%d", &req, &pend) != 2 || pend == 0)
                continue;
            lines++;
            equal += req == pend;
        }
        CU_ASSERT(lines > 5);
        CU_ASSERT_EQUAL(equal, lines);
        fclose(log);
        cl_done(&r);
    }
}

static void test_bad_options(void)
{
    const char *keys[][2] = {{"ras_backend", "knapsack-dp"},
                             {"ras_backend", "nope"},
                             {"cycle", "0"},
                             {"reduces", "later"},
                             {"running", "moved"}};
    for (size_t k = 0; k < 5; k++) {
        so_params prm;
        so_params_init(&prm);
        so_params_set(&prm, keys[k][0], keys[k][1]);
        cl_run r = cl_simulate(two_jobs, "ras", NULL, &prm, 1, NULL);
        CU_ASSERT_PTR_NULL(r.sim);
        cl_done(&r);
    }
    /* a workload without resources */
    cl_run r = cl_simulate("{\"cluster\": {\"nodes\": [{}]},"
                           " \"jobs\": [{\"submit\": 0, \"maps\": [1]}]}",
                           "ras", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NULL(r.sim);
    cl_done(&r);
}

static char *slurp_log(FILE *fp)
{
    fflush(fp);
    long n = ftell(fp);
    char *buf = malloc((size_t)n + 1);
    rewind(fp);
    size_t got = fread(buf, 1, (size_t)n, fp);
    buf[got] = '\0';
    return buf;
}

static void test_deterministic(void)
{
    char *logs[2];
    double makespan[2];
    for (int k = 0; k < 2; k++) {
        FILE *log = tmpfile();
        cl_run r = cl_simulate(unreachable, "ras", NULL, NULL, 9, log);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        makespan[k] = so_cl_sim_stats(r.sim)->makespan;
        logs[k] = slurp_log(log);
        fclose(log);
        cl_done(&r);
    }
    CU_ASSERT_EQUAL(makespan[0], makespan[1]);
    CU_ASSERT(strlen(logs[0]) > 1000);
    CU_ASSERT_STRING_EQUAL(logs[0], logs[1]);
    free(logs[0]);
    free(logs[1]);
}

/* ---- --opt map_slots on a JSON workload -------------------------------- */

static void test_map_slots_override(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"count\": 2, \"map_slots\": 1},"
        " {\"map_slots\": 5, \"reduce_slots\": 3}]},"
        " \"jobs\": [{\"submit\": 0, \"maps\": [1, 1, 1, 1, 1, 1]}]}";
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "map_slots", "3");
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse(json, strlen(json), "w.json",
                                               &prm, 1, &w, &err), SO_OK);
    for (int n = 0; n < 3; n++)
        CU_ASSERT_EQUAL(w->nodes[n].slots[SO_CL_MAP], 3);
    CU_ASSERT_EQUAL(w->nodes[2].slots[SO_CL_REDUCE], 3);
    so_cl_workload_free(w);
    /* 9 map slots: the six 1 s maps run in one wave */
    cl_run r = cl_simulate(json, "fifo", NULL, &prm, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_EQUAL(r.sim->total_slots[SO_CL_MAP], 9);
    cl_done(&r);
    const char *bad[] = {"0", "x", "-2", "20000"};
    for (int k = 0; k < 4; k++) {
        so_params_set(&prm, "map_slots", bad[k]);
        w = NULL;
        CU_ASSERT_NOT_EQUAL(so_cl_workload_parse(json, strlen(json), "w.json",
                                                 &prm, 1, &w, &err), SO_OK);
        CU_ASSERT_PTR_NULL(w);
        CU_ASSERT_STRING_EQUAL(err.key, "map_slots");
    }
    /* the other SWIM settings stay refused on JSON */
    so_params_init(&prm);
    so_params_set(&prm, "reduce_slots", "3");
    CU_ASSERT_NOT_EQUAL(so_cl_workload_parse(json, strlen(json), "w.json",
                                             &prm, 1, &w, &err), SO_OK);
}

static void test_cli(void)
{
    char *out = NULL, *errout = NULL;
    const char *path = so_test_write("ras-two.json", two_jobs);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "sim %s --scheduler ras --opt cycle=5 --opt ras_backend=ras-enum",
             path);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, &errout), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\"makespan\": 31"));
    free(out);
    free(errout);
    snprintf(cmd, sizeof cmd, "sim %s --scheduler ras --opt ras_backend=rap-dp",
             path);
    CU_ASSERT_NOT_EQUAL(so_test_run(cmd, &out, &errout), 0);
    CU_ASSERT_PTR_NOT_NULL(errout && strstr(errout, "ras_backend"));
    free(out);
    free(errout);
}

static CU_TestInfo tests[] = {
    {"hand-computed control cycles", test_hand_cycles},
    {"never more demand than capacity", test_never_over_capacity},
    {"fair over-commits the same workload", test_fair_does_overcommit},
    {"unreachable goals still progress", test_unreachable_goals_progress},
    {"bad options", test_bad_options},
    {"deterministic", test_deterministic},
    {"map_slots overrides JSON workloads", test_map_slots_override},
    {"cli", test_cli},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-ras", tests)
