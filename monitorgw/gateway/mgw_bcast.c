/* mgw_bcast.c -- the publisher of the broadcast tier (server::broadcast_url; README
 * "Broadcasting a match"): every live show frame, stamped as the browser stream has it
 * (common/frame_stamp.h), POSTed once to each URL, an nchan publisher location of nginx,
 * which fans it out to the viewers beyond this host. Per URL one keep-alive evhttp
 * connection with at most one POST in flight and MGW_BC_QUEUE frames waiting behind it
 * (the oldest waiting one is dropped for a new one); a tier that refuses, errs, closes
 * or does not answer within MGW_BC_TIMEOUT_S costs that frame and a pause that doubles
 * from MGW_BC_BACKOFF_MIN_MS to MGW_BC_BACKOFF_MAX_MS, frames meanwhile dropped and
 * counted; one log line when a URL goes down and one when it is back. Nothing here
 * waits: the sim and the monitors never notice the tier. Frames go out at most every
 * SSE_LIVE_FRAME_MS (the newest of those that came sooner), as to monitorgw's own
 * viewers. /status shows each URL's state and counters (mgw_bcast_json). */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <event2/buffer.h>
#include <event2/dns.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include "bcast_url.h"
#include "log.h"
#include "mgw.h"
#include "sse.h"

#define MGW_BC_QUEUE          4      /* frames waiting per URL behind the one in flight */
#define MGW_BC_TIMEOUT_S      2      /* a POST unanswered this long has failed */
#define MGW_BC_BACKOFF_MIN_MS 100
#define MGW_BC_BACKOFF_MAX_MS 5000

typedef struct bc_frame {
    int    refs;
    size_t len;
    char   data[];
} bc_frame_t;

enum { BC_STARTING, BC_UP, BC_DOWN };
static const char *const bc_state_name[] = { "starting", "up", "down" };

typedef struct bc_target {
    struct mgw_bcast         *b;
    bcast_url_t               url;
    char                      hosthdr[160];   /* the Host header */
    struct evhttp_connection *conn;
    struct event             *retry_ev;       /* the end of a pause after a failure */
    int                       state;
    int                       inflight;       /* a POST is out */
    int                       paused;         /* waiting for retry_ev */
    int                       backoff_ms;
    bc_frame_t               *queue[MGW_BC_QUEUE];
    int                       qhead, qlen;
    int64_t                   sent_ns;        /* when the POST in flight went */
    uint64_t                  published, dropped, failures;
    double                    last_ms;        /* the last answered POST's round trip */
    char                      last_error[96];
} bc_target_t;

typedef struct mgw_bcast {
    mgw_t             *g;
    struct evdns_base *dns;                   /* names resolved without blocking */
    int                n;
    bc_target_t        t[BCAST_URL_MAX];
    struct event      *due_ev;                /* the rate limit: when the kept frame goes */
    bc_frame_t        *kept;
    int64_t            last_ms;               /* when a frame last went (monotonic ms) */
} mgw_bcast_t;

static int64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void frame_unref(bc_frame_t *f)
{
    if (f && --f->refs == 0)
        free(f);
}

static void frame_release(const void *data, size_t len, void *arg)
{
    (void)data;
    (void)len;
    frame_unref(arg);
}

/* ---- one URL ----------------------------------------------------------------------- */
static void target_send(bc_target_t *t);

static void on_retry(evutil_socket_t fd, short what, void *arg)
{
    bc_target_t *t = arg;
    (void)fd;
    (void)what;
    t->paused = 0;
    target_send(t);
}

/* a POST failed (why): the frame is lost, the URL pauses */
static void target_failed(bc_target_t *t, const char *why)
{
    t->failures++;
    t->dropped++;
    snprintf(t->last_error, sizeof t->last_error, "%s", why);
    if (t->state != BC_DOWN)
        log_warn("broadcast: cannot publish to %s (%s); retrying, frames dropped meanwhile",
                 t->url.text, why);
    t->state = BC_DOWN;
    t->backoff_ms = t->backoff_ms <= 0 ? MGW_BC_BACKOFF_MIN_MS
                  : t->backoff_ms * 2 > MGW_BC_BACKOFF_MAX_MS ? MGW_BC_BACKOFF_MAX_MS
                                                                : t->backoff_ms * 2;
    struct timeval tv = { t->backoff_ms / 1000, (t->backoff_ms % 1000) * 1000 };
    t->paused = 1;
    evtimer_add(t->retry_ev, &tv);
}

static void on_done(struct evhttp_request *req, void *arg)
{
    bc_target_t *t = arg;
    int code = req ? evhttp_request_get_response_code(req) : 0;
    t->inflight = 0;
    t->last_ms = (double)(mono_ns() - t->sent_ns) / 1e6;
    if (code >= 200 && code < 300) {
        t->published++;
        t->backoff_ms = 0;
        if (t->state == BC_DOWN)
            log_info("broadcast: publishing to %s again", t->url.text);
        t->state = BC_UP;
        t->last_error[0] = '\0';
        target_send(t);
        return;
    }
    char why[96];
    if (code == 0)
        snprintf(why, sizeof why, "no answer: refused, closed or over %d s", MGW_BC_TIMEOUT_S);
    else
        snprintf(why, sizeof why, "HTTP %d", code);
    target_failed(t, why);
}

/* the next waiting frame, if the URL is free */
static void target_send(bc_target_t *t)
{
    if (t->inflight || t->paused || t->qlen == 0)
        return;
    bc_frame_t *f = t->queue[t->qhead];
    t->qhead = (t->qhead + 1) % MGW_BC_QUEUE;
    t->qlen--;
    struct evhttp_request *req = evhttp_request_new(on_done, t);
    if (!req) {
        frame_unref(f);
        target_failed(t, "out of memory");
        return;
    }
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Host", t->hosthdr);
    evhttp_add_header(h, "Content-Type", "application/json");
    /* the frame by reference: its reference goes with the request's buffer */
    if (evbuffer_add_reference(evhttp_request_get_output_buffer(req), f->data, f->len,
                               frame_release, f) < 0) {
        frame_unref(f);
        evhttp_request_free(req);
        target_failed(t, "out of memory");
        return;
    }
    t->inflight = 1;
    t->sent_ns = mono_ns();
    /* on failure evhttp_make_request has freed req (and so released the frame), and
     * may have called on_done already */
    if (evhttp_make_request(t->conn, req, EVHTTP_REQ_POST, t->url.path) < 0 && t->inflight) {
        t->inflight = 0;
        target_failed(t, "cannot send the request");
    }
}

/* f into t's queue (the oldest waiting frame makes room), then out if t is free */
static void target_offer(bc_target_t *t, bc_frame_t *f)
{
    if (t->qlen == MGW_BC_QUEUE) {
        frame_unref(t->queue[t->qhead]);
        t->qhead = (t->qhead + 1) % MGW_BC_QUEUE;
        t->qlen--;
        t->dropped++;
    }
    f->refs++;
    t->queue[(t->qhead + t->qlen) % MGW_BC_QUEUE] = f;
    t->qlen++;
    target_send(t);
}

static int target_open(mgw_bcast_t *b, bc_target_t *t)
{
    t->b = b;
    struct in6_addr a6;
    int v6 = inet_pton(AF_INET6, t->url.host, &a6) == 1;
    if (t->url.port == 80)
        snprintf(t->hosthdr, sizeof t->hosthdr, v6 ? "[%s]" : "%s", t->url.host);
    else
        snprintf(t->hosthdr, sizeof t->hosthdr, v6 ? "[%s]:%d" : "%s:%d", t->url.host,
                 t->url.port);
    t->conn = evhttp_connection_base_new(b->g->base, b->dns, t->url.host,
                                         (unsigned short)t->url.port);
    t->retry_ev = evtimer_new(b->g->base, on_retry, t);
    if (!t->conn || !t->retry_ev)
        return -1;
    evhttp_connection_set_timeout(t->conn, MGW_BC_TIMEOUT_S);
    evhttp_connection_set_retries(t->conn, 0);
    return 0;
}

/* ---- the frames --------------------------------------------------------------------- */
static void send_kept(mgw_bcast_t *b)
{
    bc_frame_t *f = b->kept;
    b->kept = NULL;
    b->last_ms = mono_ns() / 1000000;
    for (int i = 0; i < b->n; i++)
        target_offer(&b->t[i], f);
    frame_unref(f);
}

static void on_due(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    mgw_bcast_t *b = arg;
    if (b->kept)
        send_kept(b);
}

void mgw_bcast_frame(mgw_t *g, const char *json, size_t len)
{
    mgw_bcast_t *b = g->bcast;
    if (!b)
        return;
    bc_frame_t *f = malloc(sizeof *f + len);
    if (!f)
        return;
    f->refs = 1;
    f->len = len;
    memcpy(f->data, json, len);
    frame_unref(b->kept); /* one that came sooner is replaced: the rate limit, as for
                             monitorgw's own viewers (not counted as dropped) */
    b->kept = f;
    int64_t wait = b->last_ms + SSE_LIVE_FRAME_MS - mono_ns() / 1000000;
    if (wait <= 0) {
        event_del(b->due_ev);
        send_kept(b);
    } else if (!evtimer_pending(b->due_ev, NULL)) {
        struct timeval tv = { 0, (suseconds_t)wait * 1000 };
        evtimer_add(b->due_ev, &tv);
    }
}

/* ---- start, stop, status ------------------------------------------------------------ */
int mgw_bcast_start(mgw_t *g)
{
    bcast_url_t urls[BCAST_URL_MAX];
    char err[300];
    int n = bcast_url_parse(conf_str(&g->conf, SP_broadcast_url), urls, BCAST_URL_MAX, err,
                            sizeof err);
    if (n < 0) { /* the sim refuses to start with such a URL: only a hand-made region */
        log_err("server::broadcast_url: %s; not publishing", err);
        return 0;
    }
    if (n == 0)
        return 0;
    mgw_bcast_t *b = calloc(1, sizeof *b);
    if (!b)
        return -1;
    b->g = g;
    g->bcast = b;
    int names = 0;
    for (int i = 0; i < n; i++) {
        struct in6_addr a;
        names += inet_pton(AF_INET, urls[i].host, &a) != 1
              && inet_pton(AF_INET6, urls[i].host, &a) != 1;
    }
    if (names && !(b->dns = evdns_base_new(g->base, EVDNS_BASE_INITIALIZE_NAMESERVERS)))
        log_warn("broadcast: no resolver (%s): host names are looked up blocking",
                 strerror(errno));
    if (!(b->due_ev = evtimer_new(g->base, on_due, b)))
        return -1;
    for (int i = 0; i < n; i++) {
        b->t[i].url = urls[i];
        b->n++;
        if (target_open(b, &b->t[i]) < 0)
            return -1;
        log_info("broadcast: publishing every frame to %s", urls[i].text);
    }
    return 0;
}

void mgw_bcast_stop(mgw_t *g)
{
    mgw_bcast_t *b = g->bcast;
    if (!b)
        return;
    for (int i = 0; i < b->n; i++) {
        bc_target_t *t = &b->t[i];
        if (t->conn)
            evhttp_connection_free(t->conn); /* a POST in flight is cancelled, its frame
                                                released */
        if (t->retry_ev)
            event_free(t->retry_ev);
        for (int k = 0; k < t->qlen; k++)
            frame_unref(t->queue[(t->qhead + k) % MGW_BC_QUEUE]);
    }
    if (b->due_ev)
        event_free(b->due_ev);
    frame_unref(b->kept);
    if (b->dns)
        evdns_base_free(b->dns, 0);
    free(b);
    g->bcast = NULL;
}

json_t *mgw_bcast_json(const mgw_t *g)
{
    json_t *a = json_array();
    const mgw_bcast_t *b = g->bcast;
    for (int i = 0; a && b && i < b->n; i++) {
        const bc_target_t *t = &b->t[i];
        json_array_append_new(a, json_pack("{s:s, s:s, s:I, s:I, s:I, s:i, s:b, s:f, s:s}",
                                           "url", t->url.text, "state",
                                           bc_state_name[t->state], "published",
                                           (json_int_t)t->published, "dropped",
                                           (json_int_t)t->dropped, "failures",
                                           (json_int_t)t->failures, "queued", t->qlen,
                                           "in_flight", t->inflight, "last_ms", t->last_ms,
                                           "last_error", t->last_error));
    }
    return a;
}

void mgw_bcast_totals(const mgw_t *g, uint64_t *published, uint64_t *dropped)
{
    *published = *dropped = 0;
    for (int i = 0; g->bcast && i < g->bcast->n; i++) {
        *published += g->bcast->t[i].published;
        *dropped += g->bcast->t[i].dropped;
    }
}
