/* sim_ptypes.c -- heterogeneous player types (spec player-sim.md 3.9): type 0 holds the
 * server defaults, every other type is drawn by a trial/reject procedure from its own
 * generator, so the same seed always gives the same types. Called once by sim_main.c
 * before the region is marked ready. */
#include <math.h>
#include <string.h>
#include "sim_world.h"

#define PT_TRIALS  1000
#define PT_EPS     1.0e-10

static double p_(const conf_t *c, param_id_t id) { return conf_real(c, id); }

/* v18 observation lengths and v19 noise rates: identical for every type */
static void ptype_common(const conf_t *c, shm_ptype_sh_t *t)
{
    double diag = sqrt(105.0 * 105.0 + 68.0 * 68.0);
    t->unum_far_length = 20.0;
    t->unum_too_far_length = 40.0;
    t->team_far_length = diag;
    t->team_too_far_length = diag;
    t->player_max_observation_length = diag;
    t->ball_vel_far_length = 20.0;
    t->ball_vel_too_far_length = 40.0;
    t->ball_max_observation_length = diag;
    t->flag_chg_far_length = 20.0;
    t->flag_chg_too_far_length = 40.0;
    t->flag_max_observation_length = diag;
    t->dist_noise_rate = p_(c, SP_dist_noise_rate);
    t->focus_dist_noise_rate = p_(c, SP_focus_dist_noise_rate);
    t->land_dist_noise_rate = p_(c, SP_land_dist_noise_rate);
    t->land_focus_dist_noise_rate = p_(c, SP_land_focus_dist_noise_rate);
}

static void ptype_default(const conf_t *c, shm_ptype_sh_t *t)
{
    memset(t, 0, sizeof *t);
    t->player_speed_max = p_(c, SP_player_speed_max);
    t->stamina_inc_max = p_(c, SP_stamina_inc_max);
    t->player_decay = p_(c, SP_player_decay);
    t->inertia_moment = p_(c, SP_inertia_moment);
    t->dash_power_rate = p_(c, SP_dash_power_rate);
    t->player_size = p_(c, SP_player_size);
    t->kickable_margin = p_(c, SP_kickable_margin);
    t->kick_rand = p_(c, SP_kick_rand);
    t->extra_stamina = p_(c, SP_extra_stamina);
    t->effort_max = p_(c, SP_effort_init);
    t->effort_min = p_(c, SP_effort_min);
    t->kick_power_rate = p_(c, SP_kick_power_rate);
    t->foul_detect_probability = p_(c, SP_foul_detect_probability);
    t->catchable_area_l_stretch = 1.0;
    ptype_common(c, t);
}

static double draw(rng_t *r, const conf_t *c, param_id_t lo, param_id_t hi)
{
    double a = p_(c, lo), b = p_(c, hi);
    return a <= b ? rng_uniform(r, a, b) : rng_uniform(r, b, a);
}

/* one trial: the eight deltas of spec 3.9 applied to the defaults */
static void ptype_trial(const conf_t *c, rng_t *r, shm_ptype_sh_t *t)
{
    ptype_default(c, t);
    double d1 = draw(r, c, PP_player_speed_max_delta_min, PP_player_speed_max_delta_max);
    t->player_speed_max += d1;
    t->stamina_inc_max += d1 * p_(c, PP_stamina_inc_max_delta_factor);
    double d2 = draw(r, c, PP_player_decay_delta_min, PP_player_decay_delta_max);
    t->player_decay += d2;
    t->inertia_moment += d2 * p_(c, PP_inertia_moment_delta_factor);
    double d3 = draw(r, c, PP_dash_power_rate_delta_min, PP_dash_power_rate_delta_max);
    t->dash_power_rate += d3;
    t->player_size += d3 * p_(c, PP_player_size_delta_factor);
    double d4 = draw(r, c, PP_new_dash_power_rate_delta_min, PP_new_dash_power_rate_delta_max);
    t->dash_power_rate = p_(c, SP_dash_power_rate) + d4;
    t->stamina_inc_max = p_(c, SP_stamina_inc_max) + d4 * p_(c, PP_new_stamina_inc_max_delta_factor);
    double d5 = draw(r, c, PP_kickable_margin_delta_min, PP_kickable_margin_delta_max);
    t->kickable_margin += d5;
    t->kick_rand += d5 * p_(c, PP_kick_rand_delta_factor);
    double d6 = draw(r, c, PP_extra_stamina_delta_min, PP_extra_stamina_delta_max);
    t->extra_stamina += d6;
    t->effort_max += d6 * p_(c, PP_effort_max_delta_factor);
    t->effort_min += d6 * p_(c, PP_effort_min_delta_factor);
    double d7 = draw(r, c, PP_kick_power_rate_delta_min, PP_kick_power_rate_delta_max);
    t->kick_power_rate += d7;
    t->foul_detect_probability += d7 * p_(c, PP_foul_detect_probability_delta_factor);
    t->catchable_area_l_stretch =
        draw(r, c, PP_catchable_area_l_stretch_min, PP_catchable_area_l_stretch_max);
}

/* top speed a type reaches dashing at max power */
static double ptype_real_speed(const conf_t *c, const shm_ptype_sh_t *t)
{
    double d = 1.0 - t->player_decay;
    if (d <= 0.0)
        return INFINITY;
    return p_(c, SP_max_dash_power) * t->dash_power_rate * t->effort_max / d;
}

int sim_ptype_valid(const conf_t *c, const shm_ptype_sh_t *t)
{
    if (t->player_speed_max <= 0.0 || t->stamina_inc_max <= 0.0 || t->player_decay <= 0.0
        || t->inertia_moment < 0.0 || t->dash_power_rate <= 0.0 || t->player_size <= 0.0
        || t->kickable_margin <= 0.0 || t->kick_rand < 0.0 || t->extra_stamina < 0.0
        || t->effort_max <= 0.0 || t->effort_min <= 0.0 || t->kick_power_rate <= 0.0
        || t->foul_detect_probability < 0.0 || t->catchable_area_l_stretch <= 0.0)
        return 0;
    double v = ptype_real_speed(c, t);
    return v > p_(c, SP_player_speed_max_min) - PT_EPS && v < t->player_speed_max + PT_EPS;
}

void sim_ptypes_generate(const conf_t *c, uint64_t seed, shm_ptypes_sh_t *out)
{
    rng_t r;
    rng_seed(&r, seed ^ 0x7074797065735f73ull); /* "ptypes_s": independent of the world rng */
    memset(out, 0, sizeof *out);
    int n = conf_int(c, PP_player_types);
    if (n < 1)
        n = 1;
    if (n > SHM_MAX_PTYPES)
        n = SHM_MAX_PTYPES;
    out->count = (uint32_t)n;
    ptype_default(c, &out->type[0]);
    for (int id = 1; id < n; id++) {
        shm_ptype_sh_t *t = &out->type[id];
        int ok = 0;
        for (int k = 0; k < PT_TRIALS && !ok; k++) {
            ptype_trial(c, &r, t);
            ok = sim_ptype_valid(c, t);
        }
        if (!ok)
            *t = out->type[0];
    }
}
