/* test_physics.c -- dash (docs/protocol/physics.md §3: power, direction rates, stamina,
 * extra stamina, bipedal legs and rotation), turn and turn_neck, integration (§2: accel
 * and speed caps, decay, noise shape), stamina (§3: recovery, effort, capacity, resets),
 * the step's play-mode rules (§1). Expected values are computed by hand from the
 * formulas with the default parameters (noise off unless stated), to 1e-9. */
#include <criterion/criterion.h>
#include <math.h>
#include "geom.h"
#include "playmode.h"
#include "test_sim_util.h"

#define EPS 1e-9
#define D2R (M_PI / 180.0)

static sim_world_t w;

Test(physics, dash_direction_rates, .timeout = 10)
{
    test_world(&w, 1, 1);
    /* |d| <= 90: side + (1 - side)(1 - |d|/90); |d| > 90: back - (back - side)(1 - (|d|-90)/90) */
    cr_expect_float_eq(sim_dash_dir_rate(&test_conf, 0.0), 1.0, EPS);
    cr_expect_float_eq(sim_dash_dir_rate(&test_conf, 90.0), 0.4, EPS);
    cr_expect_float_eq(sim_dash_dir_rate(&test_conf, -90.0), 0.4, EPS);
    cr_expect_float_eq(sim_dash_dir_rate(&test_conf, 180.0), 0.7, EPS);
    cr_expect_float_eq(sim_dash_dir_rate(&test_conf, 45.0), 0.7, EPS);
    cr_expect_float_eq(sim_dash_dir_rate(&test_conf, -135.0), 0.55, EPS);
}

/* P=100: accel = effort * 100 * rate * dash_power_rate along body + dir; need = P */
Test(physics, dash_accel_by_direction, .timeout = 10)
{
    static const double dirs[4] = { 0.0, 90.0, 180.0, -45.0 }, rates[4] = { 1.0, 0.4, 0.7, 0.7 };
    for (int k = 0; k < 4; k++) {
        test_world(&w, 1, 1);
        sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 30.0);
        test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, dirs[k]);
        sim_dash_apply(&w, p);
        double a = 1.0 * 100.0 * rates[k] * 0.006;
        cr_expect_float_eq(p->ax, a * cos((30.0 + dirs[k]) * D2R), EPS, "dir %g", dirs[k]);
        cr_expect_float_eq(p->ay, a * sin((30.0 + dirs[k]) * D2R), EPS);
        cr_expect_float_eq(p->sh.stamina, 8000.0 - 100.0, EPS, "stamina need = P");
        cr_expect_float_eq(p->body_next, 30.0 * D2R, EPS, "equal legs: no rotation");
        cr_expect_eq(p->sh.count[SHM_CNT_DASH], 1);
    }
}

/* the direction is rounded to dash_angle_step (1 deg) and clamped to +-180 */
Test(physics, dash_direction_rounded, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 44.6);
    cr_expect_float_eq(p->dash_dir[0], 45.0, EPS);
    sim_step(&w);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 400.0);
    cr_expect_float_eq(p->dash_dir[1], 180.0, EPS);
}

Test(physics, negative_dash_power_clamps_to_zero, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, -100.0, 0.0);
    sim_dash_apply(&w, p);
    cr_expect_float_eq(p->ax, 0.0, EPS);
    cr_expect_float_eq(p->sh.stamina, 8000.0, EPS);
    cr_expect_eq(p->sh.count[SHM_CNT_DASH], 1, "count still +1");
}

static void leg_dash(int side, int unum, unsigned legs, double pl, double dl, double pr,
                     double dr)
{
    shm_cmd_sh_t c = test_cmd(SHM_CMD_DASH, pl, dl);
    c.i = 2;
    c.flags = legs;
    c.d[2] = pr;
    c.d[3] = dr;
    sim_cmd_player(&w, shm_player_index(side, unum), &c);
}

/* one leg at 100: need 50, leg power 2 * 50 = 100, accel = half of 0.6 */
Test(physics, one_right_leg_is_half_and_does_not_turn, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    leg_dash(SHM_SIDE_LEFT, 1, 2u, 0.0, 0.0, 100.0, 0.0);
    sim_dash_apply(&w, p);
    cr_expect_float_eq(p->ax, 0.3, EPS);
    cr_expect_float_eq(p->sh.stamina, 8000.0 - 50.0, EPS);
    cr_expect_float_eq(p->body_next, 0.0, EPS, "rotation is evaluated only for the left leg");
}

/* left leg only: v_l.b = 0.6, v_r.b = 0 -> omega = 0.6 / (2 * 0.3) = 1 rad */
Test(physics, left_leg_turns_the_body, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    w.play_mode = PM_PLAY_ON;
    leg_dash(SHM_SIDE_LEFT, 1, 1u, 100.0, 0.0, 0.0, 0.0);
    sim_step(&w);
    cr_expect_float_eq(p->sh.body, 1.0, EPS, "committed at the integration");
    cr_expect_float_eq(p->sh.x, -10.0 + 0.3, EPS);
}

/* l 100 at 0, r 50 at 0: needs 50 + 25; a_l 0.6, a_r 0.3 -> accel 0.45, omega
 * (0.6 - 0.3) / 0.6 = 0.5 rad; r 100 at 90: a_r = 100*0.4*0.006 = 0.24 sideways */
Test(physics, bipedal_dash, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    leg_dash(SHM_SIDE_LEFT, 1, 3u, 100.0, 0.0, 50.0, 0.0);
    sim_dash_apply(&w, p);
    cr_expect_float_eq(p->ax, 0.45, EPS);
    cr_expect_float_eq(p->body_next, 0.5, EPS);
    cr_expect_float_eq(p->sh.stamina, 8000.0 - 75.0, EPS);
    sim_step(&w);
    leg_dash(SHM_SIDE_LEFT, 1, 3u, 100.0, 0.0, 100.0, 90.0);
    p->sh.body = 0.0;
    p->sh.vx = p->sh.vy = 0.0;
    p->ax = p->ay = 0.0;
    sim_dash_apply(&w, p);
    cr_expect_float_eq(p->ax, 0.3, EPS);
    cr_expect_float_eq(p->ay, 0.12, EPS);
    cr_expect_float_eq(p->body_next, 0.6 / 0.6, EPS, "a_r has nothing along the body");
}

/* Per-leg commands use the legs' own slots: after a kick (body slot only) a bipedal
 * dash still goes through, a plain one does not; after a turn neither. */
Test(physics, bipedal_dash_after_kick, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 50.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
    cr_expect_eq(p->leg[0], SIM_LEG_NONE);
    leg_dash(SHM_SIDE_LEFT, 1, 3u, 100.0, 0.0, 100.0, 0.0);
    cr_expect(p->leg[0] == SIM_LEG_DASH && p->leg[1] == SIM_LEG_DASH);
    sim_step(&w);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN, 10.0, 0.0);
    leg_dash(SHM_SIDE_LEFT, 1, 3u, 100.0, 0.0, 100.0, 0.0);
    cr_expect(p->leg[0] == SIM_LEG_TURN && p->leg[1] == SIM_LEG_TURN);
}

/* stamina 10 + extra_stamina 50 = 60 of the 100 needed. The legs' shares: left
 * 60 * 50 / 100 = 30, right 60 * 50 / (30 + 50) = 37.5 (the right share is taken with
 * the left one already scaled); leg powers 60 and 75: accel (0.36 + 0.45) / 2 = 0.405,
 * omega (0.36 - 0.45) / 0.6 = -0.15 rad; stamina 10 - 60 -> 0. */
Test(physics, dash_capped_by_stamina_plus_extra, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    p->sh.stamina = 10.0;
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
    sim_dash_apply(&w, p);
    cr_expect_float_eq(p->sh.stamina, 0.0, EPS);
    cr_expect_float_eq(p->ax, 0.405, EPS);
    cr_expect_float_eq(p->body_next, -0.15, EPS);
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

/* 50 dashes of 100 from rest: v' = min(v + 0.6, 1.05) (accel 0.6 < 1), x += v',
 * v = 0.4 v'; the stamina drops 100 and recovers 45 a step (no threshold reached) */
Test(physics, dash_trajectory_50_steps, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -40.0, 10.0, 0.0);
    double x = -40.0, v = 0.0, st = 8000.0;
    for (int i = 0; i < 50; i++) {
        test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
        sim_step(&w);
        double vv = fmin(v + 0.6, 1.05);
        x += vv;
        v = vv * 0.4;
        st = st - 100.0 + 45.0;
        cr_assert_float_eq(p->sh.x, x, EPS, "step %d", i);
        cr_assert_float_eq(p->sh.vx, v, EPS, "step %d", i);
    }
    cr_expect_float_eq(p->sh.stamina, st, EPS);
    cr_expect_float_eq(p->sh.effort, 1.0, EPS);
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

/* an acceleration above player_accel_max (1.0) is scaled down first */
Test(physics, accel_cap, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    p->ax = 3.0;
    p->ay = 4.0;
    p->sh.vx = -0.5;
    sim_step(&w);
    cr_expect_float_eq(p->sh.x, -10.0 + (-0.5 + 0.6), EPS);
    cr_expect_float_eq(p->sh.y, 10.0 + 0.8, EPS);
}

/* slowness_on_top 0.5 in the top half: the leg accel is divided by 0.5 (1.2), the caps
 * become 0.5 and 0.525 */
Test(physics, slowness_on_top, .timeout = 10)
{
    test_world(&w, 1, 1);
    test_conf.num[SP_slowness_on_top_for_left_team] = 0.5;
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, -10.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
    sim_step(&w);
    cr_expect_float_eq(p->sh.x, -10.0 + 0.5, EPS, "accel 1.2 capped at 1.0 * 0.5");
}

Test(physics, no_motion_before_kick_off, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    p->sh.vx = 0.5;
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN_NECK, 30.0, 0.0);
    sim_step(&w);
    cr_expect_float_eq(p->sh.x, -10.0, EPS);
    cr_expect_float_eq(p->sh.vx, 0.0, EPS, "velocity zeroed");
    cr_expect_float_eq(p->sh.neck, 30.0 * D2R, EPS, "angles committed");
    cr_expect_float_eq(p->sh.stamina, 7900.0 + 45.0, EPS, "the dash still costs");
    cr_expect_eq(w.time, 0, "time does not advance");
    cr_expect_eq(w.stoppage, 1);
}

/* a new right player's pending body angle is 0 (as the reference's): after the first
 * step he faces 0 unless he turned or was moved with a direction */
Test(physics, new_right_player_faces_zero_after_a_step, .timeout = 10)
{
    test_world(&w, 1, 1);
    int idx = shm_player_index(SHM_SIDE_RIGHT, 2);
    sim_player_enable(&w, idx, SHM_SIDE_RIGHT, 2, 0, 1);
    cr_expect_float_eq(w.pl[idx].sh.body, M_PI, EPS);
    sim_step(&w);
    cr_expect_float_eq(w.pl[idx].sh.body, 0.0, EPS);
}

Test(physics, time_over_commits_nothing, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_TIME_OVER;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    p->sh.vx = 0.5;
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN, 30.0, 0.0);
    sim_step(&w);
    cr_expect_float_eq(p->sh.body, 0.0, EPS);
    cr_expect_float_eq(p->sh.x, -10.0, EPS);
    cr_expect_float_eq(p->sh.vx, 0.5, EPS);
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

/* turn: moment / (1 + inertia_moment * speed), speed at command time */
Test(physics, turn_with_inertia, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    p->sh.vx = 1.0; /* speed 1: 60 / (1 + 5 * 1) = 10 */
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN, 60.0, 0.0);
    cr_expect_float_eq(p->sh.body, 0.0, EPS, "committed at the step");
    sim_step(&w);
    cr_expect_float_eq(p->sh.body, 10.0 * D2R, EPS);
    cr_expect_eq(p->sh.count[SHM_CNT_TURN], 1);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN, 500.0, 0.0); /* clamped to 180 */
    sim_step(&w);
    double want = 10.0 + 180.0 / (1.0 + 5.0 * 0.4); /* speed 0.4 after one decay */
    cr_expect_float_eq(p->sh.body, want * D2R, EPS);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN, -180.0, 0.0);
    sim_step(&w); /* speed 0.16 */
    cr_expect_float_eq(p->sh.body, (want - 180.0 / (1.0 + 5.0 * 0.16)) * D2R, EPS);
}

/* turn noise: (1 + U(-player_rand, player_rand)) times the moment */
Test(physics, turn_noise_bounded, .timeout = 10)
{
    test_world(&w, 0, 3);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN, 50.0, 0.0);
    double d = p->body_next / (50.0 * D2R);
    cr_expect(d >= 0.9 && d <= 1.1 && d != 1.0, "factor %g", d);
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
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN_NECK, -100.0, 0.0);
    sim_step(&w);
    cr_expect_float_eq(p->sh.neck, -10.0 * D2R, EPS);
}

Test(physics, stamina_rules, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    p->sh.stamina = 2000.0; /* below both 0.3 thresholds */
    sim_stamina_step(&w, p);
    cr_expect_float_eq(p->sh.recovery, 0.998, EPS);
    cr_expect_float_eq(p->sh.effort, 0.995, EPS);
    cr_expect_float_eq(p->sh.stamina, 2000.0 + 0.998 * 45.0, EPS);
    p->sh.stamina = 6000.0; /* above effort_inc_thr: effort recovers */
    p->sh.effort = 0.9;
    sim_stamina_step(&w, p);
    cr_expect_float_eq(p->sh.effort, 0.91, EPS);
    p->sh.effort = 0.995;
    sim_stamina_step(&w, p);
    cr_expect_float_eq(p->sh.effort, 1.0, EPS, "capped at effort_max");
    p->sh.stamina = 7990.0; /* capped at stamina_max */
    sim_stamina_step(&w, p);
    cr_expect_float_eq(p->sh.stamina, 8000.0, EPS);
    p->sh.recovery = 0.5005;
    p->sh.effort = 0.601;
    p->sh.stamina = 100.0;
    sim_stamina_step(&w, p);
    cr_expect_float_eq(p->sh.recovery, 0.5, EPS, "floored at recover_min");
    cr_expect_float_eq(p->sh.effort, 0.6, EPS, "floored at effort_min");
    p->sh.effort = 0.6;
    p->sh.stamina = 7000.0;
    p->sh.recovery = 1.0;
    p->sh.capacity = 10.0; /* capacity limits recovery */
    sim_stamina_step(&w, p);
    cr_expect_float_eq(p->sh.stamina, 7010.0, EPS);
    cr_expect_float_eq(p->sh.capacity, 0.0, EPS);
    sim_stamina_step(&w, p);
    cr_expect_float_eq(p->sh.stamina, 7010.0, EPS, "empty capacity: no recovery");
    test_conf.num[SP_stamina_capacity] = -1.0; /* unlimited */
    sim_stamina_step(&w, p);
    cr_expect_float_eq(p->sh.stamina, 7055.0, EPS);
}

/* recovery: everything back (recovery 1, effort_max of the type, capacity, hear); the
 * capacity alone at the first extra half */
Test(physics, stamina_resets, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    p->sh.stamina = 100.0;
    p->sh.recovery = 0.7;
    p->sh.effort = 0.8;
    p->sh.capacity = 5.0;
    p->hear_cap[0] = 0;
    sim_player_refill_capacity(&w, p);
    cr_expect_float_eq(p->sh.capacity, 130600.0, EPS);
    cr_expect_float_eq(p->sh.stamina, 100.0, EPS);
    sim_player_reset_stamina(&w, p);
    cr_expect_float_eq(p->sh.stamina, 8000.0, EPS);
    cr_expect_float_eq(p->sh.recovery, 1.0, EPS);
    cr_expect_float_eq(p->sh.effort, 1.0, EPS);
    cr_expect_eq(p->hear_cap[0], 1);
}

/* 300 steps of full dashes: stamina 8000 -100 +45 per step until it is below 2400
 * (0.3 * 8000) where recovery and effort start to fall; the loop replays the rules */
Test(physics, stamina_trajectory_300_steps, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -50.0, 20.0, 0.0);
    double st = 8000.0, rec = 1.0, eff = 1.0, cap = 130600.0;
    for (int i = 0; i < 300; i++) {
        p->sh.x = -50.0; /* keep him on the pitch; only stamina matters here */
        test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
        sim_step(&w);
        st = fmax(0.0, st - fmin(100.0, st + 50.0));
        if (st <= 2400.0)
            rec = fmax(0.5, rec - 0.002);
        if (st <= 2400.0 && eff > 0.6)
            eff = fmax(0.6, eff - 0.005);
        if (st >= 4800.0 && eff < 1.0)
            eff = fmin(1.0, eff + 0.01);
        double inc = fmin(fmin(rec * 45.0, 8000.0 - st), cap);
        st += inc;
        cap -= inc;
        cr_assert_float_eq(p->sh.stamina, st, EPS, "step %d", i);
    }
    cr_expect_float_eq(p->sh.recovery, rec, EPS);
    cr_expect_float_eq(p->sh.effort, eff, EPS);
    cr_expect_float_eq(p->sh.capacity, cap, EPS);
    cr_expect_lt(p->sh.recovery, 1.0, "the scene reached the threshold");
}
