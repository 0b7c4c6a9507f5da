/* strbuf.c -- bounded text builder (strbuf.h). */
#include <stdarg.h>
#include <stdio.h>
#include "playmode.h"
#include "strbuf.h"

void strbuf_printf(strbuf_t *o, const char *fmt, ...)
{
    if (o->overflow || o->len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= o->len - o->pos) {
        o->overflow = 1;
        o->buf[o->pos] = '\0';
        return;
    }
    o->pos += (size_t)n;
}

void strbuf_real(strbuf_t *o, double v)
{
    char tmp[48];
    fmt_real(tmp, sizeof tmp, v);
    strbuf_printf(o, " %s", tmp);
}
