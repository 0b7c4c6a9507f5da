/* mgw3d_http.c -- the 3D browser view: rcss3d-monitorgw serves HTTP (libevent evhttp)
 * on server::http_port when it is set. GET / is the page (mgw3d_page.html, in the
 * binary: a top view of the field with the robots' and the ball's heights); GET /events
 * a server-sent-events stream with one JSON frame per Info step (mgw3d_encode_json).
 * A frame is encoded once and shared by reference between the viewers' connections; a
 * viewer with more than MGW3D_HTTP_QUEUED bytes unsent skips frames. View only: the
 * commands are the monitor port's. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include "log.h"
#include "mgw3d.h"
#include "net_tcp.h"

#define MGW3D_HTTP_QUEUED (256 * 1024)

typedef struct h3_frame {          /* one SSE event, shared by reference */
    int    refs;
    size_t len;
    char   data[];
} h3_frame_t;

typedef struct h3_viewer {
    struct evhttp_request *req;
    struct mgw3d_http     *h;
    struct h3_viewer      *prev, *next;
} h3_viewer_t;

typedef struct mgw3d_http {
    struct evhttp *http;
    h3_viewer_t   *viewers;
    h3_frame_t    *last;           /* the newest frame, for a new viewer */
    char           json[MGW3D_INFO_LEN];
} mgw3d_http_t;

static void frame_unref(h3_frame_t *f)
{
    if (f && --f->refs == 0)
        free(f);
}

static void frame_done(const void *data, size_t len, void *arg)
{
    (void)data;
    (void)len;
    frame_unref(arg);
}

static void viewer_send(h3_viewer_t *v, h3_frame_t *f)
{
    struct evhttp_connection *conn = evhttp_request_get_connection(v->req);
    struct bufferevent *bev = conn ? evhttp_connection_get_bufferevent(conn) : NULL;
    if (!bev || evbuffer_get_length(bufferevent_get_output(bev)) > MGW3D_HTTP_QUEUED)
        return; /* slow: it gets a later frame (every frame is complete) */
    struct evbuffer *b = evbuffer_new();
    if (!b)
        return;
    f->refs++;
    if (evbuffer_add_reference(b, f->data, f->len, frame_done, f) < 0)
        frame_unref(f);
    evhttp_send_reply_chunk(v->req, b);
    evbuffer_free(b);
}

static void viewer_closed(struct evhttp_connection *conn, void *arg)
{
    h3_viewer_t *v = arg;
    (void)conn;
    /* a viewer that went away in the middle of the stream: libevent has taken its
     * unfinished request off the connection and leaves it to us; ending the reply frees
     * it. (When the server itself shuts down the request is still on the connection,
     * which frees it.) */
    if (evhttp_request_get_connection(v->req) == NULL)
        evhttp_send_reply_end(v->req);
    if (v->prev)
        v->prev->next = v->next;
    else
        v->h->viewers = v->next;
    if (v->next)
        v->next->prev = v->prev;
    free(v);
}

static void on_events(struct evhttp_request *req, void *arg)
{
    mgw3d_http_t *h = arg;
    h3_viewer_t *v = calloc(1, sizeof *v);
    if (!v) {
        evhttp_send_error(req, HTTP_SERVUNAVAIL, NULL);
        return;
    }
    struct evkeyvalq *out = evhttp_request_get_output_headers(req);
    evhttp_add_header(out, "Content-Type", "text/event-stream");
    evhttp_add_header(out, "Cache-Control", "no-cache");
    v->req = req;
    v->h = h;
    v->next = h->viewers;
    if (h->viewers)
        h->viewers->prev = v;
    h->viewers = v;
    evhttp_send_reply_start(req, HTTP_OK, "OK");
    evhttp_connection_set_closecb(evhttp_request_get_connection(req), viewer_closed, v);
    if (h->last)
        viewer_send(v, h->last);
}

/* the page, with the newest frame in place of its FRAME marker, so it draws at once;
 * "</" is written "<\/" so the JSON cannot end the script */
static void on_page(struct evhttp_request *req, void *arg)
{
    mgw3d_http_t *h = arg;
    static const char marker[] = "/*FRAME*/null";
    struct evbuffer *b = evbuffer_new();
    if (!b)
        return;
    const char *page = mgw3d_page_html, *at = strstr(page, marker);
    if (at && h->last) {
        const char *json = h->last->data + 6, *end = h->last->data + h->last->len - 2;
        evbuffer_add(b, page, (size_t)(at - page));
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
    evhttp_send_reply(req, HTTP_OK, "OK", b);
    evbuffer_free(b);
}

static void on_other(struct evhttp_request *req, void *arg)
{
    (void)arg;
    evhttp_send_error(req, HTTP_NOTFOUND, NULL);
}

int mgw3d_http_start(mgw3d_t *g)
{
    int port = conf3d_int(&g->conf, P3_http_port);
    char err[256];
    if (port <= 0)
        return 0;
    mgw3d_http_t *h = calloc(1, sizeof *h);
    if (!h)
        return -1;
    g->http = h;
    h->http = evhttp_new(g->base);
    int fd = net_tcp_listen(conf3d_str(&g->conf, P3_bind_address), port, 64, err, sizeof err);
    if (!h->http || fd < 0) {
        log_err("browser view: %s", fd < 0 ? err : "evhttp_new failed");
        return -1;
    }
    if (!evhttp_accept_socket_with_handle(h->http, fd)) {
        close(fd);
        return -1;
    }
    evhttp_set_cb(h->http, "/", on_page, h);
    evhttp_set_cb(h->http, "/events", on_events, h);
    evhttp_set_gencb(h->http, on_other, h);
    log_info("browser view on HTTP port %d", port);
    return 0;
}

void mgw3d_http_frame(mgw3d_t *g)
{
    mgw3d_http_t *h = g->http;
    if (!h)
        return;
    int n = mgw3d_encode_json(&g->snap, &g->conf, h->json, sizeof h->json);
    if (n < 0)
        return;
    h3_frame_t *f = malloc(sizeof *f + (size_t)n + 8);
    if (!f)
        return;
    f->refs = 1;
    memcpy(f->data, "data: ", 6);
    memcpy(f->data + 6, h->json, (size_t)n);
    memcpy(f->data + 6 + n, "\n\n", 2);
    f->len = (size_t)n + 8;
    for (h3_viewer_t *v = h->viewers; v; v = v->next)
        viewer_send(v, f);
    frame_unref(h->last);
    h->last = f;
}

void mgw3d_http_stop(mgw3d_t *g)
{
    mgw3d_http_t *h = g->http;
    if (!h)
        return;
    if (h->http)
        evhttp_free(h->http); /* closes the viewers' connections (their close callbacks free them) */
    while (h->viewers) {
        h3_viewer_t *v = h->viewers;
        h->viewers = v->next;
        free(v);
    }
    frame_unref(h->last);
    free(h);
    g->http = NULL;
}
