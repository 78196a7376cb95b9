/* test_ras.c — the RAS utility (eqs. 1-3, Fig. 2 and every limit), the
 * s_req of a goal, loads and feasibility (eq. 6), utilisation (eq. 5), and
 * the strict JSON reader (every error path, a fuzz run, export). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "formulations/ras.h"

#define EPS 1e-12

/* ---- utility -------------------------------------------------------------- */

static void test_fig2_points(void)
{
    /* the paper's Fig. 2: s_req 20, s_pend 35, r_pend 10 */
    so_ras_job job = {.s_pend = 35, .s_req = 20, .r_pend = 10};
    CU_ASSERT_DOUBLE_EQUAL(so_ras_utility(&job, 20, 10), 0.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(so_ras_utility(&job, 35, 10), 1.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(so_ras_utility(&job, 27, 10), 7.0 / 15.0, EPS);
    /* log(10)/log(20) - 1 */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_utility(&job, 10, 10), -0.231378213159759, 1e-12);
    /* one map: log(1) = 0 -> uM = -1 */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_utility(&job, 1, 10), -1.0, EPS);
    /* all maps, half the reducers: 1 + log(5)/log(10) - 1 */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_utility(&job, 35, 5), 0.698970004336019, 1e-12);
    /* all maps, one reducer: 1 + 0 - 1 */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_utility(&job, 35, 1), 0.0, EPS);
    /* s_req maps, no reducer: 0 + (-1) */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_utility(&job, 20, 0), -1.0, EPS);
    /* 5 maps, 2 reducers: log5/log20 - 1 + log2/log10 - 1 */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_utility(&job, 5, 2),
                           -0.462756426319518 - 0.698970004336019, 1e-12);
    /* no map: log(0) */
    CU_ASSERT(isinf(so_ras_utility(&job, 0, 10)));
    CU_ASSERT(so_ras_utility(&job, 0, 10) < 0);
    CU_ASSERT_DOUBLE_EQUAL(so_ras_finite(so_ras_utility(&job, 0, 10)),
                           SO_RAS_STARVED, 0);
    /* monotone in both counts */
    for (int s = 1; s < 35; s++)
        for (int r = 0; r < 10; r++) {
            CU_ASSERT(so_ras_utility(&job, s + 1, r) > so_ras_utility(&job, s, r));
            CU_ASSERT(so_ras_utility(&job, s, r + 1) >= so_ras_utility(&job, s, r));
        }
}

static void test_map_limits(void)
{
    /* no pending maps: fully satisfied */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_map(0, 0, 0), 1.0, 0);
    /* s_pend = s_req: 0/0 at s_alloc = s_pend is 1, below it the log branch */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_map(8, 8, 8), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_map(4, 8, 8), log(4) / log(8) - 1, EPS);
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_map(7, 8, 8), log(7) / log(8) - 1, EPS);
    /* s_req = 1 (log(1) = 0 in the denominator): only s_alloc = 0 meets it */
    CU_ASSERT(isinf(so_ras_u_map(0, 1, 5)));
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_map(1, 1, 5), 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_map(3, 1, 5), 0.5, EPS);
    /* s_pend = s_req = 1 */
    CU_ASSERT(isinf(so_ras_u_map(0, 1, 1)));
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_map(1, 1, 1), 1.0, 0);
    /* log(1) in the numerator: one map of two required */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_map(1, 2, 9), -1.0, EPS);
    /* more than pending (never placed; capped) */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_map(12, 4, 10), 1.0, 0);
}

static void test_reduce_limits(void)
{
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_reduce(0, 0), 0.0, 0); /* none pending */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_reduce(1, 1), 0.0, 0); /* log1/log1 */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_reduce(0, 1), -1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_reduce(0, 10), -1.0, 0); /* log(0) */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_reduce(1, 10), -1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_reduce(10, 10), 0.0, 0); /* all placed */
    CU_ASSERT_DOUBLE_EQUAL(so_ras_u_reduce(2, 4), -0.5, EPS);
    /* a job with nothing pending at all */
    so_ras_job idle = {0};
    CU_ASSERT_DOUBLE_EQUAL(so_ras_utility(&idle, 0, 0), 1.0, 0);
    /* only reducers pending (reduce phase) */
    so_ras_job red = {.r_pend = 4};
    CU_ASSERT_DOUBLE_EQUAL(so_ras_utility(&red, 0, 2), 0.5, EPS);
    CU_ASSERT_DOUBLE_EQUAL(so_ras_utility(&red, 0, 0), 0.0, 0);
}

static void test_s_req_from_goal(void)
{
    /* ceil(35 * 30 / (3000 - 2900)) = ceil(10.5) = 11 */
    CU_ASSERT_EQUAL(so_ras_s_req_from_goal(35, 3000, 30, 2900), 11);
    /* exact division: 20 * 10 / 100 = 2 */
    CU_ASSERT_EQUAL(so_ras_s_req_from_goal(20, 200, 10, 100), 2);
    /* capped at s_pend */
    CU_ASSERT_EQUAL(so_ras_s_req_from_goal(10, 110, 50, 100), 10);
    /* goal passed or now: everything at once */
    CU_ASSERT_EQUAL(so_ras_s_req_from_goal(10, 100, 5, 100), 10);
    CU_ASSERT_EQUAL(so_ras_s_req_from_goal(10, 50, 5, 100), 10);
    /* a far goal still needs one map */
    CU_ASSERT_EQUAL(so_ras_s_req_from_goal(10, 1e9, 1, 0), 1);
    CU_ASSERT_EQUAL(so_ras_s_req_from_goal(0, 1e9, 1, 0), 0);
}

/* ---- reading -------------------------------------------------------------- */

static const char *VALID =
    "{\"problem\": \"ras\", \"version\": 1,\n"
    " \"tasktrackers\": [{\"capacity\": [100, 100, 100], \"count\": 2},\n"
    "                  {\"capacity\": [50, 80, 60]}],\n"
    " \"jobs\": [\n"
    "  {\"name\": \"sort\", \"s_pend\": 6, \"r_pend\": 2,\n"
    "   \"goal\": {\"t_goal\": 1000, \"t_avg\": 50, \"now\": 900},\n"
    "   \"demand\": {\"map\": [30, 45, 25], \"shuffle\": [0, 2, 0],\n"
    "              \"reduce\": [20, 50, 60]}},\n"
    "  {\"s_pend\": 4, \"r_pend\": 0, \"s_req\": 2, \"parallel_copies\": 1,\n"
    "   \"demand\": {\"map\": [15, 20, 10]}},\n"
    "  {\"s_pend\": 0, \"r_pend\": 1, \"phase\": \"reduce\",\n"
    "   \"demand\": {\"map\": [1, 1, 1], \"reduce\": [10, 10, 25],\n"
    "              \"shuffle_base\": [1, 2, 3]}}\n"
    " ]}\n";

static so_problem *parse_ok(const char *text)
{
    so_problem *p = NULL;
    so_error err;
    int rc = so_problem_parse(text, "t.json", &p, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    return p;
}

static void test_read_valid(void)
{
    so_problem *p = parse_ok(VALID);
    const so_ras *ras = so_ras_of(p);
    CU_ASSERT_EQUAL(ras->R, 3);
    CU_ASSERT_STRING_EQUAL(ras->resources[2], "memory");
    CU_ASSERT_EQUAL(ras->TT, 3);
    CU_ASSERT_DOUBLE_EQUAL(ras->capacity[1 * 3 + 1], 100, 0);
    CU_ASSERT_DOUBLE_EQUAL(ras->capacity[2 * 3 + 0], 50, 0);
    CU_ASSERT_EQUAL(ras->J, 3);
    const so_ras_job *a = &ras->jobs[0], *b = &ras->jobs[1], *c = &ras->jobs[2];
    CU_ASSERT_STRING_EQUAL(a->name, "sort");
    CU_ASSERT_EQUAL(a->s_req, 3); /* ceil(6 * 50 / 100) */
    CU_ASSERT_EQUAL(a->parallel_copies, 5);
    CU_ASSERT_FALSE(a->reduce_phase);
    /* shuffle_base defaults to the reduce memory */
    CU_ASSERT_DOUBLE_EQUAL(a->shuffle_base[0], 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(a->shuffle_base[2], 60, 0);
    CU_ASSERT_STRING_EQUAL(b->name, "job1");
    CU_ASSERT_EQUAL(b->s_req, 2);
    CU_ASSERT_EQUAL(b->parallel_copies, 1);
    CU_ASSERT_DOUBLE_EQUAL(b->reduce[1], 0, 0);
    CU_ASSERT_TRUE(c->reduce_phase);
    CU_ASSERT_EQUAL(c->s_req, 0);
    CU_ASSERT_DOUBLE_EQUAL(c->shuffle_base[1], 2, 0);
    /* round trip */
    json_t *j = so_problem_to_json(p);
    char *text = json_dumps(j, 0);
    so_problem *q = parse_ok(text);
    json_t *j2 = so_problem_to_json(q);
    CU_ASSERT_TRUE(json_equal(j, j2));
    free(text);
    json_decref(j);
    json_decref(j2);
    so_problem_free(q);
    so_problem_free(p);
}

/* Replaces the first `from` in VALID by `to` and expects an error at key. */
static void expect_error(const char *from, const char *to, const char *key,
                         const char *message_part)
{
    const char *at = strstr(VALID, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    size_t pre = (size_t)(at - VALID);
    char *text = malloc(strlen(VALID) + strlen(to) + 1);
    memcpy(text, VALID, pre);
    strcpy(text + pre, to);
    strcat(text, at + strlen(from));
    so_problem *p = NULL;
    so_error err;
    int rc = so_problem_parse(text, "bad.json", &p, &err);
    CU_ASSERT_EQUAL(rc, SO_EINVAL);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_STRING_EQUAL(err.key, key);
    CU_ASSERT_STRING_EQUAL(err.file, "bad.json");
    CU_ASSERT(err.line > 0);
    if (!strstr(err.message, message_part))
        fprintf(stderr, "\n%s: unexpected message '%s'\n", key, err.message);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, message_part));
    so_problem_free(p);
    free(text);
}

static void test_read_errors(void)
{
    expect_error("\"tasktrackers\"", "\"tasktracker\"", "tasktracker", "unknown key");
    expect_error("\"count\": 2", "\"count\": 0", "tasktrackers[0].count", "[1, ");
    expect_error("\"count\": 2", "\"cuont\": 2", "tasktrackers[0].cuont", "unknown key");
    expect_error("[50, 80, 60]", "[50, 80]", "tasktrackers[1].capacity",
                 "expected 3 values");
    expect_error("[50, 80, 60]", "[50, -80, 60]", "tasktrackers[1].capacity[1]",
                 "expected a number in");
    expect_error("[50, 80, 60]", "[50, \"x\", 60]", "tasktrackers[1].capacity[1]",
                 "found a string");
    expect_error("{\"capacity\": [50, 80, 60]}", "{}", "tasktrackers[1].capacity",
                 "missing");
    expect_error("{\"capacity\": [50, 80, 60]}", "7", "tasktrackers[1]",
                 "expected an object");
    expect_error("\"s_pend\": 6", "\"s_pend\": -1", "jobs[0].s_pend", "[0, ");
    expect_error("\"s_pend\": 6", "\"s_pend\": 1.5", "jobs[0].s_pend", "integer");
    expect_error("\"r_pend\": 2", "\"rpend\": 2", "jobs[0].rpend", "unknown key");
    expect_error("\"s_req\": 2", "\"s_req\": 5", "jobs[1].s_req", "[1, 4]");
    expect_error("\"s_req\": 2", "\"s_req\": 0", "jobs[1].s_req", "[1, 4]");
    expect_error("\"s_req\": 2,", "\"s_req\": 2, \"goal\": {},", "jobs[1].goal",
                 "either s_req or goal");
    expect_error("\"t_avg\": 50", "\"t_avg\": 0", "jobs[0].goal.t_avg", "expected a number in");
    expect_error("\"t_avg\": 50", "\"tavg\": 50", "jobs[0].goal.tavg", "unknown key");
    expect_error("\"now\": 900", "\"nw\": 900", "jobs[0].goal.nw", "unknown key");
    expect_error("\"parallel_copies\": 1", "\"parallel_copies\": 0",
                 "jobs[1].parallel_copies", "[1, ");
    expect_error("\"phase\": \"reduce\"", "\"phase\": \"sort\"", "jobs[2].phase",
                 "expected \"map\"");
    expect_error("\"demand\": {\"map\": [15, 20, 10]}", "\"demand\": [1]",
                 "jobs[1].demand", "expected an object");
    expect_error("\"map\": [15, 20, 10]", "\"mapp\": [15, 20, 10]",
                 "jobs[1].demand.mapp", "unknown key");
    expect_error("\"reduce\": [20, 50, 60]", "\"reduc\": [20, 50, 60]",
                 "jobs[0].demand.reduc", "unknown key");
    expect_error(",\n              \"reduce\": [20, 50, 60]", "",
                 "jobs[0].demand.reduce", "missing");
    expect_error("\"shuffle\": [0, 2, 0]", "\"shuffle\": [0, 2, 0, 1]",
                 "jobs[0].demand.shuffle", "expected 3 values");
    expect_error("\"shuffle_base\": [1, 2, 3]", "\"shuffle_base\": 3",
                 "jobs[2].demand.shuffle_base", "expected an array");
    expect_error("\"name\": \"sort\"", "\"name\": 5", "jobs[0].name", "string");
    expect_error("\"version\": 1,", "\"version\": 1, \"resources\": [],",
                 "resources", "at least 1");
    expect_error("\"version\": 1,", "\"version\": 1, \"resources\": [\"a\", \"a\", \"b\"],",
                 "resources[1]", "duplicate");
    expect_error("\"version\": 1,", "\"version\": 1, \"resources\": [\"a\", 2, \"b\"],",
                 "resources[1]", "resource name");
    expect_error("{\"capacity\": [100, 100, 100], \"count\": 2}",
                 "{\"capacity\": [100, 100, 100], \"count\": 1000000}",
                 "tasktrackers[1]", "more than");
}

static void test_too_many_cells(void)
{
    const char *text =
        "{\"problem\": \"ras\", \"version\": 1,\n"
        " \"tasktrackers\": [{\"capacity\": [1, 1, 1], \"count\": 1000000}],\n"
        " \"jobs\": [{\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}},\n"
        "  {\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1, 1]}}]}\n";
    so_problem *p = NULL;
    so_error err;
    CU_ASSERT_EQUAL(so_problem_parse(text, "big.json", &p, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "jobs");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "job-TaskTracker pairs"));
    CU_ASSERT_PTR_NULL(p);
}

static void test_no_jobs(void)
{
    so_problem *p = NULL;
    so_error err;
    CU_ASSERT_EQUAL(so_problem_parse("{\"problem\": \"ras\", \"version\": 1,\n"
                                     " \"tasktrackers\": [{\"capacity\": [1, 1, 1]}],\n"
                                     " \"jobs\": []}", "e.json", &p, &err),
                    SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "jobs");
    CU_ASSERT_EQUAL(err.line, 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "at least 1"));
    CU_ASSERT_EQUAL(so_problem_parse("{\"problem\": \"ras\", \"version\": 1,\n"
                                     " \"jobs\": [{\"s_pend\": 0, \"r_pend\": 0,"
                                     " \"demand\": {\"map\": [1, 1, 1]}}]}",
                                     "e.json", &p, &err),
                    SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "tasktrackers");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "missing"));
    CU_ASSERT_PTR_NULL(p);
}

static void test_fuzz(void)
{
    /* byte mutations of a valid instance: a clean error or a problem that
     * survives evaluation, never a crash (run under make check-asan) */
    so_rng rng;
    so_rng_seed(&rng, 5);
    size_t n = strlen(VALID);
    const char alphabet[] = "{}[],:\"0123456789-.e xyzmaps_";
    char *text = malloc(n + 1);
    int ok = 0, bad = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(text, VALID, n + 1);
        int edits = (int)so_rng_int(&rng, 1, 4);
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t)so_rng_int(&rng, 0, (int64_t)n - 1);
            text[at] = alphabet[so_rng_int(&rng, 0, sizeof alphabet - 2)];
        }
        so_problem *p = NULL;
        so_error err;
        int rc = so_problem_parse(text, "fuzz.json", &p, &err);
        CU_ASSERT(rc == SO_OK || rc == SO_EINVAL);
        if (rc == SO_OK) {
            const so_ras *ras = so_ras_of(p);
            if (ras) {
                int *pm = calloc(ras->J * ras->TT + 1, sizeof *pm);
                int *pr = calloc(ras->J * ras->TT + 1, sizeof *pr);
                so_ras_eval ev;
                CU_ASSERT_EQUAL(so_ras_evaluate(ras, pm, pr, &ev), SO_OK);
                CU_ASSERT_TRUE(ev.feasible);
                free(pm);
                free(pr);
            }
            ok++;
        } else {
            CU_ASSERT(err.message[0] != '\0');
            bad++;
        }
        so_problem_free(p);
    }
    CU_ASSERT(ok > 0);
    CU_ASSERT(bad > 0);
    free(text);
}

/* ---- loads and evaluation ------------------------------------------------ */

static void test_loads_and_eval(void)
{
    so_problem *p = parse_ok(VALID);
    const so_ras *ras = so_ras_of(p);
    /* job 0: maps 2 on tt0, 1 on tt2; reducers 1 on tt1, 1 on tt2.
     * job 1: maps 4 on tt1. job 2: reducer 1 on tt0. */
    int pm[9] = {2, 0, 1, /**/ 0, 4, 0, /**/ 0, 0, 0};
    int pr[9] = {0, 1, 1, /**/ 0, 0, 0, /**/ 1, 0, 0};
    double load[9];
    CU_ASSERT_EQUAL(so_ras_loads(ras, pm, pr, load), SO_OK);
    /* shuffle reducer of job 0: base (0,0,60) + (0,2,0) * min(3, 5) */
    CU_ASSERT_DOUBLE_EQUAL(load[0], 2 * 30 + 10, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(load[1], 2 * 45 + 10, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(load[2], 2 * 25 + 25, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(load[3], 4 * 15 + 0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(load[4], 4 * 20 + 6, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(load[5], 4 * 10 + 60, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(load[6], 30, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(load[7], 45 + 6, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(load[8], 25 + 60, 1e-9);
    so_ras_eval ev;
    CU_ASSERT_EQUAL(so_ras_evaluate(ras, pm, pr, &ev), SO_OK);
    CU_ASSERT_FALSE(ev.feasible); /* tt2 memory: 85 > 60 */
    /* u0: s 3 = s_req, all reducers -> 0; u1: all maps -> 1; u2: 1 + 0 */
    CU_ASSERT_DOUBLE_EQUAL(ev.min_utility, 0.0, EPS);
    CU_ASSERT_EQUAL(ev.worst_job, 0);
    double util = (70 / 100.0 + 100 / 100.0 + 75 / 100.0 + 60 / 100.0 +
                   86 / 100.0 + 100 / 100.0 + 30 / 50.0 + 51 / 80.0 +
                   85 / 60.0) / 9;
    CU_ASSERT_DOUBLE_EQUAL(ev.utilisation, util, 1e-12);
    /* without job 0's reducer on tt2 it fits */
    pr[2] = 0;
    CU_ASSERT_EQUAL(so_ras_evaluate(ras, pm, pr, &ev), SO_OK);
    CU_ASSERT_TRUE(ev.feasible);
    CU_ASSERT_DOUBLE_EQUAL(ev.min_utility, log(1) / log(2) - 1 + 0, EPS);
    /* more maps than pending */
    pm[4] = 5;
    CU_ASSERT_EQUAL(so_ras_evaluate(ras, pm, pr, &ev), SO_OK);
    CU_ASSERT_FALSE(ev.feasible);
    so_problem_free(p);
}

static void test_better(void)
{
    so_ras_eval a = {1, 0.5, 0.2, 0}, b = {1, 0.5, 0.3, 0}, c = {1, 0.4, 0.9, 0};
    CU_ASSERT_TRUE(so_ras_better(&b, &a));
    CU_ASSERT_FALSE(so_ras_better(&a, &b));
    CU_ASSERT_TRUE(so_ras_better(&a, &c));
    CU_ASSERT_FALSE(so_ras_better(&c, &a));
    CU_ASSERT_FALSE(so_ras_better(&a, &a));
}

static void test_export(void)
{
    const char *in = so_test_write("ras_export.json", VALID);
    char args[1024], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "export --format lp %s -o %s/ras.lp", in,
             so_test_tmpdir());
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 0);
    snprintf(args, sizeof args, "%s/ras.lp", so_test_tmpdir());
    char *lp = so_test_slurp(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(lp);
    CU_ASSERT_PTR_NOT_NULL(strstr(lp, "Maximize"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lp, "min_utility: + z"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lp, "cap_2_memory"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lp, "starved_0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lp, "q_ge_0_1_2")); /* shuffle envelope */
    free(lp);
    free(out);
    free(err);
}

static void test_cli_error(void)
{
    const char *in = so_test_write("ras_bad.json",
        "{\"problem\": \"ras\", \"version\": 1,\n"
        " \"tasktrackers\": [{\"capacity\": [1, 1, 1]}],\n"
        " \"jobs\": [{\"s_pend\": 1, \"r_pend\": 0, \"demand\": {\"map\": [1, 1]}}]}\n");
    char args[512], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "solve -b ras %s", in);
    CU_ASSERT_EQUAL(so_test_run(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "ras_bad.json:3:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "jobs[0].demand.map"));
    free(out);
    free(err);
}

static CU_TestInfo tests[] = {
    {"utility at points of the paper's Fig. 2", test_fig2_points},
    {"map utility limits (log 0, log 1, s_pend = s_req)", test_map_limits},
    {"reduce utility limits", test_reduce_limits},
    {"s_req from a completion-time goal", test_s_req_from_goal},
    {"read a valid instance, defaults, round trip", test_read_valid},
    {"every reader error path", test_read_errors},
    {"size limit", test_too_many_cells},
    {"no jobs, no TaskTrackers", test_no_jobs},
    {"fuzz the reader", test_fuzz},
    {"loads with shuffle demand, utilisation", test_loads_and_eval},
    {"lexicographic comparison", test_better},
    {"export the MILP", test_export},
    {"CLI reports file:line: key", test_cli_error},
    CU_TEST_INFO_NULL,
};
SO_SUITE("ras", tests)
