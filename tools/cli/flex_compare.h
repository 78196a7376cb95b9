/* flex_compare.h — the ratio-to-optimum comparison of FLEX's Fig. 5
 * (Wolf et al., Middleware 2010, Section 4.1), as a library routine. */
#ifndef SO_FLEX_COMPARE_H
#define SO_FLEX_COMPARE_H
#include "slotopt.h"

#define SO_FLEX_CMP_MAX_BACKENDS 8

typedef struct so_flex_cmp_row {
    size_t used;        /* instances with a proven optimum > 0 */
    size_t nonpositive; /* optimum <= 0: ratio meaningless, skipped (paper) */
    size_t unproven;    /* exact backend stopped by the time limit: skipped */
    double mean[SO_FLEX_CMP_MAX_BACKENDS];  /* mean ratio backend / optimum */
    double worst[SO_FLEX_CMP_MAX_BACKENDS]; /* largest ratio */
    double exact_mean_s, exact_max_s;       /* exact backend's seconds */
} so_flex_cmp_row;

/* Generates instances 0..count-1 of family `flex-paper` for seed with the
 * settings, solves each with `exact` (time limit in seconds, <= 0: none)
 * and with each backend ("NAME" or "NAME:KEY=VALUE", one option), and
 * fills row. */
int so_flex_compare(const so_params *settings, uint64_t seed, size_t count,
                    const char *const *backends, size_t nb, const char *exact,
                    double time_limit, so_flex_cmp_row *row, so_error *err);

#endif
