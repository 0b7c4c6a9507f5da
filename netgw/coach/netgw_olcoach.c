/* netgw_olcoach.c -- online coaches on server::olcoach_port (docs/protocol/coach.md
 * §2, §4, §7, §8): one per team, after (init TEAM [COACH] [(version V)]) for a team
 * that has a player; then say (the coach language from v7, raw freeform before) with
 * the message windows and freeform limits decided here at once, substitutions and the
 * goalie change decided by the sim (its reply comes back as SHM_EV_COACH_REPLY), team
 * graphic tiles before kick-off, bye. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "log.h"
#include "netgw.h"
#include "netgw_coachgw.h"
#include "netgw_conn.h"
#include "netgw_playergw.h"
#include "playmode.h"


static int coach_index(int side)
{
    return side == SHM_SIDE_LEFT ? SHM_COACH_LEFT : SHM_COACH_RIGHT;
}

/* ---- windows and limits ----------------------------------------------------------- */
/* The allowances of a team live in the region (r->coach[]), as the reference keeps them
 * per team whoever is connected. The reference refills them at the start of every step
 * whose time is clang_win_size cycles past the last refill, from the first step at time
 * 0 on: at 0, W, 2W, ... (at every step when W <= 0). They are used only in play_on,
 * where the step before snapshot t started at t - 1: the window of a message at t is
 * (t - 1) / W. */
static shm_coach_sh_t *olcoach_state(ngw_t *g, int idx)
{
    return &g->r->coach[idx == SHM_COACH_RIGHT ? 1 : 0];
}

static void olcoach_window(ngw_t *g, shm_coach_sh_t *st, int now)
{
    int size = conf_int(&g->conf, SP_clang_win_size);
    int last = now > 0 ? now - 1 : 0;
    int32_t win = (size > 0 ? last / size : last) + 1;
    if (st->clang_window == win)
        return;
    st->clang_window = win;
    st->clang_left[CLANG_DEFINE - 1] = conf_int(&g->conf, SP_clang_define_win);
    st->clang_left[CLANG_META - 1] = conf_int(&g->conf, SP_clang_meta_win);
    st->clang_left[CLANG_ADVICE - 1] = conf_int(&g->conf, SP_clang_advice_win);
    st->clang_left[CLANG_INFO - 1] = conf_int(&g->conf, SP_clang_info_win);
    st->clang_left[CLANG_DEL - 1] = conf_int(&g->conf, SP_clang_del_win);
    st->clang_left[CLANG_RULE - 1] = conf_int(&g->conf, SP_clang_rule_win);
}

/* freeform messages allowed by now: say_coach_cnt_max, and as many again every
 * nr_normal_halfs * half_time cycles (negative: unlimited) */
static int olcoach_ff_allowed(const ngw_t *g, int now)
{
    int max = conf_int(&g->conf, SP_say_coach_cnt_max);
    if (max <= 0)
        return max;
    int step = conf_int(&g->conf, SP_simulator_step);
    int half = step > 0 ? (int)(conf_real(&g->conf, SP_half_time) * 1000.0 / step + 0.5) : 0;
    int period = half * conf_int(&g->conf, SP_nr_normal_halfs);
    return period > 0 && now > 0 ? max * (1 + now / period) : max;
}

/* freeform outside play_on, or in play_on for freeform_send_period cycles after every
 * freeform_wait_period cycles of it */
static int olcoach_ff_now(const ngw_t *g)
{
    if (g->snap.play_mode != PM_PLAY_ON)
        return 1;
    int wait = conf_int(&g->conf, SP_freeform_wait_period);
    int period = g->snap.time - g->coach.playon_start;
    if (wait > 0 && period > wait)
        return period % wait < conf_int(&g->conf, SP_freeform_send_period);
    return 0;
}

static const char *window_error(int type)
{
    switch (type) {
    case CLANG_META:   return "(error said_too_many_meta_messages)";
    case CLANG_INFO:   return "(error said_too_many_info_messages)";
    case CLANG_ADVICE: return "(error said_too_many_advice_messages)";
    case CLANG_DEFINE: return "(error said_too_many_define_messages)";
    case CLANG_DEL:    return "(error said_too_many_del_messages)";
    default:           return "(error said_too_many_rule_messages)";
    }
}

/* (say ...) from v7: a parsed coach-language message */
static void olcoach_say_clang(ngw_t *g, int idx, const coach_cmd_t *cmd)
{
    shm_coach_sh_t *st = olcoach_state(g, idx);
    int now = g->snap.time, type = cmd->clang.type;
    if (type == CLANG_UNSUPP)
        return; /* the reference has no case for it: no reply, nothing said */
    if (type == CLANG_FREEFORM) {
        if (!olcoach_ff_now(g)) {
            ngw_coach_send(g, idx, "(error cannot_say_freeform_while_playon)");
            return;
        }
        int allowed = olcoach_ff_allowed(g, now);
        if (allowed >= 0 && st->freeform_said >= allowed) {
            ngw_coach_send(g, idx, "(error said_too_many_freeform_messages)");
            return;
        }
        st->freeform_said++;
    } else if (g->snap.play_mode == PM_PLAY_ON) {
        olcoach_window(g, st, now);
        if (st->clang_left[type - 1] <= 0) {
            ngw_coach_send(g, idx, window_error(type));
            return;
        }
        st->clang_left[type - 1]--;
    }
    shm_cmd_sh_t rec;
    memset(&rec, 0, sizeof rec);
    rec.kind = SHM_CMD_CLANG;
    rec.i = (int32_t)((cmd->clang.min_ver & 0xffu) | (cmd->clang.max_ver & 0xffu) << 8);
    rec.flags = (uint32_t)type;
    if (ngw_coach_push(g, idx, &rec, cmd->text, cmd->len) < 0) {
        ngw_coach_send(g, idx, "(error message_queue_full)");
        return;
    }
    ngw_coach_send(g, idx, "(ok say)");
}

/* (say TEXT) before v7: freeform outside play_on only */
static void olcoach_say_raw(ngw_t *g, int idx, const coach_cmd_t *cmd)
{
    shm_coach_sh_t *st = olcoach_state(g, idx);
    if (g->snap.play_mode == PM_PLAY_ON) {
        ngw_coach_send(g, idx, "(warning cannot_say_while_playon)");
        return;
    }
    int allowed = olcoach_ff_allowed(g, g->snap.time);
    if (allowed >= 0 && st->freeform_said >= allowed) {
        ngw_coach_send(g, idx, "(error said_too_many_messages)");
        return;
    }
    if (cmd->bad) {
        ngw_coach_send(g, idx, cmd->reply);
        return;
    }
    st->freeform_said++;
    shm_cmd_sh_t rec;
    memset(&rec, 0, sizeof rec);
    rec.kind = SHM_CMD_COACH_SAY;
    if (ngw_coach_push(g, idx, &rec, cmd->text, cmd->len) == 0)
        ngw_coach_send(g, idx, "(ok say)");
}

static void olcoach_team_graphic(ngw_t *g, int idx, const coach_cmd_t *cmd)
{
    if (g->snap.play_mode != PM_BEFORE_KICK_OFF) {
        ngw_coach_send(g, idx, "(warning only_before_kick_off)");
        return;
    }
    if (cmd->bad) {
        ngw_coach_send(g, idx, cmd->reply);
        return;
    }
    if (cmd->tx >= 32 || cmd->ty >= 8) /* the tile is still taken, as the reference */
        ngw_coach_send(g, idx, "(warning invalid_tile_location)");
    if (!cmd->xpm_ok) {
        ngw_coach_send(g, idx, "(error invalid_xpm_data)");
        return;
    }
    if (cmd->xw != 8 || cmd->xh != 8) {
        ngw_coach_send(g, idx, "(warning invalid_tile_size)");
        return;
    }
    char *text = g->coach.out;
    int n = snprintf(text, sizeof g->coach.out, "%u %u %s", cmd->tx, cmd->ty, cmd->text);
    shm_cmd_sh_t rec;
    memset(&rec, 0, sizeof rec);
    rec.kind = SHM_CMD_TEAM_GRAPHIC;
    if (n < 0 || (size_t)n >= sizeof g->coach.out
        || ngw_coach_push(g, idx, &rec, text, (size_t)n) < 0) {
        ngw_coach_send(g, idx, "(error invalid_xpm_data)");
        return;
    }
    char msg[64];
    snprintf(msg, sizeof msg, "(ok team_graphic %u %u)", cmd->tx, cmd->ty);
    ngw_coach_send(g, idx, msg);
}

void ngw_olcoach_command(ngw_t *g, int idx, const char *text)
{
    coach_cmd_t *cmd = &g->coach.cmd;
    shm_client_sh_t *e = &g->r->client[idx];
    coach_parse_olcoach(text, e->version, conf_int(&g->conf, SP_say_coach_msg_size),
                        &g->coach.clang, cmd);
    if (ngw_coach_common(g, idx, cmd))
        return;
    ngw_snap_refresh(g);
    shm_cmd_sh_t rec;
    memset(&rec, 0, sizeof rec);
    switch (cmd->kind) {
    case COACH_SAY:
        if (e->version >= 7.0)
            olcoach_say_clang(g, idx, cmd);
        else
            olcoach_say_raw(g, idx, cmd);
        return;
    case COACH_CHANGE_TYPE:
        rec.kind = SHM_CMD_CHANGE_TYPE;
        rec.flags = cmd->unum >= 0 && cmd->unum <= 255 ? (uint32_t)cmd->unum : 0u;
        rec.d[0] = cmd->type;
        ngw_coach_push(g, idx, &rec, NULL, 0); /* the sim replies */
        return;
    case COACH_GOALIE:
        rec.kind = SHM_CMD_GOALIE;
        rec.flags = cmd->unum >= 0 && cmd->unum <= 255 ? (uint32_t)cmd->unum : 0u;
        ngw_coach_push(g, idx, &rec, NULL, 0);
        return;
    case COACH_TEAM_GRAPHIC:
        olcoach_team_graphic(g, idx, cmd);
        return;
    case COACH_BYE:
        ngw_coach_gone(g, idx);
        return;
    default:
        if (cmd->reply[0])
            ngw_coach_send(g, idx, cmd->reply);
        return;
    }
}

/* ---- init ----------------------------------------------------------------------- */
/* the (change_player_type ...) and (clang (ver ...)) a new coach gets after its params */
static void olcoach_welcome(ngw_t *g, int idx)
{
    shm_client_sh_t *e = &g->r->client[idx];
    ngw_coach_t *c = &g->coach.c[idx - SHM_COACH_TRAINER];
    if (e->version < 8.0 || ngw_snap_refresh(g) < 0)
        return;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const shm_client_sh_t *p = &g->r->client[i];
        if (atomic_load(&p->state) != CLIENT_ST_ACTIVE || (p->clang_min == 0 && p->clang_max == 0))
            continue;
        char name[64], msg[128];
        shm_player_sh_t pl = g->snap.player[i];
        pl.side = (int8_t)p->side;
        pl.unum = (int8_t)p->unum;
        pl.goalie = (int8_t)p->goalie;
        char team[2][SHM_TEAM_NAME_LEN];
        for (int k = 0; k < 2; k++)
            memcpy(team[k], g->r->team[k].name, SHM_TEAM_NAME_LEN);
        /* the players' own names, even the opponents' */
        if (coach_player_name(&pl, team, &g->conf, 7.0, SHM_SIDE_NONE, name, sizeof name) < 0)
            continue;
        snprintf(msg, sizeof msg, "(clang (ver %s %d %d))", name, p->clang_min, p->clang_max);
        ngw_coach_send(g, idx, msg);
        c->clang_sent[i][0] = p->clang_min;
        c->clang_sent[i][1] = p->clang_max;
    }
}

/* v11+: (include SIZE <contents of server::coach_msg_file>) when the file is set; the
 * reference reads it at every connection and refuses one that would not fit a
 * datagram with its frame (8192 - strlen("(include 8192 )") bytes or more) */
static void olcoach_include(ngw_t *g, int idx)
{
    const char *path = conf_str(&g->conf, SP_coach_msg_file);
    if (!path[0] || g->r->client[idx].version < 11.0)
        return;
    FILE *f = fopen(path, "rb");
    if (!f) {
        log_warn("coach_msg_file %s cannot be opened", path);
        return;
    }
    static char text[NGW_DGRAM_MAX + 32];
    const size_t max = NGW_DGRAM_MAX - strlen("(include 8192 )");
    int head = snprintf(text, sizeof text, "(include ");
    size_t n = fread(text + head + 16, 1, max, f);
    fclose(f);
    if (n == 0 || n >= max) {
        log_warn("coach_msg_file %s is %s", path, n == 0 ? "empty" : "too large");
        return;
    }
    /* the size, then the contents moved up behind it */
    int sz = snprintf(text + head, 16, "%zu ", n);
    memmove(text + head + sz, text + head + 16, n);
    text[head + sz + n] = ')';
    text[head + sz + n + 1] = '\0';
    log_stdout("send external message in [%s]", path);
    ngw_coach_send(g, idx, text);
}

void ngw_olcoach_port(ngw_t *g, ngw_port_t *p, const char *text, size_t len,
                      const struct sockaddr_storage *from)
{
    for (int s = 0; s < 2; s++) {
        int idx = s == 0 ? SHM_COACH_LEFT : SHM_COACH_RIGHT;
        const shm_client_sh_t *e = &g->r->client[idx];
        if (atomic_load(&e->state) != CLIENT_ST_ACTIVE || !ngw_addr_equal_entry(from, e))
            continue;
        ngw_coach_on_init_port(g, p, idx, text, len, from);
        return;
    }
    char team[SHM_TEAM_NAME_LEN], coach[SHM_TEAM_NAME_LEN], err[COACH_REPLY_LEN];
    double version;
    if (coach_parse_olcoach_init(text, team, sizeof team, coach, sizeof coach, &version, err,
                                 sizeof err) < 0) {
        ngw_udp_sendto(p->fd, from, err);
        return;
    }
    int side = SHM_SIDE_NONE;
    for (int k = 0; k < 2; k++) {
        if (g->r->team[k].used && strcmp(g->r->team[k].name, team) == 0)
            side = k == 0 ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
    }
    if (side == SHM_SIDE_NONE) {
        ngw_udp_sendto(p->fd, from, "(error no_such_team)");
        return;
    }
    int idx = coach_index(side);
    if (atomic_load(&g->r->client[idx].state) != CLIENT_ST_FREE) {
        ngw_udp_sendto(p->fd, from, "(error already_have_coach)");
        return;
    }
    if ((int)floor(version) > 19) {
        ngw_udp_sendto(p->fd, from, "(error illegal_client_version)");
        return;
    }
    const char *why = NULL;
    if (ngw_coach_take(g, idx, CLIENT_KIND_OLCOACH, version, side, from, &why) < 0) {
        ngw_udp_sendto(p->fd, from, why);
        return;
    }
    shm_client_sh_t *e = &g->r->client[idx];
    memcpy(e->coach_name, coach, sizeof e->coach_name);
    char msg[32];
    if (version >= 6.0)
        snprintf(msg, sizeof msg, "(init %c ok)", side == SHM_SIDE_LEFT ? 'l' : 'r');
    else
        snprintf(msg, sizeof msg, "(init ok)");
    ngw_coach_send(g, idx, msg);
    ngw_params_send(g, idx);
    olcoach_welcome(g, idx);
    olcoach_include(g, idx);
    ngw_coach_log(g, idx, text);
    log_stdout("A new (v%d) online coach (%s) connected.", (int)version, team);
    log_debug("online coach of %s on port %d", team, e->local_port);
}
