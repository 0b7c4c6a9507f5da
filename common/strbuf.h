/* strbuf.h -- a bounded text builder for the protocol encoders: appends with printf
 * formatting into a caller's buffer, never past its end; once something does not fit,
 * overflow sticks and later appends do nothing (the caller returns -1). */
#ifndef RCSS_STRBUF_H
#define RCSS_STRBUF_H

#include <stddef.h>

typedef struct strbuf {
    char  *buf;
    size_t len;       /* capacity, NUL included */
    size_t pos;       /* chars written */
    int    overflow;
} strbuf_t;

void strbuf_printf(strbuf_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* " v" with v as the reference's streams print reals (fmt_real). */
void strbuf_real(strbuf_t *o, double v);

#endif
