/* hadoop_conf.c — fair-scheduler.xml (MRv1), the YARN fair-scheduler
 * allocation file and capacity-scheduler.xml from per-pool shares, written
 * with libxml2's text writer (docs/hadoop-export.md has every mapping).
 *
 * Elements are those Hadoop reads: MRv1 FairScheduler's PoolManager
 * (allocations/pool@name: minMaps, minReduces, maxMaps, maxReduces, weight,
 * schedulingMode), YARN's AllocationFileQueueParser (allocations/queue@name:
 * minResources, maxResources "X mb, Y vcores", maxAMShare, weight,
 * schedulingPolicy; queuePlacementPolicy) and CapacitySchedulerConfiguration
 * (yarn.scheduler.capacity.root.queues, .root.Q.capacity,
 * .maximum-capacity, .user-limit-factor, .maximum-am-resource-percent,
 * yarn.scheduler.capacity.queue-mappings).
 * Choices (Hadoop has no slots in YARN, and capacities must sum to 100):
 *   - names: YARN writes a period as "_dot_" (queue_name);
 *   - a YARN container stands for one slot: container_mb MiB and 1 vcore;
 *     each job a pool runs adds one MapReduce ApplicationMaster of am_mb
 *     MiB and 1 vcore; memory counted as YARN allocates it (multiples of
 *     alloc_mb);
 *   - capacity = 100 x guaranteed memory (minima and AMs) / the sum of it
 *     (the weights when some pool has no minima or nothing is
 *     guaranteed; a pool guaranteed nothing gets capacity 0), in
 *     hundredths with the remainders given to the largest fractions so
 *     the sum is exactly 100.00; maximum-capacity = 100 x (maxima and
 *     AMs) / the cluster's memory (slots and every AM) rounded up to a
 *     hundredth, within [capacity, 100] (100 when unset); a queue
 *     "default" (capacity 0, maximum 100) unless a pool is named so;
 *   - maxAMShare / maximum-am-resource-percent / user-limit-factor only
 *     where Hadoop's defaults would hold the pool back. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <libxml/xmlwriter.h>
#include "tools/export/hadoop_conf.h"

int so_hc_format_parse(const char *name)
{
    if (!name)
        return 0;
    if (!strcmp(name, "fair-scheduler"))
        return SO_HC_FAIR;
    if (!strcmp(name, "yarn-fair"))
        return SO_HC_YARN_FAIR;
    if (!strcmp(name, "capacity-scheduler"))
        return SO_HC_CAPACITY;
    return 0;
}

static int bad_name(const char *s)
{
    if (!*s)
        return 1;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' || *s == '.'))
            return 1;
    return 0;
}

int so_hc_shares_from_weights(size_t n, const char *const *names,
                              const double *w, so_hc_pool *pools, so_error *err)
{
    for (size_t i = 0; i < n; i++) {
        if (strlen(names[i]) >= sizeof pools[i].name)
            return so_error_setf(err, NULL, 0, 0, "name", "pool %zu: name longer than %zu",
                                 i, sizeof pools[i].name - 1);
        memset(&pools[i], 0, sizeof pools[i]);
        strcpy(pools[i].name, names[i]);
        pools[i].min_maps = pools[i].min_reduces = SO_HC_UNSET;
        pools[i].max_maps = pools[i].max_reduces = SO_HC_UNSET;
        pools[i].weight = w[i];
    }
    return SO_OK;
}

/* The name a pool gets in a format (out: SO_HC_QNAME bytes). MRv1 keeps
 * it: Hadoop 1's PoolManager takes any pool name, and a job's pool is its
 * user.name (mapred.fairscheduler.poolnameproperty) or
 * mapred.fairscheduler.pool, so "john.doe" is found as is. YARN reads '.'
 * as the queue-path separator (AllocationFileQueueParser.loadQueue: "queue
 * name (...) shouldn't contain period"; CapacitySchedulerConfiguration's
 * queue paths): a period becomes "_dot_", as YARN's user placement rule
 * names the queue of user "first.last" "first_dot_last" (FairScheduler.md). */
#define SO_HC_QNAME (5 * sizeof(((so_hc_pool *)0)->name))
static void queue_name(const char *name, int format, char *out)
{
    size_t k = 0;
    for (; *name; name++) {
        if (*name == '.' && format != SO_HC_FAIR) {
            memcpy(out + k, "_dot_", 5);
            k += 5;
        } else {
            out[k++] = *name;
        }
    }
    out[k] = 0;
}

static int check_names(const so_hc_shares *s, int format, so_error *err)
{
    char (*q)[SO_HC_QNAME] = malloc(s->n * sizeof *q);
    if (!q)
        return SO_ENOMEM;
    int rc = SO_OK;
    for (size_t i = 0; !rc && i < s->n; i++) {
        const char *name = s->pools[i].name;
        if (bad_name(name)) {
            rc = so_error_setf(err, NULL, 0, 0, "name",
                               "pool %zu: expected a non-empty name of [A-Za-z0-9_.-]"
                               " (no blanks), found '%s'", i, name);
            break;
        }
        if (format != SO_HC_FAIR && !strcasecmp(name, "root")) {
            rc = so_error_setf(err, NULL, 0, 0, "name",
                               "pool '%s': 'root' is YARN's root queue, which takes no"
                               " sibling queues; rename the pool", name);
            break;
        }
        queue_name(name, format, q[i]);
        for (size_t k = 0; !rc && k < i; k++) {
            if (!strcmp(s->pools[k].name, name))
                rc = so_error_setf(err, NULL, 0, 0, "name", "pool '%s' named twice", name);
            else if (!strcmp(q[k], q[i]))
                rc = so_error_setf(err, NULL, 0, 0, "name",
                                   "pools '%s' and '%s' both become queue '%s' (YARN"
                                   " writes a period as _dot_); rename one",
                                   s->pools[k].name, name, q[i]);
        }
    }
    free(q);
    return rc;
}

static int check(const so_hc_shares *s, int format, so_error *err)
{
    if (s->n == 0)
        return so_error_setf(err, NULL, 0, 0, "pools", "expected at least one pool");
    if (s->cluster_slots <= 0)
        return so_error_setf(err, NULL, 0, 0, "cluster_slots", "expected > 0, found %" PRId64,
                             s->cluster_slots);
    if (s->container_mb <= 0)
        return so_error_setf(err, NULL, 0, 0, "container_mb", "expected > 0, found %" PRId64,
                             s->container_mb);
    if (s->am_mb < 0)
        return so_error_setf(err, NULL, 0, 0, "am_mb", "expected >= 0, found %" PRId64,
                             s->am_mb);
    if (s->alloc_mb < 0)
        return so_error_setf(err, NULL, 0, 0, "alloc_mb", "expected >= 0, found %" PRId64,
                             s->alloc_mb);
    int rc = check_names(s, format, err);
    if (rc)
        return rc;
    for (size_t i = 0; i < s->n; i++) {
        const so_hc_pool *p = &s->pools[i];
        if (!(p->weight > 0 && isfinite(p->weight)))
            return so_error_setf(err, NULL, 0, 0, "weight", "pool '%s': expected > 0, found %g",
                                 p->name, p->weight);
        const int64_t v[4] = {p->min_maps, p->min_reduces, p->max_maps, p->max_reduces};
        for (int k = 0; k < 4; k++)
            if (v[k] < SO_HC_UNSET)
                return so_error_setf(err, NULL, 0, 0, "slots",
                                     "pool '%s': expected slot counts >= 0, found %" PRId64,
                                     p->name, v[k]);
        if (p->ams < 0)
            return so_error_setf(err, NULL, 0, 0, "ams",
                                 "pool '%s': expected ApplicationMasters >= 0, found %" PRId64,
                                 p->name, p->ams);
        if ((p->min_maps >= 0 && p->max_maps >= 0 && p->min_maps > p->max_maps) ||
            (p->min_reduces >= 0 && p->max_reduces >= 0 && p->min_reduces > p->max_reduces))
            return so_error_setf(err, NULL, 0, 0, "slots", "pool '%s': minimum above maximum",
                                 p->name);
    }
    return SO_OK;
}

/* Writer helpers: every libxml2 call's status is folded into *ok. */
typedef struct {
    xmlTextWriterPtr w;
    int ok;
} xw;

static void elem(xw *x, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void elem(xw *x, const char *name, const char *fmt, ...)
{
    char buf[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (xmlTextWriterWriteElement(x->w, BAD_CAST name, BAD_CAST buf) < 0)
        x->ok = 0;
}

static void start(xw *x, const char *name)
{
    if (xmlTextWriterStartElement(x->w, BAD_CAST name) < 0)
        x->ok = 0;
}

static void end(xw *x)
{
    if (xmlTextWriterEndElement(x->w) < 0)
        x->ok = 0;
}

static void attr(xw *x, const char *name, const char *value)
{
    if (xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST value) < 0)
        x->ok = 0;
}

static void comment(xw *x, const char *text)
{
    if (xmlTextWriterWriteComment(x->w, BAD_CAST text) < 0)
        x->ok = 0;
}

static void write_fair(xw *x, const so_hc_shares *s)
{
    start(x, "allocations");
    for (size_t i = 0; i < s->n; i++) {
        const so_hc_pool *p = &s->pools[i];
        start(x, "pool");
        attr(x, "name", p->name); /* MRv1 keeps a period (queue_name) */
        if (p->min_maps >= 0)
            elem(x, "minMaps", "%" PRId64, p->min_maps);
        if (p->min_reduces >= 0)
            elem(x, "minReduces", "%" PRId64, p->min_reduces);
        if (p->max_maps >= 0)
            elem(x, "maxMaps", "%" PRId64, p->max_maps);
        if (p->max_reduces >= 0)
            elem(x, "maxReduces", "%" PRId64, p->max_reduces);
        elem(x, "weight", "%.6g", p->weight);
        elem(x, "schedulingMode", "%s", p->fifo ? "fifo" : "fair");
        end(x);
    }
    end(x);
}

/* Slots as YARN resources; -1 when a count is unset. */
static int64_t slots_of(int64_t maps, int64_t reduces)
{
    return maps < 0 || reduces < 0 ? -1 : maps + reduces;
}

/* A container of mb MiB as YARN allocates it: rounded up to a multiple of
 * alloc_mb (SchedulerUtils.normalizeRequest). */
static int64_t allocated(const so_hc_shares *s, int64_t mb)
{
    return s->alloc_mb > 1 ? (mb + s->alloc_mb - 1) / s->alloc_mb * s->alloc_mb : mb;
}

/* The memory of a pool's ApplicationMasters (MiB). */
static int64_t ams_mb(const so_hc_shares *s, const so_hc_pool *p)
{
    return s->am_mb > 0 ? p->ams * allocated(s, s->am_mb) : 0;
}

/* A pool's YARN memory (MiB) and vcores for `slots` slot containers plus
 * its ApplicationMasters; -1 when slots is unset. */
static int64_t pool_mb(const so_hc_shares *s, const so_hc_pool *p, int64_t slots)
{
    return slots < 0 ? -1 : slots * allocated(s, s->container_mb) + ams_mb(s, p);
}

static int64_t pool_vcores(const so_hc_shares *s, const so_hc_pool *p, int64_t slots)
{
    return slots < 0 ? -1 : slots + (s->am_mb > 0 ? p->ams : 0);
}

/* ceil(100 x a / b), in hundredths, for a >= 0 and b > 0 */
static int64_t ceil_hundredths(double a, double b)
{
    return (int64_t)ceil(100.0 * a / b - 1e-9);
}

/* The share of a pool's guaranteed resources its AMs take, in hundredths
 * (memory or vcores, the larger); 0 when nothing is guaranteed or no AM
 * is counted. */
static int64_t am_share(const so_hc_shares *s, const so_hc_pool *p)
{
    int64_t lo = slots_of(p->min_maps, p->min_reduces);
    if (lo < 0 || s->am_mb == 0 || p->ams == 0)
        return 0;
    int64_t mem = ceil_hundredths((double)ams_mb(s, p), (double)pool_mb(s, p, lo));
    int64_t vc = ceil_hundredths((double)p->ams, (double)pool_vcores(s, p, lo));
    return mem > vc ? mem : vc;
}

/* A hundredths value (e.g. a percentage x 100) as "I.FF". */
static void hundredths(char *buf, size_t cap, int64_t v)
{
    snprintf(buf, cap, "%" PRId64 ".%02" PRId64, v / 100, v % 100);
}

/* YARN FairScheduler's default maxAMShare, 0.5 of the queue's fair share
 * (FairScheduler.md; the fair share is at least minResources while the
 * cluster holds the plan), in hundredths */
#define SO_HC_FAIR_AM_DEFAULT 50

static int per_user(const so_hc_shares *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->pools[i].user[0])
            return 1;
    return 0;
}

static void rule(xw *x, const char *name, int no_create)
{
    start(x, "rule");
    attr(x, "name", name);
    if (no_create)
        attr(x, "create", "false");
    end(x);
}

static void write_yarn(xw *x, const so_hc_shares *s)
{
    start(x, "allocations");
    for (size_t i = 0; i < s->n; i++) {
        const so_hc_pool *p = &s->pools[i];
        int64_t lo = slots_of(p->min_maps, p->min_reduces);
        int64_t hi = slots_of(p->max_maps, p->max_reduces);
        char q[SO_HC_QNAME], v[32];
        queue_name(p->name, SO_HC_YARN_FAIR, q);
        start(x, "queue");
        attr(x, "name", q);
        if (lo >= 0)
            elem(x, "minResources", "%" PRId64 " mb, %" PRId64 " vcores",
                 pool_mb(s, p, lo), pool_vcores(s, p, lo));
        if (hi >= 0)
            elem(x, "maxResources", "%" PRId64 " mb, %" PRId64 " vcores",
                 pool_mb(s, p, hi), pool_vcores(s, p, hi));
        int64_t am = am_share(s, p);
        if (am > SO_HC_FAIR_AM_DEFAULT) {
            hundredths(v, sizeof v, am > 100 ? 100 : am);
            elem(x, "maxAMShare", "%s", v);
        }
        elem(x, "weight", "%.6g", p->weight);
        elem(x, "schedulingPolicy", "%s", p->fifo ? "fifo" : "fair");
        end(x);
    }
    /* routing (FairScheduler.md, queuePlacementPolicy): the queue a job
     * names (mapreduce.job.queuename) when the file has it, else the
     * user's queue (YARN writes its period as _dot_, as queue_name does),
     * else root.default; create="false": no queue outside the file */
    start(x, "queuePlacementPolicy");
    rule(x, "specified", 1);
    if (per_user(s))
        rule(x, "user", 1);
    rule(x, "default", 0);
    end(x);
    end(x);
}

static void property(xw *x, const char *name, const char *value)
{
    start(x, "property");
    elem(x, "name", "%s", name);
    elem(x, "value", "%s", value);
    end(x);
}

typedef struct {
    double frac;
    size_t i;
} cap_rest;

static int by_remainder(const void *a, const void *b)
{
    const cap_rest *x = a, *y = b;
    if (x->frac != y->frac)
        return x->frac > y->frac ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* The memory (MiB) the capacity scheduler's percentages refer to: the
 * cluster's slots as containers plus the pools' ApplicationMasters. */
static double cluster_mb(const so_hc_shares *s)
{
    double mb = (double)s->cluster_slots * (double)allocated(s, s->container_mb);
    for (size_t i = 0; i < s->n; i++)
        mb += (double)ams_mb(s, &s->pools[i]);
    return mb;
}

/* capacities in hundredths of a percent, summing to 10000: in proportion
 * to the guaranteed memory (minima and AMs), or to the weights when some
 * pool has no minima or nothing is guaranteed */
static int capacities(const so_hc_shares *s, int64_t *cap)
{
    int all_min = 1;
    double mins = 0;
    for (size_t i = 0; i < s->n; i++) {
        const so_hc_pool *p = &s->pools[i];
        int64_t g = pool_mb(s, p, slots_of(p->min_maps, p->min_reduces));
        all_min &= g >= 0;
        mins += g > 0 ? (double)g : 0;
    }
    all_min &= mins > 0;
    double total = 0;
    for (size_t i = 0; i < s->n; i++) {
        const so_hc_pool *p = &s->pools[i];
        total += all_min ? (double)pool_mb(s, p, slots_of(p->min_maps, p->min_reduces))
                         : p->weight;
    }
    cap_rest *r = malloc(s->n * sizeof *r);
    if (!r)
        return SO_ENOMEM;
    int64_t used = 0;
    for (size_t i = 0; i < s->n; i++) {
        const so_hc_pool *p = &s->pools[i];
        double b = all_min ? (double)pool_mb(s, p, slots_of(p->min_maps, p->min_reduces))
                           : p->weight;
        double exact = 10000.0 * b / total;
        cap[i] = (int64_t)floor(exact);
        used += cap[i];
        r[i] = (cap_rest){exact - (double)cap[i], i};
    }
    qsort(r, s->n, sizeof *r, by_remainder);
    for (size_t k = 0; used < 10000; k = (k + 1) % s->n, used++)
        cap[r[k].i]++;
    free(r);
    return SO_OK;
}

/* The Capacity Scheduler's default maximum-am-resource-percent, 0.1 of the
 * queue's share (CapacityScheduler.md), in hundredths */
#define SO_HC_CAP_AM_DEFAULT 10

static void queue_property(xw *x, const char *q, const char *what, int64_t v)
{
    char key[SO_HC_QNAME + 64], val[32];
    snprintf(key, sizeof key, "yarn.scheduler.capacity.root.%s.%s", q, what);
    hundredths(val, sizeof val, v);
    property(x, key, val);
}

/* yarn.scheduler.capacity.queue-mappings "u:USER:QUEUE,...": a user name
 * holding the syntax's ',' or ':' or a blank is left out (its jobs name
 * their queue, docs/hadoop-export.md). buf holds the queue list's size. */
static void write_mappings(xw *x, const so_hc_shares *s, char *buf)
{
    size_t k = 0;
    buf[0] = 0;
    for (size_t i = 0; i < s->n; i++) {
        const so_hc_pool *p = &s->pools[i];
        if (!p->user[0] || strpbrk(p->user, ",: \t\n\r\f\v"))
            continue;
        char q[SO_HC_QNAME];
        queue_name(p->name, SO_HC_CAPACITY, q);
        k += (size_t)sprintf(buf + k, "%su:%s:%s", k ? "," : "", p->user, q);
    }
    if (k)
        property(x, "yarn.scheduler.capacity.queue-mappings", buf);
}

static int write_capacity(xw *x, const so_hc_shares *s)
{
    int64_t *cap = malloc(s->n * sizeof *cap);
    /* the queue list, then the mappings: "u:" user ':' queue ',' each */
    char *queues = calloc(s->n + 1, SO_HC_QNAME + sizeof s->pools->user + 4);
    if (!cap || !queues || capacities(s, cap)) {
        free(cap);
        free(queues);
        return SO_ENOMEM;
    }
    int has_default = 0;
    double mb = cluster_mb(s);
    for (size_t i = 0; i < s->n; i++) {
        char q[SO_HC_QNAME];
        queue_name(s->pools[i].name, SO_HC_CAPACITY, q);
        if (i)
            strcat(queues, ",");
        strcat(queues, q);
        has_default |= !strcmp(q, "default");
    }
    if (!has_default) /* where jobs routed nowhere go (docs/hadoop-export.md) */
        strcat(queues, ",default");
    start(x, "configuration");
    comment(x, " capacity: guaranteed share (percent, sum 100);"
               " maximum-capacity: largest share (percent) ");
    property(x, "yarn.scheduler.capacity.root.queues", queues);
    for (size_t i = 0; i < s->n; i++) {
        const so_hc_pool *p = &s->pools[i];
        char q[SO_HC_QNAME];
        queue_name(p->name, SO_HC_CAPACITY, q);
        int64_t hi = pool_mb(s, p, slots_of(p->max_maps, p->max_reduces));
        int64_t mx = hi < 0 ? 10000 : ceil_hundredths(100.0 * (double)hi, mb);
        if (mx < cap[i])
            mx = cap[i];
        if (mx > 10000)
            mx = 10000;
        queue_property(x, q, "capacity", cap[i]);
        queue_property(x, q, "maximum-capacity", mx);
        /* a user may take capacity x user-limit-factor (default 1,
         * UsersManager.computeUserLimit): one user alone in the queue
         * reaches its maximum-capacity with maximum / capacity (a 0 %
         * queue is held by its maximum-capacity instead; a difference of
         * one hundredth is rounding) */
        if (cap[i] > 0 && mx > cap[i] + 1)
            queue_property(x, q, "user-limit-factor",
                           ceil_hundredths((double)mx, (double)cap[i]));
        /* the queue's AM limit is this fraction of its capacity: room for
         * its AMs (a queue of capacity 0 still starts one application:
         * LeafQueue.activateApplications) */
        if (s->am_mb > 0 && p->ams > 0 && cap[i] > 0) {
            int64_t am = ceil_hundredths((double)ams_mb(s, p), (double)cap[i] / 10000.0 * mb);
            if (am > SO_HC_CAP_AM_DEFAULT)
                queue_property(x, q, "maximum-am-resource-percent", am > 100 ? 100 : am);
        }
    }
    if (!has_default) {
        queue_property(x, "default", "capacity", 0);
        queue_property(x, "default", "maximum-capacity", 10000);
    }
    if (per_user(s)) /* each user to its queue (CapacityScheduler.md, queue mapping) */
        write_mappings(x, s, queues);
    end(x);
    free(queues);
    free(cap);
    return SO_OK;
}

int so_hc_write(const so_hc_shares *s, int format, char **text, so_error *err)
{
    *text = NULL;
    if (format < SO_HC_FAIR || format > SO_HC_CAPACITY)
        return so_error_setf(err, NULL, 0, 0, "format", "unknown Hadoop format %d", format);
    int rc = check(s, format, err);
    if (rc)
        return rc;
    xmlBufferPtr buf = xmlBufferCreate();
    xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
    if (!w) {
        if (buf)
            xmlBufferFree(buf);
        return SO_ENOMEM;
    }
    xw x = {w, 1};
    if (xmlTextWriterSetIndent(w, 1) < 0 || xmlTextWriterSetIndentString(w, BAD_CAST "  ") < 0 ||
        xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL) < 0)
        x.ok = 0;
    if (format == SO_HC_FAIR)
        write_fair(&x, s);
    else if (format == SO_HC_YARN_FAIR)
        write_yarn(&x, s);
    else if (write_capacity(&x, s))
        x.ok = 0;
    if (xmlTextWriterEndDocument(w) < 0)
        x.ok = 0;
    xmlFreeTextWriter(w); /* flushes into buf */
    if (x.ok) {
        *text = strdup((const char *)xmlBufferContent(buf));
        if (!*text)
            x.ok = 0;
    }
    xmlBufferFree(buf);
    return x.ok ? SO_OK : SO_ENOMEM;
}
