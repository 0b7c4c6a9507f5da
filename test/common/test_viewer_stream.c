/* test_viewer_stream.c -- what a viewer of the broadcast tier reads and what monitorgw
 * publishes there, pure parts: the frame stamp (frame_stamp.c), server-sent events cut
 * from a body that arrives in any pieces, chunked or not (sse_read.c), WebSocket frames
 * both ways (ws_frame.c), and server::broadcast_url (bcast_url.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "bcast_url.h"
#include "frame_stamp.h"
#include "sse_read.h"
#include "ws_frame.h"

/* ---- frame stamp ------------------------------------------------------------------------ */
Test(frame_stamp, written_last_and_read_back)
{
    const char show[] = "{\"show\":{\"time\":12,\"players\":[]}}";
    char out[256];
    int n = frame_stamp_write(show, strlen(show), 4242, 1795950087123456LL, out, sizeof out);
    cr_assert_str_eq(out, "{\"show\":{\"time\":12,\"players\":[]},\"pub\":{\"seq\":4242,"
                          "\"us\":1795950087123456}}");
    cr_assert_eq(n, (int)strlen(out));
    uint64_t seq;
    int64_t us;
    cr_assert_eq(frame_stamp_read(out, (size_t)n, &seq, &us), 0);
    cr_expect_eq(seq, 4242);
    cr_expect_eq(us, 1795950087123456LL);
    /* a trailing newline (as the JSON monitors' NUL-less bytes may have) is dropped */
    char nl[64];
    snprintf(nl, sizeof nl, "{\"a\":1}\n");
    cr_assert_gt(frame_stamp_write(nl, strlen(nl), 1, 2, out, sizeof out), 0);
    cr_expect_str_eq(out, "{\"a\":1,\"pub\":{\"seq\":1,\"us\":2}}");
}

Test(frame_stamp, refused_and_missing)
{
    char out[64];
    cr_expect_eq(frame_stamp_write("[1,2]", 5, 1, 2, out, sizeof out), -1);
    cr_expect_eq(frame_stamp_write("", 0, 1, 2, out, sizeof out), -1);
    cr_expect_eq(frame_stamp_write("{\"show\":{}}", 11, 1, 2, out, 16), -1); /* no room */
    uint64_t seq;
    int64_t us;
    const char *plain = "{\"show\":{\"time\":1}}";
    cr_expect_eq(frame_stamp_read(plain, strlen(plain), &seq, &us), -1);
    const char *cut = "{\"show\":{},\"pub\":{\"seq\":12,\"us\":";
    cr_expect_eq(frame_stamp_read(cut, strlen(cut), &seq, &us), -1);
    cr_expect_eq(frame_stamp_read("", 0, &seq, &us), -1);
}

Test(frame_stamp, wall_clock_of_now)
{
    struct timespec m, r;
    clock_gettime(CLOCK_MONOTONIC, &m);
    clock_gettime(CLOCK_REALTIME, &r);
    int64_t w = frame_stamp_wall_us((int64_t)m.tv_sec * 1000000000LL + m.tv_nsec);
    int64_t real = (int64_t)r.tv_sec * 1000000LL + r.tv_nsec / 1000;
    cr_expect(w - real < 5000 && real - w < 5000, "%lld vs %lld", (long long)w, (long long)real);
}

/* ---- server-sent events ---------------------------------------------------------------- */
typedef struct evs {
    int  n;
    char id[8][SSE_READ_ID];
    char data[8][SSE_READ_TAIL + 1];
} evs_t;

static void on_ev(void *arg, const char *id, const char *data, size_t len)
{
    evs_t *e = arg;
    if (e->n >= 8)
        return;
    snprintf(e->id[e->n], SSE_READ_ID, "%s", id);
    memcpy(e->data[e->n], data, len);
    e->data[e->n][len] = '\0';
    e->n++;
}

static const char stream[] = ": hi\n\nretry: 1000\n\nid: 1795950087:0\ndata: {\"a\":1}\n\n"
                             "id: 1795950087:1\r\ndata: {\"b\":2}\r\n\r\n"
                             "event: x\ndata:{\"c\":3}\n\n";

static void check_stream(const evs_t *e)
{
    cr_assert_eq(e->n, 3);
    cr_expect_str_eq(e->id[0], "1795950087:0");
    cr_expect_str_eq(e->data[0], "{\"a\":1}");
    cr_expect_str_eq(e->id[1], "1795950087:1");
    cr_expect_str_eq(e->data[1], "{\"b\":2}");
    cr_expect_str_eq(e->id[2], "1795950087:1"); /* an event without an id keeps the last */
    cr_expect_str_eq(e->data[2], "{\"c\":3}");
}

Test(sse_read, plain_body_in_every_split)
{
    size_t n = strlen(stream);
    for (size_t cut = 0; cut <= n; cut++) {
        sse_read_t r;
        evs_t e;
        memset(&r, 0, sizeof r);
        memset(&e, 0, sizeof e);
        cr_assert_eq(sse_read_feed(&r, stream, cut, on_ev, &e), 0);
        cr_assert_eq(sse_read_feed(&r, stream + cut, n - cut, on_ev, &e), 0);
        check_stream(&e);
    }
}

Test(sse_read, chunked_body_byte_by_byte)
{
    /* as evhttp sends it: one chunk per event (and one with an extension) */
    char body[1024];
    size_t n = 0;
    const char *parts[] = { ": hi\n\nretry: 1000\n\n", "id: 1795950087:0\ndata: {\"a\":1}\n\n",
                            "id: 1795950087:1\r\ndata: {\"b\":2}\r\n\r\n",
                            "event: x\ndata:{\"c\":3}\n\n" };
    for (int i = 0; i < 4; i++)
        n += (size_t)snprintf(body + n, sizeof body - n, "%zx%s\r\n%s\r\n", strlen(parts[i]),
                              i == 2 ? ";ext=1" : "", parts[i]);
    n += (size_t)snprintf(body + n, sizeof body - n, "0\r\n\r\n");
    sse_read_t r;
    evs_t e;
    memset(&r, 0, sizeof r);
    memset(&e, 0, sizeof e);
    r.chunked = 1;
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(sse_read_feed(&r, body + i, 1, on_ev, &e), 0);
    check_stream(&e);
    cr_expect(r.ended);
}

Test(sse_read, long_data_keeps_its_end_and_bad_chunks_fail)
{
    static char big[20000];
    memset(big, 'x', sizeof big);
    int n = snprintf(big + 9000, 200, ",\"pub\":{\"seq\":7,\"us\":99}}\n\n");
    memcpy(big, "data: {", 7);
    sse_read_t r;
    evs_t e;
    memset(&r, 0, sizeof r);
    memset(&e, 0, sizeof e);
    cr_assert_eq(sse_read_feed(&r, big, 5000, on_ev, &e), 0);
    cr_assert_eq(sse_read_feed(&r, big + 5000, 4000 + (size_t)n, on_ev, &e), 0);
    cr_assert_eq(e.n, 1);
    uint64_t seq;
    int64_t us;
    cr_expect_eq(frame_stamp_read(e.data[0], strlen(e.data[0]), &seq, &us), 0);
    cr_expect_eq(seq, 7);
    memset(&r, 0, sizeof r);
    r.chunked = 1;
    cr_expect_eq(sse_read_feed(&r, "zz\r\n", 4, on_ev, &e), -1);
    memset(&r, 0, sizeof r);
    r.chunked = 1;
    cr_expect_eq(sse_read_feed(&r, "2\r\nabXY", 7, on_ev, &e), -1); /* no CRLF after data */
}

/* ---- WebSocket --------------------------------------------------------------------------- */
typedef struct msgs {
    int    n;
    int    op[8];
    size_t len[8];
    char   data[8][WS_READ_TAIL + 1];
} msgs_t;

static void on_msg(void *arg, int opcode, const char *data, size_t len)
{
    msgs_t *m = arg;
    if (m->n >= 8)
        return;
    m->op[m->n] = opcode;
    m->len[m->n] = len;
    memcpy(m->data[m->n], data, len);
    m->data[m->n][len] = '\0';
    m->n++;
}

/* a server frame (unmasked) */
static size_t server_frame(uint8_t *out, int fin, int op, const char *p, size_t len)
{
    size_t h = 2;
    out[0] = (uint8_t)((fin ? 0x80 : 0) | op);
    if (len < 126) {
        out[1] = (uint8_t)len;
    } else if (len < 65536) {
        out[1] = 126;
        out[2] = (uint8_t)(len >> 8);
        out[3] = (uint8_t)len;
        h = 4;
    } else {
        out[1] = 127;
        for (int i = 0; i < 8; i++)
            out[2 + i] = (uint8_t)((uint64_t)len >> (56 - 8 * i));
        h = 10;
    }
    memcpy(out + h, p, len);
    return h + len;
}

Test(ws_frame, server_frames_of_every_length_in_pieces)
{
    static uint8_t wire[200000];
    static char big[70000];
    memset(big, 'y', sizeof big);
    memcpy(big + sizeof big - 4, "tail", 4);
    size_t n = 0;
    n += server_frame(wire + n, 1, WS_OP_TEXT, "{\"s\":1}", 7);
    n += server_frame(wire + n, 1, WS_OP_PING, "pp", 2);
    n += server_frame(wire + n, 1, WS_OP_TEXT, big, 300);           /* 16-bit length */
    n += server_frame(wire + n, 0, WS_OP_TEXT, "frag", 4);          /* a fragmented one */
    n += server_frame(wire + n, 1, WS_OP_PING, "", 0);              /* a ping amid it */
    n += server_frame(wire + n, 1, WS_OP_CONT, "ment", 4);
    n += server_frame(wire + n, 1, WS_OP_TEXT, big, sizeof big);    /* 64-bit length */
    n += server_frame(wire + n, 1, WS_OP_CLOSE, "\x03\xe8", 2);
    for (size_t step = 1; step <= 4099; step += 1366) {
        ws_read_t r;
        msgs_t m;
        memset(&r, 0, sizeof r);
        memset(&m, 0, sizeof m);
        for (size_t i = 0; i < n; i += step)
            cr_assert_eq(ws_read_feed(&r, wire + i, i + step > n ? n - i : step, on_msg, &m), 0);
        cr_assert_eq(m.n, 7, "step %zu", step);
        cr_expect_eq(m.op[0], WS_OP_TEXT);
        cr_expect_str_eq(m.data[0], "{\"s\":1}");
        cr_expect_eq(m.op[1], WS_OP_PING);
        cr_expect_str_eq(m.data[1], "pp");
        cr_expect_eq(m.len[2], WS_READ_TAIL);
        cr_expect_eq(m.op[3], WS_OP_PING);
        cr_expect_eq(m.op[4], WS_OP_TEXT);
        cr_expect_str_eq(m.data[4], "fragment");
        cr_expect_eq(m.len[5], WS_READ_TAIL);
        cr_expect_str_eq(m.data[5] + WS_READ_TAIL - 4, "tail");
        cr_expect_eq(m.op[6], WS_OP_CLOSE);
    }
}

Test(ws_frame, protocol_errors)
{
    msgs_t m;
    ws_read_t r;
    memset(&m, 0, sizeof m);
    memset(&r, 0, sizeof r);
    const uint8_t masked[] = { 0x81, 0x81, 1, 2, 3, 4, 'x' };
    cr_expect_eq(ws_read_feed(&r, masked, sizeof masked, on_msg, &m), -1);
    memset(&r, 0, sizeof r);
    const uint8_t cont[] = { 0x80, 0x01, 'x' };
    cr_expect_eq(ws_read_feed(&r, cont, sizeof cont, on_msg, &m), -1);
    memset(&r, 0, sizeof r);
    const uint8_t bigping[] = { 0x89, 126, 0, 200 };
    cr_expect_eq(ws_read_feed(&r, bigping, sizeof bigping, on_msg, &m), -1);
    memset(&r, 0, sizeof r);
    const uint8_t huge[] = { 0x81, 127, 0x80, 0, 0, 0, 0, 0, 0, 0 };
    cr_expect_eq(ws_read_feed(&r, huge, sizeof huge, on_msg, &m), -1);
    cr_expect_eq(m.n, 0);
}

Test(ws_frame, client_frames_masked_and_handshake)
{
    uint8_t out[300];
    const char *p = "pong!";
    size_t n = ws_frame_client(out, sizeof out, WS_OP_PONG, p, 5, 0x01020304u);
    cr_assert_eq(n, 11);
    cr_expect_eq(out[0], 0x8a);
    cr_expect_eq(out[1], 0x80 | 5);
    cr_expect_eq(memcmp(out + 2, "\x01\x02\x03\x04", 4), 0);
    for (int i = 0; i < 5; i++)
        cr_expect_eq(out[6 + i] ^ out[2 + i % 4], (uint8_t)p[i]);
    static char longp[200];
    n = ws_frame_client(out, sizeof out, WS_OP_TEXT, longp, 200, 7);
    cr_expect_eq(n, 208);
    cr_expect_eq(out[1], 0x80 | 126);
    cr_expect_eq(ws_frame_client(out, 10, WS_OP_TEXT, longp, 200, 7), 0);
    /* RFC 6455 §4.1's example nonce */
    const uint8_t nonce[16] = { 's', 'a', 'm', 'p', 'l', 'e', ' ', 'n', 'o', 'n', 'c', 'e',
                                0, 0, 0, 0 };
    char key[25];
    ws_key(nonce, key);
    cr_expect_eq(strlen(key), 24);
    const uint8_t rfc[16] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a,
                              0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10 };
    ws_key(rfc, key);
    cr_expect_str_eq(key, "AQIDBAUGBwgJCgsMDQ4PEA==");
    char req[512];
    cr_assert_gt(ws_handshake(req, sizeof req, "127.0.0.1:8080", "/match/live/events", key,
                              NULL), 0);
    cr_expect(strstr(req, "GET /match/live/events HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"));
    cr_expect(strstr(req, "Sec-WebSocket-Key: AQIDBAUGBwgJCgsMDQ4PEA==\r\n"));
    cr_expect(strstr(req, "\r\n\r\n"));
    cr_expect_null(strstr(req, "Protocol"));
    cr_assert_gt(ws_handshake(req, sizeof req, "h:1", "/e", key, WS_META_PROTOCOL), 0);
    cr_expect(strstr(req, "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: ws+meta.nchan"
                          "\r\n\r\n"), "%s", req);
}

Test(ws_frame, accept_and_sha1)
{
    /* FIPS 180's examples: one block, two blocks (the length in the second), empty */
    uint8_t d[20];
    char hex[41];
    const char *in[] = { "abc", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "" };
    const char *want[] = { "a9993e364706816aba3e25717850c26c9cd0d89d",
                           "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
                           "da39a3ee5e6b4b0d3255bfef95601890afd80709" };
    for (int k = 0; k < 3; k++) {
        ws_sha1(in[k], strlen(in[k]), d);
        for (int i = 0; i < 20; i++)
            snprintf(hex + 2 * i, 3, "%02x", d[i]);
        cr_expect_str_eq(hex, want[k], "%s", in[k]);
    }
    static char mil[1000000]; /* a million 'a' */
    memset(mil, 'a', sizeof mil);
    ws_sha1(mil, sizeof mil, d);
    for (int i = 0; i < 20; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    cr_expect_str_eq(hex, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
    /* RFC 6455 §1.3's handshake */
    char acc[29];
    ws_accept("dGhlIHNhbXBsZSBub25jZQ==", acc);
    cr_expect_str_eq(acc, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

Test(ws_frame, resume_target)
{
    char out[64];
    cr_expect_eq(ws_resume_target(out, sizeof out, "/match/live/events", NULL), 18);
    cr_expect_str_eq(out, "/match/live/events");
    cr_expect_eq(ws_resume_target(out, sizeof out, "/e", ""), 2);
    cr_expect_str_eq(out, "/e");
    /* nchan's ids: seconds:tag, and [a,b] for several channels */
    cr_assert_gt(ws_resume_target(out, sizeof out, "/e", "1764400000:17"), 0);
    cr_expect_str_eq(out, "/e?last_event_id=1764400000%3A17");
    cr_assert_gt(ws_resume_target(out, sizeof out, "/e?x=1", "[1:2,3:4] a-_.~"), 0);
    cr_expect_str_eq(out, "/e?x=1&last_event_id=%5B1%3A2%2C3%3A4%5D%20a-_.~");
    /* too long: 0, never a cut target */
    cr_expect_eq(ws_resume_target(out, 20, "/e", "1764400000:17"), 0);
    cr_expect_eq(ws_resume_target(out, 3, "/events", NULL), 0);
}

typedef struct meta_seen {
    ws_read_t r;
    int       n;
    char      id[2][64];  /* each message's id, "(none)" without one */
    char      tail[2][16];
} meta_seen_t;

static void on_meta(void *arg, int opcode, const char *data, size_t len)
{
    meta_seen_t *m = arg;
    (void)opcode;
    if (m->n >= 2)
        return;
    if (ws_meta_id(&m->r, m->id[m->n], sizeof m->id[0]) < 0)
        snprintf(m->id[m->n], sizeof m->id[0], "(none)");
    size_t k = len < 15 ? len : 15;
    memcpy(m->tail[m->n], data + len - k, k);
    m->tail[m->n][k] = '\0';
    m->n++;
}

Test(ws_frame, meta_id_at_the_head_stamp_at_the_tail)
{
    static char msg[4000];
    int n = snprintf(msg, sizeof msg, "id: 1764400000:17\ncontent-type: text/plain\n\n{\"x\":\"");
    memset(msg + n, 'z', sizeof msg - (size_t)n);
    memcpy(msg + sizeof msg - 9, "\",\"t\":1}", 9);
    static uint8_t wire[4100];
    size_t w = server_frame(wire, 1, WS_OP_TEXT, msg, sizeof msg);
    w += server_frame(wire + w, 1, WS_OP_TEXT, "{\"no\":\"id\"}", 12);
    static meta_seen_t m;
    memset(&m, 0, sizeof m);
    for (size_t i = 0; i < w; i += 7) /* in pieces */
        cr_assert_eq(ws_read_feed(&m.r, wire + i, i + 7 > w ? w - i : 7, on_meta, &m), 0);
    cr_assert_eq(m.n, 2);
    cr_expect_str_eq(m.id[0], "1764400000:17");
    cr_expect_str_eq(m.tail[0], "zzzzzz\",\"t\":1}");
    cr_expect_str_eq(m.id[1], "(none)");
    cr_expect_str_eq(m.tail[1], "{\"no\":\"id\"}");
    /* an id longer than the caller's buffer is none */
    char small[5];
    memset(&m.r, 0, sizeof m.r);
    memcpy(m.r.head, "id: 123456\n\n", 13);
    m.r.hdlen = 13;
    cr_expect_eq(ws_meta_id(&m.r, small, sizeof small), -1);
    cr_expect_eq(ws_meta_id(&m.r, m.id[0], sizeof m.id[0]), 6);
}

/* ---- server::broadcast_url ---------------------------------------------------------------- */
Test(bcast_url, good_lists)
{
    bcast_url_t u[BCAST_URL_MAX];
    char err[300];
    cr_assert_eq(bcast_url_parse("", u, BCAST_URL_MAX, err, sizeof err), 0);
    cr_assert_eq(bcast_url_parse("http://127.0.0.1:8080/pub/live, http://tier-a.example/pub/x "
                                 "http://[::1]:81/pub/y?a=1", u, BCAST_URL_MAX, err, sizeof err),
                 3, "%s", err);
    cr_expect_str_eq(u[0].host, "127.0.0.1");
    cr_expect_eq(u[0].port, 8080);
    cr_expect_str_eq(u[0].path, "/pub/live");
    cr_expect_str_eq(u[0].text, "http://127.0.0.1:8080/pub/live");
    cr_expect_str_eq(u[1].host, "tier-a.example");
    cr_expect_eq(u[1].port, 80);
    cr_expect_str_eq(u[2].host, "::1");
    cr_expect_eq(u[2].port, 81);
    cr_expect_str_eq(u[2].path, "/pub/y?a=1");
}

Test(bcast_url, bad_ones)
{
    bcast_url_t u[2];
    char err[300];
    const char *bad[] = { "https://x/pub/a", "http://x", "http://:80/p", "http://x:/p",
                          "http://x:99999/p", "http://x:0/p", "http://[::1/p", "http://[]/p",
                          "http://u@x/p", "ftp://x/p", "http://x:8a/p" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_expect_eq(bcast_url_parse(bad[i], u, 2, err, sizeof err), -1, "%s", bad[i]);
        cr_expect(strstr(err, bad[i]) != NULL, "%s: %s", bad[i], err);
    }
    cr_expect_eq(bcast_url_parse("http://a/p,http://b/p,http://c/p", u, 2, err, sizeof err), -1);
    cr_expect(strstr(err, "more than 2"), "%s", err);
}
