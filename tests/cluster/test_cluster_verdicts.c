/* test_cluster_verdicts.c — the papers' claims that the cluster model does
 * not reproduce, and the physics each verdict depends on (issue 32, item
 * 4; the verdict-* scenarios measure them over seeds and settings): one
 * seed each, the figures of docs/ras-online.md, docs/stealing.md and
 * docs/flex.md ("Verdict") within their seed-to-seed spread. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"

/* `slotopt gen FAMILY --set SETS --out DIR` into a fresh folder: the
 * workload's path. */
static const char *gen(const char *family, const char *sets, const char *dir)
{
    static char path[1024];
    char args[1400], *out = NULL;
    snprintf(args, sizeof args, "gen %s %s --out %s/%s", family, sets, so_test_tmpdir(), dir);
    CU_ASSERT_EQUAL(so_test_run(args, &out, NULL), 0);
    /* gen prints the file it wrote */
    char *nl = out ? strchr(out, '\n') : NULL;
    if (nl)
        *nl = '\0';
    snprintf(path, sizeof path, "%s", out ? out : "");
    free(out);
    return path;
}

/* A field of the run's summary (`sim W ARGS --summary`); -1 when missing,
 * which the callers' "> 0" checks catch. */
static double sim(const char *w, const char *args, const char *field, const char *sub)
{
    char cmd[2048], *out = NULL;
    snprintf(cmd, sizeof cmd, "sim %s %s --summary --compact", w, args);
    CU_ASSERT_EQUAL(so_test_run(cmd, &out, NULL), 0);
    json_t *j = out ? json_loads(out, 0, NULL) : NULL;
    free(out);
    json_t *v = json_object_get(j, field);
    if (sub)
        v = json_object_get(v, sub);
    double x = json_is_number(v) ? json_number_value(v) : -1;
    json_decref(j);
    return x;
}

/* RAS Experiment 1: RAS beats the best static setting under physical and
 * loses to Fair-5 under share (over-commitment free); Fair-1 / RAS is 2.26
 * at the default headroom, below the paper's 2 only at headroom 2. */
static void test_ras_depends_on_contention(void)
{
    char w[1024];
    snprintf(w, sizeof w, "%s", gen("ras-gridmix-workload", "--set goals=none", "vras"));
    double ras = sim(w, "--scheduler ras", "makespan", NULL), f1 = 0, best = 0;
    CU_ASSERT(ras > 0);
    /* the best of the 8 static settings (Fair with 1 to 8 map slots) */
    for (int slots = 1; slots <= 8; slots++) {
        char args[96];
        snprintf(args, sizeof args, "--scheduler fair --opt map_slots=%d", slots);
        double f = sim(w, args, "makespan", NULL);
        CU_ASSERT(f > 0);
        if (slots == 1)
            f1 = f;
        if (slots == 1 || f < best)
            best = f;
    }
    CU_ASSERT(ras < best);
    CU_ASSERT(f1 / ras > 2.15 && f1 / ras < 2.4);
    double ras_s = sim(w, "--scheduler ras --opt contention=share", "makespan", NULL);
    double f5_s = sim(w, "--scheduler fair --opt map_slots=5 --opt contention=share",
                      "makespan", NULL);
    CU_ASSERT(ras_s > 0 && f5_s > 0 && f5_s < 0.96 * ras_s);
    double ras_h = sim(w, "--scheduler ras --opt profile_headroom=2", "makespan", NULL);
    double f1_h = sim(w, "--scheduler fair --opt map_slots=1 --opt profile_headroom=2",
                      "makespan", NULL);
    CU_ASSERT(ras_h > 0 && f1_h > 0 && f1_h / ras_h < 2);
}

/* Stealing Fig. 3: Even at 56 maps gains more than the paper's -58 %
 * (0.42 of native): 0.31 here, outside 0.42 +- 0.05. */
static void test_stealing_gains_more(void)
{
    const char *w = gen("stealing-paper", "--set tasks=56", "vsteal");
    double native = sim(w, "--scheduler fifo --speculation hadoop", "makespan", NULL);
    double even = sim(w, "--scheduler fifo --speculation hadoop --stealing even", "makespan",
                      NULL);
    CU_ASSERT(native > 0 && even > 0 && even / native < 0.37);
}

/* FLEX Fig. 6(c): at job-size sd 4 FLEX is still about 35 % better than
 * Fair, not "not much better". */
static void test_flex_large_sigma(void)
{
    const char *w = gen("flex-cluster", "--set sigma=4", "vflex");
    double fair = sim(w, "--scheduler fair", "response", "mean");
    double flex = sim(w, "--scheduler flex", "response", "mean");
    CU_ASSERT(fair > 0 && flex > 0 && flex / fair < 0.8);
}

static CU_TestInfo tests[] = {
    {"RAS's verdict depends on the contention model", test_ras_depends_on_contention},
    {"stealing gains more than the paper at 25 % load", test_stealing_gains_more},
    {"FLEX much better than Fair at large sd", test_flex_large_sigma},
    CU_TEST_INFO_NULL,
};
SO_SUITE("cluster-verdicts", tests)
