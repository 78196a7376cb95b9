/* knapsack_jooken.c — the text format of the hard instances of J. Jooken,
 * P. Leyman and P. De Causmaecker, "A new class of hard problem instances
 * for the 0-1 knapsack problem", EJOR 301(3), 2022 (their published set,
 * file test.in of each instance):
 *   n
 *   i p_i w_i        (n lines; ids consecutive from 0 or from 1)
 *   c
 * Detected by content: a first line holding one integer and a second
 * (non-blank) line holding three tokens; anything else is left to the
 * Pisinger reader (SO_EUNSUPPORTED). Values are non-negative integers
 * (the set has no decimals); errors name file, line, column and the key
 * (n, id[i], profit[i], weight[i], capacity). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/knapsack.h"

typedef struct {
    const char *s;
    size_t i;
    int line, col;
} cursor;

/* A blank: white space that does not end a line (space, tab, form feed,
 * vertical tab). Every loop below stops on exactly what this one skips, so
 * each step moves forward on any byte. */
static int blank(char ch)
{
    return ch && ch != '\n' && ch != '\r' && isspace((unsigned char)ch);
}

/* Skips blanks on the current line. */
static void skip_blanks(cursor *c)
{
    while (blank(c->s[c->i])) {
        c->i++;
        c->col++;
    }
}

/* Moves to the start of the next non-blank line; 0 at end of text. */
static int next_line(cursor *c)
{
    for (;;) {
        while (c->s[c->i] && c->s[c->i] != '\n' && c->s[c->i] != '\r') {
            c->i++;
            c->col++;
        }
        if (!c->s[c->i])
            return 0;
        if (c->s[c->i] == '\r' && c->s[c->i + 1] == '\n')
            c->i++;
        c->i++;
        c->line++;
        c->col = 1;
        cursor t = *c;
        skip_blanks(&t);
        if (t.s[t.i] && t.s[t.i] != '\n' && t.s[t.i] != '\r') {
            *c = t;
            return 1;
        }
        *c = t;
    }
}

/* Number of whitespace-separated tokens on the line starting at c. */
static int tokens_on_line(cursor c)
{
    int k = 0;
    for (;;) {
        skip_blanks(&c);
        char ch = c.s[c.i];
        if (!ch || ch == '\n' || ch == '\r')
            return k;
        k++;
        while (c.s[c.i] && !isspace((unsigned char)c.s[c.i]))
            c.i++;
    }
}

/* Reads one non-negative integer token at c into *v (<= max). */
static int read_int(cursor *c, const char *file, const char *key,
                    long long max, long long *v, so_error *err)
{
    skip_blanks(c);
    int line = c->line, col = c->col;
    char tok[48];
    size_t n = 0;
    while (c->s[c->i] && !isspace((unsigned char)c->s[c->i])) {
        if (n + 1 < sizeof tok)
            tok[n] = c->s[c->i];
        n++;
        c->i++;
        c->col++;
    }
    if (n == 0)
        return so_error_setf(err, file, line, col, key,
                             "expected %s (an integer), found the end of the"
                             " line", key);
    if (n >= sizeof tok)
        return so_error_setf(err, file, line, col, key,
                             "expected an integer, found a token of %zu"
                             " characters", n);
    tok[n] = '\0';
    char *end;
    errno = 0;
    long long x = strtoll(tok, &end, 10);
    if (*end || errno || x < 0 || x > max)
        return so_error_setf(err, file, line, col, key,
                             "expected an integer in [0, %lld], found '%s'",
                             max, tok);
    *v = x;
    return SO_OK;
}

static int end_of_line(cursor *c, const char *file, so_error *err)
{
    skip_blanks(c);
    char ch = c->s[c->i];
    if (ch && ch != '\n' && ch != '\r')
        return so_error_setf(err, file, c->line, c->col, NULL,
                             "unexpected token after the values of this line");
    return SO_OK;
}

int so_kp_read_jooken(const char *file, const char *text, void **data,
                      so_error *err)
{
    cursor c = {text, 0, 1, 1};
    skip_blanks(&c);
    if (c.s[c.i] == '\n' || c.s[c.i] == '\r')
        if (!next_line(&c))
            return SO_EUNSUPPORTED;
    cursor second = c;
    if (tokens_on_line(c) != 1 || !next_line(&second) ||
        tokens_on_line(second) != 3)
        return SO_EUNSUPPORTED;
    long long n;
    int rc = read_int(&c, file, "n", 100000000, &n, err);
    if (rc)
        return rc;
    /* three tokens of two characters at least per item: a short file
     * announcing many items fails at its end, before allocating */
    if ((size_t)n > strlen(text) / 6 + 1)
        return so_error_setf(err, file, 1, 1, "n",
                             "%lld items announced but the file has room"
                             " for fewer (truncated?)", n);
    so_kp *kp = so_kp_new((size_t)n);
    if (!kp)
        return SO_ENOMEM;
    int64_t sp = 0, sw = 0;
    long long first_id = 0;
    char key[48];
    for (long long k = 0; k < n && !rc; k++) {
        if (!next_line(&c)) {
            rc = so_error_setf(err, file, c.line, c.col, "item",
                               "unexpected end of file: expected item %lld of"
                               " %lld, then the capacity (file truncated?)",
                               k + 1, n);
            break;
        }
        long long id, p, w;
        snprintf(key, sizeof key, "id[%lld]", k);
        int line = c.line, col = c.col;
        rc = read_int(&c, file, key, 100000000, &id, err);
        if (!rc && k == 0 && id > 1)
            rc = so_error_setf(err, file, line, col, key,
                               "expected the first id to be 0 or 1, found"
                               " %lld", id);
        if (!rc && k == 0)
            first_id = id;
        if (!rc && id != first_id + k)
            rc = so_error_setf(err, file, line, col, key,
                               "expected id %lld (ids are consecutive), found"
                               " %lld", first_id + k, id);
        snprintf(key, sizeof key, "profit[%lld]", k);
        skip_blanks(&c);
        line = c.line, col = c.col;
        if (!rc)
            rc = read_int(&c, file, key, SO_KP_MAX_TOTAL - 1, &p, err);
        if (!rc && p >= SO_KP_MAX_TOTAL - sp)
            rc = so_error_setf(err, file, line, col, key,
                               "the sum of the profits exceeds 2^61");
        snprintf(key, sizeof key, "weight[%lld]", k);
        skip_blanks(&c);
        line = c.line, col = c.col;
        if (!rc)
            rc = read_int(&c, file, key, SO_KP_MAX_TOTAL - 1, &w, err);
        if (!rc && w >= SO_KP_MAX_TOTAL - sw)
            rc = so_error_setf(err, file, line, col, key,
                               "the sum of the weights exceeds 2^61");
        if (!rc)
            rc = end_of_line(&c, file, err);
        if (!rc) {
            kp->profit[k] = p;
            kp->weight[k] = w;
            sp += p;
            sw += w;
        }
    }
    long long cap = 0;
    if (!rc && !next_line(&c))
        rc = so_error_setf(err, file, c.line, c.col, "capacity",
                           "unexpected end of file: expected the capacity on"
                           " the last line (file truncated?)");
    if (!rc)
        rc = read_int(&c, file, "capacity", 1000000000000000000LL, &cap, err);
    if (!rc)
        rc = end_of_line(&c, file, err);
    if (!rc && next_line(&c))
        rc = so_error_setf(err, file, c.line, c.col, NULL,
                           "unexpected text after the capacity line");
    if (rc) {
        so_kp_free(kp);
        return rc;
    }
    kp->capacity = cap;
    *data = kp;
    return SO_OK;
}
