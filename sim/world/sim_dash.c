/* sim_dash.c -- a player's dash and stamina (docs/protocol/physics.md §3): the dash
 * direction rate, the pending leg dashes turned into stamina used and acceleration at the
 * step (the bipedal rotation with a dashing left leg), and the stamina model at the end
 * of each step (recovery, effort, stamina_inc_max, capacity). The dash command itself is
 * taken at command time by sim_cmd.c. Pure: works on a sim_world_t. */
#include <math.h>
#include "sim_phys.h"

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
void sim_dash_apply(sim_world_t *w, sim_player_t *p)
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
void sim_stamina_step(sim_world_t *w, sim_player_t *p)
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
