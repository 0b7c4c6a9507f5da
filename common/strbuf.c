/* strbuf.c -- bounded text builder (strbuf.h). Numbers are written straight into the
 * buffer when there is room for the longest one, through a small copy otherwise (so the
 * overflow rule is the same for every append). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "numfmt.h"
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

/* something did not fit (or did not, earlier): nothing more is appended */
void strbuf_overflow(strbuf_t *o)
{
    if (o->overflow || o->len == 0)
        return;
    o->overflow = 1;
    o->buf[o->pos] = '\0';
}

/* where a number of up to NUMFMT_MAX bytes can be written directly, or NULL */
static char *strbuf_room(strbuf_t *o)
{
    if (o->overflow || o->len == 0 || o->len - o->pos < NUMFMT_MAX)
        return NULL;
    return o->buf + o->pos;
}

void strbuf_int(strbuf_t *o, int64_t v)
{
    char tmp[NUMFMT_MAX], *p = strbuf_room(o);
    if (p) {
        o->pos += (size_t)numfmt_int(p, v);
        return;
    }
    strbuf_put(o, tmp, (size_t)numfmt_int(tmp, v));
}

void strbuf_uint(strbuf_t *o, uint64_t v)
{
    char tmp[NUMFMT_MAX], *p = strbuf_room(o);
    if (p) {
        o->pos += (size_t)numfmt_uint(p, v);
        return;
    }
    strbuf_put(o, tmp, (size_t)numfmt_uint(tmp, v));
}

void strbuf_g6(strbuf_t *o, double v)
{
    char tmp[NUMFMT_MAX], *p = strbuf_room(o);
    if (p) {
        o->pos += (size_t)numfmt_g6(p, v);
        return;
    }
    strbuf_put(o, tmp, (size_t)numfmt_g6(tmp, v));
}

void strbuf_real_bare(strbuf_t *o, double v)
{
    strbuf_g6(o, v == 0.0 ? 0.0 : v); /* -0 prints as 0 */
}

void strbuf_real(strbuf_t *o, double v)
{
    strbuf_putc(o, ' ');
    strbuf_real_bare(o, v);
}
