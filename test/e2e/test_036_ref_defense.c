/* test_036_ref_defense.c -- illegal defense and the ball-stuck rule end to end (see
 * docs/protocol/referee.md §10, §11): after the attackers kicked, with the ball in the defenders'
 * half, illegal_defense_number defenders in the zone before their goal for
 * illegal_defense_duration steps: illegal_defense at (+-41.5, 0), 30 steps, free kick for
 * the attackers; a ball that stays within ball_stuck_area for drop_ball_time steps of
 * play_on is dropped where it is. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "e2e_ref.h"
#include "playmode.h"

#define SIZE 0.3
#define NEAR(a, b) (fabs((a) - (b)) < 1e-3)

Test(ref_defense, illegal_defense_after_duration, .timeout = 60)
{
    const char *args[] = { "server::illegal_defense_number=2",
                           "server::illegal_defense_duration=3", NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    int a1 = e2e_ref_connect(&m, "A", 0);
    int b1 = e2e_ref_connect(&m, "B", 0), b2 = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, a1, 9.5, 0.0, 0.0);
    e2e_ref_place(&m, b1, 40.0, 0.0, 180.0);
    e2e_ref_place(&m, b2, 45.0, 5.0, 180.0);
    e2e_ref_ball(&m, 10.0, 0.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycles(&m, 3), 0);
    cr_expect_eq(m.pm, PM_PLAY_ON, "nobody kicked yet: no illegal defense");
    /* the attackers kick; both defenders stand within 16.5 m of their goal line and
     * 20.16 m of the axis: counted at each of the next steps, called at the third */
    e2e_ref_say(&m, a1, "(kick 10 0)");
    cr_assert_eq(e2e_ref_cycles(&m, 2), 0);
    cr_expect_eq(m.pm, PM_PLAY_ON);
    int t = m.time + 1;
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "illegal_defense_r;");
    cr_expect_eq(m.time, t);
    cr_expect(NEAR(m.w.ball.x, 41.5) && NEAR(m.w.ball.y, 0.0) && m.w.ball.vx == 0.0);
    /* called during a play_on step: the 30 stoppage steps follow it */
    for (int i = 1; i <= 30; i++) {
        cr_assert_eq(e2e_ref_cycle(&m), 0);
        cr_expect_eq(m.pm, PM_ILLEGAL_DEFENSE_R, "step %d", i);
        cr_expect_eq(m.time, t);
    }
    /* during the last 5 the defenders leave a 5.5 m circle; the free kick clears 9.15 m */
    e2e_obj_t *p = e2e_ref_obj(&m, b1);
    cr_assert(p);
    cr_expect(NEAR(p->x, 41.5 - 5.5 - SIZE) && NEAR(p->y, 0.0), "b1 %g %g", p->x, p->y);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "free_kick_l;");
    cr_expect_eq(m.time, t + 1);
    for (int k = 0; k < 2; k++) {
        p = e2e_ref_obj(&m, k == 0 ? b1 : b2);
        cr_assert(p);
        cr_expect(hypot(p->x - 41.5, p->y) > 9.15 + SIZE - 1e-3, "b%d %g %g", k + 1, p->x, p->y);
    }
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_defense, one_defender_too_few, .timeout = 60)
{
    const char *args[] = { "server::illegal_defense_number=2",
                           "server::illegal_defense_duration=3", NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    int a1 = e2e_ref_connect(&m, "A", 0);
    int b1 = e2e_ref_connect(&m, "B", 0), b2 = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, a1, 9.5, 0.0, 0.0);
    e2e_ref_place(&m, b1, 40.0, 0.0, 180.0);
    e2e_ref_place(&m, b2, 30.0, 5.0, 180.0);
    e2e_ref_ball(&m, 10.0, 0.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_say(&m, a1, "(kick 10 0)");
    cr_assert_eq(e2e_ref_cycles(&m, 6), 0);
    cr_expect_eq(m.pm, PM_PLAY_ON);
    cr_expect(strstr(m.log, "illegal") == NULL, "%s", m.log);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_defense, ball_stuck_is_dropped, .timeout = 60)
{
    const char *args[] = { "server::drop_ball_time=5", NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    int a1 = e2e_ref_connect(&m, "A", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, a1, 0.0, 0.0, 0.0);
    e2e_ref_ball(&m, 20.0, 10.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    /* the ball jumped 22 m: the stuck count starts here; 5 steps within 3 m of it */
    for (int i = 1; i <= 4; i++) {
        cr_assert_eq(e2e_ref_cycle(&m), 0);
        cr_expect_str_eq(m.heard, "", "step %d", i);
    }
    int t = m.time + 1;
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "drop_ball;play_on;");
    cr_expect_eq(m.time, t);
    cr_expect(NEAR(m.w.ball.x, 20.0) && NEAR(m.w.ball.y, 10.0));
    /* and again 5 steps later if nobody plays it */
    cr_assert_eq(e2e_ref_cycles(&m, 4), 0);
    cr_expect_str_eq(m.heard, "");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "drop_ball;play_on;");
    cr_expect_eq(e2e_ref_stop(&m), 0);
}
