/* knapsack.c — the 0-1 knapsack: native JSON, Pisinger's two text formats,
 * evaluation, Dantzig's bound and the GLPK model.
 *
 * Text formats (Pisinger's, see instances/knapsack/pisinger/ORIGIN.md;
 * detected by content):
 *   "n c" (or n and c on two lines), then n lines "profit weight", then
 *   optionally one line with the optimal 0/1 vector (which we check but do
 *   not need). Both are read as one token stream with line/column kept.
 *   Jooken's format of the hard instances ("n", n lines "i p w", "c") is
 *   tried first (knapsack_jooken.c).
 * JSON: {"problem": "knapsack", "version": 1, "capacity": c,
 *        "profits": [...], "weights": [...]}. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/knapsack.h"

so_kp *so_kp_new(size_t n)
{
    so_kp *kp = calloc(1, sizeof *kp);
    if (!kp)
        return NULL;
    kp->n = n;
    kp->profit = calloc(n ? n : 1, sizeof *kp->profit);
    kp->weight = calloc(n ? n : 1, sizeof *kp->weight);
    if (!kp->profit || !kp->weight) {
        so_kp_free(kp);
        return NULL;
    }
    return kp;
}

void so_kp_free(so_kp *kp)
{
    if (!kp)
        return;
    free(kp->profit);
    free(kp->weight);
    free(kp);
}

static void free_data(void *d) { so_kp_free(d); }

const so_kp *so_kp_of(const so_problem *p)
{
    return so_problem_data(p, &so_knapsack_formulation);
}

int so_kp_problem(so_kp *kp, const char *name, so_problem **out)
{
    return so_problem_wrap(&so_knapsack_formulation, kp, name, out);
}

double so_kp_scale(const so_kp *kp) { return pow(10.0, kp->decimals); }

/* ---- reading: values arrive as doubles (with an exact integer when the
 * source was integral) and are scaled together ---------------------------- */

typedef struct {
    double v;
    int64_t i;
    int integral;
} raw_value;

/* The integer k with k / 10^d == v exactly in doubles (both are correctly
 * rounded, so a value written with at most d decimals passes and any other
 * fails: no tolerance, nothing rounded); 0 if there is none below 9e15. */
static int scale_exact(const raw_value *r, int d, int64_t *k)
{
    if (r->integral && d == 0) {
        *k = r->i;
        return 1;
    }
    double s = pow(10.0, d), x = r->v * s;
    if (!(fabs(x) < 9e15))
        return 0;
    double near = nearbyint(x), tries[] = {near, near - 1, near + 1};
    for (int t = 0; t < 3; t++)
        if (tries[t] / s == r->v) {
            *k = (int64_t)tries[t];
            return 1;
        }
    return 0;
}

static int integral_at(const raw_value *r, int d)
{
    int64_t k;
    return scale_exact(r, d, &k);
}

/* Smallest d in [0, 9] making every value integral; -1 if none does, with
 * *bad the index of the first value that stays fractional at d = 9. */
static int choose_decimals(const raw_value *vals, size_t n, size_t *bad)
{
    for (int d = 0; d <= 9; d++) {
        size_t k = 0;
        while (k < n && integral_at(&vals[k], d))
            k++;
        if (k == n)
            return d;
        *bad = k;
    }
    return -1;
}

static int64_t scaled(const raw_value *r, int d)
{
    int64_t k = 0;
    scale_exact(r, d, &k); /* d was chosen so that it succeeds */
    return k;
}

/* vals: capacity, then profit_i, weight_i pairs. Returns 0, -2 when out of
 * memory, or 1 + the index into vals of the value that cannot be scaled
 * (more than 9 decimals) or makes a sum overflow. */
static long build_kp(const raw_value *vals, size_t n, so_kp **out)
{
    size_t bad = 0;
    int d = choose_decimals(vals, 2 * n + 1, &bad);
    if (d < 0)
        return (long)bad + 1;
    so_kp *kp = so_kp_new(n);
    if (!kp)
        return -2;
    kp->decimals = d;
    kp->capacity = scaled(&vals[0], d);
    int64_t sp = 0, sw = 0;
    for (size_t i = 0; i < n; i++) {
        kp->profit[i] = scaled(&vals[1 + 2 * i], d);
        kp->weight[i] = scaled(&vals[2 + 2 * i], d);
        /* sp, sw < 2^61: compared before adding, so nothing overflows */
        int bad_p = kp->profit[i] >= SO_KP_MAX_TOTAL - sp;
        if (bad_p || kp->weight[i] >= SO_KP_MAX_TOTAL - sw) {
            so_kp_free(kp);
            return (long)(bad_p ? 2 + 2 * i : 3 + 2 * i);
        }
        sp += kp->profit[i];
        sw += kp->weight[i];
    }
    *out = kp;
    return 0;
}

/* Key of value k of the capacity-profit-weight sequence: "capacity", then
 * "profits[i]"/"weights[i]" (JSON) or "profit[i]"/"weight[i]" (text). */
static void value_key(char *buf, size_t size, size_t k, int json)
{
    if (k == 0)
        snprintf(buf, size, "capacity");
    else
        snprintf(buf, size, "%s%s[%zu]", k % 2 ? "profit" : "weight",
                 json ? "s" : "", (k - 1) / 2);
}

static int read_json(so_jin *in, json_t *root, void **data)
{
    static const char *const keys[] = {"capacity", "profits", "weights", NULL};
    int rc = so_jin_keys(in, root, "", keys);
    json_t *profits = NULL, *weights = NULL;
    if (!rc)
        rc = so_jin_array(in, root, "", "profits", SO_REQUIRED, 0, &profits);
    if (!rc)
        rc = so_jin_array(in, root, "", "weights", SO_REQUIRED, 0, &weights);
    if (rc)
        return rc;
    size_t n = json_array_size(profits);
    if (json_array_size(weights) != n)
        return so_jin_fail(in, "weights", 0,
                           "expected %zu weights (one per profit), found %zu",
                           n, json_array_size(weights));
    raw_value *vals = calloc(2 * n + 1, sizeof *vals);
    if (!vals)
        return SO_ENOMEM;
    json_t *cap = NULL;
    rc = so_jin_get(in, root, "", "capacity", SO_REQUIRED, &cap);
    for (size_t k = 0; !rc && k < 2 * n + 1; k++) {
        json_t *v = k == 0 ? cap : json_array_get(k % 2 ? profits : weights,
                                                  (k - 1) / 2);
        char path[64];
        value_key(path, sizeof path, k, 1);
        if (!json_is_number(v)) {
            rc = so_jin_fail(in, path, 0, "expected a number, found %s",
                             json_is_string(v) ? "a string" : "another type");
        } else if (json_number_value(v) < 0) {
            rc = so_jin_fail(in, path, 0, "expected a non-negative number, found %g",
                             json_number_value(v));
        } else {
            vals[k].v = json_number_value(v);
            vals[k].integral = json_is_integer(v);
            vals[k].i = json_is_integer(v) ? json_integer_value(v) : 0;
        }
    }
    so_kp *kp = NULL;
    if (!rc) {
        long bad = build_kp(vals, n, &kp);
        if (bad == -2) {
            rc = SO_ENOMEM;
        } else if (bad > 0) {
            char path[64];
            value_key(path, sizeof path, (size_t)bad - 1, 1);
            rc = so_jin_fail(in, path, 0,
                             "needs more than 9 decimals, or the sum of profits"
                             " or weights exceeds 2^61 once scaled");
        }
    }
    free(vals);
    if (!rc)
        *data = kp;
    return rc;
}

/* ---- Pisinger text formats ---------------------------------------------- */

typedef struct {
    const char *s;
    size_t i;
    int line, col;
    int tline, tcol; /* position of the last token */
    char tok[64];
} scanner;

/* Next whitespace-separated token; 0 at end of text. */
static int next_token(scanner *sc)
{
    while (sc->s[sc->i] && isspace((unsigned char)sc->s[sc->i])) {
        char c = sc->s[sc->i]; /* line ends: LF, CR LF, or CR alone */
        if (c == '\n' || (c == '\r' && sc->s[sc->i + 1] != '\n')) {
            sc->line++;
            sc->col = 1;
        } else {
            sc->col++;
        }
        sc->i++;
    }
    if (!sc->s[sc->i])
        return 0;
    sc->tline = sc->line;
    sc->tcol = sc->col;
    size_t n = 0;
    int fits = 1;
    while (sc->s[sc->i] && !isspace((unsigned char)sc->s[sc->i])) {
        if (n + 1 < sizeof sc->tok)
            sc->tok[n++] = sc->s[sc->i];
        else
            fits = 0;
        sc->i++;
        sc->col++;
    }
    sc->tok[n] = '\0';
    if (!fits) /* never a truncated number */
        snprintf(sc->tok, sizeof sc->tok, "(a token over %zu characters)",
                 sizeof sc->tok - 1);
    return 1;
}

static int parse_number(const char *tok, raw_value *out)
{
    char *end;
    errno = 0;
    if (!strpbrk(tok, ".eE")) {
        long long x = strtoll(tok, &end, 10);
        if (*end || end == tok || errno)
            return 0;
        out->i = x;
        out->v = (double)x;
        out->integral = 1;
        return 1;
    }
    double x = strtod(tok, &end);
    if (*end || end == tok || errno || !isfinite(x))
        return 0;
    out->v = x;
    out->integral = 0;
    return 1;
}

static int read_text(const char *file, const char *text, void **data,
                     so_error *err)
{
    int jooken = so_kp_read_jooken(file, text, data, err);
    if (jooken != SO_EUNSUPPORTED)
        return jooken;
    scanner sc = {text, 0, 1, 1, 1, 1, ""};
    raw_value first;
    if (!next_token(&sc) || !parse_number(sc.tok, &first))
        return SO_EUNSUPPORTED;
    if (!first.integral || first.i < 0 || first.i > 100000000)
        return so_error_setf(err, file, sc.tline, sc.tcol, "n",
                             "expected the number of items (an integer in"
                             " [0, 1e8]), found '%s'", sc.tok);
    size_t n = (size_t)first.i;
    /* tokens take two characters each: a short file announcing many items
     * ends (an error at its line) before it could need more room */
    size_t room = strlen(text + sc.i) / 2 + 2;
    size_t slots = 2 * n + 1 < room ? 2 * n + 1 : room;
    raw_value *vals = calloc(slots, sizeof *vals);
    struct {
        int line, col;
    } *pos = calloc(slots, sizeof *pos);
    if (!vals || !pos) {
        free(vals);
        free(pos);
        return SO_ENOMEM;
    }
    int rc = SO_OK;
    char key[64];
    for (size_t k = 0; k < 2 * n + 1 && !rc; k++) {
        value_key(key, sizeof key, k, 0);
        if (!next_token(&sc))
            rc = so_error_setf(err, file, sc.line, sc.col, key,
                               "unexpected end of file: expected %s (file"
                               " truncated?)", key);
        else if ((pos[k].line = sc.tline, pos[k].col = sc.tcol,
                  !parse_number(sc.tok, &vals[k])))
            rc = so_error_setf(err, file, sc.tline, sc.tcol, key,
                               "expected a number, found '%s'", sc.tok);
        else if (vals[k].v < 0)
            rc = so_error_setf(err, file, sc.tline, sc.tcol, key,
                               "expected a non-negative number, found '%s'",
                               sc.tok);
    }
    /* optional solution line: exactly n values of 0 or 1 */
    size_t given = 0;
    for (size_t k = 0; !rc && next_token(&sc); k++, given++) {
        snprintf(key, sizeof key, "solution[%zu]", k);
        if (k >= n)
            rc = so_error_setf(err, file, sc.tline, sc.tcol, NULL,
                               "unexpected token '%s' after the solution line",
                               sc.tok);
        else if (strcmp(sc.tok, "0") && strcmp(sc.tok, "1"))
            rc = so_error_setf(err, file, sc.tline, sc.tcol, key,
                               "expected 0 or 1 in the solution line, found '%s'",
                               sc.tok);
    }
    if (!rc && given > 0 && given < n)
        rc = so_error_setf(err, file, sc.tline, sc.tcol, "solution",
                           "solution line has %zu values, expected %zu",
                           given, n);
    so_kp *kp = NULL;
    if (!rc) {
        long bad = build_kp(vals, n, &kp);
        if (bad == -2) {
            rc = SO_ENOMEM;
        } else if (bad > 0) {
            size_t k = (size_t)bad - 1;
            value_key(key, sizeof key, k, 0);
            rc = so_error_setf(err, file, pos[k].line, pos[k].col, key,
                               "needs more than 9 decimals, or the sum of"
                               " profits or weights exceeds 2^61 once scaled");
        }
    }
    free(vals);
    free(pos);
    if (!rc)
        *data = kp;
    return rc;
}

/* ---- writing ------------------------------------------------------------- */

static json_t *value_json(const so_kp *kp, int64_t v)
{
    return kp->decimals ? json_real((double)v / so_kp_scale(kp))
                        : json_integer(v);
}

static json_t *to_json(const void *d)
{
    const so_kp *kp = d;
    json_t *o = json_object(), *p = json_array(), *w = json_array();
    for (size_t i = 0; i < kp->n; i++) {
        json_array_append_new(p, value_json(kp, kp->profit[i]));
        json_array_append_new(w, value_json(kp, kp->weight[i]));
    }
    json_object_set_new(o, "capacity", value_json(kp, kp->capacity));
    json_object_set_new(o, "profits", p);
    json_object_set_new(o, "weights", w);
    return o;
}

/* ---- evaluation and bounds ------------------------------------------------ */

static int by_efficiency(const void *a, const void *b, void *arg)
{
    const so_kp *kp = arg;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    /* p_i / w_i > p_j / w_j  <=>  p_i w_j > p_j w_i (w = 0: infinite, even
     * with p = 0, so that zero weights always come first) */
    if ((kp->weight[i] == 0) != (kp->weight[j] == 0))
        return kp->weight[i] == 0 ? -1 : 1;
    __int128 l = (__int128)kp->profit[i] * kp->weight[j];
    __int128 r = (__int128)kp->profit[j] * kp->weight[i];
    if (kp->weight[i] == 0 && kp->weight[j] == 0)
        l = kp->profit[i], r = kp->profit[j];
    if (l != r)
        return l > r ? -1 : 1;
    return i < j ? -1 : i > j;
}

size_t *so_kp_order(const so_kp *kp)
{
    size_t *order = malloc((kp->n ? kp->n : 1) * sizeof *order);
    if (!order)
        return NULL;
    for (size_t i = 0; i < kp->n; i++)
        order[i] = i;
    qsort_r(order, kp->n, sizeof *order, by_efficiency, (void *)kp);
    return order;
}

int64_t so_kp_value(const so_kp *kp, const unsigned char *x, int64_t *weight)
{
    int64_t p = 0, w = 0;
    for (size_t i = 0; i < kp->n; i++)
        if (x[i]) {
            p += kp->profit[i];
            w += kp->weight[i];
        }
    if (weight)
        *weight = w;
    return p;
}

int64_t so_kp_dantzig_bound(const so_kp *kp, const size_t *order)
{
    int64_t room = kp->capacity, p = 0;
    for (size_t k = 0; k < kp->n; k++) {
        size_t i = order[k];
        if (kp->weight[i] <= room) {
            room -= kp->weight[i];
            p += kp->profit[i];
        } else {
            /* the break item, fractionally: floor(room * p_i / w_i) */
            p += (int64_t)((__int128)room * kp->profit[i] / kp->weight[i]);
            break;
        }
    }
    return p;
}

void so_kp_report(const so_kp *kp, so_result *r, int status,
                  const unsigned char *x, int has_bound, int64_t bound)
{
    double s = so_kp_scale(kp);
    so_result_set_status(r, status);
    if (has_bound && !kp->decimals)
        so_result_set_bound_int(r, bound);
    else if (has_bound)
        so_result_set_bound(r, (double)bound / s);
    if (!x)
        return;
    int64_t w;
    int64_t p = so_kp_value(kp, x, &w);
    if (kp->decimals)
        so_result_set_objective(r, (double)p / s);
    else
        so_result_set_objective_int(r, p);
    json_t *items = json_array();
    for (size_t i = 0; i < kp->n; i++)
        if (x[i])
            json_array_append_new(items, json_integer((json_int_t)i));
    json_t *sol = json_object();
    json_object_set_new(sol, "items", items);
    json_object_set_new(sol, "weight", value_json(kp, w));
    json_object_set_new(sol, "profit", value_json(kp, p));
    so_result_set_solution(r, sol);
}

/* ---- GLPK model ------------------------------------------------------------ */

static int build_glpk(const void *d, glp_prob *lp, so_error *err)
{
    (void)err;
    const so_kp *kp = d;
    double s = so_kp_scale(kp);
    glp_set_obj_dir(lp, GLP_MAX);
    glp_set_obj_name(lp, "profit");
    glp_add_rows(lp, 1);
    glp_set_row_name(lp, 1, "capacity");
    glp_set_row_bnds(lp, 1, GLP_UP, 0.0, (double)kp->capacity / s);
    if (kp->n == 0)
        return SO_OK;
    glp_add_cols(lp, (int)kp->n);
    int *ind = malloc((kp->n + 1) * sizeof *ind);
    double *val = malloc((kp->n + 1) * sizeof *val);
    if (!ind || !val) {
        free(ind);
        free(val);
        return SO_ENOMEM;
    }
    for (size_t i = 0; i < kp->n; i++) {
        int j = (int)i + 1;
        char name[32];
        snprintf(name, sizeof name, "x%zu", i);
        glp_set_col_name(lp, j, name);
        glp_set_col_kind(lp, j, GLP_BV);
        glp_set_obj_coef(lp, j, (double)kp->profit[i] / s);
        ind[j] = j;
        val[j] = (double)kp->weight[i] / s;
    }
    glp_set_mat_row(lp, 1, (int)kp->n, ind, val);
    free(ind);
    free(val);
    return SO_OK;
}

const so_formulation so_knapsack_formulation = {
    .name = "knapsack",
    .description = "0-1 knapsack: choose items of maximum profit within a capacity",
    .sense = SO_MAXIMIZE,
    .read_json = read_json,
    .to_json = to_json,
    .free_data = free_data,
    .read_text = read_text,
    .build_glpk = build_glpk,
};

int so_kp_instance_json(so_kp *kp, json_t **out)
{
    json_t *body = so_knapsack_formulation.to_json(kp);
    so_kp_free(kp);
    json_t *inst = body ? json_object() : NULL;
    if (!inst) {
        json_decref(body);
        return SO_ENOMEM;
    }
    json_object_set_new(inst, "problem", json_string("knapsack"));
    json_object_set_new(inst, "version", json_integer(1));
    json_object_update(inst, body);
    json_decref(body);
    *out = inst;
    return SO_OK;
}
