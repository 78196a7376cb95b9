/* cmd_flex_check.c — `slotopt flex-check`: checks a malleable schedule
 * against a flex instance (so_flex_evaluate) and prints its objective. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_opts.h"
#include "formulations/flex_schedule.h"
#include "tools/output/output_format.h"

static const so_cli_opt opts[] = {
    {"ignore-minima", 'm', SO_OPT_SHORT, NULL,
     "accept 0 <= s < m_j while active (FIFO's schedules)"},
    {"compact", 'C', 0, NULL, "JSON on one line"},
    {"output", 'o', SO_OPT_SHORT, "OUT", "write to OUT (atomically) instead of stdout"},
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

const so_cli_spec so_flex_check_spec = {
    "flex-check", "INSTANCE SCHEDULE",
    "INSTANCE: a \"flex\" instance. SCHEDULE: {\"intervals\": [{\"start\",\n"
    "\"end\", \"slots\": [...]}, ...]} or the output of 'slotopt solve' on\n"
    "that instance. Prints {\"feasible\": true, \"objective\", \"completion\"}\n"
    "or {\"feasible\": false, \"reason\"}; exit 0 either way, 2 on bad input.\n",
    opts, 0, 0, NULL};

static char *read_text(const char *path, so_error *err)
{
    char *buf = NULL;
    return so_read_input(path, &buf, NULL, err) ? NULL : buf;
}

/* The schedule in text: a bare {"intervals"} or solve's {"solution": {...}}. */
static int read_schedule(const char *path, const char *text, size_t n,
                         so_flex_schedule **s, so_error *err)
{
    json_error_t je;
    json_t *root = json_loads(text, 0, &je);
    if (!root)
        return so_error_setf(err, path, je.line, je.column, NULL, "not JSON: %s",
                             je.text);
    static const char *const bare[] = {"intervals", NULL};
    static const char *const sol[] = {"order", "completion", "allocation",
                                      "intervals", NULL};
    so_jin in = {path, text, err};
    json_t *solution = json_object_get(root, "solution");
    int rc = !json_is_object(root) ? so_error_setf(err, path, 1, 1, NULL,
                                                   "expected an object")
             : solution ? so_jin_keys(&in, solution, "solution", sol)
                        : so_jin_keys(&in, root, "", bare);
    if (!rc)
        rc = solution ? so_flex_schedule_read(&in, solution, "solution", n, s)
                      : so_flex_schedule_read(&in, root, "", n, s);
    json_decref(root);
    return rc;
}

int so_cmd_flex_check(int argc, char **argv)
{
    int ignore = 0, compact = 0, c;
    const char *outpath = NULL;
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_flex_check_spec)) != -1) {
        switch (c) {
        case 'm': ignore = 1; break;
        case 'C': compact = 1; break;
        case 'o': outpath = optarg; break;
        case 'h': return so_cli_print_help(&so_flex_check_spec);
        default: return so_cli_bad_option("flex-check", argv);
        }
    }
    if (optind != argc - 2)
        return so_cli_usage_error("flex-check", "expected INSTANCE and SCHEDULE");
    so_error err;
    so_error_clear(&err);
    so_problem *p = NULL;
    int rc = so_problem_read(argv[optind], &p, &err);
    if (rc)
        return so_cli_report_error("flex-check", rc, &err);
    if (strcmp(so_problem_kind(p), "flex")) {
        so_problem_free(p);
        return so_cli_usage_error("flex-check", "%s is not a flex instance", argv[optind]);
    }
    const so_flex *f = so_flex_of(p);
    char *text = read_text(argv[optind + 1], &err);
    so_flex_schedule *s = NULL;
    rc = text ? read_schedule(argv[optind + 1], text, f->n, &s, &err) : SO_EIO;
    free(text);
    double *done = rc ? NULL : malloc((f->n ? f->n : 1) * sizeof *done), obj = 0;
    char why[512] = "";
    if (!rc && !done)
        rc = SO_ENOMEM;
    if (rc) {
        so_problem_free(p);
        return so_cli_report_error("flex-check", rc, &err);
    }
    int st = so_flex_evaluate(f, s, ignore, done, &obj, why, sizeof why);
    json_t *out = json_object();
    json_object_set_new(out, "feasible", json_boolean(st == SO_OK));
    if (st == SO_OK) {
        json_t *ct = json_array();
        for (size_t j = 0; j < f->n; j++)
            json_array_append_new(ct, json_real(done[j]));
        json_object_set_new(out, "objective", json_real(obj));
        json_object_set_new(out, "completion", ct);
    } else {
        json_object_set_new(out, "reason", json_string(why));
    }
    char *dump = so_ojson_dumps(out, compact);
    json_decref(out);
    free(done);
    so_flex_schedule_free(s);
    so_problem_free(p);
    int code = st == SO_OK || st == SO_INFEASIBLE ? SO_EXIT_OK : so_cli_exit_code(st);
    if (code == SO_EXIT_OK && !dump)
        code = so_cli_report_error("flex-check", SO_ENOMEM, NULL);
    if (code == SO_EXIT_OK) {
        rc = so_write_file_atomic(outpath ? outpath : "-", dump, strlen(dump), &err);
        if (rc)
            code = so_cli_report_error("flex-check", rc, &err);
    }
    free(dump);
    return code;
}
