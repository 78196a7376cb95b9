/* test_core.c — status strings, the seeded generator, parameters, the
 * result object and its JSON, atomic writes. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tests/test_util.h"

static void test_status(void)
{
    CU_ASSERT_STRING_EQUAL(so_status_str(SO_OPTIMAL), "optimal");
    CU_ASSERT_STRING_EQUAL(so_status_str(SO_INFEASIBLE), "infeasible");
    CU_ASSERT_STRING_EQUAL(so_status_str(SO_TIMELIMIT), "time limit");
    CU_ASSERT_STRING_EQUAL(so_status_str(SO_EINVAL), "invalid input");
    CU_ASSERT_TRUE(SO_EINVAL < 0 && SO_ENOMEM < 0 && SO_EBACKEND < 0);
    CU_ASSERT_TRUE(SO_OPTIMAL > 0 && SO_FEASIBLE > 0 && SO_INFEASIBLE > 0);
}

/* The stream is pinned: any change (or a machine that differs) fails. */
static void test_rng_pinned(void)
{
    so_rng r;
    so_rng_seed(&r, 1);
    CU_ASSERT_EQUAL(so_rng_u64(&r), 12966619160104079557ULL);
    CU_ASSERT_EQUAL(so_rng_u64(&r), 9600361134598540522ULL);
    CU_ASSERT_EQUAL(so_rng_u64(&r), 10590380919521690900ULL);
    so_rng_seed_stream(&r, 1, 5);
    CU_ASSERT_EQUAL(so_rng_u64(&r), 5351197898668538096ULL);
    so_rng_seed(&r, 42);
    CU_ASSERT_EQUAL(so_rng_int(&r, -5, 5), -5);
    CU_ASSERT_DOUBLE_EQUAL(so_rng_uniform(&r), 0.37898025066266861, 1e-17);
    CU_ASSERT_DOUBLE_EQUAL(so_rng_normal(&r, 0, 1), 0.22162270150359331, 1e-15);
}

static void test_rng_ranges(void)
{
    so_rng r;
    so_rng_seed(&r, 7);
    int hits[11] = {0};
    double sum = 0, sq = 0;
    for (int i = 0; i < 110000; i++) {
        int64_t x = so_rng_int(&r, -5, 5);
        CU_ASSERT_TRUE_FATAL(x >= -5 && x <= 5);
        hits[x + 5]++;
        double u = so_rng_uniform(&r);
        CU_ASSERT_TRUE_FATAL(u >= 0 && u < 1);
        double z = so_rng_normal(&r, 2, 3);
        sum += z;
        sq += z * z;
    }
    for (int k = 0; k < 11; k++) /* each about 10000 */
        CU_ASSERT_TRUE(hits[k] > 9400 && hits[k] < 10600);
    double mean = sum / 110000, var = sq / 110000 - mean * mean;
    CU_ASSERT_DOUBLE_EQUAL(mean, 2, 0.05);
    CU_ASSERT_DOUBLE_EQUAL(var, 9, 0.2);
    CU_ASSERT_EQUAL(so_rng_int(&r, 3, 3), 3);
    so_rng a, b;
    so_rng_seed_stream(&a, 9, 1);
    so_rng_seed_stream(&b, 9, 2);
    CU_ASSERT_NOT_EQUAL(so_rng_u64(&a), so_rng_u64(&b));
}

static void test_params(void)
{
    static const so_option_doc docs[] = {{"rounds", "3", "r"}, {"alpha", "0.5", "a"},
                                         {NULL, NULL, NULL}};
    so_params p;
    so_params_init(&p);
    CU_ASSERT_EQUAL(p.time_limit, 0);
    so_error err;
    long long n;
    double x;
    CU_ASSERT_EQUAL(so_params_int(&p, docs, "rounds", 9, &n, &err), SO_OK);
    CU_ASSERT_EQUAL(n, 3); /* the documented default */
    CU_ASSERT_EQUAL(so_params_set_kv(&p, "alpha=0.25", &err), SO_OK);
    CU_ASSERT_EQUAL(so_params_double(&p, docs, "alpha", 1, &x, &err), SO_OK);
    CU_ASSERT_DOUBLE_EQUAL(x, 0.25, 0);
    CU_ASSERT_EQUAL(so_params_set_kv(&p, "rounds=x", &err), SO_OK);
    CU_ASSERT_EQUAL(so_params_int(&p, docs, "rounds", 9, &n, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "rounds");
    CU_ASSERT_EQUAL(so_params_check(&p, docs, "test", &err), SO_OK);
    CU_ASSERT_EQUAL(so_params_set_kv(&p, "round=2", &err), SO_OK);
    CU_ASSERT_EQUAL(so_params_check(&p, docs, "test", &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "round");
    CU_ASSERT_EQUAL(so_params_set_kv(&p, "novalue", &err), SO_EINVAL);
    CU_ASSERT_EQUAL(so_params_set_kv(&p, "=3", &err), SO_EINVAL);
    /* a key of 50 characters is too long (47 at most), and said so */
    CU_ASSERT_EQUAL(so_params_set_kv(&p, "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk=1",
                                     &err), SO_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "key too long"));
    CU_ASSERT_EQUAL(so_params_set_kv(&p, "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk=1",
                                     &err), SO_OK);
}

static void test_result_json(void)
{
    so_problem *p = NULL;
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_problem_parse("{\"problem\":\"knapsack\",\"version\":1,"
                                           "\"capacity\":5,\"profits\":[3,4],"
                                           "\"weights\":[3,4]}", "tiny", &p, &err), SO_OK);
    so_result *r = NULL;
    CU_ASSERT_EQUAL(so_solve(so_backend_find("kp-dp"), p, NULL, &r, &err), SO_OPTIMAL);
    json_t *j = so_result_to_json(r);
    const char *keys[] = {"problem", "instance", "backend", "exact", "status",
                          "objective", "bound", "gap", "seconds", "solution"};
    for (size_t k = 0; k < 10; k++)
        CU_ASSERT_PTR_NOT_NULL(json_object_get(j, keys[k]));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "problem")), "knapsack");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "instance")), "tiny");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "status")), "optimal");
    CU_ASSERT_TRUE(json_is_true(json_object_get(j, "exact")));
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "objective")), 4, 0);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "gap")), 0, 0);
    json_t *items = json_object_get(json_object_get(j, "solution"), "items");
    CU_ASSERT_EQUAL(json_array_size(items), 1);
    CU_ASSERT_EQUAL(json_integer_value(json_array_get(items, 0)), 1);
    json_decref(j);
    so_result_free(r);
    /* a backend of another problem is refused */
    CU_ASSERT_EQUAL(so_solve(so_backend_find("pareto-sweep"), p, NULL, &r, &err), SO_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "knapsack"));
    so_problem_free(p);
    /* unknown objective and bound serialise as null, gap NAN as null */
    so_result *e = so_result_new();
    json_t *k = so_result_to_json(e);
    CU_ASSERT_TRUE(json_is_null(json_object_get(k, "objective")));
    CU_ASSERT_TRUE(json_is_null(json_object_get(k, "gap")));
    CU_ASSERT_TRUE(isnan(so_result_gap(e)));
    json_decref(k);
    so_result_free(e);
}

static void test_atomic_write(void)
{
    char path[600];
    snprintf(path, sizeof path, "%s/atomic/out.json", so_test_tmpdir());
    so_error err;
    /* a folder that does not exist: an error, and nothing left behind */
    CU_ASSERT_EQUAL(so_write_file_atomic(path, "x", 1, &err), SO_EIO);
    snprintf(path, sizeof path, "%s/out.txt", so_test_tmpdir());
    CU_ASSERT_EQUAL(so_write_file_atomic(path, "hello\n", 6, &err), SO_OK);
    char *t = so_test_slurp(path);
    CU_ASSERT_STRING_EQUAL(t, "hello\n");
    free(t);
    DIR *d = opendir(so_test_tmpdir());
    struct dirent *e;
    while ((e = readdir(d)))
        CU_ASSERT_PTR_NULL(strstr(e->d_name, ".tmp"));
    closedir(d);
    /* the file gets the usual permissions (0666 less the umask), as any
     * other output, not mkstemp's 0600 */
    mode_t old = umask(022);
    CU_ASSERT_EQUAL(so_write_file_atomic(path, "x", 1, &err), SO_OK);
    struct stat st;
    CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 0777, 0644);
    umask(old);
}

static CU_TestInfo tests[] = {
    {"status codes and strings", test_status},
    {"generator streams are pinned", test_rng_pinned},
    {"generator ranges and moments", test_rng_ranges},
    {"parameters: defaults, typed getters, unknown keys", test_params},
    {"result JSON schema", test_result_json},
    {"atomic writes leave no partial file", test_atomic_write},
    CU_TEST_INFO_NULL,
};
SO_SUITE("core", tests)
