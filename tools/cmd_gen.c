/* cmd_gen.c — `slotopt gen`: instances of a family, one JSON file each. */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <sys/stat.h>
#include "tools/cli.h"

int so_cmd_gen(int argc, char **argv)
{
    static const struct option opts[] = {
        {"count", required_argument, 0, 'n'},
        {"seed", required_argument, 0, 's'},
        {"set", required_argument, 0, 'S'},
        {"out", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    uint64_t count = 1, seed = 1;
    const char *out = NULL;
    so_params set;
    so_params_init(&set);
    so_error err;
    so_error_clear(&err);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "n:s:S:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (so_cli_parse_u64(optarg, &count) || count == 0 || count > 10000000)
                return so_cli_usage_error("gen", "--count: expected 1..1e7, found '%s'", optarg);
            break;
        case 's':
            /* below 2^63: the seed is stored in each instance's "meta" as a
             * JSON integer (signed 64-bit in jansson) */
            if (so_cli_parse_u64(optarg, &seed) || seed > INT64_MAX)
                return so_cli_usage_error("gen", "--seed: expected an integer in [0, 2^63 - 1], found '%s'", optarg);
            break;
        case 'S':
            if (so_params_set_kv(&set, optarg, &err))
                return so_cli_report_error("gen", SO_EINVAL, &err);
            break;
        case 'o': out = optarg; break;
        case 'h':
            printf("usage: slotopt gen FAMILY [--count N] [--seed S]"
                   " [--set KEY=VALUE]... --out DIR\n\n"
                   "Writes DIR/FAMILY-S-I.json for I = 0..N-1; instance I uses"
                   " stream I of seed S,\nso the same seed gives the same files."
                   " 'slotopt families' lists the parameters.\n");
            return SO_EXIT_OK;
        default: return so_cli_bad_option("gen", argv);
        }
    }
    if (optind != argc - 1)
        return so_cli_usage_error("gen", "expected one FAMILY (see 'slotopt families')");
    if (!out)
        return so_cli_usage_error("gen", "--out DIR is required");
    const so_family *f = so_family_find(argv[optind]);
    if (!f)
        return so_cli_usage_error("gen", "unknown family '%s' (see 'slotopt families')", argv[optind]);
    if (mkdir(out, 0777) && errno != EEXIST) {
        fprintf(stderr, "slotopt gen: cannot create %s: %s\n", out, strerror(errno));
        return SO_EXIT_USAGE;
    }
    for (uint64_t i = 0; i < count; i++) {
        json_t *inst = NULL;
        int rc = so_family_generate(f, &set, seed, i, &inst, &err);
        if (rc)
            return so_cli_report_error("gen", rc, &err);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s-%llu-%llu.json", out, f->name,
                 (unsigned long long)seed, (unsigned long long)i);
        rc = so_write_json_atomic(path, inst, &err);
        json_decref(inst);
        if (rc)
            return so_cli_report_error("gen", rc, &err);
        printf("%s\n", path);
    }
    return SO_EXIT_OK;
}
