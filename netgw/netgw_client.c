/* netgw_client.c -- the player sessions: a connected player's datagrams (their socket
 * is netgw_conn.c's) inflated if it asked for compression and parsed by
 * proto_parse_player into command records for the sim's ring, client-table settings
 * (view mode, ear, synch see) and immediate replies; and the takeover of a dead
 * gateway's clients on their old ports. */
#include <stdio.h>
#include <string.h>
#include "log.h"
#include "netgw.h"
#include "netgw_conn.h"
#include "netgw_playergw.h"
#include "netgw_proto.h"

static void client_push(ngw_t *g, int idx, shm_cmd_sh_t *c)
{
    c->recv_time = (uint32_t)(g->have_snap ? g->snap.time : 0);
    shm_cmd_push(&g->r->cmd[idx], c);
}

void ngw_client_log(ngw_t *g, int idx, const char *text, size_t len)
{
    /* for the text log, and for the game log's board-2 copies (record_messages) */
    if (!conf_bool(&g->conf, SP_text_logging)
        && !(conf_bool(&g->conf, SP_game_logging) && conf_bool(&g->conf, SP_record_messages)))
        return;
    shm_cmd_sh_t c; /* whole, in parts when long, as the reference logs a datagram */
    memset(&c, 0, sizeof c);
    c.kind = SHM_CMD_RAW;
    c.recv_time = (uint32_t)(g->have_snap ? g->snap.time : 0);
    shm_cmd_push_text(&g->r->cmd[idx], &c, text, len < SHM_TEXT_MAX ? len : SHM_TEXT_MAX);
}

static void client_send(ngw_t *g, int idx, const char *msg)
{
    ngw_udp_send(g->cl[idx].fd, msg);
}

static void client_score(ngw_t *g, int idx)
{
    const shm_client_sh_t *e = &g->r->client[idx];
    ngw_snap_refresh(g);
    int ours = e->side == SHM_SIDE_LEFT ? 0 : 1;
    char msg[64];
    /* the opponents' score only once they have a name, as the reference */
    snprintf(msg, sizeof msg, "(score %d %d %d)", g->snap.time, g->snap.score[ours],
             g->snap.team[1 - ours][0] ? g->snap.score[1 - ours] : 0);
    client_send(g, idx, msg);
}

static void client_done(ngw_t *g, int idx)
{
    shm_synch_done(g->r, idx, &g->done_hint);
}

/* (change_view W [Q]) (docs/protocol/player.md §10): in synch-see mode a low-quality
 * request is ignored entirely; otherwise width and quality are set (the one-argument form
 * means high) and the sim counts it */
static void client_change_view(ngw_t *g, int idx, const proto_item_t *it)
{
    shm_client_sh_t *e = &g->r->client[idx];
    if (e->synch_see && !it->b)
        return;
    e->view_width = it->a;
    e->view_high = it->b;
    shm_cmd_sh_t c;
    memset(&c, 0, sizeof c);
    c.kind = SHM_CMD_CHANGE_VIEW;
    c.i = it->a;
    c.flags = (it->b ? 0u : 1u) | (it->c ? 2u : 0u); /* bit 0: low asked, 1: one argument */
    client_push(g, idx, &c);
}

static void client_synch_see(ngw_t *g, int idx)
{
    shm_client_sh_t *e = &g->r->client[idx];
    e->synch_see = 1; /* the see count goes on: the reference keeps it */
    e->view_high = 1;
    client_send(g, idx, "(ok synch_see)");
}

/* (compression N): acknowledged with the old setting, then every datagram both ways is
 * zlib data (level 0 included); -1 switches it off */
static void client_compression(ngw_t *g, int idx, int level)
{
    char msg[48];
    snprintf(msg, sizeof msg, "(ok compression %d)", level);
    client_send(g, idx, msg);
    if (ngw_zlib_set(g->cl[idx].fd, level) < 0) {
        log_warn("client %d: compression %d not available", idx, level);
        return;
    }
    g->r->client[idx].compression = level + 1;
}

/* (ear (on|off TEAM MODE)): b teams (bit0 own, bit1 opponents), c modes (bit0 complete,
 * bit1 partial) */
static void client_ear(shm_client_sh_t *e, const proto_item_t *it)
{
    for (int t = 0; t < 2; t++) {
        if (!(it->b & (1 << t)))
            continue;
        if (it->c & 1)
            e->ear_on[t] = it->a;
        if (it->c & 2)
            e->ear_partial[t] = it->a;
    }
}

/* Is a player's say heard by someone at once? The coaches, the trainer with its ear on
 * and v1-v7 players hear it when it is made; v8+ players only after the next
 * sense_body, for which the step's drain is soon enough. */
static int client_heard_at_once(const ngw_t *g)
{
    const shm_region_sh_t *r = g->r;
    for (int i = 0; i < SHM_MAX_CLIENTS; i++) {
        const shm_client_sh_t *e = &r->client[i];
        if (atomic_load_explicit(&e->state, memory_order_relaxed) != CLIENT_ST_ACTIVE)
            continue;
        if (e->kind == CLIENT_KIND_OLCOACH || (e->kind == CLIENT_KIND_TRAINER && e->trainer_ear)
            || (e->kind == CLIENT_KIND_PLAYER && e->version < 8.0))
            return 1;
    }
    return 0;
}

/* Does a command show before the next step? The reference applies every command when
 * it reads it: most only set what the step will do, but a move, a kick, a tackle, a
 * catch and a pointto change what the next sees show (the position, the kick and
 * tackle marks, the arm) and a say what someone hears at once. */
static int client_seen_at_once(const ngw_t *g, int kind)
{
    switch (kind) {
    case SHM_CMD_MOVE:
    case SHM_CMD_KICK:
    case SHM_CMD_TACKLE:
    case SHM_CMD_CATCH:
    case SHM_CMD_POINTTO:
        return 1;
    case SHM_CMD_SAY:
        return client_heard_at_once(g);
    default:
        return 0;
    }
}

/* one item of a datagram; 1 if the client left (bye) */
static int client_item(ngw_t *g, int idx, proto_item_t *it)
{
    shm_client_sh_t *e = &g->r->client[idx];
    switch (it->kind) {
    case PROTO_IT_CMD:          client_push(g, idx, &it->cmd); break;
    case PROTO_IT_REPLY:        client_send(g, idx, it->reply); break;
    case PROTO_IT_CHANGE_VIEW:  client_change_view(g, idx, it); break;
    case PROTO_IT_SYNCH_SEE:    client_synch_see(g, idx); break;
    case PROTO_IT_GAUSSIAN_SEE:
        e->gaussian_see = 1;
        client_send(g, idx, "(ok gaussian_see)");
        break;
    case PROTO_IT_SENSE_BODY:   ngw_cycle_sense_body(g, idx); break;
    case PROTO_IT_SCORE:        client_score(g, idx); break;
    case PROTO_IT_DONE:         break; /* after the whole datagram: ngw_client_command */
    case PROTO_IT_COMPRESSION:  client_compression(g, idx, it->a); break;
    case PROTO_IT_CLANG: {
        char msg[64];
        e->clang_min = it->a;
        e->clang_max = it->b;
        snprintf(msg, sizeof msg, "(ok clang (ver %d %d))", it->a, it->b);
        client_send(g, idx, msg);
        break;
    }
    case PROTO_IT_EAR:          client_ear(e, it); break;
    case PROTO_IT_BYE: /* the sim says "A player disconnected" when it takes him off */
        log_debug("%s %d left", g->r->team[e->side == SHM_SIDE_RIGHT ? 1 : 0].name, e->unum);
        ngw_conn_detach(g, idx, 1);
        return 1;
    default:
        break;
    }
    return 0;
}

void ngw_client_command(ngw_t *g, int idx, char *text, size_t len)
{
    static proto_parsed_t p; /* 35 KB; one gateway thread */
    shm_client_sh_t *e = &g->r->client[idx];
    e->last_recv_ns = shm_now_ns();
    ngw_client_log(g, idx, text, len);
    int k = e->side == SHM_SIDE_RIGHT ? 1 : 0;
    proto_parse_player(text, len, e->version, e->side, g->r->team[k].name,
                       g->r->team[1 - k].name, &p);
    if (p.dropped)
        log_debug("client %d: %d commands of one datagram dropped", idx, p.dropped);
    int done = 0, now = 0;
    for (int i = 0; i < p.n; i++) {
        done |= p.item[i].kind == PROTO_IT_DONE;
        if (p.item[i].kind == PROTO_IT_CMD)
            now |= client_seen_at_once(g, p.item[i].cmd.kind);
        if (client_item(g, idx, &p.item[i]))
            return;
    }
    if (now) /* the sim takes the datagram's commands now, not at the step */
        ngw_players_changed(g);
    /* a (done) tells the sim it may step only once every record of its datagram is in
     * the ring: the reference reads a whole datagram before it steps, so a command after
     * the (done) (librcsc sends (done)(say ...)) belongs to the same cycle */
    if (done)
        client_done(g, idx);
}

void ngw_client_datagram(ngw_t *g, int idx, char *buf, size_t n)
{
    static char plain[NGW_DGRAM_MAX + 1];
    int fd = g->cl[idx].fd;
    if (ngw_zlib_level(fd) >= 0) {
        int m = ngw_zlib_inflate(fd, buf, n, plain, sizeof plain);
        if (m <= 0)
            return; /* not zlib data: ignored, as the reference */
        buf = plain;
        n = (size_t)m;
    }
    if (g->r->client[idx].version >= 8.0 && buf[n - 1] != '\0')
        client_send(g, idx, "(warning message_not_null_terminated)");
    buf[n] = '\0';
    ngw_client_command(g, idx, buf, strnlen(buf, n));
}

void ngw_client_takeover(ngw_t *g)
{
    for (int idx = 0; idx < SHM_MAX_CLIENTS; idx++) {
        shm_client_sh_t *e = &g->r->client[idx];
        if (atomic_load(&e->state) != CLIENT_ST_ACTIVE || e->owner_gw != g->index)
            continue;
        if (ngw_conn_attach(g, idx, e->local_port) < 0) {
            log_warn("cannot take client %d back on port %d; dropping it", idx, e->local_port);
            ngw_conn_detach(g, idx, 1);
            continue;
        }
        ngw_audio_reset(g, idx);
        log_info("took client %d back on port %d", idx, e->local_port);
    }
}
