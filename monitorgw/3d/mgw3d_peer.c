/* mgw3d_peer.c -- the monitor gateway's monitors: TCP connections with libevent
 * bufferevents, the Init on connecting, one shared Info per Info step (a complete one
 * for monitors that have not had one yet, or that skipped one because they did not read:
 * a delta is only right after the Info before it), acks, and (Die) at the end.
 * Commands go to the sim through the gateway's control ring. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include "frame.h"
#include "log.h"
#include "mgw3d.h"

/* one message in the peer's form, past the queue limit too (force) */
static void peer_put(mgw3d_peer_t *p, const char *text, size_t len)
{
    struct evbuffer *out = bufferevent_get_output(p->bev);
    if (p->mode == MGW3D_MODE_FRAMED) {
        uint8_t hdr[FRAME_HDR];
        frame_put_len(hdr, (uint32_t)len);
        evbuffer_add(out, hdr, FRAME_HDR);
    }
    evbuffer_add(out, text, len);
    if (p->mode != MGW3D_MODE_FRAMED)
        evbuffer_add(out, "\n", 1);
}

static int peer_send(mgw3d_peer_t *p, const char *text, size_t len)
{
    struct evbuffer *out = bufferevent_get_output(p->bev);
    if (p->mode == MGW3D_MODE_UNKNOWN || evbuffer_get_length(out) > MGW3D_OUT_MAX)
        return -1;
    peer_put(p, text, len);
    return 0;
}

/* the form is known: the Init goes first */
static void peer_decide(mgw3d_peer_t *p, int mode)
{
    if (p->detect) {
        event_free(p->detect);
        p->detect = NULL;
    }
    p->mode = mode;
    peer_send(p, p->g->init, (size_t)p->g->init_len);
    log_debug("monitor %d talks %s", p->index, mode == MGW3D_MODE_FRAMED ? "length-prefixed" : "lines");
}

static void on_detect(evutil_socket_t fd, short what, void *arg)
{
    mgw3d_peer_t *p = arg;
    (void)fd;
    (void)what;
    if (p->used && p->mode == MGW3D_MODE_UNKNOWN)
        peer_decide(p, MGW3D_MODE_LINES);
}

static uint32_t peer_id(const mgw3d_peer_t *p)
{
    return (uint32_t)p->index << 16 | p->gen;
}

/* ---- commands from the monitor -------------------------------------------------- */
static void on_record(void *ctx, const shm3d_cmd_sh_t *c)
{
    mgw3d_peer_t *p = ctx;
    if (shm3d_ctrl_push(&p->g->self->ctrl, c) < 0) {
        static const char full[] = "(error ring full)";
        peer_send(p, full, sizeof full - 1);
    }
}

static void on_error(void *ctx, const char *text)
{
    mgw3d_peer_t *p = ctx;
    peer_send(p, text, strlen(text));
}

/* newline-terminated commands (a CR before the newline is dropped) */
static void read_lines(mgw3d_t *g, mgw3d_peer_t *p, struct evbuffer *in)
{
    mgw3d_sink_t sink = { on_record, on_error, p };
    for (;;) {
        struct evbuffer_ptr eol = evbuffer_search_eol(in, NULL, NULL, EVBUFFER_EOL_LF);
        if (eol.pos < 0) {
            if (evbuffer_get_length(in) > MGW3D_MSG_MAX) {
                log_warn("monitor %d: a line longer than %d bytes, closing", p->index, MGW3D_MSG_MAX);
                mgw3d_peer_close(g, p);
            }
            return;
        }
        size_t n = (size_t)eol.pos;
        if (n > MGW3D_MSG_MAX) {
            log_warn("monitor %d: a line of %zu bytes, closing", p->index, n);
            mgw3d_peer_close(g, p);
            return;
        }
        evbuffer_remove(in, g->msg, n);
        evbuffer_drain(in, 1);
        if (n && g->msg[n - 1] == '\r')
            n--;
        g->msg[n] = '\0';
        mgw3d_cmd_parse(g->msg, n, peer_id(p), &sink);
        if (!p->used)
            return;
    }
}

static void on_read(struct bufferevent *bev, void *arg)
{
    mgw3d_peer_t *p = arg;
    mgw3d_t *g = p->g;
    struct evbuffer *in = bufferevent_get_input(bev);
    mgw3d_sink_t sink = { on_record, on_error, p };
    if (p->mode == MGW3D_MODE_UNKNOWN && evbuffer_get_length(in) > 0) {
        unsigned char first;
        evbuffer_copyout(in, &first, 1);
        peer_decide(p, first == 0 ? MGW3D_MODE_FRAMED : MGW3D_MODE_LINES);
    }
    if (p->mode == MGW3D_MODE_LINES) {
        read_lines(g, p, in);
        return;
    }
    for (;;) {
        uint8_t hdr[FRAME_HDR];
        size_t have = evbuffer_get_length(in);
        if (have < FRAME_HDR)
            return;
        evbuffer_copyout(in, hdr, FRAME_HDR);
        uint32_t n = frame_get_len(hdr);
        if (n > MGW3D_MSG_MAX) {
            log_warn("monitor %d: message of %u bytes, closing", p->index, (unsigned)n);
            mgw3d_peer_close(g, p);
            return;
        }
        if (have < FRAME_HDR + (size_t)n)
            return;
        evbuffer_drain(in, FRAME_HDR);
        evbuffer_remove(in, g->msg, n);
        g->msg[n] = '\0';
        mgw3d_cmd_parse(g->msg, n, peer_id(p), &sink);
    }
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
    mgw3d_peer_t *p = arg;
    (void)bev;
    if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
        log_debug("monitor %d: connection closed", p->index);
        mgw3d_peer_close(p->g, p);
    }
}

/* ---- connections ---------------------------------------------------------------- */
int mgw3d_peer_open(mgw3d_t *g, int fd)
{
    int idx = -1;
    for (int i = 0; i < g->max_peers && idx < 0; i++)
        idx = g->peer[i].used ? -1 : i;
    if (idx < 0) {
        static const char full[] = "(error too_many_monitors)";
        uint8_t hdr[FRAME_HDR];
        frame_put_len(hdr, sizeof full - 1);
        if (write(fd, hdr, FRAME_HDR) == FRAME_HDR && write(fd, full, sizeof full - 1) < 0)
            log_debug("refusal not sent: %s", strerror(errno));
        close(fd);
        return -1;
    }
    mgw3d_peer_t *p = &g->peer[idx];
    uint16_t gen = (uint16_t)(p->gen + 1);
    evutil_make_socket_nonblocking(fd);
    memset(p, 0, sizeof *p);
    p->bev = bufferevent_socket_new(g->base, fd, BEV_OPT_CLOSE_ON_FREE);
    if (!p->bev) {
        close(fd);
        return -1;
    }
    p->g = g;
    p->used = 1;
    p->index = idx;
    p->gen = gen;
    g->npeers++;
    bufferevent_setcb(p->bev, on_read, NULL, on_event, p);
    bufferevent_enable(p->bev, EV_READ | EV_WRITE);
    /* the Init once its first bytes (or MGW3D_DETECT_MS of silence) tell its form */
    p->mode = MGW3D_MODE_UNKNOWN;
    p->detect = evtimer_new(g->base, on_detect, p);
    struct timeval tv = { MGW3D_DETECT_MS / 1000, (MGW3D_DETECT_MS % 1000) * 1000 };
    if (!p->detect || evtimer_add(p->detect, &tv) < 0)
        peer_decide(p, MGW3D_MODE_LINES);
    log_debug("monitor %d connected", idx);
    return 0;
}

void mgw3d_peer_close(mgw3d_t *g, mgw3d_peer_t *p)
{
    if (!p->used)
        return;
    if (p->detect) {
        event_free(p->detect);
        p->detect = NULL;
    }
    bufferevent_free(p->bev);
    p->bev = NULL;
    p->used = 0;
    g->npeers--;
}

void mgw3d_peer_info(mgw3d_t *g, const char *full, int full_len, const char *delta, int delta_len)
{
    for (int i = 0; i < g->max_peers; i++) {
        mgw3d_peer_t *p = &g->peer[i];
        if (!p->used || p->mode == MGW3D_MODE_UNKNOWN)
            continue;
        int whole = !p->fed || delta_len < 0;
        const char *t = whole ? full : delta;
        int n = whole ? full_len : delta_len;
        if (n < 0 || peer_send(p, t, (size_t)n) < 0) {
            p->skipped++;
            p->fed = 0; /* the next one must be complete again */
            continue;
        }
        p->fed = 1;
    }
}

void mgw3d_peer_ack(mgw3d_t *g, uint32_t id, const char *cookie, size_t n)
{
    int idx = (int)(id >> 16);
    char text[SHM3D_EVENT_TEXT_LEN + 32];
    if (idx < 0 || idx >= g->max_peers)
        return;
    mgw3d_peer_t *p = &g->peer[idx];
    if (!p->used || p->gen != (uint16_t)(id & 0xffffu))
        return;
    int len = mgw3d_encode_ack(cookie, n, text, sizeof text);
    if (len > 0)
        peer_send(p, text, (size_t)len);
}

void mgw3d_peer_text(mgw3d_t *g, uint32_t id, const char *text, size_t n)
{
    int idx = (int)(id >> 16);
    if (idx < 0 || idx >= g->max_peers)
        return;
    mgw3d_peer_t *p = &g->peer[idx];
    if (p->used && p->gen == (uint16_t)(id & 0xffffu))
        peer_send(p, text, n);
}

/* write what is queued for p, waiting for the socket at most ms in all (the
 * bufferevent's own buffer may not be drained from outside: its bytes are copied out) */
static void flush_blocking(mgw3d_peer_t *p, int ms)
{
    struct evbuffer *out = bufferevent_get_output(p->bev);
    int fd = (int)bufferevent_getfd(p->bev);
    size_t n = evbuffer_get_length(out), done = 0;
    const unsigned char *data = evbuffer_pullup(out, -1);
    for (int waited = 0; data && done < n && waited < ms;) {
        ssize_t w = write(fd, data + done, n - done);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno != EAGAIN && errno != EINTR)
            return;
        struct pollfd pf = { .fd = fd, .events = POLLOUT };
        poll(&pf, 1, 10);
        waited += 10;
    }
}

void mgw3d_peer_die(mgw3d_t *g)
{
    for (int i = 0; i < g->max_peers; i++) {
        mgw3d_peer_t *p = &g->peer[i];
        if (!p->used)
            continue;
        /* past the queue limit too: it is the last thing this monitor gets */
        peer_put(p, MGW3D_DIE, strlen(MGW3D_DIE));
        flush_blocking(p, 200);
    }
}
