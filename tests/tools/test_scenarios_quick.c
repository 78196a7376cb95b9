/* test_scenarios_quick.c — every shipped scenario's quick form end to end:
 * `slotopt scenarios` lists it, `bench --scenario NAME --quick` runs it and
 * `report --scenario NAME --quick --format json` prints its tables; each
 * table has the rows its definition implies (the product of the values of
 * its row keys: the policies it shows, each family parameter's values among
 * the quick inputs it keeps; over time, at most that and at least one row
 * per point) and no failed cell or missing value. A scenario
 * that breaks fails here. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"

/* The scenario file with its quick form applied (as so_scenario_load). */
static json_t *quick_form(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "instances/scenarios/%s.json", name);
    json_t *root = json_load_file(path, 0, NULL);
    json_t *q = json_object_get(root, "quick");
    if (q)
        json_object_update(root, q);
    return root;
}

/* Whether a value (text or number) appears in the array of a "where". */
static int listed(json_t *vals, json_t *v)
{
    size_t i;
    json_t *e;
    json_array_foreach(vals, i, e) if (json_equal(e, v) ||
                                       (json_is_number(e) && json_is_number(v) &&
                                        json_number_value(e) == json_number_value(v)))
        return 1;
    return 0;
}

/* Whether a family input passes the table's "where" on family parameters. */
static int kept(json_t *table, json_t *input)
{
    json_t *where = json_object_get(table, "where");
    const char *key;
    json_t *vals;
    json_object_foreach(where, key, vals) {
        json_t *v = json_object_get(json_object_get(input, "params"), key);
        if (v && !listed(vals, v))
            return 0;
    }
    return 1;
}

/* Distinct combinations of the family parameters keys (n of them) over the
 * kept inputs (rows are the combinations some cell has); 0 when an input
 * does not give one of them (a workload file, a folder, a default). */
static size_t param_combinations(json_t *sc, json_t *table, const char **keys, size_t n)
{
    json_t *seen = json_array();
    size_t i;
    json_t *in;
    int known = 1;
    json_array_foreach(json_object_get(sc, "inputs"), i, in) {
        if (!kept(table, in))
            continue;
        json_t *tuple = json_array();
        for (size_t k = 0; k < n; k++) {
            json_t *v = json_object_get(json_object_get(in, "params"), keys[k]);
            known &= v != NULL;
            json_array_append_new(tuple, v ? json_real(json_is_number(v) ? json_number_value(v)
                                                                         : 0)
                                           : json_null());
            if (json_is_string(v))
                json_array_set(tuple, k, v);
        }
        if (!listed(seen, tuple))
            json_array_append(seen, tuple);
        json_decref(tuple);
    }
    size_t c = known ? json_array_size(seen) : 0;
    json_decref(seen);
    return c;
}

static size_t policy_count(json_t *sc, json_t *table)
{
    json_t *shown = json_object_get(table, "policies");
    if (shown)
        return json_array_size(shown);
    json_t *p = json_object_get(sc, "policies");
    if (p) {
        /* the lower bound is added when it is the reference */
        const char *ref = json_string_value(json_object_get(sc, "sim_reference"));
        size_t n = json_array_size(p), i;
        json_t *e;
        int has = 0;
        json_array_foreach(p, i, e) has |= json_is_string(e) &&
                                           !strcmp(json_string_value(e), "lower-bound");
        return n + (ref && !strcmp(ref, "lower-bound") && !has);
    }
    json_t *b = json_object_get(sc, "backends"), *r = json_object_get(sc, "reference");
    size_t n = json_is_array(b) ? json_array_size(b) : 1;
    if (json_is_string(r)) { /* the reference runs too, once */
        size_t i;
        json_t *e;
        int dup = json_is_string(b) && !strcmp(json_string_value(b), json_string_value(r));
        json_array_foreach(b, i, e) { /* a name, or {"name", "backend", "options"} */
            json_t *nm = json_is_object(e) ? json_object_get(e, "name") : e;
            dup |= !strcmp(json_string_value(nm), json_string_value(r));
        }
        n += !dup;
    }
    return n;
}

/* Distinct values of key among the report's rows (at least one). */
static size_t report_values(json_t *report_rows, const char *key)
{
    json_t *seen = json_array();
    size_t r;
    json_t *row;
    json_array_foreach(report_rows, r, row) {
        json_t *v = json_object_get(json_object_get(row, "keys"), key);
        if (v && !listed(seen, v))
            json_array_append(seen, v);
    }
    size_t m = json_array_size(seen);
    json_decref(seen);
    CU_ASSERT(m >= 1);
    return m;
}

/* Expected rows of a table: its policies times the combinations of its
 * family-parameter keys among the inputs it keeps; a key whose values are
 * not in the scenario file (user, job_name, family, instance, parameters
 * of workload files) counts the report's own values of it. */
/* The scenario's settings that the table's "where" keeps. */
static size_t setting_count(json_t *sc, json_t *table)
{
    json_t *keep = json_object_get(json_object_get(table, "where"), "setting");
    size_t n = 0, i;
    json_t *st;
    json_array_foreach(json_object_get(sc, "settings"), i, st) n +=
        !keep || listed(keep, json_object_get(st, "name"));
    return n;
}

static size_t expected_rows(json_t *sc, json_t *table, json_t *report_rows)
{
    size_t n = 1, i, n_params = 0;
    const char *params[8];
    json_t *k;
    json_array_foreach(json_object_get(table, "rows"), i, k) {
        const char *key = json_string_value(k);
        if (!strcmp(key, "policy"))
            n *= policy_count(sc, table);
        else if (!strcmp(key, "setting") && json_object_get(sc, "settings"))
            n *= setting_count(sc, table);
        else if (!strcmp(key, "user") || !strcmp(key, "job_name") || !strcmp(key, "family") ||
                 !strcmp(key, "instance") || !strcmp(key, "time"))
            n *= report_values(report_rows, key);
        else if (n_params < 8)
            params[n_params++] = key;
    }
    if (n_params) {
        size_t c = param_combinations(sc, table, params, n_params);
        for (size_t p = 0; !c && p < n_params; p++)
            n *= report_values(report_rows, params[p]);
        n *= c ? c : 1;
    }
    return n;
}

static void check_scenario(const char *name)
{
    char args[1400], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "bench --scenario %s --quick --db %s/q-%s.db", name,
             so_test_tmpdir(), name);
    int rc = so_test_run(args, &out, &err);
    if (rc)
        fprintf(stderr, "\nscenario %s: bench exit %d: %s\n", name, rc, err);
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
    free(err);
    snprintf(args, sizeof args, "report --scenario %s --quick --db %s/q-%s.db --format json"
             " --compact", name, so_test_tmpdir(), name);
    rc = so_test_run(args, &out, &err);
    if (rc)
        fprintf(stderr, "\nscenario %s: report exit %d: %s\n", name, rc, err);
    CU_ASSERT_EQUAL(rc, 0);
    json_t *rep = json_loads(out ? out : "", 0, NULL), *sc = quick_form(name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rep);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    json_t *defs = json_object_get(sc, "table"), *tables = json_object_get(rep, "tables");
    size_t n_defs = json_is_array(defs) ? json_array_size(defs) : 1;
    CU_ASSERT_EQUAL(json_array_size(tables), n_defs);
    for (size_t i = 0; i < json_array_size(tables) && i < n_defs; i++) {
        json_t *t = json_array_get(tables, i);
        json_t *def = json_is_array(defs) ? json_array_get(defs, i) : defs;
        json_t *rows = json_object_get(t, "rows");
        size_t want = expected_rows(sc, def, rows), have = json_array_size(rows);
        /* over time, each policy's and job's rows end with its run: at
         * least one row per point, at most every combination */
        int timed = 0;
        size_t k;
        json_t *key;
        json_array_foreach(json_object_get(def, "rows"), k, key)
            timed |= !strcmp(json_string_value(key), "time");
        int ok = timed ? have >= report_values(rows, "time") && have <= want : have == want;
        if (!ok)
            fprintf(stderr, "\nscenario %s, table %zu: %zu rows, expected %s%zu\n", name,
                    i + 1, have, timed ? "at most " : "", want);
        CU_ASSERT(ok);
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(t, "failed_cells")), 0);
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(t, "missing_values")), 0);
        /* every claim finds its rows: no "no data" verdict */
        json_t *v;
        json_array_foreach(json_object_get(t, "claims"), k, v) {
            const char *word = json_string_value(json_object_get(v, "verdict"));
            if (word && !strcmp(word, "no data"))
                fprintf(stderr, "\nscenario %s, table %zu: claim '%s' has no data\n", name,
                        i + 1, json_string_value(json_object_get(v, "claim")));
            CU_ASSERT(word && strcmp(word, "no data"));
        }
    }
    json_decref(rep);
    json_decref(sc);
    free(out);
    free(err);
}

static void test_every_scenario(void)
{
    char *out = NULL, *err = NULL;
    CU_ASSERT_EQUAL_FATAL(so_test_run("scenarios --format json", &out, &err), 0);
    json_t *list = json_loads(out, 0, NULL);
    CU_ASSERT_FATAL(json_array_size(list) >= 20);
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        /* every scenario names its figure, has a table and its run times */
        const char *name = json_string_value(json_object_get(e, "scenario"));
        CU_ASSERT(strlen(json_string_value(json_object_get(e, "figure"))) > 0);
        CU_ASSERT(json_integer_value(json_object_get(e, "tables")) >= 1);
        CU_ASSERT(json_real_value(json_object_get(e, "runtime_quick")) > 0);
        check_scenario(name);
    }
    json_decref(list);
    free(out);
    free(err);
}

static CU_TestInfo tests[] = {
    {"every scenario's quick form, bench and report", test_every_scenario},
    CU_TEST_INFO_NULL,
};

SO_SUITE("scenarios-quick", tests)
