/* test_033_ref_offside.c -- offside end to end (docs/protocol/referee.md §7): candidates fixed
 * at the pass (teammates beyond the second-last defender and the ball), the offside
 * called when a candidate tries to play the ball within 2.5 m or plays it, the ball at
 * the offside point, 30 steps with the clock stopped and the offenders sent 9.15 m behind
 * the offside line, then a free kick for the other side; a player level with the ball at
 * the pass is not offside; kick-ins make no candidates. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "e2e_ref.h"
#include "playmode.h"

#define SIZE 0.3
#define NEAR(a, b) (fabs((a) - (b)) < 1e-3)

/* A1 passes from the centre spot; B1 (30, 5) and B2 (40, -5) defend: the second-last
 * defender is at x = 30, the offside line (ball at 0) */
static void scene(e2e_ref_t *m, int *a1, int *a2, double a2x)
{
    cr_assert_eq(e2e_ref_start(m, NULL), 0);
    *a1 = e2e_ref_connect(m, "A", 0);
    *a2 = e2e_ref_connect(m, "A", 0);
    int b1 = e2e_ref_connect(m, "B", 0), b2 = e2e_ref_connect(m, "B", 0);
    cr_assert_eq(e2e_ref_sync(m), 0);
    e2e_ref_trainer(m, "(change_mode play_on)");
    e2e_ref_place(m, *a1, -0.5, 0.0, 0.0);
    e2e_ref_place(m, *a2, a2x, 10.0, 0.0);
    e2e_ref_place(m, b1, 30.0, 5.0, 180.0);
    e2e_ref_place(m, b2, 40.0, -5.0, 180.0);
    e2e_ref_ball(m, 0.0, 0.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(m), 0);
}

Test(ref_offside, failed_kick_near_the_ball_after_a_pass, .timeout = 60)
{
    e2e_ref_t m;
    int a1, a2;
    scene(&m, &a1, &a2, 35.0);
    e2e_ref_say(&m, a1, "(kick 20 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_eq(m.pm, PM_PLAY_ON);
    /* the ball is brought 1.5 m from A2 (not kickable: 0.3 + 0.085 + 0.7 < 1.5) */
    e2e_ref_ball(&m, 33.5, 10.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, a2, "(kick 100 180)");
    int t = m.time;
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "offside_l;");
    cr_expect_eq(m.pm, PM_OFFSIDE_L);
    cr_expect_eq(m.time, t, "the clock stops at the call");
    /* the free kick point: (offside line, A2's y) */
    cr_expect(NEAR(m.w.ball.x, 30.0) && NEAR(m.w.ball.y, 10.0), "ball %g %g", m.w.ball.x, m.w.ball.y);
    /* the offender beyond the line goes offside_kick_margin behind it */
    e2e_obj_t *p = e2e_ref_obj(&m, a2);
    cr_assert(p);
    cr_expect(NEAR(p->x, 30.0 - 9.15) && NEAR(p->y, 10.0), "a2 %g %g", p->x, p->y);
    /* 30 steps (the call's and 29 more) in offside_l, then the free kick */
    for (int i = 2; i <= 30; i++) {
        cr_assert_eq(e2e_ref_cycle(&m), 0);
        cr_expect_eq(m.pm, PM_OFFSIDE_L, "step %d", i);
        cr_expect_eq(m.time, t, "step %d", i);
    }
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "free_kick_r;");
    cr_expect_eq(m.time, t + 1, "one tick when the stoppage ends");
    /* in the last 5 steps the offending team was cleared 9.15 m (+ size) from the ball */
    p = e2e_ref_obj(&m, a2);
    cr_assert(p);
    cr_expect(NEAR(p->x, 30.0 - 9.15 - SIZE) && NEAR(p->y, 10.0), "a2 %g %g", p->x, p->y);
    cr_expect_str_eq(m.pl[a2].heard, "free_kick_r;");
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_offside, playing_the_ball_after_a_pass, .timeout = 60)
{
    e2e_ref_t m;
    int a1, a2;
    scene(&m, &a1, &a2, 35.0);
    e2e_ref_say(&m, a1, "(kick 20 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_ball(&m, 35.5, 10.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, a2, "(kick 50 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "offside_l;");
    cr_expect(NEAR(m.w.ball.x, 30.0) && NEAR(m.w.ball.y, 10.0) && m.w.ball.vx == 0.0);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_offside, level_with_the_ball_is_no_offside, .timeout = 60)
{
    e2e_ref_t m;
    int a1, a2;
    scene(&m, &a1, &a2, 35.0);
    /* the ball at 36 when passed: the line is the ball, A2 at 35 is behind it */
    e2e_ref_place(&m, a1, 35.5, 0.0, 0.0);
    e2e_ref_ball(&m, 36.0, 0.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, a1, "(kick 20 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_ball(&m, 35.5, 10.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, a2, "(kick 50 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_eq(m.pm, PM_PLAY_ON);
    cr_expect(strstr(m.log, "offside") == NULL, "%s", m.log);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_offside, kick_in_makes_no_candidates, .timeout = 60)
{
    e2e_ref_t m;
    int a1, a2;
    scene(&m, &a1, &a2, 35.0);
    e2e_ref_trainer(&m, "(change_mode kick_in_l)");
    e2e_ref_place(&m, a1, 0.0, -33.5, 90.0);
    e2e_ref_ball(&m, 0.0, -33.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, a1, "(kick 20 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_eq(m.pm, PM_PLAY_ON);
    e2e_ref_ball(&m, 35.5, 10.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, a2, "(kick 50 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_eq(m.pm, PM_PLAY_ON);
    cr_expect(strstr(m.log, "offside") == NULL, "%s", m.log);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}
