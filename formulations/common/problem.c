/* problem.c — reading instances: native JSON (the "problem" key selects the
 * formulation) or a formulation's own text format, detected automatically. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "formulations/common/problem_internal.h"
#include "formulations/common/scratch.h"

const so_formulation *so_formulation_find(const char *name)
{
    for (const so_formulation *const *f = so_formulations; *f; f++)
        if (strcmp((*f)->name, name) == 0)
            return *f;
    return NULL;
}

static char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    char *s = strdup(b);
    if (s) {
        char *dot = strrchr(s, '.');
        if (dot && dot != s)
            *dot = '\0';
    }
    return s;
}

int so_problem_wrap(const so_formulation *f, void *data, const char *name,
                    so_problem **out)
{
    so_problem *p = calloc(1, sizeof *p);
    char *n = strdup(name ? name : "instance");
    if (!p || !n) {
        free(p);
        free(n);
        f->free_data(data);
        return SO_ENOMEM;
    }
    p->form = f;
    p->data = data;
    p->name = n;
    *out = p;
    return SO_OK;
}

const void *so_problem_data(const so_problem *p, const so_formulation *f)
{
    return p && p->form == f ? p->data : NULL;
}

void so_problem_free(so_problem *p)
{
    if (!p)
        return;
    if (p->data)
        p->form->free_data(p->data);
    json_decref(p->meta);
    free(p->name);
    free(p);
}

const char *so_problem_kind(const so_problem *p) { return p->form->name; }
const char *so_problem_name(const so_problem *p) { return p->name; }
int so_problem_sense(const so_problem *p) { return p->form->sense; }
json_t *so_problem_meta(const so_problem *p) { return p->meta; }

json_t *so_problem_to_json(const so_problem *p)
{
    json_t *body = p->form->to_json(p->data);
    if (!body)
        return NULL;
    json_t *root = json_object();
    json_object_set_new(root, "problem", json_string(p->form->name));
    json_object_set_new(root, "version", json_integer(1));
    if (p->meta)
        json_object_set(root, "meta", p->meta);
    json_object_update(root, body);
    json_decref(body);
    return root;
}

/* Reads the root object's header and hands the rest to the formulation. */
static int from_json(so_jin *in, json_t *root, const char *name,
                     so_problem **out)
{
    if (!json_is_object(root))
        return so_jin_fail(in, "", 0, "expected a JSON object at the top");
    const char *kind = NULL;
    int64_t version = 0;
    json_t *meta = NULL;
    int rc = so_jin_str(in, root, "", "problem", SO_REQUIRED, &kind);
    if (!rc)
        rc = so_jin_int(in, root, "", "version", SO_REQUIRED, 1, 1, &version);
    if (!rc)
        rc = so_jin_object(in, root, "", "meta", SO_OPTIONAL, &meta);
    if (rc)
        return rc;
    const so_formulation *f = so_formulation_find(kind);
    if (!f) {
        char known[256] = "";
        size_t n = 0;
        for (const so_formulation *const *g = so_formulations;
             *g && n < sizeof known; g++)
            n += snprintf(known + n, sizeof known - n, "%s%s", n ? ", " : "",
                          (*g)->name);
        return so_jin_fail(in, "problem", 0,
                           "unknown problem '%s' (known: %s)", kind, known);
    }
    void *data = NULL;
    rc = f->read_json(in, root, &data);
    if (rc)
        return rc;
    rc = so_problem_wrap(f, data, name, out);
    if (!rc && meta)
        (*out)->meta = json_incref(meta);
    return rc;
}

int so_problem_from_json(json_t *root, const char *name, so_problem **out,
                         so_error *err)
{
    if (!root || !out)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "so_problem_from_json: NULL argument");
    so_jin in = {name, NULL, err};
    return from_json(&in, root, name, out);
}

static int parse_named(const char *text, size_t len, const char *file,
                       const char *name, so_problem **out, so_error *err)
{
    so_error_clear(err);
    if (memchr(text, '\0', len))
        return so_error_setf(err, file, 0, 0, NULL,
                             "binary data (NUL byte) in an instance file");
    size_t i = 0;
    while (i < len && strchr(" \t\r\n", text[i]))
        i++;
    if (i == len)
        return so_error_setf(err, file, 1, 1, NULL,
                             "empty file: expected an instance");
    if (text[i] == '{' || text[i] == '[') {
        json_error_t jerr;
        json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
        if (!root)
            return so_error_setf(err, file, jerr.line > 0 ? jerr.line : 1,
                                 jerr.column > 0 ? jerr.column : 1, NULL,
                                 "invalid JSON: %s", jerr.text);
        so_jin in = {file, text, err};
        int rc = from_json(&in, root, name, out);
        json_decref(root);
        return rc;
    }
    int rc = SO_EUNSUPPORTED;
    for (const so_formulation *const *f = so_formulations; *f; f++) {
        if (!(*f)->read_text)
            continue;
        void *data = NULL;
        rc = (*f)->read_text(file, text, &data, err);
        if (rc == SO_OK)
            return so_problem_wrap(*f, data, name, out);
        if (rc != SO_EUNSUPPORTED)
            return rc;
    }
    return so_error_setf(err, file, 1, 1, NULL,
                         "not a JSON instance (expected '{') nor a known text"
                         " format");
}

int so_problem_parse(const char *text, const char *name, so_problem **out,
                     so_error *err)
{
    if (!text || !out)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "so_problem_parse: NULL argument");
    return parse_named(text, strlen(text), name, name, out, err);
}

int so_problem_read(const char *path, so_problem **out, so_error *err)
{
    if (!path || !out)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "so_problem_read: NULL argument");
    so_error_clear(err);
    char *buf = NULL;
    size_t len = 0;
    int rrc = so_read_input(path, &buf, &len, err);
    if (rrc)
        return rrc;
    const char *shown = strcmp(path, "-") ? path : "stdin";
    char *name = base_name(shown);
    int rc = name ? parse_named(buf, len, shown, name, out, err) : SO_ENOMEM;
    free(name);
    free(buf);
    return rc;
}

/* Where the next JSON document of text[at..len) ends (jansson stops after
 * one value with JSON_DISABLE_EOF_CHECK), or 0 when it does not parse. */
static size_t document_end(const char *text, size_t len, size_t at)
{
    json_error_t jerr;
    json_t *j = json_loadb(text + at, len - at, JSON_DISABLE_EOF_CHECK, &jerr);
    if (!j)
        return 0;
    json_decref(j);
    return at + (size_t)jerr.position;
}

static size_t skip_space(const char *text, size_t len, size_t at)
{
    while (at < len && text[at] && strchr(" \t\r\n", text[at]))
        at++;
    return at;
}

static int line_of(const char *text, size_t at)
{
    int line = 1;
    for (size_t i = 0; i < at; i++)
        line += text[i] == '\n';
    return line;
}

/* Parses the JSON documents of a stream, one after another. */
static int parse_stream(const char *text, size_t len, const char *shown,
                        so_problem ***out, size_t *n, so_error *err)
{
    size_t cap = 0, at = skip_space(text, len, 0);
    int rc = SO_OK;
    while (!rc && at < len) {
        size_t end = document_end(text, len, at);
        if (!end) /* the whole rest, so that the error says where */
            end = len;
        int line = line_of(text, at);
        char name[600];
        snprintf(name, sizeof name, "%s:%d", shown, line);
        char *doc = strndup(text + at, end - at);
        so_problem *p = NULL;
        if (*n == cap) {
            size_t ncap = cap ? 2 * cap : 16;
            so_problem **grown = realloc(*out, ncap * sizeof *grown);
            if (grown) {
                *out = grown;
                cap = ncap;
            }
        }
        rc = !doc || *n == cap ? SO_ENOMEM : parse_named(doc, end - at, shown, name, &p, err);
        free(doc);
        if (rc) {
            if (err && err->line > 0)
                err->line += line - 1;
            break;
        }
        (*out)[(*n)++] = p;
        at = skip_space(text, len, end);
    }
    if (rc) {
        for (size_t i = 0; i < *n; i++)
            so_problem_free((*out)[i]);
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

int so_problem_read_all(const char *path, so_problem ***out, size_t *n,
                        so_error *err)
{
    if (!path || !out || !n)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "so_problem_read_all: NULL argument");
    *out = NULL;
    *n = 0;
    so_error_clear(err);
    char *buf = NULL;
    size_t len = 0;
    int rc = so_read_input(path, &buf, &len, err);
    if (rc)
        return rc;
    rc = so_problem_parse_all(buf, len, strcmp(path, "-") ? path : "stdin", out, n, err);
    free(buf);
    return rc;
}

int so_problem_parse_all(const char *buf, size_t len, const char *shown,
                         so_problem ***out, size_t *n, so_error *err)
{
    if (!buf || !shown || !out || !n)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "so_problem_parse_all: NULL argument");
    *out = NULL;
    *n = 0;
    so_error_clear(err);
    int rc;
    size_t first = skip_space(buf, len, 0);
    size_t end = first < len && buf[first] == '{' && !memchr(buf, '\0', len)
                     ? document_end(buf, len, first) : 0;
    if (end && skip_space(buf, len, end) < len) { /* more than one document */
        rc = parse_stream(buf, len, shown, out, n, err);
    } else {
        char *name = base_name(shown);
        *out = malloc(sizeof **out);
        rc = name && *out ? parse_named(buf, len, shown, name, *out, err) : SO_ENOMEM;
        free(name);
        if (rc) {
            free(*out);
            *out = NULL;
        } else {
            *n = 1;
        }
    }
    return rc;
}

/* MPS has no standard way to say "maximise" (free MPS's OBJSENSE section is
 * an extension that GLPK 5.0 itself does not read), so a maximisation is
 * written as the minimisation of the negated objective: every MPS reader
 * then finds the same solutions, with the optimum's sign flipped
 * (docs/formats.md, "Model export"). */
static void negate_maximisation(glp_prob *lp)
{
    if (glp_get_obj_dir(lp) != GLP_MAX)
        return;
    for (int j = 0; j <= glp_get_num_cols(lp); j++) /* 0: the constant */
        glp_set_obj_coef(lp, j, -glp_get_obj_coef(lp, j));
    glp_set_obj_dir(lp, GLP_MIN);
}

int so_problem_export(const so_problem *p, const char *path, int format,
                      so_error *err)
{
    return so_problem_export_params(p, path, format, NULL, err);
}

int so_problem_export_params(const so_problem *p, const char *path, int format,
                             const so_params *prm, so_error *err)
{
    if (!p || !path)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "so_problem_export: NULL argument");
    if (!p->form->build_glpk && !p->form->build_glpk_params)
        return so_error_setf(err, NULL, 0, 0, NULL,
                             "problem '%s' has no MILP model to export",
                             p->form->name);
    if (!p->form->build_glpk_params && prm && prm->n_options > 0)
        return so_error_setf(err, NULL, 0, 0, prm->options[0].key,
                             "the '%s' model takes no options", p->form->name);
    /* GLPK aborts on names over 255 bytes or with control characters */
    char name[256];
    snprintf(name, sizeof name, "%s", p->name);
    for (char *c = name; *c; c++)
        if (iscntrl((unsigned char)*c))
            *c = '_';
    glp_prob *lp = glp_create_prob();
    glp_set_prob_name(lp, name);
    int rc = p->form->build_glpk_params
                 ? p->form->build_glpk_params(p->data, prm, lp, err)
                 : p->form->build_glpk(p->data, lp, err);
    if (rc) {
        glp_delete_prob(lp);
        return rc;
    }
    if (format == SO_FORMAT_MPS)
        negate_maximisation(lp);
    /* GLPK writes to a named scratch file; its status and the file's size
     * are checked, then so_copy_to_output writes the target (atomically
     * for a regular file, directly for a device, FIFO or "-"), checking
     * every write: a full disk is an error, not an empty model. */
    so_scratch sc; /* a memory file: nothing left on disk if killed */
    rc = so_scratch_open(&sc, "slotopt-export", err);
    if (rc) {
        glp_delete_prob(lp);
        return rc;
    }
    glp_term_out(GLP_OFF);
    int w = format == SO_FORMAT_MPS ? glp_write_mps(lp, GLP_MPS_FILE, NULL, sc.file)
                                    : glp_write_lp(lp, NULL, sc.file);
    glp_delete_prob(lp);
    struct stat st;
    if (w != 0 || stat(sc.file, &st) != 0 || st.st_size == 0) {
        so_error_setf(err, path, 0, 0, NULL, "GLPK could not write the model (%s%s)",
                      sc.fd >= 0 ? "out of memory?" : "temporary folder full? ",
                      sc.fd >= 0 ? "" : sc.dir);
        rc = SO_EIO;
    } else {
        rc = so_copy_to_output(sc.file, path, err);
    }
    so_scratch_close(&sc);
    return rc;
}
