/* mgw3d_http.c -- the 3D browser view: rcss3d-monitorgw serves HTTP (libevent evhttp)
 * on server::http_port when it is set. GET / is the page (mgw3d_page.html, in the
 * binary: a top view of the field with the robots' and the ball's heights); GET /events
 * a server-sent-events stream with one JSON frame per Info step (mgw3d_encode_json), at
 * most 50 a second (sse_stream_offer: the newest when due).
 * A frame is encoded once and shared by reference between the viewers' connections; a
 * viewer with more than MGW3D_HTTP_QUEUED bytes unsent skips frames. View only: the
 * commands are the monitor port's. */
#include <stdlib.h>
#include <unistd.h>
#include <event2/event.h>
#include <event2/http.h>
#include "log.h"
#include "mgw3d.h"
#include "net_tcp.h"
#include "sse_stream.h"

#define MGW3D_HTTP_QUEUED   (256 * 1024)
#define MGW3D_HTTP_FRAME_MS 20      /* at most 50 frames a second to a page (a fast run
                                       makes many more; the newest goes when due) */

typedef struct mgw3d_http {
    struct evhttp *http;
    sse_stream_t   viewers;        /* a slow one gets a later frame (each is complete) */
    sse_ev_t      *last;           /* the newest frame, for a new viewer */
    char           json[MGW3D_INFO_LEN];
} mgw3d_http_t;

static void on_events(struct evhttp_request *req, void *arg)
{
    mgw3d_http_t *h = arg;
    sse_viewer_t *v = sse_stream_add(&h->viewers, req);
    if (v && h->last)
        sse_viewer_send(v, h->last);
}

/* the page, with the newest frame in place of its FRAME marker, so it draws at once */
static void on_page(struct evhttp_request *req, void *arg)
{
    mgw3d_http_t *h = arg;
    sse_page_reply(req, mgw3d_page_html, h->last);
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
    h->viewers.max_queued = MGW3D_HTTP_QUEUED;
    if (sse_stream_throttle(&h->viewers, g->base, MGW3D_HTTP_FRAME_MS) < 0)
        return -1;
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
    sse_ev_t *f = sse_ev_new(0, h->json, (size_t)n);
    if (!f)
        return;
    sse_stream_offer(&h->viewers, f);
    sse_ev_unref(h->last);
    h->last = f;
}

void mgw3d_http_stop(mgw3d_t *g)
{
    mgw3d_http_t *h = g->http;
    if (!h)
        return;
    if (h->http)
        evhttp_free(h->http); /* closes the viewers' connections (their close callbacks free them) */
    sse_stream_clear(&h->viewers);
    sse_ev_unref(h->last);
    free(h);
    g->http = NULL;
}
