/* test_kick.c -- the ball actions (docs/protocol/physics.md §4 kick, §5 catch, §7 tackle)
 * with the noise off: effective power by direction and distance, several kickers in one
 * cycle, the modes without effect, tackle probability (made certain by placing the ball
 * where the failure term underflows), power or direction by version, foul exponent and
 * freeze, catch areas, the goalie's step to the ball, the punch, ban and goalie moves.
 * Expected values by hand from the formulas of physics.md, to 1e-9. The referee hooks are the
 * foundation's (they may change mode; the tests only look at the physics). */
#include <criterion/criterion.h>
#include <math.h>
#include "geom.h"
#include "playmode.h"
#include "test_sim_util.h"

#define EPS 1e-9
#define D2R (M_PI / 180.0)

static sim_world_t w;

static void ball_at(double x, double y, double vx, double vy)
{
    w.ball.x = x;
    w.ball.y = y;
    w.ball.vx = vx;
    w.ball.vy = vy;
}

/* ball at 45 deg off the body, 0.7 from the centre: dist_ball = 0.7 - 0.3 - 0.085 =
 * 0.315, dir_diff = pi/4; effective power = 100 * 0.027 * (1 - 0.25 * 0.25 - 0.25 *
 * 0.315 / 0.7) = 2.7 * 0.825 = 2.2275 along body + 30 deg */
Test(kick, power_reduced_by_direction_and_distance, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 10.0);
    ball_at(0.7 * cos(55.0 * D2R), 0.7 * sin(55.0 * D2R), 0.0, 0.0);
    double bx = w.ball.x, by = w.ball.y;
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 100.0, 30.0);
    cr_expect_float_eq(w.ball.ax, 2.2275 * cos(40.0 * D2R), EPS);
    cr_expect_float_eq(w.ball.ay, 2.2275 * sin(40.0 * D2R), EPS);
    cr_expect_float_eq(w.action_accel, 2.2275, EPS);
    cr_expect_eq(p->sh.count[SHM_CNT_KICK], 1);
    sim_step(&w);
    cr_expect_float_eq(w.ball.x, bx + 2.2275 * cos(40.0 * D2R), EPS);
    cr_expect_float_eq(w.ball.y, by + 2.2275 * sin(40.0 * D2R), EPS);
    cr_expect_float_eq(w.ball.vx, 2.2275 * cos(40.0 * D2R) * 0.94, EPS);
}

/* a moving ball keeps its velocity; accel capped at 2.7 and speed at 3.0 */
Test(kick, accel_and_speed_caps, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    ball_at(0.385, 0.0, 1.5, 0.0); /* touching: dist_ball 0, power 2.7 */
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 100.0, 0.0);
    cr_expect_float_eq(w.ball.ax, 2.7, EPS);
    sim_step(&w);
    cr_expect_float_eq(w.ball.x, 0.385 + 3.0, EPS, "1.5 + 2.7 capped at 3.0");
    cr_expect_float_eq(w.ball.vx, 3.0 * 0.94, EPS);
}

/* Two kickers in one cycle: their accelerations add (2 * 2.7 * (1 - 0.25 * 0.115 /
 * 0.7) straight down), the sum is capped at 2.7 at the step. */
Test(kick, several_kickers_add_up, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *a = test_player(&w, SHM_SIDE_LEFT, 1, -0.5, 0.0, 0.0);
    sim_player_t *b = test_player(&w, SHM_SIDE_RIGHT, 1, 0.5, 0.0, 180.0);
    ball_at(0.0, 0.0, 0.0, 0.0);
    double eff = 2.7 * (1.0 - 0.25 * 0.115 / 0.7);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 100.0, 90.0);
    cr_expect_float_eq(w.action_accel, eff, EPS);
    test_apply(&w, SHM_SIDE_RIGHT, 1, SHM_CMD_KICK, 100.0, -90.0);
    cr_expect_float_eq(w.ball.ay, 2.0 * eff, EPS);
    cr_expect_float_eq(w.ball.ax, 0.0, EPS);
    cr_expect(a->sh.count[SHM_CNT_KICK] == 1 && b->sh.count[SHM_CNT_KICK] == 1);
    sim_step(&w);
    cr_expect_float_eq(w.ball.y, 2.7, EPS);
    cr_expect_float_eq(w.ball.vy, 2.7 * 0.94, EPS);
}

Test(kick, no_effect_in_stoppages, .timeout = 10)
{
    static const int modes[] = { PM_BEFORE_KICK_OFF, PM_GOAL_L, PM_OFFSIDE_R, PM_FOUL_CHARGE_L,
                                 PM_BACK_PASS_R, PM_CATCH_FAULT_L, PM_TIME_OVER };
    for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
        test_world(&w, 1, 1);
        w.play_mode = modes[k];
        sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -0.5, 0.0, 0.0);
        ball_at(0.0, 0.0, 0.0, 0.0);
        test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 100.0, 0.0);
        cr_expect_float_eq(w.ball.ax, 0.0, EPS, "mode %d", modes[k]);
        cr_expect_eq(p->sh.count[SHM_CNT_KICK], 0);
        cr_expect(p->cycle_state & SIM_ST_KICK_FAULT);
        cr_expect_eq(p->sh.kicked, 1, "the attempt is visible");
    }
}

/* kickable iff centre distance <= 0.3 + 0.085 + 0.7 = 1.085 */
Test(kick, kickable_edge, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    ball_at(1.0851, 0.0, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 100.0, 0.0);
    cr_expect_eq(p->sh.count[SHM_CNT_KICK], 0);
    sim_step(&w);
    ball_at(1.0849, 0.0, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 100.0, 0.0);
    cr_expect_eq(p->sh.count[SHM_CNT_KICK], 1);
    cr_expect_float_eq(w.ball.ax, 2.7 * (1.0 - 0.25 * (1.0849 - 0.385) / 0.7), EPS);
}

/* v12 kick noise: |noise| <= kick_rand * P/100 * (pos_rate + speed_rate) */
Test(kick, noise_bounded, .timeout = 10)
{
    test_world(&w, 0, 11);
    w.play_mode = PM_PLAY_ON;
    test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    ball_at(0.385, 0.0, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 100.0, 0.0);
    double n = hypot(w.ball.ax - 2.7, w.ball.ay);
    cr_expect(n > 0.0 && n <= 0.1 * 1.0 * (0.5 + 0.5) + EPS, "noise %g", n);
}

/* ---- tackle ---- */
/* The ball 1e-3 ahead: failure = (5e-4)^6 + 0 ~ 1.6e-20, so 1 - failure == 1 and the
 * tackle succeeds for any draw. v12+: power (0 + 100 (1 - |dir|/180)) * 0.027 *
 * (1 - 0.5 * 0 / pi) along body + dir. */
Test(tackle, direction_form, .timeout = 10)
{
    static const double dirs[3] = { 0.0, 90.0, -180.0 };
    for (int k = 0; k < 3; k++) {
        test_world(&w, 1, 1);
        w.play_mode = PM_PLAY_ON;
        sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 20.0);
        p->version = 19.0;
        ball_at(1e-3 * cos(20.0 * D2R), 1e-3 * sin(20.0 * D2R), 0.0, 0.0);
        test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TACKLE, dirs[k], 0.0);
        double eff = 100.0 * (1.0 - fabs(dirs[k]) / 180.0) * 0.027;
        cr_expect_float_eq(w.ball.ax, eff * cos((20.0 + dirs[k]) * D2R), EPS, "dir %g", dirs[k]);
        cr_expect_float_eq(w.ball.ay, eff * sin((20.0 + dirs[k]) * D2R), EPS);
        cr_expect_eq(p->sh.count[SHM_CNT_TACKLE], 1);
        cr_expect_eq(p->sh.tackle_expires, 10);
        cr_expect(!(p->cycle_state & SIM_ST_TACKLE_FAULT));
    }
}

/* v11 and older: a power along the body; ball 90 deg to the side at 0.001 m: factor
 * 1 - 0.5 * (pi/2) / pi = 0.75 */
Test(tackle, power_form_before_v12, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    p->version = 11.0;
    ball_at(1e-12, 1e-3, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TACKLE, 50.0, 0.0);
    cr_expect_float_eq(w.ball.ax, 50.0 * 0.027 * 0.75, EPS);
    cr_expect_float_eq(w.ball.ay, 0.0, EPS);
}

/* behind the player tackle_back_dist is 0: failure at once; far ahead: failure term
 * (1.9/2)^6 + (1.2/1.25)^6 >= 1: failure */
Test(tackle, failures_still_freeze, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    ball_at(-0.5, 0.0, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TACKLE, 0.0, 0.0);
    cr_expect(p->cycle_state & SIM_ST_TACKLE_FAULT);
    cr_expect_float_eq(w.ball.ax, 0.0, EPS);
    cr_expect_eq(p->sh.tackle_expires, 10);
    /* frozen: tackle_cycles 10 -> the body slot stays taken for 9 more steps */
    for (int i = 0; i < 9; i++) {
        sim_step(&w);
        test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
        cr_expect_eq(p->leg[0], SIM_LEG_NONE, "step %d", i);
    }
    sim_step(&w);
    cr_expect_eq(p->sh.tackle_expires, 0);
    ball_at(1.9, 1.2, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TACKLE, 0.0, 0.0);
    cr_expect(p->cycle_state & SIM_ST_TACKLE_FAULT);
    cr_expect_float_eq(w.ball.ax, 0.0, EPS);
    cr_expect_eq(p->sh.count[SHM_CNT_TACKLE], 2);
}

/* A foul tackle (flag on, an opponent has the ball kickable: r1 0.699 from it) uses
 * foul_exponent 10 and, when it succeeds (ball 1e-3 ahead: certain), does not freeze
 * the tackler; with nobody of the other team near the ball the flag changes nothing. */
Test(tackle, foul_flag, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    p->version = 19.0;
    test_player(&w, SHM_SIDE_RIGHT, 1, 0.7, 0.0, 180.0); /* has the ball kickable */
    ball_at(1e-3, 0.0, 0.0, 0.0);
    shm_cmd_sh_t c = test_cmd(SHM_CMD_TACKLE, 0.0, 0.0);
    c.i = 1;
    sim_cmd_player(&w, 0, &c);
    cr_expect_eq(p->sh.tackle_expires, 0, "successful foul tackle: no freeze");
    cr_expect_float_eq(w.ball.ax, 2.7, EPS);
    /* flag on but nobody of the other team near the ball: an ordinary tackle */
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    p = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    ball_at(1e-3, 0.0, 0.0, 0.0);
    sim_cmd_player(&w, 0, &c);
    cr_expect_eq(p->sh.tackle_expires, 10);
}

/* a successful tackle in a stoppage moves nothing (catch_fault excepted) */
Test(tackle, modes_without_effect, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_GOAL_R;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    ball_at(1e-3, 0.0, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TACKLE, 0.0, 0.0);
    cr_expect_float_eq(w.ball.ax, 0.0, EPS);
    cr_expect(p->cycle_state & SIM_ST_TACKLE);
    cr_expect(!(p->cycle_state & SIM_ST_TACKLE_FAULT));
    test_world(&w, 1, 1);
    w.play_mode = PM_CATCH_FAULT_R;
    test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    ball_at(1e-3, 0.0, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TACKLE, 0.0, 0.0);
    cr_expect_float_eq(w.ball.ax, 2.7, EPS);
}

/* ---- catch ---- */
static sim_player_t *goalie(double x, double y, double body)
{
    sim_player_t *g = test_player(&w, SHM_SIDE_LEFT, 1, x, y, body);
    g->sh.goalie = 1;
    return g;
}

/* Ball 1.0 ahead, inside [0, 1.2] x [-0.5, 0.5] with probability 1: the goalie steps
 * 1.0 - 0.385 = 0.615 towards it, faces it, stops; ban 5; the ball is then carried
 * 0.385 in front of him. */
Test(catch, success_steps_to_the_ball, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *g = goalie(-45.0, 0.0, 0.0);
    g->sh.vx = 0.3;
    ball_at(-45.0 + 0.6, 0.8, 0.0, 0.0); /* 1.0 away at atan2(0.8, 0.6) */
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_CATCH, atan2(0.8, 0.6) / D2R, 0.0);
    cr_expect_float_eq(g->sh.x, -45.0 + 0.6 * 0.615, EPS);
    cr_expect_float_eq(g->sh.y, 0.8 * 0.615, EPS);
    cr_expect_float_eq(g->body_next, atan2(0.8, 0.6), EPS);
    cr_expect_float_eq(g->sh.vx, 0.0, EPS);
    cr_expect_eq(g->catch_ban, 5);
    cr_expect_eq(g->sh.count[SHM_CNT_CATCH], 1);
    cr_expect_eq(w.play_mode, PM_FREE_KICK_L, "the referee gave the free kick");
    cr_expect_eq(w.catcher, 0, "held");
    sim_step(&w);
    cr_expect_float_eq(w.ball.x, g->sh.x + 0.385 * 0.6, EPS);
    cr_expect_float_eq(w.ball.y, g->sh.y + 0.385 * 0.8, EPS);
    cr_expect_eq(g->catch_ban, 4);
}

/* outside the rectangle (1.3 > 1.2, or sideways beyond 0.5): no catch, no count, but
 * the ban runs; the catch angle is clamped to +-90 */
Test(catch, outside_the_area, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *g = goalie(-45.0, 0.0, 0.0);
    ball_at(-45.0 + 1.3, 0.0, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_CATCH, 0.0, 0.0);
    cr_expect_eq(g->sh.count[SHM_CNT_CATCH], 0);
    cr_expect_eq(g->catch_ban, 5);
    cr_expect(g->cycle_state & SIM_ST_CATCH_FAULT);
    cr_expect_float_eq(g->sh.x, -45.0, EPS);
    for (int i = 0; i < 5; i++)
        sim_step(&w);
    ball_at(-45.0 - 1.0, 0.0, 0.0, 0.0); /* behind: direction 180 is clamped to 90 */
    g->sh.x = -45.0;
    g->sh.body = 0.0;
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_CATCH, 180.0, 0.0);
    cr_expect_eq(g->sh.count[SHM_CNT_CATCH], 0);
}

/* not a goalie, banned, or not play_on: nothing but the slot */
Test(catch, refused, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_KICK_IN_L;
    sim_player_t *g = goalie(-45.0, 0.0, 0.0);
    ball_at(-44.0, 0.0, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_CATCH, 0.0, 0.0);
    cr_expect_eq(g->catch_ban, 0);
    cr_expect_eq(g->sh.count[SHM_CNT_CATCH], 0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
    cr_expect_eq(g->leg[0], SIM_LEG_NONE, "the catch took the body slot");
}

/* With catch_probability 0 every attempt inside the area fails: the ball's velocity
 * along the catch direction is reversed through an acceleration: (-1, 0) -> (1, 0) is
 * an acceleration (2, 0) applied at the step. */
Test(catch, punch, .timeout = 10)
{
    test_world(&w, 1, 1);
    test_conf.num[SP_catch_probability] = 0.0;
    w.play_mode = PM_PLAY_ON;
    sim_player_t *g = goalie(-45.0, 0.0, 0.0);
    ball_at(-44.0, 0.0, -1.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_CATCH, 0.0, 0.0);
    cr_expect_float_eq(w.ball.ax, 2.0, EPS);
    cr_expect_float_eq(w.ball.ay, 0.0, EPS);
    cr_expect_eq(g->sh.count[SHM_CNT_CATCH], 1);
    cr_expect(g->cycle_state & SIM_ST_CATCH_FAULT);
    sim_step(&w);
    cr_expect_float_eq(w.ball.x, -44.0 + 1.0, EPS);
    cr_expect_float_eq(w.ball.vx, 0.94, EPS);
}

/* A stretched type (1.25): L_max 1.5, L_min 0.9; between them the probability falls
 * linearly: ball at 1.4 -> 1 - 0.5/0.6; checked through the share of successes over
 * many attempts (draws from the action stream). */
Test(catch, stretched_area_probability, .timeout = 10)
{
    int ok = 0, n = 4000;
    test_world(&w, 1, 5);
    w.types.type[1] = w.types.type[0];
    w.types.type[1].catchable_area_l_stretch = 1.25;
    sim_player_t *g = goalie(-45.0, 0.0, 0.0);
    g->sh.type = 1;
    for (int k = 0; k < n; k++) {
        w.play_mode = PM_PLAY_ON;
        w.catcher = -1;
        g->sh.x = -45.0;
        g->sh.y = 0.0;
        g->catch_ban = 0;
        g->body_used = 0;
        ball_at(-45.0 + 1.4, 0.0, 0.0, 0.0);
        test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_CATCH, 0.0, 0.0);
        ok += w.catcher == 0;
    }
    cr_expect_eq(g->sh.count[SHM_CNT_CATCH], (uint32_t)n, "every attempt inside L_max");
    double p = 1.0 - 0.5 / 0.6;
    cr_expect(fabs((double)ok / n - p) < 0.03, "share %g, expected %g", (double)ok / n, p);
}

/* free kick after a catch: the goalie holding the ball moves with it twice, the third
 * move uses the slot and the count but does not move him */
Test(catch, goalie_moves_with_the_ball, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *g = goalie(-45.0, 0.0, 0.0);
    ball_at(-44.0, 0.0, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_CATCH, 0.0, 0.0);
    cr_assert_eq(w.catcher, 0);
    for (int k = 0; k < 3; k++) {
        sim_step(&w);
        test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_MOVE, -40.0 - k, 5.0);
    }
    cr_expect_float_eq(g->sh.x, -41.0, EPS, "the third move is refused");
    cr_expect_eq(g->sh.count[SHM_CNT_MOVE], 3);
    sim_step(&w);
    cr_expect_float_eq(w.ball.x, -41.0 + 0.385, EPS, "the ball goes with him");
    cr_expect_float_eq(w.ball.y, 5.0, EPS);
}
