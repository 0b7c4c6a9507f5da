/* rec_buf.c -- the recorder's growable byte buffer (rec.h). An allocation failure sets
 * oom and drops what could not be stored; the writer reports it and goes on. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rcg_write.h"

char *rec_buf_room(rec_buf_t *b, size_t n)
{
    if (b->oom)
        return NULL;
    if (b->cap - b->len < n + 1) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap - b->len < n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return NULL;
        }
        b->p = p;
        b->cap = cap;
    }
    return b->p + b->len;
}

void rec_buf_add(rec_buf_t *b, const void *data, size_t n)
{
    char *d = rec_buf_room(b, n);
    if (!d)
        return;
    memcpy(d, data, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void rec_buf_printf(rec_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    char *d = rec_buf_room(b, (size_t)n);
    if (!d)
        return;
    va_start(ap, fmt);
    vsnprintf(d, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void rec_buf_add_line(rec_buf_t *b, const char *text, size_t n)
{
    char *d = rec_buf_room(b, n);
    if (!d)
        return;
    for (size_t i = 0; i < n; i++)
        d[i] = text[i] == '\n' ? ' ' : text[i];
    b->len += n;
    b->p[b->len] = '\0';
}

void rec_buf_clear(rec_buf_t *b)
{
    b->len = 0;
    if (b->p)
        b->p[0] = '\0';
}

void rec_buf_free(rec_buf_t *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}
