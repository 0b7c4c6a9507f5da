/* agw3d_conn.c -- the agent gateway's connections: length-prefixed messages in and out
 * through a libevent bufferevent. A new connection (TCP or pipe agent) first waits
 * among the pending ones without a robot slot: its (create) is kept, other effectors
 * are answered "(error NAME init_first)", and its first (init) takes one slot of the
 * region's agent table (or gets "(error server_full)" and is closed). TCP connections
 * silent for server::init_timeout_ms before their (init) are closed, and at most
 * server::pending_max of them wait at once (a new one closes the one silent the
 * longest), so connections that never speak cannot keep agents out. Once in a slot:
 * effectors into the slot's command ring, (syn) into the slot's done_step, and each
 * robot's perception on sense steps. A connection that closes frees its slot (the sim
 * removes the robot); a reused slot gets a new generation, so records of the old
 * connection still in the ring are dropped by the sim. A SPADES agent (started from
 * the list with framing=spades) talks over two pipes in the 2004 ComServer's framing
 * (agw3d_spades.c): its A messages are the effector messages above, its D the (syn); it
 * is sent a sensation (its perception, empty before it has a robot) on each sense step
 * once it said I and when it is not still thinking, errors go into its next sensation,
 * and X at the end. A frame it may not send closes it. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include "agw3d.h"
#include "frame.h"
#include "log.h"
#include "net.h"

agw3d_conn_t *agw3d_conn_by_slot(agw3d_t *g, int slot, uint32_t generation)
{
    if (slot < 0 || slot >= SHM3D_MAX_AGENTS)
        return NULL;
    agw3d_conn_t *c = &g->conn[slot];
    return c->used && c->generation == generation ? c : NULL;
}

static int send_frame(agw3d_conn_t *c, const char *text, size_t len)
{
    struct evbuffer *out = bufferevent_get_output(c->bev);
    if (evbuffer_get_length(out) > AGW3D_OUT_MAX)
        return -1;
    uint8_t hdr[FRAME_HDR];
    frame_put_len(hdr, (uint32_t)len);
    evbuffer_add(out, hdr, FRAME_HDR);
    evbuffer_add(out, text, len);
    return 0;
}

int agw3d_conn_send(agw3d_conn_t *c, const char *text, size_t len)
{
    if (c->framing != AGW3D_FRAMING_SPADES)
        return send_frame(c, text, len);
    /* the SPADES framing has no message for it: it goes with the next sensation */
    if (c->sp_elen + len > sizeof c->sp_err) {
        log_debug("agent pid %d: '%.*s' not told (errors queued)", (int)c->pid, (int)len, text);
        return -1;
    }
    memcpy(c->sp_err + c->sp_elen, text, len);
    c->sp_elen += len;
    return 0;
}

/* ---- messages from the agent ------------------------------------------------------ */
typedef struct msg_ctx {
    agw3d_t      *g;
    agw3d_conn_t *c;
} msg_ctx_t;

static void on_record(void *ctx, const shm3d_cmd_sh_t *rec)
{
    msg_ctx_t *m = ctx;
    shm3d_cmd_sh_t c = *rec;
    c.generation = m->c->generation;
    if (shm3d_cmd_push(&m->g->r->cmd[m->c->slot], &c) < 0) {
        static const char full[] = "(error ring full)";
        agw3d_conn_send(m->c, full, sizeof full - 1);
    }
}

static void on_error(void *ctx, const char *text)
{
    msg_ctx_t *m = ctx;
    agw3d_conn_send(m->c, text, strlen(text));
}

static void on_syn(void *ctx)
{
    msg_ctx_t *m = ctx;
    shm3d_agent_sh_t *a = &m->g->r->agent[m->c->slot];
    atomic_store_explicit(&a->done_step, m->c->sensed_step, memory_order_release);
    shm_sem_post(&m->g->r->hdr.done_sem);
}

/* ---- before the (init): no slot yet ------------------------------------------------ */
typedef struct pend_ctx {
    agw3d_conn_t  *c;
    shm3d_cmd_sh_t rec[64];
    int            n;
} pend_ctx_t;

static void pend_record(void *ctx, const shm3d_cmd_sh_t *rec)
{
    pend_ctx_t *p = ctx;
    if (p->n < (int)(sizeof p->rec / sizeof p->rec[0]))
        p->rec[p->n++] = *rec;
}

static void pend_error(void *ctx, const char *text)
{
    pend_ctx_t *p = ctx;
    agw3d_conn_send(p->c, text, strlen(text));
}

static void pend_syn(void *ctx)
{
    (void)ctx; /* no robot, nothing to be done with */
}

static int free_slot(agw3d_t *g)
{
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        if (!g->conn[i].used && atomic_load(&g->r->agent[i].state) == SHM3D_AGENT_FREE)
            return i;
    }
    return -1;
}

static void refuse_full(agw3d_t *g, agw3d_conn_t *c)
{
    /* a SPADES agent is told to exit: its framing has no error message */
    static const char full[] = "(error server_full)", bye[] = "X";
    int spades = c->framing == AGW3D_FRAMING_SPADES;
    const char *text = spades ? bye : full;
    size_t len = spades ? sizeof bye - 1 : sizeof full - 1;
    log_warn("agent refused: every slot is taken");
    /* written straight to the socket before the close (best effort) */
    int fd = (int)bufferevent_getfd(c->bev);
    uint8_t hdr[FRAME_HDR];
    frame_put_len(hdr, (uint32_t)len);
    if (write(fd, hdr, FRAME_HDR) != FRAME_HDR || write(fd, text, len) < 0)
        log_debug("server_full reply not sent: %s", strerror(errno));
    agw3d_conn_close(g, c);
}

/* The pending connection c takes slot: it moves into g->conn[slot]. */
static agw3d_conn_t *take_slot(agw3d_t *g, agw3d_conn_t *c, int slot)
{
    agw3d_conn_t *n = &g->conn[slot];
    shm3d_agent_sh_t *a = &g->r->agent[slot];
    *n = *c;
    memset(c, 0, sizeof *c);
    c->slot = -1;
    n->slot = slot;
    n->generation = atomic_load(&a->generation) + 1;
    a->kind = n->kind;
    a->pid = (int32_t)n->pid;
    memset(a->addr, 0, sizeof a->addr);
    a->family = 0;
    a->port = 0;
    if (n->peer.ss_family)
        net_addr_pack(&n->peer, a->addr, &a->family, &a->port);
    atomic_store(&a->done_step, 0);
    a->last_recv_ns = shm_now_ns();
    atomic_store_explicit(&a->generation, n->generation, memory_order_release);
    atomic_store_explicit(&a->state, SHM3D_AGENT_ACTIVE, memory_order_release);
    bufferevent_setcb(n->bev, NULL, NULL, NULL, NULL); /* set again by the caller */
    if (n->bin)
        bufferevent_setcb(n->bin, NULL, NULL, NULL, NULL);
    log_debug("agent slot %d: %s connection (generation %u)", slot,
              n->kind == SHM3D_KIND_PIPE ? "pipe" : "TCP", (unsigned)n->generation);
    return n;
}

static void push_record(agw3d_t *g, agw3d_conn_t *c, const shm3d_cmd_sh_t *rec);
static void on_read(struct bufferevent *bev, void *arg);
static void on_read_spades(struct bufferevent *bev, void *arg);
static void on_event(struct bufferevent *bev, short what, void *arg);

/* the callbacks of c's bufferevents, with c (where it is now) as their argument */
static void set_callbacks(agw3d_conn_t *c)
{
    if (c->bin) {
        bufferevent_setcb(c->bin, on_read_spades, NULL, on_event, c);
        bufferevent_setcb(c->bev, NULL, NULL, on_event, c);
    } else {
        bufferevent_setcb(c->bev, on_read, NULL, on_event, c);
    }
}

/* the connection to go on with (moved into its slot), or NULL if it was closed */
static agw3d_conn_t *pending_message(agw3d_t *g, agw3d_conn_t *c, const char *text, size_t len)
{
    pend_ctx_t p;
    p.c = c;
    p.n = 0;
    agw3d_sink_t sink = { pend_record, pend_error, pend_syn, &p };
    c->last_ns = shm_now_ns();
    agw3d_cmd_parse(text, len, &sink);
    int init = 0;
    for (int i = 0; i < p.n && !init; i++)
        init = p.rec[i].kind == SHM3D_CMD_INIT;
    if (!init) {
        for (int i = 0; i < p.n; i++) {
            static const char *const name[] = { "", "create", "init", "beam", "drive", "kick" };
            char e[64];
            if (p.rec[i].kind == SHM3D_CMD_CREATE) {
                c->created = 1;
                continue;
            }
            snprintf(e, sizeof e, "(error %s init_first)",
                     p.rec[i].kind < 6 ? name[p.rec[i].kind] : "unknown");
            agw3d_conn_send(c, e, strlen(e));
        }
        return c;
    }
    int slot = free_slot(g);
    if (slot < 0) {
        refuse_full(g, c);
        return NULL;
    }
    int created = c->created;
    agw3d_conn_t *n = take_slot(g, c, slot);
    set_callbacks(n);
    g->r->agent[slot].last_recv_ns = shm_now_ns();
    if (created) {
        shm3d_cmd_sh_t cr;
        memset(&cr, 0, sizeof cr);
        cr.kind = SHM3D_CMD_CREATE;
        push_record(g, n, &cr);
    }
    for (int i = 0; i < p.n; i++)
        push_record(g, n, &p.rec[i]);
    return n;
}

static void push_record(agw3d_t *g, agw3d_conn_t *c, const shm3d_cmd_sh_t *rec)
{
    msg_ctx_t m = { g, c };
    on_record(&m, rec);
}

/* the connection to go on with, or NULL if it was closed */
static agw3d_conn_t *conn_message(agw3d_t *g, agw3d_conn_t *c, const char *text, size_t len)
{
    if (c->slot < 0)
        return pending_message(g, c, text, len);
    msg_ctx_t m = { g, c };
    agw3d_sink_t sink = { on_record, on_error, on_syn, &m };
    g->r->agent[c->slot].last_recv_ns = shm_now_ns();
    agw3d_cmd_parse(text, len, &sink);
    return c->used ? c : NULL;
}

/* the length a frame's header in `in` announces into *n, the bytes buffered into *have;
 * 0 while the header is not all there */
static int frame_peek(struct evbuffer *in, uint32_t *n, size_t *have)
{
    uint8_t hdr[FRAME_HDR];
    *have = evbuffer_get_length(in);
    if (*have < FRAME_HDR)
        return 0;
    evbuffer_copyout(in, hdr, FRAME_HDR);
    *n = frame_get_len(hdr);
    return 1;
}

static void on_read(struct bufferevent *bev, void *arg)
{
    agw3d_conn_t *c = arg;
    agw3d_t *g = c->g;
    struct evbuffer *in = bufferevent_get_input(bev);
    for (;;) {
        uint32_t n;
        size_t have;
        if (!frame_peek(in, &n, &have))
            return;
        if (n > AGW3D_MSG_MAX) {
            static const char big[] = "(error parse message_too_long)";
            log_warn("agent slot %d: message of %u bytes, closing", c->slot, (unsigned)n);
            agw3d_conn_send(c, big, sizeof big - 1);
            bufferevent_flush(bev, EV_WRITE, BEV_FINISHED);
            agw3d_conn_close(g, c);
            return;
        }
        if (have < FRAME_HDR + (size_t)n)
            return;
        evbuffer_drain(in, FRAME_HDR);
        evbuffer_remove(in, g->msg, n);
        g->msg[n] = '\0';
        c = conn_message(g, c, g->msg, n);
        if (!c)
            return;
    }
}

/* ---- messages of a SPADES agent ------------------------------------------------------ */
static agw3d_conn_t *spades_message(agw3d_t *g, agw3d_conn_t *c, char type, const char *data,
                                    size_t len)
{
    if (type == 'A')
        return conn_message(g, c, data, len);
    if (type == 'I') {
        if (c->sp_state == AGW3D_SP_STARTING)
            c->sp_state = AGW3D_SP_READY;
        return c;
    }
    /* D: done thinking, the (syn) of its sensation */
    if (c->sp_state == AGW3D_SP_THINKING)
        c->sp_state = AGW3D_SP_READY;
    if (c->slot >= 0) {
        msg_ctx_t m = { g, c };
        on_syn(&m);
    }
    return c;
}

static void on_read_spades(struct bufferevent *bev, void *arg)
{
    agw3d_conn_t *c = arg;
    agw3d_t *g = c->g;
    struct evbuffer *in = bufferevent_get_input(bev);
    for (;;) {
        uint32_t n;
        size_t have;
        if (!frame_peek(in, &n, &have))
            return;
        /* the whole frame if it may be one, else the header and the type byte */
        size_t need = FRAME_HDR + (n > AGW3D_SP_MAX ? 0 : n > 0 ? n : 1);
        size_t avail = have < need ? have : need;
        const uint8_t *buf = evbuffer_pullup(in, (ssize_t)avail);
        agw3d_sp_msg_t m;
        size_t used = 0;
        char err[96];
        int rc = buf ? agw3d_spades_next(buf, avail, AGW3D_SP_MAX, &m, &used, err, sizeof err) : 0;
        if (rc < 0) {
            log_warn("SPADES agent pid %d: %s; closing it", (int)c->pid, err);
            agw3d_conn_close(g, c);
            return;
        }
        if (rc == 0)
            return;
        char type = m.type;
        size_t len = m.len;
        memcpy(g->msg, m.data, len);
        g->msg[len] = '\0';
        evbuffer_drain(in, used);
        c = spades_message(g, c, type, g->msg, len);
        if (!c)
            return;
    }
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
    agw3d_conn_t *c = arg;
    if (c->bin && bev == c->bev && (what & BEV_EVENT_ERROR)) {
        /* a SPADES agent's pipe to read closed: what it wrote is still read (and told if
         * it ends in the middle of a message) up to the end of its other pipe */
        log_debug("SPADES agent pid %d: it reads no more", (int)c->pid);
        bufferevent_disable(c->bev, EV_WRITE);
        return;
    }
    if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
        if (c->bin) {
            struct evbuffer *in = bufferevent_get_input(c->bin);
            size_t have = evbuffer_get_length(in);
            char cut[96];
            agw3d_spades_cut(evbuffer_pullup(in, (ssize_t)have), have, cut, sizeof cut);
            if (cut[0])
                log_warn("SPADES agent pid %d: the pipe closed in %s", (int)c->pid, cut);
        }
        log_debug("agent slot %d: connection closed", c->slot);
        agw3d_conn_close(c->g, c);
    }
}

/* ---- connections ---------------------------------------------------------------- */
int agw3d_conn_setup(agw3d_t *g)
{
    g->npend = conf3d_int(&g->conf, P3_pending_max) + AGW3D_LIST_MAX;
    g->pend = calloc((size_t)g->npend, sizeof *g->pend);
    return g->pend ? 0 : -1;
}

/* a free pending entry; for TCP at most pending_max in use (then the one silent the
 * longest is closed) */
static agw3d_conn_t *pending_entry(agw3d_t *g, int kind)
{
    int max = conf3d_int(&g->conf, P3_pending_max), tcp = 0;
    agw3d_conn_t *free_e = NULL, *oldest = NULL;
    for (int i = 0; i < g->npend; i++) {
        agw3d_conn_t *c = &g->pend[i];
        if (!c->used) {
            if (!free_e)
                free_e = c;
            continue;
        }
        if (c->kind != SHM3D_KIND_TCP)
            continue;
        tcp++;
        if (!oldest || c->last_ns < oldest->last_ns)
            oldest = c;
    }
    if (kind == SHM3D_KIND_TCP && tcp >= max && oldest) {
        log_debug("agent connection silent for %.1f s closed for a new one",
                  (double)(shm_now_ns() - oldest->last_ns) / 1e9);
        agw3d_conn_close(g, oldest);
        if (!free_e)
            free_e = oldest;
    }
    return free_e;
}

/* a pending connection writing to fd and reading from fd_in (-1: fd both ways) */
static agw3d_conn_t *open_conn(agw3d_t *g, int fd, int fd_in, int kind, pid_t pid,
                               const struct sockaddr *peer)
{
    agw3d_conn_t *c = pending_entry(g, kind);
    if (!c) {
        close(fd);
        if (fd_in >= 0)
            close(fd_in);
        return NULL;
    }
    evutil_make_socket_nonblocking(fd);
    memset(c, 0, sizeof *c);
    c->bev = bufferevent_socket_new(g->base, fd, BEV_OPT_CLOSE_ON_FREE);
    if (!c->bev) {
        close(fd);
        if (fd_in >= 0)
            close(fd_in);
        return NULL;
    }
    if (fd_in >= 0) {
        evutil_make_socket_nonblocking(fd_in);
        c->bin = bufferevent_socket_new(g->base, fd_in, BEV_OPT_CLOSE_ON_FREE);
        if (!c->bin) {
            close(fd_in);
            bufferevent_free(c->bev);
            c->bev = NULL;
            return NULL;
        }
    }
    c->g = g;
    c->used = 1;
    c->slot = -1;
    c->kind = kind;
    c->pid = pid;
    c->last_ns = shm_now_ns();
    memset(&c->peer, 0, sizeof c->peer);
    if (peer)
        memcpy(&c->peer, peer, peer->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                                           : sizeof(struct sockaddr_in));
    set_callbacks(c);
    if (c->bin) {
        bufferevent_enable(c->bin, EV_READ);
        bufferevent_enable(c->bev, EV_WRITE);
    } else {
        bufferevent_enable(c->bev, EV_READ | EV_WRITE);
    }
    return c;
}

int agw3d_conn_open(agw3d_t *g, int fd, int kind, pid_t pid, const struct sockaddr *peer)
{
    return open_conn(g, fd, -1, kind, pid, peer) ? 0 : -1;
}

int agw3d_conn_open_spades(agw3d_t *g, int fd_in, int fd_out, pid_t pid)
{
    agw3d_conn_t *c = open_conn(g, fd_out, fd_in, SHM3D_KIND_PIPE, pid, NULL);
    if (!c)
        return -1;
    c->framing = AGW3D_FRAMING_SPADES;
    c->sp_state = AGW3D_SP_STARTING;
    /* the initialisation data: empty on a normal start */
    return send_frame(c, "D", 1);
}

void agw3d_conn_bye(agw3d_t *g)
{
    for (int k = 0; k < SHM3D_MAX_AGENTS + (g->pend ? g->npend : 0); k++) {
        agw3d_conn_t *c = k < SHM3D_MAX_AGENTS ? &g->conn[k] : &g->pend[k - SHM3D_MAX_AGENTS];
        if (!c->used || c->framing != AGW3D_FRAMING_SPADES)
            continue;
        send_frame(c, "X", 1);
        /* written out now, after what was still queued: the connection is freed next
         * (the bufferevent's output cannot be drained from here) */
        struct evbuffer *out = bufferevent_get_output(c->bev);
        size_t n = evbuffer_get_length(out), done = 0;
        const unsigned char *p = evbuffer_pullup(out, -1);
        int fd = (int)bufferevent_getfd(c->bev);
        for (int tries = 0; p && done < n && tries < 50; tries++) {
            ssize_t k = write(fd, p + done, n - done);
            if (k > 0) {
                done += (size_t)k;
                continue;
            }
            if (k < 0 && errno != EAGAIN && errno != EINTR)
                break;
            struct pollfd w = { .fd = fd, .events = POLLOUT };
            poll(&w, 1, 10);
        }
        if (done < n)
            log_debug("SPADES agent pid %d: X not written", (int)c->pid);
    }
}

int agw3d_conn_sweep(agw3d_t *g)
{
    uint64_t now = shm_now_ns(), limit = (uint64_t)conf3d_int(&g->conf, P3_init_timeout_ms) * 1000000u;
    int n = 0;
    for (int i = 0; i < g->npend; i++) {
        agw3d_conn_t *c = &g->pend[i];
        if (c->used && c->kind == SHM3D_KIND_TCP && now - c->last_ns > limit) {
            agw3d_conn_close(g, c);
            n++;
        }
    }
    if (n)
        log_debug("%d agent connections closed: silent before their (init)", n);
    return n;
}

void agw3d_conn_close(agw3d_t *g, agw3d_conn_t *c)
{
    if (!c->used)
        return;
    if (c->bin) {
        bufferevent_free(c->bin);
        c->bin = NULL;
    }
    if (c->slot < 0) {
        bufferevent_free(c->bev);
        c->bev = NULL;
        c->used = 0;
        return;
    }
    shm3d_agent_sh_t *a = &g->r->agent[c->slot];
    shm3d_cmd_sh_t bye;
    memset(&bye, 0, sizeof bye);
    bye.kind = SHM3D_CMD_BYE;
    bye.generation = c->generation;
    shm3d_cmd_push(&g->r->cmd[c->slot], &bye);
    atomic_store_explicit(&a->state, SHM3D_AGENT_FREE, memory_order_release);
    bufferevent_free(c->bev);
    c->bev = NULL;
    c->used = 0;
}

void agw3d_conn_takeover(agw3d_t *g)
{
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        shm3d_agent_sh_t *a = &g->r->agent[i];
        if (atomic_load(&a->state) != SHM3D_AGENT_ACTIVE)
            continue;
        /* the connection died with the previous gateway; a new one in this slot gets
         * the next generation, so the sim removes the robot either way */
        atomic_store_explicit(&a->state, SHM3D_AGENT_FREE, memory_order_release);
        log_info("agent slot %d: freed (its connection died with the previous gateway)", i);
    }
}

/* ---- per snapshot -------------------------------------------------------------------- */
/* a SPADES agent's sensation: its perception once it has a robot, empty before */
static void spades_sense(agw3d_t *g, agw3d_conn_t *c, const shm3d_snapshot_sh_t *s)
{
    if (c->sp_state != AGW3D_SP_READY) {
        c->dropped += c->sp_state == AGW3D_SP_THINKING;
        return;
    }
    int slot = c->slot, n = 0;
    int body = slot >= 0 && s->robot[slot].present && s->robot[slot].generation == c->generation;
    if (body && (n = agw3d_percept(s, slot, !c->greeted, &g->conf, g->out, sizeof g->out)) < 0) {
        c->dropped++;
        return;
    }
    int k = agw3d_spades_sense(g->sense, sizeof g->sense, s->step, s->step, c->sp_err,
                               c->sp_elen, g->out, (size_t)n);
    if (k < 0 || send_frame(c, g->sense, (size_t)k) < 0) {
        c->dropped++;
        return;
    }
    c->sp_elen = 0;
    c->sp_state = AGW3D_SP_THINKING;
    if (body) {
        c->greeted = 1;
        c->sensed_step = s->step;
    }
}

void agw3d_conn_snapshot(agw3d_t *g)
{
    const shm3d_snapshot_sh_t *s = &g->snap;
    if (!s->sense)
        return;
    for (int i = 0; i < g->npend; i++) {
        if (g->pend[i].used && g->pend[i].framing == AGW3D_FRAMING_SPADES)
            spades_sense(g, &g->pend[i], s);
    }
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        agw3d_conn_t *c = &g->conn[i];
        const shm3d_robot_sh_t *r = &s->robot[i];
        if (c->used && c->framing == AGW3D_FRAMING_SPADES) {
            spades_sense(g, c, s);
            continue;
        }
        if (!c->used || !r->present || r->generation != c->generation)
            continue;
        int n = agw3d_percept(s, i, !c->greeted, &g->conf, g->out, sizeof g->out);
        if (n < 0 || agw3d_conn_send(c, g->out, (size_t)n) < 0) {
            c->dropped++;
            continue;
        }
        c->greeted = 1;
        c->sensed_step = s->step;
    }
}
