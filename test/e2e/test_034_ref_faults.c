/* test_034_ref_faults.c -- free kick faults and the goalie rules end to end (see
 * docs/protocol/referee.md §6, §9): the taker kicks, dashes and kicks again: free_kick_fault, 30
 * steps, free kick for the others; a catch outside the penalty area: catch_fault; a catch
 * of a teammate's pass: back_pass, 30 steps, indirect free kick; a legal catch: a free
 * kick, the goalie moves with the ball, and carrying it out of the area is a catch fault. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "e2e_ref.h"
#include "playmode.h"

#define SIZE 0.3
#define NEAR(a, b) (fabs((a) - (b)) < 1e-3)

/* 30 stoppage steps in mode pm (the one of the call and 29 more were counted by the
 * caller up to `done`), then next; the clock stands until the last */
static void wait_out(e2e_ref_t *m, int pm, int done, const char *next, int t)
{
    for (int i = done + 1; i <= 30; i++) {
        cr_assert_eq(e2e_ref_cycle(m), 0);
        cr_expect_eq(m->pm, pm, "step %d", i);
        cr_expect_eq(m->time, t, "step %d", i);
    }
    cr_assert_eq(e2e_ref_cycle(m), 0);
    cr_expect_str_eq(m->heard, next);
    cr_expect_eq(m->time, t + 1);
}

Test(ref_faults, free_kick_fault_after_kick_dash_kick, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, NULL), 0);
    int a1 = e2e_ref_connect(&m, "A", 0);
    e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode free_kick_l)");
    e2e_ref_place(&m, a1, 9.5, 0.0, 0.0);
    e2e_ref_ball(&m, 10.0, 0.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, a1, "(kick 20 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "play_on;");
    /* a dash (0.6 m/cycle^2 at power 100) keeps the ball within reach */
    e2e_ref_say(&m, a1, "(dash 100)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_eq(m.pm, PM_PLAY_ON);
    double bx = m.w.ball.x;
    e2e_ref_say(&m, a1, "(kick 20 0)");
    int t = m.time;
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "free_kick_fault_l;");
    cr_expect(NEAR(m.w.ball.x, bx) && m.w.ball.vx == 0.0, "ball where it was: %g %g", m.w.ball.x, bx);
    cr_expect_eq(m.time, t);
    wait_out(&m, PM_FREE_KICK_FAULT_L, 1, "free_kick_r;", t);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_faults, catch_outside_the_penalty_area, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, NULL), 0);
    e2e_ref_connect(&m, "A", 0);
    int g = e2e_ref_connect(&m, "B", 1);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, g, 30.0, 0.0, 0.0);
    e2e_ref_ball(&m, 30.5, 0.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, g, "(catch 0)");
    int t = m.time;
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "goalie_catch_ball_r;catch_fault_r;");
    cr_expect(NEAR(m.w.ball.x, 30.5) && NEAR(m.w.ball.y, 0.0));
    cr_expect_eq(m.time, t);
    wait_out(&m, PM_CATCH_FAULT_R, 1, "free_kick_l;", t);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_faults, back_pass_to_the_goalie, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, NULL), 0);
    e2e_ref_connect(&m, "A", 0);
    int g = e2e_ref_connect(&m, "B", 1), b2 = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, g, 45.0, 0.0, 0.0);
    e2e_ref_place(&m, b2, 40.5, 0.0, 0.0);
    e2e_ref_ball(&m, 41.0, 0.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, b2, "(kick 20 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    /* the pass arrives (brought in front of the goalie), the passer goes away */
    e2e_ref_ball(&m, 45.5, 0.0, 0.0, 0.0);
    e2e_ref_place(&m, b2, 20.0, 20.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, g, "(catch 0)");
    int t = m.time;
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "goalie_catch_ball_r;back_pass_r;");
    cr_expect(NEAR(m.w.ball.x, 45.5) && NEAR(m.w.ball.y, 0.0), "at the catch point");
    wait_out(&m, PM_BACK_PASS_R, 1, "indirect_free_kick_l;", t);
    /* the goalie's team is cleared from the indirect free kick */
    e2e_obj_t *p = e2e_ref_obj(&m, g);
    cr_assert(p);
    cr_expect(hypot(p->x - 45.5, p->y) > 9.15 + SIZE - 1e-3, "goalie %g %g", p->x, p->y);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_faults, legal_catch_free_kick_then_carried_out, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, NULL), 0);
    int a1 = e2e_ref_connect(&m, "A", 0), g = e2e_ref_connect(&m, "B", 1);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, a1, 40.5, 0.0, 0.0);
    e2e_ref_place(&m, g, 45.0, 0.0, 0.0);
    e2e_ref_ball(&m, 41.0, 0.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, a1, "(kick 20 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_ball(&m, 45.5, 0.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, g, "(catch 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    /* an opponent's shot caught in the area: a free kick for the goalie's team */
    cr_expect_str_eq(m.heard, "goalie_catch_ball_r;free_kick_r;");
    cr_expect_eq(m.pm, PM_FREE_KICK_R);
    /* the goalie moves with the ball (right side: move mirrors x): still inside */
    e2e_ref_say(&m, g, "(move -40 5)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_obj_t *p = e2e_ref_obj(&m, g);
    cr_assert(p);
    cr_expect(NEAR(p->x, 40.0) && NEAR(p->y, -5.0), "goalie %g %g", p->x, p->y);
    cr_expect(hypot(m.w.ball.x - 40.0, m.w.ball.y + 5.0) < 0.4, "the ball held in front of him");
    cr_expect_eq(m.pm, PM_FREE_KICK_R);
    /* out of the area with the ball: catch fault, ball out of the area */
    e2e_ref_say(&m, g, "(move -30 5)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "catch_fault_r;");
    cr_expect(m.w.ball.x < 36.0);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}
