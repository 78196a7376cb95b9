/* test_cluster_scale.c — the scale work of the cluster model (issue 16):
 * the level tree equals the from-scratch waterline bit for bit after every
 * change of random sequences, and the schedulers give the same reports as
 * before the scale work on the FB-2009 sample (the incremental fair
 * scheduler against the pre-issue one on random workloads: suite
 * cluster-fair-old). */
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/cluster/cluster_test.h"
#include "tests/test_util.h"
#include "cluster/fair_share.h"
#include "cluster/level_tree.h"

typedef struct range_seen {
    int id[128], n;
} range_seen;

static void see(void *ctx, int id)
{
    range_seen *rs = ctx;
    if (rs->n < 128)
        rs->id[rs->n++] = id;
}

enum { IDS = 120, GROUPS = 3 };

typedef struct entity {
    int in;   /* its tree (group) + 1, 0: none */
    double w, d;
} entity;

/* Every group's shares from the level tree, min(level x w, d), equal
 * so_cl_waterline's from scratch (zero minima) bit for bit; the range
 * query lists exactly the members with lo <= d / w <= hi, in (d / w, id)
 * order. */
static int same_as_scratch(const so_cl_level_forest *f, const entity *e,
                           const double *slots, so_rng *rng)
{
    int ok = 1;
    for (int g = 0; g < GROUPS; g++) {
        int n = 0;
        double w[IDS], m[IDS], d[IDS], ref[IDS], sum = 0;
        for (int i = 0; i < IDS; i++)
            if (e[i].in == g + 1) {
                w[n] = e[i].w;
                m[n] = 0;
                sum += e[i].d;
                d[n++] = e[i].d;
            }
        ok = ok && so_cl_level_demand(f, g) == sum;
        double level = so_cl_level_solve(f, g, slots[g]);
        so_cl_waterline(n, w, m, d, slots[g], ref);
        for (int k = 0; k < n; k++) {
            double s = level * w[k], inc = s < d[k] ? s : d[k];
            ok = ok && memcmp(&inc, &ref[k], sizeof inc) == 0;
        }
        double lo = 0.25 * (double)so_rng_int(rng, 0, 200);
        double hi = lo + 0.25 * (double)so_rng_int(rng, 0, 100);
        range_seen rs = {.n = 0};
        so_cl_level_range(f, g, lo, hi, see, &rs);
        int want = 0;
        for (int k = 0; k < n; k++)
            want += d[k] / w[k] >= lo && d[k] / w[k] <= hi;
        ok = ok && rs.n == want;
        for (int k = 0; k < rs.n; k++) {
            const entity *x = &e[rs.id[k]];
            ok = ok && x->in == g + 1 && x->d / x->w >= lo && x->d / x->w <= hi;
            if (k > 0) {
                const entity *y = &e[rs.id[k - 1]];
                ok = ok && (y->d / y->w < x->d / x->w ||
                            (y->d / y->w == x->d / x->w && rs.id[k - 1] < rs.id[k]));
            }
        }
    }
    return ok;
}

static void test_level_tree(void)
{
    so_rng rng;
    so_rng_seed(&rng, 16);
    so_cl_level_forest f;
    CU_ASSERT_EQUAL_FATAL(so_cl_level_forest_init(&f, GROUPS, IDS), 0);
    entity e[IDS] = {{0}};
    double slots[GROUPS] = {10, 40, 200};
    int mismatches = 0, steps = 0;
    for (int seq = 0; seq < 40; seq++) {
        for (int step = 0; step < 150; step++, steps++) {
            int i = (int)so_rng_int(&rng, 0, IDS - 1);
            int op = (int)so_rng_int(&rng, 0, 9);
            if (op <= 1) { /* a job arrives in a group, or leaves */
                e[i].in = e[i].in ? 0 : (int)so_rng_int(&rng, 1, GROUPS);
                e[i].w = seq % 2 ? 1 : 0.25 * (double)so_rng_int(&rng, 1, 12);
                e[i].d = (double)so_rng_int(&rng, 1, 60);
            } else if (op <= 6 && e[i].in) { /* a task ends or is killed */
                e[i].d = e[i].d > 1 && so_rng_int(&rng, 0, 1) ? e[i].d - 1 : e[i].d + 1;
            } else if (op == 7 && e[i].in) { /* a big jump (a phase opens) */
                e[i].d = (double)so_rng_int(&rng, 1, 500);
            } else if (op == 8 && e[i].in && seq % 2 == 0) { /* weight */
                e[i].w = 0.5 * (double)so_rng_int(&rng, 1, 8);
            } else if (op == 9) { /* the slots change */
                slots[i % GROUPS] = (double)so_rng_int(&rng, 0, 300);
            }
            if (e[i].in)
                so_cl_level_set(&f, e[i].in - 1, i, e[i].d, e[i].w);
            else
                so_cl_level_remove(&f, i);
            mismatches += !same_as_scratch(&f, e, slots, &rng);
        }
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT_EQUAL(steps, 6000);
    so_cl_level_forest_free(&f);
}

/* By hand: weights 1, 1, 2 and demands 10, 10, 1 on 10 slots: job 3 is
 * capped at 1, r + r = 9, level 4.5. Job 3 asks 4: 2r < 4 would need
 * 4r = 10, r = 2.5 > 2, so job 3 is capped, 4 + 2r = 10, level 3. On 30
 * slots every demand is met: the largest ratio, 10. Job 1 leaves: r +
 * 4 = 10, level 6. No slots: level 0. */
static void test_level_hand(void)
{
    so_cl_level_forest f;
    CU_ASSERT_EQUAL_FATAL(so_cl_level_forest_init(&f, 1, 4), 0);
    so_cl_level_set(&f, 0, 1, 10, 1);
    so_cl_level_set(&f, 0, 2, 10, 1);
    so_cl_level_set(&f, 0, 3, 1, 2);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_level_solve(&f, 0, 10), 4.5, 1e-12);
    so_cl_level_set(&f, 0, 3, 4, 2);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_level_solve(&f, 0, 10), 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_level_solve(&f, 0, 30), 10, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_level_demand(&f, 0), 24, 0);
    so_cl_level_remove(&f, 1);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_level_solve(&f, 0, 10), 6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(so_cl_level_solve(&f, 0, 0), 0, 0);
    so_cl_level_forest_free(&f);
}

/* Appends src[0..len) to dst with every number printed with 12 significant
 * digits (the report's precision when the hashes were recorded; JSON now
 * carries 17): the same results hash the same whatever the precision. */
static size_t normalise(char *dst, size_t cap, const char *src, size_t len)
{
    size_t n = 0;
    for (size_t k = 0; k < len && n + 40 < cap;) {
        char c = src[k];
        int starts = (c >= '0' && c <= '9') ||
                     (c == '-' && k + 1 < len && src[k + 1] >= '0' && src[k + 1] <= '9');
        int in_word = k > 0 && ((src[k - 1] >= 'a' && src[k - 1] <= 'z') ||
                                (src[k - 1] >= 'A' && src[k - 1] <= 'Z') ||
                                src[k - 1] == '_');
        if (starts && !in_word) {
            char num[64];
            size_t m = 0;
            while (k + m < len && m < 63 && strchr("0123456789.eE+-", src[k + m]))
                m++;
            memcpy(num, src + k, m);
            num[m] = '\0';
            n += (size_t)snprintf(dst + n, cap - n, "%.12g", strtod(num, NULL));
            k += m;
        } else {
            dst[n++] = src[k++];
        }
    }
    return n;
}

/* FNV-1a over the report's lines, without the two wall-clock lines, numbers
 * at 12 significant digits. */
static uint64_t report_hash(const char *text)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    int first = 1;
    for (const char *p = text;;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        int skip = (memmem(p, len, "\"seconds\"", 9) != NULL) ||
                   (memmem(p, len, "events_per_second", 17) != NULL);
        if (!skip) {
            if (!first) {
                h ^= '\n';
                h *= 0x100000001b3ULL;
            }
            char line[4096];
            size_t m = normalise(line, sizeof line, p, len);
            for (size_t k = 0; k < m; k++) {
                h ^= (unsigned char)line[k];
                h *= 0x100000001b3ULL;
            }
            first = 0;
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    return h;
}

/* Reports of the first 250 jobs of the shipped FB-2009 sample on 8 nodes
 * (overloaded: hundreds of queued jobs), recorded with the scheduler code
 * of commit 63c171b (before the incremental waterline and the heap-ordered
 * assignment): regenerate with that commit's bin/slotopt and
 *   head -250 instances/traces/swim/FB-2009_samples_24_times_1hr_0.tsv \
 *     >fb2009-250.tsv
 *   slotopt sim fb2009-250.tsv --scheduler ARGS --opt nodes=8
 * hashing the lines as report_hash does. FLEX estimates task times since
 * (issue 17); its old behaviour is `--opt oracle=1`, compared here. The
 * report's JSON carries 17 digits since (issue 19): the hashes are of the
 * numbers at 12 digits, re-recorded after checking that the reports of the
 * commit before that change and after it agree line by line at 12 digits.
 * Re-recorded for issue 32 (the report records stealing, every --opt and
 * the warnings, and locality only under a locality model) after checking
 * that every other key of every run here and in the test below agrees
 * with the previous commit's reports (jq, keys sorted). */
static void test_same_reports(void)
{
    static const struct {
        const char *args;
        uint64_t hash;
    } runs[] = {
        {"fifo", 0x5c6ba70269d2455aULL},
        {"fair", 0x9044980f997a93eeULL},
        {"fair --opt locality_delay=4.5 --opt replicas=3"
         " --opt remote_slowdown=2", 0x7b21b6c1cc32d8b6ULL},
        {"fair --opt min_share_timeout=5 --opt fair_share_timeout=10"
         " --speculation late", 0x65ab19c13e6fc9d1ULL},
        /* FLEX before issues 16 and 17: the oracle, every epoch re-solved */
        {"flex --opt oracle=1 --opt resolve_epochs=1", 0x90cb2e0617c9af1fULL},
        /* estimating task times, every epoch (as before the re-solve rule)
         * and with the rule (sched_flex.c): recorded with this code */
        {"flex --opt resolve_epochs=1", 0xb839ff94fac442bdULL},
        {"flex", 0x84860be2fd025321ULL},
        {"fair --speculation hadoop", 0x6ec297b2c54f10d7ULL},
    };
    const char *path = cl_fb2009_head(250, "fb2009-250.tsv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(path);
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        char args[512], *out = NULL;
        snprintf(args, sizeof args, "sim %s --scheduler %s --opt nodes=8", path,
                 runs[k].args);
        CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        if (report_hash(out) != runs[k].hash)
            fprintf(stderr, "\n%s: %#llx\n", runs[k].args,
                    (unsigned long long)report_hash(out));
        CU_ASSERT_EQUAL(report_hash(out), runs[k].hash);
        free(out);
    }
}

/* The file gen wrote into dir renamed without "-contention=share" (the
 * report names its workload file; the hashes were recorded when share was
 * ras-gridmix-workload's default, unnamed). */
static void unshare_name(const char *dir)
{
    glob_t g;
    char pattern[2100], to[2200];
    snprintf(pattern, sizeof pattern, "%s/*-contention=share-*.json", dir);
    if (glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc == 1) {
        const char *from = g.gl_pathv[0];
        const char *cut = strstr(from, "-contention=share");
        snprintf(to, sizeof to, "%.*s%s", (int)(cut - from), from,
                 cut + strlen("-contention=share"));
        CU_ASSERT_EQUAL(rename(from, to), 0);
    }
    globfree(&g);
}

/* Reports of the other policies (issue 16: WPBS, RAS, speculation,
 * resource stealing), recorded with the code of commit 6f6c0ef, before
 * their scale work: the shipped FB-2009 sample's first 250 jobs on 8 nodes
 * as above (2 straggler nodes where speculation is on, so that copies are
 * launched; 4 map slots per node where stealing is on, so that the
 * policies differ), the wpbs-paper and ras-gridmix-workload families at
 * seed 1 (ras-gridmix-workload under contention share, its default until
 * issue 32). Hashes as report_hash, regenerated by the commands of
 * test_same_reports with that commit's bin/slotopt. Five re-recorded when
 * an attempt's end on a beat of its node was made to free its slot at that
 * beat (cluster/rates.c, on_beat; before, an end a rounding error after the
 * beat missed it): stealing even, ltlm and stm with slow nodes (stm's mean
 * response 78.214 -> 78.233 s) and RAS on ras-gridmix-workload under share,
 * where J6's maps of 300 s last 100 beats (relaxed goals 3042.1 -> 3012.6
 * s, tight 2156.8 -> 2182.7 s). */
static void test_same_reports_policies(void)
{
    static const struct {
        const char *workload; /* NULL: the FB-2009 cut; else a family */
        const char *args;
        uint64_t hash;
    } runs[] = {
        {NULL, "wpbs", 0x2c1ac6ba98a9cf42ULL},
        {NULL, "wpbs --opt alpha=0.5 --opt window=0 --opt update=30",
         0xdfde4cbbb46f413cULL},
        {NULL, "fifo --speculation late", 0xd2cbf2897c9ac54fULL},
        {NULL, "fifo --speculation late --opt slow_nodes=2",
         0x14031a01c2c41108ULL},
        {NULL, "fifo --speculation hadoop --opt slow_nodes=2",
         0x09f4c7d59c7aec86ULL},
        {NULL, "fifo --speculation base --opt slow_nodes=2",
         0xb9b09ea6541a5108ULL},
        {NULL, "fifo --speculation base-hadoop --opt slow_nodes=2",
         0x47463f2717430a80ULL},
        {NULL, "flex --speculation late --opt slow_nodes=2",
         0x131f1815f39ac935ULL},
        {NULL, "wpbs --speculation hadoop --opt slow_nodes=2",
         0x8c44f7d5afb40e31ULL},
        {NULL, "fifo --stealing even --speculation base --opt slow_nodes=2"
               " --opt map_slots=4 --opt map_parallel=0.8"
               " --opt reduce_parallel=0.8", 0x0cacfc14c4ac3701ULL},
        {NULL, "fifo --stealing fcm --opt slow_nodes=2 --opt map_slots=4"
               " --opt map_parallel=0.8 --opt reduce_parallel=0.8",
                0xbbc4029288fff3dfULL},
        {NULL, "fifo --stealing stlm --opt slow_nodes=2 --opt map_slots=4"
               " --opt map_parallel=0.8 --opt reduce_parallel=0.8",
                0x425105835c2c07dfULL},
        {NULL, "fifo --stealing ltlm --speculation late --opt slow_nodes=2"
               " --opt map_slots=4 --opt map_parallel=0.8"
               " --opt reduce_parallel=0.8", 0x80bd0f321ca723aeULL},
        {NULL, "fifo --stealing stm --opt slow_nodes=2 --opt map_slots=4"
               " --opt map_parallel=0.8 --opt reduce_parallel=0.8",
                0xdb247c7a4b351c6dULL},
        {NULL, "fifo --stealing ltm --speculation base --opt slow_nodes=2"
               " --opt map_slots=4 --opt map_parallel=0.8"
               " --opt reduce_parallel=0.8", 0x5d33769bab9ac81bULL},
        /* FLEX on 2 and 3 nodes: overloaded phases (at least S jobs still
         * learning: sched_flex.c's solve_overloaded) */
        {NULL, "flex --opt nodes=2", 0xfe5af6badc235ad4ULL},
        {NULL, "flex --opt resolve_epochs=1 --opt nodes=3",
         0x84275df2c0b5c348ULL},
        /* re-recorded after WPBS's per-user sums (sched_wpbs.c: the same
         * report as 0xe9bec1cd40ba2584 with the sums taken by a pass over
         * the jobs; the sums' rounding moves the mean response time from
         * 61.7264 s to 61.7435 s) */
        {"wpbs-paper", "wpbs", 0x82913f1c6e5dcc42ULL},
        {"wpbs-paper", "wpbs --opt alpha=0.5 --opt window=0 --opt update=30",
         0x12c061472ce8e512ULL},
        {"ras-gridmix-workload --set contention=share", "ras", 0xd35135b6d5872973ULL},
        {"ras-gridmix-workload --set goals=tight --set contention=share", "ras",
         0xf24397c8d11058b0ULL},
        {"ras-gridmix-workload --set goals=tight --set contention=share",
         "ras --opt running=fixed --opt reduces=slowstart",
          0xeb565d1c21971be4ULL},
    };
    const char *fb = cl_fb2009_head(250, "fb2009-250.tsv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fb);
    char fb_path[2048];
    snprintf(fb_path, sizeof fb_path, "%s", fb);
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        char args[8192], dir[2048], *out = NULL;
        if (runs[k].workload) {
            snprintf(dir, sizeof dir, "%s/scale-policies-%zu", so_test_tmpdir(), k);
            snprintf(args, sizeof args, "gen %s --seed 1 --out %s",
                     runs[k].workload, dir);
            CU_ASSERT_EQUAL_FATAL(so_test_run(args, NULL, NULL), 0);
            unshare_name(dir);
            snprintf(args, sizeof args, "sim %s/*.json --scheduler %s", dir,
                     runs[k].args);
        } else {
            snprintf(args, sizeof args, "sim %s --opt nodes=8 --scheduler %s",
                     fb_path, runs[k].args); /* a later nodes= wins */
        }
        CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        if (report_hash(out) != runs[k].hash)
            fprintf(stderr, "\n%s %s: %#llx\n",
                    runs[k].workload ? runs[k].workload : "FB-2009",
                    runs[k].args, (unsigned long long)report_hash(out));
        CU_ASSERT_EQUAL(report_hash(out), runs[k].hash);
        free(out);
    }
}

static CU_TestInfo tests[] = {
    {"level tree equals the from-scratch waterline on random sequences",
     test_level_tree},
    {"level tree by hand: capped, uncapped, leave", test_level_hand},
    {"same reports as before the scale work (FB-2009, 8 nodes)",
     test_same_reports},
    {"same reports as before the scale work: WPBS, RAS, speculation,"
     " stealing", test_same_reports_policies},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-scale", tests)
