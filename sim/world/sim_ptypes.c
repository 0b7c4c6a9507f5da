/* sim_ptypes.c -- heterogeneous player types (docs/protocol/physics.md §9): type 0 holds the
 * server defaults, every other type is drawn by a trial/reject procedure. The draws come
 * from a Mersenne Twister (MT19937) seeded with the types seed, turned into doubles the
 * way libstdc++'s uniform_real_distribution does, in the reference's order (one draw per
 * trade-off whose range is not empty, a trial abandoned at the first value out of its
 * range), so a seed gives the reference's 18 types. Called once by sim_main.c before
 * the region is marked ready. And the type a player has, for everything that reads one
 * of its values. */
#include <math.h>
#include <string.h>
#include "sim_world.h"

#define PT_TRIALS  1000
#define PT_EPS     1.0e-10

static double p_(const conf_t *c, param_id_t id) { return conf_real(c, id); }

/* v18 observation lengths and v19 noise rates: identical for every type */
static void ptype_common(const conf_t *c, shm_ptype_sh_t *t)
{
    double diag = sqrt(PITCH_LENGTH * PITCH_LENGTH + PITCH_WIDTH * PITCH_WIDTH);
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

/* a delta in [min, max]: no draw when the range is a single value (its ends in either
 * order) */
static double delta(rng_mt_t *r, const conf_t *c, param_id_t lo, param_id_t hi)
{
    double a = p_(c, lo), b = p_(c, hi);
    if (a == b)
        return a;
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    return rng_mt_uniform(r, a, b);
}

/* The first five trade-offs; 0 as soon as a value leaves its range (the trial ends
 * there, with no further draws). */
static int trial_speed_decay_dash(const conf_t *c, rng_mt_t *r, shm_ptype_sh_t *t)
{
    double d = delta(r, c, PP_player_speed_max_delta_min, PP_player_speed_max_delta_max);
    t->player_speed_max = p_(c, SP_player_speed_max) + d;
    if (t->player_speed_max <= 0.0)
        return 0;
    t->stamina_inc_max = p_(c, SP_stamina_inc_max) + d * p_(c, PP_stamina_inc_max_delta_factor);
    if (t->stamina_inc_max <= 0.0)
        return 0;
    d = delta(r, c, PP_player_decay_delta_min, PP_player_decay_delta_max);
    t->player_decay = p_(c, SP_player_decay) + d;
    if (t->player_decay <= 0.0)
        return 0;
    t->inertia_moment = p_(c, SP_inertia_moment) + d * p_(c, PP_inertia_moment_delta_factor);
    if (t->inertia_moment < 0.0)
        return 0;
    d = delta(r, c, PP_dash_power_rate_delta_min, PP_dash_power_rate_delta_max);
    t->dash_power_rate = p_(c, SP_dash_power_rate) + d;
    if (t->dash_power_rate <= 0.0)
        return 0;
    t->player_size = p_(c, SP_player_size) + d * p_(c, PP_player_size_delta_factor);
    if (t->player_size <= 0.0)
        return 0;
    d = delta(r, c, PP_new_dash_power_rate_delta_min, PP_new_dash_power_rate_delta_max);
    t->dash_power_rate = p_(c, SP_dash_power_rate) + d;
    if (t->dash_power_rate <= 0.0)
        return 0;
    t->stamina_inc_max = p_(c, SP_stamina_inc_max) + d * p_(c, PP_new_stamina_inc_max_delta_factor);
    return t->stamina_inc_max > 0.0;
}

/* kick, stamina, v14 kick power and the goalie's catch area */
static int trial_kick_stamina_catch(const conf_t *c, rng_mt_t *r, shm_ptype_sh_t *t)
{
    double d = delta(r, c, PP_kickable_margin_delta_min, PP_kickable_margin_delta_max);
    t->kickable_margin = p_(c, SP_kickable_margin) + d;
    if (t->kickable_margin <= 0.0)
        return 0;
    t->kick_rand = p_(c, SP_kick_rand) + d * p_(c, PP_kick_rand_delta_factor);
    if (t->kick_rand < 0.0)
        return 0;
    d = delta(r, c, PP_extra_stamina_delta_min, PP_extra_stamina_delta_max);
    t->extra_stamina = p_(c, SP_extra_stamina) + d;
    if (t->extra_stamina < 0.0)
        return 0;
    t->effort_max = p_(c, SP_effort_init) + d * p_(c, PP_effort_max_delta_factor);
    t->effort_min = p_(c, SP_effort_min) + d * p_(c, PP_effort_min_delta_factor);
    if (t->effort_max <= 0.0 || t->effort_min <= 0.0)
        return 0;
    d = delta(r, c, PP_kick_power_rate_delta_min, PP_kick_power_rate_delta_max);
    t->kick_power_rate = p_(c, SP_kick_power_rate) + d;
    t->foul_detect_probability = p_(c, SP_foul_detect_probability)
                                 + d * p_(c, PP_foul_detect_probability_delta_factor);
    t->catchable_area_l_stretch =
        delta(r, c, PP_catchable_area_l_stretch_min, PP_catchable_area_l_stretch_max);
    return 1;
}

/* top speed a type reaches dashing at full power (maxpower, as the reference) */
static double ptype_real_speed(const conf_t *c, const shm_ptype_sh_t *t)
{
    return p_(c, SP_maxpower) * t->dash_power_rate * t->effort_max / (1.0 - t->player_decay);
}

static int in_speed_window(const conf_t *c, const shm_ptype_sh_t *t)
{
    double v = ptype_real_speed(c, t);
    return p_(c, SP_player_speed_max_min) - PT_EPS < v && v < t->player_speed_max + PT_EPS;
}

int sim_ptype_valid(const conf_t *c, const shm_ptype_sh_t *t)
{
    if (t->player_speed_max <= 0.0 || t->stamina_inc_max <= 0.0 || t->player_decay <= 0.0
        || t->inertia_moment < 0.0 || t->dash_power_rate <= 0.0 || t->player_size <= 0.0
        || t->kickable_margin <= 0.0 || t->kick_rand < 0.0 || t->extra_stamina < 0.0
        || t->effort_max <= 0.0 || t->effort_min <= 0.0)
        return 0;
    return in_speed_window(c, t);
}

/* one type: up to PT_TRIALS trials, then a copy of the defaults */
static void ptype_draw(const conf_t *c, rng_mt_t *r, const shm_ptype_sh_t *def,
                       shm_ptype_sh_t *t)
{
    *t = *def;
    for (int k = 0; k < PT_TRIALS; k++) {
        if (!trial_speed_decay_dash(c, r, t) || !trial_kick_stamina_catch(c, r, t))
            continue;
        if (in_speed_window(c, t))
            return;
    }
    *t = *def;
}

uint32_t sim_ptypes_seed(const conf_t *c, uint64_t sim_seed)
{
    double ps = conf_real(c, PP_random_seed);
    int32_t s = ps >= 0.0 && ps <= 2147483647.0 ? (int32_t)ps : (int32_t)(uint32_t)sim_seed;
    return (uint32_t)s;
}

void sim_ptypes_generate(const conf_t *c, uint32_t seed, shm_ptypes_sh_t *out)
{
    rng_mt_t r;
    rng_mt_seed(&r, seed);
    memset(out, 0, sizeof *out);
    int n = conf_int(c, PP_player_types);
    if (n < 1)
        n = 1;
    if (n > SHM_MAX_PTYPES)
        n = SHM_MAX_PTYPES;
    out->count = (uint32_t)n;
    ptype_default(c, &out->type[0]);
    for (int id = 1; id < n; id++)
        ptype_draw(c, &r, &out->type[0], &out->type[id]);
}

/* p's type; type 0 for a number out of the table */
const shm_ptype_sh_t *sim_player_ptype(const sim_world_t *w, const sim_player_t *p)
{
    int t = p->sh.type;
    if (t < 0 || (uint32_t)t >= w->types.count || t >= SHM_MAX_PTYPES)
        t = 0;
    return &w->types.type[t];
}
