/* netgw_client.c -- clients this gateway serves: each has its own socket connected to the
 * client (so no other address can act for it); its datagrams are parsed by
 * proto_parse_player into command records for the sim's ring, client-table settings
 * (view mode, ear, synch see) and immediate replies. Also the parameter messages after
 * init and the takeover of a dead gateway's clients on their old ports. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <event2/event.h>
#include "log.h"
#include "net.h"
#include "netgw.h"
#include "netgw_proto.h"
#include "param_msg.h"

#define CLIENT_READS_PER_EVENT 64

static void client_push(ngw_t *g, int idx, shm_cmd_sh_t *c)
{
    c->recv_time = (uint32_t)(g->have_snap ? g->snap.time : 0);
    shm_cmd_push(&g->r->cmd[idx], c);
}

void ngw_client_log(ngw_t *g, int idx, const char *text, size_t len)
{
    if (!conf_bool(&g->conf, SP_text_logging))
        return;
    shm_cmd_sh_t c;
    memset(&c, 0, sizeof c);
    c.kind = SHM_CMD_RAW;
    c.len = (uint16_t)(len < SHM_CMD_TEXT_LEN - 1 ? len : SHM_CMD_TEXT_LEN - 1);
    memcpy(c.text, text, c.len);
    client_push(g, idx, &c);
}

static void client_settings(shm_client_sh_t *e, const proto_parsed_t *p)
{
    if (p->view_width >= 0)
        e->view_width = p->view_width;
    if (p->view_high >= 0)
        e->view_high = p->view_high;
    if (p->synch_see)
        e->synch_see = 1;
    if (p->gaussian_see)
        e->gaussian_see = 1;
    if (p->clang_min > 0 && p->clang_max > 0) {
        e->clang_min = p->clang_min;
        e->clang_max = p->clang_max;
    }
    for (int k = 0; k < 4; k++) {
        if (!(p->ear_set & (1 << k)))
            continue;
        if (k < 2)
            e->ear_on[k] = p->ear[k];
        else
            e->ear_partial[k - 2] = p->ear[k];
    }
}

static void client_score(ngw_t *g, int idx)
{
    const shm_client_sh_t *e = &g->r->client[idx];
    ngw_cycle_refresh(g);
    int ours = e->side == SHM_SIDE_LEFT ? 0 : 1;
    char msg[64];
    snprintf(msg, sizeof msg, "(score %d %d %d)", g->snap.time, g->snap.score[ours],
             g->snap.score[1 - ours]);
    ngw_udp_send(g->cl[idx].fd, msg);
}

static void client_done(ngw_t *g, int idx)
{
    atomic_store(&g->r->client[idx].done_step, atomic_load(&g->r->hdr.published));
    shm_sem_post(&g->r->hdr.done_sem);
}

/* one datagram from a connected player */
static void client_datagram(ngw_t *g, int idx, char *buf, size_t n)
{
    static proto_parsed_t p; /* 6 KB; one gateway thread */
    shm_client_sh_t *e = &g->r->client[idx];
    e->last_recv_ns = shm_now_ns();
    if (e->version >= 8.0 && buf[n - 1] != '\0')
        ngw_udp_send(g->cl[idx].fd, "(warning message_not_null_terminated)");
    buf[n] = '\0';
    size_t len = strnlen(buf, n);
    ngw_client_log(g, idx, buf, len);
    int k = e->side == SHM_SIDE_RIGHT ? 1 : 0;
    proto_parse_player(buf, len, e->version, e->side, g->r->team[k].name,
                       g->r->team[1 - k].name, &p);
    for (int i = 0; i < p.ncmd; i++)
        client_push(g, idx, &p.cmd[i]);
    client_settings(e, &p);
    if (p.synch_see)
        g->cl[idx].see_count = 0;
    for (int i = 0; i < p.nreply; i++) {
        /* messages are sent uncompressed: zlib streams to clients are not implemented */
        if (strncmp(p.reply[i], "(ok compression", 15) == 0)
            ngw_udp_send(g->cl[idx].fd, "(warning compression_unsupported)");
        else
            ngw_udp_send(g->cl[idx].fd, p.reply[i]);
    }
    if (p.sense_body)
        ngw_cycle_sense_body(g, idx);
    if (p.score)
        client_score(g, idx);
    if (p.done)
        client_done(g, idx);
    if (p.bye) {
        log_info("%s %d left", g->r->team[k].name, e->unum);
        ngw_client_detach(g, idx, 1);
    }
}

static void client_on_read(evutil_socket_t fd, short what, void *arg)
{
    ngw_client_t *c = arg;
    ngw_t *g = c->g;
    static char buf[NGW_DGRAM_MAX + 1];
    (void)what;
    int coach = c->idx >= SHM_COACH_TRAINER;
    for (int i = 0; i < CLIENT_READS_PER_EVENT && c->used; i++) {
        ssize_t n = recv(fd, buf, NGW_DGRAM_MAX, MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n < 0 && coach && errno == ECONNREFUSED) {
            /* a coach that went away frees its place, as the reference drops it */
            log_info("coach %d is gone", c->idx);
            ngw_client_detach(g, c->idx, 1);
            return;
        }
        if (n < 0)
            continue; /* ECONNREFUSED from an earlier send: the client is away */
        if (n == 0)
            continue;
        if (coach)
            ngw_coach_datagram(g, c->idx, buf, (size_t)n);
        else
            client_datagram(g, c->idx, buf, (size_t)n);
    }
}

int ngw_client_attach(ngw_t *g, int idx, int local_port)
{
    shm_client_sh_t *e = &g->r->client[idx];
    ngw_client_t *c = &g->cl[idx];
    struct sockaddr_storage peer;
    char err[256];
    if (c->used)
        ngw_client_detach(g, idx, 0);
    ngw_entry_to_addr(e, &peer);
    int fd = net_udp_connected(conf_str(&g->conf, SP_bind_address), local_port, &peer, err,
                            sizeof err);
    if (fd < 0) {
        log_warn("client %d: %s", idx, err);
        return -1;
    }
    c->ev = event_new(g->base, fd, EV_READ | EV_PERSIST, client_on_read, c);
    if (!c->ev || event_add(c->ev, NULL) < 0) {
        if (c->ev)
            event_free(c->ev);
        c->ev = NULL;
        close(fd);
        return -1;
    }
    c->g = g;
    c->used = 1;
    c->idx = idx;
    c->fd = fd;
    c->generation = e->generation;
    c->see_count = 0;
    return 0;
}

void ngw_client_detach(ngw_t *g, int idx, int release)
{
    ngw_client_t *c = &g->cl[idx];
    if (c->used) {
        if (c->ev)
            event_free(c->ev);
        close(c->fd);
    }
    memset(c, 0, sizeof *c);
    c->idx = idx;
    c->fd = -1;
    if (release && shm_table_lock(g->r) == 0) {
        shm_client_sh_t *e = &g->r->client[idx];
        if (e->owner_gw == g->index)
            atomic_store_explicit(&e->state, CLIENT_ST_FREE, memory_order_release);
        shm_table_unlock(g->r);
    }
}

void ngw_client_takeover(ngw_t *g)
{
    for (int idx = 0; idx < SHM_MAX_CLIENTS; idx++) {
        shm_client_sh_t *e = &g->r->client[idx];
        if (atomic_load(&e->state) != CLIENT_ST_ACTIVE || e->owner_gw != g->index)
            continue;
        if (ngw_client_attach(g, idx, e->local_port) < 0) {
            log_warn("cannot take client %d back on port %d; dropping it", idx, e->local_port);
            ngw_client_detach(g, idx, 1);
            continue;
        }
        log_info("took client %d back on port %d", idx, e->local_port);
    }
}

void ngw_client_check_owner(ngw_t *g)
{
    for (int idx = 0; idx < SHM_MAX_CLIENTS; idx++) {
        ngw_client_t *c = &g->cl[idx];
        if (!c->used)
            continue;
        const shm_client_sh_t *e = &g->r->client[idx];
        if (atomic_load(&e->state) != CLIENT_ST_ACTIVE || e->owner_gw != g->index
            || e->generation != c->generation)
            ngw_client_detach(g, idx, 0);
    }
}

/* change_player_type lines for every player whose type is not the default */
static void client_send_types_in_use(ngw_t *g, int idx)
{
    const shm_client_sh_t *e = &g->r->client[idx];
    if (ngw_cycle_refresh(g) < 0)
        return;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const shm_player_sh_t *p = &g->snap.player[i];
        if (!p->enabled || p->type == 0)
            continue;
        char msg[64];
        if (p->side == e->side)
            snprintf(msg, sizeof msg, "(change_player_type %d %d)", p->unum, p->type);
        else
            snprintf(msg, sizeof msg, "(change_player_type %d)", p->unum);
        ngw_udp_send(g->cl[idx].fd, msg);
    }
}

void ngw_client_send_params(ngw_t *g, int idx)
{
    const shm_client_sh_t *e = &g->r->client[idx];
    int fd = g->cl[idx].fd;
    if (e->version < 7.0)
        return;
    if (param_msg_server(&g->conf, e->version, g->out, sizeof g->out) > 0)
        ngw_udp_send(fd, g->out);
    if (param_msg_player(&g->conf, e->version, g->out, sizeof g->out) > 0)
        ngw_udp_send(fd, g->out);
    for (uint32_t t = 0; t < g->r->ptypes.count && t < SHM_MAX_PTYPES; t++) {
        if (param_msg_type(&g->r->ptypes.type[t], (int)t, e->version, g->out, sizeof g->out) > 0)
            ngw_udp_send(fd, g->out);
    }
    if (e->kind != CLIENT_KIND_TRAINER) /* the trainer gets no list of changed players */
        client_send_types_in_use(g, idx);
}
