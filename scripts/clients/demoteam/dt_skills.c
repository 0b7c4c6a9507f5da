/* dt_skills.c -- the demo team's commands and skills: the command builders record what
 * they send so that the world model can predict the next cycle (turn effect, ball
 * acceleration of a kick); the skills turn and dash to a point, find where the ball can
 * be intercepted, kick the ball at a given speed to a target (docs/protocol/physics.md §4:
 * the effective kick power falls with the ball's angle and distance), dribble, and keep
 * the face on the ball with the neck. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "dt.h"

/* docs/protocol/player.md §10: (dash P DIR) power rates, side and back */
#define SIDE_DASH_RATE 0.4
#define BACK_DASH_RATE 0.7

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

void dt_cmd_reset(dt_cmd_t *c)
{
    c->text[0] = '\0';
    c->len = 0;
    c->body = 0;
    c->why = "";
}

void dt_cmd_text(dt_cmd_t *c, const char *text)
{
    int n = snprintf(c->text + c->len, sizeof c->text - c->len, "%s", text);
    if (n > 0 && c->len + (size_t)n < sizeof c->text)
        c->len += (size_t)n;
    else
        c->text[c->len] = '\0';
}

/* one body command per cycle: the server takes the first only (docs/protocol/player.md §10) */
static int body_free(dt_cmd_t *c)
{
    if (c->body)
        return 0;
    c->body = 1;
    return 1;
}

void dt_cmd_turn(dt_world_t *w, dt_cmd_t *c, double moment)
{
    if (!body_free(c))
        return;
    char t[48];
    moment = clampd(moment, w->prm->min_moment, w->prm->max_moment);
    snprintf(t, sizeof t, "(turn %.1f)", moment);
    dt_cmd_text(c, t);
    w->cmd_turn = moment;
}

static double dash_dir_rate(double dir)
{
    double a = fabs(dir);
    double r = a <= 90.0 ? SIDE_DASH_RATE + (1.0 - SIDE_DASH_RATE) * (1.0 - a / 90.0)
                         : BACK_DASH_RATE - (BACK_DASH_RATE - SIDE_DASH_RATE) * (1.0 - (a - 90.0) / 90.0);
    return clampd(r, 0.0, 1.0);
}

void dt_cmd_dash(dt_world_t *w, dt_cmd_t *c, double power, double dir)
{
    if (!body_free(c))
        return;
    char t[48];
    power = clampd(power, 0.0, 100.0);
    dir = rint(clampd(dir, -180.0, 180.0));
    if (dir == 0.0)
        snprintf(t, sizeof t, "(dash %.1f)", power);
    else
        snprintf(t, sizeof t, "(dash %.1f %.0f)", power, dir);
    dt_cmd_text(c, t);
    w->cmd_dash = power;
    w->cmd_dash_dir = dir;
}

/* the effective kick power rate at the ball's current place (docs/protocol/physics.md §4) */
static double kick_rate(const dt_world_t *w)
{
    const dt_ptype_t *t = dt_world_type(w);
    vec2_t rel = vec2_sub(w->ball.pos, w->pos);
    double dir_diff = fabs(angle_norm(vec2_angle(rel) - w->body));
    double dist_ball = fmax(0.0, vec2_len(rel) - t->size - w->prm->ball_size);
    double f = 1.0 - 0.25 * dir_diff / M_PI - 0.25 * dist_ball / t->kick_margin;
    return t->kick_power_rate * fmax(f, 0.0);
}

void dt_cmd_kick(dt_world_t *w, dt_cmd_t *c, double power, double dir)
{
    if (!body_free(c))
        return;
    char t[48];
    power = clampd(power, 0.0, w->prm->max_power);
    dir = clampd(dir, w->prm->min_moment, w->prm->max_moment);
    snprintf(t, sizeof t, "(kick %.1f %.1f)", power, dir);
    dt_cmd_text(c, t);
    vec2_t acc = vec2_polar(power * kick_rate(w), w->body + deg2rad(dir));
    w->cmd_kick = vec2_cap(acc, w->prm->ball_accel_max);
    w->cmd_kicked = 1;
    w->last_mate_touch = w->tick;
    if (w->pm != DT_PM_PLAY_ON)
        w->setplay_kicked = w->tick;
}

void dt_cmd_catch(dt_world_t *w, dt_cmd_t *c, double dir)
{
    if (!body_free(c))
        return;
    char t[48];
    snprintf(t, sizeof t, "(catch %.0f)", clampd(dir, -90.0, 90.0));
    dt_cmd_text(c, t);
    w->cmd_caught = 1;
    w->catch_ban = (int)w->prm->catch_ban_cycle + 1;
}

void dt_cmd_move(dt_world_t *w, dt_cmd_t *c, vec2_t at)
{
    if (!body_free(c))
        return;
    char t[64];
    snprintf(t, sizeof t, "(move %.1f %.1f)", at.x, at.y);
    dt_cmd_text(c, t);
    w->cmd_moved = 1;
    w->cmd_move = at;
    w->moved_tick = w->tick;
}

void dt_cmd_neck(dt_world_t *w, dt_cmd_t *c, double angle)
{
    char t[48];
    angle = rint(angle);
    if (angle == 0.0)
        return;
    snprintf(t, sizeof t, "(turn_neck %.0f)", angle);
    dt_cmd_text(c, t);
    w->cmd_neck = angle;
}

/* ---- moving ----------------------------------------------------------------------- */
double dt_skill_dash_power(const dt_world_t *w, double wanted)
{
    double s = w->sb.stamina;
    /* below 30 % of stamina_max the recovery drops for good (docs/protocol/physics.md §3):
     * keep above */
    if (s < 0.33 * w->prm->stamina_max)
        return fmin(wanted, dt_world_type(w)->stamina_inc_max * 0.8);
    if (s < 0.45 * w->prm->stamina_max)
        return fmin(wanted, 60.0);
    return wanted;
}

void dt_skill_turn_to(dt_world_t *w, dt_cmd_t *c, vec2_t at)
{
    double a = rad2deg(angle_norm(vec2_angle(vec2_sub(at, w->pos)) - w->body));
    if (fabs(a) < 4.0)
        return; /* close enough: save the slot */
    double speed = vec2_len(w->vel);
    dt_cmd_turn(w, c, a * (1.0 + dt_world_type(w)->inertia * speed));
}

int dt_skill_go_to(dt_world_t *w, dt_cmd_t *c, vec2_t at, double tol, double power)
{
    vec2_t next = vec2_add(w->pos, w->vel);
    vec2_t rel = vec2_sub(at, next);
    double d = vec2_len(rel);
    if (d < tol)
        return 1;
    double a = rad2deg(angle_norm(vec2_angle(rel) - w->body));
    power = dt_skill_dash_power(w, power);
    /* near: dash sideways or backwards instead of turning (docs/protocol/player.md §10,
     * (dash P DIR)) */
    if (d < 4.0 && fabs(a) > 12.0) {
        double p = fmin(power, d / (dt_world_type(w)->dash_rate * dash_dir_rate(a)) + 10.0);
        dt_cmd_dash(w, c, p, a);
        return 0;
    }
    double allowed = fmax(10.0, rad2deg(atan2(tol, d)));
    if (fabs(a) > allowed) {
        dt_skill_turn_to(w, c, at);
        return 0;
    }
    dt_cmd_dash(w, c, power, 0.0);
    return 0;
}

/* distance covered in k cycles of full dashes from our current speed */
static double reach(const dt_world_t *w, int k)
{
    const dt_ptype_t *t = dt_world_type(w);
    double v = vec2_len(w->vel) * 0.5, d = 0.0;
    double acc = 100.0 * t->dash_rate * (w->sb.effort > 0 ? w->sb.effort : 1.0);
    for (int i = 0; i < k; i++) {
        v = fmin(v + acc, t->speed_max);
        d += v;
        v *= t->decay;
    }
    return d;
}

static vec2_t ball_at(const dt_world_t *w, int n)
{
    double d = w->prm->ball_decay;
    double f = d < 1.0 ? (1.0 - pow(d, n)) / (1.0 - d) : n;
    return vec2_add(w->ball.pos, vec2_scale(w->ball.vel, f));
}

int dt_skill_intercept(const dt_world_t *w, vec2_t *where)
{
    if (w->ball.age >= 30) {
        *where = w->ball.pos;
        return 999;
    }
    double kick = dt_world_kickable(w) * 0.7;
    for (int n = 0; n < 60; n++) {
        vec2_t b = ball_at(w, n);
        vec2_t rel = vec2_sub(b, w->pos);
        double dist = vec2_len(rel) - kick;
        double a = fabs(rad2deg(angle_norm(vec2_angle(rel) - w->body)));
        int turns = dist > 1.0 && a > 15.0 ? 1 : 0;
        if (dist <= 0.0 || (n > turns && reach(w, n - turns) >= dist)) {
            *where = b;
            return n;
        }
    }
    *where = ball_at(w, 60);
    return 60;
}

int dt_skill_intercept_from(const dt_world_t *w, vec2_t from, double speed)
{
    if (w->ball.age >= 30)
        return 999;
    for (int n = 0; n < 60; n++) {
        double dist = vec2_len(vec2_sub(ball_at(w, n), from)) - 1.0;
        if (dist <= speed * (n - 1))
            return n;
    }
    return 60;
}

void dt_skill_chase(dt_world_t *w, dt_cmd_t *c)
{
    vec2_t at;
    dt_skill_intercept(w, &at);
    vec2_t me_next = vec2_add(w->pos, w->vel);
    double d = vec2_len(vec2_sub(ball_at(w, 1), me_next));
    const dt_ptype_t *t = dt_world_type(w);
    double power = 100.0;
    if (d < 2.5) /* do not run over the ball */
        power = clampd((d - 0.4 * dt_world_kickable(w)) / t->dash_rate, 15.0, 100.0);
    if (dt_skill_go_to(w, c, at, 0.4 * dt_world_kickable(w), power))
        dt_skill_turn_to(w, c, ball_at(w, 1));
}

/* ---- kicking ---------------------------------------------------------------------- */
double dt_skill_pass_speed(const dt_world_t *w, double dist, double end_speed)
{
    /* traveled = (v0 - v_end) / (1 - decay) while the ball slows from v0 to v_end */
    double v0 = dist * (1.0 - w->prm->ball_decay) + end_speed;
    return fmin(v0, w->prm->ball_speed_max);
}

/* kick the ball so that its velocity becomes v; 1 if fully reached */
static int kick_vel(dt_world_t *w, dt_cmd_t *c, vec2_t v, double accept)
{
    double rate = kick_rate(w);
    if (rate <= 0.0)
        return 0;
    vec2_t need = vec2_sub(v, w->ball.vel);
    double power = vec2_len(need) / rate;
    double dir = rad2deg(angle_norm(vec2_angle(need) - w->body));
    if (power <= w->prm->max_power && vec2_len(need) <= w->prm->ball_accel_max) {
        dt_cmd_kick(w, c, power, dir);
        return 1;
    }
    /* full power along need: good enough if the result is close to v */
    vec2_t got = vec2_add(w->ball.vel, vec2_polar(fmin(w->prm->max_power * rate,
                                                        w->prm->ball_accel_max),
                                                   vec2_angle(need)));
    double da = fabs(angle_norm(vec2_angle(got) - vec2_angle(v)));
    if (da < deg2rad(6.0) && vec2_len(got) >= accept * vec2_len(v)) {
        dt_cmd_kick(w, c, w->prm->max_power, dir);
        return 1;
    }
    return 0;
}

int dt_skill_kick_direct(dt_world_t *w, dt_cmd_t *c, vec2_t target, double speed)
{
    speed = fmin(speed, w->prm->ball_speed_max);
    vec2_t v = vec2_polar(speed, vec2_angle(vec2_sub(target, w->ball.pos)));
    if (!kick_vel(w, c, v, 0.75))
        return 0;
    w->sent_tick = w->tick;
    return 1;
}

int dt_skill_kick_to(dt_world_t *w, dt_cmd_t *c, vec2_t target, double speed)
{
    speed = fmin(speed, w->prm->ball_speed_max);
    vec2_t v = vec2_polar(speed, vec2_angle(vec2_sub(target, w->ball.pos)));
    if (dt_skill_kick_direct(w, c, target, speed))
        return 1;
    /* bring the ball to a good place in front of us for the next cycle */
    vec2_t me_next = vec2_add(w->pos, w->vel);
    double side = angle_norm(vec2_angle(vec2_sub(target, w->pos)) - w->body) > 0 ? 1 : -1;
    vec2_t spot = vec2_add(me_next, vec2_polar(0.55 * dt_world_kickable(w),
                                               w->body + side * deg2rad(30.0)));
    vec2_t hold = vec2_sub(spot, w->ball.pos);
    if (!kick_vel(w, c, hold, 0.0) && !kick_vel(w, c, vec2(0.0, 0.0), 0.0))
        dt_cmd_kick(w, c, w->prm->max_power, rad2deg(angle_norm(vec2_angle(v) - w->body)));
    return 0;
}

void dt_skill_dribble(dt_world_t *w, dt_cmd_t *c, vec2_t towards, int free)
{
    double a = vec2_angle(vec2_sub(towards, w->pos));
    if (fabs(angle_norm(a - w->body)) > deg2rad(35.0)) {
        /* face the way first: turn if the ball stays within reach, else stop it in
         * front of where we will be */
        vec2_t me = vec2_add(w->pos, w->vel), ball = vec2_add(w->ball.pos, w->ball.vel);
        if (vec2_len(vec2_sub(ball, me)) < dt_world_kickable(w) - 0.25) {
            dt_skill_turn_to(w, c, towards);
            return;
        }
        vec2_t spot = vec2_add(me, vec2_polar(0.45 * dt_world_kickable(w), a));
        if (kick_vel(w, c, vec2_sub(spot, w->ball.pos), 0.0))
            return;
    }
    /* free: push the ball well ahead and run after it; else keep it close */
    double len = free ? 8.0 : 4.5;
    vec2_t target = vec2_add(w->pos, vec2_polar(len, a));
    dt_skill_kick_to(w, c, target, dt_skill_pass_speed(w, len, free ? 0.8 : 0.5));
}

/* ---- looking ---------------------------------------------------------------------- */
void dt_skill_look(dt_world_t *w, dt_cmd_t *c)
{
    double speed = vec2_len(w->vel);
    double body_next = w->body + deg2rad(w->cmd_turn) / (1.0 + dt_world_type(w)->inertia * speed);
    double want;
    if (w->ball.age < 6) {
        vec2_t me = vec2_add(w->pos, w->vel);
        want = rad2deg(angle_norm(vec2_angle(vec2_sub(ball_at(w, 1), me)) - body_next));
    } else {
        w->scan = (w->scan + 1) % 6;
        want = (w->scan / 2 - 1) * 85.0;
    }
    want = clampd(want, w->prm->min_neck_ang, w->prm->max_neck_ang);
    dt_cmd_neck(w, c, want - rad2deg(w->neck));
}
