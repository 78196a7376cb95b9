/* suggest.h — "did you mean": the name of a list closest to a mistyped
 * word, and the list itself, for the error messages of every name a user
 * types (backends, families, schedulers, scenarios, option and JSON keys). */
#ifndef SO_SUGGEST_H
#define SO_SUGGEST_H
#include <stddef.h>

/* The name of the NULL-terminated list closest to word (optimal string
 * alignment distance: insertions, deletions, substitutions and swaps of
 * two neighbours, letters compared without case) when it is close enough
 * to be a typo of it: distance at most 2, and at most a third of the
 * longer of the two (rounded up). NULL when none is. */
const char *so_suggest(const char *word, const char *const *names);

/* Writes into buf "did you mean 'X'? choices: a, b, c" (or only the
 * choices when no name is close), cut to cap bytes with "...". Returns buf. */
char *so_suggest_text(char *buf, size_t cap, const char *word,
                      const char *const *names);

#endif
