/* cmd_flex_check.c — `slotopt flex-check`: checks a malleable schedule
 * against a flex instance (so_flex_evaluate) and prints its objective. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli/cli.h"
#include "formulations/flex_schedule.h"
#include "tools/output/output_format.h"

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: slotopt flex-check [--ignore-minima] [--compact] INSTANCE SCHEDULE\n\n"
            "INSTANCE: a \"flex\" instance. SCHEDULE: {\"intervals\": [{\"start\",\n"
            "\"end\", \"slots\": [...]}, ...]} or the output of 'slotopt solve' on\n"
            "that instance. Prints {\"feasible\": true, \"objective\", \"completion\"}\n"
            "or {\"feasible\": false, \"reason\"}; exit 0 either way, 2 on bad input.\n"
            "  --ignore-minima   accept 0 <= s < m_j while active (FIFO's schedules)\n"
            "  --compact         JSON on one line\n");
}

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
    static const struct option opts[] = {
        {"ignore-minima", no_argument, 0, 'm'},
        {"compact", no_argument, 0, 'C'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    int ignore = 0, compact = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "mh", opts, NULL)) != -1) {
        switch (c) {
        case 'm': ignore = 1; break;
        case 'C': compact = 1; break;
        case 'h': help(stdout); return SO_EXIT_OK;
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
    fputs(dump ? dump : "{}\n", stdout);
    free(dump);
    json_decref(out);
    free(done);
    so_flex_schedule_free(s);
    so_problem_free(p);
    return st == SO_OK || st == SO_INFEASIBLE ? SO_EXIT_OK : so_cli_exit_code(st);
}
