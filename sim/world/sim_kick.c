/* sim_kick.c -- what a player does to the ball at command time (docs/protocol/physics.md §4,
 * §5, §7): kick (power reduced by direction and distance, v12+ polar noise), tackle
 * (success probability by the ball's place in the body frame, power or direction by the
 * client's version, foul exponent, freeze), goalie catch (rectangle with the type's
 * stretch, probability zone, ban, the goalie stepping to the ball, the punch of a
 * probabilistic miss). Accelerations are added to the ball's (several kicks in a cycle
 * add up) and applied at the step. The referee hears of each outcome through the hooks
 * of w->rules (sim_world.h); the physics never changes the play mode itself. Draws come
 * from w->rng_act. Called by sim_cmd.c. */
#include <math.h>
#include "sim_phys.h"

/* ball acceleration noise of a kick or tackle: polar, length uniform in [0, max_rand] */
static vec2_t ball_noise(sim_world_t *w, double max_rand)
{
    double r = sim_drand(&w->rng_act, 0.0, max_rand);
    double th = sim_drand(&w->rng_act, -M_PI, M_PI);
    return vec2_polar(r, th);
}

/* docs/protocol/physics.md §4: 0.5 + 0.5 * |ball velocity| / (ball_speed_max * ball_decay) */
static double speed_rate(const sim_world_t *w)
{
    double v = sqrt(w->ball.vx * w->ball.vx + w->ball.vy * w->ball.vy);
    return 0.5 + 0.5 * (v / (sim_cr(w, SP_ball_speed_max) * sim_cr(w, SP_ball_decay)));
}

/* the ball takes the acceleration; the referee hears of it with its size */
static void push_ball(sim_world_t *w, vec2_t acc)
{
    w->catcher = -1;
    w->ball.ax += acc.x;
    w->ball.ay += acc.y;
    w->action_accel = sqrt(acc.x * acc.x + acc.y * acc.y);
}

/* ---- kick (docs/protocol/physics.md §4) ---------------------------------------------- */
void sim_kick_cmd(sim_world_t *w, int idx, const shm_cmd_sh_t *c)
{
    sim_player_t *p = &w->pl[idx];
    if (p->body_used)
        return;
    p->body_used = 1;
    p->sh.kicked = 1;
    double power = sim_bound(sim_cr(w, SP_minpower), c->d[0], sim_cr(w, SP_maxpower));
    double dir = sim_deg2rad(sim_bound(sim_cr(w, SP_minmoment), c->d[1], sim_cr(w, SP_maxmoment)));
    p->cycle_state |= SIM_ST_KICK;
    if (sim_phys_kick_forbidden(w->play_mode)) {
        p->cycle_state |= SIM_ST_KICK_FAULT;
        return;
    }
    if (!sim_phys_ball_kickable(w, p)) {
        p->cycle_state |= SIM_ST_KICK_FAULT;
        sim_rules_failed(w, idx);
        return;
    }
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    vec2_t rel = vec2(w->ball.x - p->sh.x, w->ball.y - p->sh.y);
    double dir_diff = fabs(angle_norm(vec2_angle(rel) - p->sh.body));
    double dist_ball = vec2_len(rel) - t->player_size - sim_cr(w, SP_ball_size);
    double eff = power * t->kick_power_rate
                 * (1.0 - 0.25 * dir_diff / M_PI - 0.25 * dist_ball / t->kickable_margin);
    vec2_t acc = vec2_polar(eff, dir + p->sh.body);
    double pos_rate = 0.5 + 0.25 * (dir_diff / M_PI + dist_ball / t->kickable_margin);
    double max_rand = sim_phys_kick_rand(w, p) * (power / sim_cr(w, SP_maxpower))
                      * (pos_rate + speed_rate(w));
    acc = vec2_add(acc, ball_noise(w, max_rand));
    push_ball(w, acc);
    sim_rules_kick(w, idx);
    p->sh.count[SHM_CNT_KICK]++;
}

/* ---- tackle (docs/protocol/physics.md §7) -------------------------------------------- */
/* a player of the other team has the ball within his kickable area */
static int opponent_has_ball(const sim_world_t *w, const sim_player_t *p)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const sim_player_t *q = &w->pl[i];
        if (q->sh.enabled && q->sh.side != p->sh.side && sim_phys_ball_kickable(w, q))
            return 1;
    }
    return 0;
}

/* the acceleration of a successful tackle: v12+ clients give a direction, older ones
 * a power along the body; *power_rate scales the noise */
static vec2_t tackle_accel(const sim_world_t *w, const sim_player_t *p, double arg,
                           double ball_dir, double *power_rate)
{
    double rate = sim_cr(w, SP_tackle_power_rate), k = 1.0 - 0.5 * (fabs(ball_dir) / M_PI);
    double mp = sim_cr(w, SP_max_tackle_power), mbp = sim_cr(w, SP_max_back_tackle_power);
    *power_rate = 1.0;
    if (p->version <= 0.0 || p->version >= 12.0) {
        double ang = sim_deg2rad(sim_bound(sim_cr(w, SP_minmoment), arg, sim_cr(w, SP_maxmoment)));
        double eff = (mbp + (mp - mbp) * (1.0 - fabs(ang) / M_PI)) * rate;
        return vec2_polar(eff * k, ang + p->sh.body);
    }
    double power = sim_bound(-mbp, arg, mp);
    if (power >= 0.0)
        *power_rate = power / mp;
    else if (fabs(power) < 1.0e-10)
        *power_rate = 0.0;
    else if (fabs(mbp) > 1.0e-10)
        *power_rate = -power / mbp;
    return vec2_polar(power * rate * k, p->sh.body);
}

/* c->d[0]: direction (v12+) or power; c->i: the foul flag was given */
void sim_kick_tackle(sim_world_t *w, int idx, const shm_cmd_sh_t *c)
{
    sim_player_t *p = &w->pl[idx];
    if (p->body_used)
        return;
    for (int l = 0; l < 2; l++)
        p->leg[l] = p->leg[l] == SIM_LEG_NONE ? SIM_LEG_TACKLE : p->leg[l];
    p->body_used = 1;
    p->sh.tackle_expires = conf_int(w->conf, SP_tackle_cycles);
    p->sh.count[SHM_CNT_TACKLE]++;
    vec2_t rel = vec2(w->ball.x - p->sh.x, w->ball.y - p->sh.y);
    double cb = cos(-p->sh.body), sb = sin(-p->sh.body);
    vec2_t b = vec2(rel.x * cb - rel.y * sb, rel.x * sb + rel.y * cb); /* body frame */
    double dist = b.x > 0.0 ? sim_cr(w, SP_tackle_dist) : sim_cr(w, SP_tackle_back_dist);
    if (fabs(dist) <= 1.0e-5) {
        p->cycle_state |= SIM_ST_TACKLE_FAULT;
        return;
    }
    int foul = c->i != 0 && opponent_has_ball(w, p);
    double e = foul ? sim_cr(w, SP_foul_exponent) : sim_cr(w, SP_tackle_exponent);
    double fail = pow(fabs(b.x) / dist, e) + pow(fabs(b.y) / sim_cr(w, SP_tackle_width), e);
    if (!(fail < 1.0)) {
        p->cycle_state |= SIM_ST_TACKLE_FAULT;
        sim_rules_failed(w, idx);
        return;
    }
    if (!sim_bernoulli(&w->rng_act, 1.0 - fail)) {
        p->cycle_state |= SIM_ST_TACKLE | SIM_ST_TACKLE_FAULT;
        sim_rules_failed(w, idx);
        return;
    }
    p->cycle_state |= SIM_ST_TACKLE;
    if (sim_phys_kick_forbidden(w->play_mode) && w->play_mode != PM_CATCH_FAULT_L
        && w->play_mode != PM_CATCH_FAULT_R)
        return; /* succeeded, but the mode gives it no effect */
    if (foul)
        p->sh.tackle_expires = 0;
    double power_rate;
    vec2_t acc = tackle_accel(w, p, c->d[0], vec2_angle(b), &power_rate);
    double max_rand = sim_phys_kick_rand(w, p) * sim_cr(w, SP_tackle_rand_factor) * power_rate
                      * ((0.5 + 0.5 * (1.0 - fail)) + speed_rate(w));
    push_ball(w, vec2_add(acc, ball_noise(w, max_rand)));
    sim_rules_tackle(w, idx, foul);
}

/* ---- catch (docs/protocol/physics.md §5) --------------------------------------------- */
static int catch_mode(int pm)
{
    return pm == PM_PLAY_ON || sim_phys_penalty_shootout(pm);
}

/* The goalie steps along the line to the ball until touching it, faces it and stops;
 * collisions are resolved before the referee hears of the catch. The ball stays held
 * only if the referee then gives the goalie's team the free kick. */
static void catch_success(sim_world_t *w, int idx, vec2_t rel)
{
    sim_player_t *p = &w->pl[idx];
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double mag = vec2_len(rel) - (sim_cr(w, SP_ball_size) + t->player_size);
    vec2_t step = vec2_scale(rel, mag / fmax(vec2_len(rel), SIM_EPS));
    p->sh.x += step.x;
    p->sh.y += step.y;
    p->body_next = vec2_angle(step);
    p->sh.vx = p->sh.vy = 0.0;
    p->cycle_state |= SIM_ST_CATCH;
    sim_collide(w);
    w->catcher = idx;
    sim_rules_catch(w, idx);
    int fk = w->play_mode == PM_FREE_KICK_L || w->play_mode == PM_FREE_KICK_R;
    if (!fk && w->catcher == idx)
        w->catcher = -1;
}

/* a miss by probability: the ball's velocity along the catch direction is reversed,
 * through an acceleration applied at the step */
static void catch_punch(sim_world_t *w, int idx, double ang)
{
    vec2_t v = vec2(w->ball.vx, w->ball.vy), r;
    double c = cos(-ang), s = sin(-ang);
    r = vec2(v.x * c - v.y * s, v.x * s + v.y * c);
    r.x = -r.x;
    c = cos(ang);
    s = sin(ang);
    r = vec2(r.x * c - r.y * s, r.x * s + r.y * c);
    w->ball.ax += r.x - v.x;
    w->ball.ay += r.y - v.y;
    w->pl[idx].cycle_state |= SIM_ST_CATCH_FAULT;
    sim_rules_punch(w, idx);
}

void sim_kick_catch(sim_world_t *w, int idx, const shm_cmd_sh_t *c)
{
    sim_player_t *p = &w->pl[idx];
    if (p->body_used)
        return;
    double dir = sim_bound(sim_cr(w, SP_min_catch_angle), c->d[0], sim_cr(w, SP_max_catch_angle));
    p->body_used = 1;
    p->cycle_state |= SIM_ST_CATCH;
    if (!p->sh.goalie || p->catch_ban > 0 || !catch_mode(w->play_mode)) {
        p->cycle_state |= SIM_ST_CATCH_FAULT;
        return;
    }
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double len = sim_cr(w, SP_catchable_area_l), wid = sim_cr(w, SP_catchable_area_w);
    double delta = len * (t->catchable_area_l_stretch - 1.0);
    double lmax = len + delta, lmin = len - delta;
    p->catch_ban = conf_int(w->conf, SP_catch_ban_cycle);
    double ang = p->sh.body + sim_deg2rad(sim_bound(sim_cr(w, SP_minmoment), dir,
                                                    sim_cr(w, SP_maxmoment)));
    vec2_t rel = vec2(w->ball.x - p->sh.x, w->ball.y - p->sh.y);
    double cr = cos(-ang), sr = sin(-ang);
    vec2_t b = vec2(rel.x * cr - rel.y * sr, rel.x * sr + rel.y * cr);
    /* the rectangles [0, l] x [-wid/2, wid/2], edges included */
    if (!(b.x >= 0.0 && b.x <= lmax && b.y >= -wid * 0.5 && b.y <= wid * 0.5)) {
        p->cycle_state |= SIM_ST_CATCH_FAULT;
        return;
    }
    double prob = sim_cr(w, SP_catch_probability);
    if (!(b.x <= lmin)) {
        prob = prob - prob * ((b.x - lmin) / (lmax - lmin));
        prob = fmin(fmax(0.0, prob), 1.0);
    }
    if (sim_bernoulli(&w->rng_act, prob))
        catch_success(w, idx, rel);
    else
        catch_punch(w, idx, ang);
    p->sh.count[SHM_CNT_CATCH]++;
    p->goalie_moves = 0;
}
