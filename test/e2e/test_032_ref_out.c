/* test_032_ref_out.c -- the ball out of play end to end (docs/protocol/referee.md §4, §5): a
 * kick-in for the team that did not touch last, at the crossing point on the line, with
 * the kickers' opponents cleared 9.15 m; a corner kick at (+-51.5, +-33); a goal kick at
 * the goal-area corner, the attackers pushed out of the penalty area, play_on only when
 * the ball leaves the area, retaken when an attacker touches it; a ball over the touch
 * line that nobody touched is dropped. Positions within 1e-3 (see_global's digits). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "e2e_ref.h"
#include "playmode.h"

#define SIZE 0.3
#define BALL 0.085
#define NEAR(a, b) (fabs((a) - (b)) < 1e-3)

/* acceleration of a kick of the given power from 0.5 m straight behind the ball (type 0) */
static double kick_acc(double power)
{
    return power * 0.027 * (1.0 - 0.25 * (0.5 - SIZE - BALL) / 0.7);
}

Test(ref_out, kick_in_for_the_other_team, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, NULL), 0);
    e2e_ref_connect(&m, "A", 0);
    int b1 = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, b1, 10.0, 31.5, 90.0);
    e2e_ref_ball(&m, 10.0, 32.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, b1, "(kick 30 0)");
    /* y: 32 + a, + 0.94 a, + 0.94^2 a with a = kick_acc(30) = 0.7767: over 34 + 0.085
     * at the third step */
    double a = kick_acc(30.0), y = 32.0;
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(e2e_ref_cycle(&m), 0);
        y += a * pow(0.94, i);
        cr_expect(NEAR(m.w.ball.y, y) && m.pm == PM_PLAY_ON, "step %d: %g", i, m.w.ball.y);
    }
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "kick_in_l;");
    cr_expect(NEAR(m.w.ball.x, 10.0) && NEAR(m.w.ball.y, 34.0), "on the line");
    /* the right team leaves the 9.15 m circle (to its rim plus 1e-5) */
    e2e_obj_t *p = e2e_ref_obj(&m, b1);
    cr_assert(p);
    cr_expect(NEAR(p->x, 10.0) && NEAR(p->y, 34.0 - 9.15 - SIZE), "b1 %g %g", p->x, p->y);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_out, corner_kick_after_own_touch, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, NULL), 0);
    int a1 = e2e_ref_connect(&m, "A", 0);
    e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, a1, -49.5, 10.0, 180.0);
    e2e_ref_ball(&m, -50.0, 10.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    /* a left defender plays it over his own goal line, wide of the posts */
    e2e_ref_say(&m, a1, "(kick 100 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "corner_kick_r;");
    cr_expect(NEAR(m.w.ball.x, -51.5) && NEAR(m.w.ball.y, 33.0), "ball %g %g", m.w.ball.x, m.w.ball.y);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_out, goal_kick_area_cleared_and_retaken, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, NULL), 0);
    int a1 = e2e_ref_connect(&m, "A", 0), a2 = e2e_ref_connect(&m, "A", 0);
    int b1 = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, a1, 49.5, 10.0, 0.0);
    e2e_ref_place(&m, a2, 40.0, -15.0, 0.0);
    e2e_ref_place(&m, b1, 20.0, 0.0, 180.0);
    e2e_ref_ball(&m, 50.0, 10.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    /* an attacker over the goal line: goal kick at (47, 9.16) */
    e2e_ref_say(&m, a1, "(kick 100 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "goal_kick_r;");
    cr_expect(NEAR(m.w.ball.x, 47.0) && NEAR(m.w.ball.y, 9.16));
    /* the kicker was within 9.15 m: cleared at once; the other attacker, in the area
     * but further away, goes at the next step to the nearest edge of the area enlarged
     * by his size: the front edge, x = 36 - size */
    e2e_obj_t *p = e2e_ref_obj(&m, a1);
    cr_assert(p);
    cr_expect(NEAR(hypot(p->x - 47.0, p->y - 9.16), 9.15 + SIZE), "a1 %g %g", p->x, p->y);
    p = e2e_ref_obj(&m, a2);
    cr_assert(p);
    cr_expect(NEAR(p->x, 40.0) && NEAR(p->y, -15.0), "a2 %g %g", p->x, p->y);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    p = e2e_ref_obj(&m, a2);
    cr_assert(p);
    cr_expect(NEAR(p->x, 36.0 - SIZE) && NEAR(p->y, -15.0), "a2 %g %g", p->x, p->y);
    cr_expect_eq(m.pm, PM_GOAL_KICK_R);
    /* an attacker touching the ball during the goal kick: retaken */
    e2e_ref_place(&m, a1, 47.2, 9.16, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "goal_kick_r;");
    /* (the collision put him back next to the ball, and the area rule then on the
     * front edge, in the way: out of it) */
    p = e2e_ref_obj(&m, a1);
    cr_assert(p);
    cr_expect(NEAR(p->x, 36.0 - SIZE) && NEAR(p->y, 9.16), "a1 %g %g", p->x, p->y);
    e2e_ref_place(&m, a1, 20.0, 30.0, 0.0);
    /* the goal kick: still goal_kick_r while the ball is in the area, play_on once it
     * has left it (x < 36 - ball_size) */
    e2e_ref_place(&m, b1, 47.5, 9.16, 180.0);
    e2e_ref_ball(&m, 47.0, 9.16, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, b1, "(kick 100 0)");
    double x = 47.0, v = kick_acc(100.0);
    for (int i = 0; i < 10 && m.pm == PM_GOAL_KICK_R; i++) {
        cr_assert_eq(e2e_ref_cycle(&m), 0);
        x -= v;
        v *= 0.94;
        cr_expect(NEAR(m.w.ball.x, x), "step %d: %g %g", i, m.w.ball.x, x);
        cr_expect_eq(m.pm, x < 36.0 - BALL ? PM_PLAY_ON : PM_GOAL_KICK_R, "step %d x %g", i, x);
    }
    cr_expect_eq(m.pm, PM_PLAY_ON);
    cr_expect_eq(m.errors, 0);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_out, untouched_ball_over_the_touch_line_is_dropped, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, NULL), 0);
    int a1 = e2e_ref_connect(&m, "A", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, a1, 0.0, 10.0, 0.0); /* away from the ball: a trainer move resolves overlaps, and a touch would name a kicker */
    e2e_ref_ball(&m, -40.0, -33.5, 0.0, -1.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    /* no last toucher: drop ball where it crossed, put back on the line (-40, -34),
     * then play_on at once */
    cr_expect_str_eq(m.heard, "play_on;drop_ball;play_on;");
    cr_expect(NEAR(m.w.ball.x, -40.0) && NEAR(m.w.ball.y, -34.0), "ball %g %g", m.w.ball.x, m.w.ball.y);
    cr_expect_eq(m.pm, PM_PLAY_ON);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}
