/* test_hadoop_export.c — Hadoop scheduler configuration from plans
 * (tools/export/hadoop_conf.c, tools/export/export_plan.c, `slotopt export --format
 * fair-scheduler|yarn-fair|capacity-scheduler`): golden files from a
 * hand-made Pareto plan, every file parsed back with libxml2 and its
 * documented elements checked, a FLEX allocation's slot counts round-trip,
 * a weight-only (WPBS-style) share list, names Hadoop accepts (a period
 * written _dot_ in YARN, collisions and root refused), the capacity
 * scheduler's default queue and user-limit-factor, ApplicationMaster
 * containers, routing, Hadoop's own rules (tests/tools/hadoop_rules.c) on
 * every golden file, on broken copies and on random exports, and the
 * error paths. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include "tests/test_util.h"
#include "tests/flex_test_util.h"
#include "tests/tools/hadoop_rules.h"
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
    so_plan_choice c = {budget, deadline, 1024, 1536, 1024}; /* Hadoop's defaults */
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
    /* 4 + 2 slots of 1024 MiB, an AM of 1536 MiB allocated as 2048 */
    CU_ASSERT_STRING_EQUAL(s, "8192 mb, 7 vcores");
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
    CU_ASSERT_STRING_EQUAL(s, "job0,job1,default");
    free(s);
    /* 6 and 4 slots of 1024 MiB and an AM of 2048 each: 8192 and 6144 MiB
     * of 14336, 57.1429 and 42.8571 % (the odd hundredth to the larger
     * remainder) */
    s = xpath_text(d, "/configuration/property[name='yarn.scheduler.capacity.root.job0.capacity']/value");
    CU_ASSERT_STRING_EQUAL(s, "57.14");
    free(s);
    s = xpath_text(d, "/configuration/property[name='yarn.scheduler.capacity.root.job1.maximum-capacity']/value");
    CU_ASSERT_STRING_EQUAL(s, "42.86");
    free(s);
    /* 2 queues x (capacity, maximum-capacity, maximum-am-resource-percent),
     * default's two, root.queues */
    CU_ASSERT_EQUAL(xpath_count(d, "/configuration/property"), 9);
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
        so_plan_choice c = {-1, INFINITY, 2048, 1536, 1024};
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
    so_hc_shares s = {3, pools, 100, 1024, 0, 0};
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

/* Names (YARN AllocationFileQueueParser.loadQueue refuses a period, an
 * empty name, and a top-level "root" beside other queues; the Capacity
 * Scheduler reads '.' as its path separator): a period becomes "_dot_" in
 * the YARN formats, as YARN's own user placement rule does, and stays in
 * MRv1, whose PoolManager takes any name; two pools meeting on one YARN
 * name, "root", empty names and blanks are refused. */
static char *write_names(const char *a, const char *b, int format, int *rc, so_error *err)
{
    const char *names[] = {a, b};
    const double w[] = {1, 3};
    so_hc_pool pools[2];
    char *text = NULL;
    CU_ASSERT_EQUAL_FATAL(so_hc_shares_from_weights(2, names, w, pools, err), SO_OK);
    so_hc_shares s = {2, pools, 8, 1024, 0, 0};
    *rc = so_hc_write(&s, format, &text, err);
    return text;
}

static void test_names(void)
{
    so_error err;
    int rc;
    char *t = write_names("john.doe", "alice", SO_HC_FAIR, &rc, &err);
    CU_ASSERT_EQUAL(rc, SO_OK);
    CU_ASSERT_PTR_NOT_NULL(t ? strstr(t, "<pool name=\"john.doe\">") : NULL);
    free(t);
    t = write_names("john.doe", "alice", SO_HC_YARN_FAIR, &rc, &err);
    CU_ASSERT_EQUAL(rc, SO_OK);
    CU_ASSERT_PTR_NOT_NULL(t ? strstr(t, "<queue name=\"john_dot_doe\">") : NULL);
    CU_ASSERT_PTR_NULL(t ? strstr(t, "john.doe") : "");
    free(t);
    t = write_names("john.doe", "alice", SO_HC_CAPACITY, &rc, &err);
    CU_ASSERT_EQUAL(rc, SO_OK);
    CU_ASSERT_PTR_NOT_NULL(t ? strstr(t, "yarn.scheduler.capacity.root.john_dot_doe.capacity") : NULL);
    CU_ASSERT_PTR_NULL(t ? strstr(t, "root.john.doe") : "");
    free(t);
    /* two pools, one YARN name: refused naming both; MRv1 keeps them apart */
    for (int f = SO_HC_YARN_FAIR; f <= SO_HC_CAPACITY; f++) {
        t = write_names("a.b", "a_dot_b", f, &rc, &err);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        CU_ASSERT_PTR_NULL(t);
        CU_ASSERT_STRING_EQUAL(err.key, "name");
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'a.b'"));
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'a_dot_b'"));
        free(t);
        t = write_names("alice", "Root", f, &rc, &err);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "root"));
        free(t);
    }
    t = write_names("a.b", "a_dot_b", SO_HC_FAIR, &rc, &err);
    CU_ASSERT_EQUAL(rc, SO_OK);
    free(t);
    t = write_names("root", "alice", SO_HC_FAIR, &rc, &err);
    CU_ASSERT_EQUAL(rc, SO_OK);
    free(t);
    for (int f = SO_HC_FAIR; f <= SO_HC_CAPACITY; f++) {
        t = write_names("", "alice", f, &rc, &err);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        free(t);
        t = write_names("bob smith", "alice", f, &rc, &err);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        free(t);
        t = write_names("tab\tx", "alice", f, &rc, &err);
        CU_ASSERT_EQUAL(rc, SO_EINVAL);
        free(t);
    }
}

/* Jobs routed nowhere go to the queue "default", and the Capacity Scheduler
 * refuses a job for a queue it does not have: the file always has one,
 * of capacity 0 (its jobs run on what the pools leave idle) and
 * maximum-capacity 100, unless a pool is named default. */
static char *cap_value(xmlDocPtr d, const char *queue, const char *what)
{
    char q[300];
    snprintf(q, sizeof q, "/configuration/property[name='yarn.scheduler.capacity.root.%s%s%s']/value",
             queue, *queue ? "." : "", what);
    return xpath_text(d, q);
}

static void test_default_queue(void)
{
    const char *names[] = {"etl", "adhoc"};
    const double w[] = {1, 3};
    so_hc_pool pools[2];
    so_error err;
    char *text = NULL;
    CU_ASSERT_EQUAL_FATAL(so_hc_shares_from_weights(2, names, w, pools, &err), SO_OK);
    so_hc_shares s = {2, pools, 8, 1024, 0, 0};
    CU_ASSERT_EQUAL_FATAL(so_hc_write(&s, SO_HC_CAPACITY, &text, &err), SO_OK);
    xmlDocPtr d = parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    char *v = cap_value(d, "", "queues");
    CU_ASSERT_STRING_EQUAL(v, "etl,adhoc,default");
    free(v);
    const char *want[][3] = {{"etl", "25.00", "100.00"}, {"adhoc", "75.00", "100.00"},
                             {"default", "0.00", "100.00"}};
    for (int i = 0; i < 3; i++) {
        v = cap_value(d, want[i][0], "capacity");
        CU_ASSERT_STRING_EQUAL(v ? v : "", want[i][1]);
        free(v);
        v = cap_value(d, want[i][0], "maximum-capacity");
        CU_ASSERT_STRING_EQUAL(v ? v : "", want[i][2]);
        free(v);
    }
    /* one user alone in a queue may take capacity x user-limit-factor
     * (default 1; UsersManager.computeUserLimit): the factor lets it reach
     * the maximum-capacity, 100 / 25 = 4 and 100 / 75 = 1.3334 rounded up;
     * a 0 % queue is held by its maximum-capacity instead */
    v = cap_value(d, "etl", "user-limit-factor");
    CU_ASSERT_STRING_EQUAL(v ? v : "", "4.00");
    free(v);
    v = cap_value(d, "adhoc", "user-limit-factor");
    CU_ASSERT_STRING_EQUAL(v ? v : "", "1.34");
    free(v);
    CU_ASSERT_PTR_NULL(strstr(text, "default.user-limit-factor"));
    xmlFreeDoc(d);
    free(text);
    /* a pool named default is the default queue */
    strcpy(pools[1].name, "default");
    CU_ASSERT_EQUAL_FATAL(so_hc_write(&s, SO_HC_CAPACITY, &text, &err), SO_OK);
    d = parse(text);
    v = cap_value(d, "", "queues");
    CU_ASSERT_STRING_EQUAL(v, "etl,default");
    free(v);
    v = cap_value(d, "default", "capacity");
    CU_ASSERT_STRING_EQUAL(v ? v : "", "75.00");
    free(v);
    xmlFreeDoc(d);
    free(text);
}

/* The MapReduce ApplicationMaster: every running job holds one container of
 * yarn.app.mapreduce.am.resource.mb (1536 MiB by default) and 1 vcore
 * besides its tasks. By hand: pool a, 1 map slot and one job; pool b, 2 + 2
 * slots and two jobs; slots of 1024 MiB.
 *   YARN: a 1024 + 1536 = 2560 MiB, 2 vcores, of which the AM is 0.6 > the
 *   default maxAMShare 0.5, so maxAMShare 0.60; b 4096 + 3072 = 7168 MiB,
 *   6 vcores, AM share 0.43: nothing written.
 *   Capacity: cluster 5 x 1024 + 3 x 1536 = 9728 MiB; a 2560 / 9728 =
 *   26.3158 %, b 73.6842 % -> 26.32 and 73.68 (larger remainder); maxima
 *   26.32 and 73.69 (rounded up); maximum-am-resource-percent (default 0.1)
 *   1536 / (0.2632 x 9728) = 0.5999 -> 0.60 and 3072 / (0.7368 x 9728) =
 *   0.4286 -> 0.43. */
static void test_am_containers(void)
{
    so_hc_pool pools[2] = {
        {.name = "a", .min_maps = 1, .max_maps = 1, .weight = 1, .ams = 1},
        {.name = "b", .min_maps = 2, .min_reduces = 2, .max_maps = 2, .max_reduces = 2,
         .weight = 2, .ams = 2},
    };
    so_hc_shares s = {2, pools, 5, 1024, 1536, 0};
    so_error err;
    char *yarn = NULL, *cap = NULL, *fair = NULL;
    CU_ASSERT_EQUAL_FATAL(so_hc_write(&s, SO_HC_YARN_FAIR, &yarn, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(so_hc_write(&s, SO_HC_CAPACITY, &cap, &err), SO_OK);
    CU_ASSERT_EQUAL_FATAL(so_hc_write(&s, SO_HC_FAIR, &fair, &err), SO_OK);
    xmlDocPtr d = parse(yarn), dc = parse(cap), df = parse(fair);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dc);
    const char *want[][2] = {
        {"/allocations/queue[@name='a']/minResources", "2560 mb, 2 vcores"},
        {"/allocations/queue[@name='a']/maxResources", "2560 mb, 2 vcores"},
        {"/allocations/queue[@name='a']/maxAMShare", "0.60"},
        {"/allocations/queue[@name='b']/minResources", "7168 mb, 6 vcores"},
        {"/allocations/queue[@name='b']/maxResources", "7168 mb, 6 vcores"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char *v = xpath_text(d, want[i][0]);
        CU_ASSERT_STRING_EQUAL(v ? v : "", want[i][1]);
        free(v);
    }
    CU_ASSERT_EQUAL(xpath_count(d, "/allocations/queue[@name='b']/maxAMShare"), 0);
    const char *wcap[][3] = {{"a", "capacity", "26.32"},
                             {"a", "maximum-capacity", "26.32"},
                             {"a", "maximum-am-resource-percent", "0.60"},
                             {"b", "capacity", "73.68"},
                             {"b", "maximum-capacity", "73.69"},
                             {"b", "maximum-am-resource-percent", "0.43"}};
    for (size_t i = 0; i < sizeof wcap / sizeof wcap[0]; i++) {
        char *v = cap_value(dc, wcap[i][0], wcap[i][1]);
        CU_ASSERT_STRING_EQUAL(v ? v : "", wcap[i][2]);
        free(v);
    }
    /* MRv1 has no ApplicationMaster */
    CU_ASSERT_EQUAL(xpath_int(df, "/allocations/pool[@name='a']/minMaps"), 1);
    CU_ASSERT_EQUAL(xpath_int(df, "/allocations/pool[@name='b']/maxReduces"), 2);
    xmlFreeDoc(d);
    xmlFreeDoc(dc);
    xmlFreeDoc(df);
    free(yarn);
    free(cap);
    free(fair);
    /* YARN allocates in multiples of yarn.scheduler.minimum-allocation-mb
     * (capacity) / increment-allocation-mb (fair), 1024 by default: the
     * AM of 1536 takes 2048, pool a 1024 + 2048 = 3072 MiB, AM share
     * 2048 / 3072 = 0.667 -> 0.67 */
    s.alloc_mb = 1024;
    CU_ASSERT_EQUAL_FATAL(so_hc_write(&s, SO_HC_YARN_FAIR, &yarn, &err), SO_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(yarn, "<minResources>3072 mb, 2 vcores</minResources>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(yarn, "<maxAMShare>0.67</maxAMShare>"));
    free(yarn);
    s.alloc_mb = -1;
    CU_ASSERT_EQUAL(so_hc_write(&s, SO_HC_YARN_FAIR, &yarn, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "alloc_mb");
    s.alloc_mb = 0;
    /* am_mb 0: AMs not counted, the files of before */
    s.am_mb = 0;
    CU_ASSERT_EQUAL_FATAL(so_hc_write(&s, SO_HC_YARN_FAIR, &yarn, &err), SO_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(yarn, "<minResources>1024 mb, 1 vcores</minResources>"));
    CU_ASSERT_PTR_NULL(strstr(yarn, "maxAMShare"));
    free(yarn);
    s.am_mb = -1;
    CU_ASSERT_EQUAL(so_hc_write(&s, SO_HC_YARN_FAIR, &yarn, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "am_mb");
    s.am_mb = 1536;
    pools[1].ams = -2;
    CU_ASSERT_EQUAL(so_hc_write(&s, SO_HC_YARN_FAIR, &yarn, &err), SO_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.key, "ams");
}

/* Routing (docs/hadoop-export.md): YARN fair gets a queuePlacementPolicy:
 * the queue a job names if the file has it, else (pools per user) the
 * user's queue if the file has it, else "default"; the capacity scheduler
 * maps each user to its queue (yarn.scheduler.capacity.queue-mappings),
 * skipping a user name the mapping syntax cannot hold. */
static void test_routing(void)
{
    char *yarn = export_text(PLAN, SO_HC_YARN_FAIR, -1, INFINITY, NULL);
    xmlDocPtr d = parse(yarn);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(xpath_count(d, "/allocations/queuePlacementPolicy/rule"), 2);
    CU_ASSERT_EQUAL(xpath_count(d, "/allocations/queuePlacementPolicy/rule[1]"
                                   "[@name='specified' and @create='false']"), 1);
    CU_ASSERT_EQUAL(xpath_count(d, "/allocations/queuePlacementPolicy/rule[2][@name='default']"),
                    1);
    xmlFreeDoc(d);
    free(yarn);
    char *cap = export_text(PLAN, SO_HC_CAPACITY, -1, INFINITY, NULL);
    CU_ASSERT_PTR_NULL(strstr(cap, "queue-mappings")); /* pools per job: no user */
    free(cap);

    const char *names[] = {"john.doe", "alice", "bob_smith"};
    const char *users[] = {"john.doe", "alice", "bob smith"};
    const double w[] = {1, 2, 3};
    so_hc_pool pools[3];
    so_error err;
    CU_ASSERT_EQUAL_FATAL(so_hc_shares_from_weights(3, names, w, pools, &err), SO_OK);
    for (int i = 0; i < 3; i++)
        strcpy(pools[i].user, users[i]);
    so_hc_shares s = {3, pools, 12, 1024, 0, 0};
    CU_ASSERT_EQUAL_FATAL(so_hc_write(&s, SO_HC_YARN_FAIR, &yarn, &err), SO_OK);
    d = parse(yarn);
    CU_ASSERT_EQUAL(xpath_count(d, "/allocations/queuePlacementPolicy/rule"), 3);
    CU_ASSERT_EQUAL(xpath_count(d, "/allocations/queuePlacementPolicy/rule[2]"
                                   "[@name='user' and @create='false']"), 1);
    CU_ASSERT_EQUAL(xpath_count(d, "/allocations/queuePlacementPolicy/rule[3][@name='default']"),
                    1);
    xmlFreeDoc(d);
    free(yarn);
    CU_ASSERT_EQUAL_FATAL(so_hc_write(&s, SO_HC_CAPACITY, &cap, &err), SO_OK);
    d = parse(cap);
    char *v = xpath_text(d, "/configuration/property[name='yarn.scheduler.capacity.queue-mappings']/value");
    CU_ASSERT_STRING_EQUAL(v ? v : "", "u:john.doe:john_dot_doe,u:alice:alice");
    free(v);
    xmlFreeDoc(d);
    free(cap);
}

/* ---- Hadoop's rules (tests/tools/hadoop_rules.c) ---- */

static int format_of_file(const char *name)
{
    if (strstr(name, "capacity-scheduler"))
        return SO_HC_CAPACITY;
    if (strstr(name, "yarn-fair"))
        return SO_HC_YARN_FAIR;
    if (strstr(name, "fair-scheduler"))
        return SO_HC_FAIR;
    return 0;
}

/* An assertion that names the file and the broken rule when it fails. */
static void assert_valid(const char *text, int format, const char *what)
{
    char why[400], msg[600];
    int bad = so_test_hadoop_check(text, format, why, sizeof why);
    snprintf(msg, sizeof msg, "%s: %s", what, why);
    CU_assertImplementation(!bad, __LINE__, msg, __FILE__, "", CU_FALSE);
}

/* Every golden file keeps Hadoop's rules for its format. */
static void test_rules_golden(void)
{
    DIR *dir = opendir("tests/corpus/hadoop");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    int seen[4] = {0};
    struct dirent *e;
    while ((e = readdir(dir))) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 4, ".xml"))
            continue;
        int f = format_of_file(e->d_name);
        CU_ASSERT(f != 0); /* every golden file names its format */
        char path[600];
        snprintf(path, sizeof path, "tests/corpus/hadoop/%s", e->d_name);
        char *text = so_test_slurp(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        assert_valid(text, f, path);
        seen[f]++;
        free(text);
    }
    closedir(dir);
    /* the plan, WPBS and WPBS-with-periods files of each format */
    for (int f = SO_HC_FAIR; f <= SO_HC_CAPACITY; f++)
        CU_ASSERT(seen[f] >= 3);
}

/* The rules fail where Hadoop would: one broken rule per case, on a copy
 * of a golden file. */
static char *replace_once(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at)
        return NULL;
    size_t a = (size_t)(at - text);
    char *out = malloc(strlen(text) + strlen(to) + 1);
    memcpy(out, text, a);
    strcpy(out + a, to);
    strcat(out, at + strlen(from));
    return out;
}

static void test_rules_catch(void)
{
    static const struct {
        const char *file, *from, *to, *why;
    } cases[] = {
        {"wpbs-users-yarn-fair.xml", "name=\"john_dot_doe\"", "name=\"john.doe\"", "period"},
        {"wpbs-users-yarn-fair.xml", "name=\"alice\"", "name=\"Root\"", "root"},
        {"wpbs-users-yarn-fair.xml", "name=\"alice\"", "name=\"al ice\"", "blank"},
        {"wpbs-users-yarn-fair.xml", "name=\"alice\"", "name=\"\"", "without a name"},
        {"wpbs-users-yarn-fair.xml", "name=\"alice\"", "name=\"john_dot_doe\"", "twice"},
        {"wpbs-users-yarn-fair.xml", "<weight>5</weight>", "<weight>0</weight>", "weight"},
        {"wpbs-users-yarn-fair.xml", "<schedulingPolicy>fifo", "<schedulingPolicy>lottery",
         "schedulingPolicy"},
        {"wpbs-users-yarn-fair.xml", "7168 mb, 6 vcores", "7168 MB", "X mb, Y vcores"},
        {"wpbs-users-yarn-fair.xml", "<weight>5</weight>",
         "<maxAMShare>1.5</maxAMShare><weight>5</weight>", "maxAMShare"},
        {"wpbs-users-yarn-fair.xml", "<rule name=\"default\"/>", "<rule name=\"user\" create=\"false\"/>",
         "may continue"},
        {"wpbs-users-yarn-fair.xml", "<rule name=\"default\"/>", "<rule name=\"dfault\"/>",
         "unknown"},
        {"yarn-fair.xml", "<maxResources>5120 mb, 4 vcores", "<maxResources>4096 mb, 4 vcores",
         "minResources above"},
        {"fair-scheduler.xml", "<minMaps>4</minMaps>", "<minMaps>-4</minMaps>", "count"},
        {"fair-scheduler.xml", "<maxMaps>4</maxMaps>", "<maxMaps>3</maxMaps>", "above"},
        {"fair-scheduler.xml", "<schedulingMode>fair", "<schedulingMode>drf", "schedulingMode"},
        {"fair-scheduler.xml", "<weight>6</weight>", "<weight>-1</weight>", "weight"},
        {"fair-scheduler.xml", "pool name=\"job0\"", "pool name=\"job1\"", "twice"},
        {"fair-scheduler.xml", "<weight>6</weight>", "<maxMap>1</maxMap>", "not a pool element"},
        {"capacity-scheduler.xml", "<value>55.56</value>", "<value>55.55</value>", "sum to"},
        {"capacity-scheduler.xml", "job0,job1,default", "job0,job1", "default"},
        {"capacity-scheduler.xml", "job0,job1,default", "job.0,job1,default", "period"},
        {"capacity-scheduler.xml", "root.job1.maximum-capacity</name>\n    <value>44.45",
         "root.job1.maximum-capacity</name>\n    <value>40.00", "above maximum-capacity"},
        {"capacity-scheduler.xml", "am-resource-percent</name>\n    <value>0.40",
         "am-resource-percent</name>\n    <value>40", "(0, 1]"},
        {"capacity-scheduler.xml", "root.job0.capacity<", "root.job0.capacty<", "key"},
        {"wpbs-users-capacity-scheduler.xml", "u:alice:alice", "u:alice:alicia", "mapping"},
        {"wpbs-users-capacity-scheduler.xml", "u:alice:alice", "x:alice:alice", "mapping"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[300], why[400];
        snprintf(path, sizeof path, "tests/corpus/hadoop/%s", cases[i].file);
        char *golden = so_test_slurp(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(golden);
        char *bad = replace_once(golden, cases[i].from, cases[i].to);
        CU_ASSERT_PTR_NOT_NULL_FATAL(bad); /* the case still matches its file */
        CU_ASSERT_EQUAL(so_test_hadoop_check(bad, format_of_file(cases[i].file), why,
                                             sizeof why), 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(why, cases[i].why));
        free(bad);
        free(golden);
    }
}

/* Random shares (names with periods, unset and pinned counts, AMs, users)
 * are written in every format within Hadoop's rules. */
static void test_rules_random(void)
{
    so_rng rng;
    so_rng_seed(&rng, 29);
    for (int it = 0; it < 300; it++) {
        size_t n = (size_t)so_rng_int(&rng, 1, 6);
        so_hc_pool pools[6];
        memset(pools, 0, sizeof pools);
        int64_t slots = 0;
        for (size_t i = 0; i < n; i++) {
            so_hc_pool *p = &pools[i];
            int pick = (int)so_rng_int(&rng, 0, 3);
            if (pick == 3 && i == 0)
                strcpy(p->name, "default");
            else
                snprintf(p->name, sizeof p->name, pick ? "u%zu.x%d" : "pool%zu-%d", i, pick);
            if (so_rng_int(&rng, 0, 1))
                strcpy(p->user, p->name);
            int pinned = (int)so_rng_int(&rng, 0, 2);
            p->min_maps = pinned ? so_rng_int(&rng, 0, 5) : SO_HC_UNSET;
            p->min_reduces = pinned ? so_rng_int(&rng, 0, 3) : SO_HC_UNSET;
            p->max_maps = pinned == 2 ? p->min_maps + so_rng_int(&rng, 0, 2) : SO_HC_UNSET;
            p->max_reduces = pinned == 2 ? p->min_reduces + so_rng_int(&rng, 0, 2) : SO_HC_UNSET;
            p->weight = 0.01 + 10 * so_rng_uniform(&rng);
            p->fifo = (int)so_rng_int(&rng, 0, 1);
            p->ams = so_rng_int(&rng, 0, 3);
            slots += p->max_maps >= 0 ? p->max_maps + p->max_reduces
                     : p->min_maps >= 0 ? p->min_maps + p->min_reduces : 2;
        }
        so_hc_shares s = {n, pools, slots > 0 ? slots : 1, so_rng_int(&rng, 1, 4) * 512,
                          so_rng_int(&rng, 0, 1) * 1536, so_rng_int(&rng, 0, 2) * 512};
        for (int f = SO_HC_FAIR; f <= SO_HC_CAPACITY; f++) {
            char *text = NULL, what[64];
            so_error err;
            CU_ASSERT_EQUAL_FATAL(so_hc_write(&s, f, &text, &err), SO_OK);
            snprintf(what, sizeof what, "random shares %d, format %d", it, f);
            assert_valid(text, f, what);
            free(text);
        }
    }
}

static void test_bad_shares(void)
{
    const char *names[] = {"a", "a"};
    const double w[] = {1, 1};
    so_hc_pool pools[2];
    so_error err;
    char *text = NULL;
    so_hc_shares_from_weights(2, names, w, pools, &err);
    so_hc_shares s = {2, pools, 10, 1024, 0, 0};
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
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "<value>57.14</value>"));
    free(out);
    free(err);
    snprintf(cmd, sizeof cmd, "export --format yarn-fair --opt budget=5 %s", path);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "budget"));
    CU_ASSERT_STRING_EQUAL(out, "");
    free(out);
    free(err);
    /* the cheapest plan, job0: 3 slots of 1024 MiB and an AM: by default
     * 1536 MiB allocated as 2048 (multiples of 1024), alike with
     * am_mb=2048; 1536 with alloc_mb=512 */
    snprintf(cmd, sizeof cmd, "export --format yarn-fair %s", path);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "<minResources>5120 mb, 4 vcores</minResources>"));
    free(out);
    free(err);
    snprintf(cmd, sizeof cmd, "export --format yarn-fair --opt alloc_mb=512 %s", path);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "<minResources>4608 mb, 4 vcores</minResources>"));
    free(out);
    free(err);
    snprintf(cmd, sizeof cmd, "export --format yarn-fair --opt am_mb=2048 %s", path);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "<minResources>5120 mb, 4 vcores</minResources>"));
    free(out);
    free(err);
    snprintf(cmd, sizeof cmd, "export --format yarn-fair --opt am_mb=0 %s", path);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "<minResources>3072 mb, 3 vcores</minResources>"));
    free(out);
    free(err);
    snprintf(cmd, sizeof cmd, "export --format yarn-fair --opt am_mb=-1 %s", path);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "am_mb"));
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
    {"names Hadoop accepts (period, root, blanks, collisions)", test_names},
    {"capacity-scheduler: a default queue", test_default_queue},
    {"ApplicationMaster containers counted (YARN)", test_am_containers},
    {"routing: placement policy, queue mappings", test_routing},
    {"Hadoop's rules hold on every golden file", test_rules_golden},
    {"Hadoop's rules catch each broken rule", test_rules_catch},
    {"Hadoop's rules hold on random exports", test_rules_random},
    {"bad shares", test_bad_shares},
    {"slotopt export --format fair-scheduler|yarn-fair|capacity-scheduler", test_cli},
    CU_TEST_INFO_NULL,
};
SO_SUITE("hadoop_export", tests)
