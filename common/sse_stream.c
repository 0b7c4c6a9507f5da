/* sse_stream.c -- server-sent-event streams (sse_stream.h): viewers as unfinished
 * streaming replies in an intrusive list, events shared by reference between their
 * connections' output buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include "sse_stream.h"

struct sse_viewer {
    struct evhttp_request *req;
    sse_stream_t          *s;
    sse_viewer_t          *prev, *next;
    int                    chunked;    /* the reply is HTTP/1.1 chunked */
    /* its connection's, which stay while it is in the list (a closing connection takes
     * the viewer out first): kept here so that a send to thousands of viewers does not
     * walk from each request to its connection, bufferevent and buffer */
    struct evbuffer       *out;
    evutil_socket_t        fd;
};

sse_ev_t *sse_ev_new(uint64_t id, const char *json, size_t len)
{
    char head[40], frame[24];
    int n = id ? snprintf(head, sizeof head, "id: %llu\ndata: ", (unsigned long long)id)
               : snprintf(head, sizeof head, "data: ");
    size_t text_len = (size_t)n + len + 2;
    int f = snprintf(frame, sizeof frame, "%zx\r\n", text_len);
    sse_ev_t *e = malloc(sizeof *e + (size_t)f + text_len + 2);
    if (!e)
        return NULL;
    e->refs = 1;
    e->text = (size_t)f;
    e->text_len = text_len;
    e->json = (size_t)f + (size_t)n;
    memcpy(e->data, frame, (size_t)f);
    memcpy(e->data + e->text, head, (size_t)n);
    memcpy(e->data + e->json, json, len);
    memcpy(e->data + e->json + len, "\n\n\r\n", 4);
    e->len = (size_t)f + text_len + 2;
    return e;
}

void sse_ev_unref(sse_ev_t *e)
{
    if (e && --e->refs == 0)
        free(e);
}

static void ev_release(const void *data, size_t len, void *arg)
{
    (void)data;
    (void)len;
    sse_ev_unref(arg);
}

static void viewer_unlink(sse_viewer_t *v)
{
    sse_stream_t *s = v->s;
    if (v->prev)
        v->prev->next = v->next;
    else
        s->head = v->next;
    if (v->next)
        v->next->prev = v->prev;
    s->n--;
    free(v);
}

static void viewer_closed(struct evhttp_connection *conn, void *arg)
{
    sse_viewer_t *v = arg;
    (void)conn;
    /* the viewer went: libevent detached our unfinished streaming request from the
     * connection and leaves it to us; ending its reply frees it. (When the server closes
     * the connection itself, the request is still attached and freed with it.) */
    if (evhttp_request_get_connection(v->req) == NULL)
        evhttp_send_reply_end(v->req);
    viewer_unlink(v);
}

sse_viewer_t *sse_stream_add(sse_stream_t *s, struct evhttp_request *req)
{
    sse_viewer_t *v = calloc(1, sizeof *v);
    if (!v) {
        evhttp_send_error(req, HTTP_SERVUNAVAIL, NULL);
        return NULL;
    }
    struct evkeyvalq *out = evhttp_request_get_output_headers(req);
    evhttp_add_header(out, "Content-Type", "text/event-stream");
    evhttp_add_header(out, "Cache-Control", "no-cache");
    evhttp_add_header(out, "Access-Control-Allow-Origin", "*");
    v->req = req;
    v->s = s;
    v->next = s->head;
    if (s->head)
        s->head->prev = v;
    s->head = v;
    s->n++;
    evhttp_send_reply_start(req, HTTP_OK, "OK");
    const char *te = evhttp_find_header(out, "Transfer-Encoding");
    v->chunked = te && strcmp(te, "chunked") == 0;
    struct evhttp_connection *conn = evhttp_request_get_connection(req);
    evhttp_connection_set_closecb(conn, viewer_closed, v);
    struct bufferevent *bev = evhttp_connection_get_bufferevent(conn);
    v->out = bufferevent_get_output(bev);
    v->fd = bufferevent_getfd(bev);
    struct evbuffer *b = evbuffer_new();
    if (b) {
        evbuffer_add_printf(b, "retry: %d\n\n", SSE_RETRY_MS);
        evhttp_send_reply_chunk(req, b);
        evbuffer_free(b);
    }
    return v;
}

static int viewer_send(sse_viewer_t *v, sse_ev_t *e, size_t max_queued)
{
    sse_stream_t *s = v->s;
    struct evbuffer *out = v->out;
    if (max_queued > 0 && evbuffer_get_length(out) > max_queued) {
        s->skipped++;
        return 1;
    }
    /* the chunk as it is for a chunked reply, the bare text otherwise */
    const char *d = v->chunked ? e->data : e->data + e->text;
    size_t n = v->chunked ? e->len : e->text_len;
    /* Nothing unsent: straight to the socket, one system call. Going through the
     * bufferevent costs two more per viewer and event (arming and disarming its write
     * event) and a turn of the loop: with thousands of viewers that was a sixth of the
     * fan-out's time. What the socket does not take now (its buffer full), and every
     * event while something is unsent, goes into the connection's output by reference
     * and the bufferevent writes it out in order. */
    if (evbuffer_get_length(out) == 0) {
        ssize_t w = send(v->fd, d, n, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (w == (ssize_t)n)
            return 0;
        if (w > 0) {
            d += w;
            n -= (size_t)w;
        }
        /* an error other than a full buffer shows on the read side too, where evhttp
         * closes the connection; until then the rest waits in the output */
    }
    e->refs++;
    if (evbuffer_add_reference(out, d, n, ev_release, e) < 0) {
        sse_ev_unref(e);
        s->skipped++;
        return 1;
    }
    return 0;
}

int sse_viewer_send(sse_viewer_t *v, sse_ev_t *e)
{
    return viewer_send(v, e, v->s->max_queued);
}

int sse_viewer_send_all(sse_viewer_t *v, sse_ev_t *e)
{
    return viewer_send(v, e, 0);
}

void sse_stream_send(sse_stream_t *s, sse_ev_t *e)
{
    for (sse_viewer_t *v = s->head; v; v = v->next)
        sse_viewer_send(v, e);
}

void sse_stream_clear(sse_stream_t *s)
{
    while (s->head)
        viewer_unlink(s->head);
    if (s->due_ev)
        event_free(s->due_ev);
    s->due_ev = NULL;
    sse_ev_unref(s->kept);
    s->kept = NULL;
}

/* ---- the live view's rate limit ------------------------------------------------------- */
static int64_t mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void send_kept(sse_stream_t *s)
{
    sse_ev_t *e = s->kept;
    s->kept = NULL;
    s->last_ms = mono_ms();
    sse_stream_send(s, e);
    sse_ev_unref(e);
}

static void on_due(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    send_kept(arg);
}

int sse_stream_throttle(sse_stream_t *s, struct event_base *base, int gap_ms)
{
    s->gap_ms = gap_ms > 0 ? gap_ms : 0;
    if (s->gap_ms > 0 && !s->due_ev && !(s->due_ev = evtimer_new(base, on_due, s)))
        return -1;
    return 0;
}

void sse_stream_offer(sse_stream_t *s, sse_ev_t *e)
{
    int64_t wait = s->gap_ms > 0 && s->due_ev ? s->last_ms + s->gap_ms - mono_ms() : 0;
    e->refs++;
    sse_ev_unref(s->kept);
    s->kept = e;
    if (wait <= 0) {
        if (s->due_ev)
            event_del(s->due_ev);
        send_kept(s);
    } else if (!evtimer_pending(s->due_ev, NULL)) {
        struct timeval tv = { (time_t)(wait / 1000), (suseconds_t)(wait % 1000) * 1000 };
        evtimer_add(s->due_ev, &tv);
    }
}

void sse_page_reply(struct evhttp_request *req, const char *page, const sse_ev_t *e)
{
    struct evbuffer *b = evbuffer_new();
    if (!b) {
        evhttp_send_error(req, HTTP_SERVUNAVAIL, NULL);
        return;
    }
    const char *at = strstr(page, SSE_PAGE_MARKER);
    if (at && e) {
        const char *json = e->data + e->json, *end = e->data + e->text + e->text_len - 2;
        evbuffer_add(b, page, (size_t)(at - page));
        const char *p = json;
        while (p < end) { /* runs up to each "</", then "<\" and the run goes on at "/" */
            const char *lt = memchr(p, '<', (size_t)(end - p));
            while (lt && !(lt + 1 < end && lt[1] == '/'))
                lt = memchr(lt + 1, '<', (size_t)(end - lt - 1));
            if (!lt) {
                evbuffer_add(b, p, (size_t)(end - p));
                break;
            }
            evbuffer_add(b, p, (size_t)(lt - p));
            evbuffer_add(b, "<\\", 2);
            p = lt + 1;
        }
        at += sizeof SSE_PAGE_MARKER - 1;
        evbuffer_add(b, at, strlen(at));
    } else {
        evbuffer_add_reference(b, page, strlen(page), NULL, NULL);
    }
    struct evkeyvalq *out = evhttp_request_get_output_headers(req);
    evhttp_add_header(out, "Content-Type", "text/html; charset=utf-8");
    evhttp_add_header(out, "Cache-Control", "no-cache");
    evhttp_send_reply(req, HTTP_OK, "OK", b);
    evbuffer_free(b);
}
