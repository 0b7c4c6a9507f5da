/* ws_frame.c -- WebSocket frames, the client's side (ws_frame.h). */
#include <stdio.h>
#include <string.h>
#include "ws_frame.h"

static void head_add(ws_read_t *r, const uint8_t *p, size_t n)
{
    size_t k = WS_READ_HEAD - r->hdlen < n ? WS_READ_HEAD - r->hdlen : n;
    memcpy(r->head + r->hdlen, p, k);
    r->hdlen += k;
}

static void tail_add(ws_read_t *r, const uint8_t *p, size_t n)
{
    if (n >= WS_READ_TAIL) {
        memcpy(r->tail, p + n - WS_READ_TAIL, WS_READ_TAIL);
        r->tlen = WS_READ_TAIL;
        return;
    }
    if (r->tlen + n > WS_READ_TAIL) {
        size_t drop = r->tlen + n - WS_READ_TAIL;
        memmove(r->tail, r->tail + drop, r->tlen - drop);
        r->tlen -= drop;
    }
    memcpy(r->tail + r->tlen, p, n);
    r->tlen += n;
}

/* the header in r->hdr is whole: 1, not yet: 0, broken: -1 */
static int header_done(ws_read_t *r)
{
    if (r->hlen < 2)
        return 0;
    if (r->hdr[1] & 0x80) /* a server never masks */
        return -1;
    size_t need = 2 + ((r->hdr[1] & 0x7f) == 126 ? 2 : (r->hdr[1] & 0x7f) == 127 ? 8 : 0);
    if (r->hlen < need)
        return 0;
    uint64_t len = r->hdr[1] & 0x7f;
    if (len == 126)
        len = (uint64_t)r->hdr[2] << 8 | r->hdr[3];
    else if (len == 127) {
        len = 0;
        for (int i = 0; i < 8; i++)
            len = len << 8 | r->hdr[2 + i];
        if (len >> 63)
            return -1;
    }
    r->opcode = r->hdr[0] & 0x0f;
    r->fin = (r->hdr[0] & 0x80) != 0;
    r->left = len;
    if (r->opcode >= 8) {
        if (len > 125 || !r->fin)
            return -1;
        r->clen = 0;
    } else if (r->opcode == WS_OP_CONT) {
        if (!r->msg_op)
            return -1;
    } else {
        r->msg_op = r->opcode;
        r->tlen = 0;
        r->hdlen = 0;
    }
    return 1;
}

static void frame_end(ws_read_t *r, ws_read_fn fn, void *arg)
{
    r->in_frame = 0;
    r->hlen = 0;
    if (r->opcode >= 8) {
        fn(arg, r->opcode, (const char *)r->ctl, r->clen);
    } else if (r->fin) {
        fn(arg, r->msg_op, r->tail, r->tlen);
        r->msg_op = 0;
        r->tlen = 0;
    }
}

int ws_read_feed(ws_read_t *r, const uint8_t *buf, size_t n, ws_read_fn fn, void *arg)
{
    const uint8_t *p = buf, *end = buf + n;
    while (p < end) {
        if (!r->in_frame) {
            r->hdr[r->hlen++] = *p++;
            int h = header_done(r);
            if (h < 0)
                return -1;
            if (h == 0) {
                if (r->hlen >= sizeof r->hdr)
                    return -1;
                continue;
            }
            r->in_frame = 1;
            if (r->left == 0)
                frame_end(r, fn, arg);
            continue;
        }
        size_t k = (uint64_t)(end - p) < r->left ? (size_t)(end - p) : (size_t)r->left;
        if (r->opcode >= 8) {
            memcpy(r->ctl + r->clen, p, k);
            r->clen += k;
        } else {
            head_add(r, p, k);
            tail_add(r, p, k);
        }
        p += k;
        r->left -= k;
        if (r->left == 0)
            frame_end(r, fn, arg);
    }
    return 0;
}

size_t ws_frame_client(uint8_t *out, size_t cap, int opcode, const void *payload, size_t len,
                       uint32_t mask)
{
    size_t h = len < 126 ? 6 : len < 65536 ? 8 : 14;
    if (cap < h + len)
        return 0;
    out[0] = (uint8_t)(0x80 | (opcode & 0x0f));
    if (len < 126) {
        out[1] = (uint8_t)(0x80 | len);
    } else if (len < 65536) {
        out[1] = 0x80 | 126;
        out[2] = (uint8_t)(len >> 8);
        out[3] = (uint8_t)len;
    } else {
        out[1] = 0x80 | 127;
        for (int i = 0; i < 8; i++)
            out[2 + i] = (uint8_t)((uint64_t)len >> (56 - 8 * i));
    }
    uint8_t m[4] = { (uint8_t)(mask >> 24), (uint8_t)(mask >> 16), (uint8_t)(mask >> 8),
                     (uint8_t)mask };
    memcpy(out + h - 4, m, 4);
    const uint8_t *in = payload;
    for (size_t i = 0; i < len; i++)
        out[h + i] = in[i] ^ m[i % 4];
    return h + len;
}

/* base64 (RFC 4648 §4) of n bytes into out, NUL-terminated */
static void b64_encode(const uint8_t *d, size_t n, char *out)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0)
                   | (i + 2 < n ? d[i + 2] : 0);
        out[o++] = b64[v >> 18 & 63];
        out[o++] = b64[v >> 12 & 63];
        out[o++] = i + 1 < n ? b64[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? b64[v & 63] : '=';
    }
    out[o] = '\0';
}

void ws_key(const uint8_t nonce[16], char out[25])
{
    b64_encode(nonce, 16, out);
}

size_t ws_handshake(char *out, size_t cap, const char *host, const char *path, const char *key,
                    const char *protocol)
{
    int n = snprintf(out, cap,
                     "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s%s%s\r\n",
                     path, host, key, protocol ? "Sec-WebSocket-Protocol: " : "",
                     protocol ? protocol : "", protocol ? "\r\n" : "");
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

size_t ws_resume_target(char *out, size_t cap, const char *path, const char *last_id)
{
    int n = snprintf(out, cap, "%s", path);
    if (n < 0 || (size_t)n >= cap)
        return 0;
    size_t o = (size_t)n;
    if (!last_id || !last_id[0])
        return o;
    n = snprintf(out + o, cap - o, "%slast_event_id=", strchr(path, '?') ? "&" : "?");
    if (n < 0 || (size_t)n >= cap - o)
        return 0;
    o += (size_t)n;
    for (const unsigned char *c = (const unsigned char *)last_id; *c; c++) {
        int plain = (*c >= '0' && *c <= '9') || (*c >= 'A' && *c <= 'Z')
                    || (*c >= 'a' && *c <= 'z') || *c == '-' || *c == '_' || *c == '.'
                    || *c == '~';
        if (o + (plain ? 1 : 3) >= cap)
            return 0;
        if (plain)
            out[o++] = (char)*c;
        else
            o += (size_t)snprintf(out + o, cap - o, "%%%02X", *c);
    }
    out[o] = '\0';
    return o;
}

int ws_meta_id(const ws_read_t *r, char *id, size_t cap)
{
    if (r->hdlen < 4 || memcmp(r->head, "id: ", 4) != 0)
        return -1;
    const char *nl = memchr(r->head + 4, '\n', r->hdlen - 4);
    if (!nl || (size_t)(nl - r->head - 4) >= cap)
        return -1;
    size_t n = (size_t)(nl - r->head - 4);
    memcpy(id, r->head + 4, n);
    id[n] = '\0';
    return (int)n;
}

/* ---- SHA-1 (FIPS 180-4 §6.1) ---------------------------------------------------------------- */
static uint32_t rol(uint32_t x, int k)
{
    return x << k | x >> (32 - k);
}

static void sha1_block(uint32_t h[5], const uint8_t b[64])
{
    uint32_t w[80];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)b[4 * t] << 24 | (uint32_t)b[4 * t + 1] << 16
               | (uint32_t)b[4 * t + 2] << 8 | b[4 * t + 3];
    for (int t = 16; t < 80; t++)
        w[t] = rol(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    uint32_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4];
    for (int t = 0; t < 80; t++) {
        uint32_t f, k;
        if (t < 20) {
            f = (bb & c) | (~bb & d);
            k = 0x5a827999;
        } else if (t < 40) {
            f = bb ^ c ^ d;
            k = 0x6ed9eba1;
        } else if (t < 60) {
            f = (bb & c) | (bb & d) | (c & d);
            k = 0x8f1bbcdc;
        } else {
            f = bb ^ c ^ d;
            k = 0xca62c1d6;
        }
        uint32_t tmp = rol(a, 5) + f + e + k + w[t];
        e = d;
        d = c;
        c = rol(bb, 30);
        bb = a;
        a = tmp;
    }
    h[0] += a;
    h[1] += bb;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

void ws_sha1(const void *data, size_t n, uint8_t out[20])
{
    uint32_t h[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };
    const uint8_t *p = data;
    size_t left = n;
    for (; left >= 64; left -= 64, p += 64)
        sha1_block(h, p);
    uint8_t last[128] = { 0 };
    memcpy(last, p, left);
    last[left] = 0x80;
    size_t blocks = left + 9 > 64 ? 2 : 1;
    uint64_t bits = (uint64_t)n * 8;
    for (int i = 0; i < 8; i++)
        last[blocks * 64 - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (size_t i = 0; i < blocks; i++)
        sha1_block(h, last + 64 * i);
    for (int i = 0; i < 20; i++)
        out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}

void ws_accept(const char *key, char out[29])
{
    static const char guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"; /* RFC 6455 §1.3 */
    char in[128];
    int n = snprintf(in, sizeof in, "%s%s", key, guid);
    uint8_t d[20];
    ws_sha1(in, n > 0 && (size_t)n < sizeof in ? (size_t)n : 0, d);
    b64_encode(d, 20, out);
}
