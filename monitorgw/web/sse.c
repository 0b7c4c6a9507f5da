/* sse.c -- the browser monitor's HTTP server (sse.h): the page, the server-sent-events
 * stream of frames (through a ring of the last frames, for the broadcast delay and for
 * viewers that come back with a Last-Event-ID)
 * and status events, and POST /cmd handed to the program. Moved out of mgw_http.c so
 * rcss-monitorgw and rcss-logplayer serve the same page the same way. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>
#include <event2/util.h>
#include "sse.h"
#include "sse_stream.h"

struct sse {
    struct evhttp          *http;
    struct evhttp_bound_socket *sock;
    sse_opts_t              o;
    sse_stream_t            viewers;
    int                     delay;          /* frames */
    size_t                  nring;          /* max(delay + 1, o.keep) */
    sse_ev_t              **ring;           /* the last nring frames */
    uint64_t               *ids;            /* and their ids */
    uint64_t                nframes;        /* frames put into the ring */
    sse_ev_t               *status;         /* the last status event */
    struct event           *resume_ev;      /* accepting again after descriptors ran out */
};

/* the frame a viewer gets now (delay frames old), NULL if none yet */
static sse_ev_t *frame_current(const sse_t *h)
{
    if (h->nframes <= (uint64_t)h->delay)
        return NULL;
    return h->ring[(h->nframes - 1 - (uint64_t)h->delay) % h->nring];
}

/* A returning viewer (Last-Event-ID: last): the kept frames after last up to the one now
 * due, in order. 1 if it got any (the current one among them). */
static int frames_since(const sse_t *h, sse_viewer_t *v, uint64_t last)
{
    if (h->nframes <= (uint64_t)h->delay)
        return 0;
    uint64_t end = h->nframes - (uint64_t)h->delay; /* frame numbers [first, end) */
    uint64_t first = h->nframes > h->nring ? h->nframes - h->nring : 0;
    int sent = 0;
    for (uint64_t k = first; k < end; k++) {
        size_t slot = (size_t)(k % h->nring);
        if (h->ring[slot] && h->ids[slot] > last) {
            sse_viewer_send_all(v, h->ring[slot]);
            sent = 1;
        }
    }
    return sent;
}

/* the Last-Event-ID a returning viewer sent, 0 if none */
static uint64_t last_event_id(struct evhttp_request *req)
{
    const char *s = evhttp_find_header(evhttp_request_get_input_headers(req), "Last-Event-ID");
    char *end;
    if (!s || !*s)
        return 0;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    return errno || *end ? 0 : (uint64_t)v;
}

static void on_events(struct evhttp_request *req, void *arg)
{
    sse_t *h = arg;
    if (h->o.admit && !h->o.admit(h->o.arg)) { /* one clear refusal */
        evhttp_send_error(req, HTTP_SERVUNAVAIL, "too many viewers and monitors");
        return;
    }
    sse_viewer_t *v = sse_stream_add(&h->viewers, req);
    if (!v)
        return;
    if (h->status)
        sse_viewer_send(v, h->status);
    uint64_t last = last_event_id(req);
    if (last && frames_since(h, v, last))
        return;
    sse_ev_t *f = frame_current(h);
    if (f)
        sse_viewer_send(v, f);
}

/* ---- page and commands ------------------------------------------------------------- */
/* the page, with the current frame in place of its FRAME marker (drawn before the
 * stream delivers the next one) */
static void on_page(struct evhttp_request *req, void *arg)
{
    sse_t *h = arg;
    sse_page_reply(req, h->o.page, frame_current(h));
}

static void cmd_reply(struct evhttp_request *req, int code, const char *text)
{
    struct evbuffer *b = evbuffer_new();
    if (!b)
        return;
    evbuffer_add_printf(b, "%s\n", text);
    evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type", "text/plain");
    evhttp_send_reply(req, code, code == HTTP_OK ? "OK" : "Refused", b);
    evbuffer_free(b);
}

/* the token a request carries: header X-Rcss-Token, or ?token= (into buf) */
static const char *cmd_token(struct evhttp_request *req, char *buf, size_t len)
{
    const char *got = evhttp_find_header(evhttp_request_get_input_headers(req), "X-Rcss-Token");
    if (got)
        return got;
    const char *query = evhttp_uri_get_query(evhttp_request_get_evhttp_uri(req));
    struct evkeyvalq q;
    const char *t = NULL;
    if (query && evhttp_parse_query_str(query, &q) == 0) {
        if ((t = evhttp_find_header(&q, "token")) != NULL)
            snprintf(buf, len, "%s", t);
        evhttp_clear_headers(&q);
    }
    return t ? buf : NULL;
}

static void on_cmd(struct evhttp_request *req, void *arg)
{
    sse_t *h = arg;
    char text[SSE_CMD_MAX + 1], token[SSE_CMD_MAX], reply[256];
    if (evhttp_request_get_command(req) != EVHTTP_REQ_POST) {
        cmd_reply(req, HTTP_BADMETHOD, "(error use_post)");
        return;
    }
    struct evbuffer *in = evhttp_request_get_input_buffer(req);
    size_t n = evbuffer_get_length(in);
    if (n == 0 || n > SSE_CMD_MAX) {
        cmd_reply(req, HTTP_BADREQUEST, "(error illegal_command_form)");
        return;
    }
    evbuffer_copyout(in, text, n);
    text[n] = '\0';
    reply[0] = '\0';
    int code = h->o.on_cmd(h->o.arg, text, cmd_token(req, token, sizeof token), reply,
                           sizeof reply);
    cmd_reply(req, code, reply);
}

static void on_other(struct evhttp_request *req, void *arg)
{
    (void)arg;
    evhttp_send_error(req, HTTP_NOTFOUND, NULL);
}

/* ---- the server ---------------------------------------------------------------------- */
static void on_resume(evutil_socket_t fd, short what, void *arg)
{
    sse_t *h = arg;
    (void)fd;
    (void)what;
    evconnlistener_enable(evhttp_bound_socket_get_listener(h->sock));
}

/* the listener's error callback gets evhttp's own argument, not ours: the one server a
 * process runs is remembered here */
static sse_t *accept_owner;

/* accept() failed (EMFILE, ENFILE): pause accepting for a while rather than spin */
static void on_accept_error(struct evconnlistener *l, void *arg)
{
    sse_t *h = accept_owner;
    (void)arg;
    if (!h)
        return;
    int e = EVUTIL_SOCKET_ERROR();
    struct timeval tv = { SSE_RESUME_MS / 1000, (SSE_RESUME_MS % 1000) * 1000 };
    if (!evconnlistener_disable(l) && !event_pending(h->resume_ev, EV_TIMEOUT, NULL))
        fprintf(stderr, "http: cannot accept (%s): paused for %d ms\n",
                evutil_socket_error_to_string(e), SSE_RESUME_MS);
    event_add(h->resume_ev, &tv);
}

int sse_token_equal(const char *got, const char *want)
{
    size_t n = strlen(want), m = strlen(got);
    unsigned char diff = (unsigned char)(n != m);
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(want[i] ^ (i < m ? got[i] : 0));
    return diff == 0;
}

sse_t *sse_start(struct event_base *base, const sse_opts_t *o, char *err, size_t errlen)
{
    sse_t *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    h->o = *o;
    h->viewers.max_queued = SSE_MAX_QUEUED;
    h->delay = o->delay < 0 ? 0 : o->delay > SSE_MAX_DELAY ? SSE_MAX_DELAY : o->delay;
    int keep = o->keep < 0 ? 0 : o->keep > SSE_KEEP_FRAMES ? SSE_KEEP_FRAMES : o->keep;
    h->nring = h->delay + 1 > keep ? (size_t)h->delay + 1 : (size_t)keep;
    h->ring = calloc(h->nring, sizeof *h->ring);
    h->ids = calloc(h->nring, sizeof *h->ids);
    h->http = evhttp_new(base);
    const char *addr = o->bind && o->bind[0] ? o->bind : "0.0.0.0";
    if (!h->ring || !h->ids || !h->http
        || !(h->sock = evhttp_bind_socket_with_handle(h->http, addr, (uint16_t)o->port))) {
        int e = errno;
        snprintf(err, errlen, "cannot serve http on %s port %d: %s", addr, o->port,
                 strerror(e));
        sse_stop(h);
        errno = e;
        return NULL;
    }
    h->resume_ev = evtimer_new(base, on_resume, h);
    if (!h->resume_ev || sse_stream_throttle(&h->viewers, base, o->min_frame_ms) < 0) {
        snprintf(err, errlen, "out of memory");
        sse_stop(h);
        return NULL;
    }
    accept_owner = h;
    evconnlistener_set_error_cb(evhttp_bound_socket_get_listener(h->sock), on_accept_error);
    evhttp_set_allowed_methods(h->http, EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_HEAD);
    evhttp_set_cb(h->http, "/", on_page, h);
    evhttp_set_cb(h->http, "/index.html", on_page, h);
    evhttp_set_cb(h->http, "/events", on_events, h);
    evhttp_set_cb(h->http, "/cmd", on_cmd, h);
    evhttp_set_gencb(h->http, on_other, h);
    return h;
}

void sse_stop(sse_t *h)
{
    if (!h)
        return;
    if (accept_owner == h)
        accept_owner = NULL;
    if (h->resume_ev)
        event_free(h->resume_ev);
    if (h->http)
        evhttp_free(h->http); /* closes the connections: every viewer is unlinked */
    sse_stream_clear(&h->viewers);
    for (size_t i = 0; h->ring && i < h->nring; i++)
        sse_ev_unref(h->ring[i]);
    free(h->ids);
    sse_ev_unref(h->status);
    free(h->ring);
    free(h);
}

int sse_viewers(const sse_t *h)
{
    return h ? h->viewers.n : -1;
}

uint64_t sse_skipped(const sse_t *h)
{
    return h ? h->viewers.skipped : 0;
}

int sse_port(const sse_t *h)
{
    evutil_socket_t fd = evhttp_bound_socket_get_fd(h->sock);
    struct sockaddr_storage a;
    socklen_t l = sizeof a;
    if (getsockname(fd, (struct sockaddr *)&a, &l) < 0)
        return -1;
    if (a.ss_family == AF_INET)
        return ntohs(((struct sockaddr_in *)&a)->sin_port);
    return ntohs(((struct sockaddr_in6 *)&a)->sin6_port);
}

struct evhttp *sse_evhttp(sse_t *h)
{
    return h->http;
}

void sse_frame(sse_t *h, uint64_t id, const char *json, size_t len)
{
    sse_ev_t *f = sse_ev_new(id, json, len);
    if (!f)
        return;
    size_t slot = (size_t)(h->nframes % h->nring);
    sse_ev_unref(h->ring[slot]);
    h->ring[slot] = f; /* the ring's reference */
    h->ids[slot] = id;
    h->nframes++;
    sse_ev_t *cur = frame_current(h);
    if (cur)
        sse_stream_offer(&h->viewers, cur);
}

void sse_status(sse_t *h, const char *json, size_t len)
{
    sse_ev_t *f = sse_ev_new(0, json, len);
    if (!f)
        return;
    sse_ev_unref(h->status);
    h->status = f;
    sse_stream_send(&h->viewers, f);
}
