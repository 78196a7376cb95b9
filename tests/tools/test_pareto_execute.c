/* test_pareto_execute.c — a Pareto plan run on the cluster model
 * (tools/pareto_execute.c, `slotopt execute`): a hand-computed one-job run
 * within the Makespan Theorem's bounds, the PUMA prediction error, errors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tools/pareto_execute.h"

/* One job: 4 map tasks of mean 10 s and longest 13 s on 2 map slots, one
 * reduce task of 5 s. Tasks: 13, 9, 9, 9 (the others share 40 - 13).
 * Slot A runs 13 then 9 (ends 22), slot B 9 and 9 (ends 18): maps end at
 * 22, the reduce at 27. Theorem: low 4 x 10 / 2 + 5 = 25, up 3/2 x 10 + 13
 * + 5 = 33; the model (Eq. 9): (20 + 28) / 2 + 5 = 29. */
static void test_one_job(void)
{
    so_pt_job jb;
    memset(&jb, 0, sizeof jb);
    strcpy(jb.name, "one");
    jb.map_tasks = 4;
    jb.reduce_tasks = 1;
    jb.phase[SO_PT_MAP].avg = (so_pt_curve){10, 0};
    jb.phase[SO_PT_MAP].max = (so_pt_curve){13, 0};
    jb.phase[SO_PT_REDUCE].avg = jb.phase[SO_PT_REDUCE].max = (so_pt_curve){5, 0};
    so_pareto pr = {0};
    pr.map_slots_per_vm = pr.reduce_slots_per_vm = 2;
    pr.vm_cost_per_hour = 3600; /* $1 per second */
    pr.n_jobs = 1;
    pr.jobs = &jb;
    pr.budget_max = pr.deadline = INFINITY;
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
    pr.max_vms = 4;
    CU_ASSERT_EQUAL(so_pt_execute(&pr, &plan, &x, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "max_vms");
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
    CU_ASSERT_EQUAL(so_test_run("execute --opt speed=2 instances/pareto/puma-sort.json",
                                &out, &err), 2);
    free(out);
    free(err);
}

static CU_TestInfo tests[] = {
    {"one-job plan within the Makespan Theorem's bounds", test_one_job},
    {"slotopt execute on PUMA Sort", test_cli},
    CU_TEST_INFO_NULL,
};
SO_SUITE("pareto_execute", tests)
