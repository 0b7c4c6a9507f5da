/* sim_step.c -- one simulation step in the order of spec player-sim.md 3.1: pending
 * dashes, slot reset, play-mode dependent integration (3.2), collisions (3.8), referee,
 * stamina (3.3.3). Pure: works on a sim_world_t; all randomness from w->rng. */
#include <math.h>
#include "sim_world.h"
#include "geom.h"
#include "playmode.h"

#define COLL_EPS     1.0e-4
#define COLL_PASSES  10

static double cr(const sim_world_t *w, param_id_t id) { return conf_real(w->conf, id); }

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* dash direction rate (spec 3.3.1): 1 at 0 deg, side rate at 90, back rate at 180 */
double sim_dash_dir_rate(const conf_t *c, double dir_deg)
{
    double side = conf_real(c, SP_side_dash_rate), back = conf_real(c, SP_back_dash_rate);
    double a = fabs(dir_deg), r;
    if (a <= 90.0)
        r = side + (1.0 - side) * (1.0 - a / 90.0);
    else
        r = back - (back - side) * (1.0 - (a - 90.0) / 90.0);
    return clampd(r, 0.0, 1.0);
}

static double slowness(const sim_world_t *w, const sim_player_t *p)
{
    if (p->sh.y >= 0.0)
        return 1.0;
    double f = p->sh.side == SHM_SIDE_LEFT ? cr(w, SP_slowness_on_top_for_left_team)
                                           : cr(w, SP_slowness_on_top_for_right_team);
    return f > 0.0 ? f : 1.0;
}

/* leg acceleration for a leg of power pw (after the stamina share) and direction dir */
static vec2_t leg_accel(const sim_world_t *w, const sim_player_t *p, double pw, double dir)
{
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    pw = clampd(pw, cr(w, SP_min_dash_power), cr(w, SP_max_dash_power));
    double mag = fabs(p->sh.effort * pw * sim_dash_dir_rate(w->conf, dir) * t->dash_power_rate);
    mag /= slowness(w, p);
    double ang = p->sh.body + deg2rad(dir) + (pw < 0.0 ? M_PI : 0.0);
    return vec2_polar(mag, ang);
}

/* Pending dash -> stamina consumption and acceleration (spec 3.3.1). */
void sim_step_apply_dash(sim_world_t *w, sim_player_t *p)
{
    if (!p->dash_legs)
        return;
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double need[2] = { 0.0, 0.0 }, total = 0.0;
    for (int l = 0; l < 2; l++) {
        if (!(p->dash_legs & (1 << l)))
            continue;
        double pw = p->dash_pow[l];
        need[l] = pw >= 0.0 ? pw / 2.0 : -pw;
        total += need[l];
    }
    double avail = p->sh.stamina + t->extra_stamina;
    double scale = total > avail && total > 0.0 ? avail / total : 1.0;
    total *= scale;
    p->sh.stamina = fmax(0.0, p->sh.stamina - total);
    p->sh.count[SHM_CNT_DASH]++;
    p->dash_legs = 0;
    if (total < 1.0e-5)
        return;
    vec2_t a[2] = { vec2(0, 0), vec2(0, 0) };
    for (int l = 0; l < 2; l++) {
        if (need[l] <= 0.0)
            continue;
        double c = need[l] * scale;
        double pw = p->dash_pow[l] >= 0.0 ? 2.0 * c : -c;
        a[l] = leg_accel(w, p, pw, p->dash_dir[l]);
    }
    p->ax += (a[0].x + a[1].x) / 2.0;
    p->ay += (a[0].y + a[1].y) / 2.0;
    if (p->dash_bipedal && need[0] > 0.0) {
        vec2_t b = vec2_polar(1.0, p->sh.body), v = vec2(p->sh.vx, p->sh.vy);
        double om = (vec2_dot(vec2_add(v, a[0]), b) - vec2_dot(vec2_add(v, a[1]), b))
                    / (2.0 * t->player_size);
        if (om != 0.0) {
            double pr = cr(w, SP_player_rand);
            p->turn += om * (1.0 + rng_uniform(&w->rng, -pr, pr));
        }
    }
}

static void commit_angles(sim_player_t *p)
{
    p->sh.body = angle_norm(p->sh.body + p->turn);
    p->sh.neck = p->neck_next;
    p->turn = 0.0;
}

/* velocity noise: polar, uniform length in [0, rand*|v|], uniform angle (spec 3.2) */
static void add_noise(rng_t *r, double rnd, double *vx, double *vy)
{
    double m = rnd * sqrt(*vx * *vx + *vy * *vy);
    if (m <= 0.0)
        return;
    double len = rng_uniform(r, 0.0, m), th = rng_uniform(r, -M_PI, M_PI);
    *vx += len * cos(th);
    *vy += len * sin(th);
}

static double player_rand(const sim_world_t *w, const sim_player_t *p)
{
    double r = cr(w, SP_player_rand);
    if (conf_bool(w->conf, SP_team_actuator_noise))
        r *= p->sh.side == SHM_SIDE_LEFT ? cr(w, SP_prand_factor_l) : cr(w, SP_prand_factor_r);
    return r;
}

static void integrate_player(sim_world_t *w, sim_player_t *p)
{
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double sl = slowness(w, p);
    if (p->ax != 0.0 || p->ay != 0.0) {
        vec2_t a = vec2_cap(vec2(p->ax, p->ay), cr(w, SP_player_accel_max) * sl);
        vec2_t v = vec2_cap(vec2(p->sh.vx + a.x, p->sh.vy + a.y), t->player_speed_max * sl);
        p->sh.vx = v.x;
        p->sh.vy = v.y;
    }
    commit_angles(p);
    add_noise(&w->rng, player_rand(w, p), &p->sh.vx, &p->sh.vy);
    p->sh.x += p->sh.vx;
    p->sh.y += p->sh.vy;
    p->sh.vx *= t->player_decay;
    p->sh.vy *= t->player_decay;
    p->ax = p->ay = 0.0;
}

static void integrate_ball(sim_world_t *w)
{
    sim_ball_t *b = &w->ball;
    w->ball_px = b->x;
    w->ball_py = b->y;
    if (b->ax != 0.0 || b->ay != 0.0) {
        vec2_t a = vec2_cap(vec2(b->ax, b->ay), cr(w, SP_ball_accel_max));
        vec2_t v = vec2_cap(vec2(b->vx + a.x, b->vy + a.y), cr(w, SP_ball_speed_max));
        b->vx = v.x;
        b->vy = v.y;
    }
    add_noise(&w->rng, cr(w, SP_ball_rand), &b->vx, &b->vy);
    b->x += b->vx;
    b->y += b->vy;
    b->vx *= cr(w, SP_ball_decay);
    b->vy *= cr(w, SP_ball_decay);
    b->ax = b->ay = 0.0;
}

/* the goalie holding the ball carries it in front of him */
static void carry_ball(sim_world_t *w)
{
    if (w->catcher < 0)
        return;
    const sim_player_t *g = &w->pl[w->catcher];
    const shm_ptype_sh_t *t = sim_player_ptype(w, g);
    vec2_t off = vec2_polar(t->player_size + cr(w, SP_ball_size), g->sh.body);
    w->ball.x = g->sh.x + off.x;
    w->ball.y = g->sh.y + off.y;
    w->ball.vx = w->ball.vy = 0.0;
}

/* fixed order (ball, l1..l11, r1..r11): the reference shuffles; any fixed order keeps
 * a run reproducible from the seed */
static void move_objects(sim_world_t *w)
{
    integrate_ball(w);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        if (w->pl[i].sh.enabled)
            integrate_player(w, &w->pl[i]);
    }
    sim_step_collisions(w);
    carry_ball(w);
}

/* ---- collisions (spec 3.8) ------------------------------------------------------- */
typedef struct coll_acc {
    double sx, sy;   /* sum of proposed positions */
    int    n;        /* proposals this pass */
    int    hit;      /* collided at least once */
} coll_acc_t;

static void propose(coll_acc_t *a, double x, double y)
{
    a->sx += x;
    a->sy += y;
    a->n++;
    a->hit = 1;
}

/* separate two circles at (ax,ay) and (bx,by) of radii sum rs: both about the midpoint,
 * or only b pushed away from a when only_b */
static void separate(sim_world_t *w, double ax, double ay, double bx, double by, double rs,
                     int only_b, coll_acc_t *ca, coll_acc_t *cb)
{
    double dx = bx - ax, dy = by - ay, d = sqrt(dx * dx + dy * dy);
    if (d < 1.0e-9) {
        double th = rng_uniform(&w->rng, -M_PI, M_PI);
        dx = cos(th);
        dy = sin(th);
    } else {
        dx /= d;
        dy /= d;
    }
    if (only_b) {
        propose(cb, ax + dx * (rs + COLL_EPS), ay + dy * (rs + COLL_EPS));
        ca->hit = 1;
        return;
    }
    double mx = (ax + bx) / 2.0, my = (ay + by) / 2.0, h = rs / 2.0 + COLL_EPS;
    propose(ca, mx - dx * h, my - dy * h);
    propose(cb, mx + dx * h, my + dy * h);
}

static int collide_pass(sim_world_t *w, coll_acc_t *acc)
{
    coll_acc_t *ba = &acc[SHM_MAX_PLAYERS];
    double bs = cr(w, SP_ball_size);
    int any = 0;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled)
            continue;
        double ps = sim_player_ptype(w, p)->player_size;
        if (i != w->catcher && hypot(p->sh.x - w->ball.x, p->sh.y - w->ball.y) < ps + bs) {
            separate(w, w->ball.x, w->ball.y, p->sh.x, p->sh.y, ps + bs,
                     w->play_mode != PM_PLAY_ON, ba, &acc[i]);
            p->sh.collision |= SHM_COLL_BALL;
            p->cycle_state |= SIM_ST_BALL_COLLIDE;
            sim_referee_on_collide(w, i);
            any = 1;
        }
        for (int j = i + 1; j < SHM_MAX_PLAYERS; j++) {
            sim_player_t *q = &w->pl[j];
            if (!q->sh.enabled)
                continue;
            double qs = sim_player_ptype(w, q)->player_size;
            if (hypot(p->sh.x - q->sh.x, p->sh.y - q->sh.y) >= ps + qs)
                continue;
            separate(w, p->sh.x, p->sh.y, q->sh.x, q->sh.y, ps + qs, 0, &acc[i], &acc[j]);
            p->sh.collision |= SHM_COLL_PLAYER;
            q->sh.collision |= SHM_COLL_PLAYER;
            p->cycle_state |= SIM_ST_PLAYER_COLLIDE;
            q->cycle_state |= SIM_ST_PLAYER_COLLIDE;
            any = 1;
        }
    }
    return any;
}

static void apply_proposals(sim_world_t *w, coll_acc_t *acc)
{
    for (int i = 0; i <= SHM_MAX_PLAYERS; i++) {
        coll_acc_t *a = &acc[i];
        if (a->n == 0)
            continue;
        double x = a->sx / a->n, y = a->sy / a->n;
        if (i == SHM_MAX_PLAYERS) {
            w->ball.x = x;
            w->ball.y = y;
        } else {
            w->pl[i].sh.x = x;
            w->pl[i].sh.y = y;
        }
        a->sx = a->sy = 0.0;
        a->n = 0;
    }
}

void sim_step_collisions(sim_world_t *w)
{
    coll_acc_t acc[SHM_MAX_PLAYERS + 1] = { { 0 } };
    for (int pass = 0; pass < COLL_PASSES; pass++) {
        if (!collide_pass(w, acc))
            break;
        apply_proposals(w, acc);
    }
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        if (acc[i].hit) {
            w->pl[i].sh.vx *= -0.1;
            w->pl[i].sh.vy *= -0.1;
        }
    }
    if (acc[SHM_MAX_PLAYERS].hit) {
        w->ball.vx *= -0.1;
        w->ball.vy *= -0.1;
    }
}

/* ---- stamina (spec 3.3.3) -------------------------------------------------------- */
void sim_step_stamina(sim_world_t *w, sim_player_t *p)
{
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double smax = cr(w, SP_stamina_max);
    shm_player_sh_t *s = &p->sh;
    if (s->stamina <= cr(w, SP_recover_dec_thr) * smax)
        s->recovery = fmax(cr(w, SP_recover_min), s->recovery - cr(w, SP_recover_dec));
    if (s->stamina <= cr(w, SP_effort_dec_thr) * smax)
        s->effort = fmax(t->effort_min, s->effort - cr(w, SP_effort_dec));
    if (s->stamina >= cr(w, SP_effort_inc_thr) * smax)
        s->effort = fmin(t->effort_max, s->effort + cr(w, SP_effort_inc));
    double inc = fmin(s->recovery * t->stamina_inc_max, smax - s->stamina);
    if (inc < 0.0)
        inc = 0.0;
    if (cr(w, SP_stamina_capacity) >= 0.0) {
        inc = fmin(inc, s->capacity);
        s->capacity = fmax(0.0, s->capacity - inc);
    }
    s->stamina += inc;
}

/* ---- the step ---------------------------------------------------------------------- */
static void reset_slots(sim_player_t *p)
{
    shm_player_sh_t *s = &p->sh;
    if (s->tackle_expires > 0)
        s->tackle_expires--;
    if (s->foul_charged > 0)
        s->foul_charged--;
    if (s->arm_movable > 0)
        s->arm_movable--;
    if (s->arm_expires > 0)
        s->arm_expires--;
    p->body_used = s->tackle_expires > 0 || s->foul_charged > 0;
    p->neck_used = 0;
}

static void step_before_kick_off(sim_world_t *w)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        commit_angles(p);
        p->sh.vx = p->sh.vy = 0.0;
        p->ax = p->ay = 0.0;
    }
    w->ball.ax = w->ball.ay = 0.0;
    w->stoppage++;
    sim_referee_analyse(w);
}

static void step_stoppage(sim_world_t *w)
{
    int before = w->play_mode;
    w->catcher = -1;
    move_objects(w);
    w->stoppage++;
    sim_referee_analyse(w);
    if (w->play_mode != before) {
        w->time++;
        w->stoppage = 0;
    }
}

static void step_end_of_cycle(sim_world_t *w)
{
    int hmax = conf_int(w->conf, SP_hear_max), hinc = conf_int(w->conf, SP_hear_inc);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled)
            continue;
        sim_step_stamina(w, p);
        for (int k = 0; k < 2; k++)
            p->hear_cap[k] = p->hear_cap[k] + hinc > hmax ? hmax : p->hear_cap[k] + hinc;
        if (p->catch_ban > 0)
            p->catch_ban--;
    }
}

void sim_step(sim_world_t *w)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        if (p->sh.enabled)
            sim_step_apply_dash(w, p);
        p->dash_legs = 0;
        reset_slots(p);
    }
    if (w->play_mode == PM_BEFORE_KICK_OFF) {
        step_before_kick_off(w);
    } else if (w->play_mode == PM_TIME_OVER) {
        for (int i = 0; i < SHM_MAX_PLAYERS; i++) { /* turns are not even committed */
            w->pl[i].turn = 0.0;
            w->pl[i].neck_next = w->pl[i].sh.neck;
        }
        w->stoppage++;
    } else if (sim_referee_is_stoppage(w->play_mode)) {
        step_stoppage(w);
    } else {
        move_objects(w);
        w->time++;
        w->stoppage = 0;
        sim_referee_analyse(w);
    }
    step_end_of_cycle(w);
    w->steps++;
}
