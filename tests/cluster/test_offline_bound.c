/* test_offline_bound.c — lp-bound (cluster/offline_bound.c): SRPT by hand,
 * hand-computed bounds (one job with slow-start and a reduce; two jobs with
 * release dates, where the bound is the preemptive optimum; WSPT and the
 * weighted and goal bounds; the one-slot wave), and the bounds (sum, per job, makespan,
 * weighted sum, goals met, tardiness) never above a simulated run: random small workloads (heterogeneous
 * speeds, pools with minimum shares, locality, Amdahl fractions, slow-start)
 * and the workload families, under fifo, fair, flex, wpbs and priority
 * (longest tasks first, delayed reduces, planned maps) with every speculation rule,
 * resource stealing, preemption and delay scheduling. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/offline_bound.h"
#include "cluster/stealing.h"
#include "cluster/workload_family.h"
#include "tests/cluster/cluster_test.h"
#include "tests/test_util.h"

static void test_srpt(void)
{
    double r[] = {0, 1, 1, 10}, p[] = {3, 1, 0, 2}, c[4];
    CU_ASSERT_EQUAL(so_cl_srpt(4, r, p, c), SO_OK);
    /* 0 runs 0..1, 1 runs 1..2 (1 < 2 left), 2 completes at its release,
     * 0 resumes 2..4; 3 runs 10..12 */
    CU_ASSERT_DOUBLE_EQUAL(c[0], 4, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c[1], 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c[2], 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c[3], 12, 1e-12);
}

/* WSPT: A (r 0, p 4, w 1) runs 0..1, B (r 1, p 1, w 2: 2 > 1/4) 1..2, A
 * 2..5: mean busy times (0.5 + 10.5) / 4 and 1.5; C (p 0) at its release. */
static void test_wspt(void)
{
    double r[] = {0, 1, 3}, p[] = {4, 1, 0}, w[] = {1, 2, 1}, mb[3];
    CU_ASSERT_EQUAL(so_cl_wspt_busy(3, r, p, w, mb), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(mb[0], 2.75, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(mb[1], 1.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(mb[2], 3, 1e-12);
}

static so_cl_workload *parse(const char *json)
{
    so_cl_workload *w = NULL;
    so_error err;
    int rc = so_cl_workload_parse_json(json, strlen(json), "t.json", 1, &w, &err);
    CU_ASSERT_EQUAL(rc, SO_OK);
    if (rc)
        fprintf(stderr, "%s\n", err.message);
    return w;
}

/* lp-bound of a JSON workload; 0 when it parsed and computed. */
static int bound_of(const char *json, so_cl_offline_bound *b)
{
    so_cl_workload *w = parse(json);
    int rc = w ? so_cl_offline_bound_compute(w, 1, b) : SO_EINVAL;
    CU_ASSERT_EQUAL(rc, SO_OK);
    so_cl_workload_free(w);
    return rc;
}

/* One node of 2 + 2 slots; maps 4 and 6, one reduce (copy 1, sort 1,
 * reduce 2), slow-start 1: the maps end at 6, the reduce opens at 6 and
 * ends at 6 + 4 = 10 (O + c + s + d); M + s + d = 9 and the capacity terms
 * (5, 6 + 4 / 2, 6 + 3 / 2) are smaller. FIFO with aligned heartbeats every
 * 1 s achieves it: the bound is exact here. */
static const char *one_job =
    "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
    "\"map_slots\":2,\"reduce_slots\":2}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"
    "\"jobs\":[{\"name\":\"a\",\"submit\":0,\"slowstart\":1,\"maps\":[4,6],"
    "\"reduces\":[{\"copy\":1,\"sort\":1,\"reduce\":2}]}]}";

static void test_one_job(void)
{
    so_cl_offline_bound b;
    if (bound_of(one_job, &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.job[0], 10, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.sum, 10, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.makespan, 10, 1e-12);
    so_cl_offline_bound_free(&b);
    cl_run r = cl_simulate(one_job, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish, 10, 1e-9);
    cl_done(&r);
}

/* One map slot; A (submit 0, one map of 10) and B (submit 1, one map of 2).
 * Per job 10 + 2 = 12. SRPT on the map machine: A 0..1, B 1..3, A 3..12, so
 * the completions (3, 12) against the jobs' own (10, 3) sorted (3, 10):
 * 3 + 12 - (0 + 1) = 14 = the preemptive optimum. FIFO: A 0..10, B 10..12,
 * responses 10 + 11 = 21; the best non-preemptive schedule waits for B:
 * 2 + 13 = 15. */
#define TWO_JOBS(A, B)                                                                    \
    "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"           \
    "\"map_slots\":1,\"reduce_slots\":1}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"  \
    "\"jobs\":[{\"name\":\"A\",\"submit\":0," A "\"maps\":[10]},"                            \
    "{\"name\":\"B\",\"submit\":1," B "\"maps\":[2]}]}"
static const char *two_jobs = TWO_JOBS("", "");

static void test_two_jobs(void)
{
    so_cl_offline_bound b;
    if (bound_of(two_jobs, &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.job[0], 10, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.job[1], 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.sum_job, 12, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.sum_map, 14, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.sum, 14, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.makespan, 12, 1e-12);
    so_cl_offline_bound_free(&b);
    cl_run r = cl_simulate(two_jobs, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish, 10, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 1)->finish, 12, 1e-9);
    cl_done(&r);
}

/* two_jobs with weights 1 and 3 and goals 9 and 5. WSPT on the map machine
 * (B's 3 / 2 before A's 1 / 10): A 0..1, B 1..3, A 3..12, mean busy times
 * 6.8 and 2, so sum w (MB + p / 2) - sum w r = 11.8 + 3 x 3 - 3 = 17.8 (per
 * job: 10 + 3 x 2 = 16; the smallest weight x the sum: 14); the preemptive
 * optimum: 12 + 3 x 2 = 18. A cannot meet its goal (10 > 9), tardiness
 * at least 1. */
static void test_weighted_goals(void)
{
    const char *json = TWO_JOBS("\"weight\":1,\"goal\":9,", "\"weight\":3,\"goal\":5,");
    so_cl_offline_bound b;
    if (bound_of(json, &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.weighted_sum, 17.8, 1e-9);
    CU_ASSERT_EQUAL(b.goals, 2);
    CU_ASSERT_EQUAL(b.goals_missed, 1);
    CU_ASSERT_DOUBLE_EQUAL(b.tardiness, 1, 1e-12);
    so_cl_offline_bound_free(&b);
}

/* The heartbeat grid: one map slot, beats every 3 s at 0, 3, ...; A and B
 * (submit 0, one map of 1 s each). A task holds its slot until the next
 * beat after its end, 3 s, and ends at most 2 s before its hold does: SRPT
 * over holds of 3 gives 3 and 6, less 2 each, so the sum is at least
 * 1 + 4 = 5 (the plain work bound: 1 + 2 = 3). FIFO: A 0..1, B 3..4, 5. */
#define GRID_JOBS(OOB)                                                                   \
    "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"       \
    "\"map_slots\":1,\"reduce_slots\":1}],\"heartbeat\":3,\"outofband\":" OOB                \
    ",\"heartbeat_phase\":\"aligned\"},\"jobs\":[{\"name\":\"A\",\"submit\":0,\"maps\":[1]}," \
    "{\"name\":\"B\",\"submit\":0,\"maps\":[1]}]}"
static const char *grid_jobs = GRID_JOBS("false");

static void test_grid(void)
{
    so_cl_offline_bound b;
    if (bound_of(grid_jobs, &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.grid, 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.job[0], 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.sum_job, 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.sum, 5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.makespan, 4, 1e-12);
    so_cl_offline_bound_free(&b);
    cl_run r = cl_simulate(grid_jobs, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish + so_cl_sim_job(r.sim, 1)->finish,
                           5, 1e-9);
    cl_done(&r);
    /* out-of-band beats reuse the slot at once: the grid is off */
    if (bound_of(GRID_JOBS("true"), &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.grid, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(b.sum, 3, 1e-12);
    so_cl_offline_bound_free(&b);
}

/* The one-slot wave: one node of 2 map and 2 reduce slots, beats every
 * 1 s; maps 10, 10, 10 and three reduces of 1 + 1 + 2, slow-start 1. The
 * slot capacity says the maps end at 30 / 2 = 15 and the reduces at
 * 15 + 12 / 2 = 21; but one slot runs two of the maps (10 + 10) and one
 * reduce slot two of the reduces (4 + 4): the reduces open at 20 and end at
 * 28, which FIFO reaches (maps 0..10 twice and 10..20; reduces 20..24 twice,
 * 24..28). With map_parallel 0.5 a map may run on both slots: no wave
 * there, the maps' bound drops back to the capacity's. */
#define WAVE_JOB(F)                                                                      \
    "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"       \
    "\"map_slots\":2,\"reduce_slots\":2}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"  \
    "\"jobs\":[{\"name\":\"a\",\"submit\":0,\"slowstart\":1,\"map_parallel\":" F           \
    ",\"maps\":[10,10,10],\"reduces\":[{\"copy\":1,\"sort\":1,\"reduce\":2},"               \
    "{\"copy\":1,\"sort\":1,\"reduce\":2},{\"copy\":1,\"sort\":1,\"reduce\":2}]}]}"

static void test_wave(void)
{
    so_cl_offline_bound b;
    if (bound_of(WAVE_JOB("0"), &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.job[0], 28, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.sum, 28, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.makespan, 28, 1e-12);
    CU_ASSERT_EQUAL(b.waves, 1);
    so_cl_offline_bound_free(&b);
    cl_run r = cl_simulate(WAVE_JOB("0"), "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish, 28, 1e-9);
    cl_done(&r);
    /* maps may use both slots (at most 4/3 faster): opened at 30 / 2 = 15,
     * the reduces' wave (fraction 0) still holds: 15 + 8 = 23 */
    if (bound_of(WAVE_JOB("0.5"), &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.job[0], 23, 1e-12);
    so_cl_offline_bound_free(&b);
}

/* The slot waves beyond one: one node of 2 map slots, beats every 1 s, one
 * job of maps 1, 1, 3, 3, 3. The capacity says 11 / 2 = 5.5, the one-slot
 * wave (3 of the 5 on one slot, the 3 smallest) 1 + 1 + 3 = 5; but one slot
 * runs 2 of the 3 longest: 6, which longest first reaches (3, 3 at 0; 3
 * and 1 at 3; 1 at 4). */
static void test_waves(void)
{
    const char *json =
        "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
        "\"map_slots\":2,\"reduce_slots\":1}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"
        "\"jobs\":[{\"name\":\"A\",\"submit\":0,\"maps\":[1,3,1,3,3]}]}";
    so_cl_offline_bound b;
    if (bound_of(json, &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.job[0], 6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.sum, 6, 1e-12);
    CU_ASSERT_EQUAL(b.waves, 1);
    so_cl_offline_bound_free(&b);
    so_params prm;
    so_params_init(&prm);
    so_params_set(&prm, "tasks", "longest");
    cl_run r = cl_simulate(json, "priority", NULL, &prm, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish, 6, 1e-9);
    cl_done(&r);
}

/* The prefix waves: one node of 2 map slots, beats every 1 s; A of maps 2
 * and 2, B of one map of 2. The job terms say 2 and 2, the map machine (6 s
 * of work on 2 slots, SRPT) 1 and 3: sum 5. But the two jobs' 3 maps all
 * end by the second job's end, and one slot runs 2 of them: 4. So 2 + 4 =
 * 6, which FIFO reaches (A's maps at 0, B's at 2). With map_parallel 0.5
 * for A (a map may use both slots) the prefix waves do not apply. */
#define PREFIX_JOBS(F)                                                                   \
    "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"       \
    "\"map_slots\":2,\"reduce_slots\":1}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"  \
    "\"jobs\":[{\"name\":\"A\",\"submit\":0,\"map_parallel\":" F ",\"maps\":[2,2]},"       \
    "{\"name\":\"B\",\"submit\":0,\"maps\":[2]}]}"

static void test_prefix_waves(void)
{
    so_cl_offline_bound b;
    if (bound_of(PREFIX_JOBS("0"), &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.sum_job, 4, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.sum, 6, 1e-12);
    so_cl_offline_bound_free(&b);
    cl_run r = cl_simulate(PREFIX_JOBS("0"), "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish + so_cl_sim_job(r.sim, 1)->finish,
                           6, 1e-9);
    cl_done(&r);
    if (bound_of(PREFIX_JOBS("0.5"), &b))
        return;
    CU_ASSERT(b.sum < 6 - 1e-9);
    so_cl_offline_bound_free(&b);
}

/* With stealing and an Amdahl fraction the bound allows the speed-up:
 * map_parallel 0.5 on 2 slots, 1 / (0.5 + 0.25) = 4/3, so a lone map of 8
 * is bounded by 6, and Even stealing reaches it. */
static void test_stealing_speedup(void)
{
    const char *json =
        "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
        "\"map_slots\":2,\"reduce_slots\":1}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"
        "\"jobs\":[{\"name\":\"A\",\"submit\":0,\"map_parallel\":0.5,\"maps\":[8]}]}";
    so_cl_offline_bound b;
    if (bound_of(json, &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.job[0], 6, 1e-12);
    so_cl_offline_bound_free(&b);
    so_cl_stealing *st = NULL;
    CU_ASSERT_EQUAL_FATAL(so_cl_stealing_new(SO_CL_STEAL_EVEN, &st), SO_OK);
    cl_run r = cl_simulate_hooks(json, "fifo", NULL, NULL, 1, NULL, &so_cl_stealing_hooks, st);
    CU_ASSERT_PTR_NOT_NULL(r.sim);
    if (r.sim)
        CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish, 6, 1e-9);
    cl_done(&r);
    so_cl_stealing_free(st);
}

/* The busy-time bound: four jobs of one map of 10 s at 0 on one node of 2
 * map slots, map fraction 0.5 (a lone map may run 4/3 times faster on both
 * slots, so each job's own bound is 7.5 and the slot waves are off). SPT on
 * the map machine (2 work a second) gives mean busy times 2.5, 7.5, 12.5
 * and 17.5; a job of one task of 10 at rate <= 4/3 ends at least
 * 10 / (2 x 4/3) = 3.75 after its mean busy time (late_span()): 40 + 4 x
 * 3.75 = 55, where SRPT's order statistics give 7.5 + 10 + 15 + 20 = 52.5
 * and the old half of the work on the machine 40 + 4 x 2.5 = 50. FIFO
 * runs them two by two: 10 + 10 + 20 + 20 = 60. */
static void test_busy_time(void)
{
    const char *json =
        "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"
        "\"map_slots\":2,\"reduce_slots\":1}],\"heartbeat\":1,\"heartbeat_phase\":\"aligned\"},"
        "\"jobs\":[{\"name\":\"A\",\"submit\":0,\"map_parallel\":0.5,\"maps\":[10]},"
        "{\"name\":\"B\",\"submit\":0,\"map_parallel\":0.5,\"maps\":[10]},"
        "{\"name\":\"C\",\"submit\":0,\"map_parallel\":0.5,\"maps\":[10]},"
        "{\"name\":\"D\",\"submit\":0,\"map_parallel\":0.5,\"maps\":[10]}]}";
    so_cl_offline_bound b;
    if (bound_of(json, &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.job[0], 7.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.sum_map, 52.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(b.sum_busy, 55, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(b.sum, 55, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(b.weighted_sum, 55, 1e-9);
    so_cl_offline_bound_free(&b);
    cl_run r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    double sum = 0;
    for (int j = 0; j < 4; j++)
        sum += so_cl_sim_job(r.sim, j)->finish;
    CU_ASSERT_DOUBLE_EQUAL(sum, 60, 1e-9);
    cl_done(&r);
}

/* The nodes' beats (cluster/offline_beats.c): maps of 30 s on nodes of one
 * map slot each, beats every 3 s at the seed's phases. One node, 20 maps:
 * done at its first beat + 600 (the slot waves say 600). Two nodes, 5
 * maps: the 5th smallest of phase + 30 k over the two slots is the earlier
 * phase + 90 (the waves: 90). FIFO meets both, on every seed. */
static void beats_case(int nodes, int maps)
{
    char json[1024];
    int len = snprintf(json, sizeof json,
                       "{\"cluster\": {\"nodes\": [{\"count\": %d, \"map_slots\": 1,"
                       " \"reduce_slots\": 1}], \"heartbeat\": 3}, \"jobs\": [{\"name\": \"A\","
                       " \"submit\": 0, \"maps\": [30",
                       nodes);
    for (int i = 1; i < maps; i++)
        len += snprintf(json + len, sizeof json - (size_t)len, ", 30");
    snprintf(json + len, sizeof json - (size_t)len, "]}]}");
    so_cl_workload *w = parse(json);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    double waves = 30.0 * ((maps + nodes - 1) / nodes);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        double phase[2];
        so_cl_heartbeat_phases(w, seed, phase);
        double first = nodes > 1 ? fmin(phase[0], phase[1]) : phase[0];
        so_cl_offline_bound b;
        CU_ASSERT_EQUAL_FATAL(so_cl_offline_bound_compute(w, seed, &b), SO_OK);
        CU_ASSERT_DOUBLE_EQUAL(b.job[0], first + waves, 1e-9);
        CU_ASSERT_EQUAL(b.beats, 1);
        so_cl_offline_bound_free(&b);
        cl_run r = cl_simulate(json, "fifo", NULL, NULL, seed, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish, first + waves, 1e-9);
        cl_done(&r);
    }
    so_cl_workload_free(w);
}

/* The reduces' beats: two nodes of one map and one reduce slot, beats
 * every 3 s; one map of 3 s and two reduces of 1 + 1 + 1 s. The map ends
 * on the earlier node's beat, 3 s after its phase, and opens the reduces;
 * each node's one reduce slot takes one at its first beat after that, so
 * the job ends at the later phase + 6 (without the beats: 6), as FIFO's
 * run does. */
static void test_beats_reduces(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"count\": 2, \"map_slots\": 1, \"reduce_slots\": 1}],"
        " \"heartbeat\": 3}, \"jobs\": [{\"name\": \"A\", \"submit\": 0, \"maps\": [3],"
        " \"reduces\": [{\"copy\": 1, \"sort\": 1, \"reduce\": 1},"
        " {\"copy\": 1, \"sort\": 1, \"reduce\": 1}]}]}";
    so_cl_workload *w = parse(json);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        double phase[2];
        so_cl_heartbeat_phases(w, seed, phase);
        so_cl_offline_bound b;
        CU_ASSERT_EQUAL_FATAL(so_cl_offline_bound_compute(w, seed, &b), SO_OK);
        CU_ASSERT_DOUBLE_EQUAL(b.job[0], fmax(phase[0], phase[1]) + 6, 1e-9);
        so_cl_offline_bound_free(&b);
        cl_run r = cl_simulate(json, "fifo", NULL, NULL, seed, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
        CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish, fmax(phase[0], phase[1]) + 6,
                               1e-9);
        cl_done(&r);
    }
    so_cl_workload_free(w);
}

static void test_beats(void)
{
    beats_case(1, 20);
    beats_case(2, 5);
    test_beats_reduces();
}

static void check_workload(const char *json, uint64_t seed);

/* An end a little past a beat on a fine grid: maps of 1.0000000008 s on one
 * slot with beats every 0.5 s at 0 end 1.6e-9 intervals after their second
 * beat, so each holds the slot three intervals (offline_bound.c, hold()):
 * launches at 0, 1.5, 3 and 4.5, done at 5.5000000008, the bound's value.
 * When the engine put every end at most 1e-9 s after a beat on that beat
 * (1e-9 s is 2e-9 intervals here) the slot took the next map at the
 * second beat and FIFO ran them in 4 s, 1.5 s below the bound. */
static void test_end_past_beat(void)
{
    const char *json =
        "{\"cluster\": {\"nodes\": [{\"map_slots\": 1, \"reduce_slots\": 1}],"
        " \"heartbeat\": 0.5, \"heartbeat_phase\": \"aligned\"}, \"jobs\": [{\"name\": \"A\","
        " \"submit\": 0, \"maps\": [1.0000000008, 1.0000000008, 1.0000000008, 1.0000000008]}]}";
    so_cl_offline_bound b;
    if (bound_of(json, &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.job[0], 5.5000000008, 1e-12);
    so_cl_offline_bound_free(&b);
    cl_run r = cl_simulate(json, "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.sim);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish, 5.5000000008, 1e-12);
    cl_done(&r);
    check_workload(json, 1);
}

/* ---- the physical model's headroom ---------------------------------------- */

/* One node of 2 map slots and cpu 100 under "physical"; one job of one map
 * (10 s, cpu 30): alone on its node it runs profile_headroom (1.5) x its
 * profile speed, 10 / 1.5 s. The bound allows that speed-up (and only under
 * "physical": "share" never speeds a task up); a run meets it. */
#define PHYSICAL_ONE(model)                                                             \
    "{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":1,"     \
    "\"map_slots\":2,\"reduce_slots\":1,\"capacity\":[100]}],\"heartbeat\":1,"         \
    "\"heartbeat_phase\":\"aligned\",\"resources\":[\"cpu\"],\"contention\":{\"model\":" \
    "\"" model "\"}},\"jobs\":[{\"name\":\"A\",\"submit\":0,\"goal\":9,"               \
    "\"map_demand\":[30],\"maps\":[10]}]}"

static void test_physical_headroom(void)
{
    so_cl_offline_bound b;
    if (bound_of(PHYSICAL_ONE("physical"), &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.job[0], 10 / 1.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(b.sum, 10 / 1.5, 1e-9);
    CU_ASSERT_EQUAL(b.goals_missed, 0); /* 6.67 <= 9: the goal is reachable */
    so_cl_offline_bound_free(&b);
    cl_run r = cl_simulate(PHYSICAL_ONE("physical"), "fifo", NULL, NULL, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL(r.sim);
    if (r.sim)
        CU_ASSERT_DOUBLE_EQUAL(so_cl_sim_job(r.sim, 0)->finish, 10 / 1.5, 1e-9);
    cl_done(&r);
    if (bound_of(PHYSICAL_ONE("share"), &b))
        return;
    CU_ASSERT_DOUBLE_EQUAL(b.job[0], 10, 1e-9);
    CU_ASSERT_EQUAL(b.goals_missed, 1);
    so_cl_offline_bound_free(&b);
}

/* A RAS-style workload (RAS's Gridmix: cpu and memory demands, goals) under
 * "physical" with a larger headroom: the bounds never above a run of any
 * policy, nor of RAS itself. */
static void test_physical_ras(void)
{
    size_t cap = 1 << 14, len = 0;
    char *s = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
#define PUT(...) (len += (size_t)snprintf(s + len, cap - len, __VA_ARGS__))
    PUT("{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":[{\"count\":2,"
        "\"map_slots\":4,\"reduce_slots\":2,\"capacity\":[200,4096]},{\"count\":1,"
        "\"map_slots\":4,\"reduce_slots\":2,\"speed\":0.7,\"capacity\":[100,2048]}],"
        "\"heartbeat\":1,\"resources\":[\"cpu\",\"memory\"],\"contention\":{\"model\":"
        "\"physical\",\"profile_headroom\":2.5}},\"jobs\":[");
    for (int j = 0; j < 6; j++) {
        PUT("%s{\"name\":\"g%d\",\"submit\":%d,\"goal\":%d,\"slowstart\":0.5,"
            "\"map_demand\":[%d,%d],\"reduce_demand\":[40,512],\"shuffle_demand\":[20,256],"
            "\"maps\":[", j ? "," : "", j, 3 * j, 8 + 6 * j, 20 + 15 * (j % 3),
            256 + 512 * (j % 2));
        for (int i = 0; i < 3 + j; i++)
            PUT("%s%d", i ? "," : "", 4 + (i * 7 + j * 3) % 9);
        PUT("],\"reduces\":[{\"copy\":%d,\"sort\":1,\"reduce\":%d}]}", 1 + j % 2, 2 + j % 4);
    }
    PUT("]}");
#undef PUT
    check_workload(s, 3);
    so_cl_workload *w = parse(s);
    so_cl_offline_bound b;
    CU_ASSERT_EQUAL_FATAL(so_cl_offline_bound_compute(w, 1, &b), SO_OK);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        cl_run r = cl_simulate(s, "ras", NULL, NULL, seed, NULL);
        CU_ASSERT_PTR_NOT_NULL(r.sim);
        double sum = 0;
        int met = 0;
        for (int j = 0; r.sim && j < w->n_jobs; j++) {
            const so_cl_job_result *jr = so_cl_sim_job(r.sim, j);
            CU_ASSERT(jr->finish - jr->submit >= b.job[j] - 1e-6);
            sum += jr->finish - jr->submit;
            met += jr->finish - jr->submit <= w->jobs[j].goal + 1e-6;
        }
        if (r.sim) {
            CU_ASSERT(sum >= b.sum - 1e-6);
            CU_ASSERT(met <= b.goals - b.goals_missed);
        }
        cl_done(&r);
    }
    so_cl_offline_bound_free(&b);
    so_cl_workload_free(w);
    free(s);
}

/* ---- never above a simulated run ------------------------------------------ */

/* A random small workload as JSON text (caller frees). */
static char *random_workload(so_rng *g)
{
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
#define PUT(...) (len += (size_t)snprintf(s + len, cap - len, __VA_ARGS__))
    int replicas = (int)so_rng_int(g, 0, 1) * 2;
    PUT("{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":["
        "{\"count\":%d,\"map_slots\":%d,\"reduce_slots\":%d},"
        "{\"count\":%d,\"map_slots\":%d,\"reduce_slots\":%d,\"speed\":%.2f}],"
        "\"heartbeat\":%.2f,\"outofband\":%s,\"replicas\":%d,\"remote_slowdown\":1.5},",
        (int)so_rng_int(g, 1, 3), (int)so_rng_int(g, 1, 3), (int)so_rng_int(g, 1, 2),
        (int)so_rng_int(g, 1, 2), (int)so_rng_int(g, 1, 3), (int)so_rng_int(g, 1, 2),
        0.5 + so_rng_uniform(g), so_rng_int(g, 0, 1) ? 0.5 : 3.0,
        so_rng_int(g, 0, 1) ? "true" : "false", replicas);
    PUT("\"pools\":[{\"name\":\"p\",\"weight\":2,\"min_maps\":2,\"min_reduces\":1},"
        "{\"name\":\"q\",\"weight\":1}],\"jobs\":[");
    int n = (int)so_rng_int(g, 2, 8);
    double t = 0;
    for (int j = 0; j < n; j++) {
        t += so_rng_int(g, 0, 2) ? so_rng_exponential(g, 8) : 0;
        /* weights and goals without a draw (the stream stays the same) */
        PUT("%s{\"name\":\"j%d\",\"weight\":%d,\"goal\":%d,", j ? "," : "", j, 1 + j % 3,
            2 + 5 * j);
        PUT("\"user\":\"u%d\",\"pool\":\"%s\",\"submit\":%.3f,"
            "\"slowstart\":%.2f,\"map_parallel\":%.2f,\"reduce_parallel\":%.2f,\"maps\":[", (int)so_rng_int(g, 0, 2), so_rng_int(g, 0, 1) ? "p" : "q", t,
            so_rng_int(g, 0, 1) ? 0.05 : so_rng_uniform(g),
            so_rng_int(g, 0, 1) ? 0 : so_rng_uniform(g),
            so_rng_int(g, 0, 2) ? 0 : so_rng_uniform(g));
        int m = (int)so_rng_int(g, 1, 12);
        double mean = so_rng_int(g, 0, 1) ? 10 : 1; /* short tasks: the grid binds */
        for (int i = 0; i < m; i++)
            PUT("%s%.3f", i ? "," : "", 0.1 + so_rng_exponential(g, mean));
        PUT("],\"reduces\":[");
        int k = (int)so_rng_int(g, 0, 3);
        for (int i = 0; i < k; i++)
            PUT("%s{\"copy\":%.3f,\"sort\":%.3f,\"reduce\":%.3f}", i ? "," : "",
                so_rng_exponential(g, 4), so_rng_exponential(g, 1),
                0.2 + so_rng_exponential(g, mean));
        PUT("]}");
    }
    PUT("]}");
#undef PUT
    return s;
}

typedef struct {
    const char *sched, *spec;
    int steal;
    const char *opt; /* one scheduler option, or NULL */
} policy;

static const policy policies[] = {
    {"fifo", NULL, SO_CL_STEAL_NONE, NULL},
    {"fair", NULL, SO_CL_STEAL_NONE, NULL},
    {"flex", NULL, SO_CL_STEAL_NONE, NULL},
    {"wpbs", NULL, SO_CL_STEAL_NONE, NULL},
    {"fifo", "hadoop", SO_CL_STEAL_NONE, NULL},
    {"fair", "late", SO_CL_STEAL_NONE, NULL},
    {"flex", "base", SO_CL_STEAL_NONE, NULL},
    {"wpbs", "late", SO_CL_STEAL_NONE, NULL},
    {"fair", NULL, SO_CL_STEAL_EVEN, NULL},
    {"fifo", "base", SO_CL_STEAL_LTM, NULL},
    {"fair", "late", SO_CL_STEAL_FCM, NULL},
    {"flex", NULL, SO_CL_STEAL_STLM, NULL},
    {"fair", NULL, SO_CL_STEAL_NONE, "min_share_timeout=2"},
    {"fair", NULL, SO_CL_STEAL_NONE, "locality_delay=3"},
    {"flex", NULL, SO_CL_STEAL_NONE, "oracle=1"},
    {"priority", NULL, SO_CL_STEAL_NONE, "tasks=longest"},
    {"priority", "late", SO_CL_STEAL_EVEN, "delay_reduces=1"},
    {"priority", NULL, SO_CL_STEAL_NONE, "tasks=planned"},
    {"priority", "hadoop", SO_CL_STEAL_LTM, "tasks=planned"},
};
#define N_POLICIES (sizeof policies / sizeof *policies)

static int checked_runs;
static double tightest; /* the smallest sum / bound seen */
static double tightest_weighted; /* the same for the weighted sum */
static int weighted_above;       /* runs whose weighted bound is the machines' */
static int waves;                /* jobs whose bound the one-slot wave raised */
static int prefix_raised;        /* workloads whose sum the prefix waves raised */
static int missed;               /* goals the bound says no run meets */
static int busy_raised;          /* workloads whose sum the busy-time bound raised */
static int beats_raised;         /* workloads where the nodes' beats raised a bound */

/* The weighted bound without the machines: max(sum w LB, min w x sum). */
static double weighted_simple(const so_cl_workload *w, const so_cl_offline_bound *b)
{
    double s = 0, wmin = INFINITY;
    for (int j = 0; j < w->n_jobs; j++) {
        s += w->jobs[j].weight * b->job[j];
        wmin = fmin(wmin, w->jobs[j].weight);
    }
    return fmax(s, wmin * b->sum);
}

/* Every policy's run of json: each job's response, the sum and the
 * makespan at least the bound's. */
static void check_workload(const char *json, uint64_t seed)
{
    so_cl_workload *w = parse(json);
    if (!w)
        return;
    so_cl_offline_bound b;
    CU_ASSERT_EQUAL_FATAL(so_cl_offline_bound_compute(w, seed, &b), SO_OK);
    CU_ASSERT(b.sum >= b.sum_job - 1e-9);
    waves += b.waves;
    prefix_raised += b.prefix_waves > 0;
    busy_raised += b.sum_busy > fmax(b.sum_job, fmax(b.sum_map, b.sum_reduce)) * (1 + 1e-9);
    beats_raised += b.beats > 0 || b.beat_positions > 0;
    for (size_t p = 0; p < N_POLICIES; p++) {
        so_params prm;
        so_params_init(&prm);
        so_error err;
        if (policies[p].opt)
            so_params_set_kv(&prm, policies[p].opt, &err);
        so_cl_stealing *st = NULL;
        if (policies[p].steal)
            CU_ASSERT_EQUAL_FATAL(so_cl_stealing_new(policies[p].steal, &st), SO_OK);
        cl_run r = cl_simulate_hooks(json, policies[p].sched, policies[p].spec, &prm, seed,
                                     NULL, st ? &so_cl_stealing_hooks : NULL, st);
        CU_ASSERT_PTR_NOT_NULL(r.sim);
        if (r.sim) {
            double sum = 0, first = INFINITY, last = -INFINITY, wsum = 0, tardy = 0;
            int met = 0;
            for (int j = 0; j < w->n_jobs; j++) {
                const so_cl_job_result *jr = so_cl_sim_job(r.sim, j);
                double resp = jr->finish - jr->submit;
                wsum += w->jobs[j].weight * resp;
                if (w->jobs[j].goal > 0) {
                    met += resp <= w->jobs[j].goal + 1e-6;
                    tardy += fmax(0, resp - w->jobs[j].goal);
                }
                if (resp < b.job[j] - 1e-6)
                    fprintf(stderr, "%s+%s+%d job %d: %g < bound %g\n", policies[p].sched,
                            policies[p].spec ? policies[p].spec : "none", policies[p].steal, j,
                            resp, b.job[j]);
                CU_ASSERT(resp >= b.job[j] - 1e-6);
                sum += resp;
                first = fmin(first, jr->submit);
                last = fmax(last, jr->finish);
            }
            if (sum < b.sum - 1e-6)
                fprintf(stderr, "%s+%s+%d: sum %g < bound %g\n%s\n", policies[p].sched,
                        policies[p].spec ? policies[p].spec : "none", policies[p].steal, sum,
                        b.sum, json);
            CU_ASSERT(sum >= b.sum - 1e-6);
            if (b.sum > 0)
                tightest = fmin(tightest, sum / b.sum);
            CU_ASSERT(last - first >= b.makespan - 1e-6);
            if (wsum < b.weighted_sum - 1e-6)
                fprintf(stderr, "%s+%s+%d: weighted %g < bound %g\n%s\n", policies[p].sched,
                        policies[p].spec ? policies[p].spec : "none", policies[p].steal, wsum,
                        b.weighted_sum, json);
            CU_ASSERT(wsum >= b.weighted_sum - 1e-6);
            CU_ASSERT(met <= b.goals - b.goals_missed);
            CU_ASSERT(tardy >= b.tardiness - 1e-6);
            if (b.weighted_sum > 0)
                tightest_weighted = fmin(tightest_weighted, wsum / b.weighted_sum);
            weighted_above += b.weighted_sum > weighted_simple(w, &b) * (1 + 1e-9);
            missed += b.goals_missed;
            checked_runs++;
        }
        cl_done(&r);
        so_cl_stealing_free(st);
    }
    so_cl_offline_bound_free(&b);
    so_cl_workload_free(w);
}

static void test_random_workloads(void)
{
    so_rng g;
    so_rng_seed(&g, 28);
    checked_runs = 0;
    tightest = tightest_weighted = INFINITY;
    weighted_above = missed = waves = busy_raised = beats_raised = 0;
    for (int i = 0; i < 80; i++) {
        char *json = random_workload(&g);
        check_workload(json, (uint64_t)i + 1);
        free(json);
    }
    CU_ASSERT(checked_runs >= 80 * (int)N_POLICIES * 9 / 10);
    CU_ASSERT(tightest < 1.05); /* some run comes within 5 % of the bound */
    CU_ASSERT(tightest_weighted < 1.05);
    CU_ASSERT(weighted_above > 0); /* the WSPT machines add to the job terms */
    CU_ASSERT(missed > 0);         /* some goals are out of reach */
    CU_ASSERT(waves > 0);          /* the slot waves raise some jobs' bounds */
    CU_ASSERT(busy_raised > 0);    /* the busy-time bound raises some sums */
    CU_ASSERT(beats_raised > 0);   /* the nodes' beats raise some bounds */
    fprintf(stderr, "[weighted: tightest %.4f, machines above %d of %d runs; goals missed %d;"
            " waves %d; busy-time sum above %d of 80; beats raised %d]\n", tightest_weighted,
            weighted_above, checked_runs, missed, waves, busy_raised, beats_raised);
}

/* Workloads where the prefix waves bind: map fraction 0 everywhere, a few
 * jobs of a few maps of 2-6 s on 2-6 slots, beats of 1 or 3 s, submits at
 * 0 or a few seconds apart, some reduces. */
static char *prefix_workload(so_rng *g)
{
    size_t cap = 1 << 14, len = 0;
    char *s = malloc(cap);
#define PUT(...) (len += (size_t)snprintf(s + len, cap - len, __VA_ARGS__))
    PUT("{\"problem\":\"cluster\",\"version\":1,\"cluster\":{\"nodes\":["
        "{\"count\":%d,\"map_slots\":%d,\"reduce_slots\":%d}],\"heartbeat\":%d},\"jobs\":[",
        (int)so_rng_int(g, 1, 2), (int)so_rng_int(g, 2, 3), (int)so_rng_int(g, 1, 2),
        so_rng_int(g, 0, 1) ? 1 : 3);
    int n = (int)so_rng_int(g, 2, 5);
    double t = 0;
    for (int j = 0; j < n; j++) {
        t += so_rng_int(g, 0, 1) ? so_rng_uniform(g) * 4 : 0;
        PUT("%s{\"name\":\"j%d\",\"submit\":%.3f,\"maps\":[", j ? "," : "", j, t);
        int m = (int)so_rng_int(g, 1, 6);
        for (int i = 0; i < m; i++)
            PUT("%s%.3f", i ? "," : "", 2 + 4 * so_rng_uniform(g));
        PUT("],\"reduces\":[");
        int k = (int)so_rng_int(g, 0, 2);
        for (int i = 0; i < k; i++)
            PUT("%s{\"copy\":%.3f,\"sort\":0.5,\"reduce\":%.3f}", i ? "," : "",
                so_rng_uniform(g), 1 + so_rng_uniform(g));
        PUT("]}");
    }
    PUT("]}");
#undef PUT
    return s;
}

static void test_prefix_workloads(void)
{
    so_rng g;
    so_rng_seed(&g, 2811);
    prefix_raised = 0;
    for (int i = 0; i < 60; i++) {
        char *json = prefix_workload(&g);
        check_workload(json, (uint64_t)i + 1);
        free(json);
    }
    CU_ASSERT(prefix_raised >= 6); /* the prefix waves raise some sums */
    fprintf(stderr, "[prefix waves raised the sum on %d of 60 workloads]\n", prefix_raised);
}

static void test_families(void)
{
    static const char *const swim[] = {"jobs=25", "nodes=3", "rate=0.05", "size_scale=0.05",
                                       NULL};
    static const char *const swim_local[] = {"jobs=20", "nodes=4", "rate=0.1",
                                             "size_scale=0.05", "replicas=2", NULL};
    static const char *const flex[] = {"jobs=4", "lambda=1", "sigma=1", NULL};
    static const struct {
        const char *family;
        const char *const *sets;
    } cases[] = {{"swim-synth", swim}, {"swim-synth", swim_local}, {"flex-cluster", flex}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            char *json = cl_family_text(cases[c].family, cases[c].sets, seed, 0);
            CU_ASSERT_PTR_NOT_NULL(json);
            if (json)
                check_workload(json, seed);
            free(json);
        }
}

/* The harness: lp-bound as a policy and as the reference (two_jobs: fifo's
 * mean 10.5 against the bound's 7). */
static void test_harness(void)
{
    const char *wl = so_test_write("lp-two.json", two_jobs);
    char db[700], args[1600];
    snprintf(db, sizeof db, "%s/lp-two.db", so_test_tmpdir());
    snprintf(args, sizeof args, "bench --workload %s --policies fifo,lower-bound,lp-bound"
             " --sim-reference lp-bound --db %s --cells --format csv", wl, db);
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(so_test_run(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "sim,lp-two,fifo,0,simulated,10.5,7,bound,1.5,") : NULL);
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "sim,lp-two,lower-bound,0,bound,6,7,bound,") : NULL);
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "sim,lp-two,lp-bound,0,bound,7,7,bound,1,") : NULL);
    free(out);
}

static CU_TestInfo tests[] = {
    {"srpt by hand", test_srpt},
    {"wspt mean busy times by hand", test_wspt},
    {"one job with slow-start: exact", test_one_job},
    {"two jobs with release dates: the preemptive optimum", test_two_jobs},
    {"weighted sum and goals by hand", test_weighted_goals},
    {"one-slot wave by hand", test_wave},
    {"slot waves by hand", test_waves},
    {"prefix waves by hand", test_prefix_waves},
    {"prefix waves never above a run (60 workloads)", test_prefix_workloads},
    {"stealing's speed-up allowed", test_stealing_speedup},
    {"busy-time bound by hand", test_busy_time},
    {"the nodes' beats by hand", test_beats},
    {"an end just past a beat on a fine grid", test_end_past_beat},
    {"physical contention's headroom allowed", test_physical_headroom},
    {"never above a run: RAS-style, physical", test_physical_ras},
    {"heartbeat grid: exact", test_grid},
    {"never above a run: random workloads", test_random_workloads},
    {"never above a run: families", test_families},
    {"harness reference", test_harness},
    CU_TEST_INFO_NULL};
SO_SUITE("cluster-offline-bound", tests)
