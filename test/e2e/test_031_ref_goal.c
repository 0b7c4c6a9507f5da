/* test_031_ref_goal.c -- goals end to end (docs/protocol/referee.md §3;
 * docs/protocol/physics.md §1; docs/protocol/player.md §11.4): the goal message, the 50
 * stoppage steps with the clock frozen, the attackers kept 9.15 m from the ball meanwhile,
 * the kick-off for the team that conceded with both teams back in their halves; an indirect
 * free kick shot straight in is no goal but a goal kick. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "e2e_ref.h"
#include "playmode.h"

#define SIZE 0.3
/* see_global prints 6 significant digits: positions are compared within 1e-3 */

Test(ref_goal, goal_wait_and_kick_off, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, NULL), 0);
    int a1 = e2e_ref_connect(&m, "A", 0), b1 = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, a1, 50.0, 0.5, 0.0);
    e2e_ref_place(&m, b1, -10.0, 3.0, 180.0);
    e2e_ref_ball(&m, 50.0, -3.0, 2.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    /* the ball moved 2 m (ball_rand 0): not over the line yet (52.5 + ball_size) */
    cr_expect(fabs(m.w.ball.x - 52.0) < 1e-9, "ball %g", m.w.ball.x);
    int t_goal = m.time + 1;
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    /* 52 + 2 x 0.94 = 53.88: in, between the posts */
    cr_expect_str_eq(m.heard, "goal_l_1;");
    cr_expect_eq(m.pm, PM_GOAL_L);
    cr_expect_eq(m.time, t_goal);
    cr_expect(fabs(m.w.ball.x - 53.88) < 1e-9 && m.w.ball.vx == 0.0, "ball stops where it is");
    cr_expect_str_eq(m.pl[a1].heard, "goal_l_1;");
    /* 50 steps of stoppage: the clock stands; the scorers are kept 9.15 m from the ball
     * (the ball is placed for the right team's kick-off) */
    for (int i = 1; i <= 50; i++) {
        cr_assert_eq(e2e_ref_cycle(&m), 0);
        cr_expect_eq(m.pm, PM_GOAL_L, "step %d", i);
        cr_expect_eq(m.time, t_goal, "step %d: the clock stands", i);
    }
    e2e_obj_t *a = e2e_ref_obj(&m, a1);
    cr_assert(a);
    cr_expect(fabs(hypot(a->x - 53.88, a->y + 3.0) - (9.15 + SIZE + 1e-5)) < 1e-3,
              "a1 on the rim: %.9g %.9g (%.9g)", a->x, a->y, hypot(a->x - 53.88, a->y + 3.0));
    /* the 51st: kick_off_r, the clock moves on by one, everybody in his own half */
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "kick_off_r;");
    cr_expect_eq(m.time, t_goal + 1);
    cr_expect(m.w.ball.x == 0.0 && m.w.ball.y == 0.0);
    a = e2e_ref_obj(&m, a1);
    e2e_obj_t *b = e2e_ref_obj(&m, b1);
    cr_assert(a && b);
    /* a1: first just behind the line, then (not kicking off) out of the centre circle:
     * on its rim, 9.15 + size from the centre */
    cr_expect(a->x < 0.0 && fabs(hypot(a->x, a->y) - (9.15 + SIZE)) < 1e-3,
              "a1 %g %g", a->x, a->y);
    cr_expect(fabs(b->x - SIZE) < 1e-9 && fabs(b->y - 3.0) < 1e-9, "b1 %g %g", b->x, b->y);
    cr_expect(strstr(m.log, " goal_l_1;") && strstr(m.log, " kick_off_r;"));
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_goal, indirect_free_kick_straight_in_is_no_goal, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, NULL), 0);
    int a1 = e2e_ref_connect(&m, "A", 0);
    e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode indirect_free_kick_l)");
    e2e_ref_place(&m, a1, 50.5, 0.0, 0.0);
    e2e_ref_ball(&m, 51.0, 0.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_eq(m.pm, PM_INDIRECT_FREE_KICK_L);
    e2e_ref_say(&m, a1, "(kick 100 0)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    /* play_on at the kick; the ball is over the line between the posts one step later,
     * but nobody else touched it: a goal kick for the right team at (47, -9.16) */
    cr_expect_str_eq(m.heard, "play_on;goal_kick_r;");
    cr_expect_eq(m.pm, PM_GOAL_KICK_R);
    cr_expect(fabs(m.w.ball.x - 47.0) < 1e-9 && fabs(m.w.ball.y + 9.16) < 1e-9);
    cr_expect(strstr(m.log, "goal_") == strstr(m.log, "goal_kick_r"), "no goal: %s", m.log);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}
