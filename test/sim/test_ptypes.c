/* test_ptypes.c -- heterogeneous player types (spec 3.9): type 0 = defaults, every type
 * within the deltas and the speed window, reproducible from the seed. */
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
