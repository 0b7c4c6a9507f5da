/* sse_read.h -- the reading side of a server-sent-events stream, for programs that
 * watch one as a browser does (scripts/bench/rcss-viewload.c): the response body,
 * HTTP/1.1 chunked or not, in pieces as they arrive, cut into events. Of each event it
 * keeps only its id and the last SSE_READ_TAIL bytes of its data, where a live frame
 * has its stamp (common/frame_stamp.h), so thousands of viewers read thousands of frames
 * a second without copying them. Pure. */
#ifndef RCSS_SSE_READ_H
#define RCSS_SSE_READ_H

#include <stddef.h>

#define SSE_READ_TAIL 128     /* bytes kept of the end of a line */
#define SSE_READ_ID   64      /* longest id kept (longer: cut) */

typedef struct sse_read {
    int    chunked;           /* set before the first feed: the body is chunked */
    /* the chunked layer */
    int    cstate;
    size_t csize;             /* bytes of the chunk still to come */
    /* the line being read */
    char   head[8];           /* its first bytes */
    size_t hlen;
    char   tail[SSE_READ_TAIL]; /* its last bytes */
    size_t tlen;
    size_t llen;              /* its length so far */
    /* the event being read */
    char   id[SSE_READ_ID];   /* the id it has or inherits ("" none yet) */
    char   data[SSE_READ_TAIL]; /* the end of its data */
    size_t dlen;
    int    has_data;
    int    ended;             /* the chunked body ended (a zero chunk) */
} sse_read_t;

/* one whole event: its id (the last one the stream gave, "" if none) and the last dlen
 * bytes of its data (the whole data when it is shorter than SSE_READ_TAIL) */
typedef void (*sse_read_fn)(void *arg, const char *id, const char *data, size_t dlen);

/* Feed n bytes of the body. 0, or -1 when the chunked framing is broken. */
int sse_read_feed(sse_read_t *r, const char *buf, size_t n, sse_read_fn fn, void *arg);

#endif
