/* sim_step.c -- one simulation step in the order of docs/protocol/physics.md §1: pending
 * dashes (stamina and acceleration, the bipedal rotation), command slots freed, the
 * play-mode dependent move of the objects (sim_move.c), time, referee, stamina (physics.md §3),
 * hear capacity and catch ban. Also the play-mode sets and per-player rates the physics
 * files share (sim_phys.h). Pure: works on a sim_world_t. */
#include <math.h>
#include "sim_phys.h"

/* ---- shared helpers (sim_phys.h) ---------------------------------------------------- */
int sim_phys_stoppage(int pm)
{
    switch (pm) {
    case PM_GOAL_L: case PM_GOAL_R: case PM_OFFSIDE_L: case PM_OFFSIDE_R:
    case PM_ILLEGAL_DEFENSE_L: case PM_ILLEGAL_DEFENSE_R:
    case PM_FOUL_CHARGE_L: case PM_FOUL_CHARGE_R: case PM_FOUL_PUSH_L: case PM_FOUL_PUSH_R:
    case PM_BACK_PASS_L: case PM_BACK_PASS_R:
    case PM_FREE_KICK_FAULT_L: case PM_FREE_KICK_FAULT_R:
    case PM_CATCH_FAULT_L: case PM_CATCH_FAULT_R:
        return 1;
    default:
        return 0;
    }
}

int sim_phys_kick_forbidden(int pm)
{
    return pm == PM_BEFORE_KICK_OFF || pm == PM_TIME_OVER || sim_phys_stoppage(pm);
}

int sim_phys_penalty_shootout(int pm)
{
    return pm >= PM_PENALTY_SETUP_L && pm <= PM_PENALTY_SCORE_R;
}

double sim_phys_randp(const sim_world_t *w, const sim_player_t *p)
{
    double r = sim_cr(w, SP_player_rand);
    if (conf_bool(w->conf, SP_team_actuator_noise))
        r *= p->sh.side == SHM_SIDE_LEFT ? sim_cr(w, SP_prand_factor_l) : sim_cr(w, SP_prand_factor_r);
    return r;
}

double sim_phys_kick_rand(const sim_world_t *w, const sim_player_t *p)
{
    double r = sim_player_ptype(w, p)->kick_rand;
    if (conf_bool(w->conf, SP_team_actuator_noise))
        r *= p->sh.side == SHM_SIDE_LEFT ? sim_cr(w, SP_kick_rand_factor_l)
                                         : sim_cr(w, SP_kick_rand_factor_r);
    return r;
}

double sim_phys_kickable_area(const sim_world_t *w, const sim_player_t *p)
{
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    return t->player_size + sim_cr(w, SP_ball_size) + t->kickable_margin;
}

int sim_phys_ball_kickable(const sim_world_t *w, const sim_player_t *p)
{
    double dx = p->sh.x - w->ball.x, dy = p->sh.y - w->ball.y;
    return dx * dx + dy * dy <= pow(sim_phys_kickable_area(w, p), 2);
}

/* (a factor <= 0 would make the reference divide by zero; it is taken as 1) */
double sim_phys_slowness(const sim_world_t *w, const sim_player_t *p)
{
    if (!(p->sh.y < 0.0))
        return 1.0;
    double f = p->sh.side == SHM_SIDE_LEFT ? sim_cr(w, SP_slowness_on_top_for_left_team)
                                           : sim_cr(w, SP_slowness_on_top_for_right_team);
    return f > 0.0 ? f : 1.0;
}

/* ---- dash (docs/protocol/physics.md §3) ---------------------------------------------- */
/* dash direction rate: 1 at 0 deg, side rate at 90, back rate at 180 */
double sim_dash_dir_rate(const conf_t *c, double dir_deg)
{
    double side = conf_real(c, SP_side_dash_rate), back = conf_real(c, SP_back_dash_rate);
    double a = fabs(dir_deg);
    double r = a > 90.0 ? back - ((back - side) * (1.0 - (a - 90.0) / 90.0))
                        : side + ((1.0 - side) * (1.0 - a / 90.0));
    return sim_bound(0.0, r, 1.0);
}

/* acceleration of leg l given the stamina it consumed */
static vec2_t leg_accel(const sim_world_t *w, const sim_player_t *p, int l, double used)
{
    double power = sim_bound(sim_cr(w, SP_min_dash_power),
                             p->dash_pow[l] < 0.0 ? -used : used * 2.0,
                             sim_cr(w, SP_max_dash_power));
    double mag = fabs(p->sh.effort * power * sim_dash_dir_rate(w->conf, p->dash_dir[l])
                      * sim_player_ptype(w, p)->dash_power_rate);
    mag /= sim_phys_slowness(w, p);
    vec2_t a = vec2_polar(mag, angle_norm(p->sh.body + sim_deg2rad(p->dash_dir[l])));
    return power < 0.0 ? vec2(-a.x, -a.y) : a;
}

/* Pending leg dashes -> stamina and acceleration (the mean of the two legs), and with a
 * dashing left leg the rotation of the body by the legs' difference along it. The
 * stamina share of the right leg is taken from the left one already scaled, as the
 * reference does, so a dash short of stamina also turns the player a little. */
void sim_step_apply_dash(sim_world_t *w, sim_player_t *p)
{
    if (p->leg[0] != SIM_LEG_DASH && p->leg[1] != SIM_LEG_DASH)
        return;
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    p->sh.count[SHM_CNT_DASH]++;
    double pl = p->dash_pow[0], pr = p->dash_pow[1];
    double cl = pl < 0.0 ? -pl : pl * 0.5, crr = pr < 0.0 ? -pr : pr * 0.5;
    double used = cl + crr;
    if (used < 1.0e-5)
        return;
    used = fmin(used, p->sh.stamina + t->extra_stamina);
    cl = used * cl / (cl + crr);
    crr = used * crr / (cl + crr);
    vec2_t al = leg_accel(w, p, 0, cl), ar = leg_accel(w, p, 1, crr);
    vec2_t b = vec2_polar(1.0, p->sh.body), v = vec2(p->sh.vx, p->sh.vy);
    vec2_t vl = vec2_add(v, al), vr = vec2_add(v, ar);
    double vlb = b.x * vl.x + b.y * vl.y, vrb = b.x * vr.x + b.y * vr.y;
    vec2_t nv = vec2_add(vr, vl);
    nv.x /= 2.0;
    nv.y /= 2.0;
    p->ax += nv.x - v.x;
    p->ay += nv.y - v.y;
    if (p->leg[0] == SIM_LEG_DASH) {
        double om = (vlb - vrb) / (t->player_size * 2.0), r = sim_phys_randp(w, p);
        p->body_next = angle_norm(p->sh.body + (1.0 + sim_drand(&w->rng_act, -r, r)) * om);
    }
    p->sh.stamina = fmax(0.0, p->sh.stamina - used);
}

/* ---- stamina (docs/protocol/physics.md §3) ------------------------------------------- */
void sim_step_stamina(sim_world_t *w, sim_player_t *p)
{
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double smax = sim_cr(w, SP_stamina_max), cap = sim_cr(w, SP_stamina_capacity);
    shm_player_sh_t *s = &p->sh;
    if (s->stamina <= sim_cr(w, SP_recover_dec_thr) * smax) {
        if (s->recovery > sim_cr(w, SP_recover_min))
            s->recovery -= sim_cr(w, SP_recover_dec);
        if (s->recovery < sim_cr(w, SP_recover_min))
            s->recovery = sim_cr(w, SP_recover_min);
    }
    if (s->stamina <= sim_cr(w, SP_effort_dec_thr) * smax) {
        if (s->effort > t->effort_min)
            s->effort -= sim_cr(w, SP_effort_dec);
        if (s->effort < t->effort_min)
            s->effort = t->effort_min;
    }
    if (s->stamina >= sim_cr(w, SP_effort_inc_thr) * smax && s->effort < t->effort_max) {
        s->effort += sim_cr(w, SP_effort_inc);
        if (s->effort > t->effort_max)
            s->effort = t->effort_max;
    }
    double inc = fmin(s->recovery * t->stamina_inc_max, smax - s->stamina);
    if (cap >= 0.0 && inc > s->capacity)
        inc = s->capacity;
    s->stamina += inc;
    if (s->stamina > smax)
        s->stamina = smax;
    if (cap >= 0.0) {
        s->capacity -= inc;
        if (s->capacity < 0.0)
            s->capacity = 0.0;
    }
}

void sim_step_collisions(sim_world_t *w)
{
    sim_collide(w);
}

/* ---- the step ---------------------------------------------------------------------- */
/* counters run down; the body slot stays taken while frozen by a tackle or a foul */
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
    for (int l = 0; l < 2; l++) {
        p->leg[l] = SIM_LEG_NONE;
        p->dash_pow[l] = p->dash_dir[l] = 0.0;
    }
}

static void step_before_kick_off(sim_world_t *w)
{
    sim_move_turn_objects(w);
    w->stoppage++;
    sim_referee_analyse(w);
}

static void step_stoppage(sim_world_t *w)
{
    int before = w->play_mode;
    w->catcher = -1;
    sim_move_objects(w);
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
        sim_step_apply_dash(w, p);
        reset_slots(p);
    }
    if (w->play_mode == PM_BEFORE_KICK_OFF) {
        step_before_kick_off(w);
    } else if (sim_phys_stoppage(w->play_mode)) {
        step_stoppage(w);
    } else if (w->play_mode != PM_TIME_OVER) {
        sim_move_objects(w);
        w->time++;
        w->stoppage = 0;
        sim_referee_analyse(w);
    } else {
        w->stoppage++; /* time_over: nothing moves, turns are not even committed */
    }
    step_end_of_cycle(w);
    w->steps++;
}
