/* sexp.c -- bounded s-expression reader over a caller-owned node arena. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sexp.h"

typedef struct reader {
    sexp_arena_t *a;
    const char   *s;
    size_t        len;
    size_t        pos;
    char         *err;
    size_t        errlen;
} reader_t;

static int fail(reader_t *rd, const char *msg)
{
    if (rd->err && rd->errlen)
        snprintf(rd->err, rd->errlen, "%s at offset %zu", msg, rd->pos);
    return -1;
}

static sexp_t *new_node(reader_t *rd)
{
    if (rd->a->used >= rd->a->cap) {
        fail(rd, "arena full");
        return NULL;
    }
    sexp_t *n = &rd->a->nodes[rd->a->used++];
    memset(n, 0, sizeof *n);
    return n;
}

static int at_end(const reader_t *rd)
{
    return rd->pos >= rd->len || rd->s[rd->pos] == '\0';
}

static void skip_blank(reader_t *rd)
{
    while (!at_end(rd) && isspace((unsigned char)rd->s[rd->pos]))
        rd->pos++;
}

static sexp_t *read_expr(reader_t *rd, int depth);

static sexp_t *read_atom(reader_t *rd)
{
    sexp_t *n = new_node(rd);
    if (!n)
        return NULL;
    if (rd->s[rd->pos] == '"') {
        size_t start = ++rd->pos;
        while (!at_end(rd) && rd->s[rd->pos] != '"')
            rd->pos++;
        if (at_end(rd)) {
            fail(rd, "unterminated string");
            return NULL;
        }
        n->quoted = 1;
        n->text = rd->s + start;
        n->len = rd->pos - start;
        rd->pos++; /* closing quote */
        return n;
    }
    size_t start = rd->pos;
    while (!at_end(rd)) {
        char c = rd->s[rd->pos];
        if (isspace((unsigned char)c) || c == '(' || c == ')' || c == '"')
            break;
        rd->pos++;
    }
    n->text = rd->s + start;
    n->len = rd->pos - start;
    return n;
}

static sexp_t *read_list(reader_t *rd, int depth)
{
    if (depth >= SEXP_MAX_DEPTH) {
        fail(rd, "too deep");
        return NULL;
    }
    sexp_t *n = new_node(rd);
    if (!n)
        return NULL;
    n->is_list = 1;
    n->text = rd->s + rd->pos; /* a list's text runs from '(' to its ')' */
    size_t start = rd->pos;
    rd->pos++; /* '(' */
    sexp_t **tail = &n->child;
    for (;;) {
        skip_blank(rd);
        if (at_end(rd)) {
            fail(rd, "unbalanced parentheses");
            return NULL;
        }
        if (rd->s[rd->pos] == ')') {
            rd->pos++;
            n->len = rd->pos - start;
            return n;
        }
        sexp_t *c = read_expr(rd, depth + 1);
        if (!c)
            return NULL;
        *tail = c;
        tail = &c->next;
    }
}

static sexp_t *read_expr(reader_t *rd, int depth)
{
    skip_blank(rd);
    if (at_end(rd)) {
        fail(rd, "empty");
        return NULL;
    }
    char c = rd->s[rd->pos];
    if (c == '(')
        return read_list(rd, depth);
    if (c == ')') {
        fail(rd, "unbalanced parentheses");
        return NULL;
    }
    return read_atom(rd);
}

sexp_t *sexp_parse(sexp_arena_t *a, const char *text, size_t len, size_t *end,
                   char *err, size_t errlen)
{
    reader_t rd = { a, text, len, 0, err, errlen };
    if (!text || !a) {
        fail(&rd, "empty");
        return NULL;
    }
    sexp_t *root = read_expr(&rd, 0);
    if (end)
        *end = rd.pos;
    return root;
}

int sexp_is(const sexp_t *n, const char *word)
{
    size_t wl = strlen(word);
    return n && !n->is_list && n->len == wl && memcmp(n->text, word, wl) == 0;
}

size_t sexp_count(const sexp_t *list)
{
    size_t k = 0;
    if (!list || !list->is_list)
        return 0;
    for (const sexp_t *c = list->child; c; c = c->next)
        k++;
    return k;
}

sexp_t *sexp_nth(const sexp_t *list, size_t i)
{
    if (!list || !list->is_list)
        return NULL;
    sexp_t *c = list->child;
    while (c && i--)
        c = c->next;
    return c;
}

size_t sexp_copy(const sexp_t *n, char *buf, size_t len)
{
    if (!len)
        return 0;
    size_t k = 0;
    if (n && !n->is_list) {
        k = n->len < len - 1 ? n->len : len - 1;
        memcpy(buf, n->text, k);
    }
    buf[k] = '\0';
    return k;
}

int sexp_number(const sexp_t *n, double *out)
{
    char buf[64];
    if (!n || n->is_list || n->quoted || n->len == 0 || n->len >= sizeof buf)
        return -1;
    sexp_copy(n, buf, sizeof buf);
    char *endp;
    errno = 0;
    double v = strtod(buf, &endp);
    if (*endp != '\0' || errno == ERANGE || !isfinite(v))
        return -1;
    /* the reference grammar accepts decimal numbers only: no hex, inf or nan words */
    for (const char *p = buf; *p; p++) {
        if (!(isdigit((unsigned char)*p) || *p == '.' || *p == '-' || *p == '+' || *p == 'e' || *p == 'E'))
            return -1;
    }
    *out = v;
    return 0;
}

int sexp_int(const sexp_t *n, long *out)
{
    char buf[32];
    if (!n || n->is_list || n->quoted || n->len == 0 || n->len >= sizeof buf)
        return -1;
    sexp_copy(n, buf, sizeof buf);
    char *endp;
    errno = 0;
    long v = strtol(buf, &endp, 10);
    if (*endp != '\0' || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}
