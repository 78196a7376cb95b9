/* harness_physics.c — a scenario's "physics" (issue 32, item 4): the
 * physics settings every simulation policy is run under. Each setting is
 * {"name": N, "options": {KEY: VALUE}} with `slotopt sim --opt` options of
 * the simulator (contention model, its parameters, variability); the
 * policies are multiplied by the settings, policy P under setting N named
 * "P@N" with the setting's options added to P's own (a key in both is an
 * error). Bounds (lower-bound, lp-bound, offline-opt) are kept once. The
 * simulation reference P becomes P@(the first setting). A table reads the
 * name back as two keys: "policy" (P) and "physics" (N); ratios pair two
 * policies under the same setting (tools/harness/harness_table.c).
 * docs/harness.md, "Physics settings". */
#include <stdlib.h>
#include <string.h>
#include "cluster/cluster.h"
#include "formulations/common/jsonin.h"
#include "tools/harness/harness.h"
#include "tools/harness/harness_table.h"

/* Whether key is one of the simulator's options (the physics lives there). */
static int sim_option(const char *key)
{
    for (const so_option_doc *d = so_cl_sim_options; d->key; d++)
        if (!strcmp(d->key, key))
            return 1;
    return 0;
}

int so_hphysics_expand(so_jin *in, json_t *root, so_hconfig *c,
                       int (*settings)(so_jin *, json_t *, const char *, so_params *))
{
    json_t *arr = NULL;
    int rc = so_jin_array(in, root, "", "physics", SO_OPTIONAL, 1, &arr);
    if (rc || !arr)
        return rc;
    if (json_array_size(arr) > SO_HPHYSICS_MAX)
        return so_jin_fail(in, "physics", 0, "at most %d settings", SO_HPHYSICS_MAX);
    char names[SO_HPHYSICS_MAX][SO_HPHYSICS_NAME];
    so_params opts[SO_HPHYSICS_MAX];
    size_t n = json_array_size(arr);
    for (size_t i = 0; i < n; i++) {
        char path[64];
        so_jin_index(path, sizeof path, "physics", i);
        json_t *e = NULL, *o = NULL;
        const char *name = NULL;
        static const char *const keys[] = {"name", "options", NULL};
        so_params_init(&opts[i]);
        rc = so_jin_object_at(in, arr, "physics", i, &e);
        if (!rc)
            rc = so_jin_keys(in, e, path, keys);
        if (!rc)
            rc = so_jin_str(in, e, path, "name", SO_REQUIRED, &name);
        char kpath[96];
        so_jin_path(kpath, sizeof kpath, path, "name");
        if (!rc && (!*name || strlen(name) >= SO_HPHYSICS_NAME || strchr(name, '@')))
            rc = so_jin_fail(in, kpath, 0, "expected 1 to %d characters without '@'",
                             SO_HPHYSICS_NAME - 1);
        for (size_t j = 0; !rc && j < i; j++)
            if (!strcmp(names[j], name))
                rc = so_jin_fail(in, kpath, 0, "'%s' given twice", name);
        if (!rc)
            rc = so_jin_object(in, e, path, "options", SO_OPTIONAL, &o);
        so_jin_path(kpath, sizeof kpath, path, "options");
        if (!rc && o)
            rc = settings(in, o, kpath, &opts[i]);
        for (int k = 0; !rc && k < opts[i].n_options; k++)
            if (!sim_option(opts[i].options[k].key)) {
                char opath[160];
                so_jin_path(opath, sizeof opath, kpath, opts[i].options[k].key);
                rc = so_jin_fail(in, opath, 1, "not a simulator option (slotopt sim"
                                 " --help lists them)");
            }
        if (rc)
            return rc;
        snprintf(names[i], sizeof names[i], "%s", name);
    }
    /* the policies as read, then each under every setting */
    size_t n0 = c->n_policies;
    so_hpolicy *base = malloc((n0 ? n0 : 1) * sizeof *base);
    if (!base)
        return SO_ENOMEM;
    memcpy(base, c->policies, n0 * sizeof *base);
    c->n_policies = 0;
    char ref[64] = "";
    for (size_t p = 0; !rc && p < n0; p++) {
        if (!base[p].scheduler) { /* a bound: physics cannot change it */
            c->policies[c->n_policies++] = base[p];
            continue;
        }
        if (!strcmp(base[p].name, c->sim_reference))
            snprintf(ref, sizeof ref, "%.40s@%.20s", base[p].name, names[0]);
        for (size_t i = 0; !rc && i < n; i++) {
            if (c->n_policies >= SO_HARNESS_MAX_POLICIES) {
                rc = so_jin_fail(in, "physics", 0, "policies x settings exceed %d",
                                 SO_HARNESS_MAX_POLICIES);
                break;
            }
            so_hpolicy q = base[p];
            if (strlen(q.name) + 1 + strlen(names[i]) >= sizeof q.name) {
                rc = so_jin_fail(in, "physics", 0, "policy name '%s@%s' is longer than"
                                 " %zu characters", q.name, names[i], sizeof q.name - 1);
                break;
            }
            snprintf(q.name, sizeof q.name, "%s@%s", base[p].name, names[i]);
            for (int k = 0; !rc && k < opts[i].n_options; k++) {
                const so_option *o = &opts[i].options[k];
                if (so_params_get(&q.options, o->key))
                    rc = so_jin_fail(in, "physics", 0, "policy '%s' sets '%s' itself,"
                                     " which the setting '%s' sets too", base[p].name,
                                     o->key, names[i]);
                else if (so_params_set(&q.options, o->key, o->value))
                    rc = so_jin_fail(in, "physics", 0, "policy '%s': too many options",
                                     q.name);
            }
            c->policies[c->n_policies++] = q;
        }
    }
    if (!rc && ref[0])
        snprintf(c->sim_reference, sizeof c->sim_reference, "%s", ref);
    free(base);
    return rc;
}

const char *so_hphysics_of(const char *name)
{
    const char *at = strchr(name, '@');
    return at ? at + 1 : "-";
}

void so_hphysics_base(char *out, size_t size, const char *name)
{
    const char *at = strchr(name, '@');
    size_t n = at ? (size_t)(at - name) : strlen(name);
    if (n >= size)
        n = size - 1;
    memcpy(out, name, n);
    out[n] = '\0';
}
