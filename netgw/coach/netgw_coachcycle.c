/* netgw_coachcycle.c -- coach traffic this gateway delivers, from the sim's events and
 * once per published snapshot: replies the sim decided (substitutions, goalie), the
 * substitution and goalie notices players and coaches get, what coaches hear (referee,
 * trainer, players; the trainer only with its ear on), what players hear of coaches
 * (coach-language messages of their own coach after clang_mess_delay, or
 * (unsupported_clang) if their clang range does not cover the message; the trainer's and
 * v<7 coaches' says), and for coaches with the eye on see_global at every coach-visual
 * poll of the timer (every send_vi_step) and (think) in synch mode. Called from
 * netgw_cycle.c. */
#include <stdio.h>
#include <string.h>
#include "netgw.h"
#include "netgw_coachgw.h"
#include "netgw_conn.h"
#include "playmode.h"

/* a client this gateway serves, ACTIVE in the table */
static int served(const ngw_t *g, int idx)
{
    return g->cl[idx].used && atomic_load(&g->r->client[idx].state) == CLIENT_ST_ACTIVE;
}

static int trainer_hears(const ngw_t *g)
{
    const shm_client_sh_t *e = &g->r->client[SHM_COACH_TRAINER];
    return served(g, SHM_COACH_TRAINER) && e->trainer_ear
        && (conf_bool(&g->conf, SP_coach) || conf_bool(&g->conf, SP_coach_w_referee));
}

static void send_players(ngw_t *g, int side_only, const char *own, const char *other,
                         double min_version)
{
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (!served(g, idx) || !g->snap.player[idx].enabled)
            continue;
        const shm_client_sh_t *e = &g->r->client[idx];
        if (e->version < min_version)
            continue;
        int mine = side_only == SHM_SIDE_NONE || e->side == side_only;
        const char *msg = mine ? own : other;
        if (msg)
            ngw_udp_send(g->cl[idx].fd, msg);
    }
}

/* ---- events ------------------------------------------------------------------------ */
static void ev_change_type(ngw_t *g, const shm_event_sh_t *ev)
{
    char own[64], other[64];
    int goalie = ev->arg < 0;
    double v = goalie ? 16.0 : 7.0;
    if (goalie) {
        coach_notice_goalie(ev->side, ev->unum, own, sizeof own);
        snprintf(other, sizeof other, "%s", own);
        int idx = shm_player_index(ev->side, ev->unum);
        if (idx >= 0 && idx < SHM_MAX_PLAYERS && served(g, idx)
            && shm_table_lock(g->r) == 0) { /* its entry keeps the flag over reconnects */
            g->r->client[idx].goalie = 1;
            shm_table_unlock(g->r);
        }
    } else {
        coach_notice_type(1, ev->unum, ev->arg, own, sizeof own);
        coach_notice_type(0, ev->unum, ev->arg, other, sizeof other);
    }
    send_players(g, ev->side, own, other, v);
    for (int idx = SHM_COACH_LEFT; idx <= SHM_COACH_RIGHT; idx++) {
        const shm_client_sh_t *e = &g->r->client[idx];
        if (served(g, idx) && e->version >= v)
            ngw_coach_send(g, idx, e->side == ev->side ? own : other);
    }
}

static void ev_reply(ngw_t *g, const shm_event_sh_t *ev, const char *text)
{
    int idx = ev->side == SHM_SIDE_LEFT ? SHM_COACH_LEFT
            : ev->side == SHM_SIDE_RIGHT ? SHM_COACH_RIGHT : SHM_COACH_TRAINER;
    if (served(g, idx))
        ngw_coach_send(g, idx, text);
}

static void ev_clang(ngw_t *g, const shm_event_sh_t *ev, const char *text)
{
    uint32_t min = (uint32_t)ev->arg & 0xffu, max = ((uint32_t)ev->arg >> 8) & 0xffu;
    char *buf = g->coach.out;
    size_t len = sizeof g->coach.out;
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (!served(g, idx) || !g->snap.player[idx].enabled)
            continue;
        const shm_client_sh_t *e = &g->r->client[idx];
        if (e->side != ev->side)
            continue;
        int ok = clang_supported(min, max, (uint32_t)e->clang_min, (uint32_t)e->clang_max);
        if (coach_hear_clang_player(ev->side, ev->time, text, ok, buf, len) > 0)
            ngw_udp_send(g->cl[idx].fd, buf);
    }
    if (trainer_hears(g)) {
        const shm_client_sh_t *t = &g->r->client[SHM_COACH_TRAINER];
        if (coach_hear_clang_trainer(t->version, ev->side, ev->time, text, buf, len) > 0)
            ngw_coach_send(g, SHM_COACH_TRAINER, buf);
    }
}

/* a trainer say (side 0) or a v<7 coach's freeform: the coaches (players hear it
 * through netgw_audio.c: at once before v8, at the start of the next cycle from v8) */
static void ev_coach_say(ngw_t *g, const shm_event_sh_t *ev, const char *text)
{
    char *buf = g->coach.out;
    size_t len = sizeof g->coach.out;
    for (int idx = SHM_COACH_TRAINER; idx < SHM_MAX_CLIENTS; idx++) {
        if (!served(g, idx) || (idx == SHM_COACH_TRAINER && !trainer_hears(g)))
            continue;
        int who = idx == SHM_COACH_TRAINER ? COACH_TRAINER : COACH_ONLINE;
        if (coach_hear_coach_say(who, g->r->client[idx].version, ev->side, ev->time, text, buf,
                                 len) > 0)
            ngw_coach_send(g, idx, buf);
    }
}

static void ev_referee(ngw_t *g, const shm_event_sh_t *ev, const char *text)
{
    char buf[SHM_EVENT_TEXT_LEN + 64];
    for (int idx = SHM_COACH_TRAINER; idx < SHM_MAX_CLIENTS; idx++) {
        if (!served(g, idx) || (idx == SHM_COACH_TRAINER && !trainer_hears(g)))
            continue;
        int who = idx == SHM_COACH_TRAINER ? COACH_TRAINER : COACH_ONLINE;
        if (coach_hear_referee(who, g->r->client[idx].version, ev->time, text, buf,
                               sizeof buf) > 0)
            ngw_coach_send(g, idx, buf);
    }
}

/* a player's say: the trainer (ear on) and both online coaches hear it */
static void ev_player_say(ngw_t *g, const shm_event_sh_t *ev, const char *text)
{
    int p = shm_player_index(ev->side, ev->unum);
    if (p < 0 || p >= SHM_MAX_PLAYERS)
        return;
    shm_player_sh_t pl = g->snap.player[p];
    pl.side = ev->side;
    pl.unum = ev->unum;
    char buf[SHM_EVENT_TEXT_LEN + 128], name[64];
    for (int idx = SHM_COACH_TRAINER; idx < SHM_MAX_CLIENTS; idx++) {
        if (!served(g, idx) || (idx == SHM_COACH_TRAINER && !trainer_hears(g)))
            continue;
        const shm_client_sh_t *e = &g->r->client[idx];
        int who = idx == SHM_COACH_TRAINER ? COACH_TRAINER : COACH_ONLINE;
        if (coach_player_name(&pl, g->snap.team, &g->conf, e->version, e->side, name,
                              sizeof name) < 0)
            continue;
        if (coach_hear_player(who, e->version, ev->time, name, text, buf, sizeof buf) > 0)
            ngw_coach_send(g, idx, buf);
    }
}

void ngw_coach_event(ngw_t *g, const shm_event_sh_t *ev)
{
    int len = ev->len < 0 ? 0 : ev->len > SHM_EVENT_TEXT_LEN ? SHM_EVENT_TEXT_LEN : ev->len;
    shm_text_t *t = &g->coach.ev;
    if (!shm_text_feed(t, ev->kind == SHM_EV_CONT, ev->text, (size_t)len))
        return;
    switch (ev->kind) {
    case SHM_EV_REFEREE:      ev_referee(g, ev, t->buf); break;
    case SHM_EV_SAY:          ev_player_say(g, ev, t->buf); break;
    case SHM_EV_COACH_SAY:
    case SHM_EV_TRAINER_SAY:  ev_coach_say(g, ev, t->buf); break;
    case SHM_EV_CLANG:        ev_clang(g, ev, t->buf); break;
    case SHM_EV_CHANGE_TYPE:  ev_change_type(g, ev); break;
    case SHM_EV_COACH_REPLY:  ev_reply(g, ev, t->buf); break;
    case SHM_EV_ACK:
        if (ev->side == 0)
            ngw_coach_ack(g, ev->unum, (uint32_t)ev->arg);
        break;
    default:                  break;
    }
}

/* ---- per snapshot --------------------------------------------------------------------- */
/* (clang (ver (p "T" N) MIN MAX)) to a v8+ coach when a teammate announced a range */
static void step_clang_notices(ngw_t *g, int idx)
{
    const shm_client_sh_t *e = &g->r->client[idx];
    ngw_coach_t *c = &g->coach.c[idx - SHM_COACH_TRAINER];
    if (e->version < 8.0)
        return;
    for (int k = 0; k < SHM_TEAM_SIZE; k++) {
        int i = shm_player_index(e->side, k + 1);
        const shm_client_sh_t *p = &g->r->client[i];
        if (atomic_load(&p->state) != CLIENT_ST_ACTIVE || (p->clang_min == 0 && p->clang_max == 0)
            || (c->clang_sent[i][0] == p->clang_min && c->clang_sent[i][1] == p->clang_max))
            continue;
        c->clang_sent[i][0] = p->clang_min;
        c->clang_sent[i][1] = p->clang_max;
        shm_player_sh_t pl = g->snap.player[i];
        pl.side = (int8_t)p->side;
        pl.unum = (int8_t)p->unum;
        pl.goalie = (int8_t)p->goalie;
        char name[64], msg[128];
        if (coach_player_name(&pl, g->snap.team, &g->conf, 7.0, SHM_SIDE_NONE, name,
                              sizeof name) < 0)
            continue;
        snprintf(msg, sizeof msg, "(clang (ver %s %d %d))", name, p->clang_min, p->clang_max);
        ngw_coach_send(g, idx, msg);
    }
}

void ngw_coach_step(ngw_t *g)
{
    ngw_coaches_t *cs = &g->coach;
    if (g->snap.play_mode == PM_PLAY_ON && cs->last_mode != PM_PLAY_ON)
        cs->playon_start = cs->last_time; /* the cycle the mode changed in */
    cs->last_mode = g->snap.play_mode;
    cs->last_time = g->snap.time;
    for (int idx = SHM_COACH_LEFT; idx <= SHM_COACH_RIGHT; idx++) {
        if (served(g, idx) && g->r->client[idx].kind == CLIENT_KIND_OLCOACH)
            step_clang_notices(g, idx);
    }
}

void ngw_coach_visual(ngw_t *g)
{
    for (int idx = SHM_COACH_TRAINER; idx < SHM_MAX_CLIENTS; idx++) {
        const shm_client_sh_t *e = &g->r->client[idx];
        if (served(g, idx) && e->eye_on
            && coach_visual(&g->snap, &g->conf, e->version, e->side, 0, g->out,
                            sizeof g->out) > 0)
            ngw_coach_send(g, idx, g->out);
    }
}

void ngw_coach_think(ngw_t *g)
{
    /* the online coaches, then the trainer, as the reference */
    static const int order[3] = { SHM_COACH_LEFT, SHM_COACH_RIGHT, SHM_COACH_TRAINER };
    for (int k = 0; k < 3; k++) {
        const shm_client_sh_t *e = &g->r->client[order[k]];
        if (served(g, order[k]) && e->eye_on && g->cl[order[k]].since_step < g->snap.step)
            ngw_coach_send(g, order[k], "(think)");
    }
}
