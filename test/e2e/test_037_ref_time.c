/* test_037_ref_time.c -- halves, extra time and the end of the game end to end (see
 * docs/protocol/referee.md §12; docs/protocol/player.md §11.4): half_time with the clock
 * frozen in before_kick_off until the next (start), the right team kicking off the second
 * half; a level game extended by nr_extra_halfs halves of extra_half_time, each announced
 * time_extended; time_up when the score differs; golden goal ending extra time at once;
 * time_up_without_a_team. half_time=1 and extra_half_time=1: 10 cycles each. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "e2e_ref.h"
#include "playmode.h"

/* (start), then cycles until the mode leaves play_on/kick-off (at most n) */
static void play_half(e2e_ref_t *m, int n)
{
    e2e_ref_trainer(m, "(start)");
    for (int i = 0; i < n; i++) {
        cr_assert_eq(e2e_ref_cycle(m), 0);
        if (m->pm != PM_PLAY_ON && m->pm != PM_KICK_OFF_L && m->pm != PM_KICK_OFF_R
            && m->pm != PM_DROP_BALL)
            return;
    }
}

static const char *const timing[] = { "server::half_time=1", "server::extra_half_time=1",
                                      "server::penalty_shoot_outs=false", NULL };

Test(ref_time, halves_extra_halves_time_up, .timeout = 120)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, timing), 0);
    e2e_ref_connect(&m, "A", 0);
    e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    play_half(&m, 20);
    cr_expect_eq(m.pm, PM_BEFORE_KICK_OFF);
    cr_expect_eq(m.time, 10);
    /* nothing moves the clock before the next kick-off */
    cr_assert_eq(e2e_ref_cycles(&m, 5), 0);
    cr_expect_eq(m.time, 10);
    play_half(&m, 20);
    cr_expect_eq(m.time, 20);
    play_half(&m, 20);
    cr_expect_eq(m.time, 30);
    play_half(&m, 20);
    cr_expect_eq(m.pm, PM_TIME_OVER);
    cr_expect_eq(m.time, 40);
    /* time_over: the clock stands for good */
    cr_assert_eq(e2e_ref_cycles(&m, 3), 0);
    cr_expect_eq(m.time, 40);
    cr_expect_str_eq(m.log, "0 kick_off_l;10 half_time;10 before_kick_off;10 kick_off_r;"
                            "20 time_extended;20 before_kick_off;20 kick_off_l;"
                            "30 time_extended;30 before_kick_off;30 kick_off_r;"
                            "40 time_up;40 time_over;");
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_time, time_up_when_the_score_differs, .timeout = 120)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, timing), 0);
    int a1 = e2e_ref_connect(&m, "A", 0);
    e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    play_half(&m, 20);
    e2e_ref_trainer(&m, "(start)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    /* a goal for the left team in the second half (from the kick-off: the ball is sent
     * into the right goal) */
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_ball(&m, 51.0, 0.0, 2.0, 0.0);
    e2e_ref_place(&m, a1, -20.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "play_on;goal_l_1;");
    /* the goal wait does not run the clock; the kick-off for the right team idles */
    int n = e2e_ref_until(&m, PM_TIME_OVER, 80);
    cr_expect_gt(n, 0);
    cr_expect_eq(m.time, 20);
    const char *end = m.log + strlen(m.log) - strlen("20 time_up;20 time_over;");
    cr_expect_str_eq(end, "20 time_up;20 time_over;", "%s", m.log);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_time, golden_goal_ends_extra_time, .timeout = 120)
{
    const char *args[] = { "server::half_time=1", "server::extra_half_time=1",
                           "server::golden_goal=true", NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    int a1 = e2e_ref_connect(&m, "A", 0);
    e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    play_half(&m, 20);
    play_half(&m, 20);
    cr_expect_eq(m.time, 20);
    cr_expect(strstr(m.log, "20 time_extended;") != NULL, "%s", m.log);
    /* extra time: the first goal ends the game, no goal wait */
    e2e_ref_trainer(&m, "(start)");
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_ball(&m, 51.0, 0.0, 2.0, 0.0);
    e2e_ref_place(&m, a1, -20.0, 0.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_expect_str_eq(m.heard, "play_on;goal_l_1;time_over;");
    cr_expect_eq(m.pm, PM_TIME_OVER);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_time, time_up_without_a_team, .timeout = 120)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, timing), 0);
    e2e_ref_connect(&m, "A", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    play_half(&m, 20);
    play_half(&m, 20);
    cr_expect_eq(m.pm, PM_TIME_OVER);
    cr_expect_str_eq(m.log, "0 kick_off_l;10 half_time;10 before_kick_off;10 kick_off_r;"
                            "20 time_up_without_a_team;20 time_over;");
    cr_expect_eq(e2e_ref_stop(&m), 0);
}
