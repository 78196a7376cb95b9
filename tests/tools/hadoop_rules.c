/* hadoop_rules.c — Hadoop's own rules for the scheduler files of
 * `slotopt export` (tests/tools/hadoop_rules.h), checked on the text
 * parsed back with libxml2. Where each rule comes from:
 *   MRv1 fair-scheduler.xml: Hadoop 1 PoolManager.reloadAllocs (root
 *     <allocations>; pool@name; minMaps, minReduces, maxMaps, maxReduces,
 *     maxRunningJobs read with Integer.parseInt, weight with
 *     Double.parseDouble) and the Hadoop 1 fair scheduler guide
 *     (schedulingMode fair or fifo); a job's pool is its jobconf value
 *     trimmed (PoolManager.getPoolName), so a name with blanks is never
 *     matched.
 *   YARN fair allocation file: AllocationFileQueueParser.loadQueue (name
 *     trimmed, non-empty, no period; a top-level "root" takes no
 *     siblings), FairSchedulerConfiguration.parseResourceConfigValue
 *     ("X mb, Y vcores"), FairScheduler.md (weight, schedulingPolicy
 *     fifo | fair | drf, maxAMShare a fraction or -1, maxRunningApps,
 *     queuePlacementPolicy rules of which the last never continues).
 *   capacity-scheduler.xml: CapacityScheduler.md and
 *     CapacitySchedulerConfiguration (queue paths joined by '.'; at each
 *     level capacities sum to 100; maximum-capacity within [0, 100] or -1
 *     and not below capacity; maximum-am-resource-percent a fraction;
 *     user-limit-factor > 0 or -1; queue-mappings [u|g]:NAME:QUEUE).
 * Beyond Hadoop's letter, the export's own promises: weights > 0 (MRv1
 * and old YARN serve a weight-0 pool last or never), minimum <= maximum,
 * counts non-negative, a queue "default" in capacity-scheduler.xml, and
 * only elements and keys Hadoop reads (a misspelt key is ignored by
 * Hadoop, so it is an error here). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <libxml/parser.h>
#include "tests/tools/hadoop_rules.h"
#include "tools/export/hadoop_conf.h"

typedef struct {
    char *why;
    size_t cap;
} rules;

static int fail(rules *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(rules *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, r->cap, fmt, ap);
    va_end(ap);
    return 1;
}

static int is(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

/* The node's text, malloc'd (never NULL unless out of memory). */
static char *content(xmlNodePtr n)
{
    xmlChar *c = xmlNodeGetContent(n);
    char *s = strdup(c ? (const char *)c : "");
    xmlFree(c);
    return s;
}

static char *attr(xmlNodePtr n, const char *name)
{
    xmlChar *c = xmlGetProp(n, BAD_CAST name);
    char *s = c ? strdup((const char *)c) : NULL;
    xmlFree(c);
    return s;
}

/* Integer.parseInt of a count: digits only, within int, >= 0. */
static int count_of(const char *s, int64_t *v)
{
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 10)
        return 0;
    *v = strtoll(s, NULL, 10);
    return *v <= INT32_MAX;
}

static int number_of(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *s && !*end && !errno && isfinite(*v);
}

/* A queue or pool name: non-empty, no blank anywhere (Hadoop trims the
 * names it matches), and for YARN no period and not "root". */
static int name_ok(rules *r, const char *name, int yarn)
{
    if (!name || !*name)
        return !fail(r, "a %s without a name", yarn ? "queue" : "pool");
    for (const char *c = name; *c; c++)
        if (isspace((unsigned char)*c))
            return !fail(r, "name '%s' has a blank", name);
    if (yarn && strchr(name, '.'))
        return !fail(r, "queue name '%s' has a period (YARN's path separator)", name);
    if (yarn && !strcasecmp(name, "root"))
        return !fail(r, "queue named '%s' beside others (YARN's root queue)", name);
    return 1;
}

/* Names seen so far, for uniqueness. */
typedef struct {
    char **v;
    size_t n;
} names;

static int add_name(rules *r, names *ns, const char *name)
{
    for (size_t i = 0; i < ns->n; i++)
        if (!strcmp(ns->v[i], name))
            return !fail(r, "'%s' named twice", name);
    char **v = realloc(ns->v, (ns->n + 1) * sizeof *v);
    if (!v)
        return !fail(r, "out of memory");
    ns->v = v;
    ns->v[ns->n++] = strdup(name);
    return 1;
}

static void free_names(names *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        free(ns->v[i]);
    free(ns->v);
}

/* ---- MRv1 fair-scheduler.xml ---- */

static int check_pool(rules *r, xmlNodePtr pool, names *ns)
{
    char *name = attr(pool, "name");
    int bad = !name_ok(r, name, 0) || !add_name(r, ns, name);
    static const char *counts[] = {"minMaps", "maxMaps", "minReduces", "maxReduces",
                                   "maxRunningJobs"};
    int64_t v[5] = {-1, -1, -1, -1, -1};
    for (xmlNodePtr f = pool->children; f && !bad; f = f->next) {
        if (f->type != XML_ELEMENT_NODE)
            continue;
        char *t = content(f);
        int k = 0;
        while (k < 5 && !is(f, counts[k]))
            k++;
        double w;
        if (k < 5) {
            if (!count_of(t, &v[k]))
                bad = fail(r, "pool '%s': <%s> '%s' is not a count >= 0", name, counts[k], t);
        } else if (is(f, "weight")) {
            if (!number_of(t, &w) || !(w > 0))
                bad = fail(r, "pool '%s': weight '%s' is not > 0", name, t);
        } else if (is(f, "schedulingMode")) {
            if (strcmp(t, "fair") && strcmp(t, "fifo"))
                bad = fail(r, "pool '%s': schedulingMode '%s' is not fair or fifo", name, t);
        } else {
            bad = fail(r, "pool '%s': <%s> is not a pool element", name, (const char *)f->name);
        }
        free(t);
    }
    for (int k = 0; k < 2 && !bad; k++)
        if (v[2 * k] >= 0 && v[2 * k + 1] >= 0 && v[2 * k] > v[2 * k + 1])
            bad = fail(r, "pool '%s': %s above %s", name, counts[2 * k], counts[2 * k + 1]);
    free(name);
    return bad;
}

static int check_fair(rules *r, xmlNodePtr root)
{
    if (!is(root, "allocations"))
        return fail(r, "root element <%s>, expected <allocations>", (const char *)root->name);
    names ns = {0};
    int bad = 0;
    for (xmlNodePtr c = root->children; c && !bad; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        bad = is(c, "pool") ? check_pool(r, c, &ns)
                            : fail(r, "<%s> is not an MRv1 allocations element",
                                   (const char *)c->name);
    }
    free_names(&ns);
    return bad;
}

/* ---- YARN fair allocation file ---- */

static const char *blanks(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* "N unit" at *s (blanks around), *s moved past it. */
static int amount(const char **s, const char *unit, int64_t *v)
{
    char *end;
    const char *c = blanks(*s);
    if (!isdigit((unsigned char)*c))
        return 0;
    *v = strtoll(c, &end, 10);
    c = blanks(end);
    if (strncmp(c, unit, strlen(unit)))
        return 0;
    *s = blanks(c + strlen(unit));
    return 1;
}

/* "X mb, Y vcores" */
static int resources_of(const char *s, int64_t *mb, int64_t *vc)
{
    if (!amount(&s, "mb", mb) || *s++ != ',')
        return 0;
    return amount(&s, "vcores", vc) && !*s;
}

static int check_queue(rules *r, xmlNodePtr q, names *ns)
{
    char *name = attr(q, "name");
    int bad = !name_ok(r, name, 1) || !add_name(r, ns, name);
    int64_t res[2][2] = {{-1, -1}, {-1, -1}};
    for (xmlNodePtr f = q->children; f && !bad; f = f->next) {
        if (f->type != XML_ELEMENT_NODE)
            continue;
        char *t = content(f);
        double d;
        int64_t n;
        if (is(f, "minResources") || is(f, "maxResources")) {
            int k = is(f, "maxResources");
            if (!resources_of(t, &res[k][0], &res[k][1]))
                bad = fail(r, "queue '%s': <%s> '%s' is not \"X mb, Y vcores\"", name,
                           (const char *)f->name, t);
        } else if (is(f, "weight")) {
            if (!number_of(t, &d) || !(d > 0))
                bad = fail(r, "queue '%s': weight '%s' is not > 0", name, t);
        } else if (is(f, "schedulingPolicy") || is(f, "schedulingMode")) {
            if (strcmp(t, "fifo") && strcmp(t, "fair") && strcmp(t, "drf"))
                bad = fail(r, "queue '%s': schedulingPolicy '%s' is not fifo, fair or drf", name,
                           t);
        } else if (is(f, "maxAMShare")) {
            if (!number_of(t, &d) || !((d > 0 && d <= 1) || d == -1))
                bad = fail(r, "queue '%s': maxAMShare '%s' is not in (0, 1] or -1", name, t);
        } else if (is(f, "maxRunningApps")) {
            if (!count_of(t, &n))
                bad = fail(r, "queue '%s': maxRunningApps '%s' is not a count", name, t);
        } else {
            bad = fail(r, "queue '%s': <%s> is not a queue element this export writes", name,
                       (const char *)f->name);
        }
        free(t);
    }
    if (!bad && res[0][0] >= 0 && res[1][0] >= 0 &&
        (res[0][0] > res[1][0] || res[0][1] > res[1][1]))
        bad = fail(r, "queue '%s': minResources above maxResources", name);
    free(name);
    return bad;
}

static int check_policy(rules *r, xmlNodePtr p)
{
    static const char *valid[] = {"specified", "user", "primaryGroup",
                                  "secondaryGroupExistingQueue", "nestedUserQueue",
                                  "default", "reject"};
    xmlNodePtr last = NULL;
    int bad = 0;
    for (xmlNodePtr c = p->children; c && !bad; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (!is(c, "rule"))
            return fail(r, "<%s> in queuePlacementPolicy", (const char *)c->name);
        char *name = attr(c, "name"), *create = attr(c, "create");
        size_t k = 0;
        while (k < sizeof valid / sizeof valid[0] && !(name && !strcmp(name, valid[k])))
            k++;
        if (k == sizeof valid / sizeof valid[0])
            bad = fail(r, "placement rule '%s' unknown", name ? name : "");
        else if (create && strcmp(create, "true") && strcmp(create, "false"))
            bad = fail(r, "placement rule '%s': create '%s'", name, create);
        free(name);
        free(create);
        last = c;
    }
    if (bad)
        return 1;
    if (!last)
        return fail(r, "an empty queuePlacementPolicy");
    char *name = attr(last, "name"), *create = attr(last, "create");
    /* the last rule never continues: default, reject, or a user or
     * primaryGroup rule that creates its queue */
    int terminal = name && (!strcmp(name, "default") || !strcmp(name, "reject") ||
                            ((!strcmp(name, "user") || !strcmp(name, "primaryGroup")) &&
                             !(create && !strcmp(create, "false"))));
    if (!terminal)
        bad = fail(r, "the last placement rule '%s' may continue", name ? name : "");
    free(name);
    free(create);
    return bad;
}

static int check_yarn(rules *r, xmlNodePtr root)
{
    if (!is(root, "allocations"))
        return fail(r, "root element <%s>, expected <allocations>", (const char *)root->name);
    names ns = {0};
    int bad = 0, policies = 0;
    for (xmlNodePtr c = root->children; c && !bad; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (is(c, "queue") || is(c, "pool"))
            bad = check_queue(r, c, &ns);
        else if (is(c, "queuePlacementPolicy"))
            bad = policies++ ? fail(r, "two queuePlacementPolicy elements")
                             : check_policy(r, c);
        else
            bad = fail(r, "<%s> is not an allocations element this export writes",
                       (const char *)c->name);
    }
    free_names(&ns);
    return bad;
}

/* ---- capacity-scheduler.xml ---- */

#define CS "yarn.scheduler.capacity."

typedef struct {
    char *key, *value;
} prop;

static void free_props(prop *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(p[i].key);
        free(p[i].value);
    }
    free(p);
}

static const char *lookup(const prop *p, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(p[i].key, key))
            return p[i].value;
    return NULL;
}

static int read_props(rules *r, xmlNodePtr root, prop **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    for (xmlNodePtr c = root->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (!is(c, "property"))
            return fail(r, "<%s> is not a configuration element", (const char *)c->name);
        char *key = NULL, *value = NULL;
        for (xmlNodePtr f = c->children; f; f = f->next) {
            if (is(f, "name") && !key)
                key = content(f);
            else if (is(f, "value") && !value)
                value = content(f);
            else if (f->type == XML_ELEMENT_NODE && !is(f, "description")) {
                free(key);
                free(value);
                return fail(r, "<%s> in a property", (const char *)f->name);
            }
        }
        int rc = !key || !value ? fail(r, "a property without name or value ('%s')",
                                        key ? key : "")
                 : lookup(*out, *n, key) ? fail(r, "property '%s' twice", key)
                                         : 0;
        prop *p = rc ? NULL : realloc(*out, (*n + 1) * sizeof *p);
        if (!p) {
            free(key);
            free(value);
            return rc ? rc : fail(r, "out of memory");
        }
        *out = p;
        p[*n] = (prop){key, value};
        (*n)++;
    }
    return 0;
}

static int in_list(char **list, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i], name))
            return 1;
    return 0;
}

static int check_mappings(rules *r, const char *value, names *qs)
{
    char *copy = strdup(value), *save = NULL;
    int bad = 0;
    for (char *m = strtok_r(copy, ",", &save); m && !bad; m = strtok_r(NULL, ",", &save)) {
        char *type = m, *who = strchr(m, ':'), *queue = who ? strchr(who + 1, ':') : NULL;
        if (!who || !queue || strchr(queue + 1, ':')) {
            bad = fail(r, "queue mapping '%s' is not [u|g]:NAME:QUEUE", m);
            break;
        }
        *who++ = 0;
        *queue++ = 0;
        if ((strcmp(type, "u") && strcmp(type, "g")) || !*who)
            bad = fail(r, "queue mapping '%s:%s:%s': type u or g and a name", type, who, queue);
        else if (!in_list(qs->v, qs->n, queue))
            bad = fail(r, "queue mapping to '%s', not a queue of root", queue);
    }
    free(copy);
    return bad;
}

static int check_capacity(rules *r, xmlNodePtr root)
{
    if (!is(root, "configuration"))
        return fail(r, "root element <%s>, expected <configuration>", (const char *)root->name);
    prop *p;
    size_t n;
    if (read_props(r, root, &p, &n)) {
        free_props(p, n);
        return 1;
    }
    names qs = {0};
    int bad = 0;
    const char *list = lookup(p, n, CS "root.queues");
    if (!list)
        bad = fail(r, "no " CS "root.queues");
    char *copy = list ? strdup(list) : NULL, *save = NULL;
    for (char *q = copy ? strtok_r(copy, ",", &save) : NULL; q && !bad;
         q = strtok_r(NULL, ",", &save))
        bad = !name_ok(r, q, 1) || !add_name(r, &qs, q);
    free(copy);
    if (!bad && !in_list(qs.v, qs.n, "default"))
        bad = fail(r, "no queue 'default' (where jobs routed nowhere go)");
    /* every key: one this export writes, of a listed queue */
    static const char *per_queue[] = {"capacity", "maximum-capacity",
                                      "maximum-am-resource-percent", "user-limit-factor"};
    for (size_t i = 0; i < n && !bad; i++) {
        const char *k = p[i].key;
        if (!strcmp(k, CS "root.queues"))
            continue;
        if (!strcmp(k, CS "queue-mappings")) {
            bad = check_mappings(r, p[i].value, &qs);
            continue;
        }
        const char *rest = !strncmp(k, CS "root.", strlen(CS "root."))
                               ? k + strlen(CS "root.") : NULL;
        const char *dot = rest ? strchr(rest, '.') : NULL;
        size_t w = 0;
        while (dot && w < 4 && strcmp(dot + 1, per_queue[w]))
            w++;
        char q[400] = "";
        if (dot && (size_t)(dot - rest) < sizeof q) {
            memcpy(q, rest, (size_t)(dot - rest));
            q[dot - rest] = 0;
        }
        if (!dot || w == 4 || !in_list(qs.v, qs.n, q)) {
            bad = fail(r, "key '%s' is not one of a queue of root", k);
            break;
        }
        double d;
        if (!number_of(p[i].value, &d))
            bad = fail(r, "'%s' = '%s' is not a number", k, p[i].value);
        else if (w == 0 && !(d >= 0 && d <= 100))
            bad = fail(r, "'%s' = %g is outside [0, 100]", k, d);
        else if (w == 1 && !((d >= 0 && d <= 100) || d == -1))
            bad = fail(r, "'%s' = %g is outside [0, 100] and not -1", k, d);
        else if (w == 2 && !(d > 0 && d <= 1))
            bad = fail(r, "'%s' = %g is not in (0, 1]", k, d);
        else if (w == 3 && !(d > 0 || d == -1))
            bad = fail(r, "'%s' = %g is not > 0 or -1", k, d);
    }
    /* per queue: a capacity, not above its maximum; root's sum 100 */
    double sum = 0;
    for (size_t i = 0; i < qs.n && !bad; i++) {
        char key[512];
        snprintf(key, sizeof key, CS "root.%s.capacity", qs.v[i]);
        const char *c = lookup(p, n, key);
        snprintf(key, sizeof key, CS "root.%s.maximum-capacity", qs.v[i]);
        const char *m = lookup(p, n, key);
        double cv = 0, mv = 0;
        if (!c)
            bad = fail(r, "queue '%s' has no capacity", qs.v[i]);
        else if (number_of(c, &cv) && m && number_of(m, &mv) && mv != -1 && cv > mv)
            bad = fail(r, "queue '%s': capacity %s above maximum-capacity %s", qs.v[i], c, m);
        else
            sum += cv;
    }
    if (!bad && fabs(sum - 100) > 1e-9)
        bad = fail(r, "capacities of root's queues sum to %.6g, not 100", sum);
    free_names(&qs);
    free_props(p, n);
    return bad;
}

int so_test_hadoop_check(const char *text, int format, char *why, size_t cap)
{
    rules r = {why, cap};
    why[0] = 0;
    xmlDocPtr d = xmlReadMemory(text, (int)strlen(text), "conf.xml", NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!d)
        return fail(&r, "not well-formed XML");
    xmlNodePtr root = xmlDocGetRootElement(d);
    int bad = !root                       ? fail(&r, "no root element")
              : format == SO_HC_FAIR      ? check_fair(&r, root)
              : format == SO_HC_YARN_FAIR ? check_yarn(&r, root)
              : format == SO_HC_CAPACITY  ? check_capacity(&r, root)
                                          : fail(&r, "unknown format %d", format);
    xmlFreeDoc(d);
    return bad;
}
