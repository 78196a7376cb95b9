/* cmd_gen.c — `slotopt gen`: instances of a family, one JSON file each, or
 * one compact JSON document per line on standard output (--out -).
 * Files are named FAMILY[-KEY=VALUE...]-SEED-INDEX.json with the parameters
 * set explicitly (in the order given), so two classes generated into one
 * folder never share a name; an existing file is refused (every name is
 * checked before anything is written) unless --force; the folder is created
 * with its parents, as mkdir -p does. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tools/cli/cli.h"
#include "tools/cli/cli_opts.h"

/* mkdir -p: every missing folder of path, mode 0777 less the umask. */
static int make_folders(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1;; p++) {
        if (*p && *p != '/')
            continue;
        char c = *p;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = c;
        if (!c)
            break;
    }
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* DIR/FAMILY-KEY=VALUE...-SEED-INDEX.json; a '/' or control character of
 * a value becomes '_'. Returns -1 when it does not fit. */
static int file_name(char *out, size_t size, const char *dir, const char *family,
                     const so_params *set, uint64_t seed, uint64_t index)
{
    size_t len = (size_t)snprintf(out, size, "%s/%s", dir, family);
    for (int k = 0; k < set->n_options && len < size; k++) {
        size_t start = len;
        len += (size_t)snprintf(out + len, size - len, "-%s=%s",
                                set->options[k].key, set->options[k].value);
        for (size_t i = start; i < len && i < size; i++)
            if (out[i] == '/' || (unsigned char)out[i] < ' ')
                out[i] = '_';
    }
    if (len < size)
        len += (size_t)snprintf(out + len, size - len, "-%llu-%llu.json",
                                (unsigned long long)seed, (unsigned long long)index);
    return len < size ? 0 : -1;
}

static const so_cli_opt opts[] = {
    {"count", 'n', SO_OPT_SHORT, "N", "instances 0..N-1 (default 1)"},
    {"seed", 's', SO_OPT_SHORT, "S", "the seed (default 1)"},
    {"set", 'S', SO_OPT_SHORT | SO_OPT_REPEAT, "KEY=VALUE",
     "a family parameter ('slotopt families' lists them)"},
    {"out", 'o', SO_OPT_SHORT | SO_OPT_REQUIRED, "DIR|-",
     "the folder (created with its parents), or - for standard output"},
    {"force", 'F', 0, NULL, "overwrite existing files"},
    SO_CLI_HELP_OPT,
    {0, 0, 0, 0, 0},
};

const so_cli_spec so_gen_spec = {
    "gen", "FAMILY",
    "Writes DIR/FAMILY[-KEY=VALUE...]-S-I.json for I = 0..N-1 (the KEY=VALUE\n"
    "parts are the --set parameters, in the order given); instance I uses\n"
    "stream I of seed S, so the same seed gives the same files. DIR is\n"
    "created with its parents. An existing file is an error unless --force.\n"
    "--out - writes the instances to stdout instead, one JSON document per\n"
    "line ('slotopt gen knapsack --out - | slotopt solve -').\n"
    "'slotopt families' lists the parameters.\n",
    opts, 0, 0, NULL};

int so_cmd_gen(int argc, char **argv)
{
    uint64_t count = 1, seed = 1;
    const char *out = NULL;
    int force = 0;
    so_params set;
    so_params_init(&set);
    so_error err;
    so_error_clear(&err);
    int c;
    optind = 1;
    while ((c = so_cli_getopt(argc, argv, &so_gen_spec)) != -1) {
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
        case 'F': force = 1; break;
        case 'h': return so_cli_print_help(&so_gen_spec);
        default: return so_cli_bad_option("gen", argv);
        }
    }
    if (optind != argc - 1)
        return so_cli_usage_error("gen", "expected one FAMILY (see 'slotopt families')");
    const so_family *f = so_family_find(argv[optind]);
    if (!f)
        return so_cli_unknown("gen", "family", argv[optind], so_family_names());
    if (!out)
        return so_cli_usage_error("gen", "--out DIR (or --out - for stdout) is required");
    int to_stdout = !strcmp(out, "-");
    char path[4096];
    if (!to_stdout) {
        if (make_folders(out)) {
            fprintf(stderr, "slotopt gen: cannot create the folder %s: %s\n", out,
                    strerror(errno));
            return SO_EXIT_USAGE;
        }
        for (uint64_t i = 0; i < count; i++) {
            struct stat st;
            if (file_name(path, sizeof path, out, f->name, &set, seed, i))
                return so_cli_usage_error("gen", "file names under %s are too long", out);
            if (!force && lstat(path, &st) == 0)
                return so_cli_usage_error("gen", "%s exists (--force overwrites it)", path);
        }
    }
    for (uint64_t i = 0; i < count; i++) {
        json_t *inst = NULL;
        int rc = so_family_generate(f, &set, seed, i, &inst, &err);
        if (rc)
            return so_cli_report_error("gen", rc, &err);
        if (to_stdout) {
            rc = json_dumpf(inst, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
            json_decref(inst);
            if (rc || putchar('\n') == EOF) {
                fprintf(stderr, "slotopt gen: cannot write to stdout: %s\n",
                        strerror(errno));
                return SO_EXIT_USAGE;
            }
            continue;
        }
        file_name(path, sizeof path, out, f->name, &set, seed, i);
        rc = so_write_json_atomic(path, inst, &err);
        json_decref(inst);
        if (rc)
            return so_cli_report_error("gen", rc, &err);
        printf("%s\n", path);
    }
    return SO_EXIT_OK;
}
