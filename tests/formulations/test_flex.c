/* test_flex.c — the FLEX instance: reading, every input error, penalties,
 * JSON round trip, and a fuzz test of the reader. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "formulations/flex.h"
#include "formulations/rap.h"

static const char *valid =
    "{\"problem\": \"flex\", \"version\": 1, \"slots\": 10,\n"
    " \"metric\": \"weighted-tardiness\",\n"
    " \"jobs\": [\n"
    "  {\"work\": 20, \"min\": 2, \"max\": 6, \"weight\": 0.5, \"deadline\": 3},\n"
    "  {\"work\": 30, \"min\": 2, \"weight\": 2, \"deadline\": 4,\n"
    "   \"sla\": [{\"deadline\": 1, \"penalty\": 1}, {\"deadline\": 2, \"penalty\": 3}]}\n"
    " ]}\n";

static so_problem *parse(const char *text, int *rc, so_error *err)
{
    so_problem *p = NULL;
    so_error_clear(err);
    *rc = so_problem_parse(text, "t.json", &p, err);
    return p;
}

static void test_read(void)
{
    so_error err;
    int rc;
    so_problem *p = parse(valid, &rc, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    const so_flex *f = so_flex_of(p);
    CU_ASSERT_STRING_EQUAL(so_problem_kind(p), "flex");
    CU_ASSERT_EQUAL(f->n, 2);
    CU_ASSERT_EQUAL(f->slots, 10);
    CU_ASSERT_EQUAL(f->metric, SO_FLEX_WTARDINESS);
    CU_ASSERT_EQUAL(f->aggregate, SO_FLEX_SUM);
    CU_ASSERT_EQUAL(f->max[1], 10); /* default: all slots */
    CU_ASSERT_EQUAL(f->sla_start[1], 0);
    CU_ASSERT_EQUAL(f->sla_start[2], 2);
    CU_ASSERT_DOUBLE_EQUAL(f->sla_penalty[1], 3, 1e-12);
    char why[128];
    CU_ASSERT_EQUAL(so_flex_validate(f, why, sizeof why), SO_OK);
    /* round trip through the writer */
    json_t *j = so_problem_to_json(p);
    char *text = json_dumps(j, JSON_INDENT(1));
    so_problem *q = parse(text, &rc, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    const so_flex *g = so_flex_of(q);
    CU_ASSERT_EQUAL(g->max[0], 6);
    CU_ASSERT_DOUBLE_EQUAL(g->weight[0], 0.5, 0);
    CU_ASSERT_DOUBLE_EQUAL(g->sla_deadline[1], 2, 0);
    free(text);
    json_decref(j);
    so_problem_free(q);
    so_problem_free(p);
}

typedef struct {
    const char *from, *to; /* replacement in `valid` */
    int line;
    const char *key, *message;
} bad_case;

static void test_errors(void)
{
    static const bad_case cases[] = {
        {"\"min\": 2, \"max\": 6", "\"min\": 7, \"max\": 6", 4, "jobs[0].min", "exceeds max"},
        {"\"work\": 20", "\"work\": 0", 4, "jobs[0].work", "positive"},
        {"\"work\": 20", "\"work\": -3", 4, "jobs[0].work", "expected"},
        {"\"min\": 2, \"weight\": 2", "\"min\": 9, \"weight\": 2", 3, "jobs", "minima add up to 11"},
        {"\"penalty\": 3", "\"penalty\": 0.5", 6, "jobs[1].sla[1]", "non-decreasing"},
        {"\"deadline\": 2, \"penalty\"", "\"deadline\": 0.5, \"penalty\"", 6, "jobs[1].sla[1]", "non-decreasing"},
        {"weighted-tardiness", "tardyness", 2, "metric", "unknown metric"},
        {"\"weight\": 0.5, ", "", 4, "jobs[0].weight", "missing"},
        {"\"deadline\": 3}", "\"dl\": 3}", 4, "jobs[0].dl", "unknown key"},
        {"\"max\": 6", "\"max\": 11", 4, "jobs[0].max", "expected"},
        {"\"slots\": 10", "\"slots\": 0", 1, "slots", "expected"},
        {"\"metric\"", "\"aggregate\": \"avg\", \"metric\"", 2, "aggregate", "sum"},
        {"weighted-tardiness\"", "makespan\", \"aggregate\": \"sum\"", 2, "aggregate", "makespan"},
        {"\"penalty\": 1}", "\"penalty\": -1}", 6, "jobs[1].sla[0].penalty", "expected"},
        {"\"min\": 2, \"max\": 6", "\"min\": 2.5, \"max\": 6", 4, "jobs[0].min", "integer"},
        /* magnitudes where a penalty could overflow to inf */
        {"\"work\": 20", "\"work\": 1e300", 4, "jobs[0].work", "expected"},
        {"\"work\": 20", "\"work\": 1e-300", 4, "jobs[0].work", "positive"},
        {"\"weight\": 0.5", "\"weight\": 1e200", 4, "jobs[0].weight", "expected"},
        {"\"deadline\": 3}", "\"deadline\": -1e200}", 4, "jobs[0].deadline", "expected"},
        {"\"penalty\": 3}", "\"penalty\": 1e200}", 6, "jobs[1].sla[1].penalty", "expected"},
        {"\"deadline\": 1,", "\"deadline\": -1e200,", 6, "jobs[1].sla[0].deadline", "expected"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char text[2048];
        const char *at = strstr(valid, cases[c].from);
        CU_ASSERT_PTR_NOT_NULL_FATAL(at);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - valid), valid,
                 cases[c].to, at + strlen(cases[c].from));
        so_error err;
        int rc;
        so_problem *p = parse(text, &rc, &err);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        CU_ASSERT_PTR_NULL(p);
        CU_ASSERT_STRING_EQUAL(err.key, cases[c].key);
        CU_ASSERT_EQUAL(err.line, cases[c].line);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, cases[c].message));
        if (rc != SO_EINVAL || strcmp(err.key, cases[c].key) ||
            err.line != cases[c].line || !strstr(err.message, cases[c].message))
            fprintf(stderr, "case %zu: rc %d %d:%d key '%s': %s\n", c, rc,
                    err.line, err.column, err.key, err.message);
    }
}

static void test_metric_requirements(void)
{
    so_error err;
    int rc;
    so_problem *p = parse("{\"problem\": \"flex\", \"version\": 1, \"slots\": 4,"
                          " \"metric\": \"sla\", \"jobs\": [{\"work\": 1}]}",
                          &rc, &err);
    CU_ASSERT_EQUAL(rc, SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "jobs[0].sla");
    p = parse("{\"problem\": \"rap\", \"version\": 1, \"slots\": 4,"
              " \"metric\": \"lateness\", \"jobs\": [{\"work\": 1}]}", &rc, &err);
    CU_ASSERT_EQUAL(rc, SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "jobs[0].deadline");
    p = parse("{\"problem\": \"rap\", \"version\": 1, \"slots\": 4,"
              " \"metric\": \"makespan\", \"jobs\": [{\"work\": 1}]}", &rc, &err);
    CU_ASSERT_EQUAL_FATAL(rc, SO_OK);
    CU_ASSERT_STRING_EQUAL(so_problem_kind(p), "rap");
    CU_ASSERT_EQUAL(so_flex_of(p)->aggregate, SO_FLEX_MAX);
    so_problem_free(p);
}

/* so_flex_validate (the epoch API's check) refuses the magnitudes the
 * reader refuses: a penalty could overflow to inf. */
static void test_validate_magnitudes(void)
{
    so_flex *f = so_flex_new(1, 1);
    char why[160];
    f->slots = 4;
    f->work[0] = 1e100;
    f->max[0] = 4;
    f->weight[0] = 1e100;
    f->deadline[0] = -1e100;
    f->sla_start[1] = 1;
    f->sla_deadline[0] = 1e100;
    f->sla_penalty[0] = 1e100;
    CU_ASSERT_EQUAL(so_flex_validate(f, why, sizeof why), SO_OK);
    double *fields[] = {&f->work[0], &f->weight[0], &f->deadline[0],
                        &f->sla_deadline[0], &f->sla_penalty[0]};
    for (size_t k = 0; k < 5; k++) {
        double keep = *fields[k];
        *fields[k] = 1e200;
        CU_ASSERT_EQUAL(so_flex_validate(f, why, sizeof why), SO_EINVAL);
        *fields[k] = keep;
    }
    f->work[0] = 1e-200;
    CU_ASSERT_EQUAL(so_flex_validate(f, why, sizeof why), SO_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "work"));
    so_flex_free(f);
}

static void test_penalties(void)
{
    so_flex *f = so_flex_new(1, 2);
    f->slots = 10;
    f->work[0] = 20;
    f->max[0] = 4; /* W = C / M = 5 */
    f->weight[0] = 0.5;
    f->deadline[0] = 3;
    f->sla_start[1] = 2;
    f->sla_deadline[0] = 2;
    f->sla_penalty[0] = 1;
    f->sla_deadline[1] = 5;
    f->sla_penalty[1] = 4;
    static const struct {
        int metric;
        double t, want;
    } cases[] = {
        {SO_FLEX_RESPONSE, 7, 7},       {SO_FLEX_WRESPONSE, 7, 3.5},
        {SO_FLEX_STRETCH, 7, 1.4},      {SO_FLEX_MAKESPAN, 7, 7},
        {SO_FLEX_TARDY, 3, 0},          {SO_FLEX_TARDY, 3.1, 1},
        {SO_FLEX_WTARDY, 4, 0.5},       {SO_FLEX_TARDINESS, 2, 0},
        {SO_FLEX_TARDINESS, 5, 2},      {SO_FLEX_WTARDINESS, 5, 1},
        {SO_FLEX_LATENESS, 1, -2},      {SO_FLEX_WLATENESS, 1, -1},
        {SO_FLEX_SLA, 1.5, 0},          {SO_FLEX_SLA, 2.5, 1},
        {SO_FLEX_SLA, 6, 5},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        f->metric = cases[c].metric;
        CU_ASSERT_DOUBLE_EQUAL(so_flex_penalty(f, 0, cases[c].t), cases[c].want, 1e-12);
    }
    /* RAP cost: F(s) = p(C / s) */
    f->metric = SO_FLEX_WRESPONSE;
    CU_ASSERT_DOUBLE_EQUAL(so_rap_cost(f, 0, 4), 2.5, 1e-12);
    f->metric = SO_FLEX_RESPONSE;
    double t[1] = {7};
    f->aggregate = SO_FLEX_MAX;
    CU_ASSERT_DOUBLE_EQUAL(so_flex_objective(f, t), 7, 0);
    so_flex_free(f);
}

/* Mutates the valid instance many times: the reader answers SO_OK or
 * SO_EINVAL, never anything else, never crashes (run under ASan). */
static void test_fuzz(void)
{
    static const char alphabet[] = "{}[]\":,0123456789.-e tnfalsuxminwork";
    so_rng rng;
    so_rng_seed(&rng, 42);
    size_t len = strlen(valid);
    char *text = malloc(len + 16);
    int ok = 0, bad = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(text, valid, len + 1);
        int edits = (int)so_rng_int(&rng, 1, 4);
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t)so_rng_int(&rng, 0, (int64_t)len - 1);
            int op = (int)so_rng_int(&rng, 0, 2);
            if (op == 0)
                text[at] = alphabet[so_rng_int(&rng, 0, sizeof alphabet - 2)];
            else if (op == 1)
                memmove(text + at, text + at + 1, strlen(text + at));
            else if (strlen(text) < len + 8) {
                memmove(text + at + 1, text + at, strlen(text + at) + 1);
                text[at] = alphabet[so_rng_int(&rng, 0, sizeof alphabet - 2)];
            }
        }
        so_error err;
        int rc;
        so_problem *p = parse(text, &rc, &err);
        CU_ASSERT(rc == SO_OK || rc == SO_EINVAL);
        if (rc == SO_OK) {
            char why[128];
            CU_ASSERT_EQUAL(so_flex_validate(so_flex_of(p), why, sizeof why), SO_OK);
            ok++;
        } else {
            CU_ASSERT(err.message[0] != '\0');
            bad++;
        }
        so_problem_free(p);
    }
    CU_ASSERT(ok > 0 && bad > 0);
    free(text);
}

static CU_TestInfo tests[] = {
    {"validation refuses overflowing magnitudes", test_validate_magnitudes},
    {"read a valid instance and round trip", test_read},
    {"every input error names its key and line", test_errors},
    {"metric-specific required keys", test_metric_requirements},
    {"per-job penalties of every metric", test_penalties},
    {"fuzzed instances: SO_OK or SO_EINVAL", test_fuzz},
    CU_TEST_INFO_NULL,
};
SO_SUITE("flex", tests)
