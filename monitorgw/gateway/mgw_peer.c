/* mgw_peer.c -- the monitors: registration from a netgw hand-over record (own socket
 * connected to the monitor, an entry in the region's monitor table while it has room,
 * the init block), commands read from that socket, takeover of a previous monitorgw's
 * monitors. The table in process memory grows without limit (server::max_monitors -1);
 * the region's table (SHM_MAX_MONITORS entries) is what survives a monitorgw restart. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <event2/event.h>
#include "log.h"
#include "mgw.h"
#include "net.h"

#define PEER_READS_PER_EVENT 16
#define PEER_RECV_MAX        8192

void mgw_peer_open_reply(mgw_t *g)
{
    char err[128];
    g->reply_fd = net_udp_bind(conf_str(&g->conf, SP_bind_address), 0, 0, err, sizeof err);
    if (g->reply_fd < 0)
        log_warn("no socket for refusals: %s", err);
}

/* an error to an address we keep no socket for: from the refusal socket (or a
 * temporary one) */
static void peer_reply_once(mgw_t *g, const struct sockaddr_storage *to, const char *text)
{
    char err[128];
    if (g->reply_fd > 0) { /* 0: never opened (a zeroed context) */
        net_udp_sendto(g->reply_fd, to, text, strlen(text) + 1);
        return;
    }
    int fd = net_udp_bind(conf_str(&g->conf, SP_bind_address), 0, 0, err, sizeof err);
    if (fd < 0) {
        log_warn("cannot answer a monitor: %s", err);
        return;
    }
    net_udp_sendto(fd, to, text, strlen(text) + 1);
    close(fd);
}

/* ---- the table ---------------------------------------------------------------------- */
static void peer_count(mgw_t *g, mgw_peer_t *p, int delta)
{
    g->ver_count[mgw_vidx(p->version)] += delta;
    atomic_store(&g->r->montab.count, (uint32_t)g->npeers);
}

/* a free entry of the region's table, -1 if none (the monitor is served without) */
static int peer_take_slot(mgw_t *g)
{
    uint32_t hwm = atomic_load(&g->r->montab.hwm);
    for (uint32_t i = 0; i < hwm && i < SHM_MAX_MONITORS; i++) {
        if (atomic_load(&g->r->monitor[i].state) == CLIENT_ST_FREE)
            return (int)i;
    }
    if (hwm >= SHM_MAX_MONITORS)
        return -1;
    atomic_store(&g->r->montab.hwm, hwm + 1);
    return (int)hwm;
}

static mgw_peer_t *peer_new(mgw_t *g)
{
    if (g->npeers == g->cap) {
        int cap = g->cap ? g->cap * 2 : 64;
        mgw_peer_t **np = realloc(g->peers, (size_t)cap * sizeof *np);
        if (!np)
            return NULL;
        g->peers = np;
        g->cap = cap;
    }
    mgw_peer_t *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->g = g;
    p->fd = -1;
    p->slot = -1;
    p->zlevel = -1;
    p->last_recv_ns = shm_now_ns();
    p->idx = g->npeers;
    g->peers[g->npeers++] = p;
    return p;
}

/* the monitor's table entry, if it has one, mirrors what a successor needs */
static void peer_store(mgw_t *g, mgw_peer_t *p)
{
    if (p->slot < 0)
        return;
    shm_monitor_sh_t *e = &g->r->monitor[p->slot];
    memcpy(e->addr, p->addr, sizeof e->addr);
    e->family = p->family;
    e->port = p->port;
    e->version = p->version;
    e->zlevel = p->zlevel;
    e->local_port = (uint16_t)net_udp_local_port(p->fd);
}

mgw_peer_t *mgw_peer_find(mgw_t *g, const uint8_t addr[16], int32_t family, uint16_t port)
{
    for (int i = 0; i < g->npeers; i++) {
        mgw_peer_t *p = g->peers[i];
        if (p->port == port && p->family == family && memcmp(p->addr, addr, 16) == 0)
            return p;
    }
    return NULL;
}

void mgw_peer_close(mgw_t *g, mgw_peer_t *p, int release)
{
    for (int k = 0; k < g->nwaiters; k++) {
        if (g->waiters[k] == p)
            g->waiters[k--] = g->waiters[--g->nwaiters];
    }
    if (p->ev)
        event_free(p->ev);
    if (p->fd >= 0)
        close(p->fd);
    if (p->slot >= 0 && release)
        atomic_store(&g->r->monitor[p->slot].state, CLIENT_ST_FREE);
    int i = p->idx;
    g->peers[i] = g->peers[--g->npeers];
    g->peers[i]->idx = i;
    peer_count(g, p, -1);
    free(p);
}

void mgw_peer_close_all(mgw_t *g, int release)
{
    while (g->npeers > 0)
        mgw_peer_close(g, g->peers[g->npeers - 1], release);
    free(g->peers);
    g->peers = NULL;
    g->cap = 0;
}

/* ---- sending -------------------------------------------------------------------------- */
int mgw_peer_send(mgw_t *g, mgw_peer_t *p, const void *data, size_t len)
{
    static uint8_t z[MGW_FRAME_MAX + 64];
    if (p->zlevel >= 0) {
        int n = mgw_zlib_pack(p->zlevel, data, len, z, sizeof z);
        if (n < 0)
            return 1;
        data = z;
        len = (size_t)n;
    }
    return mgw_peer_send_raw(g, p, data, len);
}

int mgw_peer_sent(mgw_t *g, mgw_peer_t *p, int res)
{
    if (res >= 0) {
        p->sent++;
        return 0;
    }
    if (res == -EAGAIN || res == -EWOULDBLOCK || res == -ENOBUFS) {
        p->skipped++;
        if (p->slot >= 0)
            g->r->monitor[p->slot].skipped++;
        return 1;
    }
    if (res == -ECONNREFUSED)
        p->dead = 1;
    return -1;
}

int mgw_peer_send_raw(mgw_t *g, mgw_peer_t *p, const void *data, size_t len)
{
    if (p->dead)
        return -1;
    return mgw_peer_sent(g, p, net_udp_send(p->fd, data, len) == 0 ? 0 : -errno);
}

/* ---- commands ------------------------------------------------------------------------- */
static void peer_set_version(mgw_t *g, mgw_peer_t *p, int version)
{
    peer_count(g, p, -1);
    p->version = version;
    peer_count(g, p, 1);
    memset(p->tiles, 0, sizeof p->tiles); /* a restarted viewer wants the tiles again */
    peer_store(g, p);
    mgw_fanout_init(g, p);
}

/* the side whose team is called name, 0 if none */
static int peer_team_side(const mgw_t *g, const char *name)
{
    for (int k = 0; k < 2 && name[0]; k++) {
        if (g->r->team[k].used && strcmp(g->r->team[k].name, name) == 0)
            return k == 0 ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
    }
    return 0;
}

static int peer_coach_mode(const mgw_t *g)
{
    return conf_bool(&g->conf, SP_coach) || conf_bool(&g->conf, SP_coach_w_referee);
}

/* ---- commands the sim applies at once ---------------------------------------------- */
/* p's command was pushed: its reply (maybe "") and its next datagrams wait for the sim's
 * acknowledgement. 0 if there is no room to wait (the reply goes out now). */
static int peer_wait(mgw_t *g, mgw_peer_t *p, const char *reply)
{
    if (p->waiting || g->nwaiters >= MGW_WAITERS || strlen(reply) >= sizeof p->held)
        return 0;
    p->waiting = 1;
    p->wait_pos = atomic_load_explicit(&g->self->ctrl.head, memory_order_relaxed);
    p->wait_ns = shm_now_ns();
    memcpy(p->held, reply, strlen(reply) + 1);
    g->waiters[g->nwaiters++] = p;
    if (p->ev)
        event_del(p->ev);
    return 1;
}

static void peer_unwait(mgw_t *g, int k)
{
    mgw_peer_t *p = g->waiters[k];
    g->waiters[k] = g->waiters[--g->nwaiters];
    p->waiting = 0;
    if (p->held[0])
        mgw_fanout_reply(g, p, p->held);
    p->held[0] = '\0';
    if (p->ev && !p->dead)
        event_add(p->ev, NULL);
}

void mgw_peer_ack(mgw_t *g, uint32_t pos)
{
    for (int k = g->nwaiters - 1; k >= 0; k--) {
        if ((int32_t)(pos - g->waiters[k]->wait_pos) >= 0)
            peer_unwait(g, k);
    }
}

void mgw_peer_wait_check(mgw_t *g)
{
    int64_t now = shm_now_ns();
    for (int k = g->nwaiters - 1; k >= 0; k--) {
        if (now - g->waiters[k]->wait_ns > MGW_WAIT_NS) {
            log_warn("monitor at port %u: the sim did not apply its command in time",
                     g->waiters[k]->port);
            peer_unwait(g, k);
        }
    }
}

static void peer_apply(mgw_t *g, mgw_peer_t *p, const mgw_cmd_t *c, const char *buf, size_t n)
{
    int v;
    switch (c->kind) {
    case MGW_CMD_CTRL: {
        if (!p->op) {
            mgw_fanout_reply(g, p, MGW_E_OPERATOR);
            break;
        }
        shm_cmd_sh_t rec = c->ctrl;
        rec.recv_time = (uint32_t)(g->have_snap ? g->snap.time : 0);
        if (rec.kind == SHM_CMD_MOVE_PLAYER && rec.i == 0)
            rec.i = peer_team_side(g, c->team); /* an unknown team: "(ok move)", no move */
        if (shm_ctrl_push(&g->self->ctrl, &rec) < 0) {
            log_warn("control ring full: monitor command dropped");
        } else {
            shm_sem_post(&g->r->hdr.done_sem); /* the sim applies it at once */
            if (peer_wait(g, p, c->reply))
                break;
        }
        if (c->reply[0]) /* coach mode's ok */
            mgw_fanout_reply(g, p, c->reply);
        break;
    }
    case MGW_CMD_CHECK_BALL: {
        char msg[96];
        if (g->have_snap && mgw_check_ball(&g->snap, &g->conf, msg, sizeof msg) > 0)
            mgw_fanout_reply(g, p, msg);
        break;
    }
    case MGW_CMD_BYE:
        log_stdout("A monitor disconnected");
        log_debug("the monitor at port %u left", p->port);
        mgw_peer_close(g, p, 1);
        break;
    case MGW_CMD_COMPRESSION:
        mgw_fanout_reply(g, p, c->reply); /* the ok still in the old form */
        p->zlevel = c->level;
        peer_store(g, p);
        break;
    case MGW_CMD_DISPINIT:
        if (dispinit_parse(buf, n, &v) == 0 && dispinit_version_served(v))
            peer_set_version(g, p, v);
        else
            mgw_fanout_reply(g, p, "(error illegal_client_version)");
        break;
    default:
        mgw_fanout_reply(g, p, c->reply);
        break;
    }
}

void mgw_peer_command(mgw_t *g, mgw_peer_t *p, char *buf, size_t n)
{
    static char plain[PEER_RECV_MAX + 1];
    mgw_cmd_t c;
    if (n == 0)
        return;
    p->last_recv_ns = shm_now_ns();
    if (p->zlevel >= 0) { /* only zlib input now; anything else is dropped */
        int k = mgw_zlib_unpack(buf, n, plain, sizeof plain);
        if (k <= 0)
            return;
        buf = plain;
        n = (size_t)k;
    } else if (buf[n - 1] != '\0' && p->version != 1) {
        mgw_fanout_reply(g, p, "(warning message_not_null_terminated)");
    }
    buf[n] = '\0'; /* the caller leaves room for it */
    size_t len = strnlen(buf, n);
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
        len--;
    buf[len] = '\0';
    if (!peer_coach_mode(g) || !mgw_parse_coach_cmd(buf, &c))
        mgw_parse_cmd(buf, len, &c);
    peer_apply(g, p, &c, buf, len);
}

static void peer_on_read(evutil_socket_t fd, short what, void *arg)
{
    mgw_peer_t *p = arg;
    mgw_t *g = p->g;
    static char buf[PEER_RECV_MAX + 1];
    (void)what;
    for (int i = 0; i < PEER_READS_PER_EVENT; i++) {
        ssize_t n = recv(fd, buf, PEER_RECV_MAX, MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n < 0) { /* ECONNREFUSED: the monitor is gone; what it sent is still queued */
            if (errno == ECONNREFUSED) {
                p->dead = 1;
                continue;
            }
            p->dead = 1;
            return;
        }
        int npeers = g->npeers;
        mgw_peer_command(g, p, buf, (size_t)n);
        if (g->npeers < npeers || p->waiting)
            return; /* closed (dispbye): p is freed; or waiting for the sim */
    }
}

/* ---- registration --------------------------------------------------------------------- */
/* socket and read event of p (its address set); local_port 0 = ephemeral */
static int peer_open(mgw_t *g, mgw_peer_t *p, int local_port)
{
    struct sockaddr_storage to;
    char err[256];
    net_addr_unpack(p->addr, p->family, p->port, &to);
    int fd = net_udp_connected(conf_str(&g->conf, SP_bind_address), local_port, &to, err,
                               sizeof err);
    if (fd < 0) {
        log_warn("monitor at port %u: %s", p->port, err);
        return -1;
    }
    p->fd = fd;
    p->ev = event_new(g->base, fd, EV_READ | EV_PERSIST, peer_on_read, p);
    if (!p->ev || event_add(p->ev, NULL) < 0)
        return -1;
    p->op = mgw_ops_allowed(&g->ops, p->addr, p->family);
    return 0;
}

static mgw_peer_t *peer_add(mgw_t *g, const uint8_t addr[16], int32_t family, uint16_t port,
                            int version, int slot, int local_port)
{
    mgw_peer_t *p = peer_new(g);
    if (!p)
        return NULL;
    memcpy(p->addr, addr, 16);
    p->family = family;
    p->port = port;
    p->version = version;
    p->slot = slot;
    peer_count(g, p, 1);
    if (peer_open(g, p, local_port) < 0) {
        mgw_peer_close(g, p, 1);
        return NULL;
    }
    return p;
}

/* room for one more monitor: under server::max_monitors and the descriptor limit */
static int peer_room(const mgw_t *g)
{
    int max = conf_int(&g->conf, SP_max_monitors);
    return (max < 0 || g->npeers < max) && mgw_status_fd_room(g);
}

/* The table is full: the monitor silent for longest makes room if it has been silent
 * for more than server::monitor_idle_timeout seconds (monitors need not send anything
 * after their dispinit, so a silent one is only replaced when room is needed).
 * 1 if one was closed. */
static int peer_evict_idle(mgw_t *g)
{
    int64_t tmo = (int64_t)conf_int(&g->conf, SP_monitor_idle_timeout) * 1000000000LL;
    mgw_peer_t *old = NULL;
    if (tmo <= 0)
        return 0;
    for (int i = 0; i < g->npeers; i++) {
        if (!old || g->peers[i]->last_recv_ns < old->last_recv_ns)
            old = g->peers[i];
    }
    if (!old || shm_now_ns() - old->last_recv_ns <= tmo)
        return 0;
    log_info("monitor at port %u silent for %lld s: replaced by a new monitor", old->port,
             (long long)((shm_now_ns() - old->last_recv_ns) / 1000000000LL));
    log_stdout("A monitor disconnected");
    mgw_peer_close(g, old, 1);
    return 1;
}

static void peer_register(mgw_t *g, const shm_monreq_sh_t *m, int version,
                          const struct sockaddr_storage *from)
{
    if (!peer_room(g) && !peer_evict_idle(g)) {
        if (!g->full_said)
            log_warn("no room for more monitors (%d served, server::max_monitors %d, "
                     "descriptors %s): refusing new ones", g->npeers,
                     conf_int(&g->conf, SP_max_monitors), mgw_status_fd_room(g) ? "left" : "used up");
        g->full_said = 1;
        peer_reply_once(g, from, "(error no_more_monitor)");
        return;
    }
    g->full_said = 0;
    int slot = peer_take_slot(g);
    mgw_peer_t *p = peer_add(g, m->addr, m->family, m->port, version, slot, 0);
    if (!p) {
        peer_reply_once(g, from, "(error connection_failed)");
        return;
    }
    if (slot >= 0) {
        g->r->monitor[slot].skipped = 0;
        peer_store(g, p);
        atomic_store(&g->r->monitor[slot].state, CLIENT_ST_ACTIVE);
    }
    if (version < 0)
        log_stdout("A new (json) monitor connected.");
    else
        log_stdout("A new (v%d) monitor connected.", version);
    log_debug("monitor at port %u served from %d", m->port, net_udp_local_port(p->fd));
    mgw_fanout_init(g, p);
}

void mgw_peer_request(mgw_t *g, const shm_monreq_sh_t *m)
{
    struct sockaddr_storage from;
    int version;
    char text[sizeof m->text + 1];
    size_t len = strnlen(m->text, sizeof m->text);
    memcpy(text, m->text, len);
    text[len] = '\0';
    net_addr_unpack(m->addr, m->family, m->port, &from);
    mgw_peer_t *p = mgw_peer_find(g, m->addr, m->family, m->port);
    if (strncmp(text, "(dispinit", 9) != 0) { /* a protocol-1 monitor's command */
        if (p)
            mgw_peer_command(g, p, text, len);
        return;
    }
    if (dispinit_parse(text, len, &version) < 0) {
        peer_reply_once(g, &from, "(error illegal_command_form)");
        return;
    }
    if (!dispinit_version_served(version)) {
        peer_reply_once(g, &from, "(error illegal_client_version)");
        return;
    }
    if (p) /* the same monitor again (restarted viewer): new version, init block again */
        peer_set_version(g, p, version);
    else
        peer_register(g, m, version, &from);
}

void mgw_peer_takeover(mgw_t *g)
{
    uint32_t hwm = atomic_load(&g->r->montab.hwm);
    for (uint32_t i = 0; i < hwm && i < SHM_MAX_MONITORS; i++) {
        shm_monitor_sh_t *m = &g->r->monitor[i];
        if (atomic_load(&m->state) != CLIENT_ST_ACTIVE)
            continue;
        mgw_peer_t *p = NULL;
        if (dispinit_version_served(m->version))
            p = peer_add(g, m->addr, m->family, m->port, m->version, (int)i, m->local_port);
        if (!p) {
            atomic_store(&m->state, CLIENT_ST_FREE);
            continue;
        }
        p->zlevel = m->zlevel >= 0 && m->zlevel <= 9 ? m->zlevel : -1;
        log_info("took monitor %u back on port %u", i, m->local_port);
    }
    atomic_store(&g->r->montab.count, (uint32_t)g->npeers);
}

void mgw_peer_note_idle(mgw_t *g)
{
    int max = conf_int(&g->conf, SP_max_monitors);
    int64_t oldest = 0;
    if (max >= 0 && g->npeers >= max && conf_int(&g->conf, SP_monitor_idle_timeout) > 0) {
        for (int i = 0; i < g->npeers; i++) {
            if (oldest == 0 || g->peers[i]->last_recv_ns < oldest)
                oldest = g->peers[i]->last_recv_ns;
        }
    }
    atomic_store(&g->r->montab.oldest_recv_ns, oldest);
}

void mgw_peer_reap(mgw_t *g)
{
    for (int i = g->npeers - 1; i >= 0; i--) {
        if (i >= g->npeers)
            continue;
        mgw_peer_t *p = g->peers[i];
        if (!p->dead)
            continue;
        int n = g->npeers;
        peer_on_read(p->fd, 0, p); /* may close it already (dispbye) */
        if (g->npeers == n) {
            log_stdout("A monitor disconnected");
            log_debug("the monitor at port %u went away", p->port);
            mgw_peer_close(g, p, 1);
        }
    }
}
