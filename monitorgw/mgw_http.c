/* mgw_http.c -- the browser monitor: monitorgw serves HTTP (libevent evhttp) on
 * server::http_port. GET / is the page (mgw_page.html, in the binary); GET /events a
 * server-sent-events stream of the JSON show frames (the same bytes as JSON monitors
 * get), optionally server::http_delay cycles late for broadcast; POST /cmd a referee
 * command from the page, accepted only with the operator token (server::http_token).
 * Each frame is one reference-counted buffer shared by every viewer's connection; a
 * viewer whose connection has more than HTTP_MAX_QUEUED bytes unsent skips frames. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>
#include "log.h"
#include "mgw.h"

#define HTTP_MAX_QUEUED  (256 * 1024)  /* bytes a viewer may have unsent */
#define HTTP_MAX_DELAY   6000          /* cycles of broadcast delay (10 min) */
#define HTTP_CMD_MAX     256
#define HTTP_RESUME_MS   1000          /* accepting paused after descriptors ran out */

typedef struct http_frame {         /* one SSE event, shared */
    int    refs;
    size_t len;
    char   data[];
} http_frame_t;

typedef struct http_viewer {
    struct evhttp_request *req;
    struct mgw_http       *h;
    struct http_viewer    *prev, *next;
    uint64_t               skipped;
} http_viewer_t;

typedef struct mgw_http {
    mgw_t          *g;
    struct evhttp  *http;
    http_viewer_t  *viewers;
    int             nviewers;
    int             delay;          /* cycles */
    http_frame_t  **ring;           /* the last delay + 1 frames */
    uint64_t        nframes;        /* frames put into the ring */
    uint64_t        skipped;        /* frames viewers skipped (slow) */
    struct evconnlistener *listener; /* the http port's */
    struct event   *resume_ev;      /* accepting again after descriptors ran out */
} mgw_http_t;

static void frame_unref(http_frame_t *f)
{
    if (f && --f->refs == 0)
        free(f);
}

static void frame_cleanup(const void *data, size_t len, void *arg)
{
    (void)data;
    (void)len;
    frame_unref(arg);
}

/* the frame a viewer gets now (delay cycles old), NULL if none yet */
static http_frame_t *frame_current(const mgw_http_t *h)
{
    if (h->nframes <= (uint64_t)h->delay)
        return NULL;
    return h->ring[(h->nframes - 1 - (uint64_t)h->delay) % (uint64_t)(h->delay + 1)];
}

/* ---- viewers -------------------------------------------------------------------------- */
static void viewer_unlink(http_viewer_t *v)
{
    mgw_http_t *h = v->h;
    if (v->prev)
        v->prev->next = v->next;
    else
        h->viewers = v->next;
    if (v->next)
        v->next->prev = v->prev;
    h->nviewers--;
    free(v);
}

static void viewer_closed(struct evhttp_connection *conn, void *arg)
{
    (void)conn;
    viewer_unlink(arg);
}

static void viewer_send(http_viewer_t *v, http_frame_t *f)
{
    struct evhttp_connection *conn = evhttp_request_get_connection(v->req);
    struct bufferevent *bev = conn ? evhttp_connection_get_bufferevent(conn) : NULL;
    if (!bev || evbuffer_get_length(bufferevent_get_output(bev)) > HTTP_MAX_QUEUED) {
        v->skipped++;
        v->h->skipped++;
        return;
    }
    struct evbuffer *b = evbuffer_new();
    if (!b)
        return;
    f->refs++;
    if (evbuffer_add_reference(b, f->data, f->len, frame_cleanup, f) < 0)
        frame_unref(f);
    evhttp_send_reply_chunk(v->req, b);
    evbuffer_free(b);
}

static void on_events(struct evhttp_request *req, void *arg)
{
    mgw_http_t *h = arg;
    if (!mgw_peer_fd_room(h->g)) { /* descriptors nearly used up: one clear refusal */
        evhttp_send_error(req, HTTP_SERVUNAVAIL, "too many viewers and monitors");
        return;
    }
    http_viewer_t *v = calloc(1, sizeof *v);
    if (!v) {
        evhttp_send_error(req, HTTP_SERVUNAVAIL, NULL);
        return;
    }
    struct evkeyvalq *out = evhttp_request_get_output_headers(req);
    evhttp_add_header(out, "Content-Type", "text/event-stream");
    evhttp_add_header(out, "Cache-Control", "no-cache");
    evhttp_add_header(out, "Access-Control-Allow-Origin", "*");
    v->req = req;
    v->h = h;
    v->next = h->viewers;
    if (h->viewers)
        h->viewers->prev = v;
    h->viewers = v;
    h->nviewers++;
    evhttp_send_reply_start(req, HTTP_OK, "OK");
    evhttp_connection_set_closecb(evhttp_request_get_connection(req), viewer_closed, v);
    struct evbuffer *b = evbuffer_new();
    if (b) {
        evbuffer_add_printf(b, "retry: 1000\n\n");
        evhttp_send_reply_chunk(req, b);
        evbuffer_free(b);
    }
    http_frame_t *f = frame_current(h);
    if (f)
        viewer_send(v, f);
}

/* ---- page and commands ------------------------------------------------------------- */
/* the page, with the current frame in place of its FRAME marker (drawn before the
 * stream delivers the next one); "</" escaped so the JSON cannot end the script */
static void on_page(struct evhttp_request *req, void *arg)
{
    mgw_http_t *h = arg;
    static const char marker[] = "/*FRAME*/null";
    struct evbuffer *b = evbuffer_new();
    if (!b)
        return;
    const char *page = mgw_page_html, *at = strstr(page, marker);
    http_frame_t *f = frame_current(h);
    if (at && f) {
        evbuffer_add(b, page, (size_t)(at - page));
        const char *json = f->data + 6, *end = f->data + f->len - 2;
        for (const char *p = json; p < end; p++) {
            if (p[0] == '<' && p + 1 < end && p[1] == '/')
                evbuffer_add(b, "<\\", 2);
            else
                evbuffer_add(b, p, 1);
        }
        evbuffer_add(b, at + sizeof marker - 1, strlen(at + sizeof marker - 1));
    } else {
        evbuffer_add_reference(b, page, strlen(page), NULL, NULL);
    }
    evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type",
                      "text/html; charset=utf-8");
    evhttp_add_header(evhttp_request_get_output_headers(req), "Cache-Control", "no-cache");
    evhttp_send_reply(req, HTTP_OK, "OK", b);
    evbuffer_free(b);
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

/* got == want, in a time that does not tell how much of a guess was right */
static int token_equal(const char *got, const char *want)
{
    size_t n = strlen(want), m = strlen(got);
    unsigned char diff = (unsigned char)(n != m);
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(want[i] ^ (i < m ? got[i] : 0));
    return diff == 0;
}

/* the operator token: header X-Rcss-Token, or ?token= */
static int cmd_token_ok(mgw_http_t *h, struct evhttp_request *req)
{
    const char *want = conf_str(&h->g->conf, SP_http_token);
    if (!want[0])
        return 0;
    const char *got = evhttp_find_header(evhttp_request_get_input_headers(req), "X-Rcss-Token");
    struct evkeyvalq q;
    int ok = 0;
    if (got)
        return token_equal(got, want);
    const char *query = evhttp_uri_get_query(evhttp_request_get_evhttp_uri(req));
    if (query && evhttp_parse_query_str(query, &q) == 0) {
        const char *t = evhttp_find_header(&q, "token");
        ok = t && token_equal(t, want);
        evhttp_clear_headers(&q);
    }
    return ok;
}

static void on_cmd(struct evhttp_request *req, void *arg)
{
    mgw_http_t *h = arg;
    char text[HTTP_CMD_MAX + 1];
    if (evhttp_request_get_command(req) != EVHTTP_REQ_POST) {
        cmd_reply(req, HTTP_BADMETHOD, "(error use_post)");
        return;
    }
    struct evbuffer *in = evhttp_request_get_input_buffer(req);
    size_t n = evbuffer_get_length(in);
    if (n == 0 || n > HTTP_CMD_MAX) {
        cmd_reply(req, HTTP_BADREQUEST, "(error illegal_command_form)");
        return;
    }
    evbuffer_copyout(in, text, n);
    text[n] = '\0';
    mgw_cmd_t c;
    mgw_parse_cmd(text, strnlen(text, n), &c);
    if (c.kind != MGW_CMD_CTRL) {
        cmd_reply(req, HTTP_BADREQUEST, c.kind == MGW_CMD_ERROR ? c.reply : "(error illegal_command_form)");
        return;
    }
    if (!cmd_token_ok(h, req)) {
        cmd_reply(req, 403, MGW_E_OPERATOR);
        return;
    }
    c.ctrl.recv_time = (uint32_t)(h->g->have_snap ? h->g->snap.time : 0);
    if (shm_ctrl_push(&h->g->self->ctrl, &c.ctrl) < 0) {
        cmd_reply(req, HTTP_SERVUNAVAIL, "(error busy)");
        return;
    }
    cmd_reply(req, HTTP_OK, "(ok)");
}

static void on_other(struct evhttp_request *req, void *arg)
{
    (void)arg;
    evhttp_send_error(req, HTTP_NOTFOUND, NULL);
}

/* ---- the server ---------------------------------------------------------------------- */
static void on_resume(evutil_socket_t fd, short what, void *arg)
{
    mgw_http_t *h = arg;
    (void)fd;
    (void)what;
    evconnlistener_enable(h->listener);
}

/* accept() failed for a reason other than a retriable one: out of descriptors. A
 * listener left enabled would fire again at once (the connection still waits), so
 * accepting pauses for HTTP_RESUME_MS, with one line, instead of spinning. */
static mgw_http_t *http_self; /* the listener's error callback gets evhttp's argument:
                                 one http server per process, this one */

static void on_accept_error(struct evconnlistener *l, void *arg)
{
    mgw_http_t *h = http_self;
    (void)arg;
    int e = EVUTIL_SOCKET_ERROR();
    struct timeval tv = { HTTP_RESUME_MS / 1000, (HTTP_RESUME_MS % 1000) * 1000 };
    if (!evconnlistener_disable(l) && !event_pending(h->resume_ev, EV_TIMEOUT, NULL))
        log_warn("http: cannot accept (%s): paused for %d ms", evutil_socket_error_to_string(e),
                 HTTP_RESUME_MS);
    event_add(h->resume_ev, &tv);
}

int mgw_http_start(mgw_t *g)
{
    int port = conf_int(&g->conf, SP_http_port);
    if (port == 0) /* off; -1: a free port (mgw_status.c) */
        return 0;
    mgw_http_t *h = calloc(1, sizeof *h);
    if (!h)
        return -1;
    h->g = g;
    g->http = h;
    int delay = conf_int(&g->conf, SP_http_delay);
    h->delay = delay < 0 ? 0 : delay > HTTP_MAX_DELAY ? HTTP_MAX_DELAY : delay;
    h->ring = calloc((size_t)h->delay + 1, sizeof *h->ring);
    h->http = evhttp_new(g->base);
    if (!h->ring || !h->http)
        return -1;
    const char *addr = conf_str(&g->conf, SP_bind_address);
    int asked = port;
    struct evhttp_bound_socket *bs = mgw_status_bind(g, h->http, addr[0] ? addr : "0.0.0.0",
                                                     &port);
    if (!bs) {
        int e = errno;
        log_err("cannot bind http port %d: %s", asked, strerror(e));
        return e == EADDRINUSE || e == EACCES ? SHM_CONFLICT : -1;
    }
    h->listener = evhttp_bound_socket_get_listener(bs);
    h->resume_ev = evtimer_new(g->base, on_resume, h);
    if (!h->resume_ev)
        return -1;
    http_self = h;
    evconnlistener_set_error_cb(h->listener, on_accept_error);
    evhttp_set_allowed_methods(h->http, EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_HEAD);
    evhttp_set_cb(h->http, "/", on_page, h);
    evhttp_set_cb(h->http, "/index.html", on_page, h);
    evhttp_set_cb(h->http, "/events", on_events, h);
    evhttp_set_cb(h->http, "/cmd", on_cmd, h);
    if (mgw_status_start(g, h->http) < 0) /* /status, /metrics, /match/events */
        return -1;
    evhttp_set_gencb(h->http, on_other, h);
    log_info("browser monitor on http port %d", port);
    return 0;
}

void mgw_http_stop(mgw_t *g)
{
    mgw_http_t *h = g->http;
    if (!h)
        return;
    if (h->resume_ev)
        event_free(h->resume_ev);
    http_self = NULL;
    if (h->http)
        evhttp_free(h->http); /* closes the connections: every viewer is unlinked */
    mgw_status_stop(g);
    while (h->viewers)
        viewer_unlink(h->viewers);
    for (int i = 0; h->ring && i <= h->delay; i++)
        frame_unref(h->ring[i]);
    free(h->ring);
    free(h);
    g->http = NULL;
}

int mgw_http_viewers(const mgw_t *g)
{
    return g->http ? g->http->nviewers : -1;
}

uint64_t mgw_http_skipped(const mgw_t *g)
{
    return g->http ? g->http->skipped : 0;
}

void mgw_http_frame(mgw_t *g, const char *json, size_t len)
{
    mgw_http_t *h = g->http;
    http_frame_t *f = malloc(sizeof *f + len + 16);
    if (!f)
        return;
    f->refs = 1; /* the ring's */
    memcpy(f->data, "data: ", 6);
    memcpy(f->data + 6, json, len);
    memcpy(f->data + 6 + len, "\n\n", 2);
    f->len = len + 8;
    size_t slot = (size_t)(h->nframes % (uint64_t)(h->delay + 1));
    frame_unref(h->ring[slot]);
    h->ring[slot] = f;
    h->nframes++;
    http_frame_t *cur = frame_current(h);
    for (http_viewer_t *v = h->viewers; v && cur; v = v->next)
        viewer_send(v, cur);
}
