/* e2e_players.c -- player clients for end-to-end tests; see e2e_players.h. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include "e2e_players.h"

static void pl_keep(e2e_pl_t *p, const char *msg)
{
    if (p->n == E2E_PL_KEEP) {
        free(p->msg[0]);
        memmove(p->msg, p->msg + 1, sizeof p->msg[0] * (E2E_PL_KEEP - 1));
        p->n--;
    }
    p->msg[p->n++] = strdup(msg);
}

int e2e_pl_connect(e2e_pl_t *p, const e2e_server_t *s, const char *line)
{
    memset(p, 0, sizeof *p);
    p->zlevel = -1;
    p->init_port = s->port;
    p->fd = e2e_udp_open();
    if (p->fd < 0)
        return -1;
    e2e_send(p->fd, s->port, line);
    char buf[E2E_PL_MSG];
    int from = 0;
    if (e2e_recv(p->fd, buf, sizeof buf, 2000, &from) <= 0)
        return -1;
    snprintf(p->first, sizeof p->first, "%.255s", buf);
    p->port = from;
    return strncmp(buf, "(init ", 6) == 0 || strncmp(buf, "(reconnect ", 11) == 0 ? 0 : -1;
}

void e2e_pl_close(e2e_pl_t *p)
{
    if (p->fd > 0)
        close(p->fd);
    e2e_pl_clear(p);
    p->fd = -1;
}

void e2e_pl_clear(e2e_pl_t *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->msg[i]);
    p->n = 0;
}

void e2e_pl_send_raw(e2e_pl_t *p, const void *data, size_t len)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)p->port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    (void)sendto(p->fd, data, len, 0, (struct sockaddr *)&a, sizeof a);
}

void e2e_pl_send(e2e_pl_t *p, const char *cmd)
{
    size_t n = strlen(cmd) + 1;
    if (p->zlevel < 0) {
        e2e_pl_send_raw(p, cmd, n);
        return;
    }
    /* one zlib stream per datagram, sync-flushed, as librcsc does */
    unsigned char out[E2E_PL_MSG];
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit(&z, p->zlevel);
    z.next_in = (Bytef *)(uintptr_t)cmd;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = sizeof out;
    deflate(&z, Z_SYNC_FLUSH);
    e2e_pl_send_raw(p, out, sizeof out - z.avail_out);
    deflateEnd(&z);
}

/* a received datagram as text: inflated when compression is on */
static int pl_text(const e2e_pl_t *p, const char *in, int n, char *buf, size_t len)
{
    if (p->zlevel < 0) {
        size_t m = (size_t)n < len - 1 ? (size_t)n : len - 1;
        memcpy(buf, in, m);
        buf[m] = '\0';
        return (int)strlen(buf);
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    inflateInit(&z);
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)n;
    z.next_out = (Bytef *)buf;
    z.avail_out = (uInt)(len - 1);
    int rc = inflate(&z, Z_SYNC_FLUSH);
    size_t got = len - 1 - z.avail_out;
    inflateEnd(&z);
    if (rc != Z_OK && rc != Z_STREAM_END) { /* not zlib data: keep it marked */
        snprintf(buf, len, "(not-zlib %.*s)", n < 200 ? n : 200, in);
        return (int)strlen(buf);
    }
    buf[got] = '\0';
    return (int)strlen(buf);
}

int e2e_pl_recv(e2e_pl_t *p, char *buf, size_t len, int timeout_ms)
{
    static char raw[E2E_PL_MSG + 1];
    struct pollfd pf = { p->fd, POLLIN, 0 };
    if (poll(&pf, 1, timeout_ms) <= 0)
        return 0;
    ssize_t n = recv(p->fd, raw, E2E_PL_MSG, 0);
    if (n <= 0)
        return 0;
    int m = pl_text(p, raw, (int)n, buf, len);
    pl_keep(p, buf);
    return m > 0 ? m : 1;
}

int e2e_pl_wait(e2e_pl_t *p, const char *prefix, char *buf, size_t len, int timeout_ms)
{
    double end = e2e_now_ms() + timeout_ms;
    for (;;) {
        int left = (int)(end - e2e_now_ms());
        if (left <= 0)
            return 0;
        int n = e2e_pl_recv(p, buf, len, left);
        if (n > 0 && strncmp(buf, prefix, strlen(prefix)) == 0)
            return n;
    }
}

const char *e2e_pl_find(const e2e_pl_t *p, const char *prefix, int *from)
{
    int i = from ? *from : 0;
    for (; i < p->n; i++) {
        if (strncmp(p->msg[i], prefix, strlen(prefix)) == 0) {
            if (from)
                *from = i;
            return p->msg[i];
        }
    }
    return NULL;
}

/* read every readable player once; (think) -> (done) */
static void pl_poll(e2e_pl_t *p, int n, int wait_ms, e2e_pl_cb cb, void *ctx)
{
    struct pollfd pf[64];
    static char buf[E2E_PL_MSG];
    for (int i = 0; i < n && i < 64; i++) {
        pf[i].fd = p[i].fd;
        pf[i].events = POLLIN;
        pf[i].revents = 0;
    }
    if (poll(pf, (nfds_t)(n < 64 ? n : 64), wait_ms) <= 0)
        return;
    for (int i = 0; i < n && i < 64; i++) {
        if (!(pf[i].revents & POLLIN))
            continue;
        while (e2e_pl_recv(&p[i], buf, sizeof buf, 0) > 0) {
            if (cb)
                cb(&p[i], i, buf, ctx);
            if (strcmp(buf, "(think)") == 0) {
                p[i].thinks++;
                e2e_pl_send(&p[i], "(done)");
            }
        }
    }
}

int e2e_pl_run(e2e_pl_t *p, int n, int cycles, int timeout_ms, e2e_pl_cb cb, void *ctx)
{
    int goal[64];
    for (int i = 0; i < n && i < 64; i++)
        goal[i] = p[i].thinks + cycles;
    double end = e2e_now_ms() + timeout_ms;
    while (e2e_now_ms() < end) {
        int done = 1;
        for (int i = 0; i < n && i < 64; i++)
            done &= p[i].thinks >= goal[i];
        if (done)
            return 0;
        pl_poll(p, n, 20, cb, ctx);
    }
    return -1;
}

void e2e_pl_drain(e2e_pl_t *p, int n, int ms, e2e_pl_cb cb, void *ctx)
{
    double end = e2e_now_ms() + ms;
    while (e2e_now_ms() < end)
        pl_poll(p, n, 10, cb, ctx);
}
