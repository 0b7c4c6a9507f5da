/* strbuf.h -- a bounded text builder for the protocol encoders: appends into a caller's
 * buffer, never past its end; once something does not fit, overflow sticks, the text is
 * cut back to what fitted and later appends do nothing (the caller returns -1). The
 * buffer is NUL-terminated after every append. The per-cycle encoders use the
 * printf-free appends (strings, characters, integers, reals through numfmt.h);
 * strbuf_printf is for everything else. */
#ifndef RCSS_STRBUF_H
#define RCSS_STRBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct strbuf {
    char  *buf;
    size_t len;       /* capacity, NUL included */
    size_t pos;       /* chars written */
    int    overflow;
} strbuf_t;

void strbuf_printf(strbuf_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* n bytes of s / a NUL-terminated s / one character (inline: the encoders append a
 * few bytes at a time, mostly literals whose length the compiler knows) */
void strbuf_overflow(strbuf_t *o);
static inline void strbuf_put(strbuf_t *o, const char *s, size_t n)
{
    if (o->overflow || o->len == 0 || n >= o->len - o->pos) {
        strbuf_overflow(o);
        return;
    }
    memcpy(o->buf + o->pos, s, n);
    o->pos += n;
    o->buf[o->pos] = '\0';
}

static inline void strbuf_puts(strbuf_t *o, const char *s)
{
    strbuf_put(o, s, strlen(s));
}

static inline void strbuf_putc(strbuf_t *o, char c)
{
    if (o->overflow || o->len == 0 || o->len - o->pos < 2) {
        strbuf_overflow(o);
        return;
    }
    o->buf[o->pos++] = c;
    o->buf[o->pos] = '\0';
}
/* "%d" / "%u" */
void strbuf_int(strbuf_t *o, int64_t v);
void strbuf_uint(strbuf_t *o, uint64_t v);
/* " v" with v as the reference's streams print reals (fmt_real: %.6g, -0 as 0) */
void strbuf_real(strbuf_t *o, double v);
/* the same without the blank */
void strbuf_real_bare(strbuf_t *o, double v);
/* v exactly as "%.6g" (-0 stays "-0", as C++ streams print it) */
void strbuf_g6(strbuf_t *o, double v);

#endif
