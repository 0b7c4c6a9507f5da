/* sim_ctrl.c -- control records applied to the world (monitor commands, trainer and
 * online-coach commands) and sim_cmd_drain(), which pops every shm command ring at each
 * step and whenever a coach or control record waits between steps: players' rings
 * first (index order), then coaches and trainer (through sim_coach.c, which also
 * releases the coach-language messages that are due, at steps only; the world commands
 * among their records are applied here), then the gateways' control rings, each coach
 * and control record acknowledged. Player commands themselves are applied by
 * world/sim_cmd.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim.h"
#include "geom.h"
#include "playmode.h"
#include "shm.h"

static double cr(const sim_world_t *w, param_id_t id) { return conf_real(w->conf, id); }

static double clampd(double v, double lo, double hi)
{
    if (!isfinite(v))
        return 0.0;
    return v < lo ? lo : v > hi ? hi : v;
}

/* A position a command gives: on the pitch plus its margin (NaN was refused before). */
static void place_clamp(double *x, double *y)
{
    *x = clampd(*x, -SIM_PLACE_MAX_X, SIM_PLACE_MAX_X);
    *y = clampd(*y, -SIM_PLACE_MAX_Y, SIM_PLACE_MAX_Y);
}

/* A velocity a command gives: no faster than the object can move (the physics caps an
 * accelerated object there too), so one step cannot carry it off the pitch for good. */
static void speed_clamp(double *vx, double *vy, double max)
{
    double v = sqrt(*vx * *vx + *vy * *vy);
    if (v > max && v > 0.0) {
        *vx *= max / v;
        *vy *= max / v;
    }
}

/* ---- control records ------------------------------------------------------------- */
static int ctrl_player_index(int side, int unum)
{
    if ((side != SHM_SIDE_LEFT && side != SHM_SIDE_RIGHT) || unum < 1 || unum > SHM_TEAM_SIZE)
        return -1;
    return shm_player_index(side, unum);
}

static void ctrl_move_ball(sim_world_t *w, const shm_cmd_sh_t *c)
{
    if (!isfinite(c->d[0]) || !isfinite(c->d[1]))
        return;
    w->ball.x = c->d[0];
    w->ball.y = c->d[1];
    place_clamp(&w->ball.x, &w->ball.y);
    int vel = (c->flags & 1u) && isfinite(c->d[2]) && isfinite(c->d[3]);
    w->ball.vx = vel ? c->d[2] : 0.0;
    w->ball.vy = vel ? c->d[3] : 0.0;
    speed_clamp(&w->ball.vx, &w->ball.vy, cr(w, SP_ball_speed_max));
    w->ball.ax = w->ball.ay = 0.0;
    w->catcher = -1;
}

/* flags: unum | what << 8, what bit k = d[k] given (x, y, ang deg, vx, vy); none = x y;
 * bit 13: a velocity not given is kept (trainer), else it becomes 0 (monitors) */
static void ctrl_move_player(sim_world_t *w, const shm_cmd_sh_t *c)
{
    int idx = ctrl_player_index(c->i, (int)(c->flags & 0xffu));
    if (idx < 0 || !w->pl[idx].sh.enabled)
        return;
    unsigned what = (c->flags >> 8) & 0x1fu;
    if (what == 0)
        what = 3u;
    for (int k = 0; k < 5; k++) {
        if ((what & (1u << k)) && !isfinite(c->d[k]))
            return;
    }
    shm_player_sh_t *s = &w->pl[idx].sh;
    if (what & 1u)
        s->x = c->d[0];
    if (what & 2u)
        s->y = c->d[1];
    place_clamp(&s->x, &s->y);
    if (what & 4u)
        s->body = angle_norm(deg2rad(clampd(c->d[2], cr(w, SP_minmoment), cr(w, SP_maxmoment))));
    w->pl[idx].body_next = s->body; /* a move sets the pending body angle too */
    int keep = (c->flags & (1u << 13)) != 0;
    s->vx = (what & 8u) ? c->d[3] : keep ? s->vx : 0.0;
    s->vy = (what & 16u) ? c->d[4] : keep ? s->vy : 0.0;
    speed_clamp(&s->vx, &s->vy, sim_player_ptype(w, &w->pl[idx])->player_speed_max);
    if (w->catcher == idx)
        w->catcher = -1;
    sim_collide(w); /* overlaps resolved at once, as after a player's move */
}

/* i = side awarded the free kick (monitor dispfoul), 0 = drop ball */
static void ctrl_foul(sim_world_t *w, const shm_cmd_sh_t *c)
{
    double x = isfinite(c->d[0]) ? c->d[0] : 0.0, y = isfinite(c->d[1]) ? c->d[1] : 0.0;
    place_clamp(&x, &y);
    if (c->i == 0)
        sim_referee_drop_ball(w, x, y);
    else
        sim_referee_call_foul(w, c->i, x, y);
}

static void ctrl_card(sim_world_t *w, const shm_cmd_sh_t *c)
{
    int unum = (int)(c->flags & 0xffu), card = (int)((c->flags >> 8) & 0xffu);
    int idx = ctrl_player_index(c->i, unum);
    if (idx < 0 || (card != 1 && card != 2) || w->pl[idx].sh.card == 2)
        return;
    char msg[40];
    const char *s = c->i == SHM_SIDE_LEFT ? "l" : "r";
    if (card == 1 && w->pl[idx].sh.card == 0) {
        w->pl[idx].sh.card = 1;
        snprintf(msg, sizeof msg, "yellow_card_%s_%d", s, unum);
        sim_world_referee_say(w, msg);
        return;
    }
    if (card == 1) { /* second yellow */
        snprintf(msg, sizeof msg, "yellow_card_%s_%d", s, unum);
        sim_world_referee_say(w, msg);
    }
    w->pl[idx].sh.card = 2;
    snprintf(msg, sizeof msg, "red_card_%s_%d", s, unum);
    sim_world_referee_say(w, msg);
    sim_player_disable(w, idx);
}

/* trainer / monitor: no rules (side 0: i = side) */
static void ctrl_change_type(sim_world_t *w, const shm_cmd_sh_t *c, int side)
{
    int s = side != 0 ? side : c->i;
    int idx = ctrl_player_index(s, (int)(c->flags & 0xffu));
    int type = isfinite(c->d[0]) && fabs(c->d[0]) < 1e9 ? (int)c->d[0] : -1;
    if (idx >= 0)
        sim_coach_substitute(w, idx, type);
}

static void ctrl_say(sim_world_t *w, const shm_cmd_sh_t *c, int side)
{
    size_t len = strnlen(c->text, c->len < SHM_CMD_TEXT_LEN ? c->len : SHM_CMD_TEXT_LEN);
    sim_world_emit(w, side ? SHM_EV_COACH_SAY : SHM_EV_TRAINER_SAY, side, 0, 0.0, 0.0, 0,
                   c->text, len);
}

static void ctrl_recover(sim_world_t *w)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        if (w->pl[i].sh.enabled)
            sim_player_reset_stamina(w, &w->pl[i]);
    }
}

void sim_cmd_control(sim_world_t *w, const shm_cmd_sh_t *c, int side)
{
    switch (c->kind) {
    case SHM_CMD_START:        sim_referee_kick_off(w); break;
    case SHM_CMD_CHANGE_MODE:
        if (c->i > PM_NULL && c->i < PM_MAX)
            sim_referee_set_mode(w, c->i);
        break;
    case SHM_CMD_MOVE_BALL:    ctrl_move_ball(w, c); break;
    case SHM_CMD_MOVE_PLAYER:  ctrl_move_player(w, c); break;
    case SHM_CMD_FOUL:         ctrl_foul(w, c); break;
    case SHM_CMD_DISCARD: {
        int idx = ctrl_player_index(c->i, (int)(c->flags & 0xffu));
        if (idx >= 0)
            sim_player_disable(w, idx);
        break;
    }
    case SHM_CMD_CARD:         ctrl_card(w, c); break;
    case SHM_CMD_RECOVER:      ctrl_recover(w); break;
    case SHM_CMD_CHANGE_TYPE:  ctrl_change_type(w, c, side); break;
    case SHM_CMD_COACH_SAY:    ctrl_say(w, c, side); break;
    case SHM_CMD_RAW:          sim_world_textlog(w, side, 0, c); break;
    case SHM_CMD_SHUTDOWN:     w->shutdown = 1; break;
    case SHM_CMD_RESET:        w->reset_req |= side == 0; break; /* trainer, operators */
    default:                   break;
    }
}

/* ---- draining the rings ------------------------------------------------------------ */
/* The record just popped from a ring whose read position is now `pos` is acknowledged
 * (its producer answers its client after this): side 0 = client ring ci, 1 = control
 * ring of gateway ci (SHM_MAX_GATEWAYS: monitorgw). Parts of a text and raw text-log
 * copies need no answer. */
static void ack(sim_world_t *w, const shm_cmd_sh_t *c, int ring, int ci, uint32_t pos)
{
    if (c->kind == SHM_CMD_CONT || c->kind == SHM_CMD_RAW)
        return;
    sim_world_emit(w, SHM_EV_ACK, ring, ci, 0.0, 0.0, (int32_t)pos, NULL, 0);
}

static int drain_ctrl(sim_world_t *w, shm_ctrl_ring_sh_t *q, uint32_t *cur, int gw)
{
    shm_cmd_sh_t c;
    int n = 0;
    while (n < SHM_CTRL_SLOTS && shm_ctrl_take(q, cur, &c) == 0) {
        sim_cmd_control(w, &c, 0);
        ack(w, &c, 1, gw, *cur);
        n++;
    }
    return n;
}

/* a coach that left: what it sent up to its (bye) is still logged, at this step */
static int drain_coach(sim_world_t *w, shm_region_sh_t *r, uint32_t *cur, int ci)
{
    shm_client_sh_t *e = &r->client[ci];
    int side = ci == SHM_COACH_LEFT ? SHM_SIDE_LEFT : ci == SHM_COACH_RIGHT ? SHM_SIDE_RIGHT : 0;
    shm_cmd_ring_sh_t *q = &r->cmd[ci];
    shm_cmd_sh_t c;
    int n = 0;
    while (n < SHM_CMD_SLOTS && shm_cmd_take(q, cur, &c) == 0) {
        if (atomic_load_explicit(&e->state, memory_order_acquire) == CLIENT_ST_ACTIVE) {
            if (!sim_coach_record(w, &c, side))
                sim_cmd_control(w, &c, side);
        } else {
            sim_coach_record_gone(w, &c, side);
        }
        ack(w, &c, 0, ci, *cur);
        n++;
    }
    return n;
}

/* records between what was taken and the producer's head */
static int ring_busy(const _Atomic uint32_t *head, uint32_t taken)
{
    return atomic_load_explicit(head, memory_order_acquire) != taken;
}

int sim_cmd_pending_now(const shm_region_sh_t *r, const sim_taken_t *t)
{
    if (atomic_load_explicit(&r->hdr.players_now, memory_order_acquire))
        return 1;
    for (int ci = SHM_COACH_TRAINER; ci < SHM_MAX_CLIENTS; ci++) {
        if (ring_busy(&r->cmd[ci].head, t->cmd[ci])
            && atomic_load_explicit(&r->client[ci].state, memory_order_relaxed) == CLIENT_ST_ACTIVE)
            return 1;
    }
    for (uint32_t g = 0; g < r->hdr.n_gateways && g < SHM_MAX_GATEWAYS; g++) {
        if (ring_busy(&r->netgw[g].ctrl.head, t->ctrl[g]))
            return 1;
    }
    return ring_busy(&r->monitorgw.ctrl.head, t->ctrl[SHM_MAX_GATEWAYS]);
}

int sim_cmd_drain(sim_world_t *w, shm_region_sh_t *r, sim_taken_t *t, int step)
{
    shm_cmd_sh_t c;
    int n = 0;
    /* With server::reproducible in synch mode the players' rings are taken at the step
     * only, in slot order: between steps (a kick, move, tackle, catch or pointto
     * arriving, a coach's or trainer's record) the order in which the players' commands
     * are applied, and so the order of their noise draws and of their touches of the
     * ball, follows the race of the clients' datagrams to the gateways, and the same seed
     * does not play the same match. Otherwise, as the reference, in order of arrival. */
    int players = step || !sim_world_reproducible(w);
    for (int i = 0; players && i < SHM_MAX_PLAYERS; i++) {
        int k = 0; /* at most one ring's worth per turn, so a flood cannot stall the step */
        while (k < SHM_CMD_SLOTS && shm_cmd_take(&r->cmd[i], &t->cmd[i], &c) == 0) {
            if (w->pl[i].sh.enabled) /* a left player's last commands are dropped */
                sim_cmd_player(w, i, &c);
            else if (c.kind == SHM_CMD_RAW || c.kind == SHM_CMD_CONT)
                sim_world_player_text(w, i, &c); /* but what it sent (its bye) is logged */
            k++;
        }
        n += k;
    }
    for (int ci = SHM_COACH_TRAINER; ci < SHM_MAX_CLIENTS; ci++)
        n += drain_coach(w, r, &t->cmd[ci], ci);
    for (uint32_t g = 0; g < r->hdr.n_gateways && g < SHM_MAX_GATEWAYS; g++)
        n += drain_ctrl(w, &r->netgw[g].ctrl, &t->ctrl[g], (int)g);
    n += drain_ctrl(w, &r->monitorgw.ctrl, &t->ctrl[SHM_MAX_GATEWAYS], SHM_MAX_GATEWAYS);
    if (step)
        sim_coach_release(w);
    return n;
}
