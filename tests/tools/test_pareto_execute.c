/* test_pareto_execute.c — a Pareto plan run on the cluster model
 * (tools/cli/pareto_execute.c, `slotopt execute`): a hand-computed one-job run
 * within the Makespan Theorem's bounds, the PUMA prediction error, errors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tools/cli/pareto_execute.h"

/* A one-job workload: 4 maps of 10 s on average and 13 s at most, one
 * reduce of 5 s; slots map and reduce slots per VM at cost per VM hour; no
 * budget or deadline. */
static void one_job(so_pt_job *jb, so_pareto *pr, int slots, double cost)
{
    memset(jb, 0, sizeof *jb);
    jb->map_tasks = 4;
    jb->reduce_tasks = 1;
    jb->phase[SO_PT_MAP].avg = (so_pt_curve){10, 0};
    jb->phase[SO_PT_MAP].max = (so_pt_curve){13, 0};
    jb->phase[SO_PT_REDUCE].avg = jb->phase[SO_PT_REDUCE].max = (so_pt_curve){5, 0};
    *pr = (so_pareto){0};
    pr->map_slots_per_vm = pr->reduce_slots_per_vm = slots;
    pr->vm_cost_per_hour = cost;
    pr->n_jobs = 1;
    pr->jobs = jb;
    pr->budget_max = pr->deadline = INFINITY;
}

/* One job: 4 map tasks of mean 10 s and longest 13 s on 2 map slots, one
 * reduce task of 5 s. Tasks: 13, 9, 9, 9 (the others share 40 - 13).
 * Slot A runs 13 then 9 (ends 22), slot B 9 and 9 (ends 18): maps end at
 * 22, the reduce at 27. Theorem: low 4 x 10 / 2 + 5 = 25, up 3/2 x 10 + 13
 * + 5 = 33; the model (Eq. 9): (20 + 28) / 2 + 5 = 29. */
static void test_one_job(void)
{
    so_pt_job jb;
    so_pareto pr;
    one_job(&jb, &pr, 2, 3600); /* $1 per second */
    strcpy(jb.name, "one");
    so_pt_alloc plan = {2, 1, 4, 1, {100, 0.05, 0.8}};
    so_pt_exec_job x;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_pt_execute(&pr, &plan, &x, &err), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(x.predicted, 29, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(x.low, 25, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(x.up, 33, 1e-9);
    CU_ASSERT(x.simulated >= x.low && x.simulated <= x.up);
    CU_ASSERT_DOUBLE_EQUAL(x.simulated, 27, 0.25); /* within heartbeats */
    CU_ASSERT_DOUBLE_EQUAL(x.predicted_budget, 29, 1e-9); /* 1 VM, $1/s */
    CU_ASSERT_DOUBLE_EQUAL(x.simulated_budget, x.simulated, 1e-9);
    /* dedicated: the job alone on its one VM (2 map, 1 reduce slot): the
     * same tasks on the same slots, the same times */
    so_pt_exec_opts ded = {1, 0, 1};
    so_pt_exec_job y;
    double pm, sm;
    CU_ASSERT_EQUAL_FATAL(so_pt_execute_with(&pr, &plan, &ded, &y, &pm, &sm, &err), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(y.simulated, x.simulated, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(y.start, 0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sm, x.simulated, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(pm, 29, 1e-9);
    /* a cap below the job's VMs: refused, naming max_vms */
    plan.ms = 4; /* 2 VMs */
    pr.max_vms = 1;
    CU_ASSERT_EQUAL(so_pt_execute(&pr, &plan, &x, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "max_vms");
    CU_ASSERT_EQUAL(so_pt_execute_with(&pr, &plan, &ded, &x, NULL, NULL, &err), SO_EINVAL);
}

/* Two one-VM jobs under max_vms = 1 run one after the other. Job 0 is the
 * one above (27 s run, predicted 29 s); job 1 has 2 maps of 10 s on 2
 * slots and a 5 s reduce: run 10 + 5 = 15 s, predicted (10 + 15) / 2 + 5 =
 * 17.5 s. Eq. 10's order puts job 1 first: it runs [0, 15], job 0 gets the
 * VM when job 1 ends and runs [15, 42]; the model's makespan is the sum of
 * the two waves, 17.5 + 29 = 46.5 s. Without the cap both start at 0. */
static void test_waves(void)
{
    so_pt_job jb[2];
    memset(jb, 0, sizeof jb);
    jb[0].map_tasks = 4;
    jb[0].reduce_tasks = 1;
    jb[0].phase[SO_PT_MAP].avg = (so_pt_curve){10, 0};
    jb[0].phase[SO_PT_MAP].max = (so_pt_curve){13, 0};
    jb[0].phase[SO_PT_REDUCE].avg = jb[0].phase[SO_PT_REDUCE].max = (so_pt_curve){5, 0};
    jb[1] = jb[0];
    jb[1].map_tasks = 2;
    jb[1].phase[SO_PT_MAP].max = (so_pt_curve){10, 0};
    so_pareto pr = {0};
    pr.map_slots_per_vm = pr.reduce_slots_per_vm = 2;
    pr.vm_cost_per_hour = 3600;
    pr.n_jobs = 2;
    pr.jobs = jb;
    pr.budget_max = pr.deadline = INFINITY;
    so_pt_alloc plan[2] = {{2, 1, 4, 1, {100, 0.05, 0.8}}, {2, 1, 2, 1, {100, 0.05, 0.8}}};
    so_error err;
    for (int dedicated = 0; dedicated <= 1; dedicated++) {
        so_pt_exec_opts o = {dedicated, 0, 1};
        so_pt_exec_job x[2];
        double pm, sm;
        pr.max_vms = 0;
        CU_ASSERT_EQUAL_FATAL(so_pt_execute_with(&pr, plan, &o, x, &pm, &sm, &err), SO_OK);
        CU_ASSERT_DOUBLE_EQUAL(pm, 29, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(x[0].start, 0, 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(x[1].start, 0, 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(sm, 27, 0.25);
        pr.max_vms = 1;
        CU_ASSERT_EQUAL_FATAL(so_pt_execute_with(&pr, plan, &o, x, &pm, &sm, &err), SO_OK);
        CU_ASSERT_DOUBLE_EQUAL(pm, 46.5, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(x[1].start, 0, 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(x[1].simulated, 15, 0.25);
        CU_ASSERT_DOUBLE_EQUAL(x[0].start, x[1].finish, 1e-9); /* waits for the VM */
        CU_ASSERT_DOUBLE_EQUAL(x[0].simulated, 27, 0.35);
        CU_ASSERT_DOUBLE_EQUAL(sm, 42, 0.5);
        CU_ASSERT_DOUBLE_EQUAL(sm, x[0].finish, 1e-12);
        /* a cap of two VMs holds both: back to time 0 */
        pr.max_vms = 2;
        CU_ASSERT_EQUAL_FATAL(so_pt_execute_with(&pr, plan, &o, x, &pm, &sm, &err), SO_OK);
        CU_ASSERT_DOUBLE_EQUAL(x[0].start, 0, 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(sm, 27, 0.25);
    }
}

/* Random task times: 4 maps of mean 10 s and longest 13 s on one map slot
 * run one after the other, so the job takes the sum of the draws plus the
 * 5 s reduce: 13 + three draws uniform on 9 +- 4 (rest 9 = (40 - 13) / 3,
 * half-width min(9, 13 - 9)), i.e. within [33, 57], 45 s on average (sd of
 * one run 4 s; of a mean over 60 seeds 0.52 s). Same seed, same run. */
static void test_random(void)
{
    so_pt_job jb;
    so_pareto pr;
    one_job(&jb, &pr, 1, 1);
    so_pt_alloc plan = {1, 1, 4, 1, {100, 0.05, 0.8}};
    so_error err;
    so_pt_exec_job x, y;
    so_pt_exec_opts o = {0, 1, 7};
    CU_ASSERT_EQUAL_FATAL(so_pt_execute_with(&pr, &plan, &o, &x, NULL, NULL, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(so_pt_execute_with(&pr, &plan, &o, &y, NULL, NULL, &err), SO_OK);
    CU_ASSERT_EQUAL(x.simulated, y.simulated);
    o.dedicated = 1; /* the draws do not depend on the deployment */
    CU_ASSERT_EQUAL_FATAL(so_pt_execute_with(&pr, &plan, &o, &y, NULL, NULL, &err), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(x.simulated, y.simulated, 1e-9);
    o.dedicated = 0;
    double sum = 0;
    int distinct = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        o.seed = seed;
        CU_ASSERT_EQUAL_FATAL(so_pt_execute_with(&pr, &plan, &o, &y, NULL, NULL, &err), SO_OK);
        CU_ASSERT(y.simulated >= 33 && y.simulated <= 57 + 0.5);
        distinct += fabs(y.simulated - x.simulated) > 1e-6;
        sum += y.simulated;
    }
    CU_ASSERT(distinct >= 55);
    CU_ASSERT_DOUBLE_EQUAL(sum / 60, 45, 2.5);
    o.random = 0; /* deterministic: 13 + 9 + 9 + 9 + 5 */
    CU_ASSERT_EQUAL_FATAL(so_pt_execute_with(&pr, &plan, &o, &y, NULL, NULL, &err), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(y.simulated, 45, 0.5);
}

static void test_cli(void)
{
    char *out = NULL, *err = NULL;
    CU_ASSERT_EQUAL(so_test_run("execute instances/pareto/puma-sort.json", &out, &err), 0);
    json_error_t je;
    json_t *r = json_loads(out, 0, &je);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    json_t *plan = json_object_get(r, "plan");
    double mean = json_real_value(json_object_get(plan, "mean_relative_error"));
    CU_ASSERT(mean > 0 && mean < 0.05); /* docs/pareto.md: 2.5 % */
    json_t *jobs = json_object_get(plan, "jobs");
    CU_ASSERT_EQUAL(json_array_size(jobs), 3);
    for (size_t j = 0; j < json_array_size(jobs); j++) {
        json_t *o = json_array_get(jobs, j);
        double s = json_real_value(json_object_get(o, "simulated"));
        CU_ASSERT(s >= json_real_value(json_object_get(o, "theorem_low")) - 1e-6);
        CU_ASSERT(s <= json_real_value(json_object_get(o, "theorem_up")) + 1e-6);
    }
    json_decref(r);
    free(out);
    free(err);
    CU_ASSERT_EQUAL(so_test_run("execute --opt budget=0.01 instances/pareto/puma-sort.json",
                                &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "budget"));
    free(out);
    free(err);
    char *out2 = NULL;
    CU_ASSERT_EQUAL(so_test_run("execute --opt tasks=random --seed 3 --opt nodes=dedicated"
                                " instances/pareto/puma-sort.json", &out, &err), 0);
    free(err);
    CU_ASSERT_EQUAL(so_test_run("execute --opt tasks=random --seed 3 --opt nodes=dedicated"
                                " instances/pareto/puma-sort.json", &out2, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\"start\""));
    CU_ASSERT_STRING_EQUAL(out ? out : "", out2 ? out2 : "-");
    free(out);
    free(out2);
    free(err);
    CU_ASSERT_EQUAL(so_test_run("execute --opt speed=2 instances/pareto/puma-sort.json",
                                &out, &err), 2);
    free(out);
    free(err);
}

static CU_TestInfo tests[] = {
    {"one-job plan within the Makespan Theorem's bounds", test_one_job},
    {"two jobs under a one-job VM cap run one after the other", test_waves},
    {"random task times: seeded, within the profile's range", test_random},
    {"slotopt execute on PUMA Sort", test_cli},
    CU_TEST_INFO_NULL,
};
SO_SUITE("pareto_execute", tests)
