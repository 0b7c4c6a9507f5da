/* netgw_audio.c -- what the players this gateway serves hear (docs/protocol/player.md §7),
 * from the sim's events: referee messages at once; another player's say at once for a
 * v1-v7 listener (if within audio_cut_dist and its capacity for the speaker's team
 * allows), or cached for a v8+ listener and released at the start of the next cycle
 * right after its sense_body (own says first, then the others one at a time: the
 * attention target's first, otherwise at random, each in full if the capacity allows
 * and complete hearing of that team is on, else in the partial form if that is on);
 * coach and trainer says at once for v1-v7, before a v8+ listener's own says at the
 * next cycle. Capacities (hear_max / hear_inc / hear_decay) are kept here per listener,
 * refilled once per snapshot; the sim's hear_cap is not used. The sim's replies to one
 * player (SHM_EV_PLAYER_REPLY) are sent to it. Positions "at say time" are those of the
 * snapshot before the one the say event came with (the sim applied the say in that
 * world). A restarted gateway starts with full capacities and empty caches. */
#include <stdio.h>
#include <string.h>
#include "geom.h"
#include "log.h"
#include "netgw.h"
#include "netgw_conn.h"
#include "netgw_playergw.h"
#include "netgw_proto.h"

#define AUDIO_LINE (COACH_TEXT_MAX + 128)

static int audio_listener(const ngw_t *g, int idx)
{
    return idx >= 0 && idx < SHM_MAX_PLAYERS && g->cl[idx].used
        && atomic_load(&g->r->client[idx].state) == CLIENT_ST_ACTIVE
        && g->snap.player[idx].enabled;
}

/* position and body of player i when the say was made */
static void audio_then(const ngw_t *g, int i, double *x, double *y, double *body)
{
    const shm_player_sh_t *p = &g->snap.player[i];
    const ngw_audio_t *a = &g->audio;
    *x = a->have_prev ? a->prev_x[i] : p->x;
    *y = a->have_prev ? a->prev_y[i] : p->y;
    *body = a->have_prev ? a->prev_body[i] : p->body;
}

static void audio_send(ngw_t *g, int idx, const char *line)
{
    ngw_udp_send(g->cl[idx].fd, line);
}

static int audio_team(const shm_client_sh_t *e, int speaker_side)
{
    return e->side == speaker_side ? 0 : 1; /* 0 teammates, 1 opponents */
}

/* ---- player says ---------------------------------------------------------------------- */
static void audio_cache(ngw_t *g, int idx, int speaker, const char *text)
{
    ngw_ear_t *ear = &g->cl[idx].ear;
    if (ear->n >= NGW_HEAR_QUEUE) {
        ear->dropped++;
        return;
    }
    ngw_heard_t *h = &ear->q[ear->n++];
    h->speaker = speaker;
    size_t n = strnlen(text, sizeof h->text - 1);
    memcpy(h->text, text, n);
    h->text[n] = '\0';
}

/* one listener, one say of player sp made at (sx, sy) */
static void audio_say_to(ngw_t *g, int idx, int sp, const shm_event_sh_t *ev, const char *text)
{
    static char line[AUDIO_LINE];
    const shm_client_sh_t *e = &g->r->client[idx];
    if (idx == sp) { /* own message: never limited */
        if (e->version >= 8.0)
            audio_cache(g, idx, sp, text);
        else if (proto_hear_self(e->version, ev->time, text, line, sizeof line) > 0)
            audio_send(g, idx, line);
        return;
    }
    double lx, ly, lbody;
    audio_then(g, idx, &lx, &ly, &lbody);
    double cut = conf_real(&g->conf, SP_audio_cut_dist);
    vec2_t rel = vec2(ev->x - lx, ev->y - ly);
    if (vec2_dot(rel, rel) > cut * cut)
        return;
    int team = audio_team(e, ev->side);
    if (e->version >= 8.0) {
        /* hearing all off for that team: never cached */
        if (e->ear_on[team] || e->ear_partial[team])
            audio_cache(g, idx, sp, text);
        return;
    }
    ngw_ear_t *ear = &g->cl[idx].ear;
    int decay = conf_int(&g->conf, SP_hear_decay);
    if (ear->cap[team] < decay)
        return;
    double dir = vec2_angle(rel) - lbody;
    if (proto_hear_say_now(e->version, ev->time, dir, text, line, sizeof line) > 0)
        audio_send(g, idx, line);
    ear->cap[team] -= decay;
}

static void audio_say(ngw_t *g, const shm_event_sh_t *ev, const char *text)
{
    int sp = shm_player_index(ev->side, ev->unum);
    if ((ev->side != SHM_SIDE_LEFT && ev->side != SHM_SIDE_RIGHT) || ev->unum < 1
        || ev->unum > SHM_TEAM_SIZE)
        return;
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (audio_listener(g, idx))
            audio_say_to(g, idx, sp, ev, text);
    }
}

/* ---- coach and trainer says, referee, replies ------------------------------------------- */
static void audio_coach(ngw_t *g, const shm_event_sh_t *ev, const char *text)
{
    static char line[AUDIO_LINE];
    int side = ev->kind == SHM_EV_TRAINER_SAY ? SHM_SIDE_NONE : ev->side;
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (!audio_listener(g, idx) || g->r->client[idx].version >= 8.0)
            continue;
        if (proto_hear_coach(g->r->client[idx].version, side, ev->time, text, line,
                             sizeof line) > 0)
            audio_send(g, idx, line);
    }
    ngw_audio_t *a = &g->audio;
    if (a->ncoach >= NGW_COACH_SAYS)
        return;
    a->coach_side[a->ncoach] = side;
    size_t n = strnlen(text, sizeof a->coach_text[0] - 1);
    memcpy(a->coach_text[a->ncoach], text, n);
    a->coach_text[a->ncoach][n] = '\0';
    a->ncoach++;
}

static void audio_referee(ngw_t *g, const shm_event_sh_t *ev, const char *text)
{
    char line[SHM_TEXT_MAX + 64];
    if (proto_hear_referee(ev->time, text, line, sizeof line) < 0)
        return;
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (g->cl[idx].used && atomic_load(&g->r->client[idx].state) == CLIENT_ST_ACTIVE)
            audio_send(g, idx, line);
    }
}

void ngw_audio_event(ngw_t *g, const shm_event_sh_t *ev)
{
    int len = ev->len < 0 ? 0 : ev->len > SHM_EVENT_TEXT_LEN ? SHM_EVENT_TEXT_LEN : ev->len;
    shm_text_t *t = &g->audio.ev;
    if (!shm_text_feed(t, ev->kind == SHM_EV_CONT, ev->text, (size_t)len))
        return;
    switch (ev->kind) {
    case SHM_EV_REFEREE:
        audio_referee(g, ev, t->buf);
        break;
    case SHM_EV_SAY:
        audio_say(g, ev, t->buf);
        break;
    case SHM_EV_COACH_SAY:
    case SHM_EV_TRAINER_SAY:
        audio_coach(g, ev, t->buf);
        break;
    case SHM_EV_PLAYER_REPLY: {
        int idx = shm_player_index(ev->side, ev->unum);
        if (ev->unum >= 1 && ev->unum <= SHM_TEAM_SIZE && g->cl[idx].used)
            audio_send(g, idx, t->buf);
        break;
    }
    default:
        break;
    }
}

/* ---- per cycle ------------------------------------------------------------------------ */
void ngw_audio_step(ngw_t *g)
{
    int inc = conf_int(&g->conf, SP_hear_inc), max = conf_int(&g->conf, SP_hear_max);
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (!g->cl[idx].used)
            continue;
        ngw_ear_t *ear = &g->cl[idx].ear;
        for (int k = 0; k < 2; k++)
            ear->cap[k] = proto_hear_refill(ear->cap[k], inc, max);
    }
}

/* one cached message of another player, in full or partial form or not at all */
static void audio_release_one(ngw_t *g, int idx, const ngw_heard_t *h, char *line, size_t len)
{
    const shm_client_sh_t *e = &g->r->client[idx];
    const shm_player_sh_t *sp = &g->snap.player[h->speaker];
    const shm_player_sh_t *me = &g->snap.player[idx];
    int speaker_side = h->speaker < SHM_TEAM_SIZE ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
    int unum = h->speaker % SHM_TEAM_SIZE + 1;
    int team = audio_team(e, speaker_side);
    ngw_ear_t *ear = &g->cl[idx].ear;
    int decay = conf_int(&g->conf, SP_hear_decay);
    int how = proto_hear_decide(ear->cap[team], decay, e->ear_on[team], e->ear_partial[team]);
    int n = -1;
    if (how == PROTO_HEAR_FULL) {
        double dir = vec2_angle(vec2(sp->x - me->x, sp->y - me->y)) - me->body;
        n = proto_hear_say_full(g->snap.time, dir, team == 0, unum, h->text, line, len);
        ear->cap[team] -= decay;
    } else if (how == PROTO_HEAR_PARTIAL) {
        n = proto_hear_say_partial(g->snap.time, team == 0, unum, line, len);
    }
    if (n > 0)
        audio_send(g, idx, line);
}

void ngw_audio_release(ngw_t *g, int idx)
{
    static char line[AUDIO_LINE];
    const shm_client_sh_t *e = &g->r->client[idx];
    ngw_ear_t *ear = &g->cl[idx].ear;
    if (e->version < 8.0 || !g->snap.player[idx].enabled) {
        ear->n = 0;
        return;
    }
    const ngw_audio_t *a = &g->audio;
    for (int k = 0; k < a->ncoach; k++) {
        if (proto_hear_coach(e->version, a->coach_side[k], g->snap.time, a->coach_text[k],
                             line, sizeof line) > 0)
            audio_send(g, idx, line);
    }
    int speaker[NGW_HEAR_QUEUE], n = 0;
    ngw_heard_t *others[NGW_HEAR_QUEUE];
    for (int k = 0; k < ear->n; k++) {
        ngw_heard_t *h = &ear->q[k];
        if (h->speaker == idx) {
            if (proto_hear_self(e->version, g->snap.time, h->text, line, sizeof line) > 0)
                audio_send(g, idx, line);
            continue;
        }
        speaker[n] = h->speaker;
        others[n++] = h;
    }
    const shm_player_sh_t *me = &g->snap.player[idx];
    int focus = me->focus_side == SHM_SIDE_LEFT || me->focus_side == SHM_SIDE_RIGHT
                ? shm_player_index(me->focus_side, me->focus_unum) : -1;
    while (n > 0) {
        int k = proto_hear_pick(speaker, n, focus, &g->rng);
        if (k < 0)
            break;
        audio_release_one(g, idx, others[k], line, sizeof line);
        speaker[k] = speaker[n - 1];
        others[k] = others[n - 1];
        n--;
    }
    ear->n = 0;
}

void ngw_audio_end_step(ngw_t *g)
{
    ngw_audio_t *a = &g->audio;
    a->ncoach = 0;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        a->prev_x[i] = g->snap.player[i].x;
        a->prev_y[i] = g->snap.player[i].y;
        a->prev_body[i] = g->snap.player[i].body;
    }
    a->have_prev = 1;
}

void ngw_audio_reset(ngw_t *g, int idx)
{
    if (idx < 0 || idx >= SHM_MAX_PLAYERS)
        return;
    ngw_ear_t *ear = &g->cl[idx].ear;
    ear->n = 0;
    ear->dropped = 0;
    ear->cap[0] = ear->cap[1] = conf_int(&g->conf, SP_hear_max);
}
