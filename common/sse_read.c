/* sse_read.c -- a server-sent-events stream cut into events (sse_read.h). */
#include <string.h>
#include "sse_read.h"

enum { CH_SIZE, CH_EXT, CH_DATA, CH_DATA_END, CH_TRAILER };

/* seg (n bytes) onto the end of the current line */
static void line_add(sse_read_t *r, const char *seg, size_t n)
{
    if (r->hlen < sizeof r->head) {
        size_t k = sizeof r->head - r->hlen < n ? sizeof r->head - r->hlen : n;
        memcpy(r->head + r->hlen, seg, k);
        r->hlen += k;
    }
    if (n >= SSE_READ_TAIL) {
        memcpy(r->tail, seg + n - SSE_READ_TAIL, SSE_READ_TAIL);
        r->tlen = SSE_READ_TAIL;
    } else {
        if (r->tlen + n > SSE_READ_TAIL) {
            size_t drop = r->tlen + n - SSE_READ_TAIL;
            memmove(r->tail, r->tail + drop, r->tlen - drop);
            r->tlen -= drop;
        }
        memcpy(r->tail + r->tlen, seg, n);
        r->tlen += n;
    }
    r->llen += n;
}

/* the value of a field line "NAME:[ ]VALUE" of length llen (its end in the tail): where
 * the value starts in the tail and how long it is, the tail holding all of it or not */
static const char *line_value(const sse_read_t *r, size_t name, size_t *len)
{
    size_t skip = name + (r->llen > name && r->hlen > name && r->head[name] == ' ');
    size_t vlen = r->llen - skip;
    if (vlen > r->tlen)
        vlen = r->tlen;
    *len = vlen;
    return r->tail + r->tlen - vlen;
}

static void line_end(sse_read_t *r, sse_read_fn fn, void *arg)
{
    if (r->llen > 0 && r->tail[r->tlen - 1] == '\r') { /* CRLF lines */
        r->tlen--;
        r->llen--;
        if (r->hlen > r->llen)
            r->hlen = r->llen;
    }
    size_t vlen;
    const char *v;
    if (r->llen == 0) { /* a blank line ends the event */
        if (r->has_data)
            fn(arg, r->id, r->data, r->dlen);
        r->has_data = 0;
        r->dlen = 0;
    } else if (r->hlen >= 5 && memcmp(r->head, "data:", 5) == 0) {
        v = line_value(r, 5, &vlen);
        memmove(r->data, v, vlen);
        r->dlen = vlen;
        r->has_data = 1;
    } else if (r->hlen >= 3 && memcmp(r->head, "id:", 3) == 0) {
        v = line_value(r, 3, &vlen);
        if (vlen >= SSE_READ_ID)
            vlen = SSE_READ_ID - 1;
        memcpy(r->id, v, vlen);
        r->id[vlen] = '\0';
    }
    r->hlen = r->tlen = r->llen = 0;
}

/* body bytes (no chunk framing) into lines and events */
static void body(sse_read_t *r, const char *p, size_t n, sse_read_fn fn, void *arg)
{
    const char *end = p + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        line_add(r, p, (size_t)((nl ? nl : end) - p));
        if (!nl)
            return;
        line_end(r, fn, arg);
        p = nl + 1;
    }
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int sse_read_feed(sse_read_t *r, const char *buf, size_t n, sse_read_fn fn, void *arg)
{
    if (!r->chunked) {
        body(r, buf, n, fn, arg);
        return 0;
    }
    const char *p = buf, *end = buf + n;
    while (p < end) {
        switch (r->cstate) {
        case CH_SIZE: {
            int h = hexval(*p);
            if (h >= 0) {
                if (r->csize > ((size_t)1 << 40))
                    return -1;
                r->csize = r->csize * 16 + (size_t)h;
            } else if (*p == '\n') {
                r->cstate = r->csize ? CH_DATA : CH_TRAILER;
                r->ended = r->csize == 0;
            } else if (*p == ';' || *p == ' ' || *p == '\t') {
                r->cstate = CH_EXT;
            } else if (*p != '\r') {
                return -1;
            }
            p++;
            break;
        }
        case CH_EXT:
            if (*p++ == '\n') {
                r->cstate = r->csize ? CH_DATA : CH_TRAILER;
                r->ended = r->csize == 0;
            }
            break;
        case CH_DATA: {
            size_t k = (size_t)(end - p) < r->csize ? (size_t)(end - p) : r->csize;
            body(r, p, k, fn, arg);
            p += k;
            r->csize -= k;
            if (r->csize == 0)
                r->cstate = CH_DATA_END;
            break;
        }
        case CH_DATA_END: /* the CRLF after a chunk's data */
            if (*p == '\n')
                r->cstate = CH_SIZE;
            else if (*p != '\r')
                return -1;
            p++;
            break;
        default: /* after the last chunk: nothing more is read */
            return 0;
        }
    }
    return 0;
}
