/* test_pareto.c — the Pareto model: the paper's worked example, the
 * equations on hand-computed cases, reading, every input error, fuzzing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "formulations/pareto.h"

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9 * (1 + fabs((double)(b))))

static const char *valid =
    "{\"problem\": \"pareto\", \"version\": 1,\n"
    " \"cluster\": {\"map_slots_per_vm\": 2, \"reduce_slots_per_vm\": 2,\n"
    "             \"vm_cost_per_hour\": 3.6, \"io_cost_per_request\": 5e-8},\n"
    " \"workload\": {\"budget_min\": 0, \"budget_max\": 80, \"deadline\": 4000},\n"
    " \"jobs\": [\n"
    "  {\"name\": \"a\", \"map_tasks\": 10, \"reduce_tasks\": 4,\n"
    "   \"map\": {\"avg\": [5, 0], \"max\": [7, 0]},\n"
    "   \"reduce\": {\"avg\": [10, 0], \"max\": [12, 0]},\n"
    "   \"map_output\": {\"bytes\": [0, 209715200], \"records\": [0, 209715.2]},\n"
    "   \"buffer\": {\"size_mb\": 100, \"meta_percent\": 0.05, \"threshold\": 0.8}},\n"
    "  {\"map_tasks\": 4, \"reduce_tasks\": 2,\n"
    "   \"map\": {\"samples\": [[2, 13, 20], [4, 8, 12], [8, 5.5, 8]]},\n"
    "   \"shuffle\": {\"avg\": [1, 2], \"max\": [2, 2]},\n"
    "   \"reduce\": {\"avg\": [3, 0], \"max\": [3, 0]}}\n"
    " ]}\n";

static so_problem *parse(const char *text, so_error *err, int *rc)
{
    so_problem *p = NULL;
    *rc = so_problem_parse(text, "t.json", &p, err);
    return p;
}

/* The paper's example (section 4.2.1): 10 tasks, 3 slots, 5 s -> 20 s. */
static void test_worked_example(void)
{
    CU_ASSERT_EQUAL(so_pt_phase_low(10, 3, 5.0), 20.0);
    NEAR(so_pt_phase_up(10, 3, 5.0, 7.0), 9.0 / 3 * 5 + 7);
    CU_ASSERT_EQUAL(so_pt_phase_low(9, 3, 5.0), 15.0);
    CU_ASSERT_EQUAL(so_pt_phase_low(1, 4, 5.0), 5.0);
}

static void test_vms_and_job(void)
{
    int rc;
    so_error err;
    so_problem *p = parse(valid, &err, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    const so_pareto *pr = so_pareto_of(p);
    CU_ASSERT_EQUAL(so_pt_vms(pr, 5, 4), 3);
    CU_ASSERT_EQUAL(so_pt_vms(pr, 1, 7), 4);
    CU_ASSERT_EQUAL(pr->io_request_bytes, 4096);
    CU_ASSERT(isinf(pr->budget_max) == 0);
    /* job a: map 10 tasks on 3 slots (low 20, up 22), reduce 4 on 2 (low 20,
     * up 3/2*10 + 12 = 27), no shuffle: jtime 44.5 s on max(2, 1) VMs */
    so_pt_alloc a;
    so_pt_alloc_init(pr, 0, &a);
    a.ms = 3;
    a.rs = 2;
    so_pt_eval e;
    so_pt_job_eval(pr, &pr->jobs[0], &a, &e);
    NEAR(e.low[SO_PT_MAP], 20);
    NEAR(e.up[SO_PT_MAP], 22);
    NEAR(e.low[SO_PT_REDUCE], 20);
    NEAR(e.up[SO_PT_REDUCE], 27);
    NEAR(e.jtime, 44.5);
    CU_ASSERT_EQUAL(e.vms, 2);
    /* I/O: 20 MiB per map task (10 tasks), 1000-byte records: 1 spill of
     * 79691776 + 16 * 79691776 / 1000 bytes, 10 tasks, 4096-byte requests */
    double io = 10 * 1 * 80966844.416 / 4096 * 5e-8;
    NEAR(e.io_cost, io);
    NEAR(e.budget, 2 * 3.6 * 44.5 / 3600 + io);
    /* job 1: the samples lie on avg 3 + 20/n, max 4 + 32/n */
    const so_pt_job *b = &pr->jobs[1];
    NEAR(b->phase[SO_PT_MAP].avg.a, 3);
    NEAR(b->phase[SO_PT_MAP].avg.b, 20);
    NEAR(b->phase[SO_PT_MAP].max.a, 4);
    NEAR(b->phase[SO_PT_MAP].max.b, 32);
    CU_ASSERT_STRING_EQUAL(b->name, "job1");
    so_problem_free(p);
}

/* Eq. 18-21 on hand-computed cases (default buffer 100 MiB, 5 %, 80 %:
 * maxSize 79691776 bytes, maxMetaSize 4194304 bytes). */
static void test_spills(void)
{
    so_pt_buffer b = {100, 0.05, 0.8};
    double size;
    /* data fills first: 200 MiB of 1000-byte records -> 3 spills */
    double n = so_pt_spills(200.0 * 1048576, 209715.2, &b, &size);
    CU_ASSERT_EQUAL(n, 3);
    NEAR(size, 79691776 + 16 * 79691776 / 1000.0);
    /* metadata fills first: 20 MiB of 16-byte records (1310720 records,
     * 20971520 metadata bytes = 5 x 4194304) -> 5 spills */
    n = so_pt_spills(20.0 * 1048576, 1310720, &b, &size);
    CU_ASSERT_EQUAL(n, 5);
    NEAR(size, 4194304 + 4194304 / 16.0 * 16);
    /* no output, no spill */
    CU_ASSERT_EQUAL(so_pt_spills(0, 0, &b, &size), 0);
    CU_ASSERT_EQUAL(size, 0);
}

static void test_waves(void)
{
    so_pareto pr = {0};
    pr.n_jobs = 3;
    double jt[3] = {10, 30, 20};
    int64_t vms[3] = {2, 3, 2};
    CU_ASSERT_EQUAL(so_pt_makespan(&pr, jt, vms), 30);
    /* cap 4: sorted 10 (2 VMs), 20 (2 VMs) share a wave; 30 (3 VMs) next */
    pr.max_vms = 4;
    CU_ASSERT_EQUAL(so_pt_makespan(&pr, jt, vms), 50);
    pr.max_vms = 7;
    CU_ASSERT_EQUAL(so_pt_makespan(&pr, jt, vms), 30);
    pr.max_vms = 2;
    CU_ASSERT(isinf(so_pt_makespan(&pr, jt, vms)));
}

static void test_round_trip(void)
{
    int rc;
    so_error err;
    so_problem *p = parse(valid, &err, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    json_t *j = so_problem_to_json(p);
    char *text = json_dumps(j, JSON_COMPACT);
    so_problem *q = parse(text, &err, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    const so_pareto *a = so_pareto_of(p), *b = so_pareto_of(q);
    CU_ASSERT_EQUAL(a->n_jobs, b->n_jobs);
    CU_ASSERT_EQUAL(a->budget_max, b->budget_max);
    CU_ASSERT_EQUAL(b->jobs[1].phase[SO_PT_MAP].avg.b, a->jobs[1].phase[SO_PT_MAP].avg.b);
    CU_ASSERT_EQUAL(b->jobs[0].has_output, 1);
    CU_ASSERT_EQUAL(b->jobs[1].has_output, 0);
    free(text);
    json_decref(j);
    so_problem_free(p);
    so_problem_free(q);
}

/* Replaces the first occurrence of `from` in the valid text by `to`, parses
 * it and checks the error's key and that it has a position. */
static void expect_error(const char *from, const char *to, const char *key,
                         const char *words)
{
    const char *at = strstr(valid, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    size_t n = strlen(valid) + strlen(to) + 1;
    char *text = malloc(n);
    size_t pre = (size_t)(at - valid);
    memcpy(text, valid, pre);
    strcpy(text + pre, to);
    strcat(text, at + strlen(from));
    so_error err;
    so_error_clear(&err);
    int rc;
    so_problem *p = parse(text, &err, &rc);
    CU_ASSERT_EQUAL(rc, SO_EINVAL);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_STRING_EQUAL(err.key, key);
    CU_ASSERT(err.line > 0);
    if (!strstr(err.message, words))
        fprintf(stderr, "\nmessage for %s: %s\n", key, err.message);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, words));
    free(text);
}

static void test_errors(void)
{
    expect_error("\"vm_cost_per_hour\": 3.6", "\"vm_cost_per_hour\": -1",
                 "cluster.vm_cost_per_hour", "found -1");
    expect_error("\"io_cost_per_request\": 5e-8", "\"io_cost_per_request\": -5e-8",
                 "cluster.io_cost_per_request", "found -5e-08");
    expect_error("\"budget_min\": 0", "\"budget_min\": 90", "workload.budget_min",
                 "exceeds budget_max");
    expect_error("\"map_tasks\": 10", "\"map_tasks\": 0", "jobs[0].map_tasks", "found 0");
    expect_error("\"reduce_tasks\": 2", "\"reduce_tasks\": 0", "jobs[1].reduce_tasks",
                 "found 0");
    expect_error("[[2, 13, 20], [4, 8, 12], [8, 5.5, 8]]", "[[2, 13, 20]]",
                 "jobs[1].map.samples", "too few samples");
    expect_error("[[2, 13, 20], [4, 8, 12], [8, 5.5, 8]]", "[[4, 13, 20], [4, 8, 12]]",
                 "jobs[1].map.samples", "distinct task counts");
    expect_error("\"max\": [7, 0]", "\"max\": [4, 0]", "jobs[0].map",
                 "maximum task time below the mean");
    expect_error("\"avg\": [5, 0]", "\"avg\": [-5, 0]", "jobs[0].map", "negative");
    expect_error("\"avg\": [5, 0]", "\"avg\": [5, 0, 1]", "jobs[0].map.avg", "[a, b]");
    expect_error("\"avg\": [5, 0], \"max\": [7, 0]", "\"avg\": [5, 0], \"max\": [7, 0],"
                 " \"samples\": []", "jobs[0].map", "not both");
    expect_error("\"name\": \"a\"", "\"nmae\": \"a\"", "jobs[0].nmae", "unknown key");
    expect_error("\"records\": [0, 209715.2]", "\"records\": [0, 0]",
                 "jobs[0].map_output", "positive");
    expect_error("\"threshold\": 0.8", "\"threshold\": 1.5", "jobs[0].buffer.threshold",
                 "found 1.5");
    expect_error("\"map_slots_per_vm\": 2", "\"map_slots_per_vm\": 0",
                 "cluster.map_slots_per_vm", "found 0");
    expect_error("\"deadline\": 4000", "\"deadline\": 0", "workload.deadline", "found 0");
    expect_error("\"cluster\":", "\"clusters\":", "clusters", "unknown key");
}

/* Deterministic fuzzing: mutated instances are read or rejected, never
 * crash (make check-asan runs this under ASan + UBSan). */
static void test_fuzz(void)
{
    static const char alphabet[] = "{}[]:,\"0123456789.-e aAz";
    so_rng rng;
    so_rng_seed(&rng, 4);
    size_t n = strlen(valid);
    char *text = malloc(n + 8);
    int ok = 0, rejected = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(text, valid, n + 1);
        int edits = (int)so_rng_int(&rng, 1, 3);
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t)so_rng_int(&rng, 0, (int64_t)n - 1);
            text[at] = alphabet[so_rng_int(&rng, 0, (int64_t)sizeof alphabet - 2)];
        }
        so_error err;
        so_problem *p = NULL;
        int rc = so_problem_parse(text, "fuzz.json", &p, &err);
        CU_ASSERT(rc == SO_OK || rc == SO_EINVAL);
        if (rc == SO_OK) {
            ok++;
            json_t *j = so_problem_to_json(p);
            json_decref(j);
            so_problem_free(p);
        } else {
            rejected++;
        }
    }
    CU_ASSERT(ok > 0);
    CU_ASSERT(rejected > 0);
    free(text);
}

static CU_TestInfo tests[] = {
    {"worked example: 10 tasks, 3 slots, 5 s -> 20 s", test_worked_example},
    {"VMs, phase bounds, job time and budget", test_vms_and_job},
    {"spill equations, both cases", test_spills},
    {"execution waves under a VM cap", test_waves},
    {"JSON round trip", test_round_trip},
    {"bad input: clear errors at the key", test_errors},
    {"fuzzed instances never crash", test_fuzz},
    CU_TEST_INFO_NULL,
};
SO_SUITE("pareto", tests)
