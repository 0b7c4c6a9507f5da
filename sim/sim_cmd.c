/* sim_cmd.c -- command records from the gateways applied to the world at command time
 * (spec player-sim.md 2): body-slot rule, dash/turn pending until the step, kick, catch
 * and tackle effects, say events. Control records (monitors, trainer, coaches) and the
 * draining of the shm rings are in sim_ctrl.c. Pure: no region access here. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim_world.h"
#include "geom.h"
#include "log.h"
#include "playmode.h"
#include "shm.h"

static double cr(const sim_world_t *w, param_id_t id) { return conf_real(w->conf, id); }

static double clampd(double v, double lo, double hi)
{
    if (!isfinite(v))
        return 0.0;
    return v < lo ? lo : v > hi ? hi : v;
}

/* take the body slot; 0 if it was already used this cycle (command ignored) */
static int take_body(sim_player_t *p)
{
    if (p->body_used)
        return 0;
    p->body_used = 1;
    return 1;
}

static double dash_dir(const sim_world_t *w, double dir)
{
    dir = clampd(dir, cr(w, SP_min_dash_angle), cr(w, SP_max_dash_angle));
    double st = cr(w, SP_dash_angle_step);
    return st > 1.0e-9 ? st * rint(dir / st) : dir;
}

static void cmd_dash(sim_world_t *w, sim_player_t *p, const shm_cmd_sh_t *c)
{
    if (!take_body(p))
        return;
    double lo = cr(w, SP_min_dash_power), hi = cr(w, SP_max_dash_power);
    if (c->i == 2) {
        p->dash_bipedal = 1;
        p->dash_legs = (int)(c->flags & 3u);
        for (int l = 0; l < 2; l++) {
            p->dash_pow[l] = clampd(c->d[2 * l], lo, hi);
            p->dash_dir[l] = dash_dir(w, c->d[2 * l + 1]);
        }
        return;
    }
    p->dash_bipedal = 0;
    p->dash_legs = 3;
    p->dash_pow[0] = p->dash_pow[1] = clampd(c->d[0], lo, hi);
    p->dash_dir[0] = p->dash_dir[1] = dash_dir(w, c->d[1]);
}

static void cmd_turn(sim_world_t *w, sim_player_t *p, const shm_cmd_sh_t *c)
{
    if (!take_body(p))
        return;
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double m = clampd(c->d[0], cr(w, SP_minmoment), cr(w, SP_maxmoment));
    double pr = cr(w, SP_player_rand), speed = hypot(p->sh.vx, p->sh.vy);
    double noise = 1.0 + rng_uniform(&w->rng, -pr, pr);
    p->turn = noise * deg2rad(m) / (1.0 + t->inertia_moment * speed);
    p->sh.count[SHM_CNT_TURN]++;
}

static void cmd_turn_neck(sim_world_t *w, sim_player_t *p, const shm_cmd_sh_t *c)
{
    if (p->neck_used)
        return;
    p->neck_used = 1;
    double a = clampd(c->d[0], cr(w, SP_minneckmoment), cr(w, SP_maxneckmoment));
    p->neck_next = clampd(p->sh.neck + deg2rad(a), deg2rad(cr(w, SP_minneckang)),
                          deg2rad(cr(w, SP_maxneckang)));
    p->sh.count[SHM_CNT_TURN_NECK]++;
}

/* a reply only the sim can decide, delivered by the player's gateway */
static void cmd_reply(sim_world_t *w, const sim_player_t *p, const char *text)
{
    sim_world_emit(w, SHM_EV_PLAYER_REPLY, p->sh.side, p->sh.unum, 0.0, 0.0, 0, text,
                   strlen(text));
}

static void cmd_move(sim_world_t *w, int idx, sim_player_t *p, const shm_cmd_sh_t *c)
{
    double x = c->d[0], y = c->d[1];
    int pm = w->play_mode, side = p->sh.side;
    if (!isfinite(x) || !isfinite(y) || fabs(x) > 1.0e6 || fabs(y) > 1.0e6 || p->body_used)
        return;
    if (pm == PM_BEFORE_KICK_OFF || pm == PM_GOAL_L || pm == PM_GOAL_R) {
        if (pm == PM_BEFORE_KICK_OFF && conf_bool(w->conf, SP_forbid_kick_off_offside)
            && x >= -sim_player_ptype(w, p)->player_size)
            cmd_reply(w, p, "(warning moving_to_opponent_field)");
        p->body_used = 1;
        p->sh.x = x * side;
        p->sh.y = y * side;
        p->sh.count[SHM_CNT_MOVE]++;
        sim_step_collisions(w);
        return;
    }
    int fk = side == SHM_SIDE_LEFT ? PM_FREE_KICK_L : PM_FREE_KICK_R;
    if (pm != fk || w->catcher != idx)
        return;
    p->body_used = 1;
    p->sh.count[SHM_CNT_MOVE]++;
    int max = conf_int(w->conf, SP_goalie_max_moves);
    if (max >= 0 && p->goalie_moves >= max) {
        cmd_reply(w, p, "(error too_many_moves)"); /* the slot and the count are still used */
        return;
    }
    p->goalie_moves++;
    p->sh.x = x * side;
    p->sh.y = y * side;
}

/* v12 kick noise (spec 3.4) */
static double kick_noise_max(const sim_world_t *w, const sim_player_t *p, double power,
                             double dir_diff, double dist_ball)
{
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double pos_rate = 0.5 + 0.25 * (dir_diff / M_PI + dist_ball / t->kickable_margin);
    double bs = hypot(w->ball.vx, w->ball.vy);
    double speed_rate = 0.5 + 0.5 * bs / (cr(w, SP_ball_speed_max) * cr(w, SP_ball_decay));
    double kr = t->kick_rand;
    if (conf_bool(w->conf, SP_team_actuator_noise))
        kr *= p->sh.side == SHM_SIDE_LEFT ? cr(w, SP_kick_rand_factor_l) : cr(w, SP_kick_rand_factor_r);
    return kr * fabs(power / cr(w, SP_maxpower)) * (pos_rate + speed_rate);
}

static void push_ball(sim_world_t *w, vec2_t acc, double max_rand)
{
    if (max_rand > 0.0) {
        double r = rng_uniform(&w->rng, 0.0, max_rand), th = rng_uniform(&w->rng, -M_PI, M_PI);
        acc = vec2_add(acc, vec2_polar(r, th));
    }
    w->ball.ax += acc.x;
    w->ball.ay += acc.y;
}

static void cmd_kick(sim_world_t *w, int idx, sim_player_t *p, const shm_cmd_sh_t *c)
{
    if (!take_body(p))
        return;
    p->sh.kicked = 1;
    p->cycle_state |= SIM_ST_KICK;
    if (!sim_referee_kick_allowed(w->play_mode))
        return;
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double power = clampd(c->d[0], cr(w, SP_minpower), cr(w, SP_maxpower));
    double dir = clampd(c->d[1], cr(w, SP_minmoment), cr(w, SP_maxmoment));
    vec2_t rel = vec2(w->ball.x - p->sh.x, w->ball.y - p->sh.y);
    double d = vec2_len(rel), bs = cr(w, SP_ball_size);
    if (d > t->player_size + bs + t->kickable_margin) {
        p->cycle_state |= SIM_ST_KICK_FAULT;
        sim_referee_on_failed(w, idx);
        return;
    }
    double dist_ball = d - t->player_size - bs;
    double dir_diff = fabs(angle_norm(vec2_angle(rel) - p->sh.body));
    double eff = power * t->kick_power_rate
                 * (1.0 - 0.25 * dir_diff / M_PI - 0.25 * dist_ball / t->kickable_margin);
    push_ball(w, vec2_polar(eff, p->sh.body + deg2rad(dir)),
              kick_noise_max(w, p, power, dir_diff, dist_ball));
    p->sh.count[SHM_CNT_KICK]++;
    w->catcher = -1;
    sim_referee_on_kick(w, idx);
}

static int catch_mode_ok(int pm)
{
    return pm == PM_PLAY_ON || pm == PM_PENALTY_KICK_L || pm == PM_PENALTY_KICK_R
           || (pm >= PM_PENALTY_SETUP_L && pm <= PM_PENALTY_SCORE_R);
}

static void catch_success(sim_world_t *w, int idx, sim_player_t *p, vec2_t rel)
{
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double reach = t->player_size + cr(w, SP_ball_size), d = vec2_len(rel);
    if (d > reach) {
        p->sh.x += rel.x * (d - reach) / d;
        p->sh.y += rel.y * (d - reach) / d;
    }
    p->sh.body = vec2_angle(rel);
    p->turn = 0.0;
    p->sh.vx = p->sh.vy = 0.0;
    p->goalie_moves = 0;
    p->cycle_state |= SIM_ST_CATCH;
    w->ball.vx = w->ball.vy = w->ball.ax = w->ball.ay = 0.0;
    w->catcher = idx;
    sim_referee_on_catch(w, idx);
}

/* spec 3.5: rectangle along body+dir, probabilistic zone between L_min and L_max */
static void cmd_catch(sim_world_t *w, int idx, sim_player_t *p, const shm_cmd_sh_t *c)
{
    if (!take_body(p))
        return;
    if (!p->sh.goalie || p->catch_ban > 0 || !catch_mode_ok(w->play_mode))
        return;
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double dir = deg2rad(clampd(c->d[0], cr(w, SP_min_catch_angle), cr(w, SP_max_catch_angle)));
    p->catch_ban = conf_int(w->conf, SP_catch_ban_cycle);
    double len = cr(w, SP_catchable_area_l), wid = cr(w, SP_catchable_area_w);
    double delta = len * (t->catchable_area_l_stretch - 1.0);
    double lmax = len + delta, lmin = len - delta;
    vec2_t rel = vec2(w->ball.x - p->sh.x, w->ball.y - p->sh.y);
    double a = p->sh.body + dir, x = rel.x * cos(a) + rel.y * sin(a);
    double y = -rel.x * sin(a) + rel.y * cos(a);
    if (x < 0.0 || x > lmax || fabs(y) > wid / 2.0) {
        p->cycle_state |= SIM_ST_CATCH_FAULT;
        return;
    }
    p->sh.count[SHM_CNT_CATCH]++;
    double prob = cr(w, SP_catch_probability);
    if (x > lmin && lmax > lmin)
        prob *= 1.0 - (x - lmin) / (lmax - lmin);
    if (rng_unit(&w->rng) < prob) {
        catch_success(w, idx, p, rel);
        return;
    }
    vec2_t u = vec2_polar(1.0, a), v = vec2(w->ball.vx, w->ball.vy); /* punch */
    double along = vec2_dot(v, u);
    w->ball.vx -= 2.0 * along * u.x;
    w->ball.vy -= 2.0 * along * u.y;
    p->cycle_state |= SIM_ST_CATCH_FAULT;
    sim_referee_on_punch(w, idx);
}

static int tackle_success_mode(int pm)
{
    return pm != PM_CATCH_FAULT_L && pm != PM_CATCH_FAULT_R
           ? sim_referee_kick_allowed(pm) : 1;
}

/* 1 if an opponent of p has the ball kickable (foul tackle condition) */
static int opponent_has_ball(const sim_world_t *w, const sim_player_t *p)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const sim_player_t *q = &w->pl[i];
        if (!q->sh.enabled || q->sh.side == p->sh.side)
            continue;
        const shm_ptype_sh_t *t = sim_player_ptype(w, q);
        double ka = t->player_size + cr(w, SP_ball_size) + t->kickable_margin;
        if (hypot(w->ball.x - q->sh.x, w->ball.y - q->sh.y) <= ka)
            return 1;
    }
    return 0;
}

static void tackle_push(sim_world_t *w, sim_player_t *p, const shm_cmd_sh_t *c,
                        double ball_ang, double fail)
{
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double tpr = cr(w, SP_tackle_power_rate), k = 1.0 - 0.5 * fabs(ball_ang) / M_PI;
    double eff, dir = p->sh.body, power_rate = 1.0;
    if (p->version <= 0.0 || p->version >= 12.0) {
        double x = deg2rad(clampd(c->d[0], -180.0, 180.0));
        double mbp = cr(w, SP_max_back_tackle_power), mp = cr(w, SP_max_tackle_power);
        eff = (mbp + (mp - mbp) * (1.0 - fabs(x) / M_PI)) * tpr * k;
        dir += x;
    } else {
        double pw = clampd(c->d[0], -cr(w, SP_max_back_tackle_power), cr(w, SP_max_tackle_power));
        eff = pw * tpr * k;
        power_rate = fabs(pw) / cr(w, SP_max_tackle_power);
    }
    double bs = hypot(w->ball.vx, w->ball.vy);
    double speed_rate = 0.5 + 0.5 * bs / (cr(w, SP_ball_speed_max) * cr(w, SP_ball_decay));
    double pos_rate = 0.5 + 0.5 * (1.0 - fail);
    double max_rand = t->kick_rand * cr(w, SP_tackle_rand_factor) * power_rate
                      * (pos_rate + speed_rate);
    push_ball(w, vec2_polar(eff, dir), max_rand);
}

/* spec 3.7 (foul charging of the victim and cards are not implemented) */
static void cmd_tackle(sim_world_t *w, int idx, sim_player_t *p, const shm_cmd_sh_t *c)
{
    if (!take_body(p))
        return;
    p->sh.count[SHM_CNT_TACKLE]++;
    p->sh.tackle_expires = conf_int(w->conf, SP_tackle_cycles);
    p->cycle_state |= SIM_ST_TACKLE;
    vec2_t rel = vec2(w->ball.x - p->sh.x, w->ball.y - p->sh.y);
    double b = p->sh.body, x = rel.x * cos(b) + rel.y * sin(b);
    double y = -rel.x * sin(b) + rel.y * cos(b);
    double td = x > 0.0 ? cr(w, SP_tackle_dist) : cr(w, SP_tackle_back_dist);
    double tw = cr(w, SP_tackle_width);
    if (td <= 0.0 || tw <= 0.0) {
        p->cycle_state |= SIM_ST_TACKLE_FAULT;
        sim_referee_on_failed(w, idx);
        return;
    }
    int foul = c->i != 0 && opponent_has_ball(w, p);
    double e = foul ? cr(w, SP_foul_exponent) : cr(w, SP_tackle_exponent);
    double fail = pow(fabs(x) / td, e) + pow(fabs(y) / tw, e);
    double u = rng_unit(&w->rng);
    if (!(fail < 1.0 && u < 1.0 - fail) || !tackle_success_mode(w->play_mode)) {
        p->cycle_state |= SIM_ST_TACKLE_FAULT;
        sim_referee_on_failed(w, idx);
        return;
    }
    tackle_push(w, p, c, angle_norm(vec2_angle(rel) - b), fail);
    if (foul)
        p->sh.tackle_expires = 0;
    w->catcher = -1;
    sim_referee_on_tackle(w, idx, c->i != 0);
}

static void cmd_say(sim_world_t *w, sim_player_t *p, const shm_cmd_sh_t *c)
{
    size_t len = c->len < SHM_CMD_TEXT_LEN ? c->len : SHM_CMD_TEXT_LEN;
    len = strnlen(c->text, len);
    if (len > (size_t)conf_int(w->conf, SP_say_msg_size))
        return; /* too long: dropped silently */
    sim_world_emit(w, SHM_EV_SAY, p->sh.side, p->sh.unum, p->sh.x, p->sh.y, 0, c->text, len);
    p->sh.count[SHM_CNT_SAY]++;
}

static void cmd_pointto(sim_world_t *w, sim_player_t *p, const shm_cmd_sh_t *c)
{
    if (p->sh.arm_movable > 0)
        return;
    if (c->i == 1) {
        p->sh.arm_expires = 0;
    } else {
        double dist = c->d[0], dir = c->d[1];
        if (!isfinite(dist) || !isfinite(dir))
            return;
        double face = p->sh.body + p->sh.neck + deg2rad(dir);
        p->sh.point_x = p->sh.x + dist * cos(face);
        p->sh.point_y = p->sh.y + dist * sin(face);
        p->sh.arm_expires = conf_int(w->conf, SP_point_to_duration);
    }
    p->sh.arm_movable = conf_int(w->conf, SP_point_to_ban);
    p->sh.count[SHM_CNT_POINTTO]++;
}

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
    if (t == idx || !w->pl[t].sh.enabled)
        return;
    p->sh.focus_side = (int8_t)side;
    p->sh.focus_unum = (int8_t)unum;
    p->sh.count[SHM_CNT_ATTENTIONTO]++;
}

static double view_half_angle(const sim_player_t *p)
{
    static const double async_deg[3] = { 45.0, 90.0, 180.0 };
    static const double synch_deg[3] = { 60.0, 120.0, 180.0 };
    int vw = p->sh.view_width < 0 || p->sh.view_width > 2 ? 1 : p->sh.view_width;
    return deg2rad((p->sh.synch_see ? synch_deg : async_deg)[vw]) / 2.0;
}

static void cmd_change_focus(sim_player_t *p, const shm_cmd_sh_t *c)
{
    if (!isfinite(c->d[0]) || !isfinite(c->d[1]))
        return;
    double h = view_half_angle(p);
    p->sh.focus_dist = clampd(p->sh.focus_dist + c->d[0], 0.0, 40.0);
    p->sh.focus_dir = clampd(angle_norm(p->sh.focus_dir + deg2rad(c->d[1])), -h, h);
    p->sh.count[SHM_CNT_CHANGE_FOCUS]++;
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
    case SHM_CMD_KICK:         cmd_kick(w, idx, p, c); break;
    case SHM_CMD_CATCH:        cmd_catch(w, idx, p, c); break;
    case SHM_CMD_TACKLE:       cmd_tackle(w, idx, p, c); break;
    case SHM_CMD_SAY:          cmd_say(w, p, c); break;
    case SHM_CMD_POINTTO:      cmd_pointto(w, p, c); break;
    case SHM_CMD_ATTENTIONTO:  cmd_attentionto(w, idx, p, c); break;
    case SHM_CMD_CHANGE_FOCUS: cmd_change_focus(p, c); break;
    case SHM_CMD_CHANGE_VIEW:  p->sh.count[SHM_CNT_CHANGE_VIEW]++; break;
    case SHM_CMD_BYE:          sim_player_disable(w, idx); break;
    case SHM_CMD_RAW:          sim_world_textlog(w, p->sh.side, p->sh.unum, c); break;
    default:                   break; /* control kinds are not a player's */
    }
}
