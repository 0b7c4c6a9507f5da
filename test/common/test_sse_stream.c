/* test_sse_stream.c -- server-sent-event streams (sse_stream.c) on a real evhttp server
 * on 127.0.0.1 and a TCP client in the same thread: the stream's headers and retry line,
 * events with and without ids, a viewer leaving, a viewer that does not read skipping
 * events, the page with the frame in place of its marker. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <event2/event.h>
#include <event2/http.h>
#include "sse_stream.h"

typedef struct srv {
    struct event_base *base;
    struct evhttp     *http;
    int                port;
    sse_stream_t       s;
    sse_ev_t          *page_ev;
    const char        *page;
} srv_t;

static void on_events(struct evhttp_request *req, void *arg)
{
    srv_t *v = arg;
    sse_stream_add(&v->s, req);
}

static void on_page(struct evhttp_request *req, void *arg)
{
    srv_t *v = arg;
    sse_page_reply(req, v->page, v->page_ev);
}

static void srv_start(srv_t *v)
{
    memset(v, 0, sizeof *v);
    v->base = event_base_new();
    v->http = evhttp_new(v->base);
    cr_assert(v->base && v->http);
    struct evhttp_bound_socket *b = evhttp_bind_socket_with_handle(v->http, "127.0.0.1", 0);
    cr_assert(b);
    struct sockaddr_in a;
    socklen_t l = sizeof a;
    cr_assert_eq(getsockname(evhttp_bound_socket_get_fd(b), (struct sockaddr *)&a, &l), 0);
    v->port = ntohs(a.sin_port);
    evhttp_set_cb(v->http, "/events", on_events, v);
    evhttp_set_cb(v->http, "/", on_page, v);
}

static void srv_stop(srv_t *v)
{
    evhttp_free(v->http);
    sse_stream_clear(&v->s);
    event_base_free(v->base);
}

/* a non-blocking client that has sent "GET path HTTP/1.1" (or 1.0) */
static int client_v(const srv_t *v, const char *path, int minor)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)v->port) };
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    cr_assert_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    char req[128];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.%d\r\nHost: x\r\n\r\n", path, minor);
    cr_assert_eq(write(fd, req, (size_t)n), n);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    return fd;
}

static int client(const srv_t *v, const char *path)
{
    return client_v(v, path, 1);
}

/* run the loop and read fd into buf until want appears (or 2 s pass); 1 if it did */
static int pump_until(srv_t *v, int fd, char *buf, size_t cap, size_t *len, const char *want)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        event_base_loop(v->base, EVLOOP_NONBLOCK);
        ssize_t n = read(fd, buf + *len, cap - 1 - *len);
        if (n > 0)
            *len += (size_t)n;
        buf[*len] = '\0';
        if (want && strstr(buf, want))
            return 1;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > 2000)
            return 0;
        usleep(1000);
    }
}

/* a viewer of /events (HTTP/1.minor) once the stream has started: its socket; what it
 * read so far in buf (len bytes) */
static int viewer(srv_t *v, int minor, char *buf, size_t cap, size_t *len)
{
    int fd = client_v(v, "/events", minor);
    cr_assert(pump_until(v, fd, buf, cap, len, "retry: 1000\n\n"), "%s", buf);
    return fd;
}

Test(sse_stream, event_text)
{
    sse_ev_t *e = sse_ev_new(0, "{\"a\":1}", 7);
    cr_assert(e);
    /* the text, and the same framed as an HTTP/1.1 chunk of 15 (0xf) bytes */
    cr_expect_eq(e->text_len, 15);
    cr_expect_eq(memcmp(e->data + e->text, "data: {\"a\":1}\n\n", 15), 0);
    const char chunk[] = "f\r\ndata: {\"a\":1}\n\n\r\n";
    cr_expect_eq(e->len, sizeof chunk - 1);
    cr_expect_eq(memcmp(e->data, chunk, e->len), 0);
    cr_expect_eq(memcmp(e->data + e->json, "{\"a\":1}", 7), 0);
    sse_ev_unref(e);
    e = sse_ev_new(12345678901ULL, "{}", 2);
    cr_assert(e);
    const char want[] = "id: 12345678901\ndata: {}\n\n";
    cr_expect_eq(e->text_len, sizeof want - 1);
    cr_expect_eq(memcmp(e->data + e->text, want, e->text_len), 0);
    cr_expect_eq(memcmp(e->data, "1a\r\n", 4), 0);
    cr_expect_eq(memcmp(e->data + e->json, "{}", 2), 0);
    sse_ev_unref(e);
}

Test(sse_stream, viewers_get_events_and_leave, .timeout = 10)
{
    srv_t v;
    srv_start(&v);
    char buf[8192];
    size_t len = 0;
    int fd = viewer(&v, 1, buf, sizeof buf, &len);
    cr_expect(strstr(buf, "Content-Type: text/event-stream"), "%s", buf);
    cr_expect(strstr(buf, "Access-Control-Allow-Origin: *"), "%s", buf);
    cr_expect_eq(v.s.n, 1);

    sse_ev_t *a = sse_ev_new(0, "{\"t\":1}", 7), *b = sse_ev_new(2, "{\"t\":2}", 7);
    sse_stream_send(&v.s, a);
    sse_stream_send(&v.s, b);
    sse_ev_unref(a); /* the connection holds its own references until sent */
    sse_ev_unref(b);
    cr_assert(pump_until(&v, fd, buf, sizeof buf, &len, "id: 2\ndata: {\"t\":2}\n\n\r\n"), "%s", buf);
    /* HTTP/1.1: each event one chunk, its length in hex before it */
    char *first = strstr(buf, "\r\nf\r\ndata: {\"t\":1}\n\n\r\n");
    char *second = strstr(buf, "\r\n15\r\nid: 2\ndata: {\"t\":2}\n\n\r\n");
    cr_expect(strstr(buf, "Transfer-Encoding: chunked"), "%s", buf);
    cr_expect(first && second && first < second, "%s", buf);
    cr_expect_eq(v.s.skipped, 0);

    close(fd); /* the viewer leaves: the list forgets it */
    for (int i = 0; i < 2000 && v.s.n > 0; i++) {
        event_base_loop(v.base, EVLOOP_NONBLOCK);
        usleep(1000);
    }
    cr_expect_eq(v.s.n, 0);
    srv_stop(&v);
}

Test(sse_stream, http_1_0_viewers_get_bare_events, .timeout = 10)
{
    srv_t v;
    srv_start(&v);
    char buf[8192];
    size_t len = 0;
    int fd = viewer(&v, 0, buf, sizeof buf, &len);
    cr_expect_null(strstr(buf, "chunked"), "%s", buf);
    sse_ev_t *a = sse_ev_new(5, "{\"t\":5}", 7);
    sse_stream_send(&v.s, a);
    sse_ev_unref(a);
    cr_assert(pump_until(&v, fd, buf, sizeof buf, &len, "{\"t\":5}\n\n"), "%s", buf);
    cr_expect(strstr(buf, "\r\n\r\nretry: 1000\n\nid: 5\ndata: {\"t\":5}\n\n"), "%s", buf);
    close(fd);
    srv_stop(&v);
}

Test(sse_stream, a_viewer_that_does_not_read_skips, .timeout = 10)
{
    srv_t v;
    srv_start(&v);
    v.s.max_queued = 1000;
    char buf[8192];
    size_t len = 0;
    int fd = viewer(&v, 1, buf, sizeof buf, &len);
    static char big[4000];
    memset(big, 'x', sizeof big);
    big[0] = '"';
    big[sizeof big - 1] = '"';
    sse_ev_t *e = sse_ev_new(0, big, sizeof big);
    /* The viewer does not read and the loop does not run: events go straight to the
     * socket until its buffers are full, the rest of one into the output; with more than
     * max_queued bytes unsent there, the next is skipped. */
    int sent = 0;
    while (sent < 100000 && sse_viewer_send(v.s.head, e) == 0)
        sent++;
    cr_assert_lt(sent, 100000);
    cr_expect_gt(sent, 0);
    cr_expect_eq(v.s.skipped, 1);
    sse_stream_send(&v.s, e);
    cr_expect_eq(v.s.skipped, 2);
    /* It reads: every event it was sent arrives whole and in order, nothing twice
     * (the socket took part of one, the output the rest), and nothing of the skipped. */
    size_t want = (size_t)sent * e->len, got = 0, bad = SIZE_MAX;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (got < want && bad == SIZE_MAX) {
        event_base_loop(v.base, EVLOOP_NONBLOCK);
        ssize_t n = read(fd, buf, sizeof buf);
        for (ssize_t i = 0; i < n && bad == SIZE_MAX; i++, got++)
            if (buf[i] != e->data[got % e->len])
                bad = got;
        clock_gettime(CLOCK_MONOTONIC, &t);
        cr_assert_lt(t.tv_sec - t0.tv_sec, 5, "%zu of %zu bytes", got, want);
        if (n <= 0)
            usleep(200);
    }
    cr_assert_eq(bad, SIZE_MAX, "byte %zu of the stream is not the event's", bad);
    for (int i = 0; i < 50; i++) { /* nothing more comes */
        event_base_loop(v.base, EVLOOP_NONBLOCK);
        cr_assert_leq(read(fd, buf, sizeof buf), 0);
        usleep(1000);
    }
    /* with nothing unsent it gets events again */
    cr_expect_eq(sse_viewer_send(v.s.head, e), 0);
    cr_expect_eq(v.s.skipped, 2);
    sse_ev_unref(e);
    close(fd);
    srv_stop(&v);
}

/* {"f":i} offered to the stream's viewers */
static void offer_frame(srv_t *v, int i)
{
    char json[32];
    snprintf(json, sizeof json, "{\"f\":%d}", i);
    sse_ev_t *e = sse_ev_new(0, json, strlen(json));
    sse_stream_offer(&v->s, e);
    sse_ev_unref(e);
}

Test(sse_stream, offered_frames_at_most_one_per_gap_and_the_newest_last, .timeout = 10)
{
    srv_t v;
    srv_start(&v);
    cr_assert_eq(sse_stream_throttle(&v.s, v.base, 300), 0);
    char buf[8192];
    size_t len = 0;
    int fd = viewer(&v, 1, buf, sizeof buf, &len);
    for (int i = 1; i <= 4; i++) /* four frames at once: the first now, the fourth later */
        offer_frame(&v, i);
    cr_assert(pump_until(&v, fd, buf, sizeof buf, &len, "{\"f\":4}"), "%s", buf);
    cr_expect(strstr(buf, "{\"f\":1}"), "%s", buf);
    cr_expect_null(strstr(buf, "{\"f\":2}"), "%s", buf);
    cr_expect_null(strstr(buf, "{\"f\":3}"), "%s", buf);
    cr_expect(strstr(buf, "{\"f\":1}") < strstr(buf, "{\"f\":4}"), "%s", buf);
    /* without a limit every offered frame goes at once */
    cr_assert_eq(sse_stream_throttle(&v.s, v.base, 0), 0);
    for (int i = 5; i <= 6; i++)
        offer_frame(&v, i);
    cr_assert(pump_until(&v, fd, buf, sizeof buf, &len, "{\"f\":6}"), "%s", buf);
    cr_expect(strstr(buf, "{\"f\":5}"), "%s", buf);
    close(fd);
    srv_stop(&v);
}

Test(sse_stream, page_with_frame, .timeout = 10)
{
    srv_t v;
    srv_start(&v);
    v.page = "<script>var f = /*FRAME*/null; go(f);</script>";
    char buf[8192];
    size_t len = 0;
    int fd = client(&v, "/"); /* no frame yet: the page as it is */
    cr_assert(pump_until(&v, fd, buf, sizeof buf, &len, "go(f);</script>"), "%s", buf);
    cr_expect(strstr(buf, "var f = /*FRAME*/null;"), "%s", buf);
    cr_expect(strstr(buf, "Content-Type: text/html; charset=utf-8"), "%s", buf);
    close(fd);

    const char json[] = "{\"team\":\"</script><b>\",\"x\":\"<\",\"y\":\"a</\"}";
    v.page_ev = sse_ev_new(9, json, sizeof json - 1);
    len = 0;
    fd = client(&v, "/");
    cr_assert(pump_until(&v, fd, buf, sizeof buf, &len, "go(f);</script>"), "%s", buf);
    cr_expect(strstr(buf, "var f = {\"team\":\"<\\/script><b>\",\"x\":\"<\",\"y\":\"a<\\/\"}; go(f);"),
              "%s", buf);
    close(fd);
    sse_ev_unref(v.page_ev);
    srv_stop(&v);
}
