/* sse_stream.h -- server-sent-event streams over libevent's evhttp, for every stream
 * the programs serve: the browser monitor's frames (monitorgw/web/sse.c, for rcss-monitorgw
 * and rcss-logplayer), the runner's /match/events (monitorgw/gateway/mgw_status.c) and the 3D
 * browser view (monitorgw/3d/mgw3d_http.c). A stream is a list of viewers, each an
 * unfinished streaming reply; an event is one reference-counted buffer shared by every
 * viewer's connection, never copied per viewer: sent straight to a viewer's socket when
 * nothing is waiting to go to it, else (and what the socket did not take) referenced from its
 * connection's output. Never logs. */
#ifndef RCSS_SSE_STREAM_H
#define RCSS_SSE_STREAM_H

#include <stddef.h>
#include <stdint.h>

struct evhttp_request;
struct event;
struct event_base;

#define SSE_RETRY_MS    1000             /* the "retry:" a new viewer is told (ms) */
#define SSE_PAGE_MARKER "/*FRAME*/null"  /* where a page takes its first frame */

/* One event, "id: N\ndata: JSON\n\n" (no id line for id 0), the text at data + text,
 * text_len bytes. It is stored framed as an HTTP/1.1 chunk ("<hex length>\r\n" text
 * "\r\n", all of data[0, len)): a chunked reply takes the whole of it by reference,
 * one reference per viewer and event, where evhttp_send_reply_chunk would allocate
 * the framing for every viewer (about 1 KB each: 1,000 browser viewers with frames
 * queued held 160 MB). */
typedef struct sse_ev {
    int    refs;
    size_t len;            /* bytes of data: the whole chunk */
    size_t text, text_len; /* the event's text in data */
    size_t json;           /* offset of the JSON in data */
    char   data[];
} sse_ev_t;

typedef struct sse_viewer sse_viewer_t;

typedef struct sse_stream {
    sse_viewer_t *head;
    int           n;            /* viewers */
    size_t        max_queued;   /* a viewer with more bytes unsent skips events; 0: never */
    uint64_t      skipped;      /* events viewers skipped */
    /* sse_stream_offer's rate limit (sse_stream_throttle) */
    int           gap_ms;       /* at least this long between two offered events sent */
    struct event *due_ev;       /* when the kept one goes */
    sse_ev_t     *kept;         /* the newest offered event not sent yet */
    int64_t       last_ms;      /* when an offered event was last sent (monotonic) */
} sse_stream_t;

/* A new event holding one reference (the caller's); NULL when out of memory. */
sse_ev_t *sse_ev_new(uint64_t id, const char *json, size_t len);
void      sse_ev_unref(sse_ev_t *e);

/* req becomes a viewer of s: the event-stream headers (no-cache, any origin), the reply
 * started, "retry: SSE_RETRY_MS". NULL (and 503 sent) when out of memory. The viewer
 * leaves the list by itself when its connection closes. */
sse_viewer_t *sse_stream_add(sse_stream_t *s, struct evhttp_request *req);
/* e to one viewer: 0 sent, 1 skipped (more than s->max_queued bytes unsent, counted) */
int  sse_viewer_send(sse_viewer_t *v, sse_ev_t *e);
/* The same whatever is unsent (a returning viewer's missed frames: by reference, a
 * chain link each, not a copy) */
int  sse_viewer_send_all(sse_viewer_t *v, sse_ev_t *e);
/* e to every viewer */
void sse_stream_send(sse_stream_t *s, sse_ev_t *e);
/* Forget every viewer, after evhttp_free has closed their connections (and the
 * throttle's timer and kept event). */
void sse_stream_clear(sse_stream_t *s);

/* Frames to a live view, at most one per gap_ms: sse_stream_offer sends e to every
 * viewer when the last offered event went at least gap_ms ago, else keeps it (in place
 * of one kept before: only the newest is worth showing) and sends it when the time is
 * up, so the last frame is never lost. sse_stream_throttle sets it up on base; 0, or -1
 * when out of memory. Without it (gap 0), offer is send. */
int  sse_stream_throttle(sse_stream_t *s, struct event_base *base, int gap_ms);
void sse_stream_offer(sse_stream_t *s, sse_ev_t *e);

/* Reply to req with page (NUL-terminated, text/html, no-cache), the JSON of e (if e) in
 * place of its first SSE_PAGE_MARKER so the page draws at once; "</" in the JSON is
 * written "<\/" so it cannot end the page's script. */
void sse_page_reply(struct evhttp_request *req, const char *page, const sse_ev_t *e);

#endif
