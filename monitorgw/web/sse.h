/* sse.h -- the browser monitor's HTTP server (libevent evhttp), shared by rcss-monitorgw
 * (live matches, mgw_http.c) and rcss-logplayer (replays, lp_main.c):
 *   GET /         the page (mgw_page.html), with the current frame in place of its
 *                 FRAME marker, so it draws at once;
 *   GET /events   a server-sent-events stream: "data: JSON\n\n" per frame, optionally
 *                 `delay` frames late (broadcast delay), and the status events;
 *   POST /cmd     a command for the program (its handler decides and replies).
 * Each frame is one reference-counted buffer shared by every viewer's connection; a
 * viewer whose connection has more than SSE_MAX_QUEUED bytes unsent skips frames. */
#ifndef RCSS_SSE_H
#define RCSS_SSE_H

#include <stddef.h>
#include <stdint.h>

struct event_base;
typedef struct sse sse_t;

#define SSE_MAX_QUEUED (64 * 1024)   /* bytes a viewer may have unsent */
#define SSE_MAX_DELAY  6000           /* frames of broadcast delay (10 min of play) */
#define SSE_CMD_MAX    256            /* longest command body */
#define SSE_KEEP_FRAMES 600           /* frames a live match keeps for returning viewers
                                         (60 s of play) */

/* POST /cmd: text is the body (NUL-terminated), token what the request carried (header
 * X-Rcss-Token, or ?token=; NULL if neither). Writes the reply (one line) and returns
 * the HTTP status (200, 400, 403, 503). */
typedef int (*sse_cmd_fn)(void *arg, const char *text, const char *token, char *reply,
                          size_t len);

/* GET /events: 1 to take one more viewer, 0 to refuse it (503, e.g. when the process
 * is short of file descriptors) */
typedef int (*sse_admit_fn)(void *arg);

typedef struct sse_opts {
    const char *bind;       /* address to listen on; NULL or "" for any */
    int         port;       /* 0: any free port (sse_port says which) */
    int         delay;      /* frames a viewer is behind (clamped to 0..SSE_MAX_DELAY) */
    const char *page;       /* the page, NUL-terminated, with its FRAME marker */
    sse_cmd_fn  on_cmd;
    void       *arg;
    sse_admit_fn admit;     /* NULL: every viewer is taken */
    int         min_frame_ms; /* frames to viewers at most this often (a frame that comes
                                 sooner waits, the newest of them is sent when the time
                                 is up); 0: every frame at once */
    int         keep;       /* frames kept for returning viewers (frames with ids:
                               SSE_KEEP_FRAMES); 0: none, only the delay's */
} sse_opts_t;

#define SSE_LIVE_FRAME_MS 20  /* a live match's viewers: 50 frames a second at most (a
                                 page draws no faster; synch mode makes thousands) */

#define SSE_RESUME_MS  1000           /* accepting paused after descriptors ran out */

/* Listen and serve on base. NULL with err if the port cannot be had (errno is the
 * bind's: EADDRINUSE for a port another process holds). When accept() fails (no
 * descriptors left) accepting pauses for SSE_RESUME_MS instead of spinning. */
sse_t *sse_start(struct event_base *base, const sse_opts_t *o, char *err, size_t errlen);
/* Close every connection and free everything. */
void   sse_stop(sse_t *h);
/* A frame (JSON object, len bytes without NUL): into the ring, and the frame now due to
 * every viewer. id (increasing; 0 none) is its event id: a viewer that comes back with
 * the Last-Event-ID of the last frame it got (a browser's EventSource does so by itself)
 * first gets every frame after it still kept (the last sse_opts_t.keep, never one newer
 * than the delay allows), then the live ones: no gap after a short disconnection. */
void   sse_frame(sse_t *h, uint64_t id, const char *json, size_t len);
/* A status event (JSON object): to every viewer now, and to each new viewer when it
 * connects (not delayed). */
void   sse_status(sse_t *h, const char *json, size_t len);
int    sse_viewers(const sse_t *h);
/* frames viewers skipped because they were slow */
uint64_t sse_skipped(const sse_t *h);
/* the port it listens on */
int    sse_port(const sse_t *h);
/* the evhttp server itself, for a program's own routes (evhttp_set_cb) next to the
 * page's: "/", "/index.html", "/events", "/cmd" */
struct evhttp *sse_evhttp(sse_t *h);
/* 1 if got equals want, compared in a time that does not tell how much of a guess was
 * right (operator tokens) */
int    sse_token_equal(const char *got, const char *want);

#endif
