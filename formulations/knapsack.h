/* knapsack.h — the 0-1 knapsack formulation (internal).
 *
 * maximise sum_i p_i x_i  s.t.  sum_i w_i x_i <= c,  x_i in {0, 1}.
 * Coefficients are held as 64-bit integers: an instance with decimals is
 * scaled by 10^decimals (the smallest power that makes every value integral,
 * at most 10^9), so every backend works in exact integer arithmetic. */
#ifndef SO_KNAPSACK_H
#define SO_KNAPSACK_H
#include "formulations/common/problem_internal.h"

typedef struct so_kp {
    size_t n;
    int64_t *profit;  /* >= 0, scaled */
    int64_t *weight;  /* >= 0, scaled */
    int64_t capacity; /* >= 0, scaled */
    int decimals;     /* values are integers / 10^decimals */
} so_kp;

extern const so_formulation so_knapsack_formulation;

/* Sums of profits and of weights must each stay below this. */
#define SO_KP_MAX_TOTAL ((int64_t)1 << 61)

so_kp *so_kp_new(size_t n); /* zeroed arrays */
void so_kp_free(so_kp *kp);
/* The instance document {"problem": "knapsack", "version": 1, ...} of kp
 * (the families' output); frees kp. SO_OK or SO_ENOMEM. */
int so_kp_instance_json(so_kp *kp, json_t **out);
const so_kp *so_kp_of(const so_problem *p); /* NULL if not a knapsack */
/* Wraps (takes ownership). */
int so_kp_problem(so_kp *kp, const char *name, so_problem **out);

double so_kp_scale(const so_kp *kp); /* 10^decimals */
/* Items by non-increasing efficiency p/w (zero weights first; ties by
 * index). Caller frees. */
size_t *so_kp_order(const so_kp *kp);
/* Profit of x (0/1 per item); *weight gets its weight. */
int64_t so_kp_value(const so_kp *kp, const unsigned char *x, int64_t *weight);
/* Dantzig's bound: the LP relaxation's value, rounded down. */
int64_t so_kp_dantzig_bound(const so_kp *kp, const size_t *order);
/* Jooken's text format (knapsack_jooken.c): SO_EUNSUPPORTED when the text
 * is not in it, else SO_OK with *data an so_kp, or a located error. */
int so_kp_read_jooken(const char *file, const char *text, void **data,
                      so_error *err);
/* Fills the result from a 0/1 vector (objective, bound, chosen items). */
void so_kp_report(const so_kp *kp, so_result *r, int status,
                  const unsigned char *x, int has_bound, int64_t bound);

#endif
