/* mgw_peer.c -- the monitors: registration from a netgw hand-over record (own socket
 * connected to the monitor, entry in the region's monitor table, init block), commands
 * read from that socket, frames and messages fanned out to every monitor (each frame
 * encoded once per version), takeover of a previous monitorgw's monitors. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <event2/event.h>
#include "log.h"
#include "mgw.h"
#include "net.h"
#include "param_msg.h"

#define PEER_READS_PER_EVENT 16

static void peer_msg(mgw_t *g, mgw_peer_t *p, const char *text)
{
    int t = g->have_snap ? g->snap.time : 0;
    if (mgw_encode_msg(t, 1, text, g->out, sizeof g->out) > 0)
        mgw_peer_send(g, p, g->out, strlen(g->out) + 1);
}

/* an error to an address we keep no socket for: a temporary one */
static void peer_reply_once(mgw_t *g, const struct sockaddr_storage *to, const char *text)
{
    char err[128];
    int fd = net_udp_bind(conf_str(&g->conf, SP_bind_address), 0, 0, err, sizeof err);
    if (fd < 0) {
        log_warn("cannot answer a monitor: %s", err);
        return;
    }
    net_udp_sendto(fd, to, text, strlen(text) + 1);
    close(fd);
}

static void peer_send_init(mgw_t *g, mgw_peer_t *p)
{
    if (param_msg_server(&g->conf, PARAM_MSG_ALL, g->out, sizeof g->out) > 0)
        mgw_peer_send(g, p, g->out, strlen(g->out) + 1);
    if (p->used && param_msg_player(&g->conf, PARAM_MSG_ALL, g->out, sizeof g->out) > 0)
        mgw_peer_send(g, p, g->out, strlen(g->out) + 1);
    for (uint32_t t = 0; p->used && t < g->r->ptypes.count && t < SHM_MAX_PTYPES; t++) {
        if (param_msg_type(&g->r->ptypes.type[t], (int)t, PARAM_MSG_ALL, g->out, sizeof g->out) > 0)
            mgw_peer_send(g, p, g->out, strlen(g->out) + 1);
    }
}

/* (re)start a registered monitor on a version: table entry and init block */
static void peer_set_version(mgw_t *g, mgw_peer_t *p, int version)
{
    p->version = version;
    g->r->monitor[p->slot].version = version;
    peer_send_init(g, p);
}

static void peer_command(mgw_t *g, mgw_peer_t *p, char *buf, size_t n)
{
    mgw_cmd_t c;
    if (buf[n - 1] != '\0')
        peer_msg(g, p, "(warning message_not_null_terminated)");
    buf[n] = '\0';
    mgw_parse_cmd(buf, strnlen(buf, n), &c);
    switch (c.kind) {
    case MGW_CMD_CTRL:
        c.ctrl.recv_time = (uint32_t)(g->have_snap ? g->snap.time : 0);
        if (shm_ctrl_push(&g->self->ctrl, &c.ctrl) < 0)
            log_warn("control ring full: monitor command dropped");
        break;
    case MGW_CMD_BYE:
        log_info("a monitor disconnected (port %u)", g->r->monitor[p->slot].port);
        mgw_peer_close(g, p, 1);
        break;
    case MGW_CMD_DISPINIT: {
        int v;
        if (dispinit_parse(buf, strnlen(buf, n), &v) == 0 && dispinit_version_served(v))
            peer_set_version(g, p, v);
        else
            peer_msg(g, p, "(error illegal_client_version)");
        break;
    }
    default:
        peer_msg(g, p, c.reply);
        break;
    }
}

static void peer_on_read(evutil_socket_t fd, short what, void *arg)
{
    mgw_peer_t *p = arg;
    mgw_t *g = p->g;
    static char buf[4097];
    (void)what;
    for (int i = 0; i < PEER_READS_PER_EVENT && p->used; i++) {
        ssize_t n = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n < 0) { /* ECONNREFUSED: the monitor is gone; what it sent is still queued */
            if (errno == ECONNREFUSED) {
                p->dead = 1;
                continue;
            }
            mgw_peer_close(g, p, 1);
            return;
        }
        if (n > 0)
            peer_command(g, p, buf, (size_t)n);
    }
}

/* open the socket and the read event of peer i for table entry i */
static int peer_open(mgw_t *g, int i, int local_port)
{
    shm_monitor_sh_t *m = &g->r->monitor[i];
    mgw_peer_t *p = &g->peer[i];
    struct sockaddr_storage to;
    char err[256];
    net_addr_unpack(m->addr, m->family, m->port, &to);
    int fd = net_udp_connected(conf_str(&g->conf, SP_bind_address), local_port, &to, err,
                               sizeof err);
    if (fd < 0) {
        log_warn("monitor %d: %s", i, err);
        return -1;
    }
    p->g = g;
    p->slot = i;
    p->fd = fd;
    p->version = m->version;
    p->ev = event_new(g->base, fd, EV_READ | EV_PERSIST, peer_on_read, p);
    if (!p->ev || event_add(p->ev, NULL) < 0) {
        if (p->ev)
            event_free(p->ev);
        p->ev = NULL;
        close(fd);
        return -1;
    }
    p->used = 1;
    p->dead = 0;
    g->npeers++;
    m->local_port = (uint16_t)net_udp_local_port(fd);
    return 0;
}

static mgw_peer_t *peer_find(mgw_t *g, const shm_monreq_sh_t *m)
{
    for (int i = 0; i < SHM_MAX_MONITORS; i++) {
        const shm_monitor_sh_t *e = &g->r->monitor[i];
        if (g->peer[i].used && e->family == m->family && e->port == m->port
            && memcmp(e->addr, m->addr, sizeof e->addr) == 0)
            return &g->peer[i];
    }
    return NULL;
}

void mgw_peer_request(mgw_t *g, const shm_monreq_sh_t *m)
{
    struct sockaddr_storage from;
    int version;
    net_addr_unpack(m->addr, m->family, m->port, &from);
    size_t len = strnlen(m->text, sizeof m->text);
    if (dispinit_parse(m->text, len, &version) < 0) {
        peer_reply_once(g, &from, "(error illegal_command_form)");
        return;
    }
    /* 1, 2 (binary) and -1 (JSON) exist in the reference but are not served yet */
    if (!dispinit_version_served(version)) {
        peer_reply_once(g, &from, "(error illegal_client_version)");
        return;
    }
    mgw_peer_t *p = peer_find(g, m);
    if (p) { /* the same monitor again (restarted viewer): new version, init block again */
        peer_set_version(g, p, version);
        return;
    }
    int max = conf_int(&g->conf, SP_max_monitors);
    int slot = -1;
    for (int i = 0; i < SHM_MAX_MONITORS && slot < 0; i++) {
        if (!g->peer[i].used && atomic_load(&g->r->monitor[i].state) == CLIENT_ST_FREE)
            slot = i;
    }
    if ((max >= 0 && g->npeers >= max) || slot < 0) {
        peer_reply_once(g, &from, "(error no_more_monitor)");
        return;
    }
    shm_monitor_sh_t *e = &g->r->monitor[slot];
    memcpy(e->addr, m->addr, sizeof e->addr);
    e->family = m->family;
    e->port = m->port;
    e->version = version;
    e->skipped = 0;
    if (peer_open(g, slot, 0) < 0) {
        peer_reply_once(g, &from, "(error connection_failed)");
        return;
    }
    atomic_store(&e->state, CLIENT_ST_ACTIVE);
    log_info("a new (v%d) monitor connected (port %u, served from %u)", version, e->port,
             e->local_port);
    peer_send_init(g, &g->peer[slot]);
}

void mgw_peer_takeover(mgw_t *g)
{
    for (int i = 0; i < SHM_MAX_MONITORS; i++) {
        shm_monitor_sh_t *m = &g->r->monitor[i];
        if (atomic_load(&m->state) != CLIENT_ST_ACTIVE)
            continue;
        if (!dispinit_version_served(m->version)
            || peer_open(g, i, m->local_port) < 0) {
            atomic_store(&m->state, CLIENT_ST_FREE);
            continue;
        }
        log_info("took monitor %d back on port %u", i, m->local_port);
    }
}

void mgw_peer_close(mgw_t *g, mgw_peer_t *p, int release)
{
    if (!p->used)
        return;
    if (p->ev)
        event_free(p->ev);
    close(p->fd);
    if (release)
        atomic_store(&g->r->monitor[p->slot].state, CLIENT_ST_FREE);
    p->used = 0;
    p->ev = NULL;
    p->fd = -1;
    g->npeers--;
}

void mgw_peer_send(mgw_t *g, mgw_peer_t *p, const char *text, size_t len)
{
    if (!p->used || p->dead)
        return;
    int rc = net_udp_send(p->fd, text, len);
    if (rc > 0)
        g->r->monitor[p->slot].skipped++;
    else if (rc < 0 && errno == ECONNREFUSED)
        p->dead = 1;
}

void mgw_peer_reap(mgw_t *g)
{
    for (int i = 0; i < SHM_MAX_MONITORS; i++) {
        mgw_peer_t *p = &g->peer[i];
        if (!p->used || !p->dead)
            continue;
        peer_on_read(p->fd, 0, p); /* may close it already (dispbye) */
        if (p->used) {
            log_info("a monitor went away (port %u)", g->r->monitor[p->slot].port);
            mgw_peer_close(g, p, 1);
        }
    }
}

void mgw_peer_broadcast_show(mgw_t *g)
{
    int len[MGW_MAX_VERSION + 1] = { 0 };
    for (int i = 0; i < SHM_MAX_MONITORS; i++) {
        mgw_peer_t *p = &g->peer[i];
        if (!p->used)
            continue;
        int v = p->version;
        if (len[v] == 0)
            len[v] = mgw_encode_show(&g->snap, v, g->frame[v], sizeof g->frame[v]);
        if (len[v] > 0)
            mgw_peer_send(g, p, g->frame[v], (size_t)len[v] + 1);
    }
}

void mgw_peer_broadcast_msg(mgw_t *g, int time, int board, const char *text)
{
    if (g->npeers == 0 || mgw_encode_msg(time, board, text, g->out, sizeof g->out) < 0)
        return;
    for (int i = 0; i < SHM_MAX_MONITORS; i++)
        mgw_peer_send(g, &g->peer[i], g->out, strlen(g->out) + 1);
}
