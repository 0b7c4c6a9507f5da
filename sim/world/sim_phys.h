/* sim_phys.h -- helpers shared by the physics files of the sim (sim_move.c, sim_collide.c,
 * sim_cmd.c, sim_kick.c, sim_dash.c, and the step, sim/sim_step.c): the reference's
 * arithmetic conventions (degree conversion by a constant factor, EPS, how a uniform draw
 * on an empty range behaves), the play-mode sets of the physics and per-player rates
 * (sim_phys.c). For sim/world/ and the step (sim/sim_step.c) only. */
#ifndef RCSS_SIM_PHYS_H
#define RCSS_SIM_PHYS_H

#include <math.h>
#include "geom.h"
#include "playmode.h"
#include "sim_world.h"

#define SIM_EPS          1.0e-10         /* the reference's EPS */
#define SIM_DEG2RAD      (M_PI / 180.0)
#define SIM_WIND_WEIGHT  10000.0

static inline double sim_cr(const sim_world_t *w, param_id_t id)
{
    return conf_real(w->conf, id);
}

/* v clamped to [lo, hi] as the reference's bound(): a NaN gives lo */
static inline double sim_bound(double lo, double v, double hi)
{
    if (!(v >= lo))
        return lo;
    return v > hi ? hi : v;
}

static inline double sim_deg2rad(double d) { return d * SIM_DEG2RAD; }

/* A uniform draw in [lo, hi] as the reference draws its noise: the ends in either order,
 * and a range narrower than EPS gives its middle without drawing. */
static inline double sim_drand(rng_t *r, double lo, double hi)
{
    if (lo > hi) {
        double t = lo;
        lo = hi;
        hi = t;
    }
    if (hi - lo < SIM_EPS)
        return (lo + hi) * 0.5;
    return rng_uniform(r, lo, hi);
}

/* 1 with probability p (one draw, as std::bernoulli_distribution) */
static inline int sim_bernoulli(rng_t *r, double p)
{
    return rng_unit(r) < p;
}

/* ---- sim_phys.c ---- */
/* The modes in which a kick has no effect (and a tackle, apart from catch_fault), and
 * the stoppages in which objects move but time stands (docs/protocol/player.md §10;
 * docs/protocol/physics.md §1). */
int sim_phys_stoppage(int pm);
int sim_phys_kick_forbidden(int pm);
int sim_phys_penalty_shootout(int pm);

/* player_rand of p (times its team's prand factor with team_actuator_noise) */
double sim_phys_randp(const sim_world_t *w, const sim_player_t *p);
/* kick_rand of p's type (times its team's kick_rand factor with team_actuator_noise) */
double sim_phys_kick_rand(const sim_world_t *w, const sim_player_t *p);
/* player_size + ball_size + kickable_margin of p's type */
double sim_phys_kickable_area(const sim_world_t *w, const sim_player_t *p);
int    sim_phys_ball_kickable(const sim_world_t *w, const sim_player_t *p);
/* slowness_on_top factor of p's team when p is in the top half (y < 0), else 1 */
double sim_phys_slowness(const sim_world_t *w, const sim_player_t *p);

/* ---- sim_kick.c: the ball actions (kick, tackle, catch) ---- */
void sim_kick_cmd(sim_world_t *w, int idx, const shm_cmd_sh_t *c);
void sim_kick_tackle(sim_world_t *w, int idx, const shm_cmd_sh_t *c);
void sim_kick_catch(sim_world_t *w, int idx, const shm_cmd_sh_t *c);

#endif
