/* test_offline_plan.c — planned maps (cluster/offline_plan.c, scheduler
 * priority's tasks=planned): the beats a map holds, a packing longest
 * first cannot find (by hand, proved optimal by offline-opt), and on a
 * flex-cluster workload the replay launching every map at its planned beat
 * and ending every job's maps at the plan's time; out of memory, the plan
 * refused or complete. */
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cluster/offline_opt.h"
#include "cluster/offline_plan.h"
#include "cluster/workload_family.h"
#include "tests/cluster/cluster_test.h"
#include "tests/test_util.h"

static void test_beats(void)
{
    CU_ASSERT_EQUAL(so_cl_plan_beats(2.5, 1), 3);
    CU_ASSERT_EQUAL(so_cl_plan_beats(2, 1), 2);          /* an end on a beat frees it */
    CU_ASSERT_EQUAL(so_cl_plan_beats(2 + 1e-12, 1), 2);  /* within rounding: on it */
    CU_ASSERT_EQUAL(so_cl_plan_beats(2.001, 1), 3);
    CU_ASSERT_EQUAL(so_cl_plan_beats(0, 3), 1);          /* no work: the next beat */
    CU_ASSERT_EQUAL(so_cl_plan_beats(61, 3), 21);
    CU_ASSERT_EQUAL(so_cl_plan_beats(3e7, 0.01), 3000000000LL); /* past INT_MAX */
    CU_ASSERT_EQUAL(so_cl_plan_beats(1e300, 0.01), SO_CL_PLAN_MAX_BEATS);
}

/* One node of 2 map slots, beats every 1 s from 0; one job of maps 2.5,
 * 2.5, 1.5, 1.5, 1.5 (beats held 3, 3, 2, 2, 2). Longest first: both 2.5
 * at 0, two 1.5 at 3, the last at 5, done at 6.5. The plan packs 3 + 3
 * beside 2 + 2 + 2: done at 5.5 = lp-bound (12 beats on 2 slots, less the
 * last map's 0.5 s before its beat), so offline-opt proves it. */
static const char *two_slots =
    "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
    "\"map_slots\":2,\"reduce_slots\":1}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"
    "\"jobs\":[{\"name\":\"A\",\"submit\":0,\"maps\":[2.5,1.5,2.5,1.5,1.5]}]}";

static double finish(const char *json, const char *tasks)
{
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "tasks", tasks);
    cl_run r = cl_simulate(json, "priority", NULL, &prm, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    double f = so_cl_sim_job(r.sim, 0)->finish;
    cl_done(&r);
    return f;
}

/* One job of `json`: its map end under longest first and planned maps,
 * and offline-opt's result, `planned` and proved (incumbent = lp-bound). */
static void proved_by_plan(const char *json, double longest, double planned)
{
    CU_ASSERT_DOUBLE_EQUAL(finish(json, "longest"), longest, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(finish(json, "planned"), planned, 1e-9);
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse_json(json, strlen(json), "t.json", 1, &w, &err),
                          SO_OK);
    so_cl_offline_opt o;
    CU_ASSERT_EQUAL_FATAL(so_cl_offline_opt_solve(w, 1, 0, &o, &err), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(o.sum, planned, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(o.bound, planned, 1e-9);
    CU_ASSERT_TRUE(o.proved);
    CU_ASSERT_STRING_EQUAL(o.tasks, "planned");
    so_cl_offline_opt_free(&o);
    so_cl_workload_free(w);
}

static void test_by_hand(void)
{
    proved_by_plan(two_slots, 6.5, 5.5);
}

/* A packing only a swap finds. One node of 2 map slots, beats every 1 s
 * from 0; maps 4.9, 3.9, 2.9, 2.9, 2.9 (beats held 5, 4, 3, 3, 3: 18 on 2
 * slots). Worst fit for 9 beats a slot puts 5 + 3 on one slot and 4 + 3 +
 * 3 (10) on the other; no map of 1 beat moves, but the 4 swaps for a 3:
 * 5 + 4 beside 3 + 3 + 3, the last maps ending at 8.9 = lp-bound (9 beats
 * less 0.1 s). Longest first: 4.9 and 3.9 at 0, a 2.9 at 4 and at 5, the
 * last at 7, done at 9.9; in the workload's order: two 2.9 at 0, a 2.9
 * and the 4.9 at 3, the 3.9 at 6, done at 9.9. */
static const char *swap_only =
    "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
    "\"map_slots\":2,\"reduce_slots\":1}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"
    "\"jobs\":[{\"name\":\"A\",\"submit\":0,\"maps\":[2.9,2.9,2.9,4.9,3.9]}]}";

static void test_swap(void)
{
    proved_by_plan(swap_only, 9.9, 8.9);
}

static void test_bad_option(void)
{
    char *out = NULL;
    const char *wl = so_test_write("plan-two.json", two_slots);
    char args[600];
    snprintf(args, sizeof args, "sim %s --scheduler priority --opt tasks=packed", wl);
    CU_ASSERT_NOT_EQUAL(so_test_run(args, NULL, &out), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "expected index, longest or planned"));
    free(out);
}

/* Two nodes of one map slot, 3 memory each; job B's 5 s map on node 0,
 * job A's four 2 s maps of 2 memory planned on node 1 at 0, 2, 4 and on
 * node 0 at 5. A's reduce (2 memory, open after one map) starts on node 0
 * at beat 2 while B's map runs there, and waits for A's maps: A's map
 * planned on node 0 never fits beside it. Once overdue (its beat 1.5
 * beats past) node 1 takes it at beat 7: it ends at 9, the reduce at 10. */
static const char *held_by_reduce =
    "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":2,"
    "\"map_slots\":1,\"reduce_slots\":1,\"capacity\":[3]}],\"resources\":[\"mem\"],"
    "\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},\"jobs\":["
    "{\"name\":\"B\",\"submit\":0,\"maps\":[5]},"
    "{\"name\":\"A\",\"submit\":0,\"maps\":[2,2,2,2],\"reduces\":[1],\"slowstart\":0.05,"
    "\"map_demand\":[2],\"reduce_demand\":[2]}]}";

static void test_held_by_reduce(void)
{
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "tasks", "planned");
    so_params_set(&prm, "padding", "0");
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse_json(held_by_reduce, strlen(held_by_reduce),
                                                    "t.json", 1, &w, &err), SO_OK);
    so_cl_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.scheduler = so_cl_scheduler_find("priority");
    cfg.params = &prm;
    cfg.seed = 1;
    cfg.time_limit = 2; /* a stalled replay beats for ever */
    so_cl_sim *sim = NULL;
    CU_ASSERT_EQUAL_FATAL(so_cl_sim_new(w, &cfg, &sim, &err), SO_OK);
    CU_ASSERT_EQUAL(so_cl_sim_run(sim), SO_OK);
    CU_ASSERT_FALSE(so_cl_sim_stats(sim)->stopped);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(sim, 0)->finish, 5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(sim, 1)->finish, 10, 1e-9);
    so_cl_sim_free(sim);
    so_cl_workload_free(w);
}

/* ---- the replay follows the plan ------------------------------------------ */

typedef struct {
    double *launch;  /* per task: its first launch (-1: none) */
    double *map_end; /* per job: the end of its last map */
    int launches;
} watch;

static void on_launch(void *state, so_cl_sim *sim, int attempt)
{
    watch *wt = state;
    const so_cl_attempt *a = &sim->attempts[attempt];
    wt->launches++;
    if (wt->launch[a->task] < 0)
        wt->launch[a->task] = sim->now;
}

static void on_end(void *state, so_cl_sim *sim, int attempt, int node, double duration)
{
    (void)node;
    (void)duration;
    watch *wt = state;
    const so_cl_attempt *a = &sim->attempts[attempt];
    if (a->phase == SO_CL_MAP)
        wt->map_end[a->job] = fmax(wt->map_end[a->job], sim->now);
}

static const so_cl_hooks watch_hooks = {NULL, on_launch, on_end, NULL, NULL, NULL};

/* flex-cluster's workload (nodes: each of its two node kinds `count`
 * times; 0: the family's 13). */
static char *flex_cluster(int jobs, uint64_t seed, int count)
{
    so_params set;
    so_params_init(&set);
    so_error err;
    char kv[32];
    snprintf(kv, sizeof kv, "jobs=%d", jobs);
    so_params_set_kv(&set, kv, &err);
    json_t *inst = NULL;
    CU_ASSERT_EQUAL(so_family_generate(so_family_find("flex-cluster"), &set, seed, 0, &inst,
                                       &err), SO_OK);
    json_t *nodes = json_object_get(json_object_get(inst, "cluster"), "nodes");
    for (size_t k = 0; count > 0 && k < json_array_size(nodes); k++)
        json_object_set_new(json_array_get(nodes, k), "count", json_integer(count));
    char *text = inst ? json_dumps(inst, 0) : NULL;
    json_decref(inst);
    return text;
}

static double sum_of(const char *json, const char *tasks, const char *order)
{
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "tasks", tasks);
    so_params_set(&prm, "order", order);
    so_params_set(&prm, "padding", "0");
    cl_run r = cl_simulate(json, "priority", NULL, &prm, 3, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    double sum = 0;
    for (int j = 0; j < r.w->n_jobs; j++)
        sum += so_cl_sim_job(r.sim, j)->finish - so_cl_sim_job(r.sim, j)->submit;
    cl_done(&r);
    return sum;
}

/* flex-cluster, 6 jobs (map times of 60 s +- 10 %) on `count` nodes of
 * each kind (12 map slots a pair): every map launched once, at its planned
 * beat; each job's maps end when the plan says; fewer seconds than longest
 * first. */
static void replay_follows_plan(int count)
{
    char *json = flex_cluster(6, 5, count);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    const char *order = "3,1,5,0,2,4";
    int ord[] = {3, 1, 5, 0, 2, 4};
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "tasks", "planned");
    so_params_set(&prm, "order", order);
    so_params_set(&prm, "padding", "0");
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse_json(json, strlen(json), "fc.json", 1, &w, &err),
                          SO_OK);
    size_t tasks = 0;
    for (int j = 0; j < w->n_jobs; j++)
        tasks += (size_t)w->jobs[j].n_maps + (size_t)w->jobs[j].n_reduces;
    watch wt = {malloc(tasks * sizeof(double)), calloc(8, sizeof(double)), 0};
    CU_ASSERT_PTR_NOT_NULL_FATAL(wt.launch);
    CU_ASSERT_EQUAL_FATAL(w->n_jobs, 6);
    for (size_t t = 0; t < tasks; t++)
        wt.launch[t] = -1;
    cl_run r = cl_simulate_hooks(json, "priority", NULL, &prm, 3, NULL, &watch_hooks, &wt);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    so_cl_map_plan plan;
    CU_ASSERT_EQUAL_FATAL(so_cl_map_plan_build(r.sim, ord, 6, &plan), SO_OK);
    int maps = 0, on_time = 0;
    for (int n = 0; n < plan.n_nodes; n++)
        for (int k = plan.first[n]; k < plan.first[n + 1]; k++) {
            maps++;
            on_time += fabs(wt.launch[plan.task[k]] - plan.start[k]) < 1e-6;
        }
    size_t n_maps = 0;
    for (int j = 0; j < w->n_jobs; j++) {
        n_maps += (size_t)w->jobs[j].n_maps;
        CU_ASSERT_DOUBLE_EQUAL(wt.map_end[j], plan.map_end[j], 1e-6);
    }
    CU_ASSERT_EQUAL((size_t)maps, n_maps);
    CU_ASSERT_EQUAL(on_time, maps);
    CU_ASSERT_EQUAL((size_t)wt.launches, tasks); /* one attempt a task */
    CU_ASSERT(n_maps > (size_t)(count > 0 ? count : 13) * 24); /* over two maps a slot */
    so_cl_map_plan_free(&plan);
    cl_done(&r);
    double planned = sum_of(json, "planned", order), longest = sum_of(json, "longest", order);
    CU_ASSERT(planned < longest - 1);
    so_cl_workload_free(w);
    free(wt.launch);
    free(wt.map_end);
    free(json);
}

/* the family's 26 nodes: 156 map slots, 26 heartbeat phases */
static void test_replay_follows_plan(void)
{
    replay_follows_plan(0);
}

/* 120 nodes, 720 map slots: the repair weighs 512 bins a step */
static void test_replay_follows_plan_large(void)
{
    replay_follows_plan(60);
}

/* ---- a finished job's maps are not tried again --------------------------- */

/* A scheduler that follows a plan in submit order (maps) and launches
 * reduces in that order: so_cl_map_plan_launch as scheduler priority's
 * tasks=planned calls it, its plan kept for the test to read. */
typedef struct {
    so_cl_map_plan plan;
    int made, failed;
} follower;

static int follow_create(so_cl_sim *sim, const so_params *prm, void **state, so_error *err)
{
    (void)sim;
    (void)prm;
    (void)err;
    *state = calloc(1, sizeof(follower));
    return *state ? SO_OK : SO_ENOMEM;
}

static int follow_assign(void *state, so_cl_sim *sim, int node, int phase)
{
    follower *f = state;
    if (phase == SO_CL_REDUCE) {
        for (int j = 0; j < sim->w->n_jobs; j++)
            if (!sim->jobs[j].finished && sim->jobs[j].arrived &&
                so_cl_launch(sim, j, node, SO_CL_REDUCE))
                return 1;
        return 0;
    }
    if (!f->made) {
        int order[64];
        for (int j = 0; j < sim->w->n_jobs && j < 64; j++)
            order[j] = j;
        f->failed = so_cl_map_plan_build(sim, order, sim->w->n_jobs, &f->plan) != SO_OK;
        f->made = 1;
    }
    return f->failed ? 0 : so_cl_map_plan_launch(&f->plan, sim, node);
}

static void follow_destroy(void *state)
{
    follower *f = state;
    so_cl_map_plan_free(&f->plan);
    free(f);
}

static const so_cl_scheduler follow_scheduler = {
    "follow", "follows a map plan (test)", NULL, follow_create, NULL, follow_assign,
    follow_destroy, NULL,
};

/* `json` replayed under the follower (options prm, may be NULL; a time
 * limit of 60 s), its plan built and kept; *w its workload. */
static so_cl_sim *follow(const char *json, const so_params *prm, so_cl_workload **w)
{
    so_error err;
    *w = NULL;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse_json(json, strlen(json), "t.json", 1, w, &err),
                          SO_OK);
    so_cl_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.scheduler = &follow_scheduler;
    cfg.params = prm;
    cfg.seed = 1;
    cfg.time_limit = 60;
    so_cl_sim *sim = NULL;
    CU_ASSERT_EQUAL_FATAL(so_cl_sim_new(*w, &cfg, &sim, &err), SO_OK);
    CU_ASSERT_EQUAL(so_cl_sim_run(sim), SO_OK);
    CU_ASSERT_FALSE(so_cl_sim_stats(sim)->stopped);
    const follower *f = sim->sched_state;
    CU_ASSERT_TRUE(f->made && !f->failed);
    return sim;
}

/* flex-cluster, 20 jobs (12,000-odd maps on 156 slots, jobs of up to
 * 2,000-odd maps): the replay follows the plan, so no map is ever overdue
 * and none is tried as one. Before the plan kept its maps' jobs, a
 * finished job's maps (its task pages given back, reading as pending)
 * stayed in the overdue scan and were tried at every free slot: about 10
 * million failed launches in this replay, the tasks of a node's next
 * planned map of a finished job blocking that node's pointer. */
static void test_finished_jobs_not_tried(void)
{
    char *json = flex_cluster(20, 1, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    so_cl_workload *w;
    so_cl_sim *sim = follow(json, NULL, &w);
    int biggest = 0;
    for (int j = 0; j < w->n_jobs; j++)
        biggest = w->jobs[j].n_maps > biggest ? w->jobs[j].n_maps : biggest;
    CU_ASSERT(biggest > 1000); /* whole pages of tasks given back at its end */
    const follower *f = sim->sched_state;
    for (int j = 0; j < w->n_jobs; j++) {
        CU_ASSERT_TRUE(sim->jobs[j].finished);
        CU_ASSERT(so_cl_sim_job(sim, j)->finish >= f->plan.map_end[j] - 1e-6);
    }
    CU_ASSERT_EQUAL(f->plan.probes, 0);
    so_cl_sim_free(sim);
    so_cl_workload_free(w);
    free(json);
}

/* Maps only one node has room for: 50 nodes of 8 map slots and a memory
 * of 4, one of 64; job A's 2,000 maps of 1 s need 8 (the big node only),
 * job B's 200 maps of 1 s need 1; beats every 1 s from 0. The plan (blind
 * to resources) puts A's maps on every node, 5 a slot, and B's after
 * them: all but the big node's run overdue there, 8 a beat, and A ends at
 * 251; B's maps run as planned, from 5 to 8. Every free slot of a small
 * node used to walk every overdue map of A, trying to launch each (12.3
 * million tries here); a job is now tried once a scan, its first waiting
 * map standing for all (whether a map fits depends on its job only):
 * 14,550 tries. */
static void test_overdue_tried_once_a_job(void)
{
    const char *json =
        "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":["
        "{\"count\":1,\"map_slots\":8,\"reduce_slots\":1,\"capacity\":[64]},"
        "{\"count\":49,\"map_slots\":8,\"reduce_slots\":1,\"capacity\":[4]}],"
        "\"heartbeat\":1,\"heartbeat_phase\":\"aligned\",\"resources\":[\"mem\"]},"
        "\"jobs\":[{\"name\":\"A\",\"submit\":0,\"map_demand\":[8],\"maps\":{\"count\":2000,"
        "\"duration\":1}},{\"name\":\"B\",\"submit\":0,\"map_demand\":[1],\"maps\":{"
        "\"count\":200,\"duration\":1}}]}";
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "padding", "0");
    so_cl_workload *w;
    so_cl_sim *sim = follow(json, &prm, &w);
    const follower *f = sim->sched_state;
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(sim, 0)->finish, 251, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(sim, 1)->finish, 8, 1e-9);
    /* a scan per node a beat (50 nodes, 252 beats) and per launch (2,200),
     * each at most 2 tries */
    CU_ASSERT(f->plan.probes > 0);
    CU_ASSERT(f->plan.probes <= 2 * (50 * 252 + 2200));
    so_cl_sim_free(sim);
    so_cl_workload_free(w);
}

/* The plan of `json` in order 0, 1, ... on a simulation not run (phases of
 * seed 1); params may raise max_events. */
static void plan_of(const char *json, const so_params *prm, so_cl_map_plan *plan)
{
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse(json, strlen(json), "t.json", prm, 1, &w, &err),
                          SO_OK);
    so_cl_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.scheduler = so_cl_scheduler_find("priority");
    cfg.params = prm;
    cfg.seed = 1;
    so_cl_sim *sim = NULL;
    CU_ASSERT_EQUAL_FATAL(so_cl_sim_new(w, &cfg, &sim, &err), SO_OK);
    int order[64];
    for (int j = 0; j < w->n_jobs && j < 64; j++)
        order[j] = j;
    CU_ASSERT_EQUAL(so_cl_map_plan_build(sim, order, w->n_jobs, plan), SO_OK);
    so_cl_sim_free(sim);
    so_cl_workload_free(w);
}

/* 3,000 nodes of 6 map slots, 3,000 heartbeat phases, beats every 1 s: a
 * map of 10^5 s (10^5 beats) beside 100 of 60 s, then 200 maps of 60 s.
 * The target search lists at most 3 beats a phase, with a few dozen
 * packings (listing every beat of windows doubled up to the long map's
 * length held 150 million beats, 1.2 GB). */
static void test_long_map_large_cluster(void)
{
    char *json = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&json, &size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":3000,"
               "\"map_slots\":6,\"reduce_slots\":2}],\"heartbeat\":1},\"jobs\":["
               "{\"name\":\"A\",\"submit\":0,\"maps\":[100000");
    for (int k = 0; k < 100; k++)
        fprintf(f, ",60");
    fprintf(f, "]},{\"name\":\"B\",\"submit\":0,\"maps\":[60");
    for (int k = 1; k < 200; k++)
        fprintf(f, ",60");
    fprintf(f, "]}]}");
    fclose(f);
    so_cl_map_plan plan;
    plan_of(json, NULL, &plan);
    CU_ASSERT_EQUAL(plan.first[plan.n_nodes], 301);
    CU_ASSERT(plan.beats_held <= 3 * 3000);
    CU_ASSERT(plan.packings < 200);
    CU_ASSERT(plan.map_end[0] >= 100000 && plan.map_end[0] < 100002);
    CU_ASSERT(plan.map_end[1] >= 60 && plan.map_end[1] < 62);
    so_cl_map_plan_free(&plan);
    free(json);
}

/* One map slot, beats every 10 ms, a map of 1.5 x 10^7 s: 1.5 x 10^9
 * beats, past the rooms' old cap of 10^9 beats (the target search doubled
 * for ever, --time-limit unheard). */
static void test_map_past_a_billion_beats(void)
{
    const char *json =
        "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
        "\"map_slots\":1,\"reduce_slots\":1}],\"heartbeat\":0.01,\"heartbeat_phase\":"
        "\"aligned\"},\"jobs\":[{\"name\":\"A\",\"submit\":0,\"maps\":[15000000, 1]},"
        "{\"name\":\"B\",\"submit\":0,\"maps\":[2]}]}";
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "max_events", "1e10");
    so_cl_map_plan plan;
    plan_of(json, &prm, &plan);
    CU_ASSERT_EQUAL_FATAL(plan.first[1], 3);
    CU_ASSERT_DOUBLE_EQUAL(plan.map_end[0], 15000001, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(plan.map_end[1], 15000003, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(plan.start[2], 15000001, 1e-3);
    so_cl_map_plan_free(&plan);
}

#ifndef __SANITIZE_ADDRESS__
/* Pages of address space in use, -1 unknown. */
static long vm_pages(void)
{
    long pages = -1;
    FILE *fp = fopen("/proc/self/statm", "r");
    if (fp && fscanf(fp, "%ld", &pages) != 1)
        pages = -1;
    if (fp)
        fclose(fp);
    return pages;
}

/* In a child: job A's and B's plan with `margin` bytes of address space
 * more than in use. Every allocation from then on maps fresh memory (the
 * heap's free chunks of 4 KB or more taken first, allocations past them
 * mapped), so the cap bites at the same allocation whatever the runner's
 * heap holds. Exit 0: SO_ENOMEM, 1: complete, 2: SO_OK with maps left out. */
static int plan_capped(const so_cl_sim *sim, int maps, long margin)
{
    pid_t pid = fork();
    if (pid < 0)
        return 9;
    if (pid == 0) {
        mallopt(M_MMAP_THRESHOLD, 0);
        for (size_t size = 1 << 20; size >= 4096; size /= 16)
            for (;;) {
                long before = vm_pages();
                void *q = malloc(size);
                if (!q || vm_pages() != before) {
                    free(q);
                    break;
                }
            }
        rlim_t cap = (rlim_t)vm_pages() * (rlim_t)sysconf(_SC_PAGESIZE) + (rlim_t)margin;
        struct rlimit lim = {cap, cap};
        if (setrlimit(RLIMIT_AS, &lim))
            _exit(9);
        int order[] = {0, 1};
        so_cl_map_plan plan;
        int rc = so_cl_map_plan_build(sim, order, 2, &plan);
        _exit(rc == SO_ENOMEM ? 0 : rc != SO_OK ? 9 : plan.first[plan.n_nodes] == maps + 1 ? 1 : 2);
    }
    int st = 0;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return 9;
    return WEXITSTATUS(st);
}
#endif

/* Out of memory while planning: under every cap on the address space the
 * plan is refused (SO_ENOMEM) or complete, never SO_OK with maps left out (a
 * slot's map list grown during a packing and failed: plan_job's SO_ENOMEM
 * was overwritten by the last step's SO_OK, the later jobs' maps never
 * planned). Job A: 20,000 maps on 2 slots, then job B: one map; caps 16 KB
 * apart up to the first that plans (the slots' lists, grown last, take
 * about 128 KB). Not under ASan, whose shadow memory needs the address
 * space. */
static void test_out_of_memory(void)
{
#ifndef __SANITIZE_ADDRESS__
    const int maps = 20000;
    char json[400];
    snprintf(json, sizeof json,
             "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
             "\"map_slots\":2,\"reduce_slots\":1}],\"heartbeat\":1,\"heartbeat_phase\":"
             "\"aligned\"},\"jobs\":[{\"name\":\"A\",\"submit\":0,\"maps\":{\"count\":%d,"
             "\"duration\":1.5}},{\"name\":\"B\",\"submit\":0,\"maps\":[2]}]}",
             maps);
    so_cl_workload *w = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_cl_workload_parse_json(json, strlen(json), "t.json", 1, &w, &err),
                          SO_OK);
    so_cl_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.scheduler = so_cl_scheduler_find("priority");
    cfg.seed = 1;
    so_cl_sim *sim = NULL;
    CU_ASSERT_EQUAL_FATAL(so_cl_sim_new(w, &cfg, &sim, &err), SO_OK);
    int seen[10] = {0}, plans = 0;
    for (long margin = 0; margin <= (64L << 20) && !plans; margin += 16384) {
        int code = plan_capped(sim, maps, margin);
        seen[code]++;
        plans = code == 1;
    }
    CU_ASSERT_EQUAL(seen[2], 0); /* SO_OK, maps left out */
    CU_ASSERT_EQUAL(seen[9], 0);
    CU_ASSERT(seen[0] > 0);      /* the cap bit, */
    CU_ASSERT(plans);            /* and was lifted */
    so_cl_sim_free(sim);
    so_cl_workload_free(w);
#endif
}

/* One job of 30,000 maps of normal(6, 1) s on 40 nodes of one map slot,
 * speeds 1 and 2 in turn: with each node's speed moved by k 1e-9 (40
 * classes, 30,000 x 40 beats past the table's 2^20 entries: computed where
 * used) and without (two classes, the table): the same beats, so the same
 * plan. */
static char *forty_speeds(int distinct)
{
    char *json = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&json, &size);
    if (!f)
        return NULL;
    fprintf(f, "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[");
    for (int k = 0; k < 40; k++)
        fprintf(f, "%s{\"count\":1,\"map_slots\":1,\"reduce_slots\":1,\"speed\":%.12g}",
                k ? "," : "", (k % 2 ? 2.0 : 1.0) + (distinct ? k * 1e-9 : 0));
    fprintf(f, "],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},\"jobs\":[{\"name\":\"A\","
               "\"submit\":0,\"maps\":{\"count\":30000,\"duration\":{\"dist\":\"normal\","
               "\"mean\":6,\"sd\":1}}}]}");
    fclose(f);
    return json;
}

static void test_many_speed_classes(void)
{
    char *many = forty_speeds(1), *one = forty_speeds(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(many);
    CU_ASSERT_PTR_NOT_NULL_FATAL(one);
    so_cl_map_plan a, b;
    plan_of(many, NULL, &a);
    plan_of(one, NULL, &b);
    CU_ASSERT_EQUAL(a.first[a.n_nodes], 30000);
    CU_ASSERT_EQUAL(b.first[b.n_nodes], 30000);
    for (int n = 0; n <= 40; n++)
        CU_ASSERT_EQUAL(a.first[n], b.first[n]);
    int same = 0; /* entry by entry: each slot's maps and their beats */
    for (int e = 0; e < 30000; e++)
        same += a.task[e] == b.task[e] && a.start[e] == b.start[e];
    CU_ASSERT_EQUAL(same, 30000);
    CU_ASSERT_DOUBLE_EQUAL(a.map_end[0], b.map_end[0], 1e-6);
    /* 180,000 s of work at 60 slot-speeds: about 3,000 s, beats rounding up */
    CU_ASSERT(b.map_end[0] > 3000 && b.map_end[0] < 3000 * 1.2);
    so_cl_map_plan_free(&a);
    so_cl_map_plan_free(&b);
    free(many);
    free(one);
}

static CU_TestInfo tests[] = {
    {"beats a map holds", test_beats},
    {"a packing longest first misses, proved", test_by_hand},
    {"a packing only a swap finds, proved", test_swap},
    {"bad task rule", test_bad_option},
    {"a planned map its node cannot fit runs elsewhere", test_held_by_reduce},
    {"flex-cluster: the replay follows the plan", test_replay_follows_plan},
    {"720 map slots: the replay follows the plan", test_replay_follows_plan_large},
    {"a finished job's maps are not tried again", test_finished_jobs_not_tried},
    {"overdue maps: a job that cannot launch tried once a scan", test_overdue_tried_once_a_job},
    {"3,000 nodes, a map of 10^5 beats: bounded target search", test_long_map_large_cluster},
    {"a map of 1.5 x 10^9 beats", test_map_past_a_billion_beats},
    {"40 speed classes past the table: the same plan", test_many_speed_classes},
    {"out of memory: the plan refused or complete", test_out_of_memory},
    CU_TEST_INFO_NULL};
SO_SUITE("cluster-offline-plan", tests)
