/* netgw_coach.c -- what the trainer and online-coach sessions share: taking a coach's
 * client-table entry and its own socket (replies come from there, as the reference),
 * datagrams on that socket (NUL check, raw text for the text log, dispatch), records
 * with long texts into the coach's ring, and the commands both kinds have: look,
 * team_names, check_ball, eye, done, compression. The parsing is netgw_coachcmd.c; the
 * kind-specific commands are netgw_trainer.c and netgw_olcoach.c. */
#include <stdio.h>
#include <string.h>
#include "log.h"
#include "net.h"
#include "netgw.h"
#include "netgw_coachgw.h"
#include "netgw_conn.h"

#define E_FAILED "(error connection_failed)"

static void coach_send_now(ngw_t *g, int idx, const char *msg)
{
    if (!g->cl[idx].used)
        return;
    if (g->r->client[idx].compression > 0)
        ngw_coach_zip_send(g, idx, msg);
    else
        ngw_udp_send(g->cl[idx].fd, msg);
}

static ngw_coach_t *coach_of(ngw_t *g, int idx)
{
    return &g->coach.c[idx - SHM_COACH_TRAINER];
}

void ngw_coach_send(ngw_t *g, int idx, const char *msg)
{
    ngw_coach_t *c = coach_of(g, idx);
    size_t n = strlen(msg);
    if (g->coach.replying == idx && c->waiting && c->nheld < NGW_COACH_HELD
        && n < COACH_REPLY_LEN) {
        c->held[c->nheld].pos = c->wait_pos;
        memcpy(c->held[c->nheld].text, msg, n + 1);
        c->nheld++;
        return;
    }
    coach_send_now(g, idx, msg);
}

/* what waits goes out (up to ring position pos, or all), and the socket is read again
 * once nothing does */
static void coach_release(ngw_t *g, int idx, uint32_t pos, int all)
{
    ngw_coach_t *c = coach_of(g, idx);
    int k = 0;
    while (k < c->nheld && (all || (int32_t)(pos - c->held[k].pos) >= 0))
        coach_send_now(g, idx, c->held[k++].text);
    memmove(c->held, c->held + k, (size_t)(c->nheld - k) * sizeof c->held[0]);
    c->nheld -= k;
    if (c->waiting && (all || (int32_t)(pos - c->wait_pos) >= 0)) {
        c->waiting = 0;
        ngw_conn_resume(g, idx);
    }
}

int ngw_coach_waiting(const ngw_t *g, int idx)
{
    return g->coach.c[idx - SHM_COACH_TRAINER].waiting;
}

void ngw_coach_ack(ngw_t *g, int idx, uint32_t pos)
{
    if (idx >= SHM_COACH_TRAINER && idx < SHM_MAX_CLIENTS && g->cl[idx].used)
        coach_release(g, idx, pos, 0);
}

void ngw_coach_wait_check(ngw_t *g)
{
    int64_t now = shm_now_ns();
    for (int idx = SHM_COACH_TRAINER; idx < SHM_MAX_CLIENTS; idx++) {
        ngw_coach_t *c = coach_of(g, idx);
        if (c->waiting && now - c->wait_ns > NGW_COACH_WAIT_NS) {
            log_warn("coach %d: the sim did not apply its command within %lld ms", idx,
                     NGW_COACH_WAIT_NS / 1000000LL);
            coach_release(g, idx, 0, 1);
        }
    }
}

int ngw_coach_take(ngw_t *g, int idx, int kind, double version, int side,
                   const struct sockaddr_storage *from, const char **err)
{
    shm_region_sh_t *r = g->r;
    if (shm_table_lock(r) < 0) {
        *err = E_FAILED;
        return -1;
    }
    shm_client_sh_t *e = &r->client[idx];
    if (atomic_load(&e->state) != CLIENT_ST_FREE) {
        shm_table_unlock(r);
        *err = kind == CLIENT_KIND_TRAINER ? "(error already_have_offline_coach)"
                                           : "(error already_have_coach)";
        return -1;
    }
    ngw_conn_entry_fresh(g, idx, kind, version, side, from);
    if (ngw_conn_attach(g, idx, 0) < 0) {
        shm_table_unlock(r);
        *err = E_FAILED;
        return -1;
    }
    e->local_port = (uint16_t)net_udp_local_port(g->cl[idx].fd);
    atomic_store_explicit(&e->state, CLIENT_ST_ACTIVE, memory_order_release);
    shm_table_unlock(r);
    /* a fresh session: what this process kept of an earlier one goes */
    ngw_coach_zip_free(g, idx);
    memset(&g->coach.c[idx - SHM_COACH_TRAINER], 0, sizeof g->coach.c[0]);
    ngw_snap_refresh(g);
    return 0;
}

int ngw_coach_push(ngw_t *g, int idx, shm_cmd_sh_t *c, const char *text, size_t len)
{
    c->recv_time = (uint32_t)(g->have_snap ? g->snap.time : 0);
    if (shm_cmd_push_text(&g->r->cmd[idx], c, text ? text : "", text ? len : 0) < 0) {
        log_warn("coach %d: command ring full, a record was dropped", idx);
        return -1;
    }
    if (c->kind != SHM_CMD_RAW) { /* applied at once by the sim: answers wait for it */
        ngw_coach_t *k = coach_of(g, idx);
        if (!k->waiting)
            k->wait_ns = shm_now_ns();
        k->waiting = 1;
        k->wait_pos = atomic_load_explicit(&g->r->cmd[idx].head, memory_order_relaxed);
        shm_sem_post(&g->r->hdr.done_sem); /* wake the sim */
    }
    return 0;
}

void ngw_coach_gone(ngw_t *g, int idx)
{
    const shm_client_sh_t *e = &g->r->client[idx];
    if (e->kind == CLIENT_KIND_TRAINER) {
        log_stdout("An offline coach disconnected");
    } else {
        char name[SHM_TEAM_NAME_LEN];
        memcpy(name, e->coach_name, sizeof name);
        name[sizeof name - 1] = '\0';
        log_stdout("An online coach disconnected : (%s%s%s)",
                   g->r->team[e->side == SHM_SIDE_RIGHT ? 1 : 0].name, name[0] ? " " : "", name);
    }
    ngw_conn_detach(g, idx, 1);
}

void ngw_coach_log(ngw_t *g, int idx, const char *text)
{
    /* for the text log, and for the game log's board-2 copies (record_messages) */
    if (!conf_bool(&g->conf, SP_text_logging)
        && !(conf_bool(&g->conf, SP_game_logging) && conf_bool(&g->conf, SP_record_messages)))
        return;
    shm_cmd_sh_t c;
    memset(&c, 0, sizeof c);
    c.kind = SHM_CMD_RAW;
    ngw_coach_push(g, idx, &c, text, strlen(text));
}

/* the team table's names (fresher than a snapshot's) */
static void coach_team_names_now(const ngw_t *g, char team[2][SHM_TEAM_NAME_LEN])
{
    for (int k = 0; k < 2; k++) {
        memset(team[k], 0, SHM_TEAM_NAME_LEN);
        if (g->r->team[k].used)
            memcpy(team[k], g->r->team[k].name, SHM_TEAM_NAME_LEN - 1);
    }
}

int ngw_coach_common(ngw_t *g, int idx, const coach_cmd_t *cmd)
{
    shm_client_sh_t *e = &g->r->client[idx];
    char msg[256];
    switch (cmd->kind) {
    case COACH_LOOK:
        if (ngw_snap_refresh(g) == 0
            && coach_visual(&g->snap, &g->conf, e->version, e->side, 1, g->out,
                            sizeof g->out) > 0)
            ngw_coach_send(g, idx, g->out);
        return 1;
    case COACH_TEAM_NAMES: {
        char team[2][SHM_TEAM_NAME_LEN];
        coach_team_names_now(g, team);
        if (coach_team_names(team, &g->conf, e->side, msg, sizeof msg) > 0)
            ngw_coach_send(g, idx, msg);
        return 1;
    }
    case COACH_CHECK_BALL:
        if (ngw_snap_refresh(g) == 0 && coach_check_ball(&g->snap, &g->conf, msg, sizeof msg) > 0)
            ngw_coach_send(g, idx, msg);
        return 1;
    case COACH_EYE:
        /* the reference decides whom it waits for when it sends (think): a coach that
         * turns its eye on now is first waited for (and thinks) in the next cycle */
        if (cmd->on && !e->eye_on) {
            g->cl[idx].since_step = atomic_load(&g->r->hdr.published);
            atomic_store(&e->done_step, g->cl[idx].since_step);
        }
        e->eye_on = cmd->on;
        ngw_coach_send(g, idx, cmd->reply);
        return 1;
    case COACH_DONE:
        shm_synch_done(g->r, idx, &g->done_hint);
        return 1;
    case COACH_COMPRESSION:
        /* the reply still plain, everything after it compressed (netgw_coachzip.c) */
        ngw_coach_send(g, idx, cmd->reply);
        e->compression = cmd->level >= 0 ? cmd->level + 1 : 0;
        return 1;
    default:
        return 0;
    }
}

void ngw_coach_datagram(ngw_t *g, int idx, char *buf, size_t n)
{
    static char plain[NGW_DGRAM_MAX * 4 + 1];
    shm_client_sh_t *e = &g->r->client[idx];
    e->last_recv_ns = shm_now_ns();
    if (e->compression > 0) {
        long len = ngw_coach_unzip(g, buf, n, plain, sizeof plain);
        if (len <= 0)
            return; /* not a zlib stream: ignored, as the reference */
        buf = plain;
        n = (size_t)len;
    }
    if (e->version >= 8.0 && buf[n - 1] != '\0')
        ngw_coach_send(g, idx, "(warning message_not_null_terminated)");
    buf[n] = '\0';
    ngw_coach_log(g, idx, buf);
    g->coach.replying = idx;
    if (e->kind == CLIENT_KIND_TRAINER)
        ngw_trainer_command(g, idx, buf);
    else
        ngw_olcoach_command(g, idx, buf);
    g->coach.replying = -1;
}

void ngw_coach_on_init_port(ngw_t *g, ngw_port_t *p, int idx, const char *text, size_t len,
                            const struct sockaddr_storage *from)
{
    static const char e_init_port[] = "(error only_init_allowed_on_init_port)";
    if (g->r->client[idx].version >= 8.0 || !g->cl[idx].used) {
        if (g->cl[idx].used)
            ngw_coach_send(g, idx, e_init_port);
        else
            ngw_udp_sendto(p->fd, from, e_init_port);
        return;
    }
    char buf[NGW_DGRAM_MAX + 1];
    size_t n = len < NGW_DGRAM_MAX ? len : NGW_DGRAM_MAX;
    memcpy(buf, text, n);
    ngw_coach_datagram(g, idx, buf, n);
}
