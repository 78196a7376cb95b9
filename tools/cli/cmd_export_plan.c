/* cmd_export_plan.c — `slotopt export --format fair-scheduler|yarn-fair|
 * capacity-scheduler FILE [-o OUT] [--opt budget=B] [--opt deadline=D]
 * [--opt container_mb=M] [--opt am_mb=M] [--opt alloc_mb=M]
 * [--opt at=SECONDS]`: the Hadoop scheduler
 * configuration of a plan (docs/hadoop-export.md). FILE is an instance
 * (solved with its default backend), a result JSON of `slotopt solve`, or
 * a cluster workload (its WPBS shares at time `at`). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_opts.h"
#include "tools/export/export_plan.h"
#include "tools/export/export_wpbs.h"

int so_export_plan_format(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if ((!strcmp(a, "--format") || !strcmp(a, "-f")) && i + 1 < argc)
            v = argv[i + 1];
        else if (!strncmp(a, "--format=", 9))
            v = a + 9;
        else if (!strncmp(a, "-f", 2) && a[2])
            v = a + 2;
        if (v && so_hc_format_parse(v))
            return so_hc_format_parse(v);
    }
    return 0;
}

static int parse_opt(const char *kv, so_plan_choice *c, double *at)
{
    const char *eq = strchr(kv, '=');
    if (!eq)
        return -1;
    double x;
    if (so_cli_parse_double(eq + 1, &x))
        return -1;
    size_t k = (size_t)(eq - kv);
    if (k == 6 && !strncmp(kv, "budget", 6))
        c->budget = x;
    else if (k == 8 && !strncmp(kv, "deadline", 8) && x > 0)
        c->deadline = x;
    else if (k == 2 && !strncmp(kv, "at", 2) && x >= 0 && isfinite(x))
        *at = x;
    else if (k == 12 && !strncmp(kv, "container_mb", 12) && x >= 1 && x <= 1e9 && x == floor(x))
        c->container_mb = (int64_t)x;
    else if (k == 5 && !strncmp(kv, "am_mb", 5) && x >= 0 && x <= 1e9 && x == floor(x))
        c->am_mb = (int64_t)x;
    else if (k == 8 && !strncmp(kv, "alloc_mb", 8) && x >= 0 && x <= 1e9 && x == floor(x))
        c->alloc_mb = (int64_t)x;
    else
        return -1;
    return 0;
}

/* The result JSON of FILE's text: read as is, or solved when it is an
 * instance. */
static int load(const char *text, size_t len, const char *file, json_t **result,
                so_problem **inst, so_error *err)
{
    json_error_t je;
    json_t *root = json_loadb(text, len, 0, &je);
    if (root && json_object_get(root, "solution") && json_object_get(root, "status")) {
        *result = root;
        return SO_OK;
    }
    json_decref(root);
    char *copy = strndup(text, len); /* so_problem_parse reads a C string */
    int rc = copy ? so_problem_parse(copy, file, inst, err) : SO_ENOMEM;
    free(copy);
    if (rc)
        return rc;
    so_result *r = NULL;
    rc = so_solve(so_backend_default(so_problem_kind(*inst)), *inst, NULL, &r, err);
    if (rc < 0) {
        so_result_free(r);
        return rc;
    }
    *result = so_result_to_json(r);
    so_result_free(r);
    return *result ? SO_OK : SO_ENOMEM;
}

int so_cmd_export_plan(int argc, char **argv)
{
    const char *out = NULL;
    int format = 0, c;
    /* Hadoop's defaults: yarn.app.mapreduce.am.resource.mb 1536 MiB
     * (mapred-default.xml), allocations in steps of 1024 MiB
     * (yarn.scheduler.minimum-allocation-mb, yarn-default.xml) */
    so_plan_choice choice = {-1, INFINITY, 1024, 1536, 1024};
    double at = NAN; /* WPBS: the time of the shares */
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_export_spec)) != -1) {
        switch (c) {
        case 'f': format = so_hc_format_parse(optarg); break;
        case 'o': out = optarg; break;
        case 'O':
            if (parse_opt(optarg, &choice, &at))
                return so_cli_usage_error("export", "--opt %s: expected budget=DOLLARS,"
                                          " deadline=SECONDS (> 0), at=SECONDS (>= 0),"
                                          " container_mb=MIB (>= 1), am_mb=MIB (>= 0) or"
                                          " alloc_mb=MIB (>= 0)", optarg);
            break;
        case 'h': return so_cli_print_help(&so_export_spec);
        default: return so_cli_bad_option("export", argv);
        }
    }
    if (optind != argc - 1)
        return so_cli_usage_error("export", "expected one instance or result FILE");
    so_error err;
    so_error_clear(&err);
    json_t *result = NULL;
    so_problem *inst = NULL;
    so_hc_shares shares = {0};
    long chosen = -1;
    /* read once: "-" (stdin) can be read only once */
    char *input = NULL;
    size_t len = 0;
    const char *file = strcmp(argv[optind], "-") ? argv[optind] : "stdin";
    int rc = so_read_input(argv[optind], &input, &len, &err);
    if (rc)
        ;
    else if (so_export_is_workload(input, len)) /* WPBS shares of a workload */
        rc = so_export_wpbs_shares_text(input, len, file, at, choice.container_mb,
                                        choice.am_mb, choice.alloc_mb, &shares, NULL, &err);
    else if ((rc = load(input, len, file, &result, &inst, &err)) == SO_OK)
        rc = so_export_shares(result, inst, &choice, &shares, &chosen, &err);
    free(input);
    char *text = NULL;
    if (!rc)
        rc = so_hc_write(&shares, format, &text, &err);
    free(shares.pools);
    json_decref(result);
    so_problem_free(inst);
    if (rc) {
        if (!err.file[0])
            snprintf(err.file, sizeof err.file, "%s", argv[optind]);
        return so_cli_report_error("export", rc, &err);
    }
    int code = SO_EXIT_OK;
    if (out) {
        rc = so_write_file_atomic(out, text, strlen(text), &err);
        if (rc)
            code = so_cli_report_error("export", rc, &err);
    } else {
        fputs(text, stdout);
        code = so_cli_flush_stdout("export");
    }
    free(text);
    return code;
}
