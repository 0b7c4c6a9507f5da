/* agw3d_conn.c -- the agent gateway's connections: one slot of the region's agent table
 * per connection (TCP or pipe agent), length-prefixed messages in and out through a
 * libevent bufferevent, effectors into the slot's command ring, (syn) into the slot's
 * done_step, and each robot's perception on sense steps. A connection that closes frees
 * its slot (the sim removes the robot); a reused slot gets a new generation, so records
 * of the old connection still in the ring are dropped by the sim. */
#include <arpa/inet.h>
#include <errno.h>
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

int agw3d_conn_send(agw3d_conn_t *c, const char *text, size_t len)
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

static void conn_message(agw3d_t *g, agw3d_conn_t *c, const char *text, size_t len)
{
    msg_ctx_t m = { g, c };
    agw3d_sink_t sink = { on_record, on_error, on_syn, &m };
    g->r->agent[c->slot].last_recv_ns = shm_now_ns();
    agw3d_cmd_parse(text, len, &sink);
}

static void on_read(struct bufferevent *bev, void *arg)
{
    agw3d_conn_t *c = arg;
    agw3d_t *g = c->g;
    struct evbuffer *in = bufferevent_get_input(bev);
    for (;;) {
        uint8_t hdr[FRAME_HDR];
        size_t have = evbuffer_get_length(in);
        if (have < FRAME_HDR)
            return;
        evbuffer_copyout(in, hdr, FRAME_HDR);
        uint32_t n = frame_get_len(hdr);
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
        conn_message(g, c, g->msg, n);
        if (!c->used)
            return;
    }
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
    agw3d_conn_t *c = arg;
    (void)bev;
    if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
        log_debug("agent slot %d: connection closed", c->slot);
        agw3d_conn_close(c->g, c);
    }
}

/* ---- slots --------------------------------------------------------------------------- */
static int free_slot(agw3d_t *g)
{
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        if (!g->conn[i].used && atomic_load(&g->r->agent[i].state) == SHM3D_AGENT_FREE)
            return i;
    }
    return -1;
}

int agw3d_conn_open(agw3d_t *g, int fd, int kind, pid_t pid, const struct sockaddr *peer)
{
    int slot = free_slot(g);
    if (slot < 0) {
        static const char full[] = "(error server_full)";
        uint8_t hdr[FRAME_HDR];
        frame_put_len(hdr, sizeof full - 1);
        if (write(fd, hdr, FRAME_HDR) == FRAME_HDR && write(fd, full, sizeof full - 1) < 0)
            log_debug("server_full reply not sent: %s", strerror(errno));
        close(fd);
        return -1;
    }
    evutil_make_socket_nonblocking(fd);
    agw3d_conn_t *c = &g->conn[slot];
    memset(c, 0, sizeof *c);
    c->bev = bufferevent_socket_new(g->base, fd, BEV_OPT_CLOSE_ON_FREE);
    if (!c->bev) {
        close(fd);
        return -1;
    }
    shm3d_agent_sh_t *a = &g->r->agent[slot];
    c->g = g;
    c->used = 1;
    c->slot = slot;
    c->kind = kind;
    c->pid = pid;
    c->generation = atomic_load(&a->generation) + 1;
    a->kind = kind;
    a->pid = (int32_t)pid;
    memset(a->addr, 0, sizeof a->addr);
    a->family = 0;
    a->port = 0;
    if (peer) {
        struct sockaddr_storage ss;
        memset(&ss, 0, sizeof ss);
        memcpy(&ss, peer, peer->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                                      : sizeof(struct sockaddr_in));
        net_addr_pack(&ss, a->addr, &a->family, &a->port);
    }
    atomic_store(&a->done_step, 0);
    a->last_recv_ns = shm_now_ns();
    atomic_store_explicit(&a->generation, c->generation, memory_order_release);
    atomic_store_explicit(&a->state, SHM3D_AGENT_ACTIVE, memory_order_release);
    bufferevent_setcb(c->bev, on_read, NULL, on_event, c);
    bufferevent_enable(c->bev, EV_READ | EV_WRITE);
    log_debug("agent slot %d: %s connection (generation %u)", slot,
              kind == SHM3D_KIND_PIPE ? "pipe" : "TCP", (unsigned)c->generation);
    return 0;
}

void agw3d_conn_close(agw3d_t *g, agw3d_conn_t *c)
{
    if (!c->used)
        return;
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
void agw3d_conn_snapshot(agw3d_t *g)
{
    const shm3d_snapshot_sh_t *s = &g->snap;
    if (!s->sense)
        return;
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        agw3d_conn_t *c = &g->conn[i];
        const shm3d_robot_sh_t *r = &s->robot[i];
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
