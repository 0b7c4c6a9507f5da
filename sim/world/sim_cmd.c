/* sim_cmd.c -- player command records applied to the world at command time (see
 * docs/protocol/player.md §10): the body slot (first body command of a cycle wins) and the legs'
 * own slots used by the bipedal dash, dash and turn pending until the step, turn_neck,
 * move, say, pointto, attentionto, change_focus and change_view counts. The ball
 * actions (kick, tackle, catch) are in sim_kick.c. Control records (monitors, trainer,
 * coaches) and the draining of the shm rings are in sim_ctrl.c. Pure: no region access. */
#include <math.h>
#include <string.h>
#include "sim_phys.h"
#include "shm.h"

/* ---- dash and turn: the legs (docs/protocol/player.md §10; docs/protocol/physics.md §3) ---- */
/* a leg that has no command this cycle takes one */
static void leg_set(sim_player_t *p, int l, int what)
{
    if (p->leg[l] == SIM_LEG_NONE)
        p->leg[l] = what;
}

static void leg_dash(sim_world_t *w, sim_player_t *p, int l, double power, double dir)
{
    if (p->leg[l] != SIM_LEG_NONE)
        return;
    p->dash_pow[l] = sim_bound(sim_cr(w, SP_min_dash_power), power, sim_cr(w, SP_max_dash_power));
    dir = sim_bound(sim_cr(w, SP_min_dash_angle), dir, sim_cr(w, SP_max_dash_angle));
    double st = sim_cr(w, SP_dash_angle_step);
    p->dash_dir[l] = st < SIM_EPS ? dir : st * rint(dir / st);
    p->leg[l] = SIM_LEG_DASH;
    p->body_used = 1;
}

/* (dash P [DIR]) needs the body slot; the per-leg form (c->i == 2, c->flags bit 0 left
 * given, bit 1 right) only the legs' own slots */
static void cmd_dash(sim_world_t *w, sim_player_t *p, const shm_cmd_sh_t *c)
{
    if (c->i == 2) {
        for (int l = 0; l < 2; l++) {
            if (c->flags & (1u << l))
                leg_dash(w, p, l, c->d[2 * l], c->d[2 * l + 1]);
        }
        return;
    }
    if (p->body_used)
        return;
    leg_dash(w, p, 0, c->d[0], c->d[1]);
    leg_dash(w, p, 1, c->d[0], c->d[1]);
}

/* body += (1 + U(-rand, rand)) * moment / (1 + inertia * speed), committed at the step */
static void cmd_turn(sim_world_t *w, sim_player_t *p, const shm_cmd_sh_t *c)
{
    if (p->body_used)
        return;
    leg_set(p, 0, SIM_LEG_TURN);
    leg_set(p, 1, SIM_LEG_TURN);
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double m = sim_deg2rad(sim_bound(sim_cr(w, SP_minmoment), c->d[0], sim_cr(w, SP_maxmoment)));
    double r = sim_phys_randp(w, p);
    double speed = sqrt(p->sh.vx * p->sh.vx + p->sh.vy * p->sh.vy);
    p->body_next = angle_norm(p->sh.body + (1.0 + sim_drand(&w->rng_act, -r, r)) * m
                                           / (1.0 + t->inertia_moment * speed));
    p->sh.count[SHM_CNT_TURN]++;
    p->body_used = 1;
}

static void cmd_turn_neck(sim_world_t *w, sim_player_t *p, const shm_cmd_sh_t *c)
{
    if (p->neck_used)
        return;
    double m = sim_deg2rad(sim_bound(sim_cr(w, SP_minneckmoment), c->d[0],
                                     sim_cr(w, SP_maxneckmoment)));
    p->neck_next = sim_bound(sim_deg2rad(sim_cr(w, SP_minneckang)), p->sh.neck + m,
                             sim_deg2rad(sim_cr(w, SP_maxneckang)));
    p->sh.count[SHM_CNT_TURN_NECK]++;
    p->neck_used = 1;
}

/* a reply only the sim can decide, delivered by the player's gateway */
static void cmd_reply(sim_world_t *w, const sim_player_t *p, const char *text)
{
    sim_world_emit(w, SHM_EV_PLAYER_REPLY, p->sh.side, p->sh.unum, 0.0, 0.0, 0, text,
                   strlen(text));
}

/* ---- move (docs/protocol/player.md §10) ---------------------------------------------- */
/* Before the kick-off and after a goal: teleport (side-relative coordinates), overlaps
 * resolved at once; before the kick-off with forbid_kick_off_offside a move into the
 * opponents' half is warned (moving_to_opponent_field) and still done. In a free kick
 * of his own team the goalie holding the ball may move goalie_max_moves times per
 * catch; beyond that the slot and the count are still used and he is told
 * too_many_moves. Otherwise ignored, the slot left free. */
static void cmd_move(sim_world_t *w, int idx, sim_player_t *p, const shm_cmd_sh_t *c)
{
    double x = c->d[0], y = c->d[1];
    int pm = w->play_mode, side = p->sh.side;
    if (p->body_used || !isfinite(x) || !isfinite(y))
        return;
    /* kept on the pitch plus its margin (issue 12: no move to 5.8e17 m) */
    x = sim_bound(-SIM_PLACE_MAX_X, x, SIM_PLACE_MAX_X);
    y = sim_bound(-SIM_PLACE_MAX_Y, y, SIM_PLACE_MAX_Y);
    if (pm == PM_BEFORE_KICK_OFF || pm == PM_GOAL_L || pm == PM_GOAL_R) {
        if (pm == PM_BEFORE_KICK_OFF && conf_bool(w->conf, SP_forbid_kick_off_offside)
            && x >= -sim_player_ptype(w, p)->player_size)
            cmd_reply(w, p, "(warning moving_to_opponent_field)");
        p->sh.x = x * side;
        p->sh.y = y * side;
        sim_collide(w);
    } else if ((pm == PM_FREE_KICK_L || pm == PM_FREE_KICK_R) && w->catcher == idx) {
        int max = conf_int(w->conf, SP_goalie_max_moves);
        if (max < 0 || p->goalie_moves < max) {
            p->sh.x = x * side;
            p->sh.y = y * side;
            p->goalie_moves++;
        } else {
            cmd_reply(w, p, "(error too_many_moves)");
        }
    } else {
        return;
    }
    leg_set(p, 0, SIM_LEG_MOVE);
    leg_set(p, 1, SIM_LEG_MOVE);
    p->body_used = 1;
    p->sh.count[SHM_CNT_MOVE]++;
}

/* ---- free commands ------------------------------------------------------------- */
static void cmd_say(sim_world_t *w, sim_player_t *p, const shm_cmd_sh_t *c)
{
    size_t len = c->len < SHM_CMD_TEXT_LEN ? c->len : SHM_CMD_TEXT_LEN;
    len = strnlen(c->text, len);
    if (len > (size_t)conf_int(w->conf, SP_say_msg_size))
        return; /* too long: dropped silently */
    sim_world_emit(w, SHM_EV_SAY, p->sh.side, p->sh.unum, p->sh.x, p->sh.y, 0, c->text, len);
    p->sh.count[SHM_CNT_SAY]++;
}

/* The arm (docs/protocol/player.md §10): movable point_to_ban cycles after a pointto;
 * pointing lasts point_to_duration cycles; (pointto off) ends it (c->i == 1). Both need a
 * movable arm. */
static void cmd_pointto(sim_world_t *w, sim_player_t *p, const shm_cmd_sh_t *c)
{
    int ban = conf_int(w->conf, SP_point_to_ban), dur = conf_int(w->conf, SP_point_to_duration);
    if (p->sh.arm_movable > 0)
        return;
    if (c->i == 1) {
        p->sh.arm_expires = 0;
        p->sh.arm_movable = ban > dur ? ban - dur : 0;
    } else {
        if (!isfinite(c->d[0]) || !isfinite(c->d[1]))
            return;
        double face = p->sh.body + p->sh.neck, h = sim_deg2rad(c->d[1]);
        double rx = c->d[0] * cos(h), ry = c->d[0] * sin(h);
        double cf = cos(face), sf = sin(face);
        p->sh.point_x = p->sh.x + (rx * cf - ry * sf);
        p->sh.point_y = p->sh.y + (rx * sf + ry * cf);
        p->sh.arm_expires = dur;
        p->sh.arm_movable = ban;
    }
    p->sh.count[SHM_CNT_POINTTO]++;
}

/* c->i: the target's side (0 = off), c->flags: its number; the target must have joined
 * its team and not be the player himself */
static void cmd_attentionto(sim_world_t *w, int idx, sim_player_t *p, const shm_cmd_sh_t *c)
{
    int side = c->i, unum = (int)(c->flags & 0xffu);
    if (side == 0) {
        p->sh.focus_side = 0;
        p->sh.focus_unum = 0;
        p->sh.count[SHM_CNT_ATTENTIONTO]++;
        return;
    }
    if ((side != SHM_SIDE_LEFT && side != SHM_SIDE_RIGHT) || unum < 1 || unum > SHM_TEAM_SIZE)
        return;
    int t = shm_player_index(side, unum);
    if (t == idx || !w->pl[t].seen)
        return;
    p->sh.focus_side = (int8_t)side;
    p->sh.focus_unum = (int8_t)unum;
    p->sh.count[SHM_CNT_ATTENTIONTO]++;
}

/* half the visible angle (rad) of view width vw (SHM_VIEW_*): server::visible_angle x
 * 1/2, 1, 2 asynchronous, x 2/3, 4/3, 2 with synch see (docs/protocol/player.md §5.2) */
static double view_half_angle(const sim_world_t *w, const sim_player_t *p, int vw)
{
    static const double async_k[3] = { 0.5, 1.0, 2.0 };
    static const double synch_k[3] = { 2.0 / 3.0, 4.0 / 3.0, 2.0 };
    if (vw < 0 || vw > 2)
        vw = 1;
    double va = sim_deg2rad(conf_real(w->conf, SP_visible_angle));
    return va * (p->sh.synch_see ? synch_k : async_k)[vw] * 0.5;
}

static void cmd_change_focus(sim_world_t *w, sim_player_t *p, const shm_cmd_sh_t *c)
{
    if (!isfinite(c->d[0]) || !isfinite(c->d[1]))
        return;
    double h = view_half_angle(w, p, p->sh.view_width);
    p->sh.focus_dist = sim_bound(0.0, p->sh.focus_dist + c->d[0], 40.0);
    p->sh.focus_dir = sim_bound(-h, angle_norm(p->sh.focus_dir + sim_deg2rad(c->d[1])), h);
    p->sh.count[SHM_CNT_CHANGE_FOCUS]++;
}

/* the view itself lives in the client table (the gateway's); a synch-see player's
 * request for low quality (c->flags bit 0) is refused and not counted. The
 * one-argument form (bit 1) also keeps the focus direction within the new width
 * (c->i), as the reference's change_view(width) does; the two-argument form does not. */
static void cmd_change_view(sim_world_t *w, sim_player_t *p, const shm_cmd_sh_t *c)
{
    if (p->sh.synch_see && (c->flags & 1u))
        return;
    if (c->i >= SHM_VIEW_NARROW && c->i <= SHM_VIEW_WIDE) /* for a change_focus after it */
        p->sh.view_width = (int8_t)c->i;
    if (c->flags & 2u) {
        double h = view_half_angle(w, p, c->i);
        p->sh.focus_dir = sim_bound(-h, p->sh.focus_dir, h);
    }
    p->sh.count[SHM_CNT_CHANGE_VIEW]++;
}

void sim_cmd_player(sim_world_t *w, int idx, const shm_cmd_sh_t *c)
{
    if (idx < 0 || idx >= SHM_MAX_PLAYERS || !w->pl[idx].sh.enabled)
        return;
    sim_player_t *p = &w->pl[idx];
    switch (c->kind) {
    case SHM_CMD_DASH:         cmd_dash(w, p, c); break;
    case SHM_CMD_TURN:         cmd_turn(w, p, c); break;
    case SHM_CMD_TURN_NECK:    cmd_turn_neck(w, p, c); break;
    case SHM_CMD_MOVE:         cmd_move(w, idx, p, c); break;
    case SHM_CMD_KICK:         sim_kick_cmd(w, idx, c); break;
    case SHM_CMD_CATCH:        sim_kick_catch(w, idx, c); break;
    case SHM_CMD_TACKLE:       sim_kick_tackle(w, idx, c); break;
    case SHM_CMD_SAY:          cmd_say(w, p, c); break;
    case SHM_CMD_POINTTO:      cmd_pointto(w, p, c); break;
    case SHM_CMD_ATTENTIONTO:  cmd_attentionto(w, idx, p, c); break;
    case SHM_CMD_CHANGE_FOCUS: cmd_change_focus(w, p, c); break;
    case SHM_CMD_CHANGE_VIEW:  cmd_change_view(w, p, c); break;
    case SHM_CMD_BYE:          sim_player_disable(w, idx); break;
    case SHM_CMD_CONT:
    case SHM_CMD_RAW:          sim_world_player_text(w, idx, c); break;
    default:                   break; /* control kinds are not a player's */
    }
}
