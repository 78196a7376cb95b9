/* hadoop_conf.c — fair-scheduler.xml (MRv1), the YARN fair-scheduler
 * allocation file and capacity-scheduler.xml from per-pool shares, written
 * with libxml2's text writer (docs/hadoop-export.md has every mapping).
 *
 * Elements are those Hadoop reads: MRv1 FairScheduler's PoolManager
 * (allocations/pool@name: minMaps, minReduces, maxMaps, maxReduces, weight,
 * schedulingMode), YARN's AllocationFileLoaderService (allocations/queue@name:
 * minResources, maxResources "X mb, Y vcores", weight, schedulingPolicy) and
 * CapacitySchedulerConfiguration (yarn.scheduler.capacity.root.queues,
 * .root.Q.capacity, .root.Q.maximum-capacity, percentages).
 * Choices (Hadoop has no slots in YARN, and capacities must sum to 100):
 *   - a YARN container stands for one slot: container_mb MiB and 1 vcore;
 *   - capacity = 100 x guaranteed slots / sum of guaranteed slots (the
 *     weights when some pool has no minima or all minima are 0; a pool
 *     guaranteed 0 slots gets capacity 0), in hundredths with the
 *     remainders given to the largest fractions so the sum is exactly
 *     100.00; maximum-capacity = 100 x (maxMaps + maxReduces) /
 *     cluster_slots rounded up to a hundredth, within [capacity, 100]
 *     (100 when unset). */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static int check(const so_hc_shares *s, so_error *err)
{
    if (s->n == 0)
        return so_error_setf(err, NULL, 0, 0, "pools", "expected at least one pool");
    if (s->cluster_slots <= 0)
        return so_error_setf(err, NULL, 0, 0, "cluster_slots", "expected > 0, found %" PRId64,
                             s->cluster_slots);
    if (s->container_mb <= 0)
        return so_error_setf(err, NULL, 0, 0, "container_mb", "expected > 0, found %" PRId64,
                             s->container_mb);
    for (size_t i = 0; i < s->n; i++) {
        const so_hc_pool *p = &s->pools[i];
        if (bad_name(p->name))
            return so_error_setf(err, NULL, 0, 0, "name",
                                 "pool %zu: expected [A-Za-z0-9_.-]+, found '%s'", i, p->name);
        for (size_t k = 0; k < i; k++)
            if (!strcmp(s->pools[k].name, p->name))
                return so_error_setf(err, NULL, 0, 0, "name", "pool '%s' named twice", p->name);
        if (!(p->weight > 0 && isfinite(p->weight)))
            return so_error_setf(err, NULL, 0, 0, "weight", "pool '%s': expected > 0, found %g",
                                 p->name, p->weight);
        const int64_t v[4] = {p->min_maps, p->min_reduces, p->max_maps, p->max_reduces};
        for (int k = 0; k < 4; k++)
            if (v[k] < SO_HC_UNSET)
                return so_error_setf(err, NULL, 0, 0, "slots",
                                     "pool '%s': expected slot counts >= 0, found %" PRId64,
                                     p->name, v[k]);
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
        attr(x, "name", p->name);
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

static void write_yarn(xw *x, const so_hc_shares *s)
{
    start(x, "allocations");
    for (size_t i = 0; i < s->n; i++) {
        const so_hc_pool *p = &s->pools[i];
        int64_t lo = slots_of(p->min_maps, p->min_reduces);
        int64_t hi = slots_of(p->max_maps, p->max_reduces);
        start(x, "queue");
        attr(x, "name", p->name);
        if (lo >= 0)
            elem(x, "minResources", "%" PRId64 " mb, %" PRId64 " vcores",
                 lo * s->container_mb, lo);
        if (hi >= 0)
            elem(x, "maxResources", "%" PRId64 " mb, %" PRId64 " vcores",
                 hi * s->container_mb, hi);
        elem(x, "weight", "%.6g", p->weight);
        elem(x, "schedulingPolicy", "%s", p->fifo ? "fifo" : "fair");
        end(x);
    }
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

/* capacities in hundredths of a percent, summing to 10000 */
static int capacities(const so_hc_shares *s, int64_t *cap)
{
    int all_min = 1;
    double mins = 0;
    for (size_t i = 0; i < s->n; i++) {
        int64_t lo = slots_of(s->pools[i].min_maps, s->pools[i].min_reduces);
        all_min &= lo >= 0;
        mins += lo > 0 ? (double)lo : 0;
    }
    all_min &= mins > 0;
    double total = 0;
    for (size_t i = 0; i < s->n; i++)
        total += all_min ? (double)slots_of(s->pools[i].min_maps, s->pools[i].min_reduces)
                         : s->pools[i].weight;
    cap_rest *r = malloc(s->n * sizeof *r);
    if (!r)
        return SO_ENOMEM;
    int64_t used = 0;
    for (size_t i = 0; i < s->n; i++) {
        double b = all_min ? (double)slots_of(s->pools[i].min_maps, s->pools[i].min_reduces)
                           : s->pools[i].weight;
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

static int write_capacity(xw *x, const so_hc_shares *s)
{
    int64_t *cap = malloc(s->n * sizeof *cap);
    if (!cap || capacities(s, cap)) {
        free(cap);
        return SO_ENOMEM;
    }
    size_t len = 1;
    for (size_t i = 0; i < s->n; i++)
        len += strlen(s->pools[i].name) + 1;
    char *queues = calloc(len, 1);
    if (!queues) {
        free(cap);
        return SO_ENOMEM;
    }
    for (size_t i = 0; i < s->n; i++) {
        if (i)
            strcat(queues, ",");
        strcat(queues, s->pools[i].name);
    }
    start(x, "configuration");
    comment(x, " capacity: guaranteed share (percent, sum 100);"
               " maximum-capacity: largest share (percent) ");
    property(x, "yarn.scheduler.capacity.root.queues", queues);
    for (size_t i = 0; i < s->n; i++) {
        const so_hc_pool *p = &s->pools[i];
        char key[160], val[32];
        int64_t hi = slots_of(p->max_maps, p->max_reduces);
        int64_t mx = hi < 0 ? 10000
                            : (int64_t)ceil(10000.0 * (double)hi / (double)s->cluster_slots - 1e-9);
        if (mx < cap[i])
            mx = cap[i];
        if (mx > 10000)
            mx = 10000;
        snprintf(key, sizeof key, "yarn.scheduler.capacity.root.%s.capacity", p->name);
        snprintf(val, sizeof val, "%" PRId64 ".%02" PRId64, cap[i] / 100, cap[i] % 100);
        property(x, key, val);
        snprintf(key, sizeof key, "yarn.scheduler.capacity.root.%s.maximum-capacity", p->name);
        snprintf(val, sizeof val, "%" PRId64 ".%02" PRId64, mx / 100, mx % 100);
        property(x, key, val);
    }
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
    int rc = check(s, err);
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
