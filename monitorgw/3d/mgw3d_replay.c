/* mgw3d_replay.c -- the monitor log read back for rcss3d-logplayer: one expression per
 * line, the Init first. Every line is checked with the s-expression reader, so a cut or
 * damaged line is left out instead of being sent to a monitor. Pure. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mgw3d.h"
#include "sexp.h"

#define REPLAY_NODES 8192

/* 1 if s[0..n) is exactly one complete list expression */
static int one_expression(const char *s, size_t n)
{
    static sexp_t nodes[REPLAY_NODES];
    sexp_arena_t a = { nodes, REPLAY_NODES, 0 };
    size_t end = 0;
    char err[64];
    sexp_t *e = sexp_parse(&a, s, n, &end, err, sizeof err);
    if (!e || !e->is_list)
        return 0;
    while (end < n && isspace((unsigned char)s[end]))
        end++;
    return end == n;
}

int mgw3d_replay_load(mgw3d_replay_t *r, char *text, size_t len, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->text = text;
    size_t cap = 1;
    for (size_t i = 0; i < len; i++)
        cap += text[i] == '\n';
    r->line = malloc(cap * sizeof *r->line);
    r->len = malloc(cap * sizeof *r->len);
    if (!r->line || !r->len) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t pos = 0;
    while (pos < len) {
        char *s = text + pos, *nl = memchr(s, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - s) : len - pos;
        pos += n + (nl ? 1 : 0);
        s[n] = '\0';
        while (n && isspace((unsigned char)s[n - 1]))
            s[--n] = '\0';
        while (n && isspace((unsigned char)*s)) {
            s++;
            n--;
        }
        if (n == 0)
            continue;
        if (memchr(s, '\0', n) || !one_expression(s, n)) {
            r->dropped++;
            continue;
        }
        if (r->n == 0 && strncmp(s, "(Init", 5) != 0) {
            snprintf(err, errlen, "not a 3D monitor log: the first expression is not (Init ...)");
            return -1;
        }
        r->line[r->n] = s;
        r->len[r->n] = n;
        r->n++;
    }
    if (r->n == 0) {
        snprintf(err, errlen, "empty monitor log");
        return -1;
    }
    return 0;
}

void mgw3d_replay_free(mgw3d_replay_t *r)
{
    free(r->line);
    free(r->len);
    free(r->text);
    memset(r, 0, sizeof *r);
}
