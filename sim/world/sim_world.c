/* sim_world.c -- world set-up, players joining and leaving (following the client table
 * that the gateways fill), stamina resets, events and per-cycle housekeeping.
 * Called by sim_main.c each loop turn and by the unit tests directly. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "sim_world.h"
#include "playmode.h"
#include "shm.h"

void sim_world_init(sim_world_t *w, const conf_t *c, const shm_ptypes_sh_t *types,
                    uint64_t seed)
{
    memset(w, 0, sizeof *w);
    w->conf = c;
    w->seed = seed;
    if (types)
        w->types = *types;
    if (w->types.count == 0) /* no generated types: type 0 only, from the defaults */
        sim_ptypes_generate(c, sim_ptypes_seed(c, seed), &w->types);
    /* one stream per concern, each from the seed: adding a draw to one (a new referee
     * rule) leaves the others' sequences as they were */
    rng_seed(&w->rng_move, seed);
    rng_seed(&w->rng_act, seed ^ 0x616374696f6e73ull);  /* "actions" */
    rng_seed(&w->rng_ref, seed ^ 0x72656665726565ull);  /* "referee" */
    w->movable[0] = -1; /* the ball */
    w->n_movable = 1;
    sim_move_wind_init(w);
    w->play_mode = PM_BEFORE_KICK_OFF;
    w->score[0] = conf_int(c, SP_start_goal_l); /* the reference's Team::setPoint at start */
    w->score[1] = conf_int(c, SP_start_goal_r);
    w->catcher = -1;
    w->last_toucher = -1;
    int step = conf_int(c, SP_simulator_step);
    w->half_cycles = step > 0 ? (int)(conf_real(c, SP_half_time) * 1000.0 / step + 0.5) : 0;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        p->sh.side = i < SHM_TEAM_SIZE ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
        p->sh.unum = (int8_t)(i % SHM_TEAM_SIZE + 1);
        /* an unconnected player is shown as the reference shows it: (v h 90), full stamina */
        p->sh.view_width = SHM_VIEW_NORMAL;
        p->sh.view_high = 1;
        sim_player_reset_stamina(w, p);
        sim_player_place_off_pitch(p);
    }
}

void sim_world_emit(sim_world_t *w, int kind, int side, int unum, double x, double y,
                    int arg, const char *text, size_t len)
{
    if (!w->emit)
        return;
    shm_event_sh_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.time = w->time;
    ev.stoppage = w->stoppage;
    ev.side = (int8_t)side;
    ev.unum = (int8_t)unum;
    ev.arg = arg;
    ev.x = x;
    ev.y = y;
    if (text) {
        if (len > SHM_EVENT_TEXT_LEN - 1)
            len = SHM_EVENT_TEXT_LEN - 1;
        memcpy(ev.text, text, len);
        ev.len = (int16_t)len;
    }
    w->emit(w->emit_ctx, &ev);
}

void sim_world_emit_text(sim_world_t *w, int kind, int side, int unum, int arg, double x,
                         const char *text, size_t len)
{
    const size_t part = SHM_EVENT_TEXT_LEN - 1;
    while (len > part) {
        sim_world_emit(w, SHM_EV_CONT, side, unum, x, 0.0, arg, text, part);
        text += part;
        len -= part;
    }
    sim_world_emit(w, kind, side, unum, x, 0.0, arg, text, len);
}

void sim_world_referee_say(sim_world_t *w, const char *text)
{
    sim_world_emit(w, SHM_EV_REFEREE, 0, 0, 0.0, 0.0, 0, text, strlen(text));
}

/* Initial state of a disabled player: x = -3 * unum * side, y = -37
 * (docs/protocol/player.md §1). */
void sim_player_place_off_pitch(sim_player_t *p)
{
    p->sh.x = -3.0 * p->sh.unum * p->sh.side;
    p->sh.y = -37.0;
    p->sh.vx = p->sh.vy = 0.0;
    p->ax = p->ay = 0.0;
}

void sim_player_reset_stamina(sim_world_t *w, sim_player_t *p)
{
    const conf_t *c = w->conf;
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    p->sh.stamina = conf_real(c, SP_stamina_max);
    p->sh.recovery = 1.0; /* (not recover_init: the reference's recovery for all) */
    p->sh.effort = t->effort_max;
    p->sh.capacity = conf_real(c, SP_stamina_capacity);
    p->hear_cap[0] = p->hear_cap[1] = conf_int(c, SP_hear_max);
}

void sim_player_refill_capacity(sim_world_t *w, sim_player_t *p)
{
    p->sh.capacity = conf_real(w->conf, SP_stamina_capacity);
}

static void player_clear_commands(sim_player_t *p)
{
    p->body_used = p->neck_used = 0;
    for (int l = 0; l < 2; l++) {
        p->leg[l] = SIM_LEG_NONE;
        p->dash_pow[l] = p->dash_dir[l] = 0.0;
    }
    p->body_next = p->sh.body;
    p->neck_next = p->sh.neck;
    p->cycle_state = 0;
}

void sim_player_enable(sim_world_t *w, int idx, int side, int unum, int goalie,
                       uint32_t generation)
{
    if (idx < 0 || idx >= SHM_MAX_PLAYERS)
        return;
    sim_player_t *p = &w->pl[idx];
    int8_t card = p->sh.card; /* a card stays with the slot */
    memset(p, 0, sizeof *p);
    p->sh.card = card;
    p->sh.enabled = 1;
    p->sh.side = (int8_t)side;
    p->sh.unum = (int8_t)unum;
    p->sh.goalie = goalie ? 1 : 0;
    p->sh.type = 0;
    p->sh.view_width = SHM_VIEW_NORMAL;
    p->sh.view_high = 1;
    p->generation = generation;
    p->seen = 1;
    sim_player_place_off_pitch(p);
    p->sh.body = side == SHM_SIDE_LEFT ? 0.0 : M_PI;
    p->sh.neck = 0.0;
    player_clear_commands(p);
    /* the reference sets only the committed body angle of a new player: its pending
     * one is 0, so a right player faces 0 after the first step unless he turned or
     * was moved with a direction */
    p->body_next = 0.0;
    sim_player_reset_stamina(w, p);
    sim_move_add_player(w, idx);
}

int sim_world_reproducible(const sim_world_t *w)
{
    return conf_bool(w->conf, SP_reproducible) && conf_bool(w->conf, SP_synch_mode);
}

void sim_world_first_kick_off(sim_world_t *w)
{
    uint64_t k = 0x6b69636b6f6666ull; /* "kickoff" */
    rng_seed(&w->rng_move, w->seed ^ k);
    rng_seed(&w->rng_act, w->seed ^ 0x616374696f6e73ull ^ k);
    rng_seed(&w->rng_ref, w->seed ^ 0x72656665726565ull ^ k);
    int8_t ids[SHM_MAX_PLAYERS + 1];
    int n = 0;
    ids[n++] = -1; /* the ball */
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        for (int j = 0; j < w->n_movable; j++) {
            if (w->movable[j] == i) {
                ids[n++] = (int8_t)i;
                break;
            }
        }
    }
    for (int j = 0; j < n && j < w->n_movable; j++)
        w->movable[j] = ids[j];
}

void sim_world_note(sim_world_t *w, const char *fmt, ...)
{
    size_t room = sizeof w->notes - w->notes_len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(w->notes + w->notes_len, room, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n + 1 < room) { /* a line that does not fit whole is left out */
        w->notes_len += (size_t)n;
        w->notes[w->notes_len++] = '\n';
    }
    w->notes[w->notes_len] = '\0';
}

void sim_world_print_notes(sim_world_t *w, FILE *out)
{
    if (w->notes_len == 0)
        return;
    fwrite(w->notes, 1, w->notes_len, out);
    fflush(out);
    w->notes_len = 0;
    w->notes[0] = '\0';
}

/* the reference says so when it disables a player who was on: (bye), a client gone, a
 * discard, a red card */
void sim_player_disable(sim_world_t *w, int idx)
{
    if (idx < 0 || idx >= SHM_MAX_PLAYERS)
        return;
    sim_player_t *p = &w->pl[idx];
    if (p->sh.enabled)
        sim_world_note(w, "A player disconnected : (%s %d)", w->team[idx / SHM_TEAM_SIZE],
                       idx % SHM_TEAM_SIZE + 1);
    if (w->catcher == idx)
        w->catcher = -1;
    p->sh.enabled = 0;
    p->sh.side = idx < SHM_TEAM_SIZE ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
    p->sh.unum = (int8_t)(idx % SHM_TEAM_SIZE + 1);
    sim_player_place_off_pitch(p);
    player_clear_commands(p);
}

void sim_world_sync_clients(sim_world_t *w, const shm_client_sh_t *cl)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const shm_client_sh_t *e = &cl[i];
        sim_player_t *p = &w->pl[i];
        uint32_t st = atomic_load_explicit(&e->state, memory_order_acquire);
        int active = st == CLIENT_ST_ACTIVE && e->kind == CLIENT_KIND_PLAYER;
        if (st == CLIENT_ST_CLOSING && p->sh.enabled)
            continue; /* a reconnect hands him over to another client: he stays on */
        if (active && (!p->seen || p->generation != e->generation)) {
            int side = e->side == SHM_SIDE_RIGHT ? SHM_SIDE_RIGHT : SHM_SIDE_LEFT;
            int unum = i % SHM_TEAM_SIZE + 1; /* the slot decides, not the entry */
            sim_player_enable(w, i, side, unum, e->goalie, e->generation);
        } else if (!active && p->sh.enabled) {
            sim_player_disable(w, i);
        }
        if (p->sh.enabled) {
            p->sh.view_width = (int8_t)e->view_width;
            p->sh.view_high = (int8_t)e->view_high;
            p->sh.synch_see = (int8_t)e->synch_see;
            p->version = e->version;
        }
    }
}

void sim_world_sync_teams(sim_world_t *w, const shm_team_sh_t team[2])
{
    for (int k = 0; k < 2; k++) {
        if (!team[k].used)
            continue;
        memcpy(w->team[k], team[k].name, SHM_TEAM_NAME_LEN);
        w->team[k][SHM_TEAM_NAME_LEN - 1] = '\0';
    }
}

void sim_world_end_cycle(sim_world_t *w)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        p->cycle_state = 0;
        p->sh.kicked = 0;
        p->sh.collision = 0;
    }
}

static uint64_t digest_mix(uint64_t h, const void *data, size_t len)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t sim_world_digest(const sim_world_t *w)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = digest_mix(h, &w->play_mode, sizeof w->play_mode);
    h = digest_mix(h, &w->time, sizeof w->time);
    h = digest_mix(h, &w->stoppage, sizeof w->stoppage);
    h = digest_mix(h, w->score, sizeof w->score);
    h = digest_mix(h, &w->ball, sizeof w->ball);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const shm_player_sh_t *s = &w->pl[i].sh;
        const sim_player_t *p = &w->pl[i];
        double v[13] = { s->x, s->y, s->vx, s->vy, s->body, s->neck,
                         s->stamina, s->effort, s->recovery, s->capacity,
                         p->body_next, p->neck_next, (double)s->tackle_expires };
        h = digest_mix(h, v, sizeof v);
        h = digest_mix(h, s->count, sizeof s->count);
        h = digest_mix(h, &s->enabled, 1);
    }
    h = digest_mix(h, w->movable, (size_t)w->n_movable);
    h = digest_mix(h, w->rng_move.s, sizeof w->rng_move.s);
    h = digest_mix(h, w->rng_act.s, sizeof w->rng_act.s);
    h = digest_mix(h, w->rng_ref.s, sizeof w->rng_ref.s);
    return h;
}

void sim_world_player_text(sim_world_t *w, int idx, const shm_cmd_sh_t *c)
{
    if (idx < 0 || idx >= SHM_MAX_PLAYERS)
        return;
    shm_text_t *t = &w->pl_text[idx];
    size_t len = strnlen(c->text, c->len < SHM_CMD_TEXT_LEN ? c->len : SHM_CMD_TEXT_LEN);
    if (shm_text_feed(t, c->kind == SHM_CMD_CONT, c->text, len))
        sim_world_emit_text(w, SHM_EV_TEXTLOG, idx < SHM_TEAM_SIZE ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT,
                            idx % SHM_TEAM_SIZE + 1, 0, 0.0, t->buf, t->len);
}

void sim_world_textlog(sim_world_t *w, int side, int unum, const shm_cmd_sh_t *c)
{
    size_t len = c->len < SHM_CMD_TEXT_LEN ? c->len : SHM_CMD_TEXT_LEN;
    sim_world_emit(w, SHM_EV_TEXTLOG, side, unum, 0.0, 0.0, 0, c->text,
                   strnlen(c->text, len));
}

/* ---- copies (checkpoints) ------------------------------------------------------------ */
/* the fields from `from` up to (excluding) `to` of a structure, as they are */
#define COPY_SPAN(d, s, type, from, to) \
    memcpy((char *)(d) + offsetof(type, from), (const char *)(s) + offsetof(type, from), \
           offsetof(type, to) - offsetof(type, from))

static void text_copy(shm_text_t *d, const shm_text_t *s)
{
    size_t n = s->len < SHM_TEXT_MAX ? s->len : SHM_TEXT_MAX;
    d->len = s->len;
    d->overflow = s->overflow;
    d->complete = s->complete;
    memcpy(d->buf, s->buf, n);
    d->buf[n] = '\0';
}

static void coach_copy(sim_coach_t *d, const sim_coach_t *s)
{
    for (int i = 0; i < 3; i++)
        text_copy(&d->part[i], &s->part[i]);
    COPY_SPAN(d, s, sim_coach_t, q, pool);
    for (int k = 0; k < 2; k++)
        memcpy(d->pool[k], s->pool[k], s->pool_used[k] <= SIM_CLANG_POOL ? s->pool_used[k]
                                                                          : SIM_CLANG_POOL);
    memcpy(&d->dropped, &s->dropped, sizeof *d - offsetof(sim_coach_t, dropped));
}

void sim_world_copy(sim_world_t *dst, const sim_world_t *src)
{
    COPY_SPAN(dst, src, sim_world_t, conf, coach);
    coach_copy(&dst->coach, &src->coach);
    COPY_SPAN(dst, src, sim_world_t, keepaway, pl_text);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++)
        text_copy(&dst->pl_text[i], &src->pl_text[i]);
    size_t n = src->notes_len < SIM_NOTES_LEN ? src->notes_len : SIM_NOTES_LEN;
    memcpy(dst->notes, src->notes, n);
    if (n < SIM_NOTES_LEN)
        dst->notes[n] = '\0';
    dst->notes_len = src->notes_len;
}
