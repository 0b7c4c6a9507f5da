/* test_physics.c -- dash model (spec 3.3.1), integration with speed cap and decay (3.2),
 * stamina (3.3.3), turn with inertia, collisions (3.8). Noise off unless stated. */
#include <criterion/criterion.h>
#include <math.h>
#include "geom.h"
#include "playmode.h"
#include "test_sim_util.h"

#define EPS 1e-9

static sim_world_t w;

Test(physics, dash_direction_rates, .timeout = 10)
{
    test_world(&w, 1, 1);
    cr_expect_float_eq(sim_dash_dir_rate(&test_conf, 0.0), 1.0, EPS);
    cr_expect_float_eq(sim_dash_dir_rate(&test_conf, 90.0), 0.4, EPS);
    cr_expect_float_eq(sim_dash_dir_rate(&test_conf, -90.0), 0.4, EPS);
    cr_expect_float_eq(sim_dash_dir_rate(&test_conf, 180.0), 0.7, EPS);
    cr_expect_float_eq(sim_dash_dir_rate(&test_conf, 45.0), 0.7, EPS);
}

/* P=100: accel = effort * 100 * rate * dash_power_rate along body + dir */
Test(physics, dash_accel_by_direction, .timeout = 10)
{
    static const double dirs[3] = { 0.0, 90.0, 180.0 }, rates[3] = { 1.0, 0.4, 0.7 };
    for (int k = 0; k < 3; k++) {
        test_world(&w, 1, 1);
        sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
        test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, dirs[k]);
        sim_step_apply_dash(&w, p);
        double a = 1.0 * 100.0 * rates[k] * 0.006;
        cr_expect_float_eq(hypot(p->ax, p->ay), a, EPS, "dir %g", dirs[k]);
        cr_expect_float_eq(p->ax, a * cos(dirs[k] * M_PI / 180.0), EPS);
        cr_expect_float_eq(p->ay, a * sin(dirs[k] * M_PI / 180.0), EPS);
        cr_expect_float_eq(p->sh.stamina, 8000.0 - 100.0, EPS, "stamina need = P");
        cr_expect_eq(p->sh.count[SHM_CNT_DASH], 1);
    }
}

Test(physics, negative_dash_power_clamps_to_zero, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, -100.0, 0.0);
    sim_step_apply_dash(&w, p);
    cr_expect_float_eq(p->ax, 0.0, EPS);
    cr_expect_float_eq(p->sh.stamina, 8000.0, EPS);
    cr_expect_eq(p->sh.count[SHM_CNT_DASH], 1, "count still +1");
}

Test(physics, one_leg_dash_is_half, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    shm_cmd_sh_t c = test_cmd(SHM_CMD_DASH, 0, 0);
    c.i = 2;
    c.flags = 2u; /* right leg only */
    c.d[2] = 100.0;
    c.d[3] = 0.0;
    sim_cmd_player(&w, 0, &c);
    sim_step_apply_dash(&w, p);
    cr_expect_float_eq(p->ax, 0.3, EPS);
    cr_expect_float_eq(p->sh.stamina, 8000.0 - 50.0, EPS);
}

Test(physics, dash_one_step_from_rest, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
    sim_step(&w);
    cr_expect_float_eq(p->sh.x, -10.0 + 0.6, EPS);
    cr_expect_float_eq(p->sh.y, 10.0, EPS);
    cr_expect_float_eq(p->sh.vx, 0.6 * 0.4, EPS);
    cr_expect_float_eq(p->sh.stamina, 7900.0 + 45.0, EPS);
    cr_expect_float_eq(p->sh.capacity, 130600.0 - 45.0, EPS);
    cr_expect_eq(w.time, 1);
}

Test(physics, speed_cap_then_decay, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    p->sh.vx = 1.0;
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
    sim_step(&w);
    cr_expect_float_eq(p->sh.x, -10.0 + 1.05, EPS, "capped at player_speed_max");
    cr_expect_float_eq(p->sh.vx, 1.05 * 0.4, EPS);
}

Test(physics, no_motion_before_kick_off, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
    sim_step(&w);
    cr_expect_float_eq(p->sh.x, -10.0, EPS);
    cr_expect_float_eq(p->sh.vx, 0.0, EPS);
    cr_expect_eq(w.time, 0, "time does not advance");
    cr_expect_eq(w.stoppage, 1);
}

Test(physics, noise_is_polar_and_bounded, .timeout = 10)
{
    test_world(&w, 0, 7);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
    sim_step(&w);
    double dx = p->sh.x - (-10.0 + 0.6), dy = p->sh.y - 10.0;
    cr_expect(hypot(dx, dy) <= 0.1 * 0.6 + EPS, "noise length <= player_rand * |v|");
    cr_expect(hypot(dx, dy) > 0.0, "noise applied");
}

Test(physics, stamina_rules, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    p->sh.stamina = 2000.0; /* below both 0.3 thresholds */
    sim_step_stamina(&w, p);
    cr_expect_float_eq(p->sh.recovery, 0.998, EPS);
    cr_expect_float_eq(p->sh.effort, 0.995, EPS);
    cr_expect_float_eq(p->sh.stamina, 2000.0 + 0.998 * 45.0, EPS);
    p->sh.stamina = 6000.0; /* above effort_inc_thr: effort recovers */
    p->sh.effort = 0.9;
    sim_step_stamina(&w, p);
    cr_expect_float_eq(p->sh.effort, 0.91, EPS);
    p->sh.stamina = 7990.0; /* capped at stamina_max */
    sim_step_stamina(&w, p);
    cr_expect_float_eq(p->sh.stamina, 8000.0, EPS);
    p->sh.effort = 0.6;
    p->sh.stamina = 7000.0;
    p->sh.recovery = 1.0;
    p->sh.capacity = 10.0; /* capacity limits recovery */
    sim_step_stamina(&w, p);
    cr_expect_float_eq(p->sh.stamina, 7010.0, EPS);
    cr_expect_float_eq(p->sh.capacity, 0.0, EPS);
    sim_step_stamina(&w, p);
    cr_expect_float_eq(p->sh.stamina, 7010.0, EPS, "empty capacity: no recovery");
    test_conf.num[SP_stamina_capacity] = -1.0; /* unlimited */
    sim_step_stamina(&w, p);
    cr_expect_float_eq(p->sh.stamina, 7055.0, EPS);
}

Test(physics, dash_capped_by_stamina_plus_extra, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    p->sh.stamina = 10.0; /* + extra_stamina 50 = 60 available of 100 needed */
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
    sim_step_apply_dash(&w, p);
    cr_expect_float_eq(p->sh.stamina, 0.0, EPS);
    cr_expect_float_eq(p->ax, 60.0 * 0.006, EPS, "power 2 * 30 per leg");
}

Test(physics, turn_with_inertia, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    p->sh.vx = 1.0; /* speed 1: moment / (1 + 5 * 1) */
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN, 60.0, 0.0);
    cr_expect_float_eq(p->sh.body, 0.0, EPS, "committed at the step");
    sim_step(&w);
    cr_expect_float_eq(p->sh.body, 10.0 * M_PI / 180.0, EPS);
    cr_expect_eq(p->sh.count[SHM_CNT_TURN], 1);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN, 500.0, 0.0); /* clamped to 180 */
    sim_step(&w);
    double speed = 1.0 * 0.4; /* velocity after one decay */
    double want = 10.0 + 180.0 / (1.0 + 5.0 * speed);
    cr_expect_float_eq(p->sh.body, angle_norm(want * M_PI / 180.0), 1e-6);
}

Test(physics, turn_neck_clamped, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN_NECK, 120.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN_NECK, -30.0, 0.0); /* once per cycle */
    sim_step(&w);
    cr_expect_float_eq(p->sh.neck, M_PI / 2.0, EPS);
    cr_expect_eq(p->sh.count[SHM_CNT_TURN_NECK], 1);
}

Test(physics, player_collision_separates_and_bounces, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *a = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 10.0, 0.0);
    sim_player_t *b = test_player(&w, SHM_SIDE_RIGHT, 1, 0.2, 10.0, 0.0);
    a->sh.vx = 0.5;
    sim_step_collisions(&w);
    cr_expect(hypot(a->sh.x - b->sh.x, a->sh.y - b->sh.y) >= 0.6, "no overlap left");
    cr_expect_float_eq((a->sh.x + b->sh.x) / 2.0, 0.1, 1e-9, "about the midpoint");
    cr_expect_float_eq(a->sh.vx, -0.05, EPS);
    cr_expect(a->sh.collision & SHM_COLL_PLAYER);
}
