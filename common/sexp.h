/* sexp.h -- a small s-expression reader for the text protocols (player, coach, monitor,
 * trainer). Parses into nodes allocated from a caller-supplied fixed arena: no malloc,
 * bounded depth, never reads past len. Atoms keep their text as (ptr, len) into the input;
 * double-quoted strings are one atom with quoted=1 (quotes stripped, no escapes, as the
 * reference). */
#ifndef RCSS_SEXP_H
#define RCSS_SEXP_H

#include <stddef.h>

#define SEXP_MAX_DEPTH 32

typedef struct sexp {
    int          is_list;
    int          quoted;      /* atom was "..." */
    const char  *text;        /* atom text (not NUL-terminated); a list: from its '(' */
    size_t       len;         /* atom length; a list: up to and including its ')' */
    struct sexp *child;       /* first element of a list */
    struct sexp *next;        /* next sibling */
} sexp_t;

typedef struct sexp_arena {
    sexp_t *nodes;
    size_t  cap;
    size_t  used;
} sexp_arena_t;

/* Parse the first complete expression of text[0..len) (leading blanks skipped; stops at
 * a NUL byte). *end (optional) receives the offset just past it, so a datagram holding
 * several commands is parsed by calling again from there. Returns the root, or NULL with
 * err filled ("unbalanced parentheses", "too deep", "empty", "arena full"). */
sexp_t *sexp_parse(sexp_arena_t *a, const char *text, size_t len, size_t *end,
                   char *err, size_t errlen);

/* Helpers on nodes. */
int    sexp_is(const sexp_t *n, const char *word);     /* atom equal to word */
size_t sexp_count(const sexp_t *list);                 /* elements of a list */
sexp_t *sexp_nth(const sexp_t *list, size_t i);        /* i-th element or NULL */
int    sexp_number(const sexp_t *n, double *out);      /* atom -> finite double, 0 ok */
int    sexp_int(const sexp_t *n, long *out);           /* atom -> integer, 0 ok */
size_t sexp_copy(const sexp_t *n, char *buf, size_t len); /* atom text, NUL-terminated */

#endif
