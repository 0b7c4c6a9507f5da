/* test_ptypes.c -- heterogeneous player types (docs/protocol/physics.md §9): type 0 =
 * defaults, every type within the deltas and the speed window, reproducible from the seed,
 * drawn from an MT19937 in the reference's order (one uniform draw per non-empty delta
 * range), the seed taken by the reference's rule. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "conf.h"
#include "sim_world.h"

static conf_t c;
static shm_ptypes_sh_t a, b;

Test(ptypes, type0_is_defaults, .timeout = 10)
{
    conf_defaults(&c);
    sim_ptypes_generate(&c, 42, &a);
    cr_assert_eq(a.count, 18u);
    const shm_ptype_sh_t *t = &a.type[0];
    cr_expect_float_eq(t->player_speed_max, 1.05, 1e-12);
    cr_expect_float_eq(t->stamina_inc_max, 45.0, 1e-12);
    cr_expect_float_eq(t->player_decay, 0.4, 1e-12);
    cr_expect_float_eq(t->inertia_moment, 5.0, 1e-12);
    cr_expect_float_eq(t->dash_power_rate, 0.006, 1e-12);
    cr_expect_float_eq(t->player_size, 0.3, 1e-12);
    cr_expect_float_eq(t->kickable_margin, 0.7, 1e-12);
    cr_expect_float_eq(t->kick_rand, 0.1, 1e-12);
    cr_expect_float_eq(t->extra_stamina, 50.0, 1e-12);
    cr_expect_float_eq(t->effort_max, 1.0, 1e-12);
    cr_expect_float_eq(t->effort_min, 0.6, 1e-12);
    cr_expect_float_eq(t->kick_power_rate, 0.027, 1e-12);
    cr_expect_float_eq(t->catchable_area_l_stretch, 1.0, 1e-12);
    cr_expect_float_eq(t->team_too_far_length, sqrt(105.0 * 105.0 + 68.0 * 68.0), 1e-9);
    cr_expect_float_eq(t->dist_noise_rate, 0.0125, 1e-12);
    cr_expect_float_eq(t->land_focus_dist_noise_rate, 0.00125, 1e-12);
}

Test(ptypes, every_type_in_window_and_ranges, .timeout = 10)
{
    conf_defaults(&c);
    for (uint64_t seed = 1; seed < 20; seed++) {
        sim_ptypes_generate(&c, seed, &a);
        for (uint32_t i = 0; i < a.count; i++) {
            const shm_ptype_sh_t *t = &a.type[i];
            cr_expect(sim_ptype_valid(&c, t), "seed %llu type %u", (unsigned long long)seed, i);
            double v = 100.0 * t->dash_power_rate * t->effort_max / (1.0 - t->player_decay);
            cr_expect(v > 0.75 - 1e-9 && v < 1.05 + 1e-9, "top speed %g", v);
            cr_expect(t->player_decay >= 0.3 - 1e-12 && t->player_decay <= 0.5 + 1e-12);
            cr_expect_float_eq(t->inertia_moment, 5.0 + 25.0 * (t->player_decay - 0.4), 1e-9);
            cr_expect(t->dash_power_rate >= 0.0048 - 1e-12 && t->dash_power_rate <= 0.0068 + 1e-12);
            cr_expect_float_eq(t->stamina_inc_max, 45.0 - 6000.0 * (t->dash_power_rate - 0.006), 1e-9);
            cr_expect(t->kickable_margin >= 0.6 - 1e-12 && t->kickable_margin <= 0.8 + 1e-12);
            cr_expect_float_eq(t->kick_rand, 0.1 + (t->kickable_margin - 0.7), 1e-9);
            cr_expect(t->extra_stamina >= 50.0 && t->extra_stamina <= 100.0);
            cr_expect_float_eq(t->effort_max, 1.0 - 0.004 * (t->extra_stamina - 50.0), 1e-9);
            cr_expect_float_eq(t->effort_min, 0.6 - 0.004 * (t->extra_stamina - 50.0), 1e-9);
            cr_expect(t->catchable_area_l_stretch >= 1.0 && t->catchable_area_l_stretch <= 1.3);
            cr_expect_float_eq(t->player_size, 0.3, 1e-12);
            cr_expect_float_eq(t->player_speed_max, 1.05, 1e-12);
        }
    }
}

Test(ptypes, same_seed_same_types, .timeout = 10)
{
    conf_defaults(&c);
    sim_ptypes_generate(&c, 1234, &a);
    sim_ptypes_generate(&c, 1234, &b);
    cr_expect(memcmp(&a, &b, sizeof a) == 0);
    sim_ptypes_generate(&c, 1235, &b);
    cr_expect(memcmp(&a.type[1], &b.type[1], sizeof a.type[1]) != 0, "another seed differs");
}

Test(ptypes, count_follows_player_types, .timeout = 10)
{
    conf_defaults(&c);
    c.num[PP_player_types] = 5;
    sim_ptypes_generate(&c, 1, &a);
    cr_expect_eq(a.count, 5u);
    c.num[PP_player_types] = 1000;
    sim_ptypes_generate(&c, 1, &a);
    cr_expect_eq(a.count, (uint32_t)SHM_MAX_PTYPES);
}

/* With every range but player_decay's made a single value, each trial draws exactly one
 * uniform double (two MT19937 words) and a type is the first draw whose top speed
 * 100 * 0.006 * 1.0 / (1 - decay) lies in (0.75, 1.05], i.e. decay <= 1 - 0.6/1.05. */
Test(ptypes, one_draw_per_non_empty_range, .timeout = 10)
{
    conf_defaults(&c);
    c.num[PP_new_dash_power_rate_delta_min] = c.num[PP_new_dash_power_rate_delta_max] = 0.0;
    c.num[PP_kickable_margin_delta_min] = c.num[PP_kickable_margin_delta_max] = 0.0;
    c.num[PP_extra_stamina_delta_min] = c.num[PP_extra_stamina_delta_max] = 0.0;
    c.num[PP_catchable_area_l_stretch_min] = c.num[PP_catchable_area_l_stretch_max] = 1.0;
    sim_ptypes_generate(&c, 77u, &a);
    static rng_mt_t r;
    rng_mt_seed(&r, 77u);
    for (int id = 1; id < 18; id++) {
        double d;
        do
            d = rng_mt_uniform(&r, -0.1, 0.1);
        while (!(100.0 * 0.006 / (1.0 - (0.4 + d)) < 1.05 + 1e-10));
        cr_expect_eq(a.type[id].player_decay, 0.4 + d, "type %d", id);
        cr_expect_eq(a.type[id].inertia_moment, 5.0 + d * 25.0, "type %d", id);
        cr_expect_eq(a.type[id].kickable_margin, 0.7);
        cr_expect_eq(a.type[id].catchable_area_l_stretch, 1.0);
    }
}

/* A range given in reverse order is drawn as [min, max]; an empty one draws nothing. */
Test(ptypes, reversed_range_is_swapped, .timeout = 10)
{
    conf_defaults(&c);
    shm_ptypes_sh_t *b2 = &b;
    sim_ptypes_generate(&c, 5u, &a);
    double lo = c.num[PP_player_decay_delta_min], hi = c.num[PP_player_decay_delta_max];
    c.num[PP_player_decay_delta_min] = hi;
    c.num[PP_player_decay_delta_max] = lo;
    sim_ptypes_generate(&c, 5u, b2);
    cr_expect(memcmp(&a, b2, sizeof a) == 0);
}

/* the reference's rule: player::random_seed if >= 0, else the simulator's seed (an int) */
Test(ptypes, seed_rule, .timeout = 10)
{
    conf_defaults(&c);
    cr_expect_eq(sim_ptypes_seed(&c, 123456u), 123456u);
    cr_expect_eq(sim_ptypes_seed(&c, 0x100000005ull), 5u, "low 32 bits of a large seed");
    c.num[PP_random_seed] = 3;
    cr_expect_eq(sim_ptypes_seed(&c, 123456u), 3u);
    c.num[PP_random_seed] = 0;
    cr_expect_eq(sim_ptypes_seed(&c, 123456u), 0u, "0 is a given seed");
}
