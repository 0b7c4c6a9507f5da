/* netgw_trainer.c -- the trainer (offline coach) on server::coach_port (see
 * docs/protocol/coach.md §1-§3): served only with server::coach or coach_w_referee, one
 * at a time, on its own socket after (init [(version V)]); a first datagram that is not
 * an init kicks off and is carried out without registering the sender, as the
 * reference. Commands that change the world (start, change_mode, move, recover, say,
 * change_player_type) become records in the trainer's ring, which the sim applies at
 * once; their replies wait for its acknowledgement (netgw_coach.c), so they follow
 * the effect and what it made the referee say, as with the reference. The replies
 * that need no world state go out at once. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "log.h"
#include "netgw.h"
#include "netgw_coachgw.h"
#include "netgw_conn.h"
#include "netgw_playergw.h"

#define E_NO_COACH_MODE "(error connected_offline_coach_without_coach_mode)"
#define E_VERSION       "(error illegal_client_version)"

static int trainer_allowed(const ngw_t *g)
{
    return conf_bool(&g->conf, SP_coach) || conf_bool(&g->conf, SP_coach_w_referee);
}

/* side of a team name, 0 if no team has it */
static int trainer_side(const ngw_t *g, const char *team)
{
    for (int k = 0; k < 2; k++) {
        if (g->r->team[k].used && strcmp(g->r->team[k].name, team) == 0)
            return k == 0 ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
    }
    return SHM_SIDE_NONE;
}

/* the world part of a trainer command as a record; 1 if one was made */
static int trainer_record(const ngw_t *g, const coach_cmd_t *cmd, shm_cmd_sh_t *c)
{
    memset(c, 0, sizeof *c);
    switch (cmd->kind) {
    case COACH_START:
        c->kind = SHM_CMD_START;
        return 1;
    case COACH_CHANGE_MODE:
        c->kind = SHM_CMD_CHANGE_MODE;
        c->i = cmd->mode;
        return 1;
    case COACH_RECOVER:
        c->kind = SHM_CMD_RECOVER;
        return 1;
    case COACH_RESET:
        c->kind = SHM_CMD_RESET;
        return 1;
    case COACH_MOVE:
        memcpy(c->d, cmd->d, sizeof c->d);
        if (cmd->ball) { /* x y vx vy: the direction is ignored */
            c->kind = SHM_CMD_MOVE_BALL;
            c->flags = cmd->nnum == 5 ? 1u : 0u;
            c->d[2] = cmd->nnum == 5 ? cmd->d[3] : 0.0;
            c->d[3] = cmd->nnum == 5 ? cmd->d[4] : 0.0;
            c->d[4] = 0.0;
            return 1;
        }
        c->kind = SHM_CMD_MOVE_PLAYER;
        c->i = trainer_side(g, cmd->team); /* an unknown team is still "(ok move)" */
        {
            unsigned what = cmd->nnum == 2 ? 0x3u : cmd->nnum == 3 ? 0x7u : 0x1fu;
            c->flags = (uint32_t)cmd->unum | what << 8 | 1u << 13; /* keep the velocity */
        }
        return 1;
    case COACH_CHANGE_TYPE:
        c->kind = SHM_CMD_CHANGE_TYPE;
        c->i = trainer_side(g, cmd->team);
        c->flags = cmd->unum >= 0 && cmd->unum <= 255 ? (uint32_t)cmd->unum : 0u;
        c->d[0] = cmd->type;
        return 1;
    case COACH_SAY:
        c->kind = SHM_CMD_COACH_SAY;
        return 1;
    default:
        return 0;
    }
}

void ngw_trainer_command(ngw_t *g, int idx, const char *text)
{
    coach_cmd_t *cmd = &g->coach.cmd;
    shm_client_sh_t *e = &g->r->client[idx];
    coach_parse_trainer(text, conf_int(&g->conf, SP_say_coach_msg_size), cmd);
    if (ngw_coach_common(g, idx, cmd))
        return;
    switch (cmd->kind) {
    case COACH_EAR:
        e->trainer_ear = cmd->on;
        break;
    case COACH_CHANGE_TYPE:
        if (trainer_side(g, cmd->team) == SHM_SIDE_NONE) {
            ngw_coach_send(g, idx, "(warning no_team_found)");
            return;
        }
        break;
    default:
        break;
    }
    shm_cmd_sh_t c;
    if (trainer_record(g, cmd, &c))
        ngw_coach_push(g, idx, &c, cmd->text, cmd->len);
    if (cmd->reply[0])
        ngw_coach_send(g, idx, cmd->reply);
}

/* A first datagram that is not an init: the reference kicks off and carries the
 * command out for nobody (its replies reach no one). */
static void trainer_unregistered(ngw_t *g, const char *text)
{
    coach_cmd_t *cmd = &g->coach.cmd;
    shm_cmd_sh_t c;
    memset(&c, 0, sizeof c);
    c.kind = SHM_CMD_START;
    shm_ctrl_push(&g->self->ctrl, &c);
    coach_parse_trainer(text, conf_int(&g->conf, SP_say_coach_msg_size), cmd);
    if (cmd->kind == COACH_CHANGE_TYPE && trainer_side(g, cmd->team) == SHM_SIDE_NONE)
        return;
    if (trainer_record(g, cmd, &c)) {
        size_t n = cmd->len < SHM_CMD_TEXT_LEN - 1 ? cmd->len : SHM_CMD_TEXT_LEN - 1;
        memcpy(c.text, cmd->text, n);
        c.len = (uint16_t)n;
        shm_ctrl_push(&g->self->ctrl, &c);
    }
    shm_sem_post(&g->r->hdr.done_sem); /* the sim applies them at once */
}

void ngw_trainer_port(ngw_t *g, ngw_port_t *p, const char *text, size_t len,
                      const struct sockaddr_storage *from)
{
    if (!trainer_allowed(g)) {
        ngw_udp_sendto(p->fd, from, E_NO_COACH_MODE);
        return;
    }
    const int idx = SHM_COACH_TRAINER;
    shm_client_sh_t *e = &g->r->client[idx];
    if (atomic_load(&e->state) == CLIENT_ST_ACTIVE && ngw_addr_equal_entry(from, e)) {
        ngw_coach_on_init_port(g, p, idx, text, len, from);
        return;
    }
    if (atomic_load(&e->state) != CLIENT_ST_FREE) {
        ngw_udp_sendto(p->fd, from, "(error already_have_offline_coach)");
        return;
    }
    char err[COACH_REPLY_LEN];
    double version;
    int rc = coach_parse_trainer_init(text, &version, err, sizeof err);
    if (rc < 0) {
        ngw_udp_sendto(p->fd, from, err);
        return;
    }
    if (rc == 0) {
        trainer_unregistered(g, text);
        return;
    }
    if ((int)floor(version) > 19) {
        ngw_udp_sendto(p->fd, from, E_VERSION);
        return;
    }
    const char *why = NULL;
    if (ngw_coach_take(g, idx, CLIENT_KIND_TRAINER, version, SHM_SIDE_NONE, from, &why) < 0) {
        ngw_udp_sendto(p->fd, from, why);
        return;
    }
    ngw_coach_send(g, idx, "(init ok)");
    ngw_params_send(g, idx);
    ngw_coach_log(g, idx, text);
    log_stdout("A new (v%g) offline coach connected", version);
    log_debug("trainer on port %d", e->local_port);
}
