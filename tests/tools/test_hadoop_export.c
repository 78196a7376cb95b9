/* test_hadoop_export.c — Hadoop scheduler configuration from plans
 * (tools/export/hadoop_conf.c, tools/export/export_plan.c, `slotopt export --format
 * fair-scheduler|yarn-fair|capacity-scheduler`): golden files from a
 * hand-made Pareto plan, every file parsed back with libxml2 and its
 * documented elements checked, a FLEX allocation's slot counts round-trip,
 * a weight-only (WPBS-style) share list, and the error paths. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include "tests/test_util.h"
#include "tests/flex_test_util.h"
#include "formulations/flex.h"
#include "tools/export/export_plan.h"

/* Two plans of two jobs: (100 s, $10) with 4+2 and 2+2 slots, (200 s, $6)
 * with 2+1 and 1+1 slots. */
static const char *PLAN =
    "{\"problem\": \"pareto\", \"status\": \"optimal\", \"solution\": {\"points\": ["
    " {\"makespan\": 100, \"budget\": 10, \"jobs\": ["
    "   {\"map_slots\": 4, \"reduce_slots\": 2}, {\"map_slots\": 2, \"reduce_slots\": 2}]},"
    " {\"makespan\": 200, \"budget\": 6, \"jobs\": ["
    "   {\"map_slots\": 2, \"reduce_slots\": 1}, {\"map_slots\": 1, \"reduce_slots\": 1}]}]}}";

static char *export_text(const char *result, int format, double budget, double deadline,
                         long *chosen)
{
    json_error_t je;
    json_t *r = json_loads(result, 0, &je);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    so_plan_choice c = {budget, deadline, 1024};
    so_hc_shares s;
    so_error err;
    char *text = NULL;
    CU_ASSERT_EQUAL(so_export_shares(r, NULL, &c, &s, chosen, &err), SO_OK);
    CU_ASSERT_EQUAL(so_hc_write(&s, format, &text, &err), SO_OK);
    free(s.pools);
    json_decref(r);
    return text;
}

static void test_select(void)
{
    json_error_t je;
    json_t *r = json_loads(PLAN, 0, &je);
    const json_t *pts = json_object_get(json_object_get(r, "solution"), "points");
    CU_ASSERT_EQUAL(so_plan_select(pts, -1, INFINITY), 1);  /* cheapest */
    CU_ASSERT_EQUAL(so_plan_select(pts, -1, 150), 0);       /* within 150 s */
    CU_ASSERT_EQUAL(so_plan_select(pts, -1, 99), -1);
    CU_ASSERT_EQUAL(so_plan_select(pts, 10, INFINITY), 0);  /* fastest <= $10 */
    CU_ASSERT_EQUAL(so_plan_select(pts, 9.99, INFINITY), 1);
    CU_ASSERT_EQUAL(so_plan_select(pts, 5, INFINITY), -1);
    json_decref(r);
}

/* Golden files (tests/corpus/hadoop/): fair-scheduler from the $10 plan
 * (weights = slots: 6 and 4), yarn-fair and capacity from the cheapest plan
 * (3 and 2 slots of 5: capacities 60.00 and 40.00, maxima the same). */
static void test_golden(void)
{
    static const struct {
        int format;
        double budget;
        long point;
        const char *file;
    } cases[] = {
        {SO_HC_FAIR, 10, 0, "tests/corpus/hadoop/fair-scheduler.xml"},
        {SO_HC_YARN_FAIR, -1, 1, "tests/corpus/hadoop/yarn-fair.xml"},
        {SO_HC_CAPACITY, -1, 1, "tests/corpus/hadoop/capacity-scheduler.xml"},
    };
    for (int i = 0; i < 3; i++) {
        long chosen = -2;
        char *text = export_text(PLAN, cases[i].format, cases[i].budget, INFINITY, &chosen);
        char *golden = so_test_slurp(cases[i].file);
        CU_ASSERT_PTR_NOT_NULL_FATAL(golden);
        CU_ASSERT_EQUAL(chosen, cases[i].point);
        CU_ASSERT_STRING_EQUAL(text, golden);
        free(text);
        free(golden);
    }
}

/* The text of the node at an XPath (caller frees), NULL if absent. */
static char *xpath_text(xmlDocPtr doc, const char *expr)
{
    xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
    xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, ctx);
    char *s = NULL;
    if (o && o->nodesetval && o->nodesetval->nodeNr == 1) {
        xmlChar *c = xmlNodeGetContent(o->nodesetval->nodeTab[0]);
        s = strdup((const char *)c);
        xmlFree(c);
    }
    xmlXPathFreeObject(o);
    xmlXPathFreeContext(ctx);
    return s;
}

static long xpath_count(xmlDocPtr doc, const char *expr)
{
    xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
    xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, ctx);
    long n = o && o->nodesetval ? o->nodesetval->nodeNr : -1;
    xmlXPathFreeObject(o);
    xmlXPathFreeContext(ctx);
    return n;
}

static xmlDocPtr parse(const char *text)
{
    return xmlReadMemory(text, (int)strlen(text), "conf.xml", NULL,
                         XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
}

static int64_t xpath_int(xmlDocPtr doc, const char *expr)
{
    char *s = xpath_text(doc, expr);
    int64_t v = s ? strtoll(s, NULL, 10) : -1;
    free(s);
    return v;
}

/* Every element is one Hadoop reads: no other child names appear. */
static void test_well_formed(void)
{
    char *fair = export_text(PLAN, SO_HC_FAIR, 10, INFINITY, NULL);
    xmlDocPtr d = parse(fair);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(xpath_count(d, "/allocations/pool"), 2);
    CU_ASSERT_EQUAL(xpath_count(d, "/allocations/pool/*[not(self::minMaps or self::minReduces"
                                   " or self::maxMaps or self::maxReduces or self::weight"
                                   " or self::schedulingMode)]"), 0);
    CU_ASSERT_EQUAL(xpath_int(d, "/allocations/pool[@name='job0']/minMaps"), 4);
    CU_ASSERT_EQUAL(xpath_int(d, "/allocations/pool[@name='job0']/maxReduces"), 2);
    CU_ASSERT_EQUAL(xpath_int(d, "/allocations/pool[@name='job1']/minReduces"), 2);
    CU_ASSERT_EQUAL(xpath_int(d, "/allocations/pool[@name='job1']/weight"), 4);
    xmlFreeDoc(d);
    free(fair);

    char *yarn = export_text(PLAN, SO_HC_YARN_FAIR, -1, 150, NULL);
    d = parse(yarn);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(xpath_count(d, "/allocations/queue"), 2);
    CU_ASSERT_EQUAL(xpath_count(d, "/allocations/queue/*[not(self::minResources or"
                                   " self::maxResources or self::weight or"
                                   " self::schedulingPolicy)]"), 0);
    char *s = xpath_text(d, "/allocations/queue[@name='job0']/minResources");
    CU_ASSERT_STRING_EQUAL(s, "6144 mb, 6 vcores"); /* 4 + 2 slots of 1024 MiB */
    free(s);
    s = xpath_text(d, "/allocations/queue[@name='job1']/schedulingPolicy");
    CU_ASSERT_STRING_EQUAL(s, "fair");
    free(s);
    xmlFreeDoc(d);
    free(yarn);

    char *cap = export_text(PLAN, SO_HC_CAPACITY, 10, INFINITY, NULL);
    d = parse(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    s = xpath_text(d, "/configuration/property[name='yarn.scheduler.capacity.root.queues']/value");
    CU_ASSERT_STRING_EQUAL(s, "job0,job1");
    free(s);
    /* 6 and 4 of 10 slots */
    s = xpath_text(d, "/configuration/property[name='yarn.scheduler.capacity.root.job0.capacity']/value");
    CU_ASSERT_STRING_EQUAL(s, "60.00");
    free(s);
    s = xpath_text(d, "/configuration/property[name='yarn.scheduler.capacity.root.job1.maximum-capacity']/value");
    CU_ASSERT_STRING_EQUAL(s, "40.00");
    free(s);
    CU_ASSERT_EQUAL(xpath_count(d, "/configuration/property"), 5);
    xmlFreeDoc(d);
    free(cap);
}

/* A FLEX allocation (random instances, the flex backend): the slot counts
 * written are read back equal, and capacities sum to exactly 100. */
static void test_flex_round_trip(void)
{
    so_rng rng_s, *rng = &rng_s;
    so_rng_seed(rng, 14);
    for (int it = 0; it < 5; it++) {
        so_flex *f = so_test_flex_random(rng, 6, 12, 2, SO_FLEX_RESPONSE, SO_FLEX_SUM);
        so_problem *p = NULL;
        CU_ASSERT_EQUAL_FATAL(so_flex_problem(f, "rt", &p), SO_OK);
        so_result *r = NULL;
        so_error err;
        CU_ASSERT_EQUAL_FATAL(so_solve(so_backend_find("flex"), p, NULL, &r, &err), SO_FEASIBLE);
        json_t *rj = so_result_to_json(r);
        const json_t *alloc = json_object_get(so_result_solution(r), "allocation");
        CU_ASSERT_EQUAL_FATAL(json_array_size(alloc), 6);
        so_plan_choice c = {-1, INFINITY, 2048};
        so_hc_shares s;
        CU_ASSERT_EQUAL_FATAL(so_export_shares(rj, p, &c, &s, NULL, &err), SO_OK);
        CU_ASSERT_EQUAL(s.cluster_slots, 24);
        char *fair = NULL, *cap = NULL;
        CU_ASSERT_EQUAL(so_hc_write(&s, SO_HC_FAIR, &fair, &err), SO_OK);
        CU_ASSERT_EQUAL(so_hc_write(&s, SO_HC_CAPACITY, &cap, &err), SO_OK);
        xmlDocPtr d = parse(fair), dc = parse(cap);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        CU_ASSERT_PTR_NOT_NULL_FATAL(dc);
        double total = 0;
        for (size_t j = 0; j < 6; j++) {
            char q[200];
            int64_t want = (int64_t)json_integer_value(json_array_get(alloc, j));
            const char *keys[] = {"minMaps", "maxMaps", "minReduces", "maxReduces"};
            for (int k = 0; k < 4; k++) {
                snprintf(q, sizeof q, "/allocations/pool[@name='job%zu']/%s", j, keys[k]);
                CU_ASSERT_EQUAL(xpath_int(d, q), want);
            }
            snprintf(q, sizeof q, "/configuration/property[name="
                     "'yarn.scheduler.capacity.root.job%zu.capacity']/value", j);
            char *v = xpath_text(dc, q);
            CU_ASSERT_PTR_NOT_NULL_FATAL(v);
            total += strtod(v, NULL);
            free(v);
        }
        CU_ASSERT_DOUBLE_EQUAL(total, 100, 1e-9);
        xmlFreeDoc(d);
        xmlFreeDoc(dc);
        free(fair);
        free(cap);
        free(s.pools);
        json_decref(rj);
        so_result_free(r);
        so_problem_free(p);
    }
}

/* A WPBS-style list: weights only. Capacities follow the weights (1:2:1),
 * no slot elements are written. */
static void test_weights_only(void)
{
    const char *names[] = {"etl", "adhoc", "report"};
    const double w[] = {1, 2, 1};
    so_hc_pool pools[3];
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_hc_shares_from_weights(3, names, w, pools, &err), SO_OK);
    so_hc_shares s = {3, pools, 100, 1024};
    char *cap = NULL, *fair = NULL;
    CU_ASSERT_EQUAL_FATAL(so_hc_write(&s, SO_HC_CAPACITY, &cap, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(so_hc_write(&s, SO_HC_FAIR, &fair, &err), SO_OK);
    xmlDocPtr d = parse(cap), df = parse(fair);
    char *v = xpath_text(d, "/configuration/property[name='yarn.scheduler.capacity.root.adhoc.capacity']/value");
    CU_ASSERT_STRING_EQUAL(v, "50.00");
    free(v);
    v = xpath_text(d, "/configuration/property[name='yarn.scheduler.capacity.root.etl.maximum-capacity']/value");
    CU_ASSERT_STRING_EQUAL(v, "100.00");
    free(v);
    CU_ASSERT_EQUAL(xpath_count(df, "//minMaps | //maxMaps"), 0);
    CU_ASSERT_EQUAL(xpath_int(df, "/allocations/pool[@name='adhoc']/weight"), 2);
    xmlFreeDoc(d);
    xmlFreeDoc(df);
    free(cap);
    free(fair);
    /* thirds: 33.34 + 33.33 + 33.33 = 100 */
    const double eq[] = {1, 1, 1};
    so_hc_shares_from_weights(3, names, eq, pools, &err);
    CU_ASSERT_EQUAL_FATAL(so_hc_write(&s, SO_HC_CAPACITY, &cap, &err), SO_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(cap, "<value>33.34</value>"));
    free(cap);
}

static void test_bad_shares(void)
{
    const char *names[] = {"a", "a"};
    const double w[] = {1, 1};
    so_hc_pool pools[2];
    so_error err;
    char *text = NULL;
    so_hc_shares_from_weights(2, names, w, pools, &err);
    so_hc_shares s = {2, pools, 10, 1024};
    CU_ASSERT_EQUAL(so_hc_write(&s, SO_HC_FAIR, &text, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "name");
    strcpy(pools[1].name, "b<c");
    CU_ASSERT_EQUAL(so_hc_write(&s, SO_HC_FAIR, &text, &err), SO_EINVAL);
    strcpy(pools[1].name, "b");
    pools[1].weight = 0;
    CU_ASSERT_EQUAL(so_hc_write(&s, SO_HC_FAIR, &text, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "weight");
    pools[1].weight = 1;
    pools[1].min_maps = 3;
    pools[1].max_maps = 2;
    CU_ASSERT_EQUAL(so_hc_write(&s, SO_HC_FAIR, &text, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "slots");
    pools[1].max_maps = 3;
    s.cluster_slots = 0;
    CU_ASSERT_EQUAL(so_hc_write(&s, SO_HC_CAPACITY, &text, &err), SO_EINVAL);
    CU_ASSERT_PTR_NULL(text);
}

static void test_cli(void)
{
    char *out = NULL, *err = NULL;
    /* two-jobs.json has no deadline: the cheapest point (40, 56), one map
     * and one reduce slot per job; budget 62 picks (22.5, 61) */
    CU_ASSERT_EQUAL(so_test_run("export --format fair-scheduler instances/pareto/two-jobs.json",
                                &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "<pool name=\"A\">"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "<maxMaps>1</maxMaps>"));
    free(out);
    free(err);
    const char *path = so_test_write("plan.json", PLAN);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "export --format capacity-scheduler --opt budget=10 %s", path);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "<value>60.00</value>"));
    free(out);
    free(err);
    snprintf(cmd, sizeof cmd, "export --format yarn-fair --opt budget=5 %s", path);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "budget"));
    CU_ASSERT_STRING_EQUAL(out, "");
    free(out);
    free(err);
    snprintf(cmd, sizeof cmd, "export --format yarn-fair --opt speed=5 %s", path);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "speed=5"));
    free(out);
    free(err);
    const char *ras = so_test_write("ras-result.json",
                                    "{\"problem\": \"ras\", \"status\": \"optimal\", \"solution\": {}}");
    snprintf(cmd, sizeof cmd, "export --format fair-scheduler %s", ras);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "pareto or flex"));
    free(out);
    free(err);
}

static CU_TestInfo tests[] = {
    {"plan chosen by budget or deadline", test_select},
    {"golden files from a hand-made plan", test_golden},
    {"well-formed, only the elements Hadoop reads (libxml2)", test_well_formed},
    {"FLEX allocation round-trips", test_flex_round_trip},
    {"weight-only (WPBS-style) shares", test_weights_only},
    {"bad shares", test_bad_shares},
    {"slotopt export --format fair-scheduler|yarn-fair|capacity-scheduler", test_cli},
    CU_TEST_INFO_NULL,
};
SO_SUITE("hadoop_export", tests)
