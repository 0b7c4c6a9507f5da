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

typedef struct strbuf {
    char  *buf;
    size_t len;       /* capacity, NUL included */
    size_t pos;       /* chars written */
    int    overflow;
} strbuf_t;

void strbuf_printf(strbuf_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* n bytes of s / a NUL-terminated s / one character */
void strbuf_put(strbuf_t *o, const char *s, size_t n);
void strbuf_puts(strbuf_t *o, const char *s);
void strbuf_putc(strbuf_t *o, char c);
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
