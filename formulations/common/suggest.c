/* suggest.c — the closest name to a mistyped word (suggest.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formulations/common/suggest.h"

#define SO_SUGGEST_MAX 64 /* longer words are not compared */

/* Optimal string alignment distance between a and b (each at most
 * SO_SUGGEST_MAX bytes), case-insensitive. */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    int d[SO_SUGGEST_MAX + 1][SO_SUGGEST_MAX + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            int best = d[i - 1][j - 1] + (ca != cb);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[la][lb];
}

const char *so_suggest(const char *word, const char *const *names)
{
    if (!word || !names || strlen(word) > SO_SUGGEST_MAX)
        return NULL;
    const char *best = NULL;
    int best_d = 0;
    for (const char *const *n = names; *n; n++) {
        size_t ln = strlen(*n), lw = strlen(word);
        if (ln > SO_SUGGEST_MAX)
            continue;
        int d = distance(word, *n);
        int longer = (int)(ln > lw ? ln : lw);
        if (d > 2 || d > (longer + 2) / 3)
            continue;
        if (!best || d < best_d) {
            best = *n;
            best_d = d;
        }
    }
    return best;
}

char *so_suggest_text(char *buf, size_t cap, const char *word,
                      const char *const *names)
{
    if (!cap)
        return buf;
    buf[0] = '\0';
    size_t n = 0;
    const char *close = so_suggest(word, names);
    if (close)
        n += (size_t)snprintf(buf, cap, "did you mean '%s'? ", close);
    if (n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "choices:");
    for (const char *const *a = names; a && *a && n < cap; a++)
        n += (size_t)snprintf(buf + n, cap - n, "%s %s", a == names ? "" : ",", *a);
    if (!names || !*names)
        n += n < cap ? (size_t)snprintf(buf + n, cap - n, " none") : 0;
    if (n >= cap && cap > 4)
        strcpy(buf + cap - 4, "...");
    return buf;
}
