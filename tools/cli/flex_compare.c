/* flex_compare.c — Fig. 5 of Wolf et al. (Middleware 2010, Section 4.1):
 * for each generated instance, the ratio of each scheme's objective to the
 * exact optimum; mean and worst over the instances. As in the paper,
 * instances whose optimum is <= 0 are ignored (the ratio is meaningless),
 * and so are instances the exact backend did not prove within its time
 * limit (counted apart). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tools/cli/flex_compare.h"

/* spec: NAME or NAME:KEY=VALUE (one backend option). */
static int run(const char *spec, const so_problem *p, double time_limit,
               so_result **out, so_error *err)
{
    char name[128];
    const char *colon = strchr(spec, ':');
    snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - spec) : 127, spec);
    const so_backend *b = so_backend_find(name);
    if (!b)
        return so_error_setf(err, NULL, 0, 0, "backend", "unknown backend '%s'", name);
    so_params prm;
    so_params_init(&prm);
    prm.time_limit = time_limit;
    if (colon && so_params_set_kv(&prm, colon + 1, err))
        return SO_EINVAL;
    int rc = so_solve(b, p, &prm, out, err);
    return rc < 0 ? rc : SO_OK;
}

int so_flex_compare(const so_params *settings, uint64_t seed, size_t count,
                    const char *const *backends, size_t nb, const char *exact,
                    double time_limit, so_flex_cmp_row *row, so_error *err)
{
    const so_family *fam = so_family_find("flex-paper");
    memset(row, 0, sizeof *row);
    if (nb > SO_FLEX_CMP_MAX_BACKENDS)
        return so_error_setf(err, NULL, 0, 0, "backends", "at most %d backends",
                             SO_FLEX_CMP_MAX_BACKENDS);
    int rc = SO_OK;
    for (size_t i = 0; i < count && !rc; i++) {
        json_t *inst = NULL;
        so_problem *p = NULL;
        so_result *opt = NULL;
        rc = so_family_generate(fam, settings, seed, i, &inst, err);
        if (!rc)
            rc = so_problem_from_json(inst, "flex-paper", &p, err);
        json_decref(inst);
        if (!rc)
            rc = run(exact, p, time_limit, &opt, err);
        if (!rc) {
            double v = so_result_objective(opt), s = so_result_seconds(opt);
            row->exact_mean_s += s / (double)count;
            row->exact_max_s = fmax(row->exact_max_s, s);
            if (so_result_status(opt) != SO_OPTIMAL) {
                row->unproven++;
            } else if (!(v > 0)) {
                row->nonpositive++;
            } else {
                row->used++;
                for (size_t k = 0; k < nb && !rc; k++) {
                    so_result *h = NULL;
                    rc = run(backends[k], p, 0, &h, err);
                    if (!rc) {
                        double ratio = so_result_objective(h) / v;
                        row->mean[k] += ratio;
                        row->worst[k] = fmax(row->worst[k], ratio);
                    }
                    so_result_free(h);
                }
            }
        }
        so_result_free(opt);
        so_problem_free(p);
    }
    for (size_t k = 0; k < nb && row->used; k++)
        row->mean[k] /= (double)row->used;
    return rc;
}
